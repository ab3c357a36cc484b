// Issue 42's waiting that is not wasted: a table this browser waits at (a seek) belongs to the
// browser, not to a page. The person plays the computer, solves a puzzle or reads meanwhile, and
// when a stranger sits down every open page of the browser calls them (the tab's title, a bar
// with a countdown to play or decline); the game against the computer is kept to finish later.
// Cancel in any tab, or closing every tab, takes the table off every listing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useArcade, keepScreenshotsOnFailure, clickTurn, myTurnOrEnd, playComputerFromHome, settled, setHidden } from '../harness.js';

const { server, newPage, pages } = useArcade();

// Presses a pool on the home page and waits at the table it opens; gives the table's id.
async function waitInPool(page, clock) {
  await page.goto(server.url + '/');
  await page.click(`#pools [data-pool="${clock}"]`);
  await page.waitForURL(/#seat=/);
  await page.waitForSelector('#seeking', { state: 'visible' });
  return new URL(page.url()).pathname.split('/')[2];
}

// The tables an onlooker's home page lists, as their links.
const listedTables = (page) => page.locator('#tables a').evaluateAll((links) => links.map((a) => a.getAttribute('href')));

// Another tab of the same browser (same local storage), whose page errors fail the test too.
async function anotherTab(page) {
  const tab = await page.context().newPage();
  tab.on('pageerror', (e) => { throw new Error(`page error: ${e.message}`); });
  return tab;
}

test('a player waiting while playing the computer is called by a stranger, plays them, and later finishes the computer game', { timeout: 120000 }, async () => {
  await keepScreenshotsOnFailure('seek-computer', pages, async () => {
    const waiter = await newPage({ width: 390, height: 844 });
    const table = await waitInPool(waiter, '3+2');
    // The waiting page says what may be done meanwhile; the person goes to play the computer.
    await waiter.click('#seeking a[href="/#play-computer"]');
    await waiter.waitForURL(/\/#play-computer$/);
    const computerGame = await playComputerFromHome(waiter, server.url, { level: 1 });
    await clickTurn(waiter);
    assert.equal(await myTurnOrEnd(waiter), false);
    // Every page says the seek waits, and the table stays listed for anyone.
    await waiter.waitForSelector('#seek-bar:not([hidden])');
    assert.match(await waiter.locator('#seek-text').innerText(), /^Waiting for an opponent: arcade, 3\+2 \(\d+:\d\d\)\.$/);
    const stranger = await newPage();
    await stranger.goto(server.url + '/');
    assert.deepEqual(await settled(() => listedTables(stranger), (l) => l.length === 1), [`/g/${table}`]);

    // A stranger presses 5+3: the same rules, so they sit down at the waiting table.
    await stranger.click('#pools [data-pool="5+3"]');
    await stranger.waitForURL(new RegExp(`/g/${table}#seat=`));
    // The computer game's page calls the waiter: a bar with a countdown, and the tab's title.
    await waiter.waitForSelector('#seek-bar.found:not([hidden])');
    assert.match(await waiter.locator('#seek-text').innerText(), /^Someone sat down at your table: arcade, 3\+2\. You have the (pale|dark) stones\. \d+ seconds to start\.$/);
    await waiter.waitForFunction(() => /^Your game is ready \(\d+ s\) · Dara$/.test(document.title));
    assert.equal(await waiter.locator('#seek-play').innerText(), 'Play now');
    await waiter.screenshot({ path: '/tmp/seek-called-390.png' });
    await waiter.click('#seek-play');
    await waiter.waitForURL(new RegExp(`/g/${table}$`));
    // At the table, playing: the seek has become the game, and its bar is gone from every page.
    await waiter.waitForSelector('#abort:not([hidden])');
    assert.equal(await waiter.locator('#seeking').isHidden(), true);
    assert.equal(await settled(() => waiter.evaluate(() => localStorage.getItem('dara.seek')), (s) => s === null), null);
    assert.equal(await waiter.locator('#seek-bar').count(), 0);
    // Whoever has pale plays first; the other answers; then the stranger resigns.
    const canPlace = (page) => page.waitForSelector('[data-cell].put').then(() => page, () => null);
    const pale = await Promise.race([canPlace(waiter), canPlace(stranger)]);
    const dark = pale === waiter ? stranger : waiter;
    await clickTurn(pale);
    await clickTurn(dark);
    await stranger.waitForSelector('#resign:not([hidden])');
    await stranger.click('#resign');
    await stranger.click('#resign-confirm');
    await waiter.waitForSelector('#end:not([hidden])');
    assert.match(await waiter.locator('#end').innerText(), /You won/);

    // Later, the game against the computer is where it was, and is finished.
    await waiter.goto(server.url + '/');
    await waiter.locator('#kept-list a').click();
    await waiter.waitForURL(new RegExp(`/computer/${computerGame}$`));
    await waiter.waitForSelector('#resign:not([hidden])');
    assert.ok(await waiter.locator('#moves button.move').count() >= 2, 'the moves played before the call');
    await waiter.click('#resign');
    await waiter.click('#resign-confirm');
    await waiter.waitForSelector('#end:not([hidden])');
    assert.match(await waiter.locator('#end').innerText(), /You lost/);
  });
});

test('a seek is the browser\'s: another tab keeps the table when its page closes, Cancel in any tab and closing every tab take it off every listing', { timeout: 120000 }, async () => {
  await keepScreenshotsOnFailure('seek-tabs', pages, async () => {
    const onlooker = await newPage();
    await onlooker.goto(server.url + '/');
    const tablePage = await newPage({ width: 1280, height: 800 });
    const table = await waitInPool(tablePage, '10+5');
    const puzzles = await anotherTab(tablePage);
    await puzzles.goto(server.url + '/puzzles');
    await puzzles.waitForSelector('#seek-bar:not([hidden])');
    assert.deepEqual(await settled(() => listedTables(onlooker), (l) => l.length === 1), [`/g/${table}`]);
    // The table's own page closes: the puzzles tab takes the seat (at once if the page said it
    // left, else once it has not been heard for a few seconds), and the table is listed again.
    await tablePage.close();
    await puzzles.waitForFunction(() => JSON.parse(localStorage.getItem('dara.seek.holder'))?.page === undefined);
    await puzzles.waitForTimeout(2000);
    assert.deepEqual(await settled(() => listedTables(onlooker), (l) => l.length === 1), [`/g/${table}`], 'listed with only the puzzles tab open');
    // The browser's own home page lists it as its own table, never as a seat against itself.
    const home = await anotherTab(puzzles);
    await home.goto(server.url + '/');
    await home.waitForSelector('#tables li.own');
    assert.equal(await home.locator('#tables li:not(.own)').count(), 0);
    await puzzles.screenshot({ path: '/tmp/seek-waiting-1280.png' });
    // Cancel in the home tab's bar: off every listing, and the puzzles tab's bar goes too.
    await home.click('#seek-cancel');
    assert.deepEqual(await settled(() => listedTables(onlooker), (l) => l.length === 0), []);
    await puzzles.waitForSelector('#seek-bar', { state: 'hidden' });
    assert.equal(await puzzles.evaluate((id) => localStorage.getItem(`dara.seat.${id}`), table), null);

    // Another seek, then every tab of the browser closes: off every listing within seconds.
    const again = await newPage();
    const second = await waitInPool(again, '3+2');
    const learn = await anotherTab(again);
    await learn.goto(server.url + '/learn');
    await learn.waitForSelector('#seek-bar:not([hidden])');
    assert.deepEqual(await settled(() => listedTables(onlooker), (l) => l.length === 1), [`/g/${second}`]);
    const closed = Date.now();
    await again.context().close();
    assert.deepEqual(await settled(() => listedTables(onlooker), (l) => l.length === 0), []);
    const took = Date.now() - closed;
    console.log(`# the table left the onlooker's listing ${took} ms after the browser's last tab closed`);
    assert.ok(took < 5000, `unlisted after ${took} ms`);
  });
});

test('declined from the bar on another page: the stranger\'s game is called off, and the bar says so', { timeout: 90000 }, async () => {
  await keepScreenshotsOnFailure('seek-decline', pages, async () => {
    const waiter = await newPage();
    const table = await waitInPool(waiter, '5+3');
    await waiter.goto(server.url + '/rules');
    await waiter.waitForSelector('#seek-bar:not([hidden])');
    const stranger = await newPage();
    await stranger.goto(server.url + '/');
    await stranger.click('#pools [data-pool="3+2"]');
    await stranger.waitForURL(new RegExp(`/g/${table}#seat=`));
    await waiter.waitForSelector('#seek-bar.found:not([hidden])');
    assert.equal(await waiter.locator('#seek-cancel').innerText(), 'Decline');
    await waiter.click('#seek-cancel');
    await stranger.waitForSelector('#end:not([hidden])');
    assert.match(await stranger.locator('#end').innerText(), /no result/i);
    await waiter.waitForSelector('#seek-bar', { state: 'hidden' });
    assert.equal(await waiter.evaluate(() => localStorage.getItem('dara.seek')), null);
  });
});

test('the table\'s own page behind another tab: its title calls the person back when a stranger sits, and the seek ends once the page is seen', { timeout: 60000 }, async () => {
  await keepScreenshotsOnFailure('seek-hidden-table', pages, async () => {
    const waiter = await newPage();
    const table = await waitInPool(waiter, '5+3');
    await setHidden(waiter, true);
    const stranger = await newPage();
    await stranger.goto(server.url + '/');
    await stranger.click('#pools [data-pool="10+5"]');
    await stranger.waitForURL(new RegExp(`/g/${table}#seat=`));
    await waiter.waitForFunction(() => /^Your game is ready \(\d+ s\) · Dara$/.test(document.title));
    await setHidden(waiter, false);
    await waiter.waitForFunction(() => !document.title.startsWith('Your game is ready') && localStorage.getItem('dara.seek') === null);
    assert.match(await waiter.title(), /Dara — arcade/);
  });
});
