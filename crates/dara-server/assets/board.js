// The board: draws the position the server sent, and turns taps, drags and keys into one whole
// turn (placement, or step plus the captures chosen). Which moves exist comes only from the
// server's list of legal moves. Beside it, the move list (renderMoveList, at the end).
import { parsePosition, parseMove, cellName, parseCell } from './notation.js';
import { t } from './i18n.js';

const NS = 'http://www.w3.org/2000/svg';
const SIZE = 100;
const PAD = 44;
// How long the other side's move is shown moving: longer than the CSS animations take.
const MOTION_MS = 700;

function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

export class Board {
  // onTurn(moveText) sends a turn; say(text) announces to screen readers and the status line;
  // onChange() hears that a stone was picked up or let go, or a capture is being chosen;
  // onClosed(cell) hears that the player tried a closed cell (its reason already said).
  // onPremove(step or null) hears a step chosen ahead in the other side's turn, or let go.
  constructor(host, { onTurn, say, onChange = () => {}, onClosed = () => {}, onPremove = () => {} }) {
    this.host = host;
    this.onTurn = onTurn;
    this.onPremove = onPremove;
    this.say = say;
    this.onChange = onChange;
    this.onClosed = onClosed;
    this.selected = null;      // the stone chosen to step
    this.pending = null;       // { from, to, moves, chosen } while picking captures
    this.cursor = null;        // keyboard focus cell
    this.dragFrom = null;      // where the pointer went down
    this.pressedSelected = false; // whether it went down on the stone already picked up
    this.flipped = false;
    this.motion = null;        // { key, at }: the other side's move being shown moving, since when
    // The usual board's shape (6 × 5) until its position comes, so the page does not move then.
    this.svg = el('svg', { class: 'board', role: 'grid', 'aria-label': t('board.label'), viewBox: `0 0 ${6 * SIZE + PAD * 2} ${5 * SIZE + PAD * 2}` });
    host.appendChild(this.svg);
    // The focus ring shows only for keyboard use, not after every tap.
    this.svg.addEventListener('keydown', (e) => { this.svg.classList.add('keyboard'); this.key(e); });
    this.svg.addEventListener('pointerdown', (e) => { this.svg.classList.remove('keyboard'); this.pointerDown(e); });
    this.svg.addEventListener('pointerup', (e) => this.pointerUp(e));
  }

  // state: { fen, legal, forbidden, mine (bool: may I move now), waiting (bool: my turn is on
  // its way), browsing (bool: an earlier position), lastMove, flipped (bool: pale at the top),
  // fresh ({ key, move }: a move just made by the other side, to show moving), premoving
  // (bool: a step may be chosen ahead, in the other side's turn), own ('W' or 'B': the
  // stones that may be chosen so), premoveSteps (['c3-c4', ...]: the steps those stones may
  // take, were it their turn), premove ('c3-c4': the step chosen ahead, or null) }
  show(state) {
    const samePosition = this.state && this.state.fen === state.fen && this.state.mine === state.mine;
    this.state = state;
    this.pos = parsePosition(state.fen);
    this.moves = state.mine ? state.legal.map((text) => ({ text, ...parseMove(text) })) : [];
    if (!samePosition) { this.selected = null; this.pending = null; }
    this.flipped = !!state.flipped;
    this.draw();
  }

  // Whether the player is choosing which stone to take.
  choosingCapture() { return !!this.pending; }

  xy(name) {
    const { file, rank } = parseCell(name);
    const col = this.flipped ? this.pos.cols - 1 - file : file;
    const row = this.flipped ? rank : this.pos.rows - 1 - rank;
    return [PAD + col * SIZE + SIZE / 2, PAD + row * SIZE + SIZE / 2];
  }

  // Where a tap on `name` would lead now: 'put', 'select', 'target', 'capture' or null.
  targetsFrom(from) { return this.moves.filter((m) => m.kind === 'step' && m.from === from); }

  role(name) {
    if (this.premoveRoles()) {
      // The steps the rules allow these stones in this position (`premoveSteps`, asked of the
      // rules by the page); one the opponent's move makes impossible is let go when it comes.
      if (this.selected && this.premoveTargets(this.selected).includes(name)) return 'target';
      return this.pos.stones.get(name) === this.state.own && this.premoveTargets(name).length ? 'select' : null;
    }
    if (this.pending) {
      return this.captureChoices().includes(name) ? 'capture' : null;
    }
    if (this.moves.some((m) => m.kind === 'put' && m.to === name)) return 'put';
    if (this.selected && this.targetsFrom(this.selected).some((m) => m.to === name)) return 'target';
    if (this.targetsFrom(name).length) return 'select';
    return null;
  }

