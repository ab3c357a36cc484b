// The Arcade in real Chromium: games played by clicking, by dragging, by keyboard, across two
// browsers, and across a reload.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useArcade, keepScreenshotsOnFailure, createGame, clickTurn, myTurnOrEnd, playComputerFromHome } from '../harness.js';

const { server, newPage, pages } = useArcade(['--instant-computer', '--claim-after', '2']);

// The moves as the list shows them, two a line: 'c3 d4\na1 f5'.
const movesText = (page) => page.$$eval('#moves li', (lines) => lines
  .map((li) => [...li.querySelectorAll('button.move')].map((b) => b.textContent).join(' ')).join('\n'));
const moveCount = (page) => page.locator('#moves button.move').count();

// Starts a game from the home page's forms.
async function startFromHome(page, form) {
  await page.goto(server.url + '/');
  await page.click(`#${form} button[type=submit]`);
  await page.waitForURL(/\/g\/[0-9a-f]{16}#seat=[0-9a-f]{32}$/);
}

test('a complete game against the computer, played by clicking', { timeout: 240000 }, async () => {
  await keepScreenshotsOnFailure('computer', pages, async () => {
    const page = await newPage();
    // Played in the page (page-table.js), the computer's moves by the engine's worker.
    await playComputerFromHome(page, server.url, { level: 1, preset: 'wikipedia' });
    // The page shows "…" until the game's first snapshot arrives from its table.
    await page.waitForFunction(() => document.querySelector('#rules').innerText !== '…');
    assert.equal(await page.locator('#rules').innerText(), 'wikipedia');
    let turns = 0;
    while (!(await myTurnOrEnd(page))) {
      const before = await moveCount(page);
      await clickTurn(page);
      await page.waitForFunction((n) => document.querySelectorAll('#moves button.move').length > n, before);
      turns += 1;
      assert.ok(turns < 400, 'the game ends');
    }
    const result = await page.locator('#result').innerText();
    assert.match(result, /(You won|You lost|Draw) \((1-0|0-1|1\/2-1\/2)\): /);
    const record = await page.locator('#record').inputValue();
    assert.match(record, /\[Rules "wikipedia"\]/);
    assert.match(record, /\[Black "Computer level 1"\]/);
    // A finished game offers no takeback.
    assert.ok(await page.locator('#takeback').isHidden());
  });
});

test('two browsers play each other through the invite link, then rematch', { timeout: 60000 }, async () => {
  await keepScreenshotsOnFailure('friend', pages, async () => {
    const host = await newPage();
    await host.goto(server.url + '/');
    await host.selectOption('#friend-first', 'me');
    await host.selectOption('#clock', '10+5');
    await host.click('#play-friend button[type=submit]');
    await host.waitForSelector('#invite:not([hidden])');
    const link = await host.locator('#invite-link').inputValue();
    assert.match(link, /\/g\/[0-9a-f]{16}$/);

    const friend = await newPage({ width: 390, height: 844 });
    await friend.goto(link);
    await friend.waitForFunction(() => document.querySelector('#player-black .name').textContent === 'You');
    await host.waitForSelector('#invite', { state: 'hidden' });
    // The seat is remembered, never shown: the address is still the plain invite link, and the
    // host opening that link in their own browser keeps their seat without showing its token.
    assert.equal(friend.url(), link);
    const again = await host.context().newPage();
    await again.goto(link);
    await again.waitForFunction(() => document.querySelector('#player-white .name').textContent === 'You');
    assert.equal(again.url(), link);
    await again.close();
    await host.waitForFunction(() => document.querySelector('#turn').textContent.startsWith('Your turn'));
    // Alternate placements, each seen by the other side.
    for (const [page, other, cell] of [[host, friend, 'c3'], [friend, host, 'd4'], [host, friend, 'a1'], [friend, host, 'f5']]) {
      await page.click(`[data-cell="${cell}"].put`);
      await other.waitForFunction((c) => document.querySelector('#moves').innerText.includes(c), cell);
    }
    assert.equal(await movesText(host), 'c3 d4\na1 f5');
    assert.match(await friend.locator('[data-cell="c3"]').getAttribute('aria-label'), /^c3, pale stone/);
    // The clock runs for the side to move.
    assert.match(await host.locator('#player-white .clock').innerText(), /^\d+:\d\d$/);

    await friend.click('#resign');
    await friend.click('#resign-confirm');
    await host.waitForSelector('#end:not([hidden])');
    assert.match(await host.locator('#result').innerText(), /^You won \(1-0\): Dark resigned/);
    await host.click('#rematch');
    await friend.waitForFunction(() => document.querySelector('#rematch').textContent === 'Accept rematch');
    const oldUrl = friend.url();
    await friend.click('#rematch');
    await friend.waitForURL((u) => u.toString() !== oldUrl);
    await host.waitForURL((u) => !u.toString().startsWith(oldUrl.split('#')[0]));
    // Colours swapped: the friend now has the pale stones and places first.
    await friend.waitForFunction(() => document.querySelector('#turn').textContent.startsWith('Your turn'));
    await friend.click('[data-cell="b2"].put');
    await host.waitForFunction(() => document.querySelector('#moves').innerText.includes('b2'));
  });
});

test('a reload in the middle of a game on the server resumes the seat', { timeout: 60000 }, async () => {
  await keepScreenshotsOnFailure('reload', pages, async () => {
    const page = await newPage();
    const created = await createGame(server, { opponent: 'computer', level: 1, first: 'me' });
    await page.goto(server.url + created.url);
    const url = page.url();
    for (let i = 0; i < 2; i++) {
      await myTurnOrEnd(page);
      await page.waitForFunction((n) => document.querySelectorAll('#moves li').length === n, i);
      await clickTurn(page);
    }
    await page.waitForFunction(() => document.querySelectorAll('#moves li').length === 2
      && document.querySelector('#turn').textContent.startsWith('Your turn'));
    const before = await movesText(page);
    await page.reload();
    await page.waitForFunction((n) => document.querySelectorAll('#moves button.move').length === n, before.split(/\s+/).length);
    assert.equal(await movesText(page), before);
    assert.equal(page.url(), url);
    // The bare link (no token in it) also finds the seat, remembered by the browser.
    await page.goto(url.split('#')[0]);
    await page.waitForFunction(() => document.querySelector('#turn').textContent.startsWith('Your turn'));
    assert.equal(await movesText(page), before);
    await clickTurn(page);
    await page.waitForFunction(() => document.querySelectorAll('#moves li').length === 3);
  });
});

test('a placement made by keyboard alone', { timeout: 60000 }, async () => {
  await keepScreenshotsOnFailure('keyboard', pages, async () => {
    const page = await newPage();
    await startFromHome(page, 'play-friend');
    // Tab into the board.
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press('Tab');
      if (await page.evaluate(() => !!document.activeElement.dataset?.cell)) break;
    }
    assert.equal(await page.evaluate(() => document.activeElement.dataset.cell), 'a1');
    // The friend has not sat down: the board says so rather than playing.
    await page.keyboard.press('Enter');
    assert.equal(await page.locator('#moves li').count(), 0);

    const friend = await newPage();
    await friend.goto(await page.locator('#invite-link').inputValue());
    await page.waitForSelector('#invite', { state: 'hidden' });
    await page.locator('[data-cell="a1"]').focus();
    for (const key of ['ArrowRight', 'ArrowRight', 'ArrowUp', 'ArrowUp']) await page.keyboard.press(key);
    assert.equal(await page.evaluate(() => document.activeElement.dataset.cell), 'c3');
    assert.match(await page.evaluate(() => document.activeElement.getAttribute('aria-label')), /^c3, empty, you can place here/);
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelector('#moves').innerText.includes('c3'));
    assert.match(await page.locator('[data-cell="c3"]').getAttribute('aria-label'), /^c3, pale stone/);
    assert.match(await page.locator('#announce').innerText(), /^Pale placed on c3\./);
  });
});

