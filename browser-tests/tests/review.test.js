// A finished game reviewed by the engine, in real Chromium: the marks in the list and the
// table, the evaluation graph, and a turn's note with the better move; by keyboard too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useArcade, keepScreenshotsOnFailure, createGame, typeTurn } from '../harness.js';

const { server, newPage, pages } = useArcade(['--instant-computer']);

test('a finished game is reviewed: marks, a graph, a table, and the better turn', { timeout: 90000 }, async () => {
  await keepScreenshotsOnFailure('review', pages, async () => {
    const created = await createGame(server, { opponent: 'computer', level: 1, first: 'me' });
    const page = await newPage();
    await page.goto(server.url + created.url);
    await typeTurn(page, 'c3', 2);
    // The computer at level 1 may have placed on any cell: the second stone goes to one it left.
    const answered = await page.$$eval('#moves button.move', (b) => b[1].textContent.trim());
    const second = answered === 'a1' ? 'f5' : 'a1';
    await typeTurn(page, second, 4);
    await page.click('#resign');
    await page.click('#resign-confirm');
    await page.waitForSelector('#end:not([hidden])');
    const moves = await page.$$eval('#moves button.move', (b) => b.map((x) => x.textContent));
    assert.equal(moves.length, 4);

    // By keyboard: the review button is reached and pressed like any other.
    await page.focus('#review-start');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#review-body:not([hidden])', { timeout: 30000 });
    assert.equal(await page.locator('#review-start').isVisible(), false, 'asked once');
    // Named for the player: "you" and "the computer", not Pale and Dark.
    assert.match(await page.locator('#review-summary').innerText(), /^You: .*\. The computer: .*\.$/);
    // The graph has a point for every turn; the table a row for every turn, each with a mark.
    assert.equal(await page.locator('#review-graph svg circle.eval-point').count(), 4);
    await page.click('#review details summary');
    const rows = await page.$$eval('#review-table tr', (trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
    assert.equal(rows.length, 4);
    for (const [i, row] of rows.entries()) {
      assert.equal(row[1], moves[i]);
      assert.ok(['best', 'good', 'inaccuracy', 'mistake', 'blunder'].includes(row[3]), row.join(' | '));
      assert.match(row[4], /^([+-]?\d+\.\d|Pale wins|Dark wins)$/);
    }
    // The note follows the position shown: the last turn, then the first after a click.
    assert.match(await page.locator('#review-note').innerText(), /^2\.\.\. \S+ by the computer: /);
    await page.click('#review-table tr:first-child button');
    await page.waitForSelector('#browsing:not([hidden])');
    const note = await page.locator('#review-note').innerText();
    assert.match(note, /^1\. c3 by you: (best|good|inaccuracy|mistake|blunder) \(/);
    if (!/: (best|good) /.test(note)) assert.match(note, /Better was \S+\.$/);
    // A click on the graph shows that position too.
    await page.click('#review-graph circle[data-ply="3"]');
    assert.match(await page.locator('#review-note').innerText(), new RegExp(`^2\\. ${second} by you`));
    // Anywhere on the graph, not only on a point: the turn nearest the click.
    const graph = await page.locator('#review-graph svg').boundingBox();
    await page.mouse.click(graph.x + graph.width * 0.26, graph.y + 5);
    assert.match(await page.locator('#review-note').innerText(), /^1\. c3 by you/);
    assert.deepEqual(await page.$$eval('#review-graph text.eval-label', (l) => l.map((x) => x.textContent)), ['You ahead', 'The computer ahead']);
    assert.match(await page.locator('#review-table tr:first-child').innerText(), /\bYou\b/);
  });
});
