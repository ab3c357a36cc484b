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
