// Issue 43's checks: what a player needs lies on the first screen, on a phone held upright
// (390 × 844) and on a laptop (1280 × 800), in English, French and Hausa (the longest words):
// the game page's board, its turn headline and whichever of its turn's buttons are shown, in a
// game against the computer and in a friend's game (both players' pages), the home page's ways
// to play, a lesson's board and what its step asks (/learn), the analysis board and the buttons
// that go through the game on it (/analysis), and a puzzle's board and what to do (/puzzles).
// And the home page without scripts: whole, and saying that playing needs JavaScript.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { useArcade, keepScreenshotsOnFailure, createGame, clickTurn } from '../harness.js';

let puzzles;
const { server, newPage, pages } = useArcade([], async (started) => { puzzles = await (await fetch(`${started.url}/api/puzzles`)).json(); });

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
  // LAYOUT_SHOTS=<folder> keeps a picture of each screen checked, to be looked at.
  if (process.env.LAYOUT_SHOTS) await page.screenshot({ path: `${process.env.LAYOUT_SHOTS}/${what.replace(/[^\w]+/g, '-')}.png` });
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

// The lessons: each step's words and board, then a wrong move's explanation with "Try again",
// and a right one's with "Next step". What the step asks (#ask) and the board are the lesson's
// turn; its buttons (#retry, #next) come above the board on a phone, beside it on a laptop, with
// what was wrong or right (#feedback). The typed move and "Start this step again" lie under the
// board, as the game page's tools do: on a laptop they are on the first screen too; on a phone
// they are not (the step's words and the board fill it), and "Try again", which is on it, starts
// the step again when a move was wrong.
const LESSONS = 8;
const TAKING = 5; // "Taking a stone": a wrong capture is explained with dark's answer, the longest words.

async function lessonOnFirstScreen(page, what, extra = []) {
  const { width } = page.viewportSize();
  const tools = width >= 1000 ? ['#restart', '#typed-input'] : [];
  const buttons = [];
  for (const button of ['#retry', '#next']) if (await page.locator(button).isVisible()) buttons.push(button);
  await onFirstScreen(page, ['#lesson-title', '#ask', '#board', ...buttons, ...extra, ...tools], what);
}

// Starts the lesson `n` (from 1) by its button in the row of steps, and waits for its board.
async function startLesson(page, n) {
  await page.locator(`#steps li:nth-child(${n}) button`).click();
  await page.waitForSelector(`#steps li:nth-child(${n}) button[aria-current="step"]`);
  // Its position has come and its task is asked: the focus is on its title.
  await page.waitForFunction(() => document.activeElement && document.activeElement.id === 'lesson-title');
  await page.waitForSelector('#board [data-cell].put, #board [data-cell].select');
}

async function stepOnBoard(page, from, to, take) {
  await page.click(`#board [data-cell="${from}"].select`);
  await page.click(`#board [data-cell="${to}"].target`);
  if (take) await page.click(`#board [data-cell="${take}"].capture`);
}

// The analysis board. A player comes to it with a game (from "Analyse this game", or pasted) to
// go through it with the engine: its turn's controls are the board (a turn played on it plays a
// variation), the line saying which position is shown, the four buttons that go through the game
// (start, back, on, last) and the engine's verdict on the position shown (its evaluation and best
// turn, the reason to be there); when a variation is played, its note and "Back to the game".
// The paste box is for another game or position: it comes after them, below the first screen,
// and so does the move list on a phone (the buttons go through it; above the engine's lines it
// would push them off the screen).
const GAME = ['c3', 'd4', 'a1', 'f5', 'b2', 'e4'];
const STEPPING = ['#first', '#prev', '#next', '#last'];
const engineAnswered = (page) => page.waitForFunction(() => document.querySelector('#best').textContent !== '', null, { timeout: 20000 });

// A puzzle's board and what to do: its title, what it asks, and the buttons shown (the next
// puzzle; after a wrong answer "Try again" and "Show the solution"), with the answer's words.
async function puzzleOnFirstScreen(page, what) {
  const buttons = [];
  for (const button of ['#retry', '#solution', '#next']) if (await page.locator(button).isVisible()) buttons.push(button);
  const said = (await page.locator('#feedback').textContent()) ? ['#feedback'] : [];
  await onFirstScreen(page, ['#puzzle-title', '#ask', '#board', ...buttons, ...said], what);
}

const parseStep = (text) => {
  const [step, ...captures] = text.split('x');
  const [from, to] = step.split('-');
  return { from, to, captures };
};

