// The clock in real Chromium: the server's flag falls and both players' pages show the result.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useArcade, keepScreenshotsOnFailure, createGame } from '../harness.js';

const { server, newPage, pages } = useArcade();

// The shortest clock the site offers is 30 s, so this test waits that long: it is the real
// protocol, with no setting a visitor could not use.
test('a player whose clock runs out loses, and both pages say so', { timeout: 90000 }, async () => {
  await keepScreenshotsOnFailure('flag', pages, async () => {
    const created = await createGame(server, { opponent: 'friend', first: 'me', clock: { initial: 30, increment: 0 } });
    const host = await newPage();
    await host.goto(server.url + created.url);
    const friend = await newPage({ width: 390, height: 844 });
    await friend.goto(`${server.url}/g/${created.game}`);
    await host.waitForSelector('#invite', { state: 'hidden' });
    assert.match(await host.locator('#player-white .clock').innerText(), /^0:[23]\d$/);

    // Pale (the host) never places a stone: half a minute (and the lag allowance) later...
    for (const page of [host, friend]) {
      await page.waitForSelector('#end:not([hidden])', { timeout: 45000 });
      assert.equal(await page.locator('#result').innerText(), 'Dark wins (0-1): Pale ran out of time');
      assert.equal(await page.locator('#player-white .clock').innerText(), '0:00');
      assert.match(await page.locator('#turn').innerText(), /^Game over: Dark wins/);
    }
    const record = await host.locator('#record').inputValue();
    assert.match(record, /^\[Event "Casual game"\]\n\[Date "\d{4}\.\d\d\.\d\d"\]\n/);
    assert.match(record, /\[Result "0-1"\]/);
  });
});
