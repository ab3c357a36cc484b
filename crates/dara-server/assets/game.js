// The game page: one game, for its players and its watchers. State comes from the server as a
// snapshot, then numbered events; this file only keeps it and shows it.
import { Board } from './board.js';
import { Connection } from './connection.js';
import { parsePosition, parseMove } from './notation.js';
import * as sound from './sound.js';
import { MARKS, fetchReview, drawGraph, fillTable, summary, turnNote } from './review.js';
import { renderMoveList } from './movelist.js';
import { t, cap, inWords, errorText, illegalText } from './i18n.js';

const gameId = location.pathname.split('/')[2];
const $ = (id) => document.getElementById(id);
const storeKey = (id) => `dara.seat.${id}`;

// The seat token: from the seat's link (then remembered), or remembered from before. It is
// never written into the address bar: a player copying the address to invite someone must not
// hand over their seat.
function seatToken() {
  const fromLink = new URLSearchParams(location.hash.slice(1)).get('seat');
  if (fromLink) localStorage.setItem(storeKey(gameId), fromLink);
  return fromLink || localStorage.getItem(storeKey(gameId));
}

let token = seatToken();
let game = null;          // the snapshot, kept up to date by events
let presence = null;
let turnId = Date.now() % 1e9;
let clockBase = null;     // { white, black, running, at }
let joinAsked = false;
let queueAhead = null;    // searches ahead of the computer's for this game, while it waits
let viewing = null;       // the ply whose position is shown while browsing; null: the live one
let unseen = 0;           // moves played since browsing began, not yet looked at
let awaiting = null;      // the number of plies when our turn was sent, until it is answered
let turnedRound = false;  // the person flipped the board from its usual way round
let fresh = null;         // the other side's last move, to show moving: { key, move }
let reviewed = null;      // the engine's review of the finished game, once asked for

// Tells screen readers, and shows the same under the headline unless `shown` is false (the
// page already shows it elsewhere, as the note of a standing draw offer).
function say(text, { shown = true } = {}) {
  $('announce').textContent = text;
  $('status-note').textContent = shown ? text : '';
}

const board = new Board($('board'), {
  onTurn: (m) => playTurn(m),
  say,
  onChange: () => renderTurn(),
});

const conn = new Connection(gameId, {
  seat: token,
  onMessage: (msg) => receive(msg),
  onState: (s) => {
    const text = s === 'connected' ? '' : t(`connection.${s}`);
    $('connection-text').textContent = text;
    $('connection').hidden = !text;
    $('retry-now').hidden = s !== 'reconnecting';
  },
});
$('retry-now').addEventListener('click', () => conn.retryNow());

// A turn is sent once: until its move event (or a rejection) arrives the board offers nothing
// more, so a double click or a second Enter cannot send another, and the page says it is
// sending (the connection resends it, same id, if the link drops meanwhile). The server's
// `accepted` can come before the move event: the board waits for the event, which brings the
// next position.
function playTurn(m) {
  if (conn.sending() || awaiting !== null || viewing !== null) return;
  awaiting = game.moves.length;
  turnId += 1;
  conn.sendTurn(turnId, m);
  say(t('game.sending', { move: m }));
  render();
}

