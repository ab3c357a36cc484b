// The arenas page: the server's own arenas (GET /api/arenas), announced, running or lately
// finished, each a link to its page; a start to come counts down. Asked again every 15 seconds.
import { t } from './i18n.js';
import './arena-words.js';
import { makeForm } from './arena-maker.js';

const $ = (id) => document.getElementById(id);
let arenas = [];

// `ms` as h:mm:ss or m:ss.
export function span(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  const two = (n) => String(n).padStart(2, '0');
  const h = Math.floor(s / 3600);
  return h ? `${h}:${two(Math.floor(s / 60) % 60)}:${two(s % 60)}` : `${Math.floor(s / 60)}:${two(s % 60)}`;
}

function when(arena) {
  if (arena.phase === 'running') return t('arena.running-ends', { time: span(arena.starts + arena.minutes * 60000 - Date.now()) });
  if (arena.phase === 'finished') return t('arena.finished');
  if (arena.starts == null) return t('arena.waiting-maker');
  return t('arena.starts-in', { time: span(arena.starts - Date.now()) });
}

function item(arena) {
  const li = document.createElement('li');
  li.dataset.arena = arena.id;
  const text = document.createElement('span');
  const about = document.createElement('span');
  about.textContent = t('arena.about', { rules: arena.rules, clock: arena.clock, count: arena.minutes });
  const start = document.createElement('span');
  start.className = 'note';
  const at = arena.starts == null ? '' : new Date(arena.starts).toLocaleString(document.documentElement.lang, { weekday: 'short', hour: '2-digit', minute: '2-digit' });
  start.textContent = [at, t('arena.players', { count: arena.players })].filter(Boolean).join(' · ');
  const phase = document.createElement('span');
  phase.className = 'arena-when';
  phase.textContent = when(arena);
  text.append(about, document.createElement('br'), start, document.createElement('br'), phase);
  const link = document.createElement('a');
  link.className = 'button';
  link.href = `/arena/${arena.id}`;
  link.textContent = arena.phase === 'finished' ? t('arena.results') : t('arena.open');
  li.append(text, link);
  return li;
}

function show() {
  $('arena-list').replaceChildren(...arenas.map(item));
  $('arena-empty').hidden = arenas.length > 0;
}

async function ask() {
  try {
    const answer = await fetch('/api/arenas');
    if (answer.ok) { arenas = await answer.json(); show(); }
  } catch { /* offline: the list stays as it was */ }
}

if ($('arena-list')) {
  makeForm();
  ask();
  setInterval(ask, 15000);
  setInterval(() => {
    for (const li of $('arena-list').children) {
      const arena = arenas.find((a) => a.id === li.dataset.arena);
      if (arena) li.querySelector('.arena-when').textContent = when(arena);
    }
  }, 1000);
}
