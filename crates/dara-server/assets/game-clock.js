// The clocks and the absent player's counters, which tick between messages: each is counted on
// from the last figure the server sent, by the page's own monotonic time.
import { t } from './i18n.js';
import { opponentOf } from './game-state.js';

// The clock as the server sent it, stamped with when it came.
export const clockAt = (view) => (view ? { ...view, at: performance.now() } : null);

// `colour`'s time left, in ms, now; null without a clock.
export function clockMs(state, colour) {
  const base = state.clock;
  if (!base) return null;
  let ms = base[colour];
  if (base.running === colour && !state.game.end) ms -= performance.now() - base.at;
  return Math.max(0, ms);
}

// Before `colour`'s first move, the ms it has left to make it (the game is aborted after);
// null once it has moved, when it is not its turn, or in a game without a clock.
export function firstMoveMs(state, colour) {
  const base = state.clock;
  const { game } = state;
  if (!base || base.firstMove == null || game.end || game.pos.side !== colour) return null;
  return Math.max(0, base.firstMove - (performance.now() - base.at));
}

export function firstMoveText(state, colour) {
  const ms = firstMoveMs(state, colour);
  return ms === null ? '' : t('clock.first-move', { seconds: Math.ceil(ms / 1000) });
}

export function formatMs(ms) {
  const s = Math.ceil(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

// How long `colour`'s player has been gone and how long until their game may be claimed, in
// ms, counted on from the last presence message; null unless gone (awayMs).
function absence({ presence }, colour) {
  const p = presence?.[colour];
  if (p?.awayMs == null) return null;
  const since = performance.now() - presence.at;
  return { gone: p.awayMs + since, claimIn: Math.max(0, (p.claimInMs || 0) - since) };
}

export function presenceText(state, colour) {
  const { game } = state;
  const away = game.end ? null : absence(state, colour);
  if (!away) return '';
  const text = t('presence.reconnecting', { seconds: Math.round(away.gone / 1000) });
  if (colour === game.you || !game.you) return text;
  const wait = Math.ceil(away.claimIn / 1000);
  return wait > 0 ? t('presence.claim-in', { text, seconds: wait }) : t('presence.claim-now', { text });
}

// Seconds until the absent opponent's game may be claimed (0: now), or null if they are here.
export function claimWait(state) {
  const { game } = state;
  if (!game.you || game.end) return null;
  const away = absence(state, opponentOf(game.you));
  return away && Math.ceil(away.claimIn / 1000);
}