function receive(msg) {
  const d = msg.d;
  // Whatever happens to the game, the computer's search it waited for is done or called off.
  if (msg.v !== undefined) queueAhead = null;
  switch (msg.t) {
    case 'snapshot':
      game = d;
      awaiting = null;
      if (viewing !== null && viewing >= game.moves.length) viewing = null;
      game.lastMove = d.moves.length ? d.moves[d.moves.length - 1] : null;
      setClock(d.clock);
      if (!game.you && !token && !joinAsked && (d.seats.white.kind === 'open' || d.seats.black.kind === 'open')) {
        // The invite link: the first to open it takes the free seat.
        joinAsked = true;
        conn.send('join');
      }
      break;
    case 'joined':
      token = d.seat;
      localStorage.setItem(storeKey(gameId), token);
      conn.setSeat(token);
      game.you = d.colour;
      say(t(`game.you-have.${d.colour}`));
      break;
    case 'seated':
      game.seats[d.colour] = { kind: 'human' };
      setClock(d.clock);
      say(t('game.sat-down', { side: side(d.colour) }));
      break;
    case 'move': {
      // The mover is the side to move before it: turns need not alternate when the
      // movement phase begins.
      const mover = game.pos.side;
      // `ply` counts this turn: the lists are cut to what came before it, then the turn added.
      game.moves.length = d.ply - 1;
      game.moves.push(d.m);
      game.positions.length = d.ply;
      game.positions.push(d.pos.fen);
      game.pos = d.pos;
      game.lastMove = d.m;
      game.drawOffer = null;
      if (awaiting !== null && d.ply > awaiting) awaiting = null;
      if (viewing !== null) unseen += 1;
      if (mover !== game.you) fresh = { key: `${d.ply} ${d.m}`, move: d.m };
      setClock(d.clock);
      sound.play(parseMove(d.m).captures.length ? 'capture' : 'move');
      say(`${describeMove(d.m, mover)}. ${turnText()}`);
      break;
    }
    case 'takeback':
      game.moves.length = d.ply;
      game.positions.length = d.ply + 1;
      game.pos = d.pos;
      game.end = null;
      game.lastMove = game.moves[game.moves.length - 1] || null;
      awaiting = null;
      if (viewing !== null && viewing >= d.ply) viewing = null;
      say(`${t('game.took-back', { count: d.plies })} ${turnText()}`);
      break;
    case 'draw-offer':
      game.drawOffer = d.by;
      say(d.by === game.you ? t('game.you-offered') : t('game.offers-draw', { side: side(d.by) }), { shown: false });
      break;
    case 'draw-decline':
      game.drawOffer = null;
      say(t('game.draw-declined'));
      break;
    case 'draw-withdraw':
      game.drawOffer = null;
      say(d.by === game.you ? t('game.you-withdrew') : t('game.withdrew', { side: side(d.by) }));
      break;
    case 'end':
      game.end = d;
      setClock(d.clock);
      if ($('resign-dialog').open) $('resign-dialog').close();
      sound.play('end');
      say(t('game.over', { result: resultText(d) }));
      break;
    case 'rematch-offer':
      game.rematchOffer = d.by;
      say(d.by === game.you ? t('game.you-asked-rematch') : t('game.opponent-asks-rematch'));
      break;
    case 'rematch':
      game.rematch = d.game;
      if (token && game.you) {
        // Same person, same token, other colour: take the seat in the next game.
        localStorage.setItem(storeKey(d.game), token);
        location.href = `/g/${d.game}`;
      }
      break;
    case 'presence':
      presence = { ...d, at: performance.now() };
      break;
    case 'queue':
      queueAhead = d.ahead;
      break;
    case 'accepted':
      break;
    case 'paused':
      // The turn waits in the connection, sent again until the server can keep it.
      say(t('game.saving-paused'));
      break;
    case 'rejected':
      awaiting = null;
      say(t('game.not-played', { reason: refusalText(d) }));
      break;
    case 'error':
      say(cap(refusalText(d)));
      break;
    default:
      return;
  }
  render();
}

// A side as the start of a sentence: "Pale", "Dark".
const side = (colour) => t(`side.${colour}`);

// A refusal, worded from its code and parameters (PROTOCOL.md); the server's English only
// where the code is one this page does not know.
function refusalText(d) {
  if (d.code === 'illegal-move') {
    const why = illegalText(d.why);
    if (why) return why;
  }
  const key = `refusal.${d.code}`;
  const params = d.because ? { ...d, detail: errorText({ ...d.because, error: d.detail }) } : d;
  return d.code && t(key, params) !== key ? t(key, params) : d.reason;
}

// How a game ended, from its code (PROTOCOL.md).
function endReason(end) {
  const key = `end.${end.code}`;
  const params = { limit: end.limit, loser: end.loser && side(end.loser) };
  return end.code && t(key, params) !== key ? t(key, params) : end.reason;
}

// A turn in words, for the announcement: "Dark placed on f5", "Pale stepped d1 to c1 and took e4".
function describeMove(text, mover) {
  const who = side(mover);
  const m = parseMove(text);
  if (m.kind === 'pass') return t('move.passed', { side: who });
  if (m.kind === 'put') return t('move.placed', { side: who, to: m.to });
  if (m.captures.length) return t('move.stepped-took', { side: who, from: m.from, to: m.to, taken: inWords(m.captures) });
  return t('move.stepped', { side: who, from: m.from, to: m.to });
}

function turnText() {
  if (!game || game.end) return '';
  const side = game.pos.side;
  const who = side === game.you ? t('turn.yours') : t('turn.theirs', { side: t(`side.${side}`) });
  if (side === game.you && board.choosingCapture()) return t('turn.take', { who });
  return t(game.pos.phase === 'placement' ? 'turn.place' : 'turn.step', { who });
}

// The headline: whose turn and what to do, or how the game ended.
function renderTurn() {
  if (!game) return;
  $('turn').textContent = game.end ? t('game.over', { result: resultText(game.end) }) : !bothSeated() ? t('game.waiting') : turnText();
}

