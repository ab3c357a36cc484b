// The game page: one game, for its players and its watchers. The server sends a snapshot, then
// numbered events; each is applied to the page's one state (game-messages.js), and the page is
// drawn from that state (game-render.js). This file ties them to the board, the socket and the
// buttons: what the person does.
import { Board } from './board.js';
import { t, keysUnder } from './i18n.js';
import { newState, shownPly, mayPlay, mayPremove, muted, setMuted } from './game-state.js';
import { receive } from './game-messages.js';
import { render, renderTurn, renderTick, renderMute } from './game-render.js';
// The rules' answer (judge.js) and sharing (share.js) are fetched when first needed, not
// with the page: a game's page stays within its byte budget (weight.test.js).
const judge = () => import('./judge.js');
const sharing = () => import('./share.js');
// So is the review's (review.js), once a finished game's review is asked for.
const reviewing = () => import('./review.js');
import { resultText } from './game-words.js';
// The seek (seek.js), fetched by a page waiting at its open table: the table is the browser's
// while it waits, and every page of the Arcade calls the person when someone sits down.
let seek = null;
// The sounds (sound.js), fetched at the person's first press or key (see unlockSound).
let sounds = null;

const $ = (id) => document.getElementById(id);
const storeKey = (id) => `dara.seat.${id}`;
const gameId = location.pathname.split('/')[2];
// A game against the computer played in this page (page-table.js) lives at /computer/<id>; a
// game on the server at /g/<id>.
const inPage = location.pathname.startsWith('/computer/');
// Each kind of game fetches only its own link to the game, the page's table or the server's
// socket (game-early.js starts that fetch with the page's first bytes): a game on the server
// never needs the page's table and engine, nor one in the page the socket.
const pageTable = inPage ? await import('./page-table.js') : null;
// With the socket, takebacks asked of a person (game-asked.js): none against the computer.
const [Link, asked] = inPage ? [pageTable.PageConnection] : await Promise.all([import('./connection.js').then((m) => m.Connection), import('./game-asked.js')]);

// The seat token: from the seat's link (then remembered), or remembered from before. It is
// never written into the address bar: a player copying the address to invite someone must not
// hand over their seat.
function seatToken() {
  const fromLink = new URLSearchParams(location.hash.slice(1)).get('seat');
  if (fromLink) localStorage.setItem(storeKey(gameId), fromLink);
  return fromLink || localStorage.getItem(storeKey(gameId));
}

const state = newState({ gameId, token: seatToken() });
// Hiding the opponent's quick messages is the person's choice on this browser, for every game.
const HIDE_SAID = 'dara.quick.hide-opponent';
state.hideOpponent = localStorage.getItem(HIDE_SAID) === '1';

// Tells screen readers, and shows the same under the headline unless `shown` is false (the
// page already shows it elsewhere, as the note of a standing draw offer).
function say(text, { shown = true } = {}) {
  $('announce').textContent = text;
  $('status-note').textContent = shown ? text : '';
}

const board = new Board($('board'), {
  onTurn: (m) => playTurn(m),
  say,
  onChange: () => renderTurn(state, view),
  onPremove: (step) => setPremove(step),
});

const conn = new Link(gameId, {
  seat: state.token,
  onMessage: (msg) => {
    if (leaving && msg.t === 'end') { leaveTable(); return; }
    const known = receive(state, msg, effects);
    if (!(asked?.receive(state, msg, effects) || known)) return;
    draw();
    if (msg.t === 'move' || msg.t === 'takeback' || msg.t === 'end') playPremove();
  },
  onState: (s, params) => {
    state.link = s;
    renderTurn(state, view);
    // Away from any network, a game with a person says what it needs (it still tries again).
    const said = s === 'reconnecting' && !navigator.onLine ? 'offline' : s;
    const text = s === 'connected' ? '' : t(`connection.${said}`, params);
    $('connection-text').textContent = text;
    $('connection').hidden = !text;
    $('retry-now').hidden = s !== 'reconnecting';
  },
});

