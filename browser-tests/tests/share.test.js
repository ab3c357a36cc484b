// Sharing (issue 43): a finished game through the system's share sheet, its record downloaded
// as a file, and a position of the analysis board as a link (copied where there is no share
// sheet) that opens that position on the analysis board, nothing of it kept on the server.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { useArcade, keepScreenshotsOnFailure, playComputerFromHome, expectText } from '../harness.js';

const { server, newPage, pages } = useArcade(['--instant-computer']);

test('a finished game is shared through the share sheet and its record downloaded; a position is shared as a link that opens it', { timeout: 90000 }, async () => {
  await keepScreenshotsOnFailure('share', pages, async () => {
    const page = await newPage({ width: 390, height: 844 });
    // A phone's share sheet: what the page hands it.
    await page.addInitScript(() => {
      window.shared = [];
      navigator.share = async (data) => { window.shared.push(data); };
    });
    await playComputerFromHome(page, server.url, { level: 1 });
    await page.waitForFunction(() => document.querySelector('[data-cell].put'));
    await page.locator('[data-cell].put').first().click();
    await page.waitForFunction(() => document.querySelectorAll('#moves button.move').length === 2);
    const moves = await page.$$eval('#moves button.move', (b) => b.map((x) => x.textContent));
    await page.click('#resign');
    await page.click('#resign-confirm');
    await page.waitForSelector('#end:not([hidden])');
    const record = await page.locator('#record').inputValue();

    // The record as a file.
    const [file] = await Promise.all([page.waitForEvent('download'), page.click('#download-record')]);
    assert.match(file.suggestedFilename(), /^dara-[0-9a-f]{16}\.txt$/);
    assert.equal(await readFile(await file.path(), 'utf8'), record);

    // The game through the share sheet: the analysis board's link, the game in its fragment.
    await page.click('#share-game');
    await page.waitForFunction(() => window.shared.length === 1);
    const [shared] = await page.evaluate(() => window.shared);
    assert.equal(shared.text, 'A game of Dara: Dark wins (0-1): Pale resigned');
    const url = new URL(shared.url);
    assert.equal(`${url.origin}${url.pathname}`, `${server.url}/analysis`);
    assert.equal(new URLSearchParams(url.hash.slice(1)).get('moves'), moves.join(','));

    // Opened where there is no share sheet: the position after pale's first stone is shared
    // as a link, copied.
    const friend = await newPage({ width: 1280, height: 800 }, { permissions: ['clipboard-read', 'clipboard-write'] });
    await friend.addInitScript(() => { delete Navigator.prototype.share; });
    await friend.goto(shared.url);
    await friend.waitForFunction(() => document.querySelectorAll('#moves button.move').length === 2);
    await friend.click('#moves button[data-ply="1"]');
    await expectText(friend, '#shown', `After 1. ${moves[0]} (move 1 of 1).`);
    await friend.click('#share-position');
    await expectText(friend, '#announce', 'Link copied: paste it to share.');
    const link = new URL(await friend.evaluate(() => navigator.clipboard.readText()));
    const position = new URLSearchParams(link.hash.slice(1));
    assert.equal(position.get('rules'), 'arcade');
    assert.equal(position.get('moves'), null);
    const start = position.get('start');
    assert.match(start, / b 11 12 0$/, 'dark to place, pale with a stone down');

    // The link opens that position on the analysis board: pale's stone there, dark to play.
    const third = await newPage();
    await third.goto(link.href);
    await third.waitForFunction((cell) => /pale stone/.test(document.querySelector(`[data-cell="${cell}"]`)?.getAttribute('aria-label') || ''), moves[0]);
    await expectText(third, '#shown', 'The start.');
    assert.equal(await third.locator('#import-error').innerText(), '');
    assert.equal(await third.locator('#moves button.move').count(), 0);
  });
});
