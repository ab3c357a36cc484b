// A full disk under a server that keeps its games, as a page sees it: a turn that cannot be kept
// is not played, the page says that saving is paused and sends the turn again by itself, and
// once there is room the turn goes through without a click. The data directory is a small tmpfs
// mounted for the test, which needs root (as .ci/run is); elsewhere the test is skipped.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, openSync, writeSync, closeSync, unlinkSync, rmdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, useBrowser, keepScreenshotsOnFailure, createGame, typeTurn, moveCount, catalogueWords } from '../harness.js';

const { newPage, pages } = useBrowser();

// Mounts a tmpfs of `size` at a directory of the test's own; null where only root may mount.
function mountSmallDisk(size) {
  const dir = mkdtempSync(join(tmpdir(), 'dara-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'ignore' });
  } catch (error) {
    rmdirSync(dir);
    if (process.getuid && process.getuid() === 0) throw new Error(`root could not mount a tmpfs at ${dir}: ${error.message}`);
    return null;
  }
  return { dir, unmount: () => { execFileSync('umount', ['-l', dir]); rmSync(dir, { recursive: true, force: true }); } };
}

// Fills the disk at `dir` to its last byte with a file of its own; returns the file.
function fill(dir) {
  const path = join(dir, 'filler');
  const fd = openSync(path, 'w');
  const block = Buffer.alloc(64 * 1024);
  let size = block.length;
  // Smaller and smaller writes, down to a byte, until none fits.
  while (size > 0) {
    try {
      if (writeSync(fd, block, 0, size) === 0) size = Math.floor(size / 2);
    } catch {
      size = Math.floor(size / 2);
    }
  }
  closeSync(fd);
  return path;
}



test('a full disk: the page says saving is paused, and its turn goes through by itself once there is room', { timeout: 90000 }, async (t) => {
  const disk = mountSmallDisk('2m');
  if (!disk) {
    t.skip('not root: the full-disk test needs to mount a tmpfs');
    return;
  }
  const server = await startServer(['--data-dir', join(disk.dir, 'data')]);
  try {
    await keepScreenshotsOnFailure('full-disk', pages, async () => {
      const created = await createGame(server, { opponent: 'friend', first: 'me' });
      const host = await newPage();
      const answers = [];
      host.on('websocket', (ws) => ws.on('framereceived', (f) => {
        const msg = JSON.parse(f.payload);
        if (msg.t === 'accepted' || msg.t === 'rejected') answers.push(`${msg.t} ${msg.d.code || ''}`.trim());
      }));
      await host.goto(server.url + created.url);
      const friend = await newPage();
      await friend.goto(`${server.url}/g/${created.game}`);
      await host.waitForSelector('#invite', { state: 'hidden' });
      await typeTurn(host, 'c3', 1);
      await typeTurn(friend, 'd4', 2);
      assert.deepEqual(answers, ['accepted']);

      const filler = fill(disk.dir);
      await typeTurn(host, 'a1');
      const paused = await catalogueWords(host, 'game.saving-paused');
      assert.ok(paused, 'the catalogue has words for it');
      await host.waitForFunction((text) => document.body.innerText.includes(text), paused, { timeout: 10000 });
      // Sent again by the page while the disk stays full: refused again, never played.
      const deadline = Date.now() + 8000;
      while (answers.filter((a) => a === 'rejected store-unreachable').length < 2) {
        assert.ok(Date.now() < deadline, `the page sends the turn again: ${answers}`);
        await host.waitForTimeout(200);
      }
      assert.ok(!answers.slice(1).includes('accepted'), `no turn accepted while the disk is full: ${answers}`);
      assert.equal(await moveCount(host), 2, 'the turn is not shown as played');
      assert.equal(await moveCount(friend), 2, 'nor to the opponent');

      // Room again: the same turn goes through with no click, once.
      unlinkSync(filler);
      await friend.waitForFunction(() => document.querySelectorAll('#moves button.move').length === 3, null, { timeout: 15000 });
      assert.deepEqual(await friend.$$eval('#moves button.move', (b) => b.map((x) => x.textContent)), ['c3', 'd4', 'a1']);
      await host.waitForFunction(() => document.querySelectorAll('#moves button.move').length === 3);
      // The friend's page may hear the move before the host's hears its answer: waited for.
      const answered = Date.now() + 5000;
      while (answers.at(-1) !== 'accepted') {
        assert.ok(Date.now() < answered, `the resent turn is accepted: ${answers}`);
        await host.waitForTimeout(100);
      }
      await typeTurn(friend, 'f5', 4);
      await host.waitForFunction(() => document.querySelectorAll('#moves button.move').length === 4);
    });
  } finally {
    await server.kill('SIGINT');
    disk.unmount();
  }
});