// The puzzle the page shows, by the number in its progress line ("Puzzle 1 of 76", in any language).
async function puzzleShown(page) {
  await page.waitForSelector('#board [data-cell].select');
  const difficulty = Number(await page.locator('#difficulty').inputValue());
  const n = Number(/\d+/.exec(await page.locator('#progress').innerText())[0]);
  return puzzles.filter((p) => p.difficulty === difficulty)[n - 1];
}

// Another legal move than the puzzle's solution, from another stone or to another cell.
async function wrongAnswer(p) {
  const answer = await (await fetch(`${server.url}/api/position`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ position: p.position, rules: p.rules }),
  })).json();
  const solution = parseStep(p.line[0]);
  return answer.pos.legal.find((m) => parseStep(m).from !== solution.from || parseStep(m).to !== solution.to);
}

for (const lang of LANGUAGES) {
  for (const viewport of SIZES) {
    const at = `${lang} at ${viewport.width} × ${viewport.height}`;

    test(`/learn: each step's words, its board and its buttons are on the first screen (${at})`, { timeout: 60000 }, async () => {
      await keepScreenshotsOnFailure(`layout-learn-${lang}-${viewport.width}`, pages, async () => {
        const page = await person(lang, viewport);
        await page.goto(server.url + '/learn');
        await page.waitForSelector('#board [data-cell].put');
        for (let n = 1; n <= LESSONS; n += 1) {
          if (n > 1) await startLesson(page, n);
          await lessonOnFirstScreen(page, `/learn, step ${n} (${at})`);
        }
        // A wrong stone taken: why, and "Try again"; then the right one, and "Next step".
        await startLesson(page, TAKING);
        await stepOnBoard(page, 'c2', 'c1', 'f3');
        await page.locator('#retry').waitFor();
        await lessonOnFirstScreen(page, `/learn, a wrong move explained (${at})`, ['#feedback']);
        await page.click('#retry');
        await page.waitForSelector('#board [data-cell="c2"].select');
        await stepOnBoard(page, 'c2', 'c1', 'c4');
        await page.locator('#next').waitFor();
        await lessonOnFirstScreen(page, `/learn, a step done (${at})`, ['#feedback']);
      });
    });

    test(`/analysis: the board, the buttons through the game and the engine's verdict are on the first screen (${at})`, { timeout: 60000 }, async () => {
      await keepScreenshotsOnFailure(`layout-analysis-${lang}-${viewport.width}`, pages, async () => {
        const page = await person(lang, viewport);
        // The empty board, as the page opens with nothing to read.
        await page.goto(server.url + '/analysis');
        await page.waitForSelector('#board [data-cell].put');
        await engineAnswered(page);
        await onFirstScreen(page, ['#shown', '#board', ...STEPPING, '#evaluation', '#best'], `/analysis, the empty board (${at})`);
        // A game, as "Analyse this game" opens it: at its last position.
        const page2 = await person(lang, viewport);
        await page2.goto(`${server.url}/analysis#rules=arcade&moves=${GAME.join(',')}`);
        await page2.waitForFunction((n) => document.querySelectorAll('#moves button.move').length === n, GAME.length);
        await page2.waitForSelector('#board [data-cell].put');
        await engineAnswered(page2);
        await onFirstScreen(page2, ['#shown', '#board', ...STEPPING, '#evaluation', '#best'], `/analysis, a game (${at})`);
        // A turn back, and another turn than the game's there: a variation.
        await page2.click('#prev');
        await page2.waitForSelector('#board [data-cell="a5"].put');
        await page2.click('#board [data-cell="a5"].put');
        await page2.locator('#back-to-game').waitFor();
        await engineAnswered(page2);
        await onFirstScreen(page2, ['#shown', '#board', ...STEPPING, '#variation-note', '#back-to-game', '#evaluation', '#best'], `/analysis, a variation (${at})`);
      });
    });

    test(`/puzzles: the puzzle's board, what to do and its buttons are on the first screen (${at})`, { timeout: 60000 }, async () => {
      await keepScreenshotsOnFailure(`layout-puzzles-${lang}-${viewport.width}`, pages, async () => {
        const page = await person(lang, viewport);
        await page.goto(server.url + '/puzzles');
        const first = await puzzleShown(page);
        await puzzleOnFirstScreen(page, `/puzzles, an easy puzzle (${at})`);
        // A wrong answer: why, "Try again" and "Show the solution"; then the solution.
        const wrong = parseStep(await wrongAnswer(first));
        await stepOnBoard(page, wrong.from, wrong.to, wrong.captures[0]);
        await page.locator('#solution').waitFor();
        await page.waitForFunction(() => document.querySelector('#feedback').textContent !== '');
        await puzzleOnFirstScreen(page, `/puzzles, a wrong answer explained (${at})`);
        await page.click('#solution');
        await page.locator('#solution').waitFor({ state: 'hidden' });
        await puzzleOnFirstScreen(page, `/puzzles, the solution shown (${at})`);
        // The other difficulties' puzzles (two and three moves: other words).
        for (const level of ['2', '3']) {
          await page.selectOption('#difficulty', level);
          await page.waitForFunction((l) => document.querySelector('#difficulty').value === l && document.querySelector('#board [data-cell].select'), level);
          await puzzleShown(page);
          await puzzleOnFirstScreen(page, `/puzzles, difficulty ${level} (${at})`);
        }
      });
    });
  }
}

