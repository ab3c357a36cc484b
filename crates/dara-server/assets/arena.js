// An arena's page (/arena/<id>): join under a name, pause, come back or leave, and follow the
// standings on the arena's socket (/ws/arena/<id>, at most once a second). The player is a
// token this browser makes once and keeps (`dara.arena.player`): every tab of it is the same
// player. When the socket gives the player a game, the page goes to it at once; the game page
// leads back here (`dara.arena.current`: the arena, the game and its number in the arena, which
// the game page names when the player goes berserk).
import { t } from './i18n.js';
import './arena-words.js';
import { span } from './arenas.js';
import { showMaker } from './arena-maker.js';

const $ = (id) => document.getElementById(id);
const ARENA = location.pathname.split('/')[2];
// The server's tie-break rule, which the page words itself when it knows it.
const TIE_BREAK = 'Equal scores are ranked by fewer games played, then by who reached the score first, then by who joined first.';

function store(key, value) {
  try {
    if (value === undefined) return localStorage.getItem(key);
    localStorage.setItem(key, value);
  } catch { /* storage refused: this page only */ }
  return value;
}

// 16 random bytes as 32 hex digits, made once.
function playerToken() {
  let token = store('dara.arena.player');
  if (!/^[A-Za-z0-9_-]{16,64}$/.test(token || '')) {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    token = store('dara.arena.player', [...bytes].map((b) => b.toString(16).padStart(2, '0')).join(''));
  }
  return token;
}
const PLAYER = playerToken();
// The game the player came back from (the game page's link says it): the arena may not have
// heard yet that it ended, and the page is not sent back to it.
const FROM = new URLSearchParams(location.hash.slice(1)).get('from');

let phase = 'waiting';
let deadline = 0;
let arena = null;

function showError(code, params = {}) {
  const box = $('arena-error');
  box.hidden = !code;
  if (code) box.textContent = t(`arena.code.${code}`, params);
}

async function send(request, body) {
  showError(null);
  try {
    const answer = await fetch(`/api/arenas/${ARENA}/${request}`, {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ player: PLAYER, ...body }),
    });
    if (answer.ok) return true;
    const refusal = await answer.json().catch(() => ({}));
    // Every code the server gives has its words (i18n.test.js holds them to `dara codes`);
    // anything else is worded as a request it could not read.
    const worded = t(`arena.code.${refusal.code}`) !== `arena.code.${refusal.code}`;
    showError(worded ? refusal.code : 'bad-request', refusal);
  } catch {
    showError('offline');
  }
  return false;
}

function tick() {
  const left = deadline - Date.now();
  let text = t('arena.finished');
  if (phase === 'running') text = t('arena.running-ends', { time: span(left) });
  else if (phase === 'waiting') text = arena && arena.starts == null ? t('arena.waiting-maker') : t('arena.starts-in', { time: span(left) });
  $('arena-time').textContent = text;
}

// The points of each game played, then a mark for the game being played: a player in their
// first game has a mark rather than nothing.
function sheet(row) {
  const cell = document.createElement('td');
  cell.className = 'arena-sheet';
  // A game the player went berserk in is marked, as the game page marks the clock.
  cell.textContent = row.sheet.map((g) => `${g.points}${g.berserk ? '⚔' : ''}`).join(' ');
  if (row.sheet.some((g) => g.berserk)) cell.title = t('arena.berserk-mark');
  if (row.playing) {
    const now = document.createElement('span');
    now.className = 'arena-in-game';
    now.title = t('arena.in-game');
    now.textContent = '▶';
    cell.append(cell.textContent ? ' ' : '', now);
  }
  return cell;
}

function tableRow(row, mine) {
  const tr = document.createElement('tr');
  if (mine) tr.className = 'mine';
  const rank = document.createElement('td');
  rank.textContent = row.rank;
  const name = document.createElement('td');
  name.textContent = row.name;
  if (row.presence !== 'active') {
    const note = document.createElement('span');
    note.className = 'note';
    note.textContent = ` (${t(`arena.presence.${row.presence}`)})`;
    name.append(note);
  }
  const score = document.createElement('td');
  score.className = 'arena-score';
  score.textContent = row.fire ? `${row.score} 🔥` : `${row.score}`;
  if (row.fire) score.title = t('arena.fire');
  tr.append(rank, name, score, sheet(row));
  return tr;
}

