// The puzzles page: a stream of positions by difficulty, each with one clearly best move found
// and checked by the engine (GET /api/puzzles). The server judges every move (POST
// /api/position); this page compares a legal move with the solution, explains a wrong one with
// the opponent's answer the rules allow, and keeps the streak in this browser only.
import { judgePosition } from './judge.js';
import { Board } from './board.js';
import { parseMove } from './notation.js';
import { t, inWords, verdictText } from './i18n.js';
import { analyse } from './study.js';

const $ = (id) => document.getElementById(id);
const store = {
  get: (key, fallback) => { const v = Number(localStorage.getItem(`dara.puzzles.${key}`)); return Number.isFinite(v) && localStorage.getItem(`dara.puzzles.${key}`) !== null ? v : fallback; },
  set: (key, value) => localStorage.setItem(`dara.puzzles.${key}`, String(value)),
};
// How long each move of the solution's line is shown before the next.
const LINE_MS = 900;

let all = [];
let stream = [];      // the puzzles of the chosen difficulty
let index = 0;        // the one shown, in the stream
let puzzle = null;
let current = null;   // the server's answer for the position on the board
let undo = null;
let lastMove = null;
let fresh = null;
let state = 'solving'; // 'solving', 'busy', 'wrong', 'done'
let missed = false;    // a wrong answer was given to this puzzle: solving it keeps no streak

const say = (text, tone = '') => {
  $('feedback').textContent = text;
  $('feedback').className = `feedback ${tone}`;
};

const board = new Board($('board'), { onTurn: (m) => tryMove(m), say: (text) => say(text) });

const sideOf = (fen) => (fen.split(' ')[1] === 'w' ? 'white' : 'black');

async function ask(position, move) {
  const body = { position, rules: puzzle.rules };
  if (move) body.move = move;
  return judgePosition(body);
}

function show() {
  board.show({
    fen: current.pos.fen, legal: current.pos.legal, forbidden: current.pos.forbidden, closed: current.pos.closed,
    mine: state === 'solving', waiting: state === 'busy', browsing: false,
    // The solver's stones nearest the player.
    flipped: sideOf(puzzle.position) === 'black', lastMove, fresh,
  });
  $('retry').hidden = state !== 'wrong';
  $('solution').hidden = state !== 'wrong';
}

function renderStreak() {
  $('streak').textContent = String(store.get('streak', 0));
  $('best').textContent = String(store.get('best', 0));
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
  index = ((i % stream.length) + stream.length) % stream.length;
  puzzle = stream[index];
  store.set(`at.${$('difficulty').value}`, index);
  state = 'busy';
  missed = false;
  lastMove = null;
  fresh = null;
  $('progress').textContent = t('puzzle.progress', { n: index + 1, of: stream.length });
  $('puzzle-title').textContent = t('puzzle.to-move', { side: t(`side.${sideOf(puzzle.position)}`) });
  $('theme').textContent = t('puzzle.theme', { name: t(`puzzle.theme.${puzzle.theme}`) });
  $('ask').textContent = task(puzzle);
  $('checked').textContent = t('puzzle.checked', { margin: (puzzle.margin / 100).toFixed(1) });
  say('');
  current = await ask(puzzle.position);
  state = 'solving';
  show();
}

async function tryMove(text) {
  if (state !== 'solving') return;
  state = 'busy';
  show();
  const before = current;
  let answer;
  try {
    answer = await ask(before.pos.fen, text);
  } catch (e) {
    state = 'solving';
    say(t('verdict.failed', { reason: e.message }));
    show();
    return;
  }
  const verdict = answer.move;
  if (verdict.verdict !== 'legal') {
    state = 'solving';
    say(verdictText(text, verdict));
    show();
    return;
  }
  undo = { current: before, lastMove };
  current = { pos: verdict.pos, status: verdict.status };
  lastMove = verdict.m;
  if (verdict.m === puzzle.line[0]) {
    const streak = missed ? 0 : store.get('streak', 0) + 1;
    store.set('streak', streak);
    store.set('best', Math.max(streak, store.get('best', 0)));
    renderStreak();
    state = 'done';
    say(`${t('puzzle.right')} ${achieves(puzzle)}`, 'right');
    show();
    $('next').focus();
    playLine(1);
    return;
  }
  // Wrong: the streak ends, and the opponent's best answer the rules allow is named.
  missed = true;
  store.set('streak', 0);
  renderStreak();
  state = 'wrong';
  const takes = verdict.pos.legal.filter((m) => parseMove(m).captures.length);
  const them = sideOf(verdict.pos.fen);
  const move = verdict.m;
  let why;
  if (verdict.status.result !== '*') why = t('puzzle.wrong.ends', { move });
  else if (takes.length) why = t(`puzzle.wrong.answer.${them}`, { move, answer: takes[0] });
  else if (HOLDING.has(puzzle.theme)) why = t(`puzzle.wrong.later.${them}`, { move });
  else if (parseMove(verdict.m).captures.length) why = await captureWhy(move, verdict.pos.fen);
  else why = t(`puzzle.wrong.nothing.${them}`, { move });
  say(`${t('puzzle.wrong')} ${why}`, 'wrong');
  show();
  $('retry').focus();
}

// Why a capture was not the one: which stone (or which turn) the solution takes instead, by how
// much it comes out ahead (the puzzle's margin), and the opponent's best answer to the capture
// played, as the engine finds it (the server's, or the page's own offline; left out if the
// engine is busy).
async function captureWhy(move, fen) {
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
  for (let i = from; i < puzzle.line.length; i++) {
    await new Promise((resolve) => setTimeout(resolve, LINE_MS));
    if (state !== 'done') return;
    const answer = await ask(current.pos.fen, puzzle.line[i]);
    current = { pos: answer.move.pos, status: answer.move.status };
    lastMove = answer.move.m;
    fresh = { key: `${puzzle.id}.${i}`, move: answer.move.m };
    show();
  }
}

async function showSolution() {
  ({ current, lastMove } = undo);
  const answer = await ask(current.pos.fen, puzzle.line[0]);
  current = { pos: answer.move.pos, status: answer.move.status };
  lastMove = answer.move.m;
  state = 'done';
  say(t('puzzle.solution', { what: achieves(puzzle) }));
  show();
  $('next').focus();
  playLine(1);
}

function chooseDifficulty() {
  const level = Number($('difficulty').value);
  store.set('difficulty', level);
  stream = all.filter((p) => p.difficulty === level);
  if (!stream.length) stream = all;
  load(store.get(`at.${level}`, 0));
}

$('retry').addEventListener('click', () => {
  ({ current, lastMove } = undo);
  state = 'solving';
  say(t('puzzle.back'));
  show();
  board.focusCursor();
});
$('solution').addEventListener('click', showSolution);
$('next').addEventListener('click', async () => {
  // Skipping a puzzle unsolved ends the streak, as a wrong answer does.
  if (state !== 'done') { store.set('streak', 0); renderStreak(); }
  await load(index + 1);
  $('puzzle-title').focus();
});
$('difficulty').addEventListener('change', chooseDifficulty);
$('typed').addEventListener('submit', (e) => {
  e.preventDefault();
  const text = $('typed-input').value.trim();
  if (!text) return;
  $('typed-input').value = '';
  tryMove(text);
});

(async () => {
  const response = await fetch('/api/puzzles');
  all = await response.json();
  $('difficulty').value = String(store.get('difficulty', 1));
  renderStreak();
  chooseDifficulty();
})();
