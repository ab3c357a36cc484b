// The clock in real Chromium: each side's clock starts with its first move, as on lichess; the
// server's flag falls and both players' pages show the result.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useArcade, keepScreenshotsOnFailure, createGame } from '../harness.js';

const { server, newPage, pages } = useArcade();

const sleep = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });

// Waits until `page` shows `move` as the last move in its list.
async function sees(page, move) {
  await page.waitForFunction((m) => [...document.querySelectorAll('#moves .move')].some((e) => e.textContent.trim() === m), move);
}

// The shortest clock the site offers is 30 s, so this test waits that long: it is the real
// protocol, with no setting a visitor could not use.
test('no clock runs before a side\'s first move; then a player whose clock runs out loses, and both pages say so', { timeout: 120000 }, async () => {
  await keepScreenshotsOnFailure('flag', pages, async () => {
    const created = await createGame(server, { opponent: 'friend', first: 'me', clock: { initial: 30, increment: 0 } });
    const host = await newPage();
    await host.goto(server.url + created.url);
    const friend = await newPage({ width: 390, height: 844 });
    await friend.goto(`${server.url}/g/${created.game}`);
    await host.waitForSelector('#invite', { state: 'hidden' });

    // Both seated: pale's clock stands still at the full half minute while pale has 30 s to
    // place a first stone, which both pages count down.
    await friend.waitForSelector('#player-white .first-move:text-matches("^\\\\d+ s to make a first move$")');
    await sleep(2500);
    for (const page of [host, friend]) {
      // Each page read once it counts down too.
      await page.waitForSelector('#player-white .first-move:text-matches("^\\\\d+ s to make a first move$")');
      assert.equal(await page.locator('#player-white .clock').innerText(), '0:30');
      assert.equal(await page.locator('#player-black .clock').innerText(), '0:30');
      const left = Number((await page.locator('#player-white .first-move').innerText()).split(' ')[0]);
      assert.ok(left >= 20 && left <= 28, `pale has ${left} s left for a first move`);
      assert.equal(await page.locator('#player-black .first-move').innerText(), '');
    }

    // Pale's first placement costs nothing; now dark's first move is awaited, both clocks still.
    await host.click('[data-cell="c3"]');
    await sees(friend, 'c3');
    await friend.waitForSelector('#player-black .first-move:text-matches("s to make a first move")');
    await sleep(1500);
    assert.equal(await friend.locator('#player-white .clock').innerText(), '0:30');
    assert.equal(await friend.locator('#player-black .clock').innerText(), '0:30');
    assert.equal(await friend.locator('#player-white .first-move').innerText(), '');
    await friend.click('[data-cell="d4"]');
    await sees(host, 'd4');

    // From dark's first move pale's clock runs; pale never places again: half a minute (and
    // the lag allowance) later...
    await host.waitForFunction(() => document.querySelector('#player-white .clock').textContent < '0:29');
    assert.equal(await host.locator('#player-black .first-move').innerText(), '');
    // Each player hears the result as theirs: pale lost, dark won.
    for (const [page, head] of [[host, 'You lost'], [friend, 'You won']]) {
      await page.waitForSelector('#end:not([hidden])', { timeout: 45000 });
      assert.equal(await page.locator('#result').innerText(), `${head} (0-1): Pale ran out of time`);
      assert.equal(await page.locator('#player-white .clock').innerText(), '0:00');
      assert.equal(await page.locator('#player-black .clock').innerText(), '0:30');
      assert.equal((await page.locator('#turn').innerText()).startsWith(`Game over: ${head}`), true);
    }
    const record = await host.locator('#record').inputValue();
    assert.match(record, /^\[Event "Casual game"\]\n\[Date "\d{4}\.\d\d\.\d\d"\]\n/);
    assert.match(record, /\[Result "0-1"\]/);
  });
});
