// The home page: pick the rules and the clock, then one of the three ways to play.
import { chosenRules, chosenClock, watchRulesForm } from './rules-form.js';
import { t } from './i18n.js';
import { postJson as post } from './api.js';
import { newComputerGame, tableInPage, keptGames, computerGameUrl } from './page-table.js';
import { modulesServed } from './engine-wasm.js';
import { moveNumbers, moveCount } from './notation.js';

const $ = (id) => document.getElementById(id);

// An error is shown where the player tapped: the banner moves to just after the control that
// failed (its row of buttons, or the open tables' list) and is scrolled into view, not left at
// the top of the page, off the screen of a phone.
function showError(text, near) {
  const banner = $('home-error');
  banner.textContent = text;
  banner.hidden = !text;
  if (!text || !near) return;
  const anchor = near.closest('.controls, #tables, #pools') || near;
  anchor.after(banner);
  banner.scrollIntoView({ block: 'nearest' });
}

// Why something that needs the server failed: offline said as such, with what still works.
function failure(key, e) {
  const offline = !navigator.onLine || e instanceof TypeError;
  return offline ? t('home.offline-needs-server') : t(key, { reason: e.message });
}


// A seat taken: remember its token, then go to the game.
// `invite`: a friend's game, whose page then keeps the room of the invitation and of its
// maker's side of the board from its first paint (game-early.js).
// `clock`: the game has one, whose room in each player's panel is kept too.
function go(created, { invite = false, clock = false } = {}) {
  if (created.seat) localStorage.setItem(`dara.seat.${created.game}`, created.seat);
  const hints = `&invite&you=${created.colour}${clock ? '&clock' : ''}`;
  location.href = invite ? created.url + hints : created.url;
}

async function start(body, near) {
  showError('');
  try {
    go(await post('/api/games', body), { invite: body.opponent === 'friend', clock: Boolean(body.clock) });
  } catch (e) {
    showError(failure('home.could-not-start', e), near);
  }
}

watchRulesForm(() => {
  $('rules-text').textContent = chosenRules();
  $('summary-rules').textContent = chosenRules();
  const clock = chosenClock();
  $('clock-note').textContent = clock ? '' : t('home.no-clock-note');
  $('summary-clock').textContent = clock ? $('clock').selectedOptions[0].textContent : t('home.no-clock-summary');
});

// A new visitor starts at level 1, which a beginner can beat; someone who chose another level
// finds it chosen next time.
const LEVEL_KEY = 'dara.level';
const keptLevel = localStorage.getItem(LEVEL_KEY);
if (keptLevel && [...$('level').options].some((o) => o.value === keptLevel)) $('level').value = keptLevel;
const showLevel = () => { $('level-note').textContent = $('level').selectedOptions[0].textContent; };
$('level').addEventListener('change', () => {
  localStorage.setItem(LEVEL_KEY, $('level').value);
  showLevel();
});
showLevel();

// The computer plays in the page where the browser can run it and the site serves its modules
// (no server, offline too), and on the server where it cannot.
$('play-computer').addEventListener('submit', async (e) => {
  e.preventDefault();
  const game = { rules: chosenRules(), level: Number($('level').value), first: $('computer-colour').value };
  if (tableInPage() && await modulesServed()) location.href = newComputerGame(game);
  else start({ opponent: 'computer', ...game }, e.submitter || $('play-computer').querySelector('button'));
});

$('play-friend').addEventListener('submit', (e) => {
  e.preventDefault();
  start({ opponent: 'friend', rules: chosenRules(), first: $('friend-first').value, clock: chosenClock() }, e.submitter || $('play-friend').querySelector('button'));
});

$('open-table').addEventListener('click', () => {
  start({ opponent: 'open', rules: chosenRules(), first: 'random', clock: chosenClock() }, $('open-table'));
});

// The open tables as last listed (the lobby socket below).
let listed = [];

// A table this browser opened and still waits at (its seat is remembered here).
const ownTable = (table) => !!localStorage.getItem(`dara.seat.${table.game}`);

// This browser's id for "play anyone", made once and shared by its tabs: the server never
// pairs a seeker with a table opened under the same id. Random, not a secret, and nothing else.
function browserId() {
  let id = localStorage.getItem('dara.browser');
  if (!id) {
    // getRandomValues, not randomUUID: the latter needs a secure context, and a server on a
    // home network is reached over plain http.
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    id = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
    localStorage.setItem('dara.browser', id);
  }
  return id;
}

// "Play anyone" with these rules and clock: back to this browser's own table with the same
// rules if one waits in another tab, rather than open a second one (the server pairs across
// clocks, but never the two, as they share the browser's id); else seated at whoever waited
// longest with the same rules, or at a new table to wait at.
async function seek(rules, clock, near) {
  showError('');
  const mine = listed.find((table) => ownTable(table) && table.rules === rules);
  if (mine) { location.href = `/g/${mine.game}`; return; }
  try {
    go(await post('/api/seek', { rules, clock, browser: browserId() }));
  } catch (e) {
    showError(failure('home.could-not-find', e), near);
  }
}

$('play-anyone').addEventListener('click', () => seek(chosenRules(), chosenClock(), $('play-anyone')));

// The seat is asked for here, not on the game's page: the list may be a moment old, and if
// someone else sat down first the person should hear it while still looking at the list,
// rather than arrive at the table to watch.
async function sitDown(game) {
  showError('');
  try {
    go(await post(`/api/tables/${game}/sit`, {}));
  } catch (e) {
    showError(failure('home.could-not-sit', e), $('tables'));
  }
}

