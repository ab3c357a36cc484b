// The analysis board: a game record or a position, pasted or linked (`#rules=…&start=…&moves=…`
// from a finished game), stepped through, with the engine's evaluation, best turn and line for
// the position shown. A turn played on the board from the position shown plays out a variation:
// the moves after it give way to it, and "Back to the game" brings them back. The server reads
// the record (POST /api/record), lists and judges the turns (POST /api/position) and searches
// (POST /api/analysis, with its endgame tables); this page draws. Without the server the page's
// own modules read the record and judge the turns (judge.js) and search (study.js), and the page
// says that the endgame tables are not at hand. Everything the page knows is one state object,
// changed by the named functions below and drawn by `render`.
import { judgePosition, readRecord } from './judge.js';
import { Board, renderMoveList } from './board.js';
import { parseMove, moveNumbers, moversOf, moveCount } from './notation.js';
import { evaluationText } from './review.js';
import { analyse } from './study.js';
import { analysisLink, shareLink } from './share.js';
import { t, lang, verdictText } from './i18n.js';

const $ = (id) => document.getElementById(id);
const NS = 'http://www.w3.org/2000/svg';
// A position shown this long is searched: stepping quickly through a game asks nothing
// meanwhile.
const SETTLE_MS = 250;
// After this long the page says why: games in play come first.
const PATIENCE_MS = 800;

const state = {
  study: { rules: 'arcade', start: null, moves: [], positions: [] },
  shown: 0,
  // The game as it was read, while a variation is shown instead; and the ply the variation
  // leaves it at (null: the game's own moves are shown).
  game: null,
  branch: null,
  // The rules' answer for the position shown (its legal turns and closed cells), once it came.
  here: null,
  // The engine's view of the position shown: what it is doing, in words, and what it found
  // (an answer with a best turn), once it did.
  engine: { status: '', found: null },
  searching: null, // { controller, timer, patience } of the search for the position shown
  importError: '',
  // Each read is numbered: only the latest one's answer is shown. The empty board read as the
  // page opens may answer after a record pasted at once (slower, or from the page's module
  // offline), and must not put the start back in its place.
  reads: 0,
};

const say = (text) => { $('announce').textContent = text; };
const board = new Board($('board'), { onTurn: (m) => play(m), say });

// Reads what was pasted: a record through the server (or the page's module, offline); a position
// as it is, under the rules given.
async function load(text, rules) {
  const trimmed = text.trim();
  if (!trimmed) throw new Error(t('analysis.paste-first'));
  const isPosition = !trimmed.includes('[') && !/\d\.\s/.test(trimmed) && trimmed.split(/\s+/).length === 5;
  const record = isPosition
    ? `[Rules "${rules.trim() || 'arcade'}"]\n[Position "${trimmed}"]\n\n*\n`
    : trimmed;
  const read = await readRecord(record);
  return { rules: read.rules, start: read.start, moves: read.moves, positions: read.positions };
}

function show(ply) {
  const { study } = state;
  // Nothing read yet (a record refused): no position to show or step through.
  if (study.positions.length === 0) return;
  state.shown = Math.max(0, Math.min(study.moves.length, ply));
  state.here = null;
  search();
  render();
  listTurns();
}

// The turns that may be played in the position shown, from the server, so that the board
// takes them; a position no longer shown when the answer comes is let be.
async function listTurns() {
  const ply = state.shown;
  const fen = state.study.positions[ply];
  try {
    const answer = await judgePosition({ position: fen, rules: state.study.rules });
    if (ply !== state.shown || fen !== state.study.positions[ply]) return;
    state.here = answer;
    render();
  } catch (e) {
    if (ply === state.shown) say(t('analysis.failed', { reason: e.message }));
  }
}

// A turn played on the board: the next move of the line shown if it is that one, else a
// variation from here, in place of the moves that followed.
async function play(m) {
  const ply = state.shown;
  const fen = state.study.positions[ply];
  let answer;
  try {
    answer = await judgePosition({ position: fen, rules: state.study.rules, move: m });
  } catch (e) {
    say(t('analysis.failed', { reason: e.message }));
    return;
  }
  const { study } = state;
  if (ply !== state.shown || fen !== study.positions[ply]) return;
  const verdict = answer.move;
  if (verdict.verdict !== 'legal') {
    say(verdictText(m, verdict));
    return;
  }
  if (study.moves[ply] !== verdict.m) {
    if (state.branch === null) state.game = study;
    state.branch = state.branch === null ? ply : Math.min(state.branch, ply);
    state.study = {
      ...study,
      moves: [...study.moves.slice(0, ply), verdict.m],
      positions: [...study.positions.slice(0, ply + 1), verdict.pos.fen],
    };
  }
  show(ply + 1);
}

