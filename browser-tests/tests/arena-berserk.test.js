// Berserk in an arena, in real Chromium: a private arena started by its maker's secret, two
// people join from its page and are paired; the one who will win presses Berserk by their clock
// before their first move, and both pages show that clock halved (1:30 of a 3+2) with its mark,
// the other page even though its berserk script came only after the event (held back on purpose).
// The game is then played to a real win on the board by typed moves, each the choice of the
// engine compiled for Node (the berserker's at level 8, the other's at level 1 with few nodes),
// and the arena's page shows the winner's 3 points: 2 for the win and 1 for going berserk.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { useArcade, keepScreenshotsOnFailure } from '../harness.js';
import { instantiate, requestLine, readReply } from '../../crates/dara-server/assets/engine-wasm.js';

const { server, newPage, pages } = useArcade();
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const engine = await instantiate(readFileSync(join(root, 'crates/dara-server/assets/engine.wasm')));

async function post(path, body) {
  return fetch(`${server.url}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
}

async function joinAs(page, arena, name) {
  await page.goto(`${server.url}/arena/${arena}`);
  await page.waitForFunction(() => document.querySelector('#arena-time').textContent.trim() !== '');
  await page.fill('#arena-name', name);
  await page.click('#join');
  await page.locator('#arena-joined').waitFor();
}

const moveList = (page) => page.$$eval('#moves button.move', (b) => b.map((x) => x.textContent));
const clockOf = (page, colour) => page.locator(`#player-${colour} .clock`).innerText();

// Plays the game to its end, each turn typed by the page whose turn it is: the strong page's
// moves from the engine at level 8, the weak page's at level 1 with a few nodes.
async function playToTheEnd(strong, weak) {
  for (let turn = 0; turn < 300; turn += 1) {
    const mover = await Promise.race([strong, weak].map((page) => page.waitForFunction(() => !document.querySelector('#end').hidden
      || document.querySelector('#turn').textContent.startsWith('Your turn'), null, { timeout: 30000 }).then(() => page)));
    if (await mover.locator('#end').isVisible()) return;
    const moves = await moveList(mover);
    const level = mover === strong ? { level: 8, nodes: 20000 } : { level: 1, nodes: 200 };
    const reply = readReply(engine.think(requestLine({ rules: 'arcade', moves, seed: turn, ...level })));
    await mover.fill('#typed-input', reply.move);
    await mover.press('#typed-input', 'Enter');
    // Both pages have the turn (or the end) before the next is looked for.
    for (const page of [strong, weak]) {
      await page.waitForFunction((n) => document.querySelectorAll('#moves button.move').length > n
        || !document.querySelector('#end').hidden, moves.length);
    }
  }
  assert.fail('the game did not end in 300 turns');
}

test('berserk: the clock halved on both pages, a win on the board, 3 points', { timeout: 150000 }, async () => {
  await keepScreenshotsOnFailure('arena-berserk', pages, async () => {
    const started = Date.now();
    const made = await post('/api/arenas', { rules: 'arcade', clock: { initial: 180, increment: 2 }, minutes: 10 });
    assert.equal(made.status, 201);
    const { arena, secret } = await made.json();
    // No service worker: it would answer the script held below without the test seeing it.
    const ama = await newPage({ width: 1280, height: 800 }, { serviceWorkers: 'block' });
    const kofi = await newPage({ width: 390, height: 844 }, { serviceWorkers: 'block' });
    // Each game page's arena script (which brings berserk) is held until the test lets it go.
    const release = new Map();
    for (const page of [ama, kofi]) {
      const go = new Promise((resolve) => release.set(page, resolve));
      await page.route(/\/arena-game\.[0-9a-f]+\.js$/, async (route) => { await go; await route.continue(); });
    }
    await joinAs(ama, arena, 'Ama');
    await joinAs(kofi, arena, 'Kofi');
    assert.equal((await post(`/api/arenas/${arena}/start`, { secret })).status, 204);
    for (const page of [ama, kofi]) await page.waitForURL(/\/g\/[0-9a-f]{16}#seat=[0-9a-f]{32}$/, { timeout: 20000 });

    // Pale moves first: the one whose board offers a cell goes berserk, and will win.
    const pale = await Promise.race([ama, kofi].map((page) => page.waitForSelector('[data-cell].put', { timeout: 20000 }).then(() => page, () => new Promise(() => {}))));
    const dark = pale === ama ? kofi : ama;
    assert.equal(await clockOf(pale, 'white'), '3:00');
    release.get(pale)();
    // The button sits by the player's own clock, before their first move.
    const button = pale.locator('#player-white #berserk');
    await button.waitFor();
    assert.equal(await button.innerText(), 'Berserk');
    await button.click();
    await pale.waitForFunction(() => document.querySelector('#player-white .clock').textContent === '1:30');
    await pale.locator('#player-white .berserk-mark').waitFor();
    // Dark's page halves the clock by itself; its berserk script, held until now, still marks
    // the side that went berserk before it came.
    await dark.waitForFunction(() => document.querySelector('#player-white .clock').textContent === '1:30');
    assert.equal(await dark.locator('#player-white .berserk-mark').count(), 0, 'the script was held');
    release.get(dark)();
    await dark.locator('#player-white .berserk-mark').waitFor();
    for (const page of [pale, dark]) assert.equal(await clockOf(page, 'black'), '3:00');
    assert.equal(await button.isVisible(), false, 'one berserk a game');
    // Dark may still go berserk before its own first move; it does not.
    assert.equal(await dark.locator('#player-black #berserk').isVisible(), true);

    await playToTheEnd(pale, dark);
    const end = await pale.locator('#end').innerText();
    assert.match(end, /You won/i, end);
    const plies = (await moveList(pale)).length;
    assert.ok(plies >= 14, `pale made at least 7 moves: ${plies} plies`);

    // Anyone's view of the arena: the winner's 3, marked berserk on the sheet.
    const looker = await newPage({ width: 390, height: 844 });
    await looker.goto(`${server.url}/arena/${arena}`);
    const winner = pale === ama ? 'Ama' : 'Kofi';
    await looker.waitForFunction((name) => [...document.querySelectorAll('#standings tbody tr')].some((tr) => tr.textContent.includes(name)
      && tr.querySelector('.arena-score').textContent.trim() === '3' && tr.querySelector('.arena-sheet').textContent.trim() === '3⚔'), winner, { timeout: 20000 });
    console.log(`arena-berserk: ${plies} plies, ${((Date.now() - started) / 1000).toFixed(1)} s`);
  });
});
