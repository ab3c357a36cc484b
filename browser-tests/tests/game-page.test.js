// The game page's own features in real Chromium: browsing earlier positions while the game goes
// on, the move list, choosing a capture, offers and resigning, sounds, the flipped board, the
// watchers, the announcements and the moving stones.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useArcade, keepScreenshotsOnFailure, createGame, expectText, settled, setHidden } from '../harness.js';

const { server, newPage, pages } = useArcade(['--instant-computer']);

// The moves as the list shows them, one string a ply.
const moveList = (page) => page.$$eval('#moves button.move', (buttons) => buttons.map((b) => b.textContent));

// The stones on the board as its cells' spoken labels say: { a1: 'pale', f5: 'dark', ... }.
const stones = (page) => page.$$eval('[data-cell][aria-label]', (cells) => Object.fromEntries(cells
  .map((c) => [c.dataset.cell, /^\w\d, (pale|dark) stone/.exec(c.getAttribute('aria-label'))?.[1]])
  .filter(([, s]) => s)));

// A game between two browsers by the invite link; `viewport` sizes the friend's page.
async function friendGame(rules, { viewport, friendOptions } = {}) {
  const created = await createGame(server, { opponent: 'friend', rules, first: 'me' });
  const host = await newPage();
  await host.goto(server.url + created.url);
  const friend = await newPage(viewport, friendOptions);
  await friend.goto(`${server.url}/g/${created.game}`);
  await host.waitForSelector('#invite', { state: 'hidden' });
  await friend.waitForFunction(() => document.querySelector('#player-black .name').textContent === 'You');
  return { created, host, friend };
}

// Types a whole turn once it is this page's turn, and waits until the list shows it.
async function play(page, m) {
  await page.waitForFunction(() => document.querySelector('#turn').textContent.startsWith('Your turn'));
  const before = (await moveList(page)).length;
  await page.fill('#typed-input', m);
  await page.press('#typed-input', 'Enter');
  await page.waitForFunction((n) => document.querySelectorAll('#moves button.move').length > n, before);
}

// Plays `moves` alternately from `pages` (the first move from pages[0]), each seen by all.
async function playAll(movers, moves) {
  for (const [i, m] of moves.entries()) {
    await play(movers[i % 2], m);
    for (const p of movers) await p.waitForFunction((n) => document.querySelectorAll('#moves button.move').length >= n, i + 1);
  }
}