// Back to the game's own moves, at the position the variation left them.
function backToGame() {
  if (state.branch === null) return;
  const at = state.branch;
  Object.assign(state, { study: state.game, game: null, branch: null });
  show(at);
  $('first').focus();
}

function render() {
  const { study, shown, here, branch } = state;
  $('import-error').textContent = state.importError;
  if (study.positions.length === 0) return;
  $('rules').textContent = study.rules;
  const fen = study.positions[shown];
  const lastMove = shown > 0 ? study.moves[shown - 1] : null;
  // Either side's turn may be played, once the server has listed them; none after the end.
  const pos = here && here.pos;
  const open = !!pos && here.status.result === '*';
  board.show({
    fen, legal: open ? pos.legal : [], forbidden: open ? pos.forbidden : {}, closed: open ? pos.closed : {},
    mine: open, waiting: !pos, browsing: false, lastMove, flipped: false,
  });
  // Numbered as the record numbers them (moveNumbers, notation.js).
  const numbers = moveNumbers(moversOf(study.positions));
  const at = numbers[shown - 1];
  $('shown').textContent = shown === 0 ? t('analysis.at-start')
    : t('analysis.after', { label: at.label, move: lastMove, number: at.number, moves: moveCount(numbers) });
  $('variation').hidden = branch === null;
  if (branch !== null) $('variation-note').textContent = t('analysis.variation', { n: numbers[branch].label });
  $('first').disabled = $('prev').disabled = shown === 0;
  $('last').disabled = $('next').disabled = shown === study.moves.length;
  renderMoveList($('moves'), study.moves, numbers, shown, show);
  renderEngine();
}

// The engine's view: its status, and what it found, in words and drawn on the board.
function renderEngine() {
  const { status, found } = state.engine;
  $('engine-status').textContent = status;
  const side = found && t(`side.${found.side}`);
  $('evaluation').textContent = found ? t('analysis.evaluation', { words: evaluationWords(found, side) }) : '';
  $('best').textContent = found ? t('analysis.best', { side, move: found.best }) : '';
  $('line').textContent = found ? t('analysis.line', { line: found.line.join(' ') }) : '';
  drawBest(found && found.best);
}

// What the engine is doing about the position shown, in words.
function engineSays(status) {
  state.engine = { ...state.engine, status };
  renderEngine();
}

// The engine's view of the position shown, asked once it has been shown a moment; a search
// for a position no longer shown is called off (the server drops it when the request goes).
function search() {
  const asking = state.searching;
  if (asking) { clearTimeout(asking.timer); clearTimeout(asking.patience); asking.controller.abort(); }
  const controller = new AbortController();
  const ply = state.shown;
  state.engine = { status: t('analysis.looking'), found: null };
  const timer = setTimeout(async () => {
    const patience = setTimeout(() => engineSays(t('analysis.busy')), PATIENCE_MS);
    state.searching.patience = patience;
    try {
      const { study } = state;
      const body = { rules: study.rules, start: study.start, moves: study.moves.slice(0, ply) };
      // The server's queue is not the page's: once the page searches, the wait is not for games.
      const found = await analyse(body, controller.signal, () => {
        clearTimeout(patience);
        if (ply === state.shown) engineSays(t('analysis.looking-here'));
      });
      clearTimeout(patience);
      if (ply !== state.shown) return;
      showFound(found);
    } catch (e) {
      clearTimeout(patience);
      if (e.name === 'AbortError' || ply !== state.shown) return;
      // The one before may not have been called off yet: ask again in a moment.
      if (e.status === 429) { setTimeout(() => { if (ply === state.shown) { search(); renderEngine(); } }, 400); return; }
      engineSays(t('analysis.failed', { reason: e.message }));
    }
  }, SETTLE_MS);
  state.searching = { controller, timer, patience: null };
}

function showFound(found) {
  if (!found.best) {
    engineSays(t('analysis.over'));
    return;
  }
  const params = { depth: found.depth, nodes: found.nodes.toLocaleString(lang), seconds: (found.waitedMs / 1000).toFixed(1) };
  // Searched in the page (no answer from the server): no tables, and the reader is told so.
  const searched = found.inPage ? 'analysis.searched-here' : found.waitedMs > 50 ? 'analysis.searched-waited' : 'analysis.searched';
  state.engine = { status: t(searched, params), found };
  renderEngine();
}

