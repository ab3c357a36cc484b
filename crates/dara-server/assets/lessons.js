// The guided first game's lessons: for each, a position, what the player is asked to do, and
// how a move is judged against the lesson's goal. Whether a move is legal, which cells are
// closed and why, what a move leads to and whether the game is over there all come from the
// server (`POST /api/position`): a check here only asks whether a legal move did what the
// lesson asked, and says why not in the lesson's own words.
import { parseMove } from './notation.js';

const START = '6/6/6/6/6 w 12 12 0';

// "a", "a or b", "a, b or c".
const orList = (list) => (list.length < 2 ? list.join('') : `${list.slice(0, -1).join(', ')} or ${list[list.length - 1]}`);

// The dark answers that would take one of the player's stones, after a move: the server's
// legal moves of the position it leads to, those with a capture.
const darkRows = (after) => after.pos.legal.filter((m) => parseMove(m).captures.length > 0);

export const lessons = [
  {
    id: 'placing',
    title: 'Placing a stone',
    intro: [
      'Dara begins with both hands full: twelve stones each. Players take turns putting one stone from their hand on any empty cell.',
      'You have the pale stones, and pale places first.',
    ],
    position: START,
    tasks: [{
      ask: 'Place a stone on any cell: click or tap it, or move to it with the arrow keys and press Enter.',
      check: ({ move }) => (move.kind === 'put' ? null : 'Place a stone from your hand on an empty cell.'),
      done: 'Well placed. Dark would now place one of theirs, and so on, turn by turn, until all the stones are down.',
    }],
  },
  {
    id: 'closed',
    title: 'Why a cell is closed',
    intro: [
      'While stones are being placed, no stone may stand in a line of three or more of its own colour, across or up and down.',
      'Your stones on a1 and b1 make two in a line: a third on c1 would make three, so c1 is closed, and the board crosses it out.',
    ],
    position: '4BB/6/6/6/WW4 w 10 10 0',
    tasks: [
      {
        ask: 'Click or tap the crossed-out cell c1 (or press Enter on it) to hear why it is closed.',
        closed: 'c1',
        done: 'So c1 stays closed while stones are placed. Rows of three are made later, by stepping.',
      },
      {
        ask: 'Now place a stone next to one of yours, on a cell that is open.',
        check: ({ move }) => (['a2', 'b2'].includes(move.to) ? null
          : `${move.to} is allowed, but it is not next to a1 or b1. Try a2 or b2: they make a line of two, which is fine.`),
        done: 'Right: two in a line is allowed, three is not. Lines of two placed now become rows later.',
      },
    ],
  },
  {
    id: 'stepping',
    title: 'Stepping',
    intro: [
      'When every stone is on the board, the moving begins, pale first. A stone steps one cell up, down, left or right into an empty cell: no jumps, and never diagonally.',
      'The stones that can step have a dashed ring.',
    ],
    position: '1B4/6/2W1B1/4W1/W4B w 0 0 0',
    tasks: [{
      ask: 'Step a stone: pick up one of yours, then choose the cell it goes to (the dots show where it can go).',
      check: ({ move }) => (move.kind === 'step' ? null : 'Step one of your stones.'),
      done: 'That is a step. Players take turns stepping one stone each.',
    }],
  },
  {
    id: 'row',
    title: 'A row of exactly three',
    intro: [
      'A step that lines up exactly three of your stones, across or up and down, makes a row, and a row takes one of your opponent\'s stones.',
      'a1, b1 and c1 stand in a line already, but only a row that the step itself makes counts. Four or more in a line is never a row.',
    ],
    position: 'B2W2/4WW/BB4/3W2/WWW2B w 0 0 0',
    tasks: [{
      ask: 'Make a new row of exactly three, then choose the dark stone to take.',
      check: ({ m, move }) => {
        if (move.captures.length) return null;
        if (m === 'd2-d1') return 'd2-d1 makes four in a line, a1 to d1: four is not a row, so it takes nothing. Look for a step that makes exactly three.';
        return `${m} makes no row of three, so it takes nothing. Look for a stone that can step into line with two others.`;
      },
      done: 'A row of three: d4, e4 and f4. It took a dark stone.',
    }],
  },
  {
    id: 'taking',
    title: 'Taking a stone',
    intro: [
      'When your step makes a row, you choose which of your opponent\'s stones to take. Choose with care.',
      'Dark\'s b4 and c4 stand side by side, and d5 could step down to d4 beside them: a row of three for dark.',
    ],
    position: '3B2/1BB3/5B/2W1W1/WW4 w 0 0 0',
    tasks: [{
      ask: 'Step c2 down to c1 to make a row, and take a stone that stops dark\'s row.',
      check: ({ m, move, after }) => {
        if (!move.captures.length) return `${m} makes no row. Step c2 down to c1, beside a1 and b1.`;
        if (['b4', 'c4', 'd5'].includes(move.captures[0])) return null;
        const threats = darkRows(after);
        return `After taking ${move.captures[0]}, dark could answer ${orList(threats)}: a row of three that takes one of your stones. Take b4, c4 or d5 instead.`;
      },
      done: 'Well chosen: dark can no longer make that row.',
    }],
  },
  {
    id: 'again',
    title: 'A row made again',
    intro: [
      'A row takes a stone each time a step makes it. Step a stone out of your row and back again, and the row is made again: it takes another stone.',
    ],
    position: 'B1BB2/5B/6/4W1/WWW3 w 0 0 0',
    tasks: [
      {
        ask: 'Step one of a1, b1 or c1 out of the row.',
        check: ({ m, move }) => (['a1', 'b1', 'c1'].includes(move.from) ? null
          : `${m} moves a stone that is not in the row. Step a1, b1 or c1.`),
        done: 'The row is broken for now.',
        reply: 'f4-f3',
      },
      {
        ask: 'Now step the same stone back into line: the row is made again.',
        check: ({ m, move }) => (move.captures.length ? null
          : `${m} makes no row. Step the stone you moved back to where it was.`),
        done: 'The same row, made again, took another stone. Watch out for this in your games: from both sides.',
      },
    ],
  },
  {
    id: 'blocked',
    title: 'Being blocked',
    intro: [
      'A stone with no empty cell beside it cannot step. A player who has no step at all on their turn has lost.',
      'Dark\'s a5 and f1 are boxed in; only b5 can still step, to c5.',
    ],
    position: 'BB1W2/WW4/6/5W/4WB w 0 0 0',
    tasks: [{
      ask: 'Block dark\'s last step, so that dark cannot move at all.',
      check: ({ m, after }) => {
        if (after.status.code === 'no-moves') return null;
        return `After ${m}, dark can still step: ${orList(after.pos.legal)}. Fill the cell dark's last free stone would step to.`;
      },
      done: 'Dark has no step left: pale wins.',
    }],
  },
  {
    id: 'winning',
    title: 'Winning',
    intro: [
      'Two stones can never make three, so a player left with two stones has lost. Dark is down to three.',
      'A game can also be drawn: 80 steps in a row without a capture end it.',
    ],
    position: '4B1/4W1/3B2/2W2B/WW4 w 0 0 0',
    tasks: [{
      ask: 'Make a row and take a dark stone to win.',
      check: ({ m, after }) => (after.status.code === 'few-stones' ? null
        : `${m} makes no row, so dark keeps three stones. Find the step that lines up three of yours.`),
      done: 'Dark is down to two stones: pale wins.',
    }],
  },
];
