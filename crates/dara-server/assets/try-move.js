// A move tried on a teaching board, the guided first game's (learn.js) and the puzzles'
// (puzzles.js): the rules judge it (judge.js: the server, or the page's own module offline), a
// legal one is played on the board and the position before it kept for "Try again", and a
// refused one is said in the page's words. What the move means (the lesson's goal, the puzzle's
// solution) is the page's to judge. A trial is one object, changed only by the functions here;
// the page draws the board from it (`boardOf`).
import { judgePosition } from './judge.js';
import { t, verdictText } from './i18n.js';

export function newTrial(rules) {
  return {
    rules,
    current: null,  // the rules' answer for the position on the board: { pos, status }
    lastMove: null, // the move that led there, marked on the board
    fresh: null,    // a move played for the player (dark's reply, the solution's line), to show moving: { key, move }
    undo: null,     // the board before the move tried, for "Try again": { current, lastMove }
  };
}

// The rules' answer about `position` under the trial's rules, and about `move` played there
// when given.
function ask(trial, position, move) {
  const body = { position, rules: trial.rules };
  if (move) body.move = move;
  return judgePosition(body);
}

// Puts `position` on the board, nothing marked on it: a lesson's or a puzzle's start. Rejects,
// leaving the board as it was, if the rules give no answer.
export async function setUp(trial, position) {
  trial.lastMove = null;
  trial.fresh = null;
  trial.current = await ask(trial, position);
}

// Judges `text`, a whole turn, in the position on the board. Resolves to `{ played, before }`
// once it is played on the board (`played`: the rules' verdict, its move in `played.m`;
// `before`: the position it was played in), or to `{ refused }`, the reason in the page's
// words (not a legal turn here, or no answer from the rules).
export async function tryMove(trial, text) {
  const before = trial.current;
  let answer;
  try {
    answer = await ask(trial, before.pos.fen, text);
  } catch (e) {
    return { refused: t('verdict.failed', { reason: e.message }) };
  }
  const verdict = answer.move;
  if (verdict.verdict !== 'legal') return { refused: verdictText(text, verdict) };
  trial.undo = { current: before, lastMove: trial.lastMove };
  trial.current = { pos: verdict.pos, status: verdict.status };
  trial.lastMove = verdict.m;
  trial.fresh = null;
  return { played: verdict, before };
}

// Back to the board as it was before the move tried.
export function takeBack(trial) {
  ({ current: trial.current, lastMove: trial.lastMove } = trial.undo);
  trial.fresh = null;
}

// Plays `move` for the player (dark's scripted reply, a move of the solution), shown moving
// when `key` names it (a key the board has not shown move yet). Resolves to its move as the
// rules write it.
export async function playFor(trial, move, key = null) {
  const answer = await ask(trial, trial.current.pos.fen, move);
  const verdict = answer.move;
  trial.current = { pos: verdict.pos, status: verdict.status };
  trial.lastMove = verdict.m;
  if (key !== null) trial.fresh = { key: `${key} ${verdict.m}`, move: verdict.m };
  return verdict.m;
}

// What the board shows of the trial, for `board.show` with the page's own `mine`, `waiting`
// and `flipped`.
export function boardOf(trial) {
  const { pos } = trial.current;
  return {
    fen: pos.fen, legal: pos.legal, forbidden: pos.forbidden, closed: pos.closed,
    browsing: false, lastMove: trial.lastMove, fresh: trial.fresh,
  };
}