// The evaluation of what the engine found, in words: a win or a loss in so many plies, else
// in stones; exactly, from the endgame tables, where they know it (plies counted to the next
// capture).
function evaluationWords(found, side) {
  const s = found.score;
  const forPale = 'cp' in s ? (found.side === 'white' ? s.cp : -s.cp) : null;
  let words;
  if ('win' in s) words = t('analysis.wins-in', { side, count: s.win });
  else if ('loss' in s) words = t('analysis.loses-in', { side, count: s.loss });
  else words = t('analysis.in-stones', { evaluation: evaluationText(forPale) });
  const tb = found.tablebase;
  if (tb === 'drawn') words = t('analysis.tb-drawn');
  else if (tb && 'win' in tb) words = t('analysis.tb-win', { side, count: tb.win });
  else if (tb && 'loss' in tb) words = t('analysis.tb-loss', { side, count: tb.loss });
  return words;
}

// The best turn on the board: an arrow for a step (rings on the stones it takes), a ring for
// a placement. Drawn over the board, which knows nothing of it.
function drawBest(text) {
  const svg = $('board').querySelector('svg.board');
  if (!svg) return;
  svg.querySelector('.best-move')?.remove();
  if (!text) return;
  const m = parseMove(text);
  if (m.kind === 'pass') return;
  const g = document.createElementNS(NS, 'g');
  g.setAttribute('class', 'best-move');
  g.setAttribute('aria-hidden', 'true');
  const at = (name) => board.xy(name);
  const ring = (name, cls) => {
    const [x, y] = at(name);
    const c = document.createElementNS(NS, 'circle');
    for (const [k, v] of Object.entries({ cx: x, cy: y, r: 42, class: cls })) c.setAttribute(k, String(v));
    g.appendChild(c);
  };
  if (m.kind === 'put') ring(m.to, 'best-ring');
  if (m.kind === 'step') {
    const [x1, y1] = at(m.from);
    const [x2, y2] = at(m.to);
    const line = document.createElementNS(NS, 'line');
    for (const [k, v] of Object.entries({ x1, y1, x2, y2, class: 'best-arrow' })) line.setAttribute(k, String(v));
    g.appendChild(line);
    ring(m.to, 'best-ring');
    for (const c of m.captures || []) ring(c, 'best-take');
  }
  svg.appendChild(g);
}

async function importFrom(text, rules) {
  const read = ++state.reads;
  try {
    const loaded = await load(text, rules);
    if (read !== state.reads) return;
    Object.assign(state, { study: loaded, game: null, branch: null, importError: '' });
    show(loaded.moves.length);
  } catch (e) {
    if (read !== state.reads) return;
    state.importError = t('analysis.unreadable', { reason: e.message });
    render();
  }
}

$('import').addEventListener('submit', (e) => {
  e.preventDefault();
  importFrom($('import-text').value, $('import-rules').value);
});
$('first').addEventListener('click', () => show(0));
$('prev').addEventListener('click', () => show(state.shown - 1));
$('next').addEventListener('click', () => show(state.shown + 1));
$('last').addEventListener('click', () => show(Infinity));
$('back-to-game').addEventListener('click', backToGame);
document.addEventListener('keydown', (e) => {
  if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
  // On the board the arrows move between its cells, to play a turn.
  if (e.target.closest && e.target.closest('input, textarea, select, svg.board')) return;
  const to = { ArrowLeft: state.shown - 1, ArrowRight: state.shown + 1, Home: 0, End: Infinity }[e.key];
  if (to === undefined) return;
  e.preventDefault();
  show(to);
});

// The position shown, as a link that opens it here (the position in the address's fragment).
$('share-position').addEventListener('click', () => {
  const { study, shown } = state;
  if (study.positions.length === 0) return;
  const url = analysisLink({ rules: study.rules, start: study.positions[shown] });
  shareLink({ title: document.title, text: t('share.position-text'), url }, say);
});

// A link from a finished game: `#rules=…&start=…&moves=c3,d4,…` (in the fragment, so the game
// never reaches the server's logs); else the empty board under the Arcade's rules.
const hash = new URLSearchParams(location.hash.slice(1));
if (hash.has('moves') || hash.has('start')) {
  const rules = hash.get('rules') || 'arcade';
  const start = hash.get('start');
  const moves = (hash.get('moves') || '').split(',').filter(Boolean);
  const tags = `[Rules "${rules}"]\n${start ? `[Position "${start}"]\n` : ''}`;
  // The moves unnumbered: the record's reader numbers them itself (dark may start, pale may
  // move twice in a row when the movement phase begins), where numbers by alternation would be
  // refused.
  const numbered = moves.join(' ');
  // The game's result as it ended ("1-0" when the rules ended it: "*" would be refused), or
  // "*" from an older link that has none.
  const result = ['1-0', '0-1', '1/2-1/2'].includes(hash.get('result')) ? hash.get('result') : '*';
  const record = `${tags}\n${numbered ? `${numbered} ` : ''}${result}\n`;
  $('import-text').value = record;
  importFrom(record, rules);
} else {
  importFrom('6/6/6/6/6 w 12 12 0', 'arcade');
}
