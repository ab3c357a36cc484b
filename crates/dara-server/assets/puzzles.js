// The puzzles page: a stream of positions by difficulty, each with one clearly best move found
// and checked by the engine (GET /api/puzzles). The rules judge every move (try-move.js); this
// page compares a legal move with the solution, explains a wrong one with the opponent's answer
// the rules allow, and keeps the streak in this browser only. Everything the page knows is one
// state object, changed by the named functions below and drawn by `render`.
import { Board } from './board.js';
import { parseMove } from './notation.js';
import { t, inWords } from './i18n.js';
import { analyse } from './study.js';
import { newTrial, setUp, tryMove, takeBack, playFor, boardOf } from './try-move.js';

const $ = (id) => document.getElementById(id);
const store = {
  get: (key, fallback) => { const v = Number(localStorage.getItem(`dara.puzzles.${key}`)); return Number.isFinite(v) && localStorage.getItem(`dara.puzzles.${key}`) !== null ? v : fallback; },
  set: (key, value) => localStorage.setItem(`dara.puzzles.${key}`, String(value)),
};
// How long each move of the solution's line is shown before the next.
const LINE_MS = 900;

const state = {
  all: [],
  stream: [],       // the puzzles of the chosen difficulty
  index: 0,         // the one shown, in the stream
  puzzle: null,
  trial: null,      // the board: the position on it and the move tried (try-move.js)
  phase: 'solving', // 'solving', 'busy', 'wrong', 'done'
  // The board and its buttons stay as last drawn: while a puzzle's position is asked for, and
  // while a wrong answer's explanation is found (the move is then shown with its words).
  held: false,
  missed: false,    // a wrong answer was given to this puzzle: solving it keeps no streak
  feedback: { text: '', tone: '' },
  streak: store.get('streak', 0),
  best: store.get('best', 0),
};

const board = new Board($('board'), { onTurn: (m) => play(m), say: (text) => say(text) });

const sideOf = (fen) => (fen.split(' ')[1] === 'w' ? 'white' : 'black');

// Text set only when it changes: a live region said again is read out again.
function setText(id, text) {
  if ($(id).textContent !== text) $(id).textContent = text;
}

function render() {
  const { puzzle, trial, phase } = state;
  setText('streak', String(state.streak));
  setText('best', String(state.best));
  renderFeedback();
  if (!puzzle) return;
  setText('progress', t('puzzle.progress', { n: state.index + 1, of: state.stream.length }));
  setText('puzzle-title', t('puzzle.to-move', { side: t(`side.${sideOf(puzzle.position)}`) }));
  setText('theme', t('puzzle.theme', { name: t(`puzzle.theme.${puzzle.theme}`) }));
  setText('ask', task(puzzle));
  setText('checked', t('puzzle.checked', { margin: (puzzle.margin / 100).toFixed(1) }));
  if (state.held) return;
  board.show({
    ...boardOf(trial),
    mine: phase === 'solving', waiting: phase === 'busy',
    // The solver's stones nearest the player.
    flipped: sideOf(puzzle.position) === 'black',
  });
  $('retry').hidden = phase !== 'wrong';
  $('solution').hidden = phase !== 'wrong';
}

function renderFeedback() {
  setText('feedback', state.feedback.text);
  $('feedback').className = `feedback ${state.feedback.tone}`;
}

// The page's words about the board (the board's own too, which draws itself: only they are
// drawn here).
function say(text, tone = '') {
  state.feedback = { text, tone };
  renderFeedback();
}

// The streak after a puzzle: one more when solved at the first try, else none; the best kept.
function setStreak(streak) {
  state.streak = streak;
  state.best = Math.max(streak, store.get('best', 0));
  store.set('streak', streak);
  store.set('best', state.best);
}

// The task in words, from the puzzle's theme.
function task(p) {
  return t(`puzzle.task.${sideOf(p.position)}.${p.theme}`);
}

// The themes whose solution takes nothing: it holds what the solver has.
const HOLDING = new Set(['defence', 'save-row', 'only-step']);

// What the solution does, in words.
function achieves(p) {
  const line = p.line.map(parseMove);
  const take = line[line.length - 1];
  if (p.theme === 'capture-1') return t('puzzle.achieves.now', { move: p.line[0], taken: inWords(take.captures) });
  if (HOLDING.has(p.theme)) return t(`puzzle.achieves.${p.theme}`, { move: p.line[0] });
  const rest = p.line.slice(1).map((m, i) => t(i % 2 === 0 ? 'puzzle.line.them' : 'puzzle.line.you', { move: m })).join(t('puzzle.line.then'));
  return t('puzzle.achieves.later', { move: p.line[0], rest, taken: inWords(take.captures) });
}

async function load(i) {
  const { stream } = state;
  state.index = ((i % stream.length) + stream.length) % stream.length;
  state.puzzle = stream[state.index];
  store.set(`at.${$('difficulty').value}`, state.index);
  state.phase = 'busy';
  state.missed = false;
  state.held = true;
  // A trial of its own: a move of the last puzzle's line still on its way lands on that one's.
  state.trial = newTrial(state.puzzle.rules);
  state.feedback = { text: '', tone: '' };
  render();
  await setUp(state.trial, state.puzzle.position);
  state.held = false;
  state.phase = 'solving';
  render();
}