// What the page gives the drawing: the board and what it knows beyond the state.
const view = {
  board,
  sending: () => conn.sending(),
  choosing: () => board.choosingCapture(),
  muted: () => muted(),
  view: (ply) => showPly(ply),
  review: null, // review.js, once a review is asked for: the marks, the graph and the notes
};
asked?.setUp(conn, view);

// What a server message may do beyond changing the state.
const effects = {
  say,
  announce: (text) => { $('announce').textContent = text; },
  send: (type) => conn.send(type),
  play: (kind) => sounds?.then((sound) => sound.play(kind)),
  keepSeat: (id, token) => {
    localStorage.setItem(storeKey(id), token);
    if (id === gameId) conn.setSeat(token);
  },
  go: (url) => { location.href = url; },
  openGame: (id) => { location.href = inPage ? pageTable.computerGameUrl(id) : `/g/${id}`; },
  endDialogs: () => { if ($('resign-dialog').open) $('resign-dialog').close(); },
  choosing: () => board.choosingCapture(),
  hidden: () => document.hidden,
};

const draw = () => {
  render(state, view);
  askPremoveSteps();
  const { game } = state;
  if (game?.you && game.opponent === 'open') {
    seek ??= import('./seek.js');
    seek.then((module) => module.atTable(gameId, game));
  }
};

// In the opponent's turn, the steps the person's stones may take were it their turn: asked of
// the rules (the server's `POST /api/position`, or table.wasm offline) about this position with
// the person to move and the hands empty, once a position; the page derives none itself.
async function askPremoveSteps() {
  const { game } = state;
  if (!game || !mayPremove(state) || state.premoveSteps.fen === game.pos.fen) return;
  const fen = game.pos.fen;
  state.premoveSteps = { fen, steps: [] };
  const [stones, , , , quiet] = fen.split(' ');
  const position = `${stones} ${game.you === 'white' ? 'w' : 'b'} 0 0 ${quiet}`;
  try {
    const { judgePosition } = await judge();
    const answer = await judgePosition({ position, rules: game.rules });
    const steps = answer.pos.legal.filter((m) => m.includes('-')).map((m) => m.split('x')[0]);
    if (state.premoveSteps.fen !== fen) return;
    state.premoveSteps = { fen, steps: [...new Set(steps)] };
    render(state, view);
  } catch {
    // No answer: nothing is offered ahead, and the turn is played when it comes.
  }
}

// The room kept from the first paint (game-early.js) is the snapshot's to keep or give back
// from now on; its words leave the address, so that a reload later in the game does not keep
// an invitation's room before the snapshot comes.
if (document.documentElement.classList.contains('inviting')) {
  const hints = new URLSearchParams(location.hash.slice(1));
  for (const hint of ['invite', 'you', 'clock']) hints.delete(hint);
  history.replaceState(null, '', `${location.pathname}#${hints}`);
}

// A turn is sent once: until its move event (or a rejection) arrives the board offers nothing
// more, so a double click or a second Enter cannot send another, and the page says it is
// sending (the connection resends it, same id, if the link drops meanwhile). The server's
// `accepted` can come before the move event: the board waits for the event, which brings the
// next position.
function playTurn(m) {
  if (conn.sending() || state.awaiting !== null || state.viewing !== null) return;
  state.awaiting = state.game.moves.length;
  state.turnId += 1;
  conn.sendTurn(state.turnId, m);
  // A game in the page is answered at once: nothing is sent, and "Sending" would stay up
  // while the computer thinks.
  if (!inPage) say(t('game.sending', { move: m }));
  draw();
}

// A step chosen in the opponent's turn (null: let go), shown on the board until it is played.
function setPremove(step) {
  state.premove = step;
  say(step ? t('game.premove-set', { move: step }) : t('game.premove-cancelled'));
  draw();
}

// The opponent has moved: the step chosen ahead is played at once if the position allows it
// (the stone to take chosen on the board when there is a choice), and let go if not.
function playPremove() {
  const step = state.premove;
  if (!step) return;
  if (!mayPlay(state, conn.sending())) {
    // Still the opponent's turn (they took a stone and move again, say): it waits. Over: gone.
    if (state.game.end || !mayPremove(state)) { state.premove = null; draw(); }
    return;
  }
  state.premove = null;
  const [from, to] = step.split('-');
  if (!board.startStep(from, to)) {
    say(t('game.premove-illegal', { move: step }));
    draw();
  }
}