  // Whether a step is being chosen ahead: the other side's turn, none chosen yet.
  premoveRoles() { return !this.state.mine && this.state.premoving && !this.state.premove; }

  // Where the stone on `from` may step, chosen ahead.
  premoveTargets(from) {
    return (this.state.premoveSteps || []).filter((s) => s.startsWith(`${from}-`)).map((s) => s.split('-')[1]);
  }

  // The step chosen ahead, as its two cells.
  premoveCells() {
    const m = this.state.premove && parseMove(this.state.premove);
    return m && m.kind === 'step' ? [m.from, m.to] : [];
  }

  // The row of three the last turn made (the mover's stones in line through the cell it went
  // to, on the board shown), when that turn took a stone; the server names the row itself
  // once it sends one with the move (`state.lastRow`).
  rowCells() {
    if (this.state.lastRow) return this.state.lastRow;
    const m = this.state.lastMove && parseMove(this.state.lastMove);
    if (!m || m.kind === 'pass' || !m.captures || m.captures.length === 0) return [];
    const stone = this.pos.stones.get(m.to);
    if (!stone) return [];
    const at = parseCell(m.to);
    const run = (df, dr) => {
      const cells = [];
      for (const sign of [-1, 1]) {
        for (let i = 1; ; i++) {
          const file = at.file + sign * i * df;
          const rank = at.rank + sign * i * dr;
          if (file < 0 || rank < 0 || file >= this.pos.cols || rank >= this.pos.rows) break;
          const name = cellName(file, rank);
          if (this.pos.stones.get(name) !== stone) break;
          cells.push(name);
        }
      }
      return [m.to, ...cells];
    };
    return [run(1, 0), run(0, 1)].filter((cells) => cells.length >= 3).flat();
  }

  captureChoices() {
    const { moves, chosen } = this.pending;
    const left = moves.filter((m) => chosen.every((c) => m.captures.includes(c)));
    return [...new Set(left.flatMap((m) => m.captures).filter((c) => !chosen.includes(c)))];
  }

  describe(name) {
    const stone = this.pos.stones.get(name);
    const parts = [name, stone ? t(`cell.stone.${stone}`) : t('cell.empty')];
    const role = this.role(name);
    if (role === 'put') parts.push(t('cell.put'));
    if (role === 'select') parts.push(t('cell.select'));
    if (role === 'target') parts.push(t('cell.target', { from: this.selected }));
    if (role === 'capture') parts.push(t('cell.capture'));
    if (this.selected === name) parts.push(t('cell.selected'));
    if (this.state.forbidden[name] && this.state.mine) parts.push(t('cell.closed', { why: this.closedWhy(name) }));
    if (this.state.lastMove && this.lastCells().includes(name)) parts.push(t('cell.last'));
    if (this.rowCells().includes(name)) parts.push(t('cell.row'));
    if (this.takenCells().includes(name)) parts.push(t('cell.taken'));
    const premove = this.premoveCells();
    if (premove[0] === name) parts.push(t('cell.premove-from', { to: premove[1] }));
    if (premove[1] === name) parts.push(t('cell.premove-to', { from: premove[0] }));
    return parts.join(', ');
  }

  // Why `name` is closed, worded from the server's code (its English where there is none).
  closedWhy(name) {
    const code = this.state.closed && this.state.closed[name];
    return code ? t(`closed.${code}`) : this.state.forbidden[name];
  }

  // The cells whose stones the last turn took.
  takenCells() {
    return this.state.lastMove ? parseMove(this.state.lastMove).captures || [] : [];
  }

  lastCells() {
    if (!this.state.lastMove) return [];
    const m = parseMove(this.state.lastMove);
    return m.kind === 'pass' ? [] : [m.from, m.to].filter(Boolean);
  }

