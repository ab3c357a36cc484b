// Issue 43's checks: what a player needs lies on the first screen, on a phone held upright
// (390 × 844) and on a laptop (1280 × 800), in English, French and Hausa (the longest words):
// the game page's board, its turn headline and whichever of its turn's buttons are shown, in a
// game against the computer and in a friend's game (both players' pages), and the home page's
// ways to play.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useArcade, keepScreenshotsOnFailure, createGame, clickTurn } from '../harness.js';

const { server, newPage, pages } = useArcade();

const SIZES = [{ width: 390, height: 844 }, { width: 1280, height: 800 }];
const LANGUAGES = ['en', 'fr', 'ha'];
// The buttons of a turn, of which a game shows those that apply (taking back only against the
// computer, aborting before the first turns, …).
const TURN_BUTTONS = ['#takeback', '#draw', '#decline', '#withdraw', '#claim', '#resign', '#abort'];

// A person whose browser has chosen `lang` (the switch's cookie: the server words the pages in
// it from the first byte).
async function person(lang, viewport) {
  const page = await newPage(viewport);
  await page.context().addCookies([{ name: 'lang', value: lang, url: server.url }]);
  return page;
}

// Asserts that each of `selectors` on `page` lies whole within the first screen, unscrolled.
async function onFirstScreen(page, selectors, what) {
  const { width, height } = page.viewportSize();
  const scrolled = await page.evaluate(() => [window.scrollX, window.scrollY]);
  assert.deepEqual(scrolled, [0, 0], `${what}: the page is not scrolled`);
  for (const selector of selectors) {
    const box = await page.locator(selector).boundingBox();
    assert.ok(box, `${what}: ${selector} is shown`);
    const within = box.x >= 0 && box.y >= 0 && box.x + box.width <= width + 0.5 && box.y + box.height <= height + 0.5;
    assert.ok(within, `${what}: ${selector} lies on the first screen (${Math.round(box.x)}, ${Math.round(box.y)}) to (${Math.round(box.x + box.width)}, ${Math.round(box.y + box.height)}) in ${width} × ${height}`);
  }
}

// The board, the turn's headline and the turn's buttons that are shown.
async function turnControls(page) {
  const shown = [];
  for (const button of TURN_BUTTONS) if (await page.locator(button).isVisible()) shown.push(button);
  return ['#board', '#turn', ...shown];
}

// Waits until it is this page's turn, as its board shows it: cells to place on, or stones that
// can step (the headline's words differ by language).
const myTurn = (page) => page.waitForSelector('#board [data-cell].put, #board [data-cell].select');

for (const lang of LANGUAGES) {
  for (const viewport of SIZES) {
    const at = `${lang} at ${viewport.width} × ${viewport.height}`;

    test(`the home page's ways to play are on the first screen (${at})`, { timeout: 30000 }, async () => {
      await keepScreenshotsOnFailure(`layout-home-${lang}-${viewport.width}`, pages, async () => {
        const page = await person(lang, viewport);
        await page.goto(server.url + '/');
        await page.waitForFunction((code) => document.documentElement.lang === code && document.querySelector('#lang'), lang);
        await onFirstScreen(page, ['#play-computer button[type=submit]', '#play-friend button[type=submit]', '#tables-title', '#play-anyone'], `home (${at})`);
      });
    });

    test(`a game against the computer: the board and the turn's controls are on the first screen (${at})`, { timeout: 60000 }, async () => {
      await keepScreenshotsOnFailure(`layout-computer-${lang}-${viewport.width}`, pages, async () => {
        const page = await person(lang, viewport);
        const id = '0123456789abcdef';
        await page.addInitScript((kept) => {
          localStorage.setItem(`dara.computer.${kept.game}`, JSON.stringify(kept));
        }, { game: id, date: '2026.12.05', rules: 'arcade', level: 1, you: 'white', journal: [] });
        await page.goto(`${server.url}/computer/${id}`);
        await myTurn(page);
        await onFirstScreen(page, await turnControls(page), `the computer's game, its start (${at})`);
        // A turn each: taking back is offered.
        await clickTurn(page);
        await page.waitForFunction(() => document.querySelectorAll('#moves button.move').length >= 2, null, { timeout: 30000 });
        await myTurn(page);
        await page.locator('#takeback').waitFor();
        await onFirstScreen(page, await turnControls(page), `the computer's game, a turn each (${at})`);
      });
    });

    test(`a friend's game: the board and the turn's controls are on the first screen for both players (${at})`, { timeout: 60000 }, async () => {
      await keepScreenshotsOnFailure(`layout-friend-${lang}-${viewport.width}`, pages, async () => {
        const created = await createGame(server, { opponent: 'friend', first: 'me' });
        const host = await person(lang, viewport);
        await host.goto(server.url + created.url);
        const friend = await person(lang, viewport);
        await friend.goto(`${server.url}/g/${created.game}`);
        await host.waitForSelector('#invite', { state: 'hidden' });
        // A turn each, so that the game is under way (resigning and a draw are offered).
        for (const page of [host, friend]) {
          await myTurn(page);
          await clickTurn(page);
        }
        for (const page of [host, friend]) await page.waitForFunction(() => document.querySelectorAll('#moves button.move').length >= 2);
        await myTurn(host);
        await host.locator('#resign').waitFor();
        await friend.locator('#resign').waitFor();
        await onFirstScreen(host, await turnControls(host), `a friend's game, the player to move (${at})`);
        await onFirstScreen(friend, await turnControls(friend), `a friend's game, the player waiting (${at})`);
      });
    });
  }
}
