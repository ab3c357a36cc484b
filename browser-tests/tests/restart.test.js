// Restarts that lose nothing, in real Chromium: the server is killed mid-game and started again
// on the same data; both pages say they are reconnecting, take the game up again and finish it.
// A page whose game the server no longer has says so instead of retrying.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, useBrowser, keepScreenshotsOnFailure, createGame, typeTurn, moveCount } from '../harness.js';

const { newPage, pages, dataDir } = useBrowser();



test('a server killed mid-game comes back: both pages reconnect, resume and finish the game', { timeout: 90000 }, async () => {
  const dir = dataDir('restart');
  let server = await startServer(['--data-dir', dir]);
  const listen = new URL(server.url).host;
  try {
    await keepScreenshotsOnFailure('restart', pages, async () => {
      const created = await createGame(server, { opponent: 'friend', first: 'me' });
      const host = await newPage();
      await host.goto(server.url + created.url);
      const friend = await newPage();
      await friend.goto(`${server.url}/g/${created.game}`);
      await host.waitForSelector('#invite', { state: 'hidden' });
      await typeTurn(host, 'c3', 1);
      await typeTurn(friend, 'd4', 2);

      // A crash: no goodbye to anyone.
      await server.kill('SIGKILL');
      for (const page of [host, friend]) {
        await page.waitForSelector('#connection:not([hidden])', { timeout: 15000 });
        assert.equal(await page.locator('#connection-text').innerText(), 'Connection lost: reconnecting…');
      }
      server = await startServer(['--data-dir', dir], { listen });
      for (const page of [host, friend]) {
        await page.waitForSelector('#connection', { state: 'hidden', timeout: 20000 });
        assert.equal(await moveCount(page), 2, 'every acknowledged turn is there, once');
      }
      // The game goes on from where it was, and is finished.
      await typeTurn(host, 'a1', 3);
      await typeTurn(friend, 'f5', 4);
      assert.deepEqual(await friend.$$eval('#moves button.move', (b) => b.map((x) => x.textContent)), ['c3', 'd4', 'a1', 'f5']);
      await host.click('#resign');
      await host.click('#resign-confirm');
      for (const page of [host, friend]) await page.waitForSelector('#end:not([hidden])');
      assert.match(await friend.locator('#result').innerText(), /^You won \(0-1\)/);
    });
  } finally {
    server.stop();
  }
});

test('a page whose game the server no longer has says so, and stops retrying', { timeout: 60000 }, async () => {
  // Kept in memory only: a restart forgets the game.
  let server = await startServer();
  const listen = new URL(server.url).host;
  try {
    await keepScreenshotsOnFailure('no-longer-kept', pages, async () => {
      const created = await createGame(server, { opponent: 'computer', level: 1, first: 'me' });
      const page = await newPage();
      await page.goto(server.url + created.url);
      await typeTurn(page, 'c3', 2);
      await server.kill('SIGKILL');
      server = await startServer([], { listen });
      await page.waitForFunction(() => document.querySelector('#connection-text').textContent === 'This game is over and no longer kept.', null, { timeout: 20000 });
      assert.equal(await page.locator('#retry-now').isVisible(), false, 'nothing to retry');
      // Opened afresh, its link says the same in the page it gets.
      const late = await newPage();
      await late.goto(server.url + created.url);
      assert.match(await late.locator('main').innerText(), /no longer kept/);
    });
  } finally {
    server.stop();
  }
});
