// A seek, a table this browser waits at for anyone (from "Play anyone", a pool or "Open a
// table"), belongs to the browser, not to a page: while it waits the person may play the
// computer, solve a puzzle or read, in any tab, and when someone sits down every open page of
// the Arcade says so at once (a sound, the tab's title, a bar with a countdown to play or
// decline). Every page takes part while a seek waits (offline.js fetches this module then).
//
// The table is listed only while someone waits at it, that is while a socket holds its seat
// (PROTOCOL.md, the lobby). One tab holds that socket: the table's own page if one is open (its
// socket is the game's), else one tab elected through local storage, which every tab reads
// (Web Locks would do it more neatly, but they need a secure context, and a server on a home
// network is reached over plain http). When the last tab closes, the socket closes and the
// table leaves every listing; a seek nobody held for SEEK_STALE_MS is called off at the next
// visit rather than listed again out of the blue.
//
// The seek lives in local storage only (`dara.seek`, `dara.seek.holder`; privacy.html says so):
// the server knows the table, as any open table, and nothing of the pages.
import { t } from './i18n.js';
import { Connection } from './connection.js';
import { muted } from './game-state.js';

// The seek as stored (offline.js looks for it under the same key, to fetch this module).
const SEEK = 'dara.seek';
const HOLDER = 'dara.seek.holder';
const OVER = 'dara.seek.over';
const seatKey = (game) => `dara.seat.${game}`;
// The holder says it is there this often; a holder not heard for HOLDER_STALE_MS is gone (a tab
// closed or killed without its pagehide), and another tab takes the socket: the table is off the
// listings for a few seconds at most.
const BEAT_MS = 1000;
const HOLDER_STALE_MS = 3000;
// Two tabs may claim at the same moment: each looks again after this, and only the one whose
// claim stands opens the socket.
const CLAIM_SETTLE_MS = 300;
// A seek no tab has held for this long (every page of the Arcade was closed) is called off when
// a page opens again: going from one page to the next takes a second or two, not this.
const SEEK_STALE_MS = 20000;
// A side has this long for its first move once its turn comes (PROTOCOL.md, "Clocks").
const FIRST_MOVE_MS = 30000;
// How long the bar says that the game was called off before it goes.
const OVER_SHOWN_MS = 6000;

const tab = Math.random().toString(36).slice(2);
const here = location.pathname;

function read(key) {
  try {
    return JSON.parse(localStorage.getItem(key));
  } catch {
    return null;
  }
}
const write = (key, value) => localStorage.setItem(key, JSON.stringify(value));

// Whether this is the page of the seek's own table, whose socket holds the seat.
const atTablePage = (seek) => here === `/g/${seek.game}`;

// This tab's socket to the table, while it is the holder away from the table's page.
let link = null;
// When this tab's socket was last replaced by newer ones (the table's pages): it does not
// take the seat back from them for a while.
let replacedAt = -Infinity;
const REPLACED_WAIT_MS = 10000;
// What the bar last showed, and the title it replaced.
let bar = null;
let titleBefore = null;
let overUntil = 0;
let found = false;

// The bar every page shows while a seek waits, made on first need.
function theBar() {
  if (bar) return bar;
  bar = document.createElement('aside');
  bar.id = 'seek-bar';
  bar.className = 'seek-bar';
  bar.setAttribute('aria-live', 'assertive');
  const text = document.createElement('p');
  text.id = 'seek-text';
  const go = document.createElement('a');
  go.id = 'seek-play';
  go.className = 'button';
  const off = document.createElement('button');
  off.id = 'seek-cancel';
  off.type = 'button';
  off.className = 'secondary';
  off.addEventListener('click', () => callOff());
  bar.append(text, go, off);
  document.body.append(bar);
  return bar;
}

function clockLabel(clock) {
  return clock ? `${clock.initial / 60}+${clock.increment}` : t('home.no-clock-summary');
}

