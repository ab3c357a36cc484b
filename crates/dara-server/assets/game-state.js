// The game page's state: everything the page knows about its game and about the person in
// front of it, in one object. The server's messages change it (game-messages.js), the person's
// clicks change it (game.js), and the page is drawn from it (game-render.js); nothing else
// holds any.

export function newState({ gameId, token }) {
  return {
    gameId,
    token,               // the seat token, once the page holds a seat
    game: null,          // the snapshot, kept up to date by events
    presence: null,      // who is here, from the last presence message: { white, black, watchers, at }
    turnId: Date.now() % 1e9, // the id of the last turn sent
    clock: null,         // { white, black, running, at }: the last clock heard, and when
    joinAsked: false,    // the invite link asked for the free seat
    queueAhead: null,    // searches ahead of the computer's for this game, while it waits
    viewing: null,       // the ply whose position is shown while browsing; null: the live one
    unseen: 0,           // moves played since browsing began, not yet looked at
    awaiting: null,      // the number of plies when our turn was sent, until it is answered
    turnedRound: false,  // the person flipped the board from its usual way round
    fresh: null,         // the other side's last move, to show moving: { key, move }
    review: { asking: false, reviewed: null }, // the engine's review, once asked for
    confirmingDraw: false, // "Offer draw" pressed: the page asks before sending it
    premove: null,       // a step chosen in the opponent's turn, to play when it comes: 'c3-c4'
    premoveSteps: { fen: null, steps: [] }, // the steps the rules allow the person's stones in the
                         // position `fen`, were it their turn: what may be chosen ahead
    link: 'connected',   // the socket's state (connection.js): 'connected', 'reconnecting', ...
    said: [],            // the last quick messages heard on this page: [{ by, phrase }], oldest first
    hideOpponent: false, // the person hides the opponent's quick messages (kept in local storage)
  };
}

export const opponentOf = (colour) => (colour === 'white' ? 'black' : 'white');

export const bothSeated = (game) => game.seats.white.kind !== 'open' && game.seats.black.kind !== 'open';

// The ply whose position the board shows: the last one unless an earlier one is looked at.
export const shownPly = (state) => (state.viewing === null ? state.game.moves.length : state.viewing);

// Whether the person's own turn may be played on the board now.
export function mayPlay(state, sending) {
  const { game } = state;
  const waiting = sending || state.awaiting !== null;
  return !game.end && !!game.you && game.pos.side === game.you && bothSeated(game) && !waiting && state.viewing === null;
}

// Whether a step may be chosen ahead, in the opponent's turn: in a game between people, once
// the person's stones are all on the board (the server adds nothing: the page plays it when
// the opponent's move arrives).
export function mayPremove(state) {
  const { game } = state;
  if (!game.you || game.end || game.opponent === 'computer' || !bothSeated(game) || state.viewing !== null) return false;
  return game.pos.side !== game.you && game.pos.hand[game.you] === 0;
}

// Quick messages are for games between people: their players say them, and watchers read them.
export const quickMessages = (game) => game.opponent !== 'computer';

// How many quick messages the page keeps showing: the newest few.
export const SAID_SHOWN = 4;

// Whether the sounds are muted, which the browser remembers: read as the page is drawn, and by
// the sounds (sound.js), fetched only once the person first presses or types. Kept here, in a
// module the page has anyway, rather than in one of its own (a request more before the page is
// usable: some 0.5 KB of the game page's budget).
const SOUND = 'dara.sound';
export const muted = () => localStorage.getItem(SOUND) === 'off';
export const setMuted = (off) => localStorage.setItem(SOUND, off ? 'off' : 'on');
