// The guided first game: the lessons of lessons.js one at a time on the game page's board. The
// rules judge every move (try-move.js: the server's, or the page's own offline); this page only
// follows the lesson's script: ask, check the move against the lesson's goal, explain a wrong
// one, play dark's reply. Everything the page knows is one state object, changed by the named
// functions below and drawn by `render`.
import { Board } from './board.js';
import { parseMove } from './notation.js';
import { lessons } from './lessons.js';
import { postJson } from './api.js';
import { newComputerGame, tableInPage } from './page-table.js';
import { t } from './i18n.js';
import { newTrial, setUp, tryMove, takeBack, playFor, boardOf } from './try-move.js';

const $ = (id) => document.getElementById(id);
const RULES = 'arcade';
// How long dark's scripted reply waits, so that the player sees their own move land first.
const REPLY_MS = 600;

const state = {
  lessonIndex: 0,
  taskIndex: 0,
  trial: newTrial(RULES), // the board: the position on it and the move tried (try-move.js)
  busy: false,      // a move is being judged: the board offers nothing meanwhile
  solved: false,    // the task is done (or answered wrongly): the board waits for a button
  // The board and its buttons stay as last drawn while a lesson's position is asked for.
  held: true,
  offer: null,      // the button the lesson offers: 'retry' after a wrong move, 'next' when done
  feedback: '',
  finale: false,    // every lesson done: the way to a first game shows
  finaleError: null, // why that game could not be started
};

const lesson = () => lessons[state.lessonIndex];
const task = () => lesson().tasks[state.taskIndex];

const board = new Board($('board'), {
  onTurn: (m) => play(m),
  say,
  onClosed: (cell) => {
    // The board has just said the rules' reason: the lesson's words follow it.
    if (!state.solved && task().closed === cell) taskDone(task(), `${state.feedback} `);
  },
});

// Text set only when it changes: a live region said again is read out again.
function setText(id, text) {
  if ($(id).textContent !== text) $(id).textContent = text;
}

// The steps, one button each, made once: drawing marks the current one.
$('steps').replaceChildren(...lessons.map((l, i) => {
  const li = document.createElement('li');
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'secondary';
  button.textContent = l.title;
  button.addEventListener('click', () => start(i));
  li.appendChild(button);
  return li;
}));

function render() {
  const { lessonIndex, finale } = state;
  const l = lesson();
  $('steps').querySelectorAll('button').forEach((button, i) => {
    if (i === lessonIndex && !finale) button.setAttribute('aria-current', 'step');
    else button.removeAttribute('aria-current');
  });
  $('finale').hidden = !finale;
  $('lesson').hidden = finale;
  // Typing a move or starting a lesson again is no use in the finale: its one action is the game.
  $('learn-tools').hidden = finale;
  $('finale-error').hidden = state.finaleError === null;
  if (state.finaleError !== null) setText('finale-error', state.finaleError);
  setText('progress', t('learn.progress', { n: lessonIndex + 1, of: lessons.length }));
  setText('lesson-title', l.title);
  // The lesson's introduction, made again only for another lesson.
  if ($('intro').dataset.lesson !== String(lessonIndex)) {
    $('intro').dataset.lesson = String(lessonIndex);
    $('intro').replaceChildren(...l.intro.map((text) => {
      const p = document.createElement('p');
      p.textContent = text;
      return p;
    }));
  }
  setText('ask', task().ask);
  setText('feedback', state.feedback);
  if (state.held) return;
  const { trial } = state;
  board.show({
    ...boardOf(trial),
    mine: !state.busy && !state.solved && trial.current.status.result === '*',
    waiting: state.busy, flipped: false,
  });
  $('retry').hidden = state.offer !== 'retry';
  $('next').hidden = state.offer !== 'next';
  if (state.offer === 'next') setText('next', lessonIndex + 1 < lessons.length ? t('learn.next') : t('learn.to-game'));
}

// The page's words about the board (the board's own too, which draws itself: only they are
// drawn here).
function say(text) {
  state.feedback = text;
  setText('feedback', text);
}

// Begins lesson `index` from its position.
async function start(index, { focus = true } = {}) {
  Object.assign(state, { lessonIndex: index, taskIndex: 0, solved: false, busy: false, held: true, finale: false });
  localStorage.setItem('dara.learn.step', String(index));
  // The step's words now, the task's with them, not after the position comes back: the board
  // below them would move down as they came.
  render();
  try {
    await setUp(state.trial, lesson().position);
  } catch (e) {
    say(t('learn.failed', { reason: e.message }));
    return;
  }
  askTask();
  if (focus) $('lesson-title').focus();
}

// The lesson's current task, asked afresh.
function askTask() {
  Object.assign(state, { feedback: '', offer: null, solved: false, held: false });
  render();
}

// A whole turn from the board or the typed field: the rules judge it, then the lesson does.
async function play(text) {
  if (state.busy || state.solved) return;
  const asked = task();
  if (asked.closed) {
    say(t('learn.first-try', { cell: asked.closed }));
    return;
  }
  state.busy = true;
  render();
  const { played, before, refused } = await tryMove(state.trial, text);
  state.busy = false;
  if (refused) {
    say(refused);
    render();
    return;
  }
  // Either way the board shows where the move led, so the explanation can be seen on it.
  const wrong = asked.check({ m: played.m, move: parseMove(played.m), after: played, before });
  if (wrong) {
    state.solved = true;
    state.offer = 'retry';
    say(`${t('learn.not-quite')} ${wrong}`);
    render();
    $('retry').focus();
    return;
  }
  taskDone(asked);
}

// The task is done: say so (after `lead`, what was said just before), play dark's reply if the
// lesson has one, then ask the next task or offer the next lesson.
async function taskDone(done, lead = '') {
  state.solved = true;
  say(`${lead}${done.done}`);
  render();
  if (done.reply) {
    await new Promise((resolve) => setTimeout(resolve, REPLY_MS));
    const m = await playFor(state.trial, done.reply, `${state.lessonIndex}.${state.taskIndex}`);
    say(`${lead}${done.done} ${t('learn.dark-steps', { from: parseMove(m).from, to: parseMove(m).to })}`);
  }
  if (state.taskIndex + 1 < lesson().tasks.length) {
    state.taskIndex += 1;
    const note = state.feedback;
    askTask();
    say(note);
    // The focus stays where the player was working (on the board) for the next move.
    return;
  }
  state.offer = 'next';
  render();
  $('next').focus();
}

// Back to the position before the wrong move, the same task.
function retry() {
  takeBack(state.trial);
  askTask();
  say(t('learn.back'));
  board.focusCursor();
}

function finale() {
  state.finale = true;
  localStorage.setItem('dara.learn.done', '1');
  render();
  $('finale-title').focus();
}

$('next').addEventListener('click', () => {
  if (state.lessonIndex + 1 < lessons.length) start(state.lessonIndex + 1);
  else finale();
});
$('retry').addEventListener('click', retry);
$('restart').addEventListener('click', () => start(state.lessonIndex));
$('typed').addEventListener('submit', (e) => {
  e.preventDefault();
  const text = $('typed-input').value.trim();
  if (!text) return;
  $('typed-input').value = '';
  play(text);
});
$('play').addEventListener('click', async () => {
  state.finaleError = null;
  render();
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
    state.finaleError = t('home.could-not-start', { reason: e.message });
    render();
  }
});

// A visitor coming back carries on where they left off.
const saved = Number(localStorage.getItem('dara.learn.step'));
start(Number.isInteger(saved) && saved >= 0 && saved < lessons.length ? saved : 0, { focus: false });