test('earlier positions can be browsed while the game goes on, and the live one is a click away', { timeout: 60000 }, async () => {
  await keepScreenshotsOnFailure('browse', pages, async () => {
    const { host, friend } = await friendGame('arcade');
    await playAll([host, friend], ['c3', 'd4', 'a1', 'f5', 'b5']);
    const live = await stones(host);
    assert.deepEqual(live, { c3: 'pale', d4: 'dark', a1: 'pale', f5: 'dark', b5: 'pale' });

    // A click on the second move shows the board after it, and nothing on it can be played.
    await host.click('#moves button[data-ply="2"]');
    await host.waitForSelector('#browsing:not([hidden])');
    assert.deepEqual(await stones(host), { c3: 'pale', d4: 'dark' });
    assert.equal(await host.locator('#browse-note').innerText(), 'You are looking at 1... d4 (move 1 of 3).');
    assert.equal(await host.locator('#moves [aria-current="true"]').innerText(), 'd4');
    assert.equal(await host.locator('[data-cell].put').count(), 0);
    assert.equal(await host.locator('#player-white .hand').innerText(), '11 in hand');
    // Arrow keys go back and forth from there (the focus is on the move list).
    await host.keyboard.press('ArrowLeft');
    await host.waitForFunction(() => document.querySelector('#browse-note').textContent.startsWith('You are looking at 1. c3 '));
    assert.deepEqual(await stones(host), { c3: 'pale' });
    await host.keyboard.press('ArrowLeft');
    assert.equal(await host.locator('#browse-note').innerText(), 'You are looking at the start.');
    assert.deepEqual(await stones(host), {});
    await host.keyboard.press('ArrowRight');
    await host.keyboard.press('ArrowRight');
    await host.keyboard.press('ArrowRight');
    assert.equal(await host.locator('#browse-note').innerText(), 'You are looking at 2. a1 (move 2 of 3).');

    // The game goes on: the friend's move does not move the host's view, but is told.
    await play(friend, 'e2');
    await host.waitForFunction(() => document.querySelector('#live').textContent === 'Back to the live position (1 new)');
    assert.match(await host.locator('#browse-note').innerText(), /^You are looking at 2\. a1 \(move 2 of 3\)\. 1 new turn since\.$/);
    assert.deepEqual(await stones(host), { c3: 'pale', d4: 'dark', a1: 'pale' });
    assert.equal(await host.locator('#turn').innerText(), 'Your turn: place a stone.');
    // The page's own buttons go back and forth too.
    await host.click('#prev');
    assert.match(await host.locator('#browse-note').innerText(), /^You are looking at 1\.\.\. d4 /);
    await host.click('#next');
    assert.match(await host.locator('#browse-note').innerText(), /^You are looking at 2\. a1 /);

    // Back to the live position: the new move is there, and the board plays again.
    await host.click('#live');
    await host.waitForSelector('#browsing', { state: 'hidden' });
    assert.deepEqual(await stones(host), { ...live, e2: 'dark' });
    assert.equal(await host.locator('#moves [aria-current="true"]').innerText(), 'e2');
    await host.click('[data-cell="a5"].put');
    await friend.waitForFunction(() => document.querySelector('#moves').innerText.includes('a5'));
    // End from the keyboard, anywhere but the board, also comes back.
    await host.keyboard.press('Home');
    await host.waitForSelector('#browsing:not([hidden])');
    await host.keyboard.press('End');
    await host.waitForSelector('#browsing', { state: 'hidden' });
  });
});

test('move numbers from 10 up show whole in the move list', { timeout: 90000 }, async () => {
  await keepScreenshotsOnFailure('numbers', pages, async () => {
    for (const viewport of [{ width: 390, height: 844 }, { width: 1280, height: 800 }]) {
      const created = await createGame(server, { opponent: 'computer', rules: 'arcade', level: 1, first: 'me' });
      const page = await newPage(viewport);
      await page.goto(server.url + created.url);
      for (let i = 0; i < 11; i++) {
        await page.waitForFunction((n) => document.querySelectorAll('#moves button.move').length === n
          && document.querySelector('[data-cell].put'), 2 * i);
        await page.locator('[data-cell].put').first().click();
      }
      await page.waitForFunction(() => document.querySelectorAll('#moves button.move').length === 22);
      const numbers = await page.$$eval('#moves .number', (spans) => spans.map((s) => {
        const box = s.getBoundingClientRect();
        const list = document.querySelector('#moves').getBoundingClientRect();
        return { text: s.textContent, whole: s.scrollWidth <= s.clientWidth && box.left >= list.left && box.right <= list.right };
      }));
      assert.equal(numbers.length, 11);
      assert.equal(numbers[10].text, '11.');
      for (const n of numbers) assert.ok(n.whole, `${n.text} shows whole at ${viewport.width} px`);
      // And the moves themselves are not cut either.
      const cut = await page.$$eval('#moves button.move', (bs) => bs.filter((b) => b.scrollWidth > b.clientWidth).length);
      assert.equal(cut, 0);
    }
  });
});

