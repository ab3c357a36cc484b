// A takeback asked of a person, in real Chromium (issue 43): two browsers play a friend's game by
// its link. Asked, it is declined and cannot be asked again at once; asked again after a move, it
// is granted: the board and the move list go back on both pages and it is the asker's turn, also
// after a reload. Withdrawn by its asker, and lapsing with a move. A watcher's page says nothing
// of any request: it is the players' matter, and "your opponent" is nobody's there.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useArcade, keepScreenshotsOnFailure, createGame, expectText, settled } from '../harness.js';

const { server, newPage, pages } = useArcade();

const moveCount = (page) => page.locator('#moves button.move').count();
const movesShown = (page, n) => page.waitForFunction((k) => document.querySelectorAll('#moves button.move').length === k, n);
const stones = (page) => page.locator('#board circle.stone').count();
const visible = (page, selector) => page.waitForSelector(selector, { state: 'visible' });
const hidden = (page, selector) => page.waitForSelector(selector, { state: 'hidden' });

// Types a whole turn once it is this page's turn, and waits until the list shows it.
async function play(page, m) {
  await page.waitForFunction(() => document.querySelector('#turn').textContent.startsWith('Your turn'));
  const before = await moveCount(page);
  await page.fill('#typed-input', m);
  await page.press('#typed-input', 'Enter');
  await movesShown(page, before + 1);
}

// Every text the page's live region and its status line are given, from now on.
const listen = (page) => page.evaluate(() => {
  window.told = [];
  for (const id of ['announce', 'status-note']) {
    const node = document.getElementById(id);
    new MutationObserver(() => window.told.push(node.textContent))
      .observe(node, { childList: true, characterData: true, subtree: true });
  }
});
const told = (page) => page.evaluate(() => window.told.filter((text) => text));

test('a takeback asked of a friend is declined, granted, withdrawn and lapses; a watcher is told nothing', { timeout: 120000 }, async () => {
  await keepScreenshotsOnFailure('takeback', pages, async () => {
    const created = await createGame(server, { opponent: 'friend', first: 'me' });
    const host = await newPage({ width: 1280, height: 800 });
    await host.goto(server.url + created.url);
    const friend = await newPage({ width: 390, height: 844 });
    await friend.goto(`${server.url}/g/${created.game}`);
    await host.waitForSelector('#invite', { state: 'hidden' });
    await friend.waitForFunction(() => document.querySelector('#player-black .name').textContent === 'You');
    const watcher = await newPage({ width: 1280, height: 800 });
    await watcher.goto(`${server.url}/g/${created.game}`);
    await visible(watcher, '#watch-note');
    await listen(watcher);

    // Nothing to take back before one's first move.
    await play(host, 'c3');
    await movesShown(watcher, 1);

    // Asked: the friend is asked, with Accept and Decline; the host sees it is asked, and may
    // withdraw it; the watcher sees neither.
    await host.click('#takeback');
    await expectText(friend, '#tb-note', 'Your opponent asks to take back a move.');
    await visible(friend, '#tb-yes');
    await visible(friend, '#tb-no');
    assert.equal(await friend.isVisible('#tb-cancel'), false);
    await expectText(host, '#tb-note', 'You asked to take back a move.');
    await visible(host, '#tb-cancel');
    await hidden(host, '#takeback');
    assert.equal(await host.isVisible('#tb-yes'), false);
    // A watcher who opens the game now, the request standing, is shown nothing of it either.
    await watcher.reload();
    await visible(watcher, '#watch-note');
    await movesShown(watcher, 1);
    await listen(watcher);
    for (const id of ['#tb-note', '#tb-yes', '#tb-no', '#tb-cancel', '#takeback']) {
      assert.equal(await watcher.isVisible(id), false, `a watcher is shown ${id}`);
    }

    // Declined: nothing goes back, and the host may not ask again before a move.
    await friend.click('#tb-no');
    await expectText(host, '#status-note', 'The takeback was declined.');
    await hidden(host, '#tb-note');
    await hidden(friend, '#tb-yes');
    assert.equal(await moveCount(host), 1);
    await visible(host, '#takeback');
    await host.click('#takeback');
    await expectText(host, '#status-note', 'Your last takeback request was declined or withdrawn: ask again after a move');
    assert.equal(await friend.isVisible('#tb-note'), false);

    // The friend answers on the board; the host asks again on their own turn, and it reaches back
    // over the friend's answer: granted, both pages start again, the host to move.
    await play(friend, 'd3');
    await movesShown(host, 2);
    await host.click('#takeback');
    await visible(friend, '#tb-yes');
    await friend.click('#tb-yes');
    for (const page of [host, friend, watcher]) {
      await movesShown(page, 0);
      assert.equal(await settled(() => stones(page), (n) => n === 0), 0);
    }
    await expectText(host, '#turn', /^Your turn/);
    await expectText(friend, '#turn', /^Pale to play/);
    await hidden(host, '#tb-note');
    await hidden(friend, '#tb-note');
    // A reload takes the game up as it now stands.
    await host.reload();
    await visible(host, '#typed-input');
    await movesShown(host, 0);
    await expectText(host, '#turn', /^Your turn/);

    // Withdrawn by the host before the friend answers: the friend's buttons go.
    await play(host, 'c3');
    await movesShown(friend, 1);
    await host.click('#takeback');
    await visible(friend, '#tb-yes');
    await host.click('#tb-cancel');
    await expectText(friend, '#status-note', 'The takeback request was withdrawn.');
    await hidden(friend, '#tb-yes');
    await hidden(friend, '#tb-note');
    await hidden(host, '#tb-cancel');

    // The friend asks, and the host plays on instead: the request lapses with the move.
    await play(friend, 'd3');
    await movesShown(host, 2);
    await friend.click('#takeback');
    await visible(host, '#tb-yes');
    await play(host, 'e3');
    await hidden(host, '#tb-yes');
    await hidden(friend, '#tb-note');
    await movesShown(friend, 3);
    await movesShown(watcher, 3);

    // The watcher was told the takeback that was granted, and nothing addressed to a player.
    const heard = await told(watcher);
    assert.ok(!heard.some((text) => /opponent|asked to take back|takeback request|takeback was/i.test(text)), heard.join(' | '));
    assert.equal(await watcher.isVisible('#tb-note'), false);
  });
});
