// The computer says when it is busy: a game whose search waits shows how many games are ahead,
// and past the queue's bound the home page says when to come back.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useArcade, keepScreenshotsOnFailure, createGame } from '../harness.js';

// One engine thread, room for eight waiting searches: at level 8, a second each.
const { server, newPage, pages } = useArcade(['--instant-computer', '--engine-threads', '1', '--engine-queue', '8', '--games-per-address', '100']);

const computerFirst = { opponent: 'computer', level: 8, first: 'them' };

// Creates games against the computer until the server turns one away; returns the last created.
async function fillQueue() {
  let last = null;
  for (let i = 0; i < 20; i += 1) {
    const response = await fetch(`${server.url}/api/games`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(computerFirst),
    });
    if (response.status === 503) return last;
    assert.equal(response.status, 201);
    last = await response.json();
  }
  throw new Error('the queue never filled');
}

// Fills the queue and asks for a game on `home`'s home page until it is turned away (a search
// ends every second, so a place may free up between filling and clicking: then the click starts
// a game, and the queue is filled again); returns what the home page says.
async function turnedAway(home) {
  for (let tries = 0; ; tries += 1) {
    await home.goto(server.url + '/');
    await home.selectOption('#level', '8');
    await fillQueue();
    await home.click('#play-computer button[type=submit]');
    // Either the game page (no #home-error there) or the home page's error.
    await home.waitForFunction(() => location.pathname.startsWith('/g/') || document.querySelector('#home-error')?.hidden === false);
    if (!(await home.locator('#home-error').isHidden())) return home.locator('#home-error').innerText();
    assert.ok(tries < 5, 'the home page is turned away at least once');
  }
}

test("a full queue turns new games away on the home page, in the page's language", { timeout: 90000 }, async () => {
  await keepScreenshotsOnFailure('queue-full', pages, async () => {
    // A browser that cannot run the computer in the page (no WebAssembly here) asks the server.
    const withoutWasm = () => { delete globalThis.WebAssembly; };
    const home = await newPage({ width: 390, height: 844 });
    await home.addInitScript(withoutWasm);
    assert.match(await turnedAway(home), /the computer is busy: 8 games are waiting for its moves; try again in \d+ seconds?/);
    // The server sends the code and its figures; the page words them (here in French).
    const french = await newPage({ width: 390, height: 844 }, { locale: 'fr-FR' });
    await french.addInitScript(withoutWasm);
    assert.match(await turnedAway(french), /^La partie n'a pas pu commencer : l'ordinateur est occupé : 8 parties attendent ses coups ; réessayez dans \d+ secondes?\.$/);
  });
});

test('a waiting game shows its place in the queue until the computer moves', { timeout: 60000 }, async () => {
  await keepScreenshotsOnFailure('queue-place', pages, async () => {
    // Several searches wait ahead of this game's, a second each: the queue is full or nearly
    // (the test before filled it), and this game takes the first place that frees up.
    await fillQueue();
    let created = null;
    while (!created) {
      const response = await fetch(`${server.url}/api/games`, {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(computerFirst),
      });
      if (response.status === 201) created = await response.json();
      else await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const page = await newPage();
    await page.goto(server.url + created.url);
    const queue = page.locator('#queue');
    await page.waitForFunction(() => /^The computer is thinking: \d+ games? ahead\.$/.test(document.querySelector('#queue').textContent));
    assert.equal(await queue.isHidden(), false);
    await page.waitForFunction(() => document.querySelector('#queue').textContent === 'The computer is thinking: yours is next.', null, { timeout: 30000 });
    await page.waitForFunction(() => document.querySelector('#moves').textContent.trim() !== '', null, { timeout: 30000 });
    assert.equal(await queue.isHidden(), true);
    assert.match(await page.locator('#turn').innerText(), /^Your turn/);
  });
});