// The bar and the title, from the seek as stored (called on every change and every second).
function show() {
  const seek = read(SEEK);
  if (!seek || atTablePage(seek)) {
    // The table's page shows the game itself; hidden behind another tab or site, its title
    // still calls the person back, whichever side moves first.
    if (seek?.found && document.visibilityState === 'hidden') callBack(seek);
    else restoreTitle();
    if (bar && Date.now() >= overUntil) bar.hidden = true;
    return;
  }
  overUntil = 0;
  const box = theBar();
  box.hidden = false;
  box.querySelector('#seek-cancel').hidden = false;
  const settings = { rules: seek.rules, clock: clockLabel(seek.clock) };
  const play = box.querySelector('#seek-play');
  play.href = `/g/${seek.game}`;
  if (seek.found) {
    const seconds = secondsLeft(seek);
    box.classList.add('found');
    box.setAttribute('role', 'alertdialog');
    box.querySelector('#seek-text').textContent = `${t('seek.found', settings)} ${t(`game.you-have.${seek.found.you}`)} ${t('seek.countdown', { count: seconds })}`;
    play.textContent = t('seek.play');
    play.hidden = false;
    box.querySelector('#seek-cancel').textContent = t('seek.decline');
    callBack(seek);
  } else {
    box.classList.remove('found');
    box.setAttribute('role', 'status');
    const waited = Math.max(0, Math.round((Date.now() - seek.since) / 1000));
    const wait = `${Math.floor(waited / 60)}:${String(waited % 60).padStart(2, '0')}`;
    box.querySelector('#seek-text').textContent = t('seek.waiting', { ...settings, wait });
    play.textContent = t('seek.to-table');
    play.hidden = false;
    box.querySelector('#seek-cancel').textContent = t('seek.cancel');
    restoreTitle();
  }
}

// The seconds left to start the game found.
const secondsLeft = (seek) => Math.max(0, Math.ceil((seek.found.deadline - Date.now()) / 1000));

// The tab's title says the game is ready, with the seconds left; a sound the first time.
function callBack(seek) {
  titleBefore ??= document.title;
  document.title = t('seek.found-title', { count: secondsLeft(seek) });
  if (!found) {
    found = true;
    call();
  }
}

function restoreTitle() {
  if (titleBefore !== null) document.title = titleBefore;
  titleBefore = null;
}

// The seek is over (the game began, or ended before it began): every tab's bar says why for a
// moment, if it must (`reason`, a key: the others hear it through `dara.seek.over`).
function over(reason) {
  const seek = read(SEEK);
  if (!seek) return;
  // Why first: the other tabs say it before they hear that the seek is gone.
  if (reason) write(OVER, { reason, at: Date.now() });
  localStorage.removeItem(SEEK);
  if (reason) localStorage.removeItem(seatKey(seek.game));
  drop();
  found = false;
  restoreTitle();
  if (reason && !atTablePage(seek)) sayOver(reason);
}

// Only a page that showed the seek says how it ended.
function sayOver(reason) {
  if (!bar || bar.hidden) return;
  overUntil = Date.now() + OVER_SHOWN_MS;
  bar.classList.remove('found');
  bar.setAttribute('role', 'status');
  bar.querySelector('#seek-text').textContent = t(reason);
  bar.querySelector('#seek-play').hidden = true;
  bar.querySelector('#seek-cancel').hidden = true;
  setTimeout(() => { if (Date.now() >= overUntil) show(); }, OVER_SHOWN_MS);
}

// Someone sat down: a sound, if the page may make one (sound.js: only after a press here).
async function call() {
  if (muted()) return;
  const sound = await import('./sound.js');
  sound.unlock();
  sound.play('found');
}

// The seat is taken: the stored seek says so, with the time the person has to start. A side
// has FIRST_MOVE_MS for its first move once its turn comes, so one who plays second has the
// opponent's first move's time as well.
function seated(you, clock, sideToMove) {
  const seek = read(SEEK);
  if (!seek) return;
  const left = clock?.firstMove ?? FIRST_MOVE_MS;
  const deadline = Date.now() + left + (sideToMove === you ? 0 : FIRST_MOVE_MS);
  if (seek.found && seek.found.you === you && Math.abs(seek.found.deadline - deadline) < 1000) return;
  write(SEEK, { ...seek, found: { you, deadline } });
  show();
}

// Why a game ended before the person came, as a key: nobody moved in time, or it was called off.
const endedWhy = (end) => (end.code === 'aborted' ? 'seek.too-late' : 'seek.called-off');

// What the holder's socket hears of the table.
function heard(msg) {
  const seek = read(SEEK);
  if (!seek) return;
  const d = msg.d;
  if (msg.t === 'snapshot') {
    if (d.end) { over(endedWhy(d.end)); return; }
    const both = d.seats.white.kind !== 'open' && d.seats.black.kind !== 'open';
    if (both && d.you) seated(d.you, d.clock, d.pos.side);
  } else if (msg.t === 'seated') {
    const you = d.colour === 'white' ? 'black' : 'white';
    seated(you, d.clock, 'white');
  } else if (msg.t === 'move' && seek.found && d.pos.side === seek.found.you) {
    seated(seek.found.you, d.clock, d.pos.side);
  } else if (msg.t === 'end') {
    over(endedWhy(d));
  }
}

// Opens the holder's socket, holding the seat so that the table stays listed.
function hold() {
  const seek = read(SEEK);
  if (link || !seek) return;
  link = new Connection(seek.game, {
    seat: localStorage.getItem(seatKey(seek.game)),
    onMessage: heard,
    onState: (state) => {
      // The game is gone from the server, or its record damaged: nothing to wait for.
      if (state === 'gone' || state === 'damaged') over(null);
      // Newer sockets took the seat (several pages of the table): they hold it now.
      else if (state === 'replaced') { replacedAt = Date.now(); drop(); }
    },
  });
}