test('choosing a capture, said in words, the other side\'s stone sliding in and the taken one fading', { timeout: 60000 }, async () => {
  await keepScreenshotsOnFailure('capture', pages, async () => {
    const { created, host, friend } = await friendGame('arcade,stones=4');
    // A watcher who asked for less motion sees the same moves without it.
    const still = await newPage({ width: 1280, height: 860 }, { reducedMotion: 'reduce' });
    await still.goto(`${server.url}/g/${created.game}`);
    await still.waitForSelector('#watch-note:not([hidden])');
    await playAll([host, friend], ['a1', 'f5', 'b1', 'f3', 'd1', 'd5', 'a3', 'e4']);
    await expectText(host, '#announce', /^Dark placed on e4\. Your turn: step a stone\.$/);

    // Pale steps d1 to c1, making a row: the headline asks for the stone to take.
    await host.waitForFunction(() => document.querySelector('#turn').textContent === 'Your turn: step a stone.');
    await host.click('[data-cell="d1"]');
    await host.click('[data-cell="c1"]');
    await host.waitForSelector('[data-cell].capture');
    assert.equal(await host.locator('#turn').innerText(), 'Your turn: choose a stone to take.');
    await host.locator('[data-cell="c1"]').focus();
    await host.keyboard.press('Escape');
    assert.equal(await host.locator('#turn').innerText(), 'Your turn: step a stone.');
    await host.click('[data-cell="d1"]');
    await host.click('[data-cell="c1"]');
    await host.click('[data-cell="f3"].capture');
    await friend.waitForFunction(() => document.querySelector('#moves').innerText.includes('d1-c1xf3'));
    // The host's own page may still say "Sending d1-c1xf3…": each page is read once it shows it.
    await expectText(host, '#announce', 'Pale stepped d1 to c1 and took f3. Dark to play: step a stone.');
    await expectText(friend, '#announce', /^Pale stepped d1 to c1 and took f3\. Your turn/);

    // Dark's step: on pale's board the stone slides in from e4 and a3 fades out.
    await play(friend, 'e4-e5xa3');
    await host.waitForSelector('[data-moving="e5"]');
    await expectText(host, '#announce', 'Dark stepped e4 to e5 and took a3. Your turn: step a stone.');
    const motion = await host.evaluate(() => ({
      slide: getComputedStyle(document.querySelector('[data-moving="e5"]')).animationName,
      fade: getComputedStyle(document.querySelector('[data-taken="a3"]')).animationName,
      from: document.querySelector('[data-moving="e5"]').style.getPropertyValue('--dy'),
    }));
    assert.deepEqual(motion, { slide: 'slide', fade: 'fade', from: '100px' });
    // Its own move does not slide on the mover's board: the stone is already where it was put.
    assert.equal(await friend.locator('[data-moving]').count(), 0);
    // Under reduced motion: nothing moves, nothing fades.
    await still.waitForFunction(() => document.querySelector('#moves').innerText.includes('e4-e5xa3'));
    const calm = await still.evaluate(() => ({
      slide: getComputedStyle(document.querySelector('[data-moving="e5"]')).animationName,
      fade: getComputedStyle(document.querySelector('[data-taken="a3"]')).display,
      running: document.getAnimations().length,
    }));
    assert.deepEqual(calm, { slide: 'none', fade: 'none', running: 0 });
    await expectText(still, '#announce', /^Dark stepped e4 to e5 and took a3\. Pale to play/);
  });
});

