// The analysis board and a game's review with and without the server, in real Chromium: online,
// the page asks the server (whose endgame tables only it has) to read a record and to search;
// when the search gets no answer, the page's own engine searches the position shown; and with
// the server stopped and the network cut (as offline.test.js does), the page reads a pasted
// record with its own module, shows its moves and the best turn found by its own engine, and a
// game against the computer finished offline is reviewed by the page's engine. Each time the
// page says that the endgame tables are not at hand.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useArcade, keepScreenshotsOnFailure, typeTurn, playComputerFromHome } from '../harness.js';

const { server, newPage, pages } = useArcade(['--instant-computer']);

const RECORD = '[Rules "arcade"]\n\n1. c3 d4 2. a1 f5 *';
// The words the page shows for a search made in the page, whatever its depth and node count.
const SEARCHED_HERE = /^Depth \d+, [\d,]+ positions, searched in this page: the server's endgame tables are not at hand\.$/;

// Pastes RECORD on /analysis and waits for its four turns and the best turn for the last position.
async function readAndSearch(page) {
  await page.fill('#import-text', RECORD);
  await page.click('#import button[type="submit"]');
  await page.waitForFunction(() => document.querySelectorAll('#moves button.move').length === 4, null, { timeout: 20000 });
  assert.deepEqual(await page.$$eval('#moves button.move', (b) => b.map((x) => x.textContent)), ['c3', 'd4', 'a1', 'f5']);
  assert.equal(await page.locator('#shown').innerText(), 'After 2... f5 (move 2 of 2).');
  await page.waitForFunction(() => document.querySelector('#best').textContent.startsWith('Best for Pale: '), null, { timeout: 30000 });
  const best = (await page.locator('#best').innerText()).replace('Best for Pale: ', '').replace(/\.$/, '');
  assert.ok(!['c3', 'd4', 'a1', 'f5'].includes(best), `a free cell: ${best}`);
  assert.match(await page.locator('#evaluation').innerText(), /^Evaluation: /);
}

test('online, the record is read and searched by the server', { timeout: 60000 }, async () => {
  await keepScreenshotsOnFailure('analysis-online', pages, async () => {
    const page = await newPage();
    const asked = [];
    page.on('request', (request) => { if (request.url().includes('/api/')) asked.push(new URL(request.url()).pathname); });
    await page.goto(`${server.url}/analysis`);
    await readAndSearch(page);
    assert.ok(asked.includes('/api/record'), asked.join(' '));
    assert.ok(asked.includes('/api/analysis'), asked.join(' '));
    assert.doesNotMatch(await page.locator('#engine-status').innerText(), /in this page/);
  });
});

test('a record pasted before the empty board\'s own read answers is the one shown', { timeout: 60000 }, async () => {
  await keepScreenshotsOnFailure('analysis-late-read', pages, async () => {
    const page = await newPage();
    // The page's first read (the empty board) answers late, after the pasted record's.
    let first = true;
    await page.route('**/api/record', async (route) => {
      if (first) {
        first = false;
        await new Promise((resolve) => setTimeout(resolve, 1500));
      }
      await route.continue();
    });
    await page.goto(`${server.url}/analysis`);
    await readAndSearch(page);
    await page.waitForTimeout(1500);
    assert.equal(await page.locator('#moves button.move').count(), 4, 'the late read does not put the start back');
  });
});

test('a search the server does not answer is made by the page, which says the tables are not at hand', { timeout: 60000 }, async () => {
  await keepScreenshotsOnFailure('analysis-no-answer', pages, async () => {
    const page = await newPage();
    // The search's request gets no answer at all, as with the network cut mid-way.
    await page.route('**/api/analysis', (route) => route.abort('connectionrefused'));
    await page.goto(`${server.url}/analysis`);
    await readAndSearch(page);
    assert.match(await page.locator('#engine-status').innerText(), SEARCHED_HERE);
    // Stepping back searches the position shown, in the page again.
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('Home');
    await page.waitForFunction(() => document.querySelector('#best').textContent.startsWith('Best for Pale: '), null, { timeout: 30000 });
    assert.match(await page.locator('#engine-status').innerText(), SEARCHED_HERE);
  });
});

test('offline, the page reads a record, finds the best turn and reviews a finished game, saying the tables are not at hand', { timeout: 240000 }, async () => {
  await keepScreenshotsOnFailure('analysis-offline', pages, async () => {
    const page = await newPage({ width: 390, height: 844 });
    await page.goto(server.url + '/');
    // The first visit installs the service worker, which keeps the pages and both modules.
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 60000 });
    await server.kill('SIGKILL');
    await page.context().setOffline(true);

    await page.goto(`${server.url}/analysis`);
    await readAndSearch(page);
    assert.match(await page.locator('#engine-status').innerText(), SEARCHED_HERE);
    // A bad record is named by the page's module as the server would.
    await page.fill('#import-text', '[Rules "arcade"]\n\n1. c3 c3 *');
    await page.click('#import button[type="submit"]');
    await page.waitForFunction(() => document.querySelector('#import-error').textContent !== '');
    assert.match(await page.locator('#import-error').innerText(), /^That could not be read: .*c3.*illegal/);

    // A game against the computer, played in the page, resigned after two turns and reviewed.
    await playComputerFromHome(page, server.url, { level: 1 });
    await typeTurn(page, 'c3', 2);
    const answered = await page.$$eval('#moves button.move', (b) => b[1].textContent.trim());
    await typeTurn(page, answered === 'a1' ? 'f5' : 'a1', 4);
    await page.click('#resign');
    await page.click('#resign-confirm');
    await page.waitForSelector('#end:not([hidden])');
    await page.click('#review-start');
    await page.waitForSelector('#review-body:not([hidden])', { timeout: 60000 });
    assert.equal(await page.locator('#review-status').innerText(), 'Reviewed in this page, as the server did not answer: its endgame tables were not at hand.');
    assert.equal(await page.locator('#review-graph svg circle.eval-point').count(), 4);
    assert.match(await page.locator('#review-summary').innerText(), /^You: .*\. The computer: .*\.$/);
    const rows = await page.$$eval('#review-table tr', (trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
    assert.equal(rows.length, 4);
    for (const row of rows) assert.ok(['best', 'good', 'inaccuracy', 'mistake', 'blunder'].includes(row[3]), row.join(' | '));
  });
});
