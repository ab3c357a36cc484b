// The guided first game: the lessons of lessons.js one at a time on the game page's board. The
// server judges every move (`POST /api/position`); this page only follows the lesson's script:
// ask, check the move against the lesson's goal, explain a wrong one, play dark's reply.
import { judgePosition } from './judge.js';
import { Board } from './board.js';
import { parseMove } from './notation.js';
import { lessons } from './lessons.js';
import { postJson } from './api.js';
import { newComputerGame, tableInPage } from './page-table.js';
import { t, verdictText } from './i18n.js';

const $ = (id) => document.getElementById(id);
const RULES = 'arcade';
// How long dark's scripted reply waits, so that the player sees their own move land first.
const REPLY_MS = 600;

let lessonIndex = 0;
let taskIndex = 0;
let current = null;   // the server's answer for the position on the board
let busy = false;     // a move is being judged: the board offers nothing meanwhile
let solved = false;   // the task is done (or answered wrongly): the board waits for a button
let lastMove = null;
let fresh = null;
let undo = null;      // the board before a wrong move, for "Try again"

function say(text) {
  $('feedback').textContent = text;
}

const board = new Board($('board'), {
  onTurn: (m) => tryMove(m),
  say,
  onClosed: (cell) => {
    const task = lesson().tasks[taskIndex];
    // The board has just said the rules' reason: the lesson's words follow it.
    if (!solved && task.closed === cell) taskDone(task, `${$('feedback').textContent} `);
  },
});

const lesson = () => lessons[lessonIndex];

// Asks the server about `position`, and about `move` played there when given.
async function ask(position, move) {
  const body = { position, rules: RULES };
  if (move) body.move = move;
  return judgePosition(body);
}

function show() {
  const mine = !busy && !solved && current.status.result === '*';
  board.show({
    fen: current.pos.fen, legal: current.pos.legal, forbidden: current.pos.forbidden, closed: current.pos.closed,
    mine, waiting: busy, browsing: false, flipped: false, lastMove, fresh,
  });
}

function renderSteps() {
  const list = $('steps');
  list.replaceChildren();
  lessons.forEach((l, i) => {
    const li = document.createElement('li');
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'secondary';
    button.textContent = l.title;
    if (i === lessonIndex && $('finale').hidden) button.setAttribute('aria-current', 'step');
    button.addEventListener('click', () => start(i));
    li.appendChild(button);
    list.appendChild(li);
  });
}

// Begins lesson `index` from its position.
async function start(index, { focus = true } = {}) {
  lessonIndex = index;
  taskIndex = 0;
  lastMove = null;
  fresh = null;
  solved = false;
  busy = false;
  localStorage.setItem('dara.learn.step', String(index));
  $('finale').hidden = true;
  $('lesson').hidden = false;
  $('learn-tools').hidden = false;
  const l = lesson();
  $('progress').textContent = t('learn.progress', { n: index + 1, of: lessons.length });
  $('lesson-title').textContent = l.title;
  $('intro').replaceChildren(...l.intro.map((text) => {
    const p = document.createElement('p');
    p.textContent = text;
    return p;
  }));
  // The task's words now, with the step's, not after the position comes back: the board
  // below them would move down as they came.
  $('ask').textContent = l.tasks[0].ask;
  renderSteps();
  try {
    current = await ask(l.position);
  } catch (e) {
    say(t('learn.failed', { reason: e.message }));
    return;
  }
  askTask();
  if (focus) $('lesson-title').focus();
}

function askTask() {
  const task = lesson().tasks[taskIndex];
  $('ask').textContent = task.ask;
  say('');
  $('retry').hidden = true;
  $('next').hidden = true;
  solved = false;
  show();
}

