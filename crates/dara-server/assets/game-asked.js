// A takeback asked of a person (PROTOCOL.md, "Takebacks between people"), in a game on the
// server: the request's note and its answers. A module of its own, loaded with the server's
// socket (game.js), because a game against the computer takes back at once and needs none of
// it: its page stays within its byte budget. Its parts are made here, not in game.html, for the
// same reason.
import { t } from './i18n.js';

const $ = (id) => document.getElementById(id);
const make = (tag, id, key, after) => {
  const el = document.createElement(tag);
  el.id = id;
  el.hidden = true;
  if (tag === 'button') el.type = 'button';
  if (key) el.textContent = t(key);
  after.after(el);
  return el;
};
let note, yes, no, cancel;

// The note under the turn, and Accept, Decline and Withdraw beside Take back, sent over `conn`;
// drawn with the rest of the page (`view.asked`, called by game-render.js).
export function setUp(conn, view) {
  const send = (type) => conn.send(type);
  view.asked = render;
  note = make('p', 'tb-note', null, $('offer-note'));
  note.className = 'note';
  yes = make('button', 'tb-yes', 'game.tb-yes', $('takeback'));
  no = make('button', 'tb-no', 'game.tb-no', yes);
  cancel = make('button', 'tb-cancel', 'game.tb-cancel', no);
  cancel.className = 'secondary';
  yes.onclick = () => send('takeback-accept');
  no.onclick = () => send('takeback-decline');
  cancel.onclick = () => send('takeback-withdraw');
}

const ENDS = { 'takeback-decline': 'declined', 'takeback-withdraw': 'withdrawn' };

// Reads every message after game-messages.js: a request lapses with a move or a takeback (the
// snapshot says whether one stands). Whether the message was its own. A watcher is told nothing
// of a request: it is the players' matter, and "your opponent" is nobody's there.
export function receive(state, msg, page) {
  const { game } = state;
  if (msg.t === 'move' || msg.t === 'takeback') game.takebackOffer = null;
  const by = msg.t === 'takeback-offer' ? msg.d.by : null;
  const word = by ? (by === game.you ? 'asked' : 'asks') : ENDS[msg.t];
  if (!word) return false;
  game.takebackOffer = by;
  // A standing request is shown in its note; the status says how it ended.
  if (game.you) page.say(t(`game.tb-${word}`), { shown: !by });
  return true;
}

// Take back asks the opponent while no request stands; the one standing is answered by the
// opponent, or withdrawn by its asker. Nothing of it for a watcher.
function render(state) {
  const { game } = state;
  const playing = !!game.you && !game.end;
  const asker = playing && game.takebackOffer;
  $('takeback').hidden = !playing || !game.moves.length || !!asker;
  note.hidden = !asker;
  if (asker) note.textContent = t(asker === game.you ? 'game.tb-asked' : 'game.tb-asks');
  yes.hidden = no.hidden = !asker || asker === game.you;
  cancel.hidden = !asker || asker !== game.you;
}
