// What a player meets on the pages, played as a player plays (issue 30): a game won on the board
// analysed, "Play anyone" from two tabs and its Cancel, no draw offered to the computer, the
// link lost without a shift of the page or a "Your turn", the row of three marked, the board's
// tools on a laptop's first screen, the level a newcomer starts at, a wrong capture in a puzzle
// explained, the review's table on a phone, and moves chosen ahead in the opponent's turn.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useArcade, keepScreenshotsOnFailure, createGame, startServer, countShifts, expectText } from '../harness.js';

const { server, newPage, pages } = useArcade(['--instant-computer']);

const moveCount = (page) => page.locator('#moves button.move').count();
const movesShown = (page, n) => page.waitForFunction((k) => document.querySelectorAll('#moves button.move').length >= k, n);

// A game between two browsers by the invite link: the host pale at 1280 × 800, the friend dark.
async function friendGame(rules, viewport = { width: 1280, height: 800 }) {
  const created = await createGame(server, { opponent: 'friend', rules, first: 'me' });
  const host = await newPage({ width: 1280, height: 800 });
  await host.goto(server.url + created.url);
  const friend = await newPage(viewport);
  await friend.goto(`${server.url}/g/${created.game}`);
  await host.waitForSelector('#invite', { state: 'hidden' });
  await friend.waitForFunction(() => document.querySelector('#player-black .name').textContent === 'You');
  return { created, host, friend };
}

// Types a whole turn once it is this page's turn, and waits until the list shows it.
async function play(page, m) {
  await page.waitForFunction(() => document.querySelector('#turn').textContent.startsWith('Your turn'));
  const before = await moveCount(page);
  await page.fill('#typed-input', m);
  await page.press('#typed-input', 'Enter');
  await movesShown(page, before + 1);
}

async function playAll(movers, moves) {
  for (const [i, m] of moves.entries()) {
    await play(movers[i % 2], m);
    for (const p of movers) await movesShown(p, (await moveCount(movers[i % 2])));
  }
}

