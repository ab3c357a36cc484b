// Dara notation, read only (cells, moves, the position text), and the record's numbers for its
// moves (below): the page draws what the server sends and never judges a move itself.

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

// Move numbers, one numbering on every page: the game record's (the dara crate's
// `record::Numbering`, the notation of ../shared/spec), so that the move list, the review, the
// analysis board, the home page's list and the record a player copies name a move alike. A
// move is a turn of each side, as in a chess score: pale's turn is "18.", dark's answer
// "18..."; the number goes up after each dark turn, and between two pale turns in a row (pale
// always starts the movement phase, even when pale placed last). The page numbers the turns
// it is given by who played them; it judges no move.

// `movers`: who played each turn, 'white' or 'black'. Each turn's { number, side, label }.
export function moveNumbers(movers) {
  let number = 1;
  return movers.map((side, i) => {
    const at = { number, side, label: side === 'white' ? `${number}.` : `${number}...` };
    if (side === 'black' || movers[i + 1] === 'white') number += 1;
    return at;
  });
}

// Who played each turn, from the positions before and after them (five-field texts, each
// naming the side to move: 'w' or 'b').
export function moversOf(positions) {
  return positions.slice(0, -1).map((fen) => (fen.split(' ')[1] === 'b' ? 'black' : 'white'));
}

// How many moves a game of these turns has: the number of its last.
export function moveCount(numbers) {
  return numbers.length ? numbers[numbers.length - 1].number : 0;
}