test('a player who leaves is shown reconnecting, and the game can be claimed', { timeout: 60000 }, async () => {
  await keepScreenshotsOnFailure('abandon', pages, async () => {
    const host = await newPage();
    await startFromHome(host, 'play-friend');
    const friend = await newPage();
    await friend.goto(await host.locator('#invite-link').inputValue());
    await host.waitForSelector('#invite', { state: 'hidden' });
    await friend.close();
    await host.waitForFunction(() => /reconnecting \(\d+ s\)/.test(document.querySelector('#player-black .away').textContent));
    await host.waitForSelector('#claim:not([hidden]):not([disabled])', { timeout: 10000 });
    await host.click('#claim');
    await host.waitForSelector('#end:not([hidden])');
    assert.match(await host.locator('#result').innerText(), /^You won \(1-0\): Dark left the game/);
  });
});

// Presses on one cell's centre, moves the mouse to another's and lets go there.
async function drag(page, from, to) {
  const centre = async (cell) => {
    const box = await page.locator(`[data-cell="${cell}"] .hit`).boundingBox();
    return [box.x + box.width / 2, box.y + box.height / 2];
  };
  const [x1, y1] = await centre(from);
  const [x2, y2] = await centre(to);
  await page.mouse.move(x1, y1);
  await page.mouse.down();
  await page.mouse.move(x2, y2, { steps: 10 });
  await page.mouse.up();
}

