// Small still boards for the "How to play" page, drawn from position text so the diagrams
// and the notation can never disagree.
import { parsePosition, cellName } from './notation.js';

const NS = 'http://www.w3.org/2000/svg';

function el(name, attrs, parent) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

export function drawDiagram(figure) {
  const pos = parsePosition(figure.dataset.position);
  const marks = (figure.dataset.marks || '').split(' ').filter(Boolean);
  const crosses = (figure.dataset.crosses || '').split(' ').filter(Boolean);
  // A step shown after it was made: an arrow from where the stone stood, and dashed rings
  // where the stones it took stood.
  const arrow = (figure.dataset.arrow || '').split(' ').filter(Boolean);
  const taken = (figure.dataset.taken || '').split(' ').filter(Boolean);
  const size = 40, pad = 22;
  const w = pos.cols * size + pad * 2, h = pos.rows * size + pad * 2;
  const svg = el('svg', { viewBox: `0 0 ${w} ${h}`, class: 'diagram', role: 'img', 'aria-label': figure.querySelector('figcaption')?.textContent || 'a board' });
  el('rect', { x: pad - 6, y: pad - 6, width: pos.cols * size + 12, height: pos.rows * size + 12, rx: 8, class: 'wood' }, svg);
  for (let rank = 0; rank < pos.rows; rank++) {
    for (let file = 0; file < pos.cols; file++) {
      const x = pad + file * size + size / 2, y = pad + (pos.rows - 1 - rank) * size + size / 2;
      const name = cellName(file, rank);
      el('circle', { cx: x, cy: y, r: 14, class: 'hole' }, svg);
      const stone = pos.stones.get(name);
      if (stone) el('circle', { cx: x, cy: y, r: 15, class: stone === 'W' ? 'stone pale' : 'stone dark', 'data-cell': name }, svg);
      if (taken.includes(name)) el('circle', { cx: x, cy: y, r: 15, class: 'taken' }, svg);
      if (marks.includes(name)) el('circle', { cx: x, cy: y, r: 18, class: 'mark' }, svg);
      if (crosses.includes(name)) {
        el('path', { d: `M${x - 9} ${y - 9}L${x + 9} ${y + 9}M${x + 9} ${y - 9}L${x - 9} ${y + 9}`, class: 'cross' }, svg);
      }
    }
  }
  if (arrow.length === 2) {
    const centre = (name) => {
      const file = name.charCodeAt(0) - 97, rank = Number(name.slice(1)) - 1;
      return [pad + file * size + size / 2, pad + (pos.rows - 1 - rank) * size + size / 2];
    };
    const [[x1, y1], [x2, y2]] = arrow.map(centre);
    // From the edge of the empty hole to just short of the stone's edge, with a head.
    const len = Math.hypot(x2 - x1, y2 - y1), ux = (x2 - x1) / len, uy = (y2 - y1) / len;
    const sx = x1 + ux * 8, sy = y1 + uy * 8, ex = x2 - ux * 17, ey = y2 - uy * 17;
    el('path', { d: `M${sx} ${sy}L${ex - ux * 5} ${ey - uy * 5}`, class: 'arrow' }, svg);
    el('path', { d: `M${ex} ${ey}L${ex - ux * 8 - uy * 5} ${ey - uy * 8 + ux * 5}L${ex - ux * 8 + uy * 5} ${ey - uy * 8 - ux * 5}Z`, class: 'arrow-head' }, svg);
  }
  for (let file = 0; file < pos.cols; file++) {
    const t = el('text', { x: pad + file * size + size / 2, y: h - 4, class: 'coord' }, svg);
    t.textContent = String.fromCharCode(97 + file);
  }
  for (let rank = 0; rank < pos.rows; rank++) {
    const t = el('text', { x: 7, y: pad + (pos.rows - 1 - rank) * size + size / 2 + 4, class: 'coord' }, svg);
    t.textContent = String(rank + 1);
  }
  figure.prepend(svg);
}

for (const figure of document.querySelectorAll('figure[data-position]')) drawDiagram(figure);