test('a draw offer can be withdrawn; resigning asks in the page first; a finished game offers no takeback', { timeout: 60000 }, async () => {
  await keepScreenshotsOnFailure('offers', pages, async () => {
    const { host, friend } = await friendGame('arcade');
    for (const page of [host, friend]) page.on('dialog', () => assert.fail('a native dialog opened'));
    await playAll([host, friend], ['c3', 'd4']);
    // Offering asks first, in the page: "No" sends nothing, "Yes" sends the offer.
    await host.click('#draw');
    assert.equal(await host.locator('#draw-confirm-text').innerText(), 'Offer your opponent a draw?');
    assert.ok(await host.locator('#draw').isHidden());
    await host.click('#draw-no');
    assert.ok(await host.locator('#draw-confirm').isHidden());
    assert.ok(await host.locator('#draw').isVisible());
    await host.click('#draw');
    await host.click('#draw-yes');
    await friend.waitForFunction(() => document.querySelector('#draw').textContent === 'Accept draw');
    assert.equal(await friend.locator('#offer-note').innerText(), 'Your opponent offers a draw.');
    assert.ok(await friend.locator('#decline').isVisible());
    await host.waitForSelector('#withdraw:not([hidden])');
    assert.equal(await host.locator('#offer-note').innerText(), 'You have offered a draw.');
    assert.ok(await host.locator('#draw').isHidden());

    await host.click('#withdraw');
    await friend.waitForFunction(() => document.querySelector('#draw').textContent === 'Offer draw');
    assert.ok(await friend.locator('#decline').isHidden());
    assert.ok(await friend.locator('#offer-note').isHidden());
    assert.equal(await friend.locator('#announce').innerText(), 'Pale withdrew the draw offer.');
    await host.waitForSelector('#withdraw', { state: 'hidden' });
    assert.ok(await host.locator('#draw').isVisible());

    // Resign opens a dialog in the page, with the safe choice focused; Escape keeps playing.
    await friend.click('#resign');
    const dialog = friend.getByRole('dialog', { name: 'Resign this game?' });
    await dialog.waitFor();
    assert.equal(await friend.evaluate(() => document.activeElement.id), 'resign-cancel');
    await friend.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    assert.equal(await friend.evaluate(() => document.activeElement.id), 'resign');
    await friend.click('#resign');
    await friend.click('#resign-cancel');
    await dialog.waitFor({ state: 'hidden' });
    assert.ok(await friend.locator('#end').isHidden());
    // Confirmed: the game ends on both pages.
    await friend.click('#resign');
    await friend.getByRole('button', { name: 'Resign', exact: true }).last().click();
    await host.waitForSelector('#end:not([hidden])');
    assert.match(await host.locator('#result').innerText(), /^You won \(1-0\): Dark resigned/);
    // The friend's page, read once it has the end too.
    await friend.waitForSelector('#end:not([hidden])');
    assert.ok(await friend.locator('#resign').isHidden());
    assert.ok(await friend.locator('#withdraw').isHidden());

    // Against the computer, a game the rules ended shows no takeback (nor a resign).
    const page = await newPage();
    const created = await createGame(server, { opponent: 'computer', rules: 'arcade', level: 1, first: 'me' });
    await page.goto(server.url + created.url);
    await page.click('[data-cell="a1"].put');
    await page.waitForSelector('#takeback:not([hidden])');
    await page.click('#resign');
    await page.click('#resign-confirm');
    await page.waitForSelector('#end:not([hidden])');
    assert.ok(await page.locator('#takeback').isHidden());
  });
});

test('a double click sends one turn', { timeout: 60000 }, async () => {
  await keepScreenshotsOnFailure('double', pages, async () => {
    const { host, friend } = await friendGame('arcade,stones=3');
    const sent = [];
    host.on('websocket', (ws) => ws.on('framesent', (f) => sent.push(JSON.parse(f.payload).t)));
    // The socket was opened before listening: reload so that it is a new one, watched.
    await host.reload();
    await host.waitForFunction(() => document.querySelector('#turn').textContent === 'Your turn: place a stone.');
    const turnsSent = () => sent.filter((t) => t === 'move').length;
    await host.dblclick('[data-cell="a1"]');
    await friend.waitForFunction(() => document.querySelector('#moves').innerText.includes('a1'));
    await host.waitForTimeout(500);
    assert.equal(turnsSent(), 1);
    assert.doesNotMatch(await host.locator('#status-note').innerText(), /not played/);
    // A step: a double click on the cell it goes to is one turn too.
    await playAll([friend, host], ['f5', 'c1', 'f3', 'e1', 'd5']);
    await host.waitForFunction(() => document.querySelector('#turn').textContent === 'Your turn: step a stone.');
    await host.click('[data-cell="a1"]');
    await host.waitForSelector('[data-cell="a2"].target');
    await host.dblclick('[data-cell="a2"]');
    await friend.waitForFunction(() => document.querySelectorAll('#moves button.move').length === 7);
    await host.waitForTimeout(500);
    assert.equal(turnsSent(), 4);
    assert.deepEqual(await settled(() => moveList(host), (list) => list.length === 7), ['a1', 'f5', 'c1', 'f3', 'e1', 'd5', 'a1-a2']);
    assert.doesNotMatch(await host.locator('#status-note').innerText(), /not played/);
  });
});

