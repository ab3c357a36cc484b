// One numbering of moves on every page (issue 43): the record's, a move being pale's turn and
// dark's answer ("2." and "2..."), in the move list, the position looked at, the review, the
// analysis board, the record and the home page's list of games against the computer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useArcade, keepScreenshotsOnFailure, playComputerFromHome, expectText } from '../harness.js';

const { server, newPage, pages } = useArcade(['--instant-computer']);

test('the same move has the same number on every page', { timeout: 90000 }, async () => {
  await keepScreenshotsOnFailure('numbering', pages, async () => {
    const page = await newPage();
    await playComputerFromHome(page, server.url, { level: 1 });
    // Three placements each (pale first), by clicks; then pale resigns: three moves.
    for (let i = 0; i < 3; i++) {
      await page.waitForFunction((n) => document.querySelectorAll('#moves button.move').length === n
        && document.querySelector('#turn').textContent.startsWith('Your turn'), 2 * i);
      await page.locator('[data-cell].put').first().click();
    }
    await page.waitForFunction(() => document.querySelectorAll('#moves button.move').length === 6);
    const moves = await page.$$eval('#moves button.move', (b) => b.map((x) => x.textContent));
    await page.click('#resign');
    await page.click('#resign-confirm');
    await page.waitForSelector('#end:not([hidden])');

    // The move list: a line a move, under its number.
    assert.deepEqual(await page.$$eval('#moves li', (lis) => lis.map((li) => li.innerText.replace(/\s+/g, ' '))),
      [`1. ${moves[0]} ${moves[1]}`, `2. ${moves[2]} ${moves[3]}`, `3. ${moves[4]} ${moves[5]}`]);
    // The record numbers them alike.
    const record = (await page.locator('#record').inputValue()).split('\n\n').at(-1).replace(/\s+/g, ' ').trim();
    assert.equal(record, `1. ${moves[0]} ${moves[1]} 2. ${moves[2]} ${moves[3]} 3. ${moves[4]} ${moves[5]} 0-1`);
    // An earlier position looked at: dark's second turn is "2...", the game three moves long.
    await page.click('#moves button[data-ply="4"]');
    await expectText(page, '#browse-note', `You are looking at 2... ${moves[3]} (move 2 of 3).`);

    // The review: the table's numbers, and the note for the position shown.
    await page.click('#review-start');
    await page.waitForSelector('#review-body:not([hidden])', { timeout: 30000 });
    await page.click('#review details summary');
    assert.deepEqual(await page.$$eval('#review-table tr', (trs) => trs.map((tr) => tr.cells[0].textContent)),
      ['1.', '1...', '2.', '2...', '3.', '3...']);
    await expectText(page, '#review-note', new RegExp(`^2\\.\\.\\. ${moves[3]} by the computer: `));

    // The analysis board: the same move, the same number.
    await page.click('#analyse-link');
    await page.waitForURL(/\/analysis#/);
    await page.waitForFunction(() => document.querySelectorAll('#moves button.move').length === 6);
    await expectText(page, '#shown', `After 3... ${moves[5]} (move 3 of 3).`);
    await page.click('#moves button[data-ply="4"]');
    await expectText(page, '#shown', `After 2... ${moves[3]} (move 2 of 3).`);
    assert.deepEqual(await page.$$eval('#moves .number', (s) => s.map((x) => x.textContent)), ['1.', '2.', '3.']);

    // The home page's list: three moves.
    await page.goto(server.url + '/');
    await expectText(page, '#kept-list a', /^Level 1, \d{4}\.\d\d\.\d\d: 3 moves, 0-1$/);
  });
});

test('a game that starts with dark to move is numbered from "1..." on the analysis board, as its record is', { timeout: 60000 }, async () => {
  await keepScreenshotsOnFailure('numbering-black-first', pages, async () => {
    const page = await newPage();
    await page.goto(`${server.url}/analysis`);
    await page.fill('#import-text', '[Rules "arcade"]\n[Position "6/6/2W3/6/6 b 11 12 0"]\n\n1... d4 2. a1 f5 *');
    await page.click('#import button[type="submit"]');
    await page.waitForFunction(() => document.querySelectorAll('#moves button.move').length === 3);
    assert.deepEqual(await page.$$eval('#moves li', (lis) => lis.map((li) => li.innerText.replace(/\s+/g, ' '))), ['1... d4', '2. a1 f5']);
    await expectText(page, '#shown', 'After 2... f5 (move 2 of 2).');
    // The same game from a link (as "Analyse this game" makes one): read alike.
    const link = new URLSearchParams({ rules: 'arcade', start: '6/6/2W3/6/6 b 11 12 0', moves: 'd4,a1,f5' });
    const linked = await newPage();
    await linked.goto(`${server.url}/analysis#${link}`);
    await linked.waitForFunction(() => document.querySelectorAll('#moves button.move').length === 3
      || document.querySelector('#import-error').textContent !== '');
    assert.equal(await linked.locator('#import-error').innerText(), '');
    assert.deepEqual(await linked.$$eval('#moves li', (lis) => lis.map((li) => li.innerText.replace(/\s+/g, ' '))), ['1... d4', '2. a1 f5']);
  });
});