test('a step made by dragging a stone, also one picked up by a tap first', { timeout: 60000 }, async () => {
  await keepScreenshotsOnFailure('drag', pages, async () => {
    // Three stones each: six placements, then the movement phase.
    const created = await createGame(server, { opponent: 'friend', rules: 'arcade,stones=3', first: 'me' });
    const host = await newPage();
    await host.goto(server.url + created.url);
    const friend = await newPage();
    await friend.goto(`${server.url}/g/${created.game}`);
    await host.waitForSelector('#invite', { state: 'hidden' });
    for (const [page, other, cell] of [[host, friend, 'a1'], [friend, host, 'f5'], [host, friend, 'c1'],
      [friend, host, 'f3'], [host, friend, 'e1'], [friend, host, 'd5']]) {
      await page.click(`[data-cell="${cell}"].put`);
      await other.waitForFunction((c) => document.querySelector('#moves').innerText.includes(c), cell);
    }
    await host.waitForFunction(() => document.querySelector('#turn').textContent === 'Your turn: step a stone.');

    // Pale drags a1 up to a2: one press, one release, no click on either cell.
    await drag(host, 'a1', 'a2');
    for (const page of [host, friend]) {
      await page.waitForFunction(() => document.querySelector('#moves').innerText.includes('a1-a2'));
    }
    assert.equal(await movesText(host), 'a1 f5\nc1 f3\ne1 d5\na1-a2');
    assert.match(await host.locator('[data-cell="a2"]').getAttribute('aria-label'), /^a2, pale stone/);

    // Dark (on a board turned round) taps f5 to see where it can go, then drags it to f4.
    await friend.waitForFunction(() => document.querySelector('#turn').textContent === 'Your turn: step a stone.');
    await friend.click('[data-cell="f5"]');
    await friend.waitForSelector('[data-cell="f4"].target');
    await drag(friend, 'f5', 'f4');
    for (const page of [host, friend]) {
      await page.waitForFunction(() => document.querySelector('#moves').innerText.includes('f5-f4'));
    }
    assert.match(await friend.locator('[data-cell="f4"]').getAttribute('aria-label'), /^f4, dark stone/);
  });
});

test('the three ways to play come first, on the first screen, on a phone and on a desktop', { timeout: 30000 }, async () => {
  await keepScreenshotsOnFailure('home-layout', pages, async () => {
    const buttons = ['#play-computer button[type=submit]', '#play-friend button[type=submit]', '#play-anyone', '#open-table'];
    for (const [width, height] of [[390, 844], [1280, 800], [1280, 860]]) {
      const page = await newPage({ width, height });
      await page.goto(server.url + '/');
      const setupTop = (await page.locator('#setup').boundingBox()).y;
      for (const button of buttons) {
        const box = await page.locator(button).boundingBox();
        assert.ok(box.y + box.height <= height, `${button} is on the first screen at ${width} × ${height} (bottom at ${box.y + box.height})`);
        assert.ok(box.y < setupTop, `${button} comes before the rules form at ${width} px`);
      }
      // Which rules and clock those buttons use is said above them, with a way to change it.
      assert.equal(await page.locator('#rules-summary').innerText(), 'Rules arcade, 5 min + 3 s for games between people. Change');
      await page.selectOption('#clock', 'none');
      await page.selectOption('#preset', 'jaques');
      assert.match(await page.locator('#rules-summary').innerText(), /^Rules jaques, no clock for games/);
    }
  });
});