test('the board flips at a press, and the count of watchers is shown to everyone', { timeout: 60000 }, async () => {
  await keepScreenshotsOnFailure('flip', pages, async () => {
    const { created, host, friend } = await friendGame('arcade');
    const top = async (cell) => (await host.locator(`[data-cell="${cell}"] .hit`).boundingBox()).y;
    assert.ok(await top('a1') > await top('a5'), 'pale at the bottom');
    await host.click('#flip');
    assert.equal(await host.locator('#flip').getAttribute('aria-pressed'), 'true');
    assert.ok(await top('a1') < await top('a5'), 'pale at the top');
    // The pale player's panel goes with pale's side of the board.
    const panel = async (id) => (await host.locator(id).boundingBox()).y;
    assert.ok(await panel('#player-white') < await panel('#player-black'));
    // Still playable flipped.
    await host.click('[data-cell="c3"].put');
    await friend.waitForFunction(() => document.querySelector('#moves').innerText.includes('c3'));
    await host.click('#flip');
    assert.ok(await top('a1') > await top('a5'));

    assert.ok(await host.locator('#watchers').isHidden());
    const watcher = await newPage();
    await watcher.goto(`${server.url}/g/${created.game}`);
    for (const page of [host, friend, watcher]) {
      await page.waitForFunction(() => document.querySelector('#watchers').textContent === '1 person watching');
    }
    const second = await newPage();
    await second.goto(`${server.url}/g/${created.game}`);
    await host.waitForFunction(() => document.querySelector('#watchers').textContent === '2 people watching');
    await second.close();
    await watcher.close();
    await friend.waitForSelector('#watchers', { state: 'hidden' });
  });
});

test('a watcher hears nothing addressed to a player: offers and the rematch are said with the side', { timeout: 60000 }, async () => {
  await keepScreenshotsOnFailure('watcher-words', pages, async () => {
    const { created, host, friend } = await friendGame('arcade');
    const watcher = await newPage();
    // Every announcement the watcher's screen reader is given, in order.
    await watcher.addInitScript(() => {
      window.heard = [];
      document.addEventListener('DOMContentLoaded', () => {
        const announce = document.getElementById('announce');
        new MutationObserver(() => window.heard.push(announce.textContent)).observe(announce, { childList: true, characterData: true, subtree: true });
      });
    });
    await watcher.goto(`${server.url}/g/${created.game}`);
    await watcher.waitForSelector('#watch-note:not([hidden])');
    await playAll([host, friend], ['c3', 'd4']);
    await watcher.waitForFunction(() => document.querySelectorAll('#moves button.move').length === 2);
    // Pale offers a draw (asked first), dark declines it.
    await host.click('#draw');
    await host.click('#draw-yes');
    await friend.click('#decline');
    await watcher.waitForFunction(() => window.heard.includes('The draw offer was declined.'));
    // Pale resigns and asks for a rematch.
    await host.click('#resign');
    await host.click('#resign-confirm');
    await watcher.waitForSelector('#end:not([hidden])');
    await host.click('#rematch');
    await friend.waitForFunction(() => document.querySelector('#announce').textContent === 'Your opponent asks for a rematch.');
    await watcher.waitForFunction(() => document.querySelector('#announce').textContent === 'Pale asks for a rematch.');
    const heard = await watcher.evaluate(() => window.heard);
    assert.ok(heard.includes('Pale offers a draw.'), heard.join(' | '));
    assert.deepEqual(heard.filter((text) => /\byou|\byour/i.test(text)), [], 'nothing said to the watcher as to a player');
  });
});

