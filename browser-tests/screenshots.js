// Screenshots of every page at phone-portrait and desktop sizes, for looking at by eye:
// `node screenshots.js [out-dir]`.
import { mkdirSync } from 'node:fs';
import { startServer, startBrowser, createGame } from './harness.js';

const out = process.argv[2] || 'screenshots';
mkdirSync(out, { recursive: true });
const sizes = { phone: { width: 390, height: 844 }, desktop: { width: 1280, height: 800 } };
// More games than one address may hold by default: every shot of a game is a game.
const server = await startServer(['--instant-computer', '--games-per-address', '500']);
const browser = await startBrowser();

// The newer pages (analysis, a game's review) and, in French and Hausa, every page a player
// meets, named `<size>-<lang>-<page>.png`; the language chosen as the switch would.
async function languagePages(lang, label, viewport) {
  const context = await browser.newContext({ viewport, deviceScaleFactor: 1 });
  await context.addInitScript((code) => localStorage.setItem('dara.lang', code), lang);
  const page = await context.newPage();
  page.on('pageerror', (e) => console.log(`page error (${lang}): ${e.message}`));
  const shot = (name) => page.screenshot({ path: `${out}/${label}-${lang}-${name}.png`, fullPage: true });
  const paths = lang === 'en' ? [] : ['/', '/learn', '/puzzles', '/rules', '/privacy', '/g/0000000000000000'];
  for (const path of paths) {
    await page.goto(server.url + path);
    await page.waitForTimeout(400);
    await shot(path === '/' ? 'home' : path.split('/')[1]);
  }
  // The analysis board with a short record and the engine's answer.
  await page.goto(`${server.url}/analysis#rules=arcade&moves=c3,d4,a1,f5`);
  await page.waitForFunction(() => document.querySelector('#evaluation').textContent !== '', null, { timeout: 20000 });
  await shot('analysis');
  // A game against the computer: a few placements, a closed cell tried, then the review.
  await page.goto(server.url + '/');
  await page.selectOption('#level', '1');
  await page.click('#play-computer button[type=submit]');
  for (const cell of ['a1', 'b1', 'a3']) {
    await page.waitForSelector('[data-cell].put');
    const free = page.locator(`[data-cell="${cell}"].put`);
    await ((await free.count()) ? free : page.locator('[data-cell].put').first()).click();
    await page.waitForTimeout(400);
  }
  const closed = page.locator('[data-cell]:has(.forbidden)');
  if (await closed.count()) await closed.first().click();
  await shot('game');
  // And its first screen alone, as the player sees it: the board whole, the tools in reach.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `${out}/${label}-${lang}-game-screen.png` });
  await page.click('#resign');
  await page.click('#resign-confirm');
  await page.waitForSelector('#end:not([hidden])');
  await page.click('#review-start');
  await page.waitForSelector('#review-body:not([hidden])', { timeout: 30000 });
  await page.click('#review details summary');
  await page.click('#review-table tr:nth-child(3) button');
  await shot('review');
  await context.close();
  await friendGame(lang, label, viewport);
}

