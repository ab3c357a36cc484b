// Sharing from the pages: a link through the system's share sheet where the browser has one
// (phones, most desktops), else copied; and a game's record downloaded as a file. A game or a
// position travels in the link's fragment (the analysis board reads it), so nothing of it is
// kept on the server, nor reaches its logs.
import { t } from './i18n.js';

// The analysis board's link for a game or a position: `start` (the position, five fields),
// and the game's `moves` and `result` if there are some.
export function analysisLink({ rules, start, moves = [], result = null }) {
  const fragment = new URLSearchParams({ rules, start });
  if (moves.length) fragment.set('moves', moves.join(','));
  if (result) fragment.set('result', result);
  return `${location.origin}/analysis#${fragment}`;
}

// Shares `url` (with a title and a line of text); `say(text)` tells the person what happened.
export async function shareLink({ title, text, url }, say) {
  if (navigator.share) {
    try {
      await navigator.share({ title, text, url });
      return;
    } catch (error) {
      // Closed by the person: nothing to say. Refused (no sheet here after all): copied.
      if (error.name === 'AbortError') return;
    }
  }
  navigator.clipboard.writeText(url).then(() => say(t('share.link-copied')), () => say(t('game.copy-by-hand')));
}

// Downloads `text` as the file `name`.
export function download(name, text) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