test('a game won on the board opens on the analysis board with every move', { timeout: 60000 }, async () => {
  await keepScreenshotsOnFailure('won-analysed', pages, async () => {
    // Three stones each: pale's row a1 b1 c1 takes a dark stone, and dark, left with two, loses.
    const { host, friend } = await friendGame('arcade,stones=3');
    await playAll([host, friend], ['a1', 'f5', 'b1', 'f3', 'd1', 'd5', 'd1-c1xd5']);
    await host.waitForSelector('#end:not([hidden])');
    assert.match(await host.locator('#result').innerText(), /^You won \(1-0\)/);
    const moves = await host.$$eval('#moves button.move', (b) => b.map((x) => x.textContent));
    await host.click('#analyse-link');
    await host.waitForURL(/\/analysis#/);
    await host.waitForFunction((n) => document.querySelectorAll('#moves button.move').length === n, moves.length);
    assert.deepEqual(await host.$$eval('#moves button.move', (b) => b.map((x) => x.textContent)), moves);
    assert.equal(await host.locator('#import-error').innerText(), '');
    // Stepping through it by keyboard throws nothing (the harness fails on a page error).
    for (const key of ['Home', 'ArrowRight', 'ArrowRight', 'End']) await host.keyboard.press(key);
    await host.waitForFunction(() => document.querySelector('#shown').textContent.startsWith('After 4. d1-c1xd5 (move 4 of 4)'));
  });
});

test('"Play anyone" from two tabs of one browser leads back to its own table, and Cancel leaves it', { timeout: 60000 }, async () => {
  await keepScreenshotsOnFailure('play-anyone', pages, async () => {
    const first = await newPage();
    await first.goto(server.url + '/');
    await first.click('#play-anyone');
    await first.waitForURL(/\/g\//);
    await first.waitForSelector('#seeking:not([hidden])');
    assert.ok(await first.locator('#invite').isHidden(), 'no "send this link" at an open table');
    const game = new URL(first.url()).pathname;

    // The second tab shares the first one's storage: the same person.
    const second = await first.context().newPage();
    await second.goto(server.url + '/');
    await second.waitForSelector('#tables li.own');
    await second.click('#play-anyone');
    await second.waitForURL(/\/g\//);
    assert.equal(new URL(second.url()).pathname, game, 'the same table, not a seat against oneself');
    await second.waitForSelector('#seeking:not([hidden])');
    assert.equal(await second.locator('#player-black .name, #player-white .name').allInnerTexts().then((n) => n.sort().join(' | ')), 'Waiting for a player | You');
    await second.close();

    // Someone else sees the table; after Cancel it is gone from their list.
    const other = await newPage();
    await other.goto(server.url + '/');
    await other.waitForSelector('#tables li');
    await first.click('#leave-table');
    await first.waitForURL(`${server.url}/`);
    await other.waitForSelector('#no-tables:not([hidden])', { timeout: 5000 });
    assert.equal(await first.locator('#tables li.own').count(), 0);
  });
});

test('Cancel in one of two tabs waiting at a table takes it off every list at once, and the other tab hears it', { timeout: 60000 }, async () => {
  await keepScreenshotsOnFailure('play-anyone-cancel', pages, async () => {
    const first = await newPage();
    await first.goto(server.url + '/');
    await first.click('#play-anyone');
    await first.waitForURL(/\/g\//);
    await first.waitForSelector('#seeking:not([hidden])');
    // The second tab goes to the same table and stays there.
    const second = await first.context().newPage();
    await second.goto(first.url());
    await second.waitForSelector('#seeking:not([hidden])');

    const other = await newPage();
    await other.goto(server.url + '/');
    await other.waitForSelector('#tables li');
    await first.click('#leave-table');
    await first.waitForURL(`${server.url}/`);
    // Off the stranger's list at once (within two seconds), though a tab is still at it.
    await other.waitForSelector('#no-tables:not([hidden])', { timeout: 2000 });
    // The tab still at the table is told that it is over, and offers nobody a seat.
    await second.waitForSelector('#seeking', { state: 'hidden' });
    await second.waitForFunction(() => /aborted/i.test(document.querySelector('#status-note, #turn')?.textContent ?? '') || /aborted/i.test(document.body.innerText));
    assert.equal(await second.locator('#player-black .name, #player-white .name').allInnerTexts().then((n) => n.sort().join(' | ')), 'Nobody sat down | You');
    assert.equal(await first.locator('#tables li').count(), 0, 'no table of its own left listed');
  });
});

test('"Play anyone" sends the browser\'s id: the server never hands a browser its own table, and hands it to another', { timeout: 60000 }, async () => {
  await keepScreenshotsOnFailure('play-anyone-id', pages, async () => {
    const first = await newPage();
    const seeks = [];
    first.on('request', (r) => { if (r.url().endsWith('/api/seek')) seeks.push(r.postDataJSON()); });
    await first.goto(server.url + '/');
    await first.click('#play-anyone');
    await first.waitForURL(/\/g\//);
    await first.waitForSelector('#seeking:not([hidden])');
    const game = new URL(first.url()).pathname;
    assert.equal(seeks.length, 1);
    assert.match(seeks[0].browser, /^[0-9a-f]{32}$/);

    // The same browser asking again, as a second tab would before its list of tables arrives:
    // a table of its own, not a seat opposite itself.
    const second = await first.context().newPage();
    await second.goto(server.url + '/');
    const again = await second.evaluate(async (seek) => {
      const asked = { ...seek, browser: localStorage.getItem('dara.browser') };
      const r = await fetch('/api/seek', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(asked) });
      return r.json();
    }, seeks[0]);
    assert.equal(again.colour === undefined, false, JSON.stringify(again));
    assert.notEqual(`/g/${again.game}`, game);
    await second.close();

    // Another browser pressing "Play anyone" is seated at the first table.
    const other = await newPage();
    await other.goto(server.url + '/');
    await other.click('#play-anyone');
    await other.waitForURL(/\/g\//);
    assert.equal(new URL(other.url()).pathname, game);
    await first.waitForSelector('#seeking', { state: 'hidden' });
  });
});

test('no draw is offered to the computer', { timeout: 30000 }, async () => {
  await keepScreenshotsOnFailure('computer-draw', pages, async () => {
    const created = await createGame(server, { opponent: 'computer', level: 1, first: 'me' });
    const page = await newPage();
    await page.goto(server.url + created.url);
    await play(page, 'c3');
    await movesShown(page, 2);
    assert.ok(await page.locator('#resign').isVisible());
    assert.ok(await page.locator('#draw').isHidden());
    assert.ok(await page.locator('#draw-confirm').isHidden());
  });
});

for (const viewport of [{ width: 390, height: 844 }, { width: 1280, height: 800 }]) {
  test(`the server stopped mid-game: reconnecting within 5 s, no "Your turn", and nothing on the page moves (${viewport.width} × ${viewport.height})`, { timeout: 60000 }, async () => {
    await keepScreenshotsOnFailure(`server-stopped-${viewport.width}`, pages, async () => {
      const own = await startServer(['--instant-computer']);
      try {
        const created = await createGame(own, { opponent: 'computer', level: 1, first: 'me' });
        const page = await newPage(viewport);
        await countShifts(page);
        await page.goto(own.url + created.url);
        await play(page, 'c3');
        await page.waitForFunction(() => document.querySelector('#turn').textContent.startsWith('Your turn'));
        await page.waitForTimeout(500);
        const before = await page.evaluate(() => window.shifted);
        await own.kill('SIGKILL');
        const stoppedAt = Date.now();
        await page.waitForSelector('#connection:not([hidden])', { timeout: 5000 });
        assert.ok(Date.now() - stoppedAt <= 5000);
        assert.equal(await page.locator('#connection-text').innerText(), 'Connection lost: reconnecting…');
        assert.equal(await page.locator('#turn').innerText(), 'Connection lost: your moves wait until it is back.');
        await page.waitForTimeout(1000);
        const shift = (await page.evaluate(() => window.shifted)) - before;
        assert.ok(shift <= 0.02, `layout shift ${shift}`);
      } finally {
        own.stop();
      }
    });
  });
}

test('between people, the first-move countdown and the absence note come and go without moving the board', { timeout: 60000 }, async () => {
  await keepScreenshotsOnFailure('notes-no-shift', pages, async () => {
    const created = await createGame(server, { opponent: 'friend', first: 'me', clock: { initial: 180, increment: 2 } });
    const host = await newPage({ width: 1280, height: 800 });
    await countShifts(host);
    await host.goto(server.url + created.url);
    const friend = await newPage();
    await friend.goto(`${server.url}/g/${created.game}`);
    await host.waitForSelector('#invite', { state: 'hidden' });
    await host.waitForSelector('#player-white .first-move:text-matches("^\\\\d+ s to make a first move$")');
    await host.waitForTimeout(600);
    const before = await host.evaluate(() => window.shifted);
    const board = await host.locator('svg.board').boundingBox();

    // Pale places: the countdown goes from pale's panel to dark's. Dark places: it goes.
    await play(host, 'c3');
    await host.waitForSelector('#player-black .first-move:text-matches("^\\\\d+ s to make a first move$")');
    await play(friend, 'd4');
    await host.waitForFunction(() => document.querySelector('#player-black .first-move').textContent === '');
    // Dark leaves: the absence note shows under dark.
    await friend.close();
    await host.waitForSelector('#player-black .away:text-matches(".+")');
    await host.waitForTimeout(600);

    const shift = (await host.evaluate(() => window.shifted)) - before;
    assert.ok(shift <= 0.02, `layout shift ${shift}`);
    const now = await host.locator('svg.board').boundingBox();
    assert.ok(Math.abs(now.y - board.y) < 0.5, `the board has not moved (${board.y} then ${now.y})`);
  });
});

test('the row of three just made and the stone it took are marked until the next turn, in words too', { timeout: 60000 }, async () => {
  await keepScreenshotsOnFailure('row-marked', pages, async () => {
    const { host, friend } = await friendGame('arcade,stones=4');
    await playAll([host, friend], ['a1', 'f5', 'b1', 'f3', 'd1', 'd5', 'a3', 'e4', 'd1-c1xf3']);
    const marked = (page) => page.$$eval('[data-cell].in-row, [data-cell].was-taken', (cells) => cells
      .map((c) => `${c.dataset.cell}${c.classList.contains('in-row') ? ' row' : ''}${c.classList.contains('was-taken') ? ' taken' : ''}`).sort());
    for (const page of [host, friend]) {
      assert.deepEqual(await marked(page), ['a1 row', 'b1 row', 'c1 row', 'f3 taken']);
      assert.match(await page.getAttribute('[data-cell="b1"]', 'aria-label'), /in the row of three just made/);
      assert.match(await page.getAttribute('[data-cell="f3"]', 'aria-label'), /a stone was taken here/);
    }
    // Dark's answer makes its own row: the marks follow it.
    await play(friend, 'e4-e5xa3');
    await movesShown(host, 10);
    assert.deepEqual(await marked(host), ['a3 taken', 'd5 row', 'e5 row', 'f5 row']);
    // A step that takes nothing leaves no mark.
    await play(host, 'a1-a2');
    await movesShown(friend, 11);
    assert.deepEqual(await marked(friend), []);
  });
});

test('on a laptop the board\'s tools are on the first screen, on a phone the board is whole; mute says its state', { timeout: 60000 }, async () => {
  await keepScreenshotsOnFailure('tools', pages, async () => {
    const { host, friend } = await friendGame('arcade', { width: 390, height: 844 });
    await playAll([host, friend], ['c3', 'd4']);
    // The first screen as the page opens on it: typing the turns may have scrolled it.
    await host.evaluate(() => window.scrollTo(0, 0));
    assert.equal(await host.evaluate(() => window.scrollY), 0);
    for (const id of ['prev', 'next', 'flip', 'mute']) {
      const box = await host.locator(`#${id}`).boundingBox();
      assert.ok(box.y >= 0 && box.y + box.height <= 800, `#${id} inside 1280 × 800 (bottom at ${box.y + box.height})`);
      assert.ok(box.x >= 0 && box.x + box.width <= 1280, `#${id} inside 1280 × 800 (right edge at ${box.x + box.width})`);
    }
    await friend.evaluate(() => window.scrollTo(0, 0));
    const board = await friend.locator('svg.board').boundingBox();
    assert.ok(board.x >= 0 && board.x + board.width <= 390, `the board across the phone (${board.x}, ${board.width})`);
    assert.ok(board.y >= 0 && board.y + board.height <= 844, `the board on the phone's first screen (${board.y}, ${board.height})`);
    // A player's counts wrap as one: "11 in hand ·" never ends a line with "1 on the board" below.
    for (const side of ['white', 'black']) {
      const [hand, onBoard] = await Promise.all(['hand', 'on-board'].map((c) => friend.locator(`#player-${side} .${c}`).boundingBox()));
      assert.ok(Math.abs(hand.y - onBoard.y) < 1, `${side}'s counts on one line at 390 px (${hand.y} and ${onBoard.y})`);
    }
    // The sound switch says the state it is in: "Sound: on" while sounds play.
    assert.equal(await host.locator('#mute').innerText(), 'Sound: on');
    assert.equal(await host.getAttribute('#mute', 'aria-pressed'), 'true');
    await host.click('#mute');
    assert.equal(await host.locator('#mute').innerText(), 'Sound: off');
    assert.equal(await host.getAttribute('#mute', 'aria-pressed'), 'false');
  });
});

test('the game and learning pages link to Puzzles and Analysis; the analysis board comes first, on a laptop\'s first screen', { timeout: 60000 }, async () => {
  await keepScreenshotsOnFailure('headers', pages, async () => {
    const links = (page) => page.$$eval('header.top nav a', (as) => as.map((a) => new URL(a.href).pathname));
    const created = await createGame(server, { opponent: 'computer', level: 1, first: 'me' });
    for (const lang of ['en', 'fr', 'ha']) {
      const page = await newPage({ width: 1280, height: 800 });
      await page.addInitScript((code) => localStorage.setItem('dara.lang', code), lang);
      await page.goto(server.url + created.url);
      assert.deepEqual((await links(page)).slice(0, 2), ['/puzzles', '/analysis'], `the game page (${lang})`);
      await page.goto(`${server.url}/learn`);
      assert.deepEqual((await links(page)).slice(0, 2), ['/puzzles', '/analysis'], `the learning page (${lang})`);
      await page.goto(`${server.url}/analysis#rules=arcade&moves=c3,d4,a1,f5`);
      assert.equal((await links(page))[0], '/puzzles');
      await page.waitForFunction(() => document.querySelectorAll('#moves button.move').length === 4);
      const board = await page.locator('svg.board').boundingBox();
      const paste = await page.locator('#import-text').boundingBox();
      assert.ok(board.y + board.height <= 800, `the board on the laptop's first screen (${lang}: bottom at ${board.y + board.height})`);
      assert.ok(paste.y > board.y + board.height, `the paste box under the board (${lang})`);
    }
  });
});

test('a newcomer starts at level 1; the chosen level is said in full and kept', { timeout: 30000 }, async () => {
  await keepScreenshotsOnFailure('level', pages, async () => {
    for (const viewport of [{ width: 390, height: 844 }, { width: 1280, height: 800 }]) {
      const page = await newPage(viewport);
      await page.goto(server.url + '/');
      assert.equal(await page.locator('#level').inputValue(), '1');
      assert.equal(await page.locator('#level-note').innerText(), '1 — for your first games');
      await page.selectOption('#level', '8');
      const note = page.locator('#level-note');
      assert.equal(await note.innerText(), '8 — full strength: wins 4 games in 5 against level 7');
      assert.ok(await note.evaluate((n) => n.scrollWidth <= n.clientWidth), 'the level\'s words are not cut');
      await page.reload();
      assert.equal(await page.locator('#level').inputValue(), '8');
    }
  });
});

test('a wrong choice of stone in a puzzle is explained; the engine\'s depth is not shown', { timeout: 60000 }, async () => {
  await keepScreenshotsOnFailure('puzzle-capture', pages, async () => {
    const post = async (path, body) => (await fetch(`${server.url}${path}`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body),
    })).json();
    const puzzles = (await (await fetch(`${server.url}/api/puzzles`)).json()).filter((p) => p.difficulty === 1);
    // An easy puzzle where the solution's step may take another stone, after which the
    // opponent cannot take at once (so the reason is the choice of stone itself).
    let found = null;
    for (const [index, p] of puzzles.entries()) {
      const [step] = p.line[0].split('x');
      const { pos } = await post('/api/position', { position: p.position, rules: p.rules });
      for (const m of pos.legal.filter((l) => l.startsWith(`${step}x`) && l !== p.line[0])) {
        const { move } = await post('/api/position', { position: p.position, rules: p.rules, move: m });
        if (move.status.result === '*' && !move.pos.legal.some((l) => l.includes('x'))) { found = { index, p, wrong: m }; break; }
      }
      if (found) break;
    }
    assert.ok(found, 'an easy puzzle with a wrong choice of stone');
    const page = await newPage();
    await page.goto(`${server.url}/puzzles`);
    await page.evaluate((i) => localStorage.setItem('dara.puzzles.at.1', String(i)), found.index);
    await page.reload();
    await page.waitForFunction((n) => document.querySelector('#progress').textContent.startsWith(`Puzzle ${n + 1} of`), found.index);
    assert.doesNotMatch(await page.locator('main').innerText(), /depth/i);
    const [step, taken] = found.wrong.split('x');
    const [from, to] = step.split('-');
    await page.click(`[data-cell="${from}"]`);
    await page.click(`[data-cell="${to}"]`);
    await page.click(`[data-cell="${taken}"].capture`);
    await page.waitForFunction(() => document.querySelector('#feedback').textContent.startsWith('Not this one.'));
    const better = found.p.line[0].split('x').slice(1).join(' and ');
    assert.match(await page.locator('#feedback').innerText(), new RegExp(`takes ${taken}, but ${better} was the stone to take \\(${found.p.line[0]}\\)`));
  });
});

// In the phone's column and in the desktop's side column (20rem), in English and in Hausa (the
// longest column heads): the six columns fit without scrolling.
for (const [viewport, lang] of [[{ width: 390, height: 844 }, 'en'], [{ width: 390, height: 844 }, 'ha'], [{ width: 1280, height: 800 }, 'en'], [{ width: 1280, height: 800 }, 'ha']]) {
  test(`the review's table stays inside its column (${viewport.width} × ${viewport.height}, ${lang})`, { timeout: 90000 }, async (t) => {
    await keepScreenshotsOnFailure(`review-table-${viewport.width}-${lang}`, pages, async () => {
      const created = await createGame(server, { opponent: 'computer', level: 1, first: 'me' });
      const page = await newPage(viewport);
      await page.addInitScript((code) => localStorage.setItem('dara.lang', code), lang);
      await page.goto(server.url + created.url);
      await page.waitForSelector('[data-cell].put');
      await page.fill('#typed-input', 'c3');
      await page.press('#typed-input', 'Enter');
      await movesShown(page, 2);
      await page.click('#resign');
      await page.click('#resign-confirm');
      await page.click('#review-start');
      await page.waitForSelector('#review-body:not([hidden])', { timeout: 30000 });
      await page.click('#review details summary');
      assert.ok(await page.evaluate((w) => document.documentElement.scrollWidth <= w, viewport.width), 'no sideways scroll of the page');
      const [wide, room] = await page.$eval('#review .table-scroll', (d) => [d.scrollWidth, d.clientWidth]);
      assert.ok(wide <= room, `the table fits its box, no sideways scroll there either (${wide} > ${room})`);
      const columns = await page.$$eval('#review .review-table thead th', (ths) => ths.map((th) => Math.round(th.getBoundingClientRect().width)));
      t.diagnostic(`the table's columns ${columns.join(' + ')} px in a box of ${room} px`);
    });
  });
}

test('a game is aborted by either player until both sides have moved, and not after', { timeout: 60000 }, async () => {
  await keepScreenshotsOnFailure('abort', pages, async () => {
    const { host, friend } = await friendGame('arcade');
    for (const page of [host, friend]) await page.waitForSelector('#abort:not([hidden])');
    assert.equal(await host.locator('#abort').innerText(), 'Abort game');
    // Pale has placed; dark has not moved yet, and calls the game off.
    await play(host, 'c3');
    await movesShown(friend, 1);
    await friend.waitForSelector('#abort:not([hidden])');
    await friend.click('#abort');
    const ended = 'No result (*): Dark called the game off before the first moves: the game is aborted';
    for (const page of [host, friend]) {
      await page.waitForSelector('#end:not([hidden])');
      await expectText(page, '#result', ended);
      assert.ok(await page.locator('#abort').isHidden());
    }
    // Once both sides have moved, there is no abort: one resigns.
    const second = await friendGame('arcade');
    await playAll([second.host, second.friend], ['c3', 'd4']);
    for (const page of [second.host, second.friend]) {
      await page.waitForSelector('#abort', { state: 'hidden' });
      assert.ok(await page.locator('#resign').isVisible());
    }
  });
});

test('premoves: a step chosen in the opponent\'s turn is played when it comes; a click cancels one; an illegal one is let go', { timeout: 90000 }, async () => {
  await keepScreenshotsOnFailure('premove', pages, async () => {
    const { host, friend } = await friendGame('arcade,stones=4');
    await playAll([host, friend], ['a1', 'f5', 'b1', 'f3', 'd1', 'd5', 'a3', 'e4']);
    // Pale to step. Dark's stones offer exactly the steps the rules allow them (e4's four
    // neighbours, not every empty cell), said in words too; pale's stones offer nothing.
    const targets = (page) => page.$$eval('[data-cell].target', (c) => c.map((x) => x.dataset.cell).sort());
    await friend.click('[data-cell="a1"]');
    assert.deepEqual(await targets(friend), []);
    await friend.click('[data-cell="e4"]');
    await friend.waitForFunction(() => document.querySelectorAll('[data-cell].target').length > 0);
    assert.deepEqual(await targets(friend), ['d4', 'e3', 'e5', 'f4']);
    const said = (await friend.locator('#announce').innerText()).match(/^e4 selected: choose where it steps when your turn comes \((.*)\)\.$/);
    assert.ok(said, 'the steps said');
    assert.deepEqual(said[1].split(', ').sort(), ['d4', 'e3', 'e5', 'f4']);
    await friend.click('[data-cell="e4"]');
    await friend.click('[data-cell="f5"]');
    assert.deepEqual(await targets(friend), ['e5', 'f4']);
    await friend.click('[data-cell="f5"]');
    // Dark chooses f3 to f2 ahead, and sees it marked.
    await friend.click('[data-cell="f3"]');
    await friend.click('[data-cell="f2"]');
    assert.deepEqual(await friend.$$eval('[data-cell].premove', (c) => c.map((x) => x.dataset.cell).sort()), ['f2', 'f3']);
    assert.match(await friend.locator('#announce').innerText(), /^f3-f2 will be played as soon as your turn comes/);
    await play(host, 'a3-a4');
    // Played at once when pale's step arrives.
    await movesShown(host, 10);
    assert.equal(await host.locator('#moves button[data-ply="10"]').innerText(), 'f3-f2');

    // Chosen again in pale's turn, then a click on the board lets it go: nothing is sent.
    await friend.waitForFunction(() => document.querySelector('#turn').textContent.startsWith('Pale to play'));
    await friend.click('[data-cell="e4"]');
    await friend.click('[data-cell="e3"]');
    await friend.waitForSelector('[data-cell="e3"].premove');
    await friend.click('[data-cell="c3"]');
    assert.equal(await friend.locator('[data-cell].premove').count(), 0);
    assert.equal(await friend.locator('#announce').innerText(), 'The move chosen ahead is cancelled.');
    await play(host, 'a4-a3');
    await movesShown(friend, 11);
    await friend.waitForFunction(() => document.querySelector('#turn').textContent === 'Your turn: step a stone.');
    assert.equal(await moveCount(friend), 11);

    // One pale's step makes impossible (pale steps onto e1 first): let go when the turn comes, said.
    await play(friend, 'f2-f1');
    await friend.waitForFunction(() => document.querySelector('#turn').textContent.startsWith('Pale to play'));
    await friend.click('[data-cell="f1"]');
    await friend.waitForSelector('[data-cell="e1"].target');
    await friend.click('[data-cell="e1"]');
    await friend.waitForSelector('[data-cell="e1"].premove');
    await play(host, 'd1-e1');
    await friend.waitForFunction(() => document.querySelector('#announce').textContent.startsWith('f1-e1, chosen ahead, cannot be played now'));
    assert.equal(await friend.locator('[data-cell].premove').count(), 0);
    await friend.waitForTimeout(300);
    assert.equal(await moveCount(host), 13);
    const list = await host.$$eval('#moves button.move', (b) => b.map((x) => x.textContent));
    assert.deepEqual(list.slice(8), ['a3-a4', 'f3-f2', 'a4-a3', 'f2-f1', 'd1-e1']);
  });
});
