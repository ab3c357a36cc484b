// Dara notation, read only (cells, moves, the position text): the page draws what the server
// sends and never judges a move itself.

export function cellName(file, rank) {
  return String.fromCharCode(97 + file) + (rank + 1);
}

export function parseCell(text) {
  const m = /^([a-g])([1-7])$/.exec(text);
  return m ? { file: m[1].charCodeAt(0) - 97, rank: Number(m[2]) - 1 } : null;
}

// "6/6/2W3/6/6 w 11 12 0" -> { rows, cols, stones: Map(cell -> 'W'|'B'), side, hand, quiet }
export function parsePosition(text) {
  const [board, side, white, black, quiet] = text.split(' ');
  const ranks = board.split('/');
  const rows = ranks.length;
  const stones = new Map();
  let cols = 0;
  ranks.forEach((rankText, i) => {
    const rank = rows - 1 - i;
    let file = 0;
    for (const ch of rankText) {
      if (ch >= '1' && ch <= '9') file += Number(ch);
      else { stones.set(cellName(file, rank), ch); file += 1; }
    }
    cols = Math.max(cols, file);
  });
  return { rows, cols, stones, side, hand: { white: Number(white), black: Number(black) }, quiet: Number(quiet) };
}

// "c3" | "pass" | "c3-c4" | "c3-c4xe5xa5"
export function parseMove(text) {
  if (text === 'pass') return { kind: 'pass' };
  const [step, ...captures] = text.split('x');
  const [from, to] = step.split('-');
  if (to === undefined) return { kind: 'put', to: from, captures: [] };
  return { kind: 'step', from, to, captures };
}

export const colourWord = { white: 'pale', black: 'dark' };
export const stoneWord = { W: 'pale', B: 'dark' };
