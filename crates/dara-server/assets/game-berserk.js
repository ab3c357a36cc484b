// Berserk in an arena's game, fetched by game.js for an arena's game alone (so that no other game
// page carries it): before their first move, a player may halve their own time for a point more,
// should they win with at least 7 moves of their own. The button sits by the player's clock and
// asks the arena (POST /api/arenas/<id>/berserk); the table halves the clock and tells both
// players and the watchers (the game's `berserk` event: game-messages.js sets the clock, with
// `Object.assign` so that the countdown for a first move, which the event leaves out, runs on,
// and keeps the side, so that a page that fetched this script late still knows it), and every
// side that went berserk (the snapshot's `berserk`, then each event) is marked by its clock.
import { t } from './i18n.js';
import './arena-words.js';

const make = (tag, className, text) => {
  const element = document.createElement(tag);
  element.className = className;
  element.textContent = text;
  return element;
};

// `state` is the game page's; the arena and the game's number in it are as arena.js kept them.
export default function berserk(state) {
  const [arena, , no] = localStorage.getItem('dara.arena.current').split(' ');
  const button = make('button', 'secondary', t('arena.berserk'));
  button.type = 'button';
  button.id = 'berserk';
  button.title = t('arena.berserk-title');
  const note = make('span', 'note', '');
  note.id = 'berserk-note';
  note.setAttribute('role', 'status');
  // On a phone the panel is a grid (style.css): the button and its note take a row of their
  // own, rather than a narrow first column that pushed the player's name aside.
  button.style.gridColumn = note.style.gridColumn = '1 / -1';
  let asking = false;

  async function ask() {
    asking = true;
    note.textContent = '';
    let code = null;
    try {
      const answer = await fetch(`/api/arenas/${arena}/berserk`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ player: localStorage.getItem('dara.arena.player'), game: Number(no) }),
      });
      if (!answer.ok) code = (await answer.json().catch(() => ({}))).code;
    } catch {
      code = 'offline';
    }
    // Every code the server gives has its words (i18n.test.js holds them to `dara codes`);
    // anything else is worded as a request it could not read.
    const worded = code !== null && t(`arena.code.${code}`) !== `arena.code.${code}`;
    if (code !== null) note.textContent = t(`arena.code.${worded ? code : 'bad-request'}`);
    asking = false;
    show();
  }
  button.addEventListener('click', ask);

  // The button while the player may still go berserk (their first move not made, the game on);
  // a mark by each berserk side's clock.
  function show() {
    const { game } = state;
    if (!game) return;
    const gone = game.berserk || [];
    for (const colour of gone) {
      const panel = document.getElementById(`player-${colour}`);
      if (!panel.querySelector('.berserk-mark')) {
        const mark = make('span', 'berserk-mark', '⚔');
        mark.title = t('arena.berserk-mark');
        // In the phone's grid, at the end of the stones' line, beside the clock.
        mark.style.cssText = 'grid-area: counts; justify-self: end';
        panel.querySelector('.clock').after(mark);
      }
    }
    const you = game.you;
    // Placement alternates from pale's first turn: pale's first move is the first, dark's the second.
    const moved = game.moves.length >= (you === 'white' ? 1 : 2);
    const may = Boolean(you && state.clock && !game.end && !moved && !gone.includes(you));
    if (may && !button.isConnected) document.getElementById(`player-${you}`).querySelector('.clock').after(button, note);
    button.hidden = !may;
    button.disabled = asking;
  }
  button.addEventListener('click', show);
  setInterval(show, 250);
  show();
}
