// An arena in real Chromium: a private arena made through the API, four people join from its
// page (one French with accents, one Hausa with ƙ and ɗ), each page goes to its game as soon as
// it is paired; two play a turn each and one resigns; the arena's page shows the winner's 2,
// keeps a player's row over a reload, refuses a name taken, and words its standings in French
// and Hausa. Screenshots at 390 × 844 and 1280 × 800 go to DARA_SHOTS (a folder) if given.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { useArcade, keepScreenshotsOnFailure, clickTurn } from '../harness.js';

const { server, newPage, pages } = useArcade();
const shots = process.env.DARA_SHOTS;
const shoot = async (page, name) => {
  if (!shots) return;
  mkdirSync(shots, { recursive: true });
  for (const [width, height] of [[390, 844], [1280, 800]]) {
    await page.setViewportSize({ width, height });
    await page.screenshot({ path: join(shots, `${name}-${width}.png`), fullPage: true });
  }
};

async function makeArena() {
  const answer = await fetch(`${server.url}/api/arenas`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ rules: 'arcade', clock: { initial: 180, increment: 2 }, minutes: 5, starts: Date.now() }),
  });
  assert.equal(answer.status, 201);
  return (await answer.json()).arena;
}

async function joinAs(page, arena, name) {
  await page.goto(`${server.url}/arena/${arena}`);
  // The page's script is running once it has the standings (and the form its handler).
  await page.waitForFunction(() => document.querySelector('#arena-time').textContent.trim() !== '');
  await page.fill('#arena-name', name);
  await page.click('#join');
}

// Which of two seated pages moves first: the one whose board offers a cell to place on.
async function firstToMove(a, b) {
  // The other never resolves (nor fails the test when its wait times out).
  const offered = (page) => page.waitForSelector('[data-cell].put', { timeout: 20000 }).then(() => page, () => new Promise(() => {}));
  return Promise.race([offered(a), offered(b)]);
}

