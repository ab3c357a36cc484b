// An arena played to its end in real Chromium: four people (one French, one Hausa) join a
// private arena of a few minutes from its page, are paired, and play their games to a real end
// on the board by typed moves (the engine under Node: level 8 for the side the test wants to
// win, level 1 for the other). Ama wins three games in a row and the standings show her streak
// (her third win scores 4, the fire mark beside her score); each next game comes by itself
// (the game page counts down and goes to it, nothing clicked; Kofi once stays, and the next
// game is a link); Hélène reloads mid-game and
// keeps her seat; Ƙwaro pauses, is not paired while paused and his arena page says so, then
// comes back and is paired again; a game being played is watched from the arena's link and
// listed on /watch; at the end every browser shows the podium, its names and
// scores those the test counted from the games' results. Screenshots (the arena page at
// 390 × 844 and 1280 × 800, French and Hausa, mid-arena and with the podium, and a countdown)
// go to DARA_SHOTS (a folder) if given.
//
// Each thing a person does is a function of its own (joinArena, playGame, pauseMidGame, comeBack,
// stopPlaying), so that another (going berserk) is one more.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { useArcade, keepScreenshotsOnFailure, settled } from '../harness.js';
import { instantiate, requestLine, readReply } from '../../crates/dara-server/assets/engine-wasm.js';

const { server, newPage, pages } = useArcade();
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const engine = await instantiate(readFileSync(join(root, 'crates/dara-server/assets/engine.wasm')));
const shots = process.env.DARA_SHOTS;

// Long enough for the games the test wants (one to two minutes, more on a loaded machine),
// short enough that the arena ends within the test.
const MINUTES = 3;
// A draw in fewer plies scores nothing (dara-arena's sheet.rs, QUICK_DRAW_PLIES).
const QUICK_DRAW_PLIES = 20;
const GAME_URL = /\/g\/([0-9a-f]{16})#seat=[0-9a-f]{32}$/;