// A whole turn from the board or the typed field: the rules judge it, then the puzzle does.
async function play(text) {
  if (state.phase !== 'solving') return;
  const { puzzle, trial } = state;
  state.phase = 'busy';
  render();
  const { played, refused } = await tryMove(trial, text);
  if (refused) {
    state.phase = 'solving';
    say(refused);
    render();
    return;
  }
  if (played.m === puzzle.line[0]) {
    setStreak(state.missed ? 0 : store.get('streak', 0) + 1);
    state.phase = 'done';
    say(`${t('puzzle.right')} ${achieves(puzzle)}`, 'right');
    render();
    $('next').focus();
    playLine(1);
    return;
  }
  // Wrong: the streak ends, and the opponent's best answer the rules allow is named.
  state.missed = true;
  store.set('streak', 0);
  state.streak = 0;
  state.phase = 'wrong';
  state.held = true;
  render();
  const takes = played.pos.legal.filter((m) => parseMove(m).captures.length);
  const them = sideOf(played.pos.fen);
  const move = played.m;
  let why;
  if (played.status.result !== '*') why = t('puzzle.wrong.ends', { move });
  else if (takes.length) why = t(`puzzle.wrong.answer.${them}`, { move, answer: takes[0] });
  else if (HOLDING.has(puzzle.theme)) why = t(`puzzle.wrong.later.${them}`, { move });
  else if (parseMove(played.m).captures.length) why = await captureWhy(move, played.pos.fen);
  else why = t(`puzzle.wrong.nothing.${them}`, { move });
  state.held = false;
  say(`${t('puzzle.wrong')} ${why}`, 'wrong');
  render();
  $('retry').focus();
}

// Why a capture was not the one: which stone (or which turn) the solution takes instead, by how
// much it comes out ahead (the puzzle's margin), and the opponent's best answer to the capture
// played, as the engine finds it (the server's, or the page's own offline; left out if the
// engine is busy).
async function captureWhy(move, fen) {
  const { puzzle } = state;
  const played = parseMove(move);
  const solution = parseMove(puzzle.line[0]);
  const params = {
    move, taken: inWords(played.captures), solution: puzzle.line[0],
    better: inWords(solution.captures || []), margin: (puzzle.margin / 100).toFixed(1),
  };
  const sameStep = solution.kind === 'step' && solution.from === played.from && solution.to === played.to;
  let why;
  if (sameStep && solution.captures.length) why = t('puzzle.wrong.capture-stone', params);
  else if (solution.captures && solution.captures.length) why = t('puzzle.wrong.capture-step', params);
  else why = t('puzzle.wrong.capture-later', params);
  try {
    const found = await analyse({ rules: puzzle.rules, start: fen });
    if (found.best) why += ` ${t('puzzle.wrong.reply', { reply: found.best })}`;
  } catch {
    // The reason stands without the answer.
  }
  return why;
}

// Shows the rest of the solution's line on the board, one move at a time.
async function playLine(from) {
  const { puzzle } = state;
  for (let i = from; i < puzzle.line.length; i++) {
    await new Promise((resolve) => setTimeout(resolve, LINE_MS));
    if (state.phase !== 'done') return;
    await playFor(state.trial, puzzle.line[i], `${puzzle.id}.${i}`);
    render();
  }
}

async function showSolution() {
  const { puzzle } = state;
  takeBack(state.trial);
  await playFor(state.trial, puzzle.line[0]);
  state.phase = 'done';
  say(t('puzzle.solution', { what: achieves(puzzle) }));
  render();
  $('next').focus();
  playLine(1);
}

// Back to the position before the wrong answer, the same puzzle.
function retry() {
  takeBack(state.trial);
  state.phase = 'solving';
  say(t('puzzle.back'));
  render();
  board.focusCursor();
}

function chooseDifficulty() {
  const level = Number($('difficulty').value);
  store.set('difficulty', level);
  state.stream = state.all.filter((p) => p.difficulty === level);
  if (!state.stream.length) state.stream = state.all;
  load(store.get(`at.${level}`, 0));
}

$('retry').addEventListener('click', retry);
$('solution').addEventListener('click', showSolution);
$('next').addEventListener('click', async () => {
  // Skipping a puzzle unsolved ends the streak, as a wrong answer does.
  if (state.phase !== 'done') { store.set('streak', 0); state.streak = 0; render(); }
  await load(state.index + 1);
  $('puzzle-title').focus();
});
$('difficulty').addEventListener('change', chooseDifficulty);
$('typed').addEventListener('submit', (e) => {
  e.preventDefault();
  const text = $('typed-input').value.trim();
  if (!text) return;
  $('typed-input').value = '';
  play(text);
});

(async () => {
  const response = await fetch('/api/puzzles');
  state.all = await response.json();
  $('difficulty').value = String(store.get('difficulty', 1));
  state.streak = store.get('streak', 0);
  state.best = store.get('best', 0);
  render();
  chooseDifficulty();
})();