function resultText(end) {
  const head = end.winner ? t('end.wins', { side: side(end.winner) }) : t('end.draw');
  return t('end.result', { head, result: end.result, reason: endReason(end) });
}

function setClock(view) {
  clockBase = view ? { ...view, at: performance.now() } : null;
}

function clockMs(colour) {
  if (!clockBase) return null;
  let ms = clockBase[colour];
  if (clockBase.running === colour && !game.end) ms -= performance.now() - clockBase.at;
  return Math.max(0, ms);
}

function formatMs(ms) {
  const s = Math.ceil(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

function playerName(colour) {
  const seat = game.seats[colour];
  if (seat.kind === 'computer') return t('player.computer', { level: seat.level });
  if (seat.kind === 'open') return t('player.open');
  return colour === game.you ? t('player.you') : (game.you ? t('player.opponent') : t(`player.${colour}`));
}

// How long `colour`'s player has been gone and how long until their game may be claimed, in
// ms, counted on from the last presence message; null while they are here.
function absence(colour) {
  const p = presence && presence[colour];
  if (!p || p.online || game.seats[colour].kind !== 'human') return null;
  const since = performance.now() - presence.at;
  return { gone: (p.awayMs || 0) + since, claimIn: Math.max(0, (p.claimInMs || 0) - since) };
}

function presenceText(colour) {
  const away = game.end ? null : absence(colour);
  if (!away) return '';
  const text = t('presence.reconnecting', { seconds: Math.round(away.gone / 1000) });
  if (colour === game.you || !game.you) return text;
  const wait = Math.ceil(away.claimIn / 1000);
  return wait > 0 ? t('presence.claim-in', { text, seconds: wait }) : t('presence.claim-now', { text });
}

// Seconds until the absent opponent's game may be claimed (0: now), or null if they are here.
function claimWait() {
  if (!game.you || game.end) return null;
  const away = absence(game.you === 'white' ? 'black' : 'white');
  return away && Math.ceil(away.claimIn / 1000);
}

function renderClaim() {
  const wait = claimWait();
  $('claim').hidden = wait === null;
  $('claim').disabled = wait !== null && wait > 0;
  $('claim').textContent = wait ? t('game.claim-in', { seconds: wait }) : t('game.claim');
}

function render() {
  if (!game) return;
  document.title = `Dara — ${game.rules}`;
  $('rules').textContent = game.rules;
  const browsing = viewing !== null;
  const fen = browsing ? game.positions[viewing] : game.pos.fen;
  const pos = parsePosition(fen);
  for (const colour of ['white', 'black']) {
    const panel = $(`player-${colour}`);
    panel.querySelector('.name').textContent = playerName(colour);
    panel.querySelector('.hand').textContent = t('player.in-hand', { count: pos.hand[colour] });
    panel.querySelector('.on-board').textContent = t('player.on-board', { count: [...pos.stones.values()].filter((s) => s === (colour === 'white' ? 'W' : 'B')).length });
    panel.querySelector('.away').textContent = presenceText(colour);
    panel.classList.toggle('to-move', !game.end && game.pos.side === colour);
    const clock = panel.querySelector('.clock');
    clock.hidden = !clockBase;
    if (clockBase) clock.textContent = formatMs(clockMs(colour));
  }
  // The player's own panel goes nearest the board's bottom edge, unless the board was flipped.
  const flipped = (game.you === 'black') !== turnedRound;
  $('players').classList.toggle('flipped', flipped);
  $('flip').setAttribute('aria-pressed', String(turnedRound));
  const waiting = conn.sending() || awaiting !== null;
  const mine = !game.end && !!game.you && game.pos.side === game.you && bothSeated() && !waiting && !browsing;
  $('phase').textContent = t(`phase.${game.pos.phase}`);
  const quiet = $('quiet');
  quiet.hidden = game.pos.quiet_limit === null || game.pos.phase !== 'movement';
  quiet.textContent = ` · ${t('game.quiet', { quiet: game.pos.quiet, limit: game.pos.quiet_limit })}`;
  board.show({
    fen, legal: browsing ? [] : game.pos.legal, forbidden: browsing ? {} : game.pos.forbidden, closed: browsing ? {} : game.pos.closed, mine, waiting, browsing, flipped,
    lastMove: browsing ? game.moves[viewing - 1] || null : game.lastMove,
    fresh: !browsing && fresh && fresh.key === `${game.moves.length} ${game.lastMove}` ? fresh : null,
  });
  renderTurn();
  $('status-note').hidden = !!game.end;
  renderQueue();
  const watching = presence ? presence.watchers : 0;
  $('watchers').hidden = watching === 0;
  $('watchers').textContent = t('game.watchers', { count: watching });
  renderBrowsing();
  renderMoves();
  renderControls(mine);
  renderReview();
}

// The review, once the engine has gone through the game: the graph's marker and the note
// follow the position shown.
function renderReview() {
  $('review-start').hidden = !game.end || reviewed !== null || $('review').dataset.asking === 'yes';
  if (!reviewed) return;
  const shown = viewing === null ? game.moves.length : viewing;
  drawGraph($('review-graph'), reviewed, shown, (ply) => view(ply));
  $('review-note').textContent = turnNote(reviewed, shown);
}

async function startReview() {
  $('review').hidden = false;
  $('review').dataset.asking = 'yes';
  $('review-status').textContent = t('review.working');
  render();
  try {
    reviewed = await fetchReview(game);
    $('review-status').textContent = '';
    $('review-summary').textContent = summary(reviewed);
    fillTable($('review-table'), reviewed, (ply) => view(ply));
    $('review-body').hidden = false;
  } catch (e) {
    $('review-status').textContent = t('review.failed', { reason: e.message });
  }
  $('review').dataset.asking = 'no';
  render();
}

// Looking at an earlier position: which one, how to come back, and what happened meanwhile.
function renderBrowsing() {
  const browsing = viewing !== null;
  $('browsing').hidden = !browsing;
  $('prev').disabled = (browsing ? viewing : game.moves.length) === 0;
  $('next').disabled = !browsing;
  if (!browsing) return;
  const what = viewing === 0 ? t('browse.start') : t('browse.move', { ply: viewing, plies: game.moves.length, move: game.moves[viewing - 1] });
  const news = unseen ? ` ${t('browse.news', { count: unseen })}` : '';
  $('browse-note').textContent = `${what}${news}`;
  $('live').textContent = unseen ? t('browse.live-news', { count: unseen }) : t('game.live');
  $('browsing').classList.toggle('news', unseen > 0);
}

// Shows the position after `ply` turns (the live one when `ply` is the last).
function view(ply) {
  if (!game) return;
  const last = game.moves.length;
  const next = Math.max(0, Math.min(last, ply));
  viewing = next === last ? null : next;
  if (viewing === null) unseen = 0;
  board.cancel();
  render();
  const current = $('moves').querySelector('[aria-current="true"]');
  if (current) current.scrollIntoView({ block: 'nearest' });
}

// The computer is busy with other games: how many of their searches come before this one's.
function renderQueue() {
  const waiting = queueAhead !== null && !game.end && game.seats[game.pos.side].kind === 'computer';
  $('queue').hidden = !waiting;
  if (!waiting) return;
  const n = queueAhead;
  $('queue').textContent = n === 0 ? t('queue.next') : t('queue.ahead', { count: n });
}

function bothSeated() {
  return game.seats.white.kind !== 'open' && game.seats.black.kind !== 'open';
}

// The list, with the review's marks once the engine has gone through the game.
function renderMoves() {
  const shown = viewing === null ? game.moves.length : viewing;
  renderMoveList($('moves'), game.moves, shown, (ply) => view(ply), (button, ply) => {
    const mark = reviewed && reviewed.turns[ply - 1] ? reviewed.turns[ply - 1].mark : null;
    if (mark && MARKS[mark].sign) {
      button.classList.add(`mark-${mark}`);
      button.textContent += MARKS[mark].sign;
      button.setAttribute('aria-label', `${game.moves[ply - 1]}, ${t(`mark.${mark}`)}`);
    }
  });
  if (viewing === null) $('moves').scrollTop = $('moves').scrollHeight;
}

function renderControls(mine) {
  const playing = !!game.you && !game.end;
  const vsComputer = game.opponent === 'computer';
  const opponent = game.you === 'white' ? 'black' : 'white';
  $('invite').hidden = !(game.you && !bothSeated() && game.opponent !== 'computer');
  $('invite-link').value = `${location.origin}/g/${gameId}`;
  $('watch-note').hidden = !!game.you;
  $('resign').hidden = !playing || !bothSeated();
  $('draw').hidden = !playing || !bothSeated() || game.drawOffer === game.you;
  $('draw').textContent = game.drawOffer === opponent ? t('game.accept-draw') : t('game.draw');
  $('decline').hidden = !playing || game.drawOffer !== opponent;
  $('withdraw').hidden = !playing || game.drawOffer !== game.you;
  const offer = !game.end && game.drawOffer;
  $('offer-note').hidden = !offer;
  if (offer) {
    $('offer-note').textContent = offer === game.you ? t('game.you-have-offered')
      : game.you ? t('game.opponent-offers') : t('game.offers-draw', { side: side(offer) });
  }
  // Taking back is for a game still going on.
  $('takeback').hidden = !playing || !vsComputer || game.moves.length === 0;
  renderClaim();
  $('typed').hidden = !game.you || !!game.end;
  $('typed-input').disabled = !mine;
  // The end of the game: result, reason, the record to copy, and a rematch.
  $('end').hidden = !game.end;
  if (game.end) {
    $('result').textContent = resultText(game.end);
    $('record').value = game.end.record;
    $('rematch').hidden = !game.you || !!game.rematch;
    $('rematch').textContent = game.rematchOffer && game.rematchOffer !== game.you ? t('game.accept-rematch') : game.rematchOffer === game.you ? t('game.rematch-asked') : t('game.rematch');
    $('rematch').disabled = game.rematchOffer === game.you;
    $('watch-next').hidden = !(game.rematch && !game.you);
    // The game goes to the analysis board in the link's fragment, never to the server.
    const study = new URLSearchParams({ rules: game.rules, start: game.positions[0], moves: game.moves.join(',') });
    $('analyse-link').href = `/analysis#${study}`;
    if (game.rematch) $('watch-next').href = `/g/${game.rematch}`;
  }
}

// Resigning asks first, in the page: a dialog that holds the focus, Escape or "Keep playing"
// closing it, and the focus back on the resign button after.
$('resign').addEventListener('click', () => $('resign-dialog').showModal());
$('resign-cancel').addEventListener('click', () => $('resign-dialog').close());
$('resign-confirm').addEventListener('click', () => {
  $('resign-dialog').close();
  conn.send('resign');
});
$('resign-dialog').addEventListener('close', () => { if (!$('resign').hidden) $('resign').focus(); });
$('draw').addEventListener('click', () => conn.send('draw-offer'));
$('decline').addEventListener('click', () => conn.send('draw-decline'));
$('withdraw').addEventListener('click', () => conn.send('draw-withdraw'));
$('prev').addEventListener('click', () => view((viewing === null ? game.moves.length : viewing) - 1));
$('next').addEventListener('click', () => view(viewing === null ? Infinity : viewing + 1));
$('live').addEventListener('click', () => view(Infinity));
$('flip').addEventListener('click', () => { turnedRound = !turnedRound; render(); });
$('mute').setAttribute('aria-pressed', String(sound.muted()));
$('mute').addEventListener('click', () => {
  sound.setMuted(!sound.muted());
  $('mute').setAttribute('aria-pressed', String(sound.muted()));
  sound.unlock();
});
// Sound may start only after a press or a key (see sound.js).
for (const kind of ['pointerdown', 'keydown']) document.addEventListener(kind, () => sound.unlock(), { capture: true });

// Left and right go through the earlier positions, Home to the start and End back to the live
// one, wherever the focus is, except on the board (whose arrows move between cells), in a text
// field, or in the dialog.
document.addEventListener('keydown', (e) => {
  if (!game || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
  if (e.target.closest && e.target.closest('svg.board, input, textarea, select, dialog')) return;
  const at = viewing === null ? game.moves.length : viewing;
  const to = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: Infinity }[e.key];
  if (to === undefined) return;
  e.preventDefault();
  view(to);
});
$('takeback').addEventListener('click', () => conn.send('takeback'));
$('review-start').addEventListener('click', () => startReview());
$('claim').addEventListener('click', () => conn.send('claim'));
$('rematch').addEventListener('click', () => conn.send('rematch'));
$('copy-link').addEventListener('click', () => copy($('invite-link').value, t('game.link-copied')));
$('copy-record').addEventListener('click', () => copy($('record').value, t('game.record-copied')));
$('typed').addEventListener('submit', (e) => {
  e.preventDefault();
  const text = $('typed-input').value.trim();
  if (!text) return;
  playTurn(text);
  $('typed-input').value = '';
});

function copy(text, done) {
  navigator.clipboard.writeText(text).then(() => say(done), () => say(t('game.copy-by-hand')));
}

// Clocks and the "reconnecting (n s)" counters tick between messages.
setInterval(() => {
  if (!game) return;
  for (const colour of ['white', 'black']) {
    const panel = $(`player-${colour}`);
    if (clockBase) panel.querySelector('.clock').textContent = formatMs(clockMs(colour));
    panel.querySelector('.away').textContent = presenceText(colour);
  }
  renderClaim();
}, 250);
