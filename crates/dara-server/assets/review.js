// A finished game's review: the server's engine goes through the game (POST /api/review), or the
// page's own when the server does not answer (study.js), and marks each turn by what it lost; this draws the marks in the move list's words, an
// evaluation graph over the game (the same figures as a table, for a screen reader), and for a
// turn that lost something, the engine's better turn. The thresholds are the server's
// (PROTOCOL.md, "Analysis").

import { t } from './i18n.js';
import { moveNumbers } from './notation.js';

const SVG = 'http://www.w3.org/2000/svg';

// What each mark is called, and the sign a move list gives it.
export const MARKS = {
  best: { word: t('mark.best'), sign: '' },
  good: { word: t('mark.good'), sign: '' },
  inaccuracy: { word: t('mark.inaccuracy'), sign: '?!' },
  mistake: { word: t('mark.mistake'), sign: '?' },
  blunder: { word: t('mark.blunder'), sign: '??' },
};

// Asks the server to review `game` (a finished game's snapshot), or the page's engine when the
// server does not answer: the review (`inPage: true` if the page made it), or an Error whose
// message is the server's reason (busy, one at a time, ...).
export async function fetchReview(game) {
  // Fetched when a review is asked for: the game page is usable without it.
  const { reviewGame } = await import('./study.js');
  return reviewGame({ rules: game.rules, positions: game.positions, moves: game.moves });
}

// "+1.4" for Pale, in stones, as the graph and the table say it.
export function evaluationText(pale) {
  if (pale >= 1000) return t('end.wins', { side: t('side.white') });
  if (pale <= -1000) return t('end.wins', { side: t('side.black') });
  const tenths = Math.round(pale / 10);
  if (tenths === 0) return '0.0';
  const stones = (tenths / 10).toFixed(1);
  return tenths > 0 ? `+${stones}` : stones;
}

// Who played each side, as the review names them: `head` starts a sentence or fills a cell,
// `by` goes inside one. For a player: "you" and "the computer" (or "your opponent"); for a
// watcher, Pale and Dark.
export function sideNames(you, opponent) {
  const names = {};
  for (const colour of ['white', 'black']) {
    const who = !you ? null : colour === you ? 'you' : opponent === 'computer' ? 'computer' : 'opponent';
    names[colour] = who
      ? { head: t(`review.${who}-head`), by: t(`review.${who}`) }
      : { head: t(`side.${colour}`), by: t(`side.${colour}`) };
  }
  return names;
}

// The graph: Pale's evaluation after each turn, the start first, the side ahead named at its
// edge; a click anywhere on it shows the position nearest the click. `shown` is the ply on
// the board.
export function drawGraph(host, review, shown, onView, who = sideNames(null)) {
  const n = review.positions.length - 1;
  const width = 400;
  const height = 120;
  const x = (ply) => (n === 0 ? 0 : (ply * width) / n);
  // Squeezed towards the ends, so that a stone's difference shows and a won game is at the edge.
  const y = (pale) => height / 2 - Math.tanh(pale / 300) * (height / 2 - 6);
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
  svg.setAttribute('class', 'eval-graph');
  svg.setAttribute('aria-hidden', 'true');
  const el = (name, attrs) => {
    const node = document.createElementNS(SVG, name);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
    svg.appendChild(node);
    return node;
  };
  el('rect', { x: 0, y: 0, width, height, class: 'eval-dark' });
  const points = review.positions.map((p, ply) => `${x(ply)},${y(p.pale)}`);
  el('polygon', { points: `0,${height} ${points.join(' ')} ${x(n)},${height}`, class: 'eval-pale' });
  el('line', { x1: 0, y1: height / 2, x2: width, y2: height / 2, class: 'eval-even' });
  el('line', { x1: x(shown), y1: 0, x2: x(shown), y2: height, class: 'eval-shown' });
  el('text', { x: 4, y: 14, class: 'eval-label eval-label-pale' }).textContent = t('review.ahead', { side: who.white.head });
  el('text', { x: 4, y: height - 5, class: 'eval-label eval-label-dark' }).textContent = t('review.ahead', { side: who.black.head });
  // Anywhere on the graph, not only its points: the turn nearest the click.
  svg.addEventListener('click', (e) => {
    const box = svg.getBoundingClientRect();
    if (box.width === 0) return;
    onView(Math.round(((e.clientX - box.left) / box.width) * n));
  });
  review.turns.forEach((turn, i) => {
    const ply = i + 1;
    const bad = turn.mark === 'mistake' || turn.mark === 'blunder' || turn.mark === 'inaccuracy';
    const dot = el('circle', {
      cx: x(ply), cy: y(review.positions[ply].pale), r: bad ? 4 : 2.5,
      class: `eval-point mark-${turn.mark}`,
    });
    dot.dataset.ply = String(ply);
  });
  host.replaceChildren(svg);
}

// The same figures as a table, a row a turn, each with a button to see the board after it.
export function fillTable(tbody, review, onView, who = sideNames(null)) {
  tbody.replaceChildren();
  const numbers = moveNumbers(review.turns.map((turn) => turn.by));
  review.turns.forEach((turn, i) => {
    const ply = i + 1;
    const row = document.createElement('tr');
    const cells = [
      numbers[i].label,
      null,
      who[turn.by].head,
      MARKS[turn.mark].word,
      evaluationText(review.positions[ply].pale),
      turn.mark === 'best' || turn.mark === 'good' || !turn.best ? '' : turn.best,
    ];
    for (const text of cells) {
      const td = document.createElement('td');
      if (text === null) {
        const button = document.createElement('button');
        button.type = 'button';
        button.className = 'link';
        button.textContent = turn.move;
        button.addEventListener('click', () => onView(ply));
        td.appendChild(button);
      } else {
        td.textContent = text;
      }
      row.appendChild(td);
    }
    if (turn.mark !== 'best' && turn.mark !== 'good') row.classList.add(`mark-${turn.mark}`);
    tbody.appendChild(row);
  });
}

// How many turns of each bad kind each side played: "Pale: 1 inaccuracy, 2 mistakes".
export function summary(review, who = sideNames(null)) {
  const lines = [];
  for (const colour of ['white', 'black']) {
    const counts = { inaccuracy: 0, mistake: 0, blunder: 0 };
    for (const t of review.turns) if (t.by === colour && t.mark in counts) counts[t.mark] += 1;
    const parts = Object.entries(counts).filter(([, c]) => c > 0)
      .map(([mark, c]) => t(`review.count.${mark}`, { count: c }));
    lines.push(t('review.side', { side: who[colour].head, marks: parts.length ? parts.join(', ') : t('review.none') }));
  }
  return `${lines.join('. ')}.`;
}

// What the review says of the turn that led to the position shown (ply 0: the start).
export function turnNote(review, ply, who = sideNames(null)) {
  if (ply === 0) return t('review.start', { move: review.positions[0].best || t('review.nothing') });
  const turn = review.turns[ply - 1];
  const { label } = moveNumbers(review.turns.map((each) => each.by))[ply - 1];
  const head = t('review.turn', { label, move: turn.move, side: who[turn.by].by, mark: MARKS[turn.mark].word, evaluation: evaluationText(review.positions[ply].pale) });
  const better = turn.mark === 'best' || turn.mark === 'good' || !turn.best ? '' : ` ${t('review.better', { move: turn.best })}`;
  return `${head}${better}`;
}