// Without scripts: the home page's forms cannot start a game, and the page says so, in its
// reader's language, on the first screen of a phone; and nothing on it is cut off (no wider than
// the screen, no text cut short in its box, each closed list's chosen words whole).
const ASSETS = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'crates', 'dara-server', 'assets');
async function catalogue(code, file = `lang-${code}.js`) {
  const text = readFileSync(join(ASSETS, file), 'utf8');
  return (await import(`data:text/javascript,${encodeURIComponent(text)}`)).default;
}

// What on `page` is cut off: the page wider than the screen, a box past its edge or cutting its
// content, a closed list's chosen words cut short.
const cutOff = (page) => page.evaluate(() => {
  const width = document.documentElement.clientWidth;
  const name = (el) => `<${el.localName}${el.id ? `#${el.id}` : ''}${el.className && typeof el.className === 'string' ? `.${el.className.split(' ').join('.')}` : ''}>`;
  const found = [];
  if (document.documentElement.scrollWidth > width) found.push(`the page is ${document.documentElement.scrollWidth} px wide`);
  for (const el of document.body.querySelectorAll('*')) {
    const style = getComputedStyle(el);
    const box = el.getBoundingClientRect();
    // Not shown, or shown to screen readers only (a box of a pixel).
    if (style.display === 'none' || style.visibility === 'hidden' || box.width <= 1 || box.height <= 1) continue;
    if (box.left < -0.5 || box.right > width + 0.5) found.push(`${name(el)} runs past the screen (${Math.round(box.left)} to ${Math.round(box.right)})`);
    if (style.overflowX !== 'visible' && el.scrollWidth > el.clientWidth + 1) found.push(`${name(el)} cuts its content (${el.scrollWidth} in ${el.clientWidth})`);
  }
  // A closed list shows its chosen words in its box, less its padding and the arrow's room.
  const ARROW = 24;
  const canvas = document.createElement('canvas').getContext('2d');
  for (const select of document.querySelectorAll('select')) {
    const style = getComputedStyle(select);
    canvas.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const text = select.selectedOptions[0].text;
    const needs = canvas.measureText(text).width;
    const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - ARROW;
    if (needs > room) found.push(`${name(select)} cuts "${text}" (${Math.round(needs)} px in ${Math.round(room)})`);
  }
  return found;
});

for (const lang of LANGUAGES) {
  test(`without scripts the home page says that playing needs JavaScript, and nothing is cut off (${lang} at 390 × 844)`, { timeout: 30000 }, async () => {
    await keepScreenshotsOnFailure(`layout-noscript-${lang}`, pages, async () => {
      const page = await newPage({ width: 390, height: 844 }, { javaScriptEnabled: false });
      await page.context().addCookies([{ name: 'lang', value: lang, url: server.url }]);
      await page.goto(server.url + '/');
      assert.equal(await page.evaluate(() => document.documentElement.lang), lang);
      const words = (await catalogue(lang))['home.needs-javascript'];
      assert.ok(words, 'the catalogue words the note');
      assert.equal((await page.locator('#needs-javascript').innerText()).trim(), words);
      await onFirstScreen(page, ['#needs-javascript'], `home without scripts (${lang})`);
      const cut = await cutOff(page);
      assert.deepEqual(cut, [], `home without scripts (${lang}): nothing is cut off`);
    });
  });
}

// With scripts the note is not there.
test('with scripts the home page says nothing of JavaScript', { timeout: 30000 }, async () => {
  const page = await person('en', { width: 390, height: 844 });
  await page.goto(server.url + '/');
  await page.waitForSelector('#lang');
  assert.equal(await page.locator('#needs-javascript').count(), 0);
});

