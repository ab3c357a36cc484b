// The lobby in real Chromium: "Sit down" from the home page's live list, and what a person sees
// when their list was a moment old and someone else took the table first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useArcade, keepScreenshotsOnFailure } from '../harness.js';

const { server, newPage, pages } = useArcade();

async function openTable(page, preset) {
  await page.goto(server.url + '/');
  await page.selectOption('#preset', preset);
  await page.click('#open-table');
  await page.waitForURL(/#seat=/);
}

test('Sit down on a table just taken says so on the home page; on an open one it seats you', { timeout: 60000 }, async () => {
  await keepScreenshotsOnFailure('lobby', pages, async () => {
    const host = await newPage();
    await openTable(host, 'ninja');
    // This visitor's list can be held still, to be a moment out of date at will.
    const late = await newPage();
    let frozen = false;
    await late.routeWebSocket(/\/ws\/lobby$/, (ws) => {
      const lobby = ws.connectToServer();
      lobby.onMessage((message) => { if (!frozen) ws.send(message); });
    });
    await late.goto(server.url + '/');
    await late.waitForSelector('#tables li a');
    const taken = await late.locator('#tables li a').getAttribute('href');
    frozen = true;

    // Someone else presses "Play anyone" with the same rules and clock, and sits down.
    const seeker = await newPage();
    await seeker.goto(server.url + '/');
    await seeker.selectOption('#preset', 'ninja');
    await seeker.click('#play-anyone');
    await seeker.waitForURL(/#seat=/);
    await host.waitForSelector('#invite', { state: 'hidden' });

    // The late visitor still sees the table, presses Sit down, and is told, staying put.
    await late.click('#tables li a');
    await late.waitForSelector('#home-error:not([hidden])');
    assert.equal(await late.locator('#home-error').innerText(),
      'Could not sit down: someone else sat down at that table first: choose another, or press Play anyone.');
    assert.equal(new URL(late.url()).pathname, '/');

    // A table opened now reaches the list, and Sit down takes its seat.
    frozen = false;
    const other = await newPage();
    await openTable(other, 'ninja');
    // The list still shows the taken table until the new one's listing arrives: wait for that.
    await late.waitForFunction((old) => {
      const links = document.querySelectorAll('#tables li a');
      return links.length === 1 && links[0].getAttribute('href') !== old;
    }, taken);
    await late.click('#tables li a');
    await late.waitForURL(/\/g\/[0-9a-f]{16}#seat=[0-9a-f]{32}$/);
    await other.waitForSelector('#invite', { state: 'hidden' });
    await late.waitForFunction(() => /^(Your turn|Pale to play)/.test(document.querySelector('#turn').textContent));
    assert.equal(await late.locator('#watch-note').isHidden(), true);
  });
});

test('Play anyone pairs two browsers that chose different clocks, on the clock of the one who waited', { timeout: 60000 }, async () => {
  await keepScreenshotsOnFailure('lobby-clocks', pages, async () => {
    const first = await newPage();
    await first.goto(server.url + '/');
    await first.selectOption('#preset', 'jaques');
    await first.selectOption('#clock', '3+2');
    await first.click('#play-anyone');
    await first.waitForURL(/#seat=/);
    // Listed once the page waiting at it is connected: it says it is waiting then.
    await first.waitForSelector('#seeking', { state: 'visible' });

    const second = await newPage();
    await second.goto(server.url + '/');
    await second.selectOption('#preset', 'jaques');
    await second.selectOption('#clock', '10+5');
    await second.click('#play-anyone');
    await second.waitForURL(/#seat=/);
    assert.equal(new URL(second.url()).pathname, new URL(first.url()).pathname, 'one table');
    await first.waitForSelector('#seeking', { state: 'hidden' });
    for (const page of [first, second]) {
      await page.waitForFunction(() => document.querySelector('#player-white .clock')?.textContent === '3:00');
      assert.equal(await page.locator('#player-black .clock').innerText(), '3:00');
    }
  });
});

test('the pools: a button each with its live counts; two browsers on two pools of the Arcade rules meet at the table of the one who waited', { timeout: 60000 }, async () => {
  await keepScreenshotsOnFailure('lobby-pools', pages, async () => {
    const onlooker = await newPage({ width: 390, height: 844 });
    await onlooker.goto(server.url + '/');
    const pool = (clock, what) => `#pools [data-pool="${clock}"] .pool-${what}`;
    const reads = (selector, text) => onlooker.waitForFunction(
      ([s, t]) => document.querySelector(s)?.textContent === t, [selector, text]);
    await reads(pool('3+2', 'waiting'), '0 waiting');
    assert.deepEqual(await onlooker.locator('#pools button').evaluateAll((bs) => bs.map((b) => b.dataset.pool)), ['3+2', '5+3', '10+5']);
    await onlooker.waitForFunction(() => / here · /.test(document.querySelector('#presence').textContent));

    // Someone presses 3+2 and waits: the onlooker's 3+2 says so, and the table how long it waits.
    const first = await newPage();
    await first.goto(server.url + '/');
    await first.click('#pools [data-pool="3+2"]');
    await first.waitForURL(/#seat=/);
    await first.waitForSelector('#seeking', { state: 'visible' });
    await reads(pool('3+2', 'waiting'), '1 waiting');
    await onlooker.waitForFunction(() => /^waiting for \d+ seconds?$/.test(document.querySelector('#tables .waited')?.textContent || ''));

    // Someone else presses 10+5: the same rules, so they sit down at the 3+2 table.
    const second = await newPage();
    await second.goto(server.url + '/');
    await second.click('#pools [data-pool="10+5"]');
    await second.waitForURL(/#seat=/);
    assert.equal(new URL(second.url()).pathname, new URL(first.url()).pathname, 'one table');
    for (const page of [first, second]) {
      await page.waitForFunction(() => document.querySelector('#player-white .clock')?.textContent === '3:00');
    }
    await reads(pool('3+2', 'waiting'), '0 waiting');
    await reads(pool('3+2', 'playing'), '1 playing');
    assert.equal(await onlooker.locator(pool('10+5', 'playing')).innerText(), '0 playing');
    await onlooker.waitForFunction(() => /games? being played/.test(document.querySelector('#presence').textContent));
  });
});
