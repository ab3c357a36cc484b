// The watch page: the games being played at open tables, live (GET /ws/watch, at most one list
// a second), the liveliest on top; each opens at /g/<id> as a watcher (no seat is asked for).
import { t } from './i18n.js';

const $ = (id) => document.getElementById(id);

function clockLabel(clock) {
  return clock ? `${clock.initial / 60}+${clock.increment}` : t('home.no-clock-summary');
}

function item(game) {
  const li = document.createElement('li');
  li.dataset.game = game.game;
  const text = document.createElement('span');
  const about = document.createElement('span');
  about.textContent = t('watch.game', { rules: game.rules, clock: clockLabel(game.clock), count: game.turns });
  const watching = document.createElement('span');
  watching.className = 'note watchers';
  watching.textContent = t('game.watchers', { count: game.watchers });
  text.append(about, document.createElement('br'), watching);
  const link = document.createElement('a');
  link.className = 'button';
  link.href = `/g/${game.game}`;
  link.textContent = t('watch.open');
  li.append(text, link);
  return li;
}

function show(games) {
  const [top, ...rest] = games;
  $('watch-featured').hidden = !top;
  $('featured-game').replaceChildren(...(top ? [item(top)] : []));
  $('watch-games').replaceChildren(...rest.map(item));
  $('watch-empty').hidden = games.length > 0;
  // The other games' card: their list, or, with no game at all, that there is none.
  $('others-title').hidden = rest.length === 0;
  $('watch-others').hidden = Boolean(top) && rest.length === 0;
}

function setOffline(offline) {
  $('watch-offline').hidden = !offline;
  if (!offline) return;
  show([]);
  $('watch-others').hidden = true;
}

function listen() {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  const ws = new WebSocket(`${scheme}://${location.host}/ws/watch`);
  let opened = false;
  ws.onopen = () => { opened = true; };
  ws.onmessage = (e) => {
    const msg = JSON.parse(e.data);
    if (msg.t !== 'playing') return;
    setOffline(false);
    show(msg.d);
  };
  ws.onclose = () => {
    // Offline: the browser says so, or the server could not be reached at all.
    if (!opened || !navigator.onLine) setOffline(true);
    setTimeout(listen, 2000);
  };
}
addEventListener('offline', () => setOffline(true));
listen();