// Shows the position after `ply` turns (the live one when `ply` is the last).
function showPly(ply) {
  if (!state.game) return;
  const last = state.game.moves.length;
  const next = Math.max(0, Math.min(last, ply));
  state.viewing = next === last ? null : next;
  if (state.viewing === null) state.unseen = 0;
  board.cancel();
  draw();
  const current = $('moves').querySelector('[aria-current="true"]');
  if (current) current.scrollIntoView({ block: 'nearest' });
}

async function startReview() {
  $('review').hidden = false;
  state.review.asking = true;
  $('review-status').textContent = t('review.working');
  draw();
  try {
    const { fetchReview, fillTable, summary, sideNames } = view.review = await reviewing();
    state.review.reviewed = await fetchReview(state.game);
    // Made in the page, the server away: said, as its endgame tables were not used.
    $('review-status').textContent = state.review.reviewed.inPage ? t('review.in-page') : '';
    const names = sideNames(state.game.you, state.game.opponent);
    $('review-summary').textContent = summary(state.review.reviewed, names);
    fillTable($('review-table'), state.review.reviewed, showPly, names);
    $('review-body').hidden = false;
  } catch (e) {
    $('review-status').textContent = t('review.failed', { reason: e.message });
  }
  state.review.asking = false;
  draw();
}

function copy(text, done) {
  navigator.clipboard.writeText(text).then(() => say(done), () => say(t('game.copy-by-hand')));
}

$('retry-now').addEventListener('click', () => conn.retryNow());
// Leaving an open table before anyone sat down: the seat is forgotten here, and the page goes
// home; the socket closing takes the table off the list (the server lists a table only while
// the person waiting at it is connected).
// Cancel calls the table off rather than only leaving it: it comes off every list at once, and
// any other tab of this browser waiting at it hears that it is over, where a table left open in
// another tab would stay listed for anyone to sit at, this browser included. The page goes home
// once the server has ended it, or after a second if the line is down (the table then closes
// when no tab is left at it).
let leaving = false;
function leaveTable() {
  localStorage.removeItem(storeKey(gameId));
  location.href = '/';
}
$('leave-table').addEventListener('click', () => {
  leaving = true;
  seek?.then((module) => module.forget(gameId));
  conn.send('abort');
  setTimeout(leaveTable, 1000);
});
// Resigning asks first, in the page: a dialog that holds the focus, Escape or "Keep playing"
// closing it, and the focus back on the resign button after.
$('resign').addEventListener('click', () => $('resign-dialog').showModal());
$('resign-cancel').addEventListener('click', () => $('resign-dialog').close());
$('resign-confirm').addEventListener('click', () => {
  $('resign-dialog').close();
  conn.send('resign');
});
$('resign-dialog').addEventListener('close', () => { if (!$('resign').hidden) $('resign').focus(); });
// An offer to a person is asked about first (accepting theirs is not): a draw offered by a
// slip cannot be taken back once the opponent agrees.
$('draw').addEventListener('click', () => {
  const { game } = state;
  if (game.drawOffer && game.drawOffer !== game.you) { conn.send('draw-offer'); return; }
  state.confirmingDraw = true;
  draw();
  $('draw-yes').focus();
});
$('draw-yes').addEventListener('click', () => {
  state.confirmingDraw = false;
  conn.send('draw-offer');
  draw();
});
$('draw-no').addEventListener('click', () => {
  state.confirmingDraw = false;
  draw();
  $('draw').focus();
});
$('decline').addEventListener('click', () => conn.send('draw-decline'));
$('withdraw').addEventListener('click', () => conn.send('draw-withdraw'));
$('prev').addEventListener('click', () => showPly(shownPly(state) - 1));
$('next').addEventListener('click', () => showPly(state.viewing === null ? Infinity : state.viewing + 1));
$('live').addEventListener('click', () => showPly(Infinity));
$('flip').addEventListener('click', () => { state.turnedRound = !state.turnedRound; draw(); });
renderMute(muted());
$('mute').addEventListener('click', () => {
  setMuted(!muted());
  renderMute(muted());
  unlockSound();
});
// Sound may start only after a press or a key (see sound.js), so the sounds are fetched then, not
// among the bytes before the page is usable: a sound asked for while they come is made when they
// have come, and one asked for before any press is not made, as it could not be.
function unlockSound() {
  sounds ??= import('./sound.js');
  sounds.then((sound) => sound.unlock());
}
for (const kind of ['pointerdown', 'keydown']) document.addEventListener(kind, unlockSound, { capture: true });

