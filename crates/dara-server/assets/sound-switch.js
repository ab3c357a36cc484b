// Whether the sounds are muted, which the browser remembers: read as the game page is drawn,
// while the sounds themselves (sound.js) are fetched only once the person first presses or types.

const KEY = 'dara.sound';

export function muted() {
  return localStorage.getItem(KEY) === 'off';
}

export function setMuted(off) {
  localStorage.setItem(KEY, off ? 'off' : 'on');
}
