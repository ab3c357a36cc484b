// An arena's game, once it is over: the arena's socket says when the player is paired again,
// and after a short countdown, which they may stop, the page goes to that game by itself.
// game.js loads this for an arena's game alone (`dara.arena.current`, which arena.js keeps,
// names it), so that no other game page carries it or the arena's words. It brings berserk
// with it (game-berserk.js), given the game page's state: one fetch on the game page for both.
import { t } from './i18n.js';
import './arena-words.js';
import berserk from './game-berserk.js';

export default berserk;

const $ = (id) => document.getElementById(id);
const [ARENA, GAME] = localStorage.getItem('dara.arena.current').split(' ');
const PLAYER = localStorage.getItem('dara.arena.player');
// Long enough to read the result and to stop, short enough that the arena goes on.
const COUNTDOWN = 3;

// Under the result: what comes next, and the way to stay.
const box = document.createElement('p');
box.id = 'arena-next';
box.setAttribute('role', 'status');
const say = document.createElement('span');
const open = document.createElement('a');
open.textContent = t('arena.next-open');
const stay = document.createElement('button');
stay.type = 'button';
stay.className = 'secondary';
stay.textContent = t('arena.stay');
box.append(say, ' ', open, ' ', stay);
$('result').after(box);

let next = null;
let presence = null;
let finished = false;
let left = null;
let stayed = false;

// The next game is the arena's current one for the page that opens it (game.js reads it).
const keep = () => localStorage.setItem('dara.arena.current', `${ARENA} ${next.id} ${next.no}`);

function go() {
  keep();
  location.href = next.url;
}

function show() {
  const over = !$('end').hidden;
  const waiting = !finished && !next && presence === 'active';
  box.hidden = !over || !(finished || next || waiting);
  if (over && next && !stayed && left === null) {
    left = COUNTDOWN;
    const timer = setInterval(() => {
      if (stayed || finished) clearInterval(timer);
      else if (--left > 0) show();
      else { clearInterval(timer); go(); }
    }, 1000);
  }
  open.hidden = !next || !stayed || finished;
  stay.hidden = !next || stayed || finished;
  if (finished) say.textContent = t('arena.over');
  else if (!next) say.textContent = t('arena.next-waiting');
  else if (stayed) say.textContent = t('arena.next-ready');
  else say.textContent = t('arena.next-in', { count: left });
  if (next) open.href = next.url;
}

stay.addEventListener('click', () => { stayed = true; show(); });
open.addEventListener('click', keep);
new MutationObserver(show).observe($('end'), { attributes: true, attributeFilter: ['hidden'] });

function listen() {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  const ws = new WebSocket(`${scheme}://${location.host}/ws/arena/${ARENA}`);
  ws.onopen = () => ws.send(JSON.stringify({ t: 'hello', d: { player: PLAYER } }));
  ws.onmessage = (e) => {
    const { t: kind, d } = JSON.parse(e.data);
    if (kind !== 'standings') return;
    finished = d.phase === 'finished';
    presence = d.mine && d.mine.presence;
    // The arena may not have heard yet that this game ended: only another game is the next.
    if (!finished && d.game && d.game.id !== GAME) next = d.game;
    show();
  };
  ws.onclose = (e) => {
    if (e.code !== 4004) setTimeout(listen, 2000);
  };
}
show();
listen();
