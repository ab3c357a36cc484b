// Games against the computer played in the page (assets/page-table.js: the table crate and the
// engine as WebAssembly), in real Chromium: started from the home page, no turn and no search
// on the server (its counters do not move, no game socket opens), kept in the browser through
// a reload, and played to a real win on the board.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { useArcade, keepScreenshotsOnFailure, createGame, playComputerFromHome } from '../harness.js';
import { instantiate, requestLine, readReply } from '../../crates/dara-server/assets/engine-wasm.js';

const { server, newPage, pages } = useArcade();
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
// The test's own player: the same engine, under Node, searching far more than level 1 does.
const player = await instantiate(readFileSync(join(root, 'crates/dara-server/assets/engine.wasm')));

const moveList = (page) => page.$$eval('#moves button.move', (b) => b.map((x) => x.textContent));

// What the server has done for games: turns it accepted, searches its computer ran.
async function serverWork() {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  const value = (name) => Number(new RegExp(`^dara_${name}(?:_total)? (\\d+)`, 'm').exec(text)?.[1]);
  return { turns: value('turns'), searches: value('engine_searches') };
}

// Plays the person's turns, each the test's engine's choice, until the game ends; reloads the
// page once after `reloadAt` turns and checks that the game is there as it was.
async function playToTheEnd(page, rules, { reloadAt = Infinity } = {}) {
  for (let turn = 0; turn < 200; turn += 1) {
    await page.waitForFunction(() => !document.querySelector('#end').hidden
      || document.querySelector('#turn').textContent.startsWith('Your turn'), null, { timeout: 30000 });
    if (await page.locator('#end').isVisible()) return;
    const moves = await moveList(page);
    if (turn === reloadAt) {
      // The computer's last move in words ("Dark stepped b1 to b2 and took a2. Your turn: …"),
      // still said after the reload, shown and to a screen reader.
      const said = await page.locator('#status-note').innerText();
      assert.match(said, /^Dark (placed on|stepped) [a-f][1-5].*\. Your turn/);
      await page.reload();
      await page.waitForFunction((n) => document.querySelectorAll('#moves button.move').length === n, moves.length);
      assert.deepEqual(await moveList(page), moves, 'the reload continues the game where it was');
      await page.waitForFunction(() => document.querySelector('#turn').textContent.startsWith('Your turn'));
      await page.waitForFunction((text) => document.querySelector('#status-note').textContent === text
        && document.querySelector('#announce').textContent === text, said);
    }
    const reply = readReply(player.think(requestLine({ rules, moves, level: 8, seed: turn, nodes: 20000 })));
    await page.fill('#typed-input', reply.move);
    await page.press('#typed-input', 'Enter');
    await page.waitForFunction((n) => document.querySelectorAll('#moves button.move').length > n
      || !document.querySelector('#end').hidden, moves.length);
  }
  assert.fail('the game did not end in 200 turns');
}