// Left and right go through the earlier positions, Home to the start and End back to the live
// one, wherever the focus is, except on the board (whose arrows move between cells), in a text
// field, or in the dialog.
document.addEventListener('keydown', (e) => {
  if (!state.game || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
  if (e.target.closest && e.target.closest('input, textarea, select, dialog')) return;
  // R turns the board round, wherever the focus is (as lichess's F: here f is a file).
  if (e.key === 'r') {
    e.preventDefault();
    $('flip').click();
    return;
  }
  // A move typed anywhere goes to the move box: a file's letter (a to f) or the p of "pass"
  // starts it there, and Enter plays it.
  if (/^[a-fp]$/.test(e.key) && !$('typed').hidden && !$('typed-input').disabled) {
    e.preventDefault();
    $('typed-input').focus();
    $('typed-input').value += e.key;
    return;
  }
  if (e.target.closest && e.target.closest('svg.board')) return;
  const at = shownPly(state);
  const to = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: Infinity }[e.key];
  if (to === undefined) return;
  e.preventDefault();
  showPly(to);
});
// Taken back from under the board (a phone's screen): the board comes back into view, to show
// what the takeback undoes.
$('takeback').addEventListener('click', () => {
  conn.send('takeback');
  $('board').scrollIntoView({ block: 'nearest' });
});
$('abort').addEventListener('click', () => conn.send('abort'));
$('review-start').addEventListener('click', () => startReview());
$('claim').addEventListener('click', () => conn.send('claim'));
$('rematch').addEventListener('click', () => conn.send('rematch'));
$('copy-link').addEventListener('click', () => copy($('invite-link').value, t('game.link-copied')));
$('copy-record').addEventListener('click', () => copy($('record').value, t('game.record-copied')));
$('download-record').addEventListener('click', async () => (await sharing()).download(`dara-${gameId}.txt`, $('record').value));
// The finished game goes on the analysis board's link: the game itself, not this page, which
// the server forgets minutes after the end.
$('share-game').addEventListener('click', async () => (await sharing()).shareLink({
  title: document.title, text: t('share.game-text', { result: resultText(state.game.end) }), url: $('analyse-link').href,
}, say));
$('typed').addEventListener('submit', (e) => {
  e.preventDefault();
  const text = $('typed-input').value.trim();
  if (!text) return;
  playTurn(text);
  $('typed-input').value = '';
});

// The quick messages' phrases, each a button worded from the catalogue (whose `phrase.*` keys are
// the server's codes); the switch hides the opponent's, those shown already too.
$('phrases').replaceChildren(...keysUnder('phrase.').map((key) => {
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'secondary';
  button.dataset.phrase = key.slice('phrase.'.length);
  button.textContent = t(key);
  button.addEventListener('click', () => conn.send('say', { phrase: button.dataset.phrase }));
  return button;
}));
$('hide-said').addEventListener('click', () => {
  state.hideOpponent = !state.hideOpponent;
  localStorage.setItem(HIDE_SAID, state.hideOpponent ? '1' : '0');
  if (state.hideOpponent) state.said = state.said.filter(({ by }) => by === state.game.you);
  draw();
});

// Clocks and the "reconnecting (n s)" counters tick between messages.
setInterval(() => renderTick(state), 250);

// An arena's game (arena.js kept it): once over, a link back to the arena, and the next game.
try {
  const [arena, game] = (localStorage.getItem('dara.arena.current') || '').split(' ');
  if (game && location.pathname === `/g/${game}`) {
    $('arena-back').href = `/arena/${arena}#from=${game}`;
    $('arena-back').hidden = false;
    import('./arena-game.js').then((m) => m.default(state));
  }
} catch { /* no storage */ }