  draw() {
    const { rows, cols } = this.pos;
    const svg = this.svg;
    const hadFocus = svg.contains(document.activeElement);
    svg.replaceChildren();
    svg.setAttribute('viewBox', `0 0 ${cols * SIZE + PAD * 2} ${rows * SIZE + PAD * 2}`);
    el('rect', { x: PAD - 14, y: PAD - 14, width: cols * SIZE + 28, height: rows * SIZE + 28, rx: 18, class: 'wood' }, svg);
    const last = this.lastCells();
    const captured = this.takenCells();
    const row = this.rowCells();
    const premove = this.premoveCells();
    // The other side's step slides its stone in, and the stones it took fade out. A board drawn
    // again meanwhile carries on from where the motion was (a negative delay), so it runs once
    // per move; after it, or once the player picks a stone, the stone is drawn in its cell as
    // any other. CSS leaves both out under reduced motion.
    const now = performance.now();
    const key = this.state.fresh && this.state.fresh.key;
    if (key && (!this.motion || this.motion.key !== key)) this.motion = { key, at: now };
    const elapsed = key ? now - this.motion.at : Infinity;
    const fresh = elapsed < MOTION_MS && !this.selected && !this.pending ? parseMove(this.state.fresh.move) : null;
    const slide = fresh && fresh.kind === 'step' ? fresh : null;
    const gone = fresh ? fresh.captures : [];
    const moving = [];
    if (!this.cursor || !parseCell(this.cursor) || parseCell(this.cursor).file >= cols || parseCell(this.cursor).rank >= rows) {
      this.cursor = cellName(0, 0);
    }
    for (let r = 0; r < rows; r++) {
      const rankIndex = this.flipped ? r : rows - 1 - r;
      const rowGroup = el('g', { role: 'row' }, svg);
      for (let c = 0; c < cols; c++) {
        const fileIndex = this.flipped ? cols - 1 - c : c;
        const name = cellName(fileIndex, rankIndex);
        const [x, y] = this.xy(name);
        const role = this.role(name);
        const g = el('g', {
          role: 'gridcell', 'data-cell': name, tabindex: name === this.cursor ? '0' : '-1',
          'aria-label': this.describe(name),
          class: ['cell', role, row.includes(name) && 'in-row', captured.includes(name) && 'was-taken', premove.includes(name) && 'premove'].filter(Boolean).join(' '),
        }, rowGroup);
        el('rect', { x: x - SIZE / 2, y: y - SIZE / 2, width: SIZE, height: SIZE, class: 'hit' }, g);
        el('circle', { cx: x, cy: y, r: 30, class: 'hole' }, g);
        if (this.state.mine && this.state.forbidden[name]) {
          el('path', { d: `M${x - 12} ${y - 12}L${x + 12} ${y + 12}M${x + 12} ${y - 12}L${x - 12} ${y + 12}`, class: 'forbidden' }, g);
          el('title', {}, g).textContent = this.state.forbidden[name];
        }
        if (row.includes(name)) el('rect', { x: x - 46, y: y - 46, width: 92, height: 92, rx: 16, class: 'row-mark' }, g);
        if (last.includes(name)) el('circle', { cx: x, cy: y, r: 42, class: 'last' }, g);
        if (premove.includes(name)) el('circle', { cx: x, cy: y, r: 38, class: 'premove-mark' }, g);
        if (captured.includes(name)) el('circle', { cx: x, cy: y, r: 20, class: 'taken' }, g);
        // While the player picks a capture, the stepping stone is shown where it is going.
        let stone = this.pos.stones.get(name);
        let ghost = '';
        if (this.pending && name === this.pending.from) { stone = null; }
        if (this.pending && name === this.pending.to) { stone = this.pos.stones.get(this.pending.from); ghost = ' arriving'; }
        if (stone && slide && name === slide.to) moving.push({ name, stone, from: slide.from });
        else if (stone) el('circle', { cx: x, cy: y, r: 34, class: `stone ${stone === 'W' ? 'pale' : 'dark'}${ghost}` }, g);
        if (role === 'put' || role === 'target') el('circle', { cx: x, cy: y, r: role === 'put' ? 8 : 13, class: 'dot' }, g);
        if (role === 'select') el('circle', { cx: x, cy: y, r: 40, class: 'movable' }, g);
        if (role === 'capture') el('circle', { cx: x, cy: y, r: 42, class: 'capturable' }, g);
        if (this.selected === name) el('circle', { cx: x, cy: y, r: 42, class: 'selected' }, g);
        if (this.pending && this.pending.to === name) el('circle', { cx: x, cy: y, r: 42, class: 'selected' }, g);
      }
    }
    // Drawn over every cell, so that the sliding stone passes over the holes, and never in the
    // way of a tap (the cell under it takes the press).
    const motion = el('g', { class: 'motion', 'aria-hidden': 'true' }, svg);
    for (const { name, stone, from } of moving) {
      const [x, y] = this.xy(name);
      const [fx, fy] = this.xy(from);
      const circle = el('circle', { cx: x, cy: y, r: 34, class: `stone ${stone === 'W' ? 'pale' : 'dark'} sliding`, 'data-moving': name }, motion);
      // Through the style object: the site's content policy refuses style attributes.
      circle.style.setProperty('--dx', `${fx - x}px`);
      circle.style.setProperty('--dy', `${fy - y}px`);
      circle.style.animationDelay = `${-Math.round(elapsed)}ms`;
    }
    const mover = slide && this.pos.stones.get(slide.to);
    for (const name of gone) {
      const [x, y] = this.xy(name);
      const circle = el('circle', { cx: x, cy: y, r: 34, class: `stone ${mover === 'W' ? 'dark' : 'pale'} fading`, 'data-taken': name }, motion);
      circle.style.animationDelay = `${-Math.round(elapsed)}ms`;
    }
    for (let c = 0; c < cols; c++) {
      const file = this.flipped ? cols - 1 - c : c;
      const t = el('text', { x: PAD + c * SIZE + SIZE / 2, y: rows * SIZE + PAD * 2 - 10, class: 'coord', 'aria-hidden': 'true' }, svg);
      t.textContent = String.fromCharCode(97 + file);
    }
    for (let r = 0; r < rows; r++) {
      const rank = this.flipped ? r : rows - 1 - r;
      const t = el('text', { x: 16, y: PAD + r * SIZE + SIZE / 2 + 8, class: 'coord', 'aria-hidden': 'true' }, svg);
      t.textContent = String(rank + 1);
    }
    if (hadFocus) this.focusCursor();
    this.onChange();
  }

