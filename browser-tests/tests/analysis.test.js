// The analysis board in real Chromium: a pasted position shows the engine's evaluation and best
// turn (drawn on the board); a pasted record is stepped through by keyboard; a bad record is
// named; a variation is played out on the board; a finished game's "Analyse this game" opens it
// there.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useArcade, keepScreenshotsOnFailure, createGame } from '../harness.js';

const { server, newPage, pages } = useArcade(['--instant-computer']);

// Pale to move takes a stone and wins by stepping c2-c1 (a row of exactly three on rank 1).
const PALE_TAKES = 'B1B1B1/1B4/6/2W3/WW4 w 0 0 0';

test('a pasted position shows an evaluation and the best turn, drawn on the board', { timeout: 60000 }, async () => {
  await keepScreenshotsOnFailure('analysis-position', pages, async () => {
    const page = await newPage();
    await page.goto(`${server.url}/analysis`);
    await page.fill('#import-text', PALE_TAKES);
    await page.click('#import button[type="submit"]');
    await page.waitForFunction(() => document.querySelector('#best').textContent.startsWith('Best for Pale: '), null, { timeout: 20000 });
    assert.match(await page.locator('#best').innerText(), /^Best for Pale: c2-c1x[a-f]\d\.$/);
    assert.match(await page.locator('#evaluation').innerText(), /^Evaluation: (Pale wins in \d+ pl(y|ies) with best play|\+\d+\.\d \(in stones, for Pale\))\.$/);
    assert.match(await page.locator('#line').innerText(), /^The line it expects: c2-c1x/);
    // On the board: an arrow from c2 to c1 and a ring on the stone it takes.
    assert.equal(await page.locator('svg.board .best-move .best-arrow').count(), 1);
    assert.equal(await page.locator('svg.board .best-move .best-take').count(), 1);
  });
});

test('a pasted record is stepped through by keyboard, each position analysed; a bad one is named', { timeout: 60000 }, async () => {
  await keepScreenshotsOnFailure('analysis-record', pages, async () => {
    const page = await newPage({ width: 390, height: 844 });
    await page.goto(`${server.url}/analysis`);
    await page.fill('#import-text', '[Rules "arcade"]\n\n1. c3 c3 *');
    await page.click('#import button[type="submit"]');
    await page.waitForFunction(() => document.querySelector('#import-error').textContent !== '');
    assert.match(await page.locator('#import-error').innerText(), /^That could not be read: .*c3.*illegal/);

    await page.fill('#import-text', '[Rules "arcade"]\n\n1. c3 d4 2. a1 f5 *');
    await page.click('#import button[type="submit"]');
    await page.waitForFunction(() => document.querySelectorAll('#moves button.move').length === 4);
    assert.equal(await page.locator('#shown').innerText(), 'After 2... f5 (move 2 of 2).');
    // The keyboard: Home, then right twice; the engine answers for the position shown.
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('Home');
    assert.equal(await page.locator('#shown').innerText(), 'The start.');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    assert.equal(await page.locator('#shown').innerText(), 'After 1... d4 (move 1 of 2).');
    await page.waitForFunction(() => document.querySelector('#best').textContent.startsWith('Best for Pale: '), null, { timeout: 20000 });
    const best = (await page.locator('#best').innerText()).replace('Best for Pale: ', '').replace('.', '');
    assert.ok(!['c3', 'd4'].includes(best), `a free cell: ${best}`);
  });
});

test('a variation is played out on the board from an earlier position, and the game comes back', { timeout: 60000 }, async () => {
  await keepScreenshotsOnFailure('analysis-variation', pages, async () => {
    const page = await newPage();
    const moves = () => page.$$eval('#moves button.move', (b) => b.map((x) => x.textContent));
    await page.goto(`${server.url}/analysis`);
    await page.fill('#import-text', '[Rules "arcade"]\n\n1. c3 d4 2. a1 f5 *');
    await page.click('#import button[type="submit"]');
    await page.waitForFunction(() => document.querySelectorAll('#moves button.move').length === 4);
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    // The game's own next turn, played on the board, goes on along the game.
    await page.click('[data-cell="a1"].put');
    await page.waitForFunction(() => document.querySelector('#shown').textContent === 'After 2. a1 (move 2 of 2).');
    assert.deepEqual(await moves(), ['c3', 'd4', 'a1', 'f5']);
    assert.ok(await page.locator('#variation').isHidden());
    // Another turn for dark: a variation, in place of f5; the engine answers for it.
    await page.click('[data-cell="b2"].put');
    await page.waitForFunction(() => document.querySelector('#shown').textContent === 'After 2... b2 (move 2 of 2).');
    assert.deepEqual(await moves(), ['c3', 'd4', 'a1', 'b2']);
    assert.equal(await page.locator('#variation-note').innerText(), "A variation: from 2... on, the moves are yours, not the game's.");
    await page.waitForFunction(() => document.querySelector('#best').textContent.startsWith('Best for Pale: '), null, { timeout: 20000 });
    // The variation goes on from there.
    await page.click('[data-cell="e5"].put');
    await page.waitForFunction(() => document.querySelectorAll('#moves button.move').length === 5);
    assert.deepEqual(await moves(), ['c3', 'd4', 'a1', 'b2', 'e5']);
    // Back to the game: its moves, at the position the variation left.
    await page.click('#back-to-game');
    await page.waitForFunction(() => document.querySelector('#shown').textContent === 'After 2. a1 (move 2 of 2).');
    assert.deepEqual(await moves(), ['c3', 'd4', 'a1', 'f5']);
    assert.ok(await page.locator('#variation').isHidden());
  });
});

test('"Analyse this game" opens a finished game on the analysis board', { timeout: 60000 }, async () => {
  await keepScreenshotsOnFailure('analysis-link', pages, async () => {
    const created = await createGame(server, { opponent: 'computer', level: 1, first: 'me' });
    const page = await newPage();
    await page.goto(server.url + created.url);
    await page.waitForFunction(() => document.querySelector('#turn').textContent.startsWith('Your turn'));
    await page.fill('#typed-input', 'c3');
    await page.press('#typed-input', 'Enter');
    await page.waitForFunction(() => document.querySelectorAll('#moves button.move').length >= 2);
    await page.click('#resign');
    await page.click('#resign-confirm');
    await page.waitForSelector('#end:not([hidden])');
    const moves = await page.$$eval('#moves button.move', (b) => b.map((x) => x.textContent));
    await page.click('#analyse-link');
    await page.waitForURL(/\/analysis#/);
    await page.waitForFunction((n) => document.querySelectorAll('#moves button.move').length === n, moves.length);
    const shownMoves = await page.$$eval('#moves button.move', (b) => b.map((x) => x.textContent));
    assert.deepEqual(shownMoves, moves);
  });
});