test('the computer plays in the page: started from home, nothing on the server, kept through a reload, won on the board', { timeout: 180000 }, async () => {
  await keepScreenshotsOnFailure('computer-in-page', pages, async () => {
    const page = await newPage();
    const sockets = [];
    page.on('websocket', (ws) => sockets.push(new URL(ws.url()).pathname));
    const before = await serverWork();
    assert.ok(Number.isInteger(before.turns) && Number.isInteger(before.searches), JSON.stringify(before));
    const id = await playComputerFromHome(page, server.url, { level: 1 });

    await playToTheEnd(page, 'arcade', { reloadAt: 6 });
    const result = await page.locator('#end').innerText();
    assert.match(result, /You won \(1-0\): Dark has (too few stones left|no stone that can step)/, result);
    const moves = await moveList(page);
    assert.ok(moves.length > 24, `${moves.length} turns: placement and steps were played`);
    // The game's moves as its record numbers them: the number of its last. The record wraps at 80
    // columns, so a number may end its line.
    const record = (await page.locator('#record').inputValue()).split('\n\n').at(-1);
    const numbered = Number([...record.matchAll(/(\d+)\.(?:\.\.)?\s/g)].at(-1)[1]);
    const lastNumber = await page.locator('#moves .number').last().innerText();
    assert.ok(lastNumber.startsWith(`${numbered}.`), `the move list ends at ${lastNumber}, the record at ${numbered}:\n${record}\n${moves.join(' ')}`);

    const after = await serverWork();
    assert.deepEqual(after, before, 'no turn and no search on the server');
    assert.deepEqual(sockets.filter((p) => p.startsWith('/ws/game')), [], 'no game socket');
    // Kept in this browser, finished: it opens again as it ended.
    const kept = await page.evaluate((game) => JSON.parse(localStorage.getItem(`dara.computer.${game}`)), id);
    assert.equal(kept.game, id);
    assert.equal(kept.journal.at(-1).e, 'ended');
    assert.deepEqual(await page.evaluate(() => JSON.parse(localStorage.getItem('dara.computer.finished'))), [id]);

    // The home page lists it; it opens as it ended, and goes on to the analysis board.
    await page.goto(server.url + '/');
    const listed = page.locator('#kept-list a');
    assert.equal(await listed.count(), 1);
    assert.match(await listed.innerText(), new RegExp(`^Level 1, \\d{4}\\.\\d\\d\\.\\d\\d: ${numbered} moves, 1-0$`));
    await listed.click();
    await page.waitForURL(new RegExp(`/computer/${id}$`));
    await page.waitForSelector('#end:not([hidden])');
    assert.deepEqual(await moveList(page), moves);
    await page.click('#analyse-link');
    await page.waitForURL(/\/analysis#/);
    await page.waitForFunction((n) => document.querySelectorAll('#moves button.move').length === n, moves.length);
  });
});

test('where the page asks the server (a game made through the API), the server\'s computer plays it, and is counted', { timeout: 60000 }, async () => {
  await keepScreenshotsOnFailure('computer-on-server', pages, async () => {
    const before = await serverWork();
    const created = await createGame(server, { opponent: 'computer', level: 1, first: 'them' });
    const page = await newPage();
    await page.goto(server.url + created.url);
    await page.waitForFunction(() => document.querySelectorAll('#moves button.move').length === 1);
    const after = await serverWork();
    assert.ok(after.searches > before.searches && after.turns > before.turns, `${JSON.stringify(before)} → ${JSON.stringify(after)}`);
  });
});

// The fallback: a server built without the page's modules (scripts/build-wasm never run, here
// its table.wasm answered 404) and a browser without WebAssembly both get the server's computer
// from the home page's "Play the computer", and it answers a turn.
for (const [name, lacking] of [
  ['a server without the page\'s modules', (page) => page.route(/\/table(\.[0-9a-f]+)?\.wasm/, (route) => route.fulfill({ status: 404, body: 'no such asset' }))],
  ['a browser without WebAssembly', (page) => page.addInitScript(() => { delete globalThis.WebAssembly; })],
]) {
  test(`${name}: "Play the computer" on the home page is played by the server's computer`, { timeout: 60000 }, async () => {
    await keepScreenshotsOnFailure('computer-fallback', pages, async () => {
      const page = await newPage();
      await lacking(page);
      const before = await serverWork();
      await page.goto(server.url + '/');
      await page.selectOption('#level', '1');
      await page.selectOption('#computer-colour', 'pale');
      await page.click('#play-computer button[type=submit]');
      await page.waitForURL(/\/g\/[0-9a-f]{16}(#|$)/);
      await page.locator('[data-cell="a1"].put').click();
      await page.waitForFunction(() => document.querySelectorAll('#moves button.move').length === 2);
      const after = await serverWork();
      assert.ok(after.searches > before.searches && after.turns >= before.turns + 2, `${JSON.stringify(before)} → ${JSON.stringify(after)}`);
    });
  });
}

test('a takeback in the page undoes the turn and the computer\'s answer, the board in view on a phone; the home page counts what stands', { timeout: 60000 }, async () => {
  await keepScreenshotsOnFailure('computer-in-page-takeback', pages, async () => {
    const page = await newPage({ width: 390, height: 844 });
    await playComputerFromHome(page, server.url, { level: 1 });
    for (const [cell, plies] of [['c3', 2], ['a1', 4]]) {
      await page.waitForFunction(() => document.querySelector('#turn').textContent.startsWith('Your turn'));
      const answered = await moveList(page);
      // The first stone on c3; the second on a1 unless the computer took it.
      const target = answered.includes(cell) ? 'f5' : cell;
      await page.fill('#typed-input', target);
      await page.press('#typed-input', 'Enter');
      await page.waitForFunction((n) => document.querySelectorAll('#moves button.move').length === n, plies);
    }
    // Scrolled down to the move list, as a player looking at the moves is: the board is out of view.
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    assert.ok(await page.evaluate(() => document.querySelector('svg.board').getBoundingClientRect().top < 0), 'the board scrolled off');
    await page.click('#takeback');
    await page.waitForFunction(() => document.querySelectorAll('#moves button.move').length === 2);
    // On a phone Take back is under the board: the board comes back into view after it.
    await page.waitForFunction(() => {
      const box = document.querySelector('svg.board').getBoundingClientRect();
      return box.top >= -1 && box.bottom <= window.innerHeight + 1;
    });
    await page.goto(server.url + '/');
    assert.match(await page.locator('#kept-list a').innerText(), /: 1 move, still being played$/);
  });
});