  focusCursor() {
    const g = this.svg.querySelector(`[data-cell="${this.cursor}"]`);
    if (g) g.focus();
  }

  // A tap, click, drop or Enter on a cell.
  activate(name) {
    // A second press while the turn is on its way (a double click) does nothing.
    if (this.state.waiting) return;
    if (this.state.browsing) {
      this.say(t('board.browsing'));
      return;
    }
    if (!this.state.mine && this.state.premoving) return this.premoveAt(name);
    if (!this.state.mine) {
      this.say(this.state.forbidden[name] ? t('board.closed', { cell: name, why: this.closedWhy(name) }) : t('board.not-your-turn'));
      return;
    }
    const role = this.role(name);
    if (this.pending) {
      if (role !== 'capture') { this.say(t('board.choose-marked')); return; }
      this.pending.chosen.push(name);
      const left = this.pending.moves.filter((m) => this.pending.chosen.every((c) => m.captures.includes(c)));
      const exact = left.find((m) => m.captures.length === this.pending.chosen.length);
      if (exact && this.captureChoices().length === 0) return this.send(exact.text);
      if (exact && left.length === 1) return this.send(exact.text);
      this.say(t('board.taking', { cell: name }));
      this.draw();
      return;
    }
    if (role === 'put') return this.send(this.moves.find((m) => m.kind === 'put' && m.to === name).text);
    if (role === 'target') {
      const moves = this.targetsFrom(this.selected).filter((m) => m.to === name);
      if (moves.length === 1 && moves[0].captures.length === 0) return this.send(moves[0].text);
      // The step makes a row: the player picks which stone to take, then the turn goes.
      this.pending = { from: this.selected, to: name, moves, chosen: [] };
      this.selected = null;
      this.draw();
      this.say(t('board.row', { from: this.pending.from, to: name, choices: this.captureChoices().join(', ') }));
      return;
    }
    if (role === 'select') {
      this.selected = this.selected === name ? null : name;
      this.draw();
      if (this.selected) this.say(t('board.selected', { cell: name, targets: this.targetsFrom(name).map((m) => m.to).filter((v, i, a) => a.indexOf(v) === i).join(', ') }));
      return;
    }
    if (this.state.forbidden[name]) {
      this.say(t('board.cannot-place', { cell: name, why: this.closedWhy(name) }));
      this.onClosed(name);
      return;
    }
    if (this.moves.length === 1 && this.moves[0].kind === 'pass') { this.say(t('board.pass')); return; }
    if (this.selected) { this.selected = null; this.draw(); }
  }

  // In the other side's turn: a stone, then a cell, choose a step to play when the turn comes;
  // a press anywhere once one is chosen lets it go.
  premoveAt(name) {
    if (this.state.premove) {
      this.onPremove(null);
      return;
    }
    const role = this.role(name);
    if (role === 'select') {
      this.selected = this.selected === name ? null : name;
      this.draw();
      if (this.selected) this.say(t('board.premove-selected', { cell: name, targets: this.premoveTargets(name).join(', ') }));
      return;
    }
    if (role === 'target') {
      const step = `${this.selected}-${name}`;
      this.selected = null;
      this.onPremove(step);
      return;
    }
    if (this.selected) { this.selected = null; this.draw(); return; }
    this.say(t('board.not-your-turn'));
  }