test('an arena: join, paired, play, scores, reload, a name taken, French and Hausa', { timeout: 120000 }, async () => {
  await keepScreenshotsOnFailure('arena', pages, async () => {
    const arena = await makeArena();

    // The list of arenas (the server's own, by its schedule) opens from the home page.
    const looker = await newPage({ width: 390, height: 844 });
    await looker.goto(server.url + '/');
    await looker.click('header a[href="/arenas"]');
    await looker.waitForURL(/\/arenas$/);
    await looker.waitForFunction(() => document.querySelector('#arena-list li') || !document.querySelector('#arena-empty').hidden);
    await shoot(looker, 'arenas');

    const ama = await newPage({ width: 1280, height: 800 });
    const amelie = await newPage({ width: 390, height: 844 }, { locale: 'fr-FR' });
    const dan = await newPage({ width: 390, height: 844 }, { locale: 'ha' });
    const kofi = await newPage({ width: 390, height: 844 });
    const names = new Map([[ama, 'Ama'], [amelie, 'Amélie Zoé'], [dan, 'Ɗanƙwali'], [kofi, 'Kofi']]);

    await ama.goto(`${server.url}/arena/${arena}`);
    await ama.locator('#arena-time').filter({ hasText: /Running: ends in \d:\d\d/ }).waitFor();
    assert.match(await ama.locator('#arena-about').innerText(), /arcade, clock 3\+2, 5 minutes/);
    await shoot(ama, 'arena-before-join');
    await ama.setViewportSize({ width: 1280, height: 800 });
    // The token is made once: 32 hex digits.
    assert.match(await ama.evaluate(() => localStorage.getItem('dara.arena.player')), /^[0-9a-f]{32}$/);

    // A name already in the arena (without case) is refused, worded by the form.
    await joinAs(ama, arena, 'Ama');
    const taken = await newPage({ width: 390, height: 844 });
    await joinAs(taken, arena, 'AMA');
    await taken.locator('#arena-error').filter({ hasText: 'Someone in this arena already has that name: choose another.' }).waitFor();
    assert.equal(await taken.locator('#join-form').isVisible(), true);
    await shoot(taken, 'arena-name-taken');
    const frTaken = await newPage({ width: 390, height: 844 }, { locale: 'fr-FR' });
    await joinAs(frTaken, arena, 'ama');
    await frTaken.locator('#arena-error').filter({ hasText: 'Quelqu\'un dans cette arène porte déjà ce nom' }).waitFor();

    for (const page of [amelie, dan, kofi]) await joinAs(page, arena, names.get(page));
    // Everyone is paired, and each page has gone to its game with its seat.
    for (const page of names.keys()) await page.waitForURL(/\/g\/[0-9a-f]{16}#seat=[0-9a-f]{32}$/, { timeout: 20000 });
    assert.equal(await amelie.evaluate(() => localStorage.getItem('dara.arena.name')), 'Amélie Zoé');
    const at = (page) => new URL(page.url()).pathname;
    const others = [...names.keys()].filter((p) => p !== ama);
    const opponent = others.find((p) => at(p) === at(ama));
    assert.ok(opponent, 'Ama has an opponent among the others');

    // A turn each, then the first to move resigns: the other wins, 2 points.
    const first = await firstToMove(ama, opponent);
    const second = first === ama ? opponent : ama;
    await clickTurn(first);
    await clickTurn(second);
    await first.waitForSelector('[data-cell].put, [data-cell].select');
    await first.click('#resign');
    await first.click('#resign-confirm');
    await second.locator('#end').waitFor();
    // The game leads back to the arena.
    const back = second.locator('#arena-back');
    await back.waitFor();
    assert.equal(await back.getAttribute('href'), `/arena/${arena}#from=${at(second).split("/")[2]}`);
    await back.click();
    await second.waitForURL(new RegExp(`/arena/${arena}#from=`));
    // Paused at once, so that no next pairing takes the page away.
    await second.click('#pause');
    await second.locator('#resume').waitFor();
    const winner = names.get(second);
    const mine = second.locator('#standings tr.mine');
    await mine.filter({ hasText: winner }).waitFor();
    await second.waitForFunction(() => /^2/.test(document.querySelector('#standings tr.mine .arena-score').textContent));
    assert.match(await mine.innerText(), /^1\s/);

    // Anyone's view: the winner's 2 and the loser's 0.
    await taken.waitForFunction((name) => [...document.querySelectorAll('#standings tbody tr')].some((tr) => tr.textContent.includes(name) && /^2/.test(tr.querySelector('.arena-score').textContent)), winner);

    // A reload keeps the player's place.
    await second.reload();
    await mine.filter({ hasText: winner }).waitFor();
    await second.locator('#resume').waitFor();
    assert.equal(await second.locator('#join-form').isVisible(), false);
    await shoot(second, `arena-player-${second === ama ? 'en' : 'other'}`);

    // The pages done with leave (the server holds 64 connections per address, all of this
    // test's from 127.0.0.1).
    for (const page of [looker, frTaken, taken, ...others.filter((p) => p !== second)]) await page.context().close();

    // French and Hausa pages word the standings' headings in their language.
    const english = ['Rank', 'Player', 'Score', 'Games', 'Standings', 'Games being played', 'Equal scores'];
    for (const [locale, name] of [['fr-FR', 'fr'], ['ha', 'ha']]) {
      const page = await newPage({ width: 390, height: 844 }, { locale });
      await page.goto(`${server.url}/arena/${arena}`);
      await page.waitForFunction(() => document.querySelector('#standings tbody tr'));
      assert.equal(await page.getAttribute('html', 'lang'), name);
      const headings = await page.evaluate(() => [...document.querySelectorAll('#standings th, main h2, #arena-tie-break, #arena-time')].map((e) => e.textContent).join(' | '));
      for (const word of english) assert.ok(!headings.includes(word), `${name}: "${word}" in ${headings}`);
      await page.waitForFunction((n) => document.querySelector('#standings').textContent.includes(n), winner);
      await shoot(page, `arena-${name}`);
    }
  });
});
