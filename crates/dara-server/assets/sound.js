// Quiet sounds for a move, a capture and the end of a game, made on the spot with WebAudio
// (nothing is downloaded). Whether they are muted is game-state.js's; this module is fetched only
// at the person's first press or key, before which no page may make a sound anyway.

import { muted } from './game-state.js';

let context = null;

// Browsers let a page make sound only after the person has touched it, so the audio context is
// made on the first press or key, not before (which would only earn a warning).
export function unlock() {
  if (muted()) return;
  const Audio = window.AudioContext || window.webkitAudioContext;
  if (!context && Audio) context = new Audio();
  if (context && context.state === 'suspended') context.resume().catch(() => {});
}

// One soft note: a quick rise and a gentle fall, well below full volume.
function note(frequency, at, length, volume, type = 'sine') {
  const oscillator = context.createOscillator();
  const gain = context.createGain();
  oscillator.type = type;
  oscillator.frequency.value = frequency;
  gain.gain.setValueAtTime(0.0001, at);
  gain.gain.exponentialRampToValueAtTime(volume, at + 0.012);
  gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
  oscillator.connect(gain).connect(context.destination);
  oscillator.start(at);
  oscillator.stop(at + length + 0.02);
}

// 'move', 'capture', 'your-turn' (the page is hidden and the person's turn has come), 'found'
// (someone sat down at the table this browser waits at: seek.js) or 'end'.
export function play(kind) {
  if (muted() || !context) return;
  const t = context.currentTime + 0.01;
  if (kind === 'move') {
    note(540, t, 0.09, 0.06, 'triangle');
  } else if (kind === 'capture') {
    note(330, t, 0.12, 0.07, 'triangle');
    note(220, t + 0.08, 0.18, 0.06, 'triangle');
  } else if (kind === 'your-turn') {
    // Heard in another tab: a rising pair, unlike any move's note.
    note(660, t, 0.14, 0.06);
    note(880, t + 0.12, 0.22, 0.06);
  } else if (kind === 'found') {
    // A call heard from any page: three rising notes, twice.
    [0, 0.6].forEach((at) => [587, 740, 880].forEach((f, i) => note(f, t + at + i * 0.1, 0.2, 0.06)));
  } else if (kind === 'end') {
    [523, 659, 784].forEach((f, i) => note(f, t + i * 0.15, 0.35, 0.05));
  }
}