// A game between two people as the host sees it, first screen only (what fits without
// scrolling is the point): the row of three just made and the stone it took marked, a step
// chosen ahead by the other side, the draw offer asked about.
async function friendGame(lang, label, viewport) {
  const created = await createGame(server, { opponent: 'friend', rules: 'arcade,stones=4', first: 'me', clock: { initial: 180, increment: 2 } });
  const people = [];
  for (const who of ['host', 'friend']) {
    const context = await browser.newContext({ viewport, deviceScaleFactor: 1 });
    await context.addInitScript((code) => localStorage.setItem('dara.lang', code), lang);
    const page = await context.newPage();
    page.on('pageerror', (e) => console.log(`page error (${lang}, ${who}): ${e.message}`));
    await page.goto(server.url + (who === 'host' ? created.url : `/g/${created.game}`));
    people.push(page);
  }
  const [host, friend] = people;
  await host.waitForSelector('#invite', { state: 'hidden' });
  // Both seated: pale's first-move countdown, in its line under the player.
  await host.waitForFunction(() => document.querySelector('#player-white .first-move').textContent !== '');
  await host.screenshot({ path: `${out}/${label}-${lang}-friend-start.png` });
  const moves = ['a1', 'f5', 'b1', 'f3', 'd1', 'd5', 'a3', 'e4', 'd1-c1xf3'];
  for (const [i, m] of moves.entries()) {
    const page = people[i % 2];
    await page.waitForFunction(() => !document.querySelector('#typed-input').disabled);
    await page.fill('#typed-input', m);
    await page.press('#typed-input', 'Enter');
    await page.waitForFunction((n) => document.querySelectorAll('#moves button.move').length > n, i);
  }
  await host.waitForFunction(() => document.querySelectorAll('#moves button.move').length === 9);
  await friend.waitForFunction(() => document.querySelectorAll('#moves button.move').length === 9);
  await host.click('[data-cell="b1"]');
  await host.click('[data-cell="b2"]');
  await host.waitForSelector('[data-cell="b2"].premove');
  await host.click('#draw');
  await host.screenshot({ path: `${out}/${label}-${lang}-friend-game.png` });
  await friend.screenshot({ path: `${out}/${label}-${lang}-friend-game-theirs.png` });
  // The friend's link goes: the absence note in the same line, the board where it was.
  await friend.context().close();
  await host.waitForFunction(() => document.querySelector('#player-black .away').textContent !== '');
  await host.evaluate(() => window.scrollTo(0, 0));
  await host.screenshot({ path: `${out}/${label}-${lang}-friend-away.png` });
  await host.context().close();
}
try {
  for (const [label, viewport] of Object.entries(sizes)) {
    const context = await browser.newContext({ viewport, deviceScaleFactor: 1 });
    const page = await context.newPage();
    page.on('console', (m) => { if (m.type() === 'error') console.log(`console: ${m.text()}`); });
    page.on('pageerror', (e) => console.log(`page error: ${e.message}`));
    for (const path of ['/', '/learn', '/puzzles', '/rules', '/privacy', '/g/0000000000000000']) {
      await page.goto(server.url + path);
      await page.waitForTimeout(300);
      const name = path === '/' ? 'home' : path.split('/')[1];
      await page.screenshot({ path: `${out}/${label}-${name}.png`, fullPage: true });
    }
    // The guided first game: a closed cell explained, then a wrong move explained.
    await page.goto(server.url + '/learn');
    await page.click('[data-cell="c3"]');
    await page.click('#next');
    await page.waitForSelector('[data-cell="c1"] .forbidden');
    await page.click('[data-cell="c1"]');
    await page.screenshot({ path: `${out}/${label}-learn-closed.png`, fullPage: true });
    await page.click('[data-cell="e3"]');
    await page.waitForSelector('#retry:not([hidden])');
    await page.screenshot({ path: `${out}/${label}-learn-wrong.png`, fullPage: true });
    await page.click('#retry');
    await page.click('[data-cell="b2"]');
    await page.locator('#steps button').nth(7).click();
    await page.waitForSelector('[data-cell="c2"].select');
    await page.click('[data-cell="c2"]');
    await page.click('[data-cell="c1"]');
    await page.waitForSelector('[data-cell].capture');
    await page.screenshot({ path: `${out}/${label}-learn-capture.png`, fullPage: true });
    await page.click('[data-cell="d3"]');
    await page.click('#next');
    await page.waitForSelector('#finale:not([hidden])');
    await page.screenshot({ path: `${out}/${label}-learn-finale.png`, fullPage: true });
    // A puzzle answered wrongly: the explanation, "Try again" and "Show the solution".
    await page.goto(server.url + '/puzzles');
    await page.waitForSelector('[data-cell].select');
    await page.locator('[data-cell].select').last().click();
    await page.locator('[data-cell].target').first().click();
    const choose = page.locator('[data-cell].capture');
    if (await choose.count()) await choose.first().click();
    await page.waitForFunction(() => /Right|Not this one/.test(document.querySelector('#feedback').textContent));
    await page.screenshot({ path: `${out}/${label}-puzzle-answered.png`, fullPage: true });
    // A game against the computer, a few placements in.
    await page.goto(server.url + '/');
    await page.selectOption('#level', '1');
    await page.click('#play-computer button[type=submit]');
    await page.waitForSelector('[data-cell].put');
    // Whichever cells are free when it is our turn: the computer may have taken any of them.
    for (let i = 0; i < 3; i++) {
      await page.waitForSelector('[data-cell].put');
      await page.locator('[data-cell].put').first().click();
      await page.waitForTimeout(2200);
    }
    await page.screenshot({ path: `${out}/${label}-game.png`, fullPage: true });
    // A friend game waiting for the friend (the invite box).
    await page.goto(server.url + '/');
    await page.click('#play-friend button[type=submit]');
    await page.waitForSelector('#invite:not([hidden])');
    await page.screenshot({ path: `${out}/${label}-invite.png`, fullPage: true });
    // A short game between two people: a closed placement cell, the choice of a capture, the end.
    const created = await page.evaluate(async () => {
      const r = await fetch('/api/games', { method: 'POST', headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ opponent: 'friend', rules: 'arcade,stones=3', first: 'me', clock: { initial: 300, increment: 3 } }) });
      return r.json();
    });
    await page.goto(server.url + created.url);
    const other = await (await browser.newContext({ viewport })).newPage();
    await other.goto(`${server.url}/g/${created.game}`);
    await page.waitForSelector('#invite', { state: 'hidden' });
    const play = async (p, m) => {
      await p.waitForFunction(() => document.querySelector('#turn').textContent.startsWith('Your turn'));
      await p.fill('#typed-input', m);
      await p.press('#typed-input', 'Enter');
    };
    for (const [i, m] of ['a1', 'f5', 'b1', 'f3'].entries()) await play(i % 2 ? other : page, m);
    await page.waitForFunction(() => document.querySelector('[data-cell="c1"] .forbidden'));
    await page.screenshot({ path: `${out}/${label}-closed-cell.png`, fullPage: true });
    await play(page, 'd1');
    await play(other, 'd5');
    await page.waitForFunction(() => document.querySelector('#turn').textContent.startsWith('Your turn'));
    await page.click('[data-cell="d1"]');
    await page.click('[data-cell="c1"]');
    await page.waitForSelector('[data-cell].capture');
    await page.screenshot({ path: `${out}/${label}-capture-choice.png`, fullPage: true });
    await page.click('[data-cell="f5"]');
    await other.waitForSelector('#end:not([hidden])');
    await other.screenshot({ path: `${out}/${label}-end.png`, fullPage: true });
    await other.context().close();
    // A longer game between two people: a draw offered, the resign dialog, an earlier position
    // looked at while a new move comes, and the move list past move 10.
    const long = await page.evaluate(async () => {
      const r = await fetch('/api/games', { method: 'POST', headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ opponent: 'friend', rules: 'arcade', first: 'me', clock: { initial: 300, increment: 3 } }) });
      return r.json();
    });
    await page.goto(server.url + long.url);
    const friend = await (await browser.newContext({ viewport })).newPage();
    await friend.goto(`${server.url}/g/${long.game}`);
    await page.waitForSelector('#invite', { state: 'hidden' });
    const placements = ['a1', 'f5', 'c1', 'd5', 'e1', 'b5', 'a3', 'f3', 'c3', 'd3', 'e3', 'b3', 'b2', 'e4', 'd2', 'c4', 'f2', 'a4', 'b4', 'f1', 'e5', 'd1', 'c5'];
    for (const [i, m] of placements.entries()) await play(i % 2 ? friend : page, m);
    await friend.waitForFunction(() => document.querySelectorAll('#moves button.move').length === 23);
    await page.click('#draw');
    await page.screenshot({ path: `${out}/${label}-draw-confirm.png` });
    await page.click('#draw-yes');
    await page.waitForSelector('#withdraw:not([hidden])');
    await friend.waitForFunction(() => document.querySelector('#draw').textContent === 'Accept draw');
    await page.screenshot({ path: `${out}/${label}-draw-offered.png`, fullPage: true });
    await friend.screenshot({ path: `${out}/${label}-draw-to-answer.png`, fullPage: true });
    await page.click('#withdraw');
    await page.click('#resign');
    await page.waitForSelector('#resign-dialog[open]');
    await page.screenshot({ path: `${out}/${label}-resign-dialog.png` });
    await page.keyboard.press('Escape');
    await page.click('#moves button[data-ply="9"]');
    await page.waitForSelector('#browsing:not([hidden])');
    await play(friend, 'a5');
    await page.waitForFunction(() => document.querySelector('#live').textContent.includes('new'));
    await page.screenshot({ path: `${out}/${label}-browsing.png`, fullPage: true });
    await page.click('#live');
    await page.click('#flip');
    await page.screenshot({ path: `${out}/${label}-flipped.png`, fullPage: true });
    await friend.context().close();
    // The lobby: a table opened in one browser, listed live on another's home page.
    const host = await (await browser.newContext({ viewport })).newPage();
    await page.goto(server.url + '/');
    await host.goto(server.url + '/');
    await host.selectOption('#preset', 'jaques');
    await host.click('#open-table');
    await host.waitForURL(/#seat=/);
    await page.waitForSelector('#tables li');
    await page.screenshot({ path: `${out}/${label}-lobby.png`, fullPage: true });
    // The same table in another tab of the browser that opened it: its own, not a seat.
    const ownTab = await host.context().newPage();
    await ownTab.goto(server.url + '/');
    await ownTab.waitForSelector('#tables li.own');
    await ownTab.screenshot({ path: `${out}/${label}-lobby-own-table.png`, fullPage: true });
    await ownTab.close();
    // A watcher, and the host seeing its opponent's connection drop.
    await page.click('#tables li a');
    await page.waitForURL(/\/g\//);
    await host.waitForSelector('#invite', { state: 'hidden' });
    const watcher = await (await browser.newContext({ viewport })).newPage();
    await watcher.goto(host.url().split('#')[0]);
    await watcher.waitForSelector('#watch-note:not([hidden])');
    await watcher.screenshot({ path: `${out}/${label}-watcher.png`, fullPage: true });
    await page.goto('about:blank');
    await host.waitForFunction(() => /reconnecting/.test(document.body.innerText));
    await host.waitForTimeout(1500);
    await host.screenshot({ path: `${out}/${label}-opponent-away.png`, fullPage: true });
    await watcher.context().close();
    await host.context().close();
    await context.close();
    for (const lang of ['en', 'fr', 'ha']) await languagePages(lang, label, viewport);
  }
} finally {
  await browser.close();
  server.stop();
}