function clockLabel(clock) {
  return clock ? `${clock.initial / 60}+${clock.increment}` : t('home.no-clock-summary');
}

// How long a table has waited, as people say it: seconds, then minutes.
function waited(ms) {
  const seconds = Math.max(0, Math.round(ms / 1000));
  return seconds < 60 ? t('home.waited-seconds', { count: seconds }) : t('home.waited-minutes', { count: Math.floor(seconds / 60) });
}

// The server's clock less this page's, as the lobby's last message said: a table's wait is
// counted on the server's clock, whatever this device's says.
let skew = 0;

// Each listed table's wait, said again every few seconds between messages.
function showWaits() {
  for (const span of $('tables').querySelectorAll('[data-since]')) {
    span.textContent = waited(Date.now() + skew - Number(span.dataset.since));
  }
}
setInterval(showWaits, 5000);

// The pools: a button each, its clock and how many wait and play in it. Made once (the
// server names the pools), then only their counts change, so a press is never lost.
function showPools(pools) {
  const box = $('pools');
  for (const pool of pools) {
    const label = clockLabel(pool.clock);
    let button = box.querySelector(`[data-pool="${label}"]`);
    if (!button) {
      button = document.createElement('button');
      button.type = 'button';
      button.className = 'secondary';
      button.dataset.pool = label;
      const clock = document.createElement('span');
      clock.className = 'pool-clock';
      clock.textContent = label;
      const waiting = document.createElement('span');
      const playing = document.createElement('span');
      waiting.className = 'pool-waiting';
      playing.className = 'pool-playing';
      button.append(clock, waiting, playing);
      button.addEventListener('click', () => seek(pool.rules, pool.clock, button));
      box.appendChild(button);
    }
    button.querySelector('.pool-waiting').textContent = t('home.pool-waiting', { count: pool.waiting });
    button.querySelector('.pool-playing').textContent = t('home.pool-playing', { count: pool.playing });
  }
}

// Offline (the browser says so, or the lobby's socket cannot connect), the lobby says so and
// what still works, rather than that no table is open.
function setOffline(offline) {
  $('lobby-offline').hidden = !offline;
  $('pools').hidden = offline;
  if (!offline) return;
  $('presence').textContent = '';
  listed = [];
  $('tables').replaceChildren();
  $('no-tables').hidden = true;
}

// The open tables, live.
let lobby = null;
function listen() {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  const ws = new WebSocket(`${scheme}://${location.host}/ws/lobby`);
  lobby = ws;
  let opened = false;
  ws.onopen = () => { opened = true; };
  ws.onmessage = (e) => {
    const msg = JSON.parse(e.data);
    if (msg.t !== 'lobby') return;
    setOffline(false);
    const lobbyNow = msg.d;
    skew = lobbyNow.now - Date.now();
    listed = lobbyNow.tables;
    $('presence').textContent = `${t('home.here', { count: lobbyNow.here })} · ${t('home.playing', { count: lobbyNow.playing })}`;
    showPools(lobbyNow.pools);
    const list = $('tables');
    list.replaceChildren();
    $('no-tables').hidden = listed.length > 0;
    for (const table of listed) {
      const li = document.createElement('li');
      const text = document.createElement('span');
      const link = document.createElement('a');
      link.href = `/g/${table.game}`;
      link.className = 'button';
      // A table this browser opened (its seat is remembered here) is not offered as a seat
      // against oneself: it leads back to the table instead.
      if (ownTable(table)) {
        li.className = 'own';
        text.textContent = t('home.your-table', { rules: table.rules, clock: clockLabel(table.clock) });
        link.classList.add('secondary');
        link.textContent = t('home.back-to-table');
      } else {
        text.textContent = t(`home.table.${table.seat}`, { rules: table.rules, clock: clockLabel(table.clock) });
        link.textContent = t('home.sit-down');
        link.addEventListener('click', (e) => { e.preventDefault(); sitDown(table.game); });
      }
      const wait = document.createElement('span');
      wait.className = 'note waited';
      wait.dataset.since = table.since;
      text.append(document.createElement('br'), wait);
      li.append(text, link);
      list.appendChild(li);
    }
    showWaits();
  };
  ws.onclose = () => {
    if (lobby !== ws) return;
    if (!opened || !navigator.onLine) setOffline(true);
    setTimeout(listen, 2000);
  };
}
addEventListener('offline', () => setOffline(true));
// Back online: the list at once, not at the next try.
addEventListener('online', () => { const old = lobby; listen(); old?.close(); });
listen();

// The games against the computer this browser keeps, each a link to its page.
function listKeptGames() {
  const games = keptGames();
  $('kept-games').hidden = games.length === 0;
  $('kept-list').replaceChildren(...games.map((kept) => {
    // The moves played, less those taken back, numbered as the record numbers them: the
    // person's turns are those the page gave an id (`turn`), the computer's have none.
    const movers = [];
    for (const e of kept.journal) {
      if (e.e === 'moved') movers.push(e.turn === undefined ? (kept.you === 'white' ? 'black' : 'white') : kept.you);
      if (e.e === 'took-back') movers.length = Math.max(0, movers.length - e.plies);
    }
    const moves = moveCount(moveNumbers(movers));
    const end = kept.journal.find((e) => e.e === 'ended');
    const a = document.createElement('a');
    a.href = computerGameUrl(kept.game);
    a.textContent = t('home.kept-game', { level: kept.level, date: kept.date, count: moves, state: end ? end.result : t('home.kept-playing') });
    const li = document.createElement('li');
    li.appendChild(a);
    return li;
  }));
}
listKeptGames();
