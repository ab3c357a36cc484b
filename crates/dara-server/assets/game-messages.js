// The server's messages to the game page (PROTOCOL.md), each bringing the state up to date.
// `page` is what else a message may do (`effects` in game.js).
import { parseMove, parsePosition } from './notation.js';
import { t, cap } from './i18n.js';
import { clockAt } from './game-clock.js';
import { bothSeated, SAID_SHOWN } from './game-state.js';
import { side, describeMove, resultText, turnText, refusalText, phraseText, saidLine } from './game-words.js';

// The person's turn has come while their page is hidden (another tab, another window): a sound
// calls them back, beside the tab's title.
function callIfAway(game, page) {
  if (game.you && !game.end && game.pos.side === game.you && bothSeated(game) && page.hidden()) page.play('your-turn');
}

export const HANDLERS = {
  snapshot(state, d, page) {
    state.game = d;
    const game = d;
    state.awaiting = null;
    if (state.viewing !== null && state.viewing >= game.moves.length) state.viewing = null;
    game.lastMove = d.moves.length ? d.moves[d.moves.length - 1] : null;
    state.clock = clockAt(d.clock);
    // A reload (or a page opened mid-game) still says what the last move was, as the move
    // event said it: the highlight alone does not.
    if (game.lastMove && !game.end) {
      const before = parsePosition(game.positions[game.moves.length - 1]);
      const mover = before.side === 'b' ? 'black' : 'white';
      page.say(`${describeMove(game.lastMove, mover)}. ${turnText(game, false)}`);
    }
    if (!game.you && !state.token && !state.joinAsked && (d.seats.white.kind === 'open' || d.seats.black.kind === 'open')) {
      // The invite link: the first to open it takes the free seat.
      state.joinAsked = true;
      page.send('join');
    }
  },

  joined(state, d, page) {
    state.token = d.seat;
    page.keepSeat(state.gameId, d.seat);
    state.game.you = d.colour;
    page.say(t(`game.you-have.${d.colour}`));
  },

  seated(state, d, page) {
    state.game.seats[d.colour] = { kind: 'human' };
    state.clock = clockAt(d.clock);
    callIfAway(state.game, page);
    page.say(t('game.sat-down', { side: side(d.colour) }));
  },

  move(state, d, page) {
    const { game } = state;
    // The mover is the side to move before it: turns need not alternate when the movement
    // phase begins.
    const mover = game.pos.side;
    // `ply` counts this turn: the lists are cut to what came before it, then the turn added.
    game.moves.length = d.ply - 1;
    game.moves.push(d.m);
    game.positions.length = d.ply;
    game.positions.push(d.pos.fen);
    game.pos = d.pos;
    game.lastMove = d.m;
    game.drawOffer = null;
    if (state.awaiting !== null && d.ply > state.awaiting) state.awaiting = null;
    if (state.viewing !== null) state.unseen += 1;
    if (mover !== game.you) state.fresh = { key: `${d.ply} ${d.m}`, move: d.m };
    state.clock = clockAt(d.clock);
    page.play(parseMove(d.m).captures.length ? 'capture' : 'move');
    callIfAway(game, page);
    page.say(`${describeMove(d.m, mover)}. ${turnText(game, page.choosing())}`);
  },

  takeback(state, d, page) {
    const { game } = state;
    game.moves.length = d.ply;
    game.positions.length = d.ply + 1;
    game.pos = d.pos;
    game.end = null;
    game.lastMove = game.moves[game.moves.length - 1] || null;
    game.drawOffer = null;
    state.clock = clockAt(d.clock);
    state.awaiting = null;
    if (state.viewing !== null && state.viewing >= d.ply) state.viewing = null;
    page.say(`${t('game.took-back', { count: d.plies })} ${turnText(game, page.choosing())}`);
  },

  berserk(state, d) {
    Object.assign(state.clock, d.clock);
    (state.game.berserk ||= []).push(d.colour);
  },

  'draw-offer'(state, d, page) {
    state.game.drawOffer = d.by;
    const text = d.by === state.game.you ? t('game.you-offered') : t('game.offers-draw', { side: side(d.by) });
    page.say(text, { shown: false });
  },

  'draw-decline'(state, d, page) {
    state.game.drawOffer = null;
    page.say(t('game.draw-declined'));
  },

  'draw-withdraw'(state, d, page) {
    state.game.drawOffer = null;
    page.say(d.by === state.game.you ? t('game.you-withdrew') : t('game.withdrew', { side: side(d.by) }));
  },

  end(state, d, page) {
    state.game.end = d;
    state.confirmingDraw = false;
    state.clock = clockAt(d.clock);
    page.endDialogs();
    page.play('end');
    page.say(t('game.over', { result: resultText(d, state.game.you) }));
  },

  'rematch-offer'(state, d, page) {
    const { game } = state;
    game.rematchOffer = d.by;
    // A watcher is told who asks, never "your opponent".
    const text = !game.you ? t('game.asks-rematch', { side: side(d.by) })
      : d.by === game.you ? t('game.you-asked-rematch') : t('game.opponent-asks-rematch');
    page.say(text);
  },

  rematch(state, d, page) {
    state.game.rematch = d.game;
    if (state.game.you) {
      // Same person, same token, other colour: take the seat in the next game (one played in
      // the page has no token: the browser holds it).
      if (state.token) page.keepSeat(d.game, state.token);
      page.openGame(d.game);
    }
  },

  presence(state, d) {
    state.presence = { ...d, at: performance.now() };
  },

  // A quick message, never kept: shown in the list and said once to a screen reader (the
  // person's own as "You said", their button's press having said nothing); the opponent's not at
  // all while they are hidden.
  said(state, d, page) {
    const { game } = state;
    const mine = !!game.you && d.by === game.you;
    if (game.you && !mine && state.hideOpponent) return;
    state.said.push({ by: d.by, phrase: d.phrase });
    state.said.splice(0, state.said.length - SAID_SHOWN);
    page.announce(mine ? t('quick.you-said', { phrase: phraseText(d.phrase) }) : saidLine(game, d.by, d.phrase));
  },

  queue(state, d) {
    state.queueAhead = d.ahead;
  },

  accepted() {},

  // The turn waits in the connection, sent again until the server can keep it.
  paused(state, d, page) {
    page.say(t('game.saving-paused'));
  },

  rejected(state, d, page) {
    state.awaiting = null;
    page.say(t('game.not-played', { reason: refusalText(d) }));
  },

  error(state, d, page) {
    // A page without a seat asks for nothing but the link's free seat: refused (taken first,
    // or not kept now), it watches, and asks again at its next snapshot if the seat is free.
    if (state.joinAsked && !state.token) state.joinAsked = false;
    page.say(cap(refusalText(d)));
  },
};

// Applies one message; whether the page is to be drawn again (an unknown one changes nothing).
export function receive(state, msg, page) {
  // Whatever happens to the game, the computer's search it waited for is done or called off.
  if (msg.v !== undefined) state.queueAhead = null;
  const handle = Object.hasOwn(HANDLERS, msg.t) ? HANDLERS[msg.t] : null;
  if (!handle) return false;
  handle(state, msg.d, page);
  return true;
}
