// What the server caps, as a page sees it: a seat opened in a third tab closes the oldest with
// 4011, and that page says so in words and stays closed, while the two newer ones play on; a
// game set apart as damaged closes with 4010, and its page says so.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { startServer, useBrowser, keepScreenshotsOnFailure, createGame, typeTurn, moveCount, catalogueWords } from '../harness.js';

const { newPage, pages, dataDir } = useBrowser();


// Counts the game sockets `page` opens, and the snapshots they hear (one per socket that got in).
function watchSockets(page) {
  const seen = { sockets: 0, snapshots: 0 };
  page.on('websocket', (ws) => {
    if (!new URL(ws.url()).pathname.startsWith('/ws/game/')) return;
    seen.sockets += 1;
    ws.on('framereceived', (f) => { if (JSON.parse(f.payload).t === 'snapshot') seen.snapshots += 1; });
  });
  return seen;
}



test('a seat opened in a third tab closes the oldest: it says so, stays closed, and the newer two play on', { timeout: 90000 }, async () => {
  const server = await startServer();
  try {
    await keepScreenshotsOnFailure('third-tab', pages, async () => {
      const created = await createGame(server, { opponent: 'friend', first: 'me' });
      // Three tabs of one browser: one person, one local storage, one seat.
      const oldest = await newPage();
      const context = oldest.context();
      const tabs = [oldest, await context.newPage(), await context.newPage()];
      for (const tab of tabs.slice(1)) tab.on('pageerror', (e) => { throw new Error(`page error: ${e.message}`); });
      const seen = tabs.map(watchSockets);
      await oldest.goto(server.url + created.url);
      // Drawn: the maker waiting for the friend is shown the invitation (the headline stays
      // empty while nobody has sat down, so that it does not shift the page when they do).
      await oldest.waitForSelector('#invite', { state: 'visible' });
      const friend = await newPage();
      await friend.goto(`${server.url}/g/${created.game}`);
      await oldest.waitForSelector('#invite', { state: 'hidden' });
      await typeTurn(oldest, 'c3', 1);
      await typeTurn(friend, 'd4', 2);

      for (const [i, tab] of tabs.entries()) {
        if (i === 0) continue;
        await tab.goto(server.url + created.url);
        // In: its socket heard the game before the next tab opens.
        await tab.waitForFunction(() => document.querySelectorAll('#moves button.move').length === 2);
        assert.equal(seen[i].snapshots, 1);
      }
      const replaced = await catalogueWords(oldest, 'connection.replaced');
      assert.ok(replaced, 'the catalogue has words for 4011');
      await oldest.waitForFunction((text) => document.querySelector('#connection-text').textContent === text, replaced, { timeout: 10000 });
      assert.ok(await oldest.locator('#connection').isVisible());
      assert.equal(await oldest.locator('#retry-now').isVisible(), false, 'nothing to retry');
      const sockets = seen[0].sockets;
      assert.equal(sockets, 1);

      // The two newer tabs play on with the friend; the oldest opens no socket meanwhile.
      const started = Date.now();
      await typeTurn(tabs[2], 'a1', 3);
      await tabs[1].waitForFunction(() => document.querySelectorAll('#moves button.move').length === 3);
      await typeTurn(friend, 'f5', 4);
      await typeTurn(tabs[1], 'e2', 5);
      await tabs[2].waitForFunction(() => document.querySelectorAll('#moves button.move').length === 5);
      await friend.waitForFunction(() => document.querySelectorAll('#moves button.move').length === 5);
      await oldest.waitForTimeout(Math.max(0, 6000 - (Date.now() - started)));
      assert.equal(seen[0].sockets, sockets, 'the replaced tab does not reconnect');
      assert.equal(await oldest.locator('#connection-text').innerText(), replaced, 'and still says why');
      assert.equal(await moveCount(oldest), 2, 'it heard nothing after it was closed');
      assert.deepEqual([seen[1].sockets, seen[2].sockets], [1, 1], 'the newer tabs kept their sockets');
    });
  } finally {
    server.stop();
  }
});

test('a game set apart as damaged closes with 4010, and its page says so', { timeout: 60000 }, async (t) => {
  const dir = dataDir('damaged');
  try {
    execFileSync('sqlite3', ['-version']);
  } catch {
    t.skip('no sqlite3 command to damage a row with');
    return;
  }
  let server = await startServer(['--data-dir', dir]);
  const listen = new URL(server.url).host;
  try {
    await keepScreenshotsOnFailure('damaged', pages, async () => {
      const created = await createGame(server, { opponent: 'computer', level: 1, first: 'me' });
      const page = await newPage();
      const seen = watchSockets(page);
      await page.goto(server.url + created.url);
      await typeTurn(page, 'c3', 2);
      await server.kill('SIGKILL');
      // The game's row no longer reads: its seats cut short.
      execFileSync('sqlite3', [join(dir, 'live-games.sqlite'), `UPDATE games SET seats = '{"white":' WHERE id = '${created.game}'`]);
      server = await startServer(['--data-dir', dir], { listen });
      const damaged = await catalogueWords(page, 'connection.damaged');
      assert.ok(damaged, 'the catalogue has words for 4010');
      await page.waitForFunction((text) => document.querySelector('#connection-text').textContent === text, damaged, { timeout: 20000 });
      assert.equal(await page.locator('#retry-now').isVisible(), false, 'nothing to retry');
      const sockets = seen.sockets;
      await page.waitForTimeout(4000);
      assert.equal(seen.sockets, sockets, 'the page does not reconnect');
    });
  } finally {
    server.stop();
  }
});