  // Plays the step `from`-`to` chosen ahead, now that the turn has come: at once when it is
  // one whole turn, or by choosing the stone to take when it makes a row with a choice.
  // Whether the position allows it.
  startStep(from, to) {
    const moves = this.targetsFrom(from).filter((m) => m.to === to);
    if (moves.length === 0) return false;
    if (moves.length === 1) { this.send(moves[0].text); return true; }
    this.pending = { from, to, moves, chosen: [] };
    this.selected = null;
    this.draw();
    this.say(t('board.row', { from, to, choices: this.captureChoices().join(', ') }));
    return true;
  }

  send(text) {
    this.selected = null;
    this.pending = null;
    this.onTurn(text);
  }

  cancel() {
    if (this.selected || this.pending) {
      this.selected = null;
      this.pending = null;
      this.draw();
      this.say(t('board.cancelled'));
    }
  }

  key(e) {
    const cell = parseCell(this.cursor);
    if (!cell) return;
    let { file, rank } = cell;
    const dir = this.flipped ? -1 : 1;
    switch (e.key) {
      case 'ArrowLeft': file -= dir; break;
      case 'ArrowRight': file += dir; break;
      case 'ArrowUp': rank += dir; break;
      case 'ArrowDown': rank -= dir; break;
      case 'Enter': case ' ': e.preventDefault(); this.activate(this.cursor); return;
      case 'Escape': this.cancel(); return;
      default: return;
    }
    e.preventDefault();
    file = Math.max(0, Math.min(this.pos.cols - 1, file));
    rank = Math.max(0, Math.min(this.pos.rows - 1, rank));
    const old = this.svg.querySelector(`[data-cell="${this.cursor}"]`);
    if (old) old.setAttribute('tabindex', '-1');
    this.cursor = cellName(file, rank);
    const g = this.svg.querySelector(`[data-cell="${this.cursor}"]`);
    g.setAttribute('tabindex', '0');
    g.focus();
  }

  cellAt(e) {
    const target = document.elementFromPoint(e.clientX, e.clientY);
    const g = target && target.closest('[data-cell]');
    return g ? g.dataset.cell : null;
  }

  pointerDown(e) {
    const name = this.cellAt(e);
    if (!name) return;
    this.dragFrom = name;
    this.cursor = name;
    // Pressing the stone already picked up may begin a drag of it: letting go of it waits
    // until the press ends on the same cell, or the drag would drop the stone it carries.
    this.pressedSelected = name === this.selected && !this.pending;
    if (this.pressedSelected) return;
    this.activate(name);
  }

  // Dragging a selected stone onto a cell it can step to plays that step.
  pointerUp(e) {
    const name = this.cellAt(e);
    const from = this.dragFrom;
    const pressedSelected = this.pressedSelected;
    this.dragFrom = null;
    this.pressedSelected = false;
    if (!name || !from || this.selected !== from) return;
    if (name !== from) {
      if (this.role(name) === 'target') this.activate(name);
    } else if (pressedSelected) {
      // A tap on the stone already picked up lets go of it.
      this.activate(name);
    }
  }
}

// The move list of the game page and the analysis board: a line a move (pale's turn and dark's
// answer) under its number as the record writes it (moveNumbers, notation.js), each turn a
// button that shows the board after it, the one shown marked current. `numbers` are the turns'
// numbers (moveNumbers); `decorate(button, ply)` may add to a button (the review's marks).
export function renderMoveList(list, moves, numbers, shown, onView, decorate = () => {}) {
  // The focus, if it was in the list, follows the position shown.
  const hadFocus = list.contains(document.activeElement);
  list.replaceChildren();
  let li = null;
  moves.forEach((text, i) => {
    const ply = i + 1;
    const { number, label } = numbers[i];
    if (!li || li.dataset.number !== String(number)) {
      li = document.createElement('li');
      li.dataset.number = String(number);
      const span = document.createElement('span');
      span.className = 'number';
      span.textContent = label;
      li.appendChild(span);
      list.appendChild(li);
    }
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'move';
    button.dataset.ply = String(ply);
    button.textContent = text;
    decorate(button, ply);
    if (ply === shown) button.setAttribute('aria-current', 'true');
    button.addEventListener('click', () => onView(ply));
    li.appendChild(button);
  });
  if (hadFocus) (list.querySelector('[aria-current="true"]') || list.querySelector('button'))?.focus();
}