// The arena's page (/arena/<id>) and the list of arenas (/arenas), in each language and size:
// a visitor has the join form and the standings on the first screen, a player who joined (and
// paused, so that no pairing takes the page away) their own row and the button to come back;
// nothing is cut off; and a French or Hausa page shows no English word.
let arena = null;
// One private arena for these tests (an address makes only a few).
const arenaNow = () => {
  arena ??= fetch(`${server.url}/api/arenas`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ rules: 'arcade', clock: { initial: 180, increment: 2 }, minutes: 60, starts: Date.now() }),
  }).then(async (answer) => {
    assert.equal(answer.status, 201);
    return (await answer.json()).arena;
  });
  return arena;
};

// The English words of the arena pages and of the shared catalogue that the language `code`
// words otherwise (a word both use, "Dara" or "minutes", is no sign of English).
async function englishOnly(code) {
  const words = (catalogue) => new Set(Object.values(catalogue).join(' ').match(/\p{L}{4,}/gu));
  const english = words({ ...(await catalogue('en')), ...(await catalogue('en', 'arena-en.js')) });
  const own = words({ ...(await catalogue(code)), ...(await catalogue(code, `arena-${code}.js`)) });
  return [...english].filter((word) => !own.has(word));
}

// What is cut off on a page with its scripts: the language switch they add is left out, as the
// browser sizes it to its longest language (no width is set on it), which the measure of the
// closed lists, made for the home page's fixed ones, would not know.
const cutOffWithScripts = async (page) => (await cutOff(page)).filter((found) => !found.startsWith('<select#lang>'));

async function noEnglish(page, lang, what) {
  if (lang === 'en') return;
  const shown = new Set((await page.evaluate(() => document.body.innerText)).match(/\p{L}+/gu));
  const found = (await englishOnly(lang)).filter((word) => shown.has(word));
  assert.deepEqual(found, [], `${what}: English words on the page`);
}

for (const lang of LANGUAGES) {
  for (const viewport of SIZES) {
    const at = `${lang} at ${viewport.width} × ${viewport.height}`;

    test(`the arena pages: the join form, the standings and a player's own row are on the first screen, nothing is cut off, no English (${at})`, { timeout: 60000 }, async () => {
      await keepScreenshotsOnFailure(`layout-arena-${lang}-${viewport.width}`, pages, async () => {
        const id = await arenaNow();
        const visitor = await person(lang, viewport);
        await visitor.goto(`${server.url}/arena/${id}`);
        await visitor.waitForFunction(() => !document.querySelector('#join').disabled && document.querySelector('#arena-about').textContent.trim());
        await onFirstScreen(visitor, ['#arena-time', '#arena-name', '#join', '#standings-title'], `/arena, a visitor (${at})`);
        assert.deepEqual(await cutOffWithScripts(visitor), [], `/arena, a visitor (${at}): nothing is cut off`);
        await noEnglish(visitor, lang, `/arena, a visitor (${at})`);

        // A player who joined, then paused.
        const token = `${lang}${viewport.width}`.padEnd(32, '0');
        const name = `Zoé ${lang} ${viewport.width}`;
        for (const [request, body] of [['join', { player: token, name }], ['pause', { player: token }]]) {
          const answer = await fetch(`${server.url}/api/arenas/${id}/${request}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
          assert.equal(answer.status, 204, `${request}: ${await answer.text()}`);
        }
        const player = await person(lang, viewport);
        await player.addInitScript((t) => localStorage.setItem('dara.arena.player', t), token);
        await player.goto(`${server.url}/arena/${id}`);
        await player.locator('#standings tr.mine').filter({ hasText: name }).waitFor();
        await player.locator('#resume').waitFor();
        await onFirstScreen(player, ['#arena-time', '#arena-joined', '#resume', '#standings-title', '#standings tr.mine'], `/arena, a player paused (${at})`);
        assert.deepEqual(await cutOffWithScripts(player), [], `/arena, a player (${at}): nothing is cut off`);
        await noEnglish(player, lang, `/arena, a player (${at})`);

        const list = await person(lang, viewport);
        await list.goto(`${server.url}/arenas`);
        await list.waitForFunction(() => document.querySelector('#arena-list li') || !document.querySelector('#arena-empty').hidden);
        assert.deepEqual(await cutOffWithScripts(list), [], `/arenas (${at}): nothing is cut off`);
        await noEnglish(list, lang, `/arenas (${at})`);
      });
    });
  }
}
