// The watch list in real Chromium: two people meet with "Play anyone" and play; a third opens
// /watch, sees their game on top, opens it and watches (the board and every turn, no move of
// their own). Then the home page offline: the lobby says so and what still works, and "Play
// anyone" shows its error by the button. DARA_SHOTS=<folder> keeps screenshots at 390 × 844
// and 1280 × 800 to look at.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { useArcade, keepScreenshotsOnFailure, clickTurn } from '../harness.js';

const { server, newPage, pages } = useArcade();
const shots = process.env.DARA_SHOTS;
const shoot = async (page, name) => {
  if (!shots) return;
  mkdirSync(shots, { recursive: true });
  await page.screenshot({ path: join(shots, `${name}.png`), fullPage: false });
};
const moves = (page) => page.locator('#moves button.move').count();

test('a game at an open table is listed on /watch and opened as a watcher', { timeout: 90000 }, async () => {
  await keepScreenshotsOnFailure('watch', pages, async () => {
    const first = await newPage();
    const second = await newPage({ width: 390, height: 844 });
    for (const page of [first, second]) await page.goto(server.url + '/');
    await first.click('#play-anyone');
    await first.waitForURL(/#seat=/);
    await second.click('#play-anyone');
    await second.waitForURL(/#seat=/);
    const game = new URL(first.url()).pathname;
    assert.equal(new URL(second.url()).pathname, game, 'both at one table');
    const pale = (await first.locator('#turn').innerText()).startsWith('Your turn') ? first : second;
    const dark = pale === first ? second : first;
    await pale.waitForFunction(() => document.querySelector('#turn').textContent.startsWith('Your turn'));
    await clickTurn(pale);
    await dark.waitForFunction(() => document.querySelector('#turn').textContent.startsWith('Your turn'));

    // A third person opens /watch from the home page's header and sees the game on top.
    const watcher = await newPage({ width: 390, height: 844 });
    await watcher.goto(server.url + '/');
    await watcher.click('header a[href="/watch"]');
    await watcher.waitForURL(/\/watch$/);
    const featured = watcher.locator('#featured-game li a');
    await featured.waitFor();
    assert.equal(await featured.getAttribute('href'), game);
    assert.match(await watcher.locator('#featured-game li').innerText(), /arcade, 5\+3: 1 turn\s+Nobody watching/);
    await shoot(watcher, 'watch-390');
    await watcher.setViewportSize({ width: 1280, height: 800 });
    await shoot(watcher, 'watch-1280');
    await watcher.setViewportSize({ width: 390, height: 844 });

    // Opened, it is watched: the board and the turn played, no seat.
    await featured.click();
    await watcher.waitForURL((url) => url.pathname === game && !url.hash.includes('seat'));
    await watcher.locator('#watch-note').waitFor();
    assert.equal(await watcher.locator('#watch-note').isVisible(), true);
    await watcher.waitForFunction(() => document.querySelectorAll('#moves button.move').length === 1);
    assert.ok(await watcher.locator('[data-cell]').count() >= 30, 'the board');
    // The players see one watcher; the list says so too.
    await pale.waitForFunction(() => /1 person watching/.test(document.querySelector('#watchers').textContent));
    // A turn of dark's reaches the watcher; the watcher cannot move.
    await clickTurn(dark);
    await watcher.waitForFunction(() => document.querySelectorAll('#moves button.move').length === 2);
    assert.equal(await watcher.locator('[data-cell].put, [data-cell].select').count(), 0, 'nothing to play');
    await watcher.locator('[data-cell]').first().click();
    await watcher.waitForTimeout(300);
    assert.equal(await moves(watcher), 2);
    assert.equal(await moves(pale), 2);

    // The list counts the watcher, and the game leaves it when it ends.
    const list = await newPage();
    await list.goto(server.url + '/watch');
    await list.waitForFunction(() => /2 turns[\s\S]*1 person watching/.test(document.querySelector('#featured-game').textContent));
    await pale.click('#resign');
    await pale.click('#resign-confirm');
    await list.waitForSelector('#watch-empty:not([hidden])', { timeout: 10000 });
    assert.equal(await list.locator('#watch-featured').isHidden(), true);
  });
});

test('offline, the lobby says so and what still works, and Play anyone fails by its button', { timeout: 90000 }, async () => {
  await keepScreenshotsOnFailure('watch-offline', pages, async () => {
    for (const viewport of [{ width: 390, height: 844 }, { width: 1280, height: 800 }]) {
      const page = await newPage(viewport);
      await page.goto(server.url + '/');
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 60000 });
      await page.context().setOffline(true);
      await page.reload();
      await page.locator('#lobby-offline').waitFor();
      assert.match(await page.locator('#lobby-offline').innerText(), /You are offline/);
      assert.equal(await page.locator('#no-tables').isHidden(), true, 'not "No open tables"');
      for (const path of ['/puzzles', '/learn', '/analysis']) {
        assert.equal(await page.locator(`#lobby-offline a[href="${path}"]`).count(), 1, path);
      }
      await page.click('#play-anyone');
      const error = page.locator('#home-error');
      await error.waitFor();
      assert.match(await error.innerText(), /You are offline: this needs the server/);
      // Next to the button, and on the screen.
      const button = await page.locator('#play-anyone').boundingBox();
      const box = await error.boundingBox();
      // Scrolled into view, its bottom may lie a fraction of a pixel past the screen's edge.
      assert.ok(box.y >= 0 && box.y + box.height <= viewport.height + 1, `on screen: ${JSON.stringify(box)}`);
      assert.ok(Math.abs(box.y - (button.y + button.height)) < 80, `by the button: ${JSON.stringify({ box, button })}`);
      await shoot(page, `offline-home-${viewport.width}`);
      await page.context().setOffline(false);
    }
  });
});