function drop() {
  if (!link) return;
  link.close();
  link = null;
}

// Every BEAT_MS, and when another tab changes the holder: the holder says it is there; another
// tab takes over from a holder gone quiet, and only then, after looking again, opens a socket.
function beat() {
  const seek = read(SEEK);
  if (!seek) { drop(); return; }
  // A socket to a table this browser no longer waits at (another seek began meanwhile).
  if (link && link.gameId !== seek.game) drop();
  const now = Date.now();
  const holder = read(HOLDER);
  if (atTablePage(seek)) {
    write(HOLDER, { tab, at: now, page: true });
    drop();
    return;
  }
  const mine = holder?.tab === tab;
  const quiet = !holder || !holder.tab || now - holder.at > HOLDER_STALE_MS;
  if (now - replacedAt < REPLACED_WAIT_MS) {
    if (mine) write(HOLDER, { tab, at: now });
  } else if (mine) {
    write(HOLDER, { tab, at: now });
    hold();
  } else if (quiet) {
    write(HOLDER, { tab, at: now });
    setTimeout(() => { if (read(HOLDER)?.tab === tab) hold(); }, CLAIM_SETTLE_MS);
  } else {
    drop();
  }
}

// Leaving the page gives the socket up at once, for the next page or another tab to take.
function release() {
  if (read(HOLDER)?.tab === tab) write(HOLDER, { tab: null, at: Date.now() });
}

// Calls the seek off (Cancel, Decline): the table's game is aborted, which takes it off every
// listing and tells any tab at it; the seat is forgotten here.
export function callOff() {
  const seek = read(SEEK);
  if (!seek) return;
  const conn = link ?? new Connection(seek.game, {
    seat: localStorage.getItem(seatKey(seek.game)),
    onMessage: (msg) => { if (msg.t === 'end' || msg.t === 'error') conn.close(); },
    onState: () => {},
  });
  conn.send('abort');
  link = null;
  setTimeout(() => conn.close(), 3000);
  over(null);
  localStorage.removeItem(seatKey(seek.game));
  if (bar) bar.hidden = true;
}

// The table's own page tells this module what it shows (game.js, after each message): while
// the person waits there, the seek is theirs and this page holds it; once the game has begun
// and the page is seen, or it ended, the seek is over.
export function atTable(gameId, game) {
  if (!game.you || game.opponent !== 'open') return;
  const seek = read(SEEK);
  const both = game.seats.white.kind !== 'open' && game.seats.black.kind !== 'open';
  if (game.end) {
    if (seek?.game === gameId) over(null);
    return;
  }
  if (!both) {
    if (seek?.game !== gameId) {
      const settings = { game: gameId, rules: game.rules, clock: game.clock?.control ? parseControl(game.clock.control) : null, since: Date.now() };
      write(SEEK, settings);
    }
    beat();
    return;
  }
  if (seek?.game !== gameId) return;
  // Seated: a page in view shows the game, and the seek has become it; one in another tab's
  // shadow leaves the other pages to call the person here.
  if (document.visibilityState === 'visible') over(null);
  else {
    seated(game.you, game.clock, game.pos.side);
    document.addEventListener('visibilitychange', () => atTable(gameId, game), { once: true });
  }
}

// The person left the table from its own page (its Cancel): the seek is over, in every tab.
export function forget(gameId) {
  if (read(SEEK)?.game === gameId) over(null);
}

// "5+3" as the clock a table was opened with.
function parseControl(control) {
  const [minutes, increment] = control.split('+').map(Number);
  return { initial: minutes * 60, increment };
}

function start() {
  const seek = read(SEEK);
  const holder = read(HOLDER);
  // Every page of the Arcade was closed for a while: the seek went with them.
  if (seek && !atTablePage(seek) && (!holder || Date.now() - holder.at > SEEK_STALE_MS)) callOff();
  addEventListener('storage', (e) => {
    if (e.key === SEEK) {
      if (!e.newValue) { found = false; drop(); }
      show();
    }
    if (e.key === HOLDER) beat();
    if (e.key === OVER && e.newValue) sayOver(JSON.parse(e.newValue).reason);
  });
  addEventListener('pagehide', release);
  for (const kind of ['pointerdown', 'keydown']) {
    document.addEventListener(kind, () => import('./sound.js').then((s) => s.unlock()), { capture: true, once: true });
  }
  setInterval(beat, BEAT_MS);
  setInterval(show, 1000);
  beat();
  show();
}

start();
