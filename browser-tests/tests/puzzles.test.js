// The puzzles page (`/puzzles`) in real Chromium: a puzzle solved by clicks and the streak kept
// in the browser, a wrong answer explained and the solution shown, a puzzle solved by keyboard
// alone, and a wrong capture's explanation searched in the page when the server's engine does
// not answer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useArcade, keepScreenshotsOnFailure, plainAsset } from '../harness.js';

let puzzles;
const { server, newPage, pages } = useArcade([], async (started) => { puzzles = await (await fetch(`${started.url}/api/puzzles`)).json(); });

const parse = (text) => {
  const [step, ...captures] = text.split('x');
  const [from, to] = step.split('-');
  return { from, to, captures };
};

// The puzzle the page shows, by the title's number in the stream of its difficulty.
async function shown(page) {
  await page.waitForSelector('[data-cell].select');
  const difficulty = Number(await page.locator('#difficulty').inputValue());
  const n = Number(/Puzzle (\d+) of/.exec(await page.locator('#progress').innerText())[1]);
  return puzzles.filter((p) => p.difficulty === difficulty)[n - 1];
}

async function clickMove(page, text) {
  const { from, to, captures } = parse(text);
  await page.click(`[data-cell="${from}"]`);
  await page.waitForSelector(`[data-cell="${to}"].target`);
  await page.click(`[data-cell="${to}"]`);
  for (const c of captures) {
    await page.waitForSelector(`[data-cell="${c}"].capture`);
    await page.click(`[data-cell="${c}"]`);
  }
}

const feedbackSays = (page, text) => page.waitForFunction((t) => document.querySelector('#feedback').textContent.includes(t), text);

// Another legal move than the solution, as the server lists them.
async function wrongMove(p) {
  const answer = await (await fetch(`${server.url}/api/position`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ position: p.position, rules: p.rules }),
  })).json();
  const solution = parse(p.line[0]);
  // A step from another stone or to another cell: a wrong capture choice alone is a subtler test.
  return answer.pos.legal.find((m) => parse(m).from !== solution.from || parse(m).to !== solution.to);
}

test('a puzzle is solved and counted in the streak; a wrong answer is explained and the solution shown', { timeout: 60000 }, async () => {
  await keepScreenshotsOnFailure('puzzles', pages, async () => {
    const page = await newPage();
    await page.goto(server.url + '/');
    await page.click('header >> text=Puzzles');
    await page.waitForURL(/\/puzzles$/);
    const first = await shown(page);
    assert.equal(first.difficulty, 1);
    assert.match(await page.locator('#ask').innerText(), /Take a stone now/);
    assert.equal(await page.locator('#theme').innerText(), 'Theme: take a stone in one move');
    await clickMove(page, first.line[0]);
    await feedbackSays(page, 'Right!');
    assert.match(await page.locator('#feedback').innerText(), new RegExp(`${first.line[0]} makes a row at once`));
    assert.equal(await page.locator('#streak').innerText(), '1');
    assert.equal(await page.evaluate(() => localStorage.getItem('dara.puzzles.streak')), '1');

    await page.click('#next');
    const second = await shown(page);
    assert.notEqual(second.id, first.id);
    const wrong = await wrongMove(second);
    await clickMove(page, wrong);
    await feedbackSays(page, 'Not this one.');
    assert.match(await page.locator('#feedback').innerText(), new RegExp(wrong));
    assert.equal(await page.locator('#streak').innerText(), '0');
    assert.equal(await page.locator('#best').innerText(), '1');
    // "Try again" puts the puzzle back; "Show the solution" plays it and says what it does.
    await page.click('#retry');
    await page.waitForSelector(`[data-cell="${parse(second.line[0]).from}"].select`);
    await clickMove(page, wrong);
    await page.click('#solution');
    await feedbackSays(page, `The solution: ${second.line[0]}`);
    // The streak and the place in the stream survive a reload: they are kept in the browser.
    await page.reload();
    assert.equal((await shown(page)).id, second.id);
    assert.equal(await page.locator('#best').innerText(), '1');
    // A harder stream is one choice away.
    await page.selectOption('#difficulty', '3');
    const hard = await shown(page);
    assert.equal(hard.difficulty, 3);
    assert.match(await page.locator('#ask').innerText(), /within three moves/);
  });
});