async function shoot(page, name, sizes = [[390, 844], [1280, 800]]) {
  if (!shots) return;
  mkdirSync(shots, { recursive: true });
  const kept = page.viewportSize();
  for (const [width, height] of sizes) {
    await page.setViewportSize({ width, height });
    await page.screenshot({ path: join(shots, `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize(kept);
}

async function makeArena() {
  const answer = await fetch(`${server.url}/api/arenas`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ rules: 'arcade', clock: { initial: 180, increment: 2 }, minutes: MINUTES, starts: Date.now() }),
  });
  assert.equal(answer.status, 201);
  return (await answer.json()).arena;
}

// The points of each finish in order, as the arena scores them (lichess's arena rules): a win
// 2, a draw 1 (nothing if quick), a loss 0; on fire (the two games before were wins) a win or
// a draw counts double.
function scoreOf(finishes) {
  let total = 0;
  finishes.forEach(({ finish, plies }, n) => {
    const fire = n >= 2 && finishes[n - 1].finish === 'win' && finishes[n - 2].finish === 'win';
    const base = finish === 'win' ? 2 : finish === 'draw' && plies >= QUICK_DRAW_PLIES ? 1 : 0;
    total += fire ? base * 2 : base;
  });
  return total;
}

// The people, strongest first: of two who meet, the test makes the first in this list win.
function people() {
  return [
    { name: 'Ama', locale: 'en-GB', viewport: { width: 1280, height: 800 } },
    { name: 'Hélène', locale: 'fr-FR', viewport: { width: 390, height: 844 } },
    { name: 'Ƙwaro', locale: 'ha', viewport: { width: 390, height: 844 } },
    { name: 'Kofi', locale: 'en-GB', viewport: { width: 390, height: 844 } },
  ].map((person, strength) => ({ ...person, strength, games: [], finishes: [], countdowns: [] }));
}

const at = (person) => GAME_URL.exec(person.page.url())?.[1];

// Joins the arena from its page, once the page's script runs.
async function joinArena(person, arena) {
  const { page } = person;
  await page.goto(`${server.url}/arena/${arena}`);
  await page.waitForFunction(() => !document.querySelector('#join').disabled);
  await page.fill('#arena-name', person.name);
  await page.click('#join');
}

// Whether the test has told everyone to stop playing.
const run = { stop: false };
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// Waits until the page is at a game other than the last one, having gone there by itself; null
// if told to stop first (unless `stopping`: the game it was paired to is played).
async function nextGame(person, { timeout = 150000, stopping = false } = {}) {
  const last = person.games.at(-1);
  for (const until = Date.now() + timeout; Date.now() < until; await pause(200)) {
    const game = at(person);
    if (game && game !== last) {
      person.games.push(game);
      note(person, `at ${game}`);
      return game;
    }
    if (run.stop && !stopping) return null;
  }
  throw new Error(`${person.name}: no game after ${last} in ${timeout / 1000} s`);
}

// What each person did when, printed if the test fails.
const trace = [];
let began = Date.now();
const note = (person, text) => trace.push(`${((Date.now() - began) / 1000).toFixed(1)} s ${person.name}: ${text}`);

// The opponent in `game`, as anyone's arena page lists the game (its players' names beside the
// link to watch it), in whatever language.
async function opponentIn(person, game, everyone, looker) {
  const names = await looker.waitForFunction((id) => {
    const link = document.querySelector(`#arena-games a[href="/g/${id}"]`);
    return link && link.closest('li').textContent;
  }, game, { timeout: 30000 }).then((text) => text.jsonValue());
  const other = everyone.find((p) => p !== person && names.includes(p.name));
  assert.ok(other && names.includes(person.name), `${person.name} in ${game}: ${names}`);
  return other;
}

const moveList = (page) => page.$$eval('#moves button.move', (b) => b.map((x) => x.textContent));
// The person's turn, or the game's end. In the placement (the game's first turns) the board
// offers cells to place on only on their turn; after, it offers their stones to step on the
// other's turn too (a move chosen ahead), and their turn is their panel's: `colour`, once known.
// Words differ by language; these do not.
const myTurnOrEnd = (page, colour = null) => page.waitForFunction((c) => !document.querySelector('#end').hidden
  || (c ? document.querySelector(`#player-${c}.to-move`) && document.querySelector('#board [data-cell].put, #board [data-cell].select')
    : document.querySelector('#board [data-cell].put')), colour, { timeout: 60000 });

// Plays the person's game to its end by typed moves: level 8 if they are the one to win, level
// 1 if not. `during(turn)` is called before each of their turns (a reload, a pause). Records
// the finish from the result's score (1-0, 0-1, ½-½: the same in every language).
async function playGame(person, game, during = async () => {}) {
  const { page } = person;
  const opponent = await opponentIn(person, game, person.everyone, person.looker);
  note(person, `plays ${game} against ${opponent.name}`);
  const strong = person.strength < opponent.strength;
  let colour = null;
  for (let turn = 0; turn < 200; turn += 1) {
    await myTurnOrEnd(page, colour);
    if (await page.locator('#end').isVisible()) break;
    colour ??= await page.evaluate(() => document.querySelector('.player.to-move').id.replace('player-', ''));
    await during(turn, colour);
    if (await page.locator('#end').isVisible()) break;
    const moves = await moveList(page);
    const reply = readReply(engine.think(requestLine({ rules: 'arcade', moves, level: strong ? 8 : 1, seed: moves.length + 7 * person.strength, nodes: strong ? 20000 : undefined })));
    if (at(person) !== game) throw new Error(`${person.name}: the page left ${game} during the game`);
    await page.fill('#typed-input', reply.move, { timeout: 10000 });
    await page.press('#typed-input', 'Enter');
    await page.waitForFunction((n) => document.querySelectorAll('#moves button.move').length > n
      || !document.querySelector('#end').hidden, moves.length, { timeout: 30000 });
  }
  await page.locator('#end').waitFor();
  const plies = (await moveList(page)).length;
  const result = /\((1-0|0-1|½-½|1\/2-1\/2)\)/.exec(await page.locator('#result').innerText())?.[1];
  assert.ok(result, `${person.name}: a result in ${await page.locator('#result').innerText()}`);
  colour ??= plies % 2 === 1 ? 'black' : 'white';
  const finish = result === '1-0' ? (colour === 'white' ? 'win' : 'loss') : result === '0-1' ? (colour === 'black' ? 'win' : 'loss') : 'draw';
  person.finishes.push({ finish, plies, against: opponent.name, strong });
  note(person, `${finish} in ${plies} plies (${result})`);
  return finish;
}

// After a game: the page counts down to the next one, in the person's language, with a way to
// stay; the words are kept to be checked (the page may have gone on before they are read).
async function seeCountdown(person, game) {
  const { page } = person;
  for (const until = Date.now() + 150000; Date.now() < until && !run.stop; await pause(100)) {
    if (at(person) !== game) return;
    const text = await page.locator('#arena-next:has(button:visible)').innerText({ timeout: 1000 }).catch(() => null);
    if (text) {
      person.countdowns.push(text);
      if (person.countdowns.length === 1 && person.locale === 'ha') await shoot(page, 'game-ha-countdown', [[390, 844]]);
      if (person.countdowns.length === 1 && person.name === 'Kofi') await stayThenGo(person, game);
      return;
    }
  }
}

// Stays on the ended game rather than be taken to the next: the countdown stops, and the next
// game is a link, which takes the person there.
async function stayThenGo(person, game) {
  const { page } = person;
  await page.locator('#arena-next button').click();
  const open = page.locator('#arena-next a');
  await open.waitFor();
  assert.match(await open.getAttribute('href'), GAME_URL);
  // Longer than the countdown (3 s): the page stays (the next game's first move can wait 30 s).
  await page.waitForTimeout(4000);
  assert.equal(at(person), game, `${person.name} stayed`);
  await open.click();
  note(person, 'stayed, then opened the next game by its link');
}

// Pauses in the arena from a second tab of the same browser (the same player), while the game
// goes on; the tab names the game, so that it stays on the arena's page.
async function pauseMidGame(person, arena) {
  const tab = await person.page.context().newPage();
  await tab.goto(`${server.url}/arena/${arena}#from=${at(person)}`);
  await tab.locator('#pause').click();
  await tab.locator('#resume').waitFor();
  await tab.close();
}

// Back on the arena's page (its link under the ended game), paused: comes back.
async function comeBack(person) {
  await person.page.locator('#resume').click();
}

// Stops playing: pauses during the game being played and finishes it, or between games pauses
// (and plays the game it was paired to just before, if any); then goes back to the arena's page.
async function stopPlaying(person, arena) {
  const { page } = person;
  if (!at(person)) {
    // On the arena's page, waiting for an opponent.
    await page.locator('#pause').click();
    await page.locator('#resume').waitFor();
    return;
  }
  if (!(await page.locator('#end').isVisible())) {
    await pauseMidGame(person, arena);
    // The page may have gone by itself to a game the person's loop never looked at (told to
    // stop first): that game is the one played out, not the last one looked at.
    const game = at(person);
    if (game !== person.games.at(-1)) {
      person.games.push(game);
      note(person, `at ${game}`);
    }
    await playGame(person, game);
  } else {
    // Between games the arena's page would go to a game paired meanwhile: the pause is asked
    // from another page of the same browser, as the arena's page asks it, and the arena's
    // socket says which game, if any, was paired before it.
    const tab = await page.context().newPage();
    await tab.goto(`${server.url}/privacy`);
    const paired = await tab.evaluate((id) => new Promise((resolve, reject) => {
      const player = localStorage.getItem('dara.arena.player');
      fetch(`/api/arenas/${id}/pause`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ player }) }).then((answer) => {
        if (!answer.ok) reject(new Error(`pause: ${answer.status}`));
        const ws = new WebSocket(`ws://${location.host}/ws/arena/${id}`);
        ws.onopen = () => ws.send(JSON.stringify({ t: 'hello', d: { player } }));
        // The board that says "paused" has every pairing made before the pause.
        ws.onmessage = (e) => {
          const { t, d } = JSON.parse(e.data);
          if (t === 'standings' && d.mine && d.mine.presence === 'paused') {
            ws.close();
            resolve(d.game && d.game.id);
          }
        };
      }, reject);
    }), arena);
    await tab.close();
    if (paired && paired !== person.games.at(-1)) await playGame(person, await nextGame(person, { stopping: true }));
  }
  await page.locator('#arena-back').click();
  await page.waitForURL(new RegExp(`/arena/${arena}`));
  await page.locator('#resume').waitFor();
}