// A friend's game `created` with both seated: the host's page records every note it starts, by
// its pitch, in `window.notes`.
async function seatedRecordingNotes(created) {
  const host = await newPage();
  await host.context().addInitScript(() => {
    window.notes = [];
    const start = OscillatorNode.prototype.start;
    OscillatorNode.prototype.start = function (...args) {
      window.notes.push(Math.round(this.frequency.value));
      return start.apply(this, args);
    };
  });
  await host.goto(server.url + created.url);
  const friend = await newPage();
  await friend.goto(`${server.url}/g/${created.game}`);
  await host.waitForSelector('#invite', { state: 'hidden' });
  return { host, friend };
}

test('the tab says "Your turn", a hidden page calls its player back; R flips the board; a move typed anywhere is played', { timeout: 60000 }, async () => {
  await keepScreenshotsOnFailure('tab-keys', pages, async () => {
    const created = await createGame(server, { opponent: 'friend', rules: 'arcade', first: 'me' });
    const { host, friend } = await seatedRecordingNotes(created);
    // Pale's turn: pale's tab says so, dark's does not.
    await host.waitForFunction(() => document.title === 'Your turn · Dara — arcade');
    await friend.waitForFunction(() => document.title === 'Dara — arcade');

    // A move typed with the focus nowhere in particular: the letters go to the move box.
    await host.locator('h1, header').first().click();
    await host.keyboard.type('c3');
    assert.equal(await host.locator('#typed-input').inputValue(), 'c3');
    await host.keyboard.press('Enter');
    await friend.waitForFunction(() => document.querySelectorAll('#moves button.move').length === 1);
    await host.waitForFunction(() => document.title === 'Dara — arcade');
    await friend.waitForFunction(() => document.title === 'Your turn · Dara — arcade');

    // R turns the board round, and back.
    await host.keyboard.press('r');
    assert.equal(await host.locator('#flip').getAttribute('aria-pressed'), 'true');
    await host.keyboard.press('r');
    assert.equal(await host.locator('#flip').getAttribute('aria-pressed'), 'false');

    // Pale's page out of sight (setHidden: headless Chromium keeps every tab visible). Dark's
    // move calls pale back with the rising pair, after the move's own note.
    await setHidden(host, true);
    const before = (await host.evaluate(() => window.notes)).length;
    await play(friend, 'd4');
    await host.waitForFunction((n) => window.notes.length >= n + 3, before);
    assert.deepEqual((await host.evaluate(() => window.notes)).slice(before), [540, 660, 880]);
    assert.equal(await host.evaluate(() => document.title), 'Your turn · Dara — arcade');
    // In sight, a move is only its note.
    await setHidden(host, false);
    await play(host, 'a1');
    const seen = (await host.evaluate(() => window.notes)).length;
    await play(friend, 'f5');
    await host.waitForFunction((n) => window.notes.length >= n + 1, seen);
    await host.waitForTimeout(300);
    assert.deepEqual((await host.evaluate(() => window.notes)).slice(seen), [540]);
  });
});