test('a puzzle solved by keyboard alone', { timeout: 60000 }, async () => {
  await keepScreenshotsOnFailure('puzzles-keyboard', pages, async () => {
    const page = await newPage();
    await page.goto(server.url + '/puzzles');
    const p = await shown(page);
    const flipped = p.position.split(' ')[1] === 'b';
    for (let i = 0; i < 40 && !(await page.evaluate(() => !!document.activeElement?.dataset?.cell)); i++) await page.keyboard.press('Tab');
    const arrowTo = async (target) => {
      const at = await page.evaluate(() => document.activeElement.dataset.cell);
      const files = (target.charCodeAt(0) - at.charCodeAt(0)) * (flipped ? -1 : 1);
      const ranks = (Number(target[1]) - Number(at[1])) * (flipped ? -1 : 1);
      for (let i = 0; i < Math.abs(files); i++) await page.keyboard.press(files > 0 ? 'ArrowRight' : 'ArrowLeft');
      for (let i = 0; i < Math.abs(ranks); i++) await page.keyboard.press(ranks > 0 ? 'ArrowUp' : 'ArrowDown');
      assert.equal(await page.evaluate(() => document.activeElement.dataset.cell), target);
      await page.keyboard.press('Enter');
    };
    const { from, to, captures } = parse(p.line[0]);
    for (const cell of [from, to, ...captures]) await arrowTo(cell);
    await feedbackSays(page, 'Right!');
    assert.equal(await page.evaluate(() => document.activeElement.id), 'next');
    assert.equal(await page.locator('#feedback').getAttribute('aria-live'), 'polite');
  });
});

const judge = async (body) => (await fetch(`${server.url}/api/position`, {
  method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body),
})).json();

// A puzzle of difficulty 1 and a capture that is not its solution, after which the game goes on
// and the opponent has no capture to answer with: the page explains that wrong answer with the
// engine's best reply (puzzles.js, `captureWhy`).
async function wrongCapture() {
  const stream = puzzles.filter((p) => p.difficulty === 1);
  for (const [index, p] of stream.entries()) {
    if (['defence', 'save-row', 'only-step'].includes(p.theme)) continue;
    const { pos } = await judge({ position: p.position, rules: p.rules });
    for (const m of pos.legal.filter((m) => m !== p.line[0] && parse(m).captures.length)) {
      const { move } = await judge({ position: p.position, rules: p.rules, move: m });
      const quiet = !move.pos.legal.some((answer) => parse(answer).captures.length);
      if (move.status.result === '*' && quiet) return { index, p, m, after: move.pos };
    }
  }
  throw new Error('no puzzle of difficulty 1 has a wrong capture to explain');
}

test('a wrong capture is explained with the best reply, searched in the page when the server\'s engine does not answer', { timeout: 90000 }, async () => {
  await keepScreenshotsOnFailure('puzzles-in-page', pages, async () => {
    const { index, p, m, after } = await wrongCapture();
    const page = await newPage();
    // The server's engine does not answer (as offline): the page searches with its own.
    let refused = 0;
    await page.route('**/api/analysis', (route) => { refused += 1; return route.abort(); });
    const modules = [];
    page.on('response', (response) => modules.push(plainAsset(new URL(response.url()).pathname)));
    await page.addInitScript((at) => localStorage.setItem('dara.puzzles.at.1', String(at)), index);
    await page.goto(server.url + '/puzzles');
    assert.equal((await shown(page)).id, p.id);
    await clickMove(page, m);
    await page.waitForFunction(() => document.querySelector('#feedback').textContent.includes('best answer is'), null, { timeout: 60000 });
    const feedback = await page.locator('#feedback').innerText();
    const reply = /best answer is (\S+?)\.?$/.exec(feedback)[1];
    assert.ok(after.legal.includes(reply), `${reply} is a legal answer to ${m}: ${feedback}`);
    assert.ok(refused >= 1, 'the server was asked first');
    assert.ok(modules.includes('/assets/engine.wasm'), 'the page fetched its engine');
  });
});