// The standings row of `name` on `page`: its score cell's and sheet's text.
const rowOf = (page, name) => page.evaluate((n) => {
  const tr = [...document.querySelectorAll('#standings tbody tr')].find((r) => r.children[1] && r.children[1].textContent.startsWith(n));
  return tr && { score: tr.querySelector('.arena-score').textContent, sheet: tr.querySelector('.arena-sheet').textContent, name: tr.children[1].textContent };
}, name);

test('an arena to its end: four browsers paired game after game, a streak, a reload, a pause and a return, the podium', { timeout: 330000 }, async () => {
  await keepScreenshotsOnFailure('arena-games', pages, async () => {
    began = Date.now();
    const arena = await makeArena();
    const everyone = people();
    for (const person of everyone) person.page = await newPage(person.viewport, { locale: person.locale });
    const [ama, helene, kwaro, kofi] = everyone;
    // Anyone's view of the standings, in French at 1280 × 800.
    const looker = await newPage({ width: 1280, height: 800 }, { locale: 'fr-FR' });
    await looker.goto(`${server.url}/arena/${arena}`);
    for (const person of everyone) Object.assign(person, { everyone, looker });

    for (const person of everyone) await joinArena(person, arena);
    const checks = [];
    let reloaded = false;
    let pausedAndBack = false;
    let failed = null;
    const caught = (promise) => promise.catch((e) => { failed ??= e; });
    // What happened, should the test fail.
    const traced = (e) => { e.message += `\n${trace.join('\n')}`; throw e; };

    // What each person does, game after game, until told to stop.
    async function plays(person) {
      for (;;) {
        const game = await nextGame(person);
        if (game === null || run.stop) {
          await stopPlaying(person, arena);
          return;
        }
        let during = async () => {};
        if (person === helene && !reloaded) {
          // A reload mid-game keeps her seat: the same moves, and her turn offered again.
          during = async (turn, colour) => {
            if (turn !== 3 || reloaded) return;
            const moves = await moveList(helene.page);
            await helene.page.reload();
            await helene.page.waitForFunction((n) => document.querySelectorAll('#moves button.move').length === n, moves.length);
            assert.deepEqual(await moveList(helene.page), moves, 'the reload continues the game where it was');
            assert.match(helene.page.url(), GAME_URL);
            await myTurnOrEnd(helene.page, colour);
            note(helene, 'reloaded: the same moves, her turn again');
            reloaded = true;
          };
        }
        const pausing = person === kwaro && kwaro.games.length === 2 && !pausedAndBack;
        if (pausing) during = async (turn) => { if (turn === 2) await pauseMidGame(kwaro, arena); };
        const finish = await playGame(person, game, during);
        if (person === ama) checks.push(caught(streakSeen(finish)));
        if (pausing) await pausedNotPaired();
        else await seeCountdown(person, game);
        if (run.stop && at(person) === game) {
          await stopPlaying(person, arena);
          return;
        }
      }
    }

    // Ama's streak on anyone's page: 2, then 4 with the fire mark, then 8 (the third win
    // scores 4) with the mark still there.
    async function streakSeen(finish) {
      assert.equal(finish, 'win', `Ama wins her games: ${JSON.stringify(ama.finishes)}`);
      const wins = ama.finishes.length;
      if (wins > 3) return;
      const expected = { 1: ['2', '2'], 2: ['4 🔥', '2 2'], 3: ['8 🔥', '2 2 4'] }[wins];
      await looker.waitForFunction(([score, sheet]) => {
        const tr = [...document.querySelectorAll('#standings tbody tr')].find((r) => r.children[1].textContent.startsWith('Ama'));
        return tr && tr.querySelector('.arena-score').textContent === score && tr.querySelector('.arena-sheet').textContent.startsWith(sheet);
      }, expected, { timeout: 30000 });
      if (wins === 3) {
        // The mark says what it means, in the page's language.
        assert.equal(await looker.locator('#standings tr', { hasText: 'Ama' }).locator('.arena-score').getAttribute('title'), 'Deux victoires de suite : la prochaine victoire compte double');
        await shoot(looker, 'arena-fr-streak');
      }
    }

    // Ƙwaro, paused during his game, is not paired once it ends: the others are paired among
    // themselves while his page stays at the ended game with no countdown; back on the arena's
    // page it says he is paused (in Hausa); he comes back and is paired again.
    async function pausedNotPaired() {
      const { page } = kwaro;
      const ended = at(kwaro);
      const seen = everyone.flatMap((p) => p.games);
      note(kwaro, 'paused, his game over');
      // A game paired after his end, without him.
      await looker.waitForFunction((old) => [...document.querySelectorAll('#arena-games a')].some((a) => !old.includes(a.getAttribute('href').slice(3))), seen, { timeout: 90000 });
      assert.equal(at(kwaro), ended, 'not paired while paused');
      assert.equal(await page.locator('#arena-next button').isVisible(), false, 'no countdown while paused');
      // Anyone may watch it: the arena's page links it, and /watch lists it.
      // Games end and new ones are paired at once: any game the arena's page links now, found
      // on /watch (asked again until one is both).
      const watcher = await newPage({ width: 390, height: 844 });
      const listed = async () => {
        const links = await looker.$$eval('#arena-games a', (as) => as.map((a) => a.getAttribute('href')));
        await watcher.goto(`${server.url}/watch`);
        await watcher.waitForTimeout(1500);
        const onWatch = await watcher.$$eval('#featured-game a, #watch-games a', (as) => as.map((a) => a.getAttribute('href')));
        return links.find((l) => onWatch.includes(l));
      };
      const link = await settled(listed, Boolean, { timeout: 60000 });
      assert.ok(link, 'a game the arena links is listed on /watch');
      await watcher.goto(server.url + link);
      await watcher.locator('#watch-note').waitFor();
      await watcher.context().close();
      // The others are paired again at once when their games end (no rest), maybe before his
      // ends: his row settles, paused and not playing.
      const row = await settled(() => rowOf(looker, 'Ƙwaro'), (r) => r && /\(/.test(r.name) && !r.sheet.includes('▶'), { timeout: 90000 });
      assert.ok(row && /\(/.test(row.name) && !row.sheet.includes('▶'), `Ƙwaro paused, not playing: ${JSON.stringify(row)}`);
      await page.locator('#arena-back').click();
      await page.waitForURL(new RegExp(`/arena/${arena}#from=${ended}`));
      await page.locator('#arena-joined').filter({ hasText: 'Kana wasa da sunan Ƙwaro, ka dakata: ba za a ba ka sabon wasa ba sai ka dawo.' }).waitFor();
      await page.locator('#standings tr.mine').filter({ hasText: 'Ƙwaro' }).waitFor();
      await shoot(page, 'arena-ha-paused');
      await comeBack(kwaro);
      note(kwaro, 'came back');
      pausedAndBack = true;
    }

    const playing = everyone.map((person) => caught(plays(person)));
    // Enough has happened: the streak, the reload, the pause and a game after the return.
    const enough = () => ama.finishes.length >= 3 && reloaded && pausedAndBack && kwaro.finishes.length >= 3;
    while (!enough() && !failed && Date.now() - began < (MINUTES - 0.5) * 60000) await pause(250);
    if (failed) traced(failed);
    assert.ok(enough(), `the test's games in time: ${everyone.map((p) => `${p.name} ${p.finishes.length}`).join(', ')}, reloaded ${reloaded}, paused and back ${pausedAndBack}`);
    run.stop = true;
    await Promise.all(playing);
    await Promise.all(checks);
    if (failed) traced(failed);
    const played = Date.now() - began;

    // The games being played are links to watch them (none now: everyone paused), and the
    // arena is still running: every game counted.
    await looker.locator('#arena-no-games').waitFor();
    const time = await looker.locator('#arena-time').innerText();
    assert.match(time, /\d:\d\d/, `the arena still runs once everyone has stopped: ${time}`);
    await shoot(looker, 'arena-fr-mid');

    // The end: every browser shows the podium, the first three by the scores the test counted.
    const counted = everyone.map((p) => ({ name: p.name, score: scoreOf(p.finishes), games: p.finishes.length }));
    for (const person of everyone) await person.page.locator('#podium-card').waitFor({ timeout: (MINUTES + 1) * 60000 });
    const standings = await ama.page.$$eval('#standings tbody tr', (trs) => trs.map((tr) => ({ name: tr.children[1].textContent.replace(/ \(.*\)$/, ''), score: Number.parseInt(tr.querySelector('.arena-score').textContent, 10) })));
    for (const { name, score } of counted) {
      assert.equal(standings.find((row) => row.name === name)?.score, score, `${name}'s score: ${JSON.stringify(standings)} against ${JSON.stringify(counted)}`);
    }
    const top = standings.slice(0, 3);
    assert.equal(top[0].name, 'Ama');
    const podiumWords = {
      'en-GB': ({ name, score }) => `${name}: ${score} point${score === 1 ? '' : 's'}`,
      'fr-FR': ({ name, score }) => `${name} : ${score} point${score > 1 ? 's' : ''}`,
      ha: ({ name, score }) => `${name}: maki ${score}`,
    };
    for (const person of everyone) {
      const rows = await person.page.$$eval('#podium li', (lis) => lis.map((li) => li.textContent));
      assert.deepEqual(rows, top.map(podiumWords[person.locale]), `${person.name}'s podium`);
    }
    // Over, paused or not no longer matters: the page says under which name each played.
    await helene.page.locator('#arena-joined').filter({ hasText: 'Vous avez joué sous le nom Hélène.' }).waitFor();
    await kwaro.page.locator('#arena-joined').filter({ hasText: 'Ka yi wasa da sunan Ƙwaro.' }).waitFor();
    await shoot(helene.page, 'arena-fr-podium');
    await shoot(kwaro.page, 'arena-ha-podium');
    await shoot(ama.page, 'arena-en-podium');

    // Each next game came by itself, after a countdown in the person's language.
    const countdown = { 'en-GB': /^Your next game opens in \d seconds?\./, 'fr-FR': /^Votre prochaine partie s'ouvre dans \d secondes?\./, ha: /^Wasanka na gaba zai buɗe nan da daƙiƙa \d\./ };
    for (const person of everyone) {
      for (const text of person.countdowns) assert.match(text, countdown[person.locale], person.name);
    }
    for (const person of everyone) assert.ok(person.countdowns.length > 0, `${person.name} saw a countdown`);
    console.log(`played ${everyone.map((p) => `${p.name} ${p.finishes.map((f) => f.finish[0]).join('')} (${scoreOf(p.finishes)})`).join(', ')}; games done in ${Math.round(played / 1000)} s, all in ${Math.round((Date.now() - began) / 1000)} s`);
  });
});