test('sounds for a move, a capture and the end, and a mute switch the browser remembers', { timeout: 60000 }, async () => {
  await keepScreenshotsOnFailure('sound', pages, async () => {
    const created = await createGame(server, { opponent: 'friend', rules: 'arcade,stones=3', first: 'me' });
    const { host, friend } = await seatedRecordingNotes(created);
    const notes = () => host.evaluate(() => window.notes);
    // The switch says the state it is in, and is pressed while sounds play.
    assert.equal(await host.locator('#mute').innerText(), 'Sound: on');
    assert.equal(await host.locator('#mute').getAttribute('aria-pressed'), 'true');

    await host.click('[data-cell="a1"].put');
    await host.waitForFunction(() => window.notes.length === 1);
    assert.deepEqual(await notes(), [540]);
    await play(friend, 'f5');
    await host.waitForFunction(() => window.notes.length === 2);

    // Muted: silence, remembered across a reload.
    await host.click('#mute');
    assert.equal(await host.locator('#mute').innerText(), 'Sound: off');
    assert.equal(await host.locator('#mute').getAttribute('aria-pressed'), 'false');
    assert.equal(await host.evaluate(() => localStorage.getItem('dara.sound')), 'off');
    await play(host, 'b1');
    await play(friend, 'f3');
    await host.waitForFunction(() => document.querySelectorAll('#moves button.move').length === 4);
    assert.deepEqual(await notes(), [540, 540]);
    await host.reload();
    await host.waitForFunction(() => document.querySelectorAll('#moves button.move').length === 4);
    assert.equal(await host.locator('#mute').innerText(), 'Sound: off');
    assert.equal(await host.locator('#mute').getAttribute('aria-pressed'), 'false');

    await host.click('#mute');
    assert.equal(await host.locator('#mute').getAttribute('aria-pressed'), 'true');
    await play(host, 'd1');
    await play(friend, 'd5');
    await host.waitForFunction(() => window.notes.length === 2);
    // The capture that ends the game: the capture's two notes, then the end's three.
    await play(host, 'd1-c1xf5');
    await host.waitForSelector('#end:not([hidden])');
    await host.waitForFunction(() => window.notes.length === 7);
    assert.deepEqual((await notes()).slice(2), [330, 220, 523, 659, 784]);
  });
});

test('your own open table is not offered to you as a seat', { timeout: 30000 }, async () => {
  await keepScreenshotsOnFailure('own-table', pages, async () => {
    const table = await newPage();
    await table.goto(server.url + '/');
    await table.click('#open-table');
    await table.waitForURL(/#seat=/);
    // Another tab of the same browser: the table leads back, never to a seat against oneself.
    const home = await table.context().newPage();
    await home.goto(server.url + '/');
    const own = home.locator('#tables li.own');
    await own.waitFor();
    assert.match(await own.innerText(), /^Your table: arcade, 5\+3, waiting for someone to sit down/);
    assert.equal(await home.locator('#tables li.own a').innerText(), 'Back to your table');
    assert.equal(await home.locator('#tables li.own').getByText('Sit down', { exact: true }).count(), 0);
    // Someone else is offered the seat.
    const other = await newPage();
    await other.goto(server.url + '/');
    await other.locator('#tables li a', { hasText: 'Sit down' }).first().waitFor();
    assert.equal(await other.locator('#tables li.own').count(), 0);
    await home.click('#tables li.own a');
    await home.waitForFunction(() => document.querySelector('#player-white .name').textContent === 'You'
      || document.querySelector('#player-black .name').textContent === 'You');
  });
});

test('the rules page shows the board after "Pale steps d1 to c1"', { timeout: 30000 }, async () => {
  await keepScreenshotsOnFailure('rules-diagram', pages, async () => {
    const page = await newPage();
    await page.goto(server.url + '/rules');
    const figure = page.locator('figure', { hasText: 'Pale steps d1 to c1' });
    const drawn = await figure.evaluate((f) => Object.fromEntries([...f.querySelectorAll('.stone')]
      .map((s) => [s.dataset.cell, s.classList.contains('pale') ? 'pale' : 'dark'])));
    assert.equal(drawn.c1, 'pale');
    assert.equal(drawn.d1, undefined);
    assert.deepEqual(Object.entries(drawn).filter(([, c]) => c === 'pale').map(([cell]) => cell).sort(), ['a1', 'b1', 'c1']);
    assert.equal(drawn.e4, undefined, 'the dark stone taken is gone');
    assert.equal(await figure.locator('.arrow').count(), 1);
  });
});