function standings(d) {
  arena = d.arena;
  phase = d.phase;
  showMaker(ARENA, arena, phase);
  deadline = Date.now() + d.time_left;
  $('arena-about').textContent = t('arena.about', { rules: arena.rules, clock: arena.clock, count: arena.minutes });
  tick();
  const mine = d.mine;
  const rows = d.top.map((row) => tableRow(row, mine && row.rank === mine.rank && row.name === mine.name));
  if (mine && !d.top.some((row) => row.name === mine.name)) {
    const gap = document.createElement('tr');
    gap.innerHTML = '<td colspan="4">…</td>';
    rows.push(gap, tableRow(mine, true));
  }
  $('standings').tBodies[0].replaceChildren(...rows);
  $('arena-tie-break').textContent = d.tie_break === TIE_BREAK ? t('arena.tie-break') : d.tie_break;
  $('arena-games').replaceChildren(...d.playing.map((g) => {
    const li = document.createElement('li');
    const text = document.createElement('span');
    text.textContent = t('arena.game', { pale: g.pale.name, pale_rank: g.pale.rank, dark: g.dark.name, dark_rank: g.dark.rank });
    li.append(text);
    // Anyone may watch it: a game's id is public, its seats are in its players' links alone.
    const table = d.tables && d.tables[g.game];
    if (table) {
      const watch = document.createElement('a');
      watch.className = 'button';
      watch.href = `/g/${table}`;
      watch.textContent = t('arena.watch');
      li.append(watch);
    }
    return li;
  }));
  $('arena-no-games').hidden = d.playing.length > 0;
  // Who this browser is in the arena.
  const joined = Boolean(mine) && phase !== 'finished';
  $('join-form').hidden = Boolean(mine) || phase === 'finished';
  $('arena-joined').hidden = !mine;
  // Once the arena is over, paused or not no longer matters.
  if (mine) $('arena-joined').textContent = t(`arena.joined-${phase === 'finished' ? 'finished' : mine.presence}`, { name: mine.name });
  $('pause').hidden = !joined || mine.presence !== 'active';
  $('resume').hidden = !joined || mine.presence === 'active';
  $('leave').hidden = !joined || mine.presence === 'left';
  if (d.game && d.game.url && phase !== 'finished' && d.game.id !== FROM) {
    store('dara.arena.current', `${ARENA} ${d.game.id} ${d.game.no}`);
    location.href = d.game.url;
  }
}

function podium(d) {
  $('podium-card').hidden = false;
  $('podium').replaceChildren(...d.podium.map((row) => {
    const li = document.createElement('li');
    li.textContent = t('arena.podium-row', { name: row.name, count: row.score });
    return li;
  }));
}

function listen() {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  const ws = new WebSocket(`${scheme}://${location.host}/ws/arena/${ARENA}`);
  ws.onopen = () => ws.send(JSON.stringify({ t: 'hello', d: { player: PLAYER } }));
  ws.onmessage = (e) => {
    const msg = JSON.parse(e.data);
    if (msg.t === 'standings') standings(msg.d);
    else if (msg.t === 'podium') podium(msg.d);
  };
  ws.onclose = (e) => {
    if (e.code === 4004) { $('arena-gone').hidden = false; return; }
    setTimeout(listen, 2000);
  };
}

$('arena-name').value = store('dara.arena.name') || '';
$('join-form').addEventListener('submit', async (e) => {
  e.preventDefault();
  const name = $('arena-name').value.trim();
  if (!name) { showError('name-empty'); return; }
  if (await send('join', { name })) store('dara.arena.name', name);
});
for (const request of ['pause', 'resume', 'leave']) $(request).addEventListener('click', () => send(request, {}));
// Disabled until now: a click before this script ran would have submitted the form the
// browser's own way (a GET of this page with the name in its address).
$('join').disabled = false;
setInterval(tick, 1000);
listen();