// A whole turn from the board or the typed field: the server judges it, then the lesson does.
async function tryMove(text) {
  if (busy || solved) return;
  const task = lesson().tasks[taskIndex];
  if (task.closed) {
    say(t('learn.first-try', { cell: task.closed }));
    return;
  }
  busy = true;
  show();
  const before = current;
  let answer;
  try {
    answer = await ask(before.pos.fen, text);
  } catch (e) {
    busy = false;
    say(t('verdict.failed', { reason: e.message }));
    show();
    return;
  }
  busy = false;
  const verdict = answer.move;
  if (verdict.verdict !== 'legal') {
    say(verdictText(text, verdict));
    show();
    return;
  }
  const wrong = task.check({ m: verdict.m, move: parseMove(verdict.m), after: verdict, before });
  // Either way the board shows where the move led, so the explanation can be seen on it.
  undo = { current: before, lastMove };
  current = { pos: verdict.pos, status: verdict.status };
  lastMove = verdict.m;
  fresh = null;
  if (wrong) {
    solved = true;
    say(`${t('learn.not-quite')} ${wrong}`);
    $('retry').hidden = false;
    show();
    $('retry').focus();
    return;
  }
  taskDone(task);
}

// The task is done: say so (after `lead`, what was said just before), play dark's reply if the
// lesson has one, then ask the next task or offer the next lesson.
async function taskDone(task, lead = '') {
  solved = true;
  say(`${lead}${task.done}`);
  show();
  if (task.reply) {
    await new Promise((resolve) => setTimeout(resolve, REPLY_MS));
    const answer = await ask(current.pos.fen, task.reply);
    const verdict = answer.move;
    current = { pos: verdict.pos, status: verdict.status };
    lastMove = verdict.m;
    fresh = { key: `${lessonIndex}.${taskIndex} ${verdict.m}`, move: verdict.m };
    say(`${lead}${task.done} ${t('learn.dark-steps', { from: parseMove(verdict.m).from, to: parseMove(verdict.m).to })}`);
  }
  if (taskIndex + 1 < lesson().tasks.length) {
    taskIndex += 1;
    const note = $('feedback').textContent;
    askTask();
    say(note);
    // The focus stays where the player was working (on the board) for the next move.
    return;
  }
  $('next').hidden = false;
  $('next').textContent = lessonIndex + 1 < lessons.length ? t('learn.next') : t('learn.to-game');
  show();
  $('next').focus();
}

// Back to the position before the wrong move, the same task.
function retry() {
  ({ current, lastMove } = undo);
  fresh = null;
  askTask();
  say(t('learn.back'));
  board.focusCursor();
}

function finale() {
  $('finale').hidden = false;
  $('lesson').hidden = true;
  // Typing a move or starting a lesson again is no use here: the finale's one action is the game.
  $('learn-tools').hidden = true;
  localStorage.setItem('dara.learn.done', '1');
  renderSteps();
  $('finale-title').focus();
}

$('next').addEventListener('click', () => {
  if (lessonIndex + 1 < lessons.length) start(lessonIndex + 1);
  else finale();
});
$('retry').addEventListener('click', retry);
$('restart').addEventListener('click', () => start(lessonIndex));
$('typed').addEventListener('submit', (e) => {
  e.preventDefault();
  const text = $('typed-input').value.trim();
  if (!text) return;
  $('typed-input').value = '';
  tryMove(text);
});
$('play').addEventListener('click', async () => {
  $('finale-error').hidden = true;
  // The first game, at level 1, played in the page where it can be (offline too).
  if (tableInPage()) {
    location.href = newComputerGame({ rules: RULES, level: 1, first: 'pale' });
    return;
  }
  try {
    const created = await postJson('/api/games', { opponent: 'computer', rules: RULES, level: 1, first: 'me' });
    localStorage.setItem(`dara.seat.${created.game}`, created.seat);
    location.href = created.url;
  } catch (e) {
    $('finale-error').textContent = t('home.could-not-start', { reason: e.message });
    $('finale-error').hidden = false;
  }
});

// A visitor coming back carries on where they left off.
const saved = Number(localStorage.getItem('dara.learn.step'));
start(Number.isInteger(saved) && saved >= 0 && saved < lessons.length ? saved : 0, { focus: false });
