// Private arenas, as their maker sees them: the form on /arenas that makes one (POST
// /api/arenas) and, on the arena's own page, its link to send and the Start button. The maker's
// secret stays in this browser (`dara.arena.made`: each arena's id, secret and when it was
// made), dropped a week and a day after it was made: an arena starts within a week and is
// forgotten an hour after its end, so none outlives it.
import { t } from './i18n.js';

const $ = (id) => document.getElementById(id);
const KEY = 'dara.arena.made';
const KEPT_MS = 8 * 24 * 3600 * 1000;

function made() {
  try {
    const all = JSON.parse(localStorage.getItem(KEY) || '{}');
    const now = Date.now();
    return Object.fromEntries(Object.entries(all).filter(([, m]) => m && now - m.at < KEPT_MS));
  } catch { return {}; }
}

function keep(arena, secret) {
  try { localStorage.setItem(KEY, JSON.stringify({ ...made(), [arena]: { secret, at: Date.now() } })); } catch { /* storage refused: only this visit knows */ }
}

// The words for a refusal of the server's: its code's, or a bad request's.
function refusalText(refusal) {
  const key = `arena.code.${refusal.code}`;
  return t(key, refusal) === key ? t('arena.code.bad-request') : t(key, refusal);
}

// The form on /arenas.
export function makeForm() {
  const form = $('make-form');
  if (!form) return;
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const error = $('make-error');
    error.hidden = true;
    const [initial, increment] = $('make-clock').value.split('+').map(Number);
    const body = { rules: $('make-rules').value, clock: { initial: initial * 60, increment }, minutes: Number($('make-minutes').value) };
    const at = $('make-at').value;
    if (at) {
      // The next time it is that o'clock here: today, or tomorrow if it has passed.
      const [h, m] = at.split(':').map(Number);
      const when = new Date();
      when.setHours(h, m, 0, 0);
      if (when.getTime() < Date.now()) when.setDate(when.getDate() + 1);
      body.starts = when.getTime();
    }
    $('make').disabled = true;
    try {
      const answer = await fetch('/api/arenas', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
      const reply = await answer.json().catch(() => ({}));
      if (answer.ok) {
        keep(reply.arena, reply.secret);
        location.href = `/arena/${reply.arena}`;
        return;
      }
      error.textContent = refusalText(reply);
    } catch {
      error.textContent = t('arena.code.offline');
    }
    error.hidden = false;
    $('make').disabled = false;
  });
  // Ready: until now a press would have sent the form the browser's own way.
  $('make').disabled = false;
}

// On an arena's page: for its maker, its link and, while it waits for them, Start.
export function showMaker(arena, about, phase) {
  const mine = made()[arena];
  const card = $('maker-card');
  if (!card || !mine || !about || about.scheduled) return;
  card.hidden = phase === 'finished';
  $('arena-link').value = `${location.origin}/arena/${arena}`;
  $('start-now').hidden = !(phase === 'waiting' && about.starts == null);
  if (card.dataset.ready) return;
  card.dataset.ready = 'yes';
  $('copy-link').addEventListener('click', async () => {
    $('arena-link').select();
    try { await navigator.clipboard.writeText($('arena-link').value); } catch { document.execCommand?.('copy'); }
    $('copy-link').textContent = t('arena.copied');
  });
  $('start-now').addEventListener('click', async () => {
    $('start-now').disabled = true;
    const error = $('maker-error');
    error.hidden = true;
    try {
      const answer = await fetch(`/api/arenas/${arena}/start`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ secret: mine.secret }) });
      if (answer.ok) { $('start-now').hidden = true; return; }
      error.textContent = refusalText(await answer.json().catch(() => ({})));
    } catch {
      error.textContent = t('arena.code.offline');
    }
    error.hidden = false;
    $('start-now').disabled = false;
  });
}
