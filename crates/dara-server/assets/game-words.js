// The game page's sentences: sides, turns, refusals and endings, worded in the page's language
// from the server's codes (PROTOCOL.md), with the server's English only for a code this page
// does not know.
import { parseMove } from './notation.js';
import { t, inWords, errorText, illegalText } from './i18n.js';
import { bothSeated } from './game-state.js';

// A side as the start of a sentence: "Pale", "Dark".
export const side = (colour) => t(`side.${colour}`);

export function refusalText(d) {
  if (d.code === 'illegal-move') {
    const why = illegalText(d.why);
    if (why) return why;
  }
  const key = `refusal.${d.code}`;
  const params = d.because ? { ...d, detail: errorText({ ...d.because, error: d.detail }) } : d;
  return d.code && t(key, params) !== key ? t(key, params) : d.reason;
}

// How a game ended, from its code.
function endReason(end) {
  const key = `end.${end.code}`;
  const params = { limit: end.limit, loser: end.loser && side(end.loser), idle: end.idle && side(end.idle), by: end.by && side(end.by) };
  return end.code && t(key, params) !== key ? t(key, params) : end.reason;
}

// To a player, `you`, a win or a loss is theirs ("You won"); to a watcher, and in what is shared
// with others, it is a side's ("Pale wins").
export function resultText(end, you = null) {
  const mine = you && end.winner ? t(end.winner === you ? 'end.you-won' : 'end.you-lost') : null;
  const head = mine ?? (end.winner ? t('end.wins', { side: side(end.winner) })
    : end.result === '*' ? t('end.no-result') : t('end.draw'));
  return t('end.result', { head, result: end.result, reason: endReason(end) });
}

// A turn in words, for the announcement: "Dark placed on f5", "Pale stepped d1 to c1 and took e4".
export function describeMove(text, mover) {
  const who = side(mover);
  const m = parseMove(text);
  if (m.kind === 'pass') return t('move.passed', { side: who });
  if (m.kind === 'put') return t('move.placed', { side: who, to: m.to });
  if (m.captures.length) return t('move.stepped-took', { side: who, from: m.from, to: m.to, taken: inWords(m.captures) });
  return t('move.stepped', { side: who, from: m.from, to: m.to });
}

// Whose turn it is and what to do: "Your turn: place a stone." (`choosing`: the person is
// choosing which stone to take).
export function turnText(game, choosing) {
  if (!game || game.end) return '';
  const mover = game.pos.side;
  const who = mover === game.you ? t('turn.yours') : t('turn.theirs', { side: side(mover) });
  if (mover === game.you && choosing) return t('turn.take', { who });
  return t(game.pos.phase === 'placement' ? 'turn.place' : 'turn.step', { who });
}

// The headline: whose turn and what to do, or how the game ended.
export function headline(game, choosing, linked = true) {
  if (game.end) return t('game.over', { result: resultText(game.end, game.you) });
  // While the link is down nobody's turn can be told for sure, and none is asked for.
  if (!linked) return t('game.link-down');
  if (bothSeated(game)) return turnText(game, choosing);
  // The person waiting at the table has the invitation (or the open table's note) saying so:
  // the headline keeps its one line for the turn, rather than two that shrink to one when the
  // opponent sits down and move what is under them (a layout shift on a phone's first screen).
  return game.you ? '' : t('game.waiting');
}

// A quick message in the reader's words: "Your opponent: Good game!" (a watcher reads the side).
export const phraseText = (phrase) => t(`phrase.${phrase}`);
export function saidLine(game, by, phrase) {
  const who = !game.you ? side(by) : by === game.you ? t('player.you') : t('player.opponent');
  return t('quick.line', { who, phrase: phraseText(phrase) });
}

export function playerName(game, colour) {
  const seat = game.seats[colour];
  if (seat.kind === 'computer') return t('player.computer', { level: seat.level });
  // A table called off before anyone sat down waits for nobody any more.
  if (seat.kind === 'open') return t(game.end ? 'player.nobody' : 'player.open');
  return colour === game.you ? t('player.you') : (game.you ? t('player.opponent') : t(`player.${colour}`));
}
