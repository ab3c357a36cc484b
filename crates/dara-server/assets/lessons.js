// The guided first game's lessons: for each, a position, what the player is asked to do, and
// how a move is judged against the lesson's goal. Whether a move is legal, which cells are
// closed and why, what a move leads to and whether the game is over there all come from the
// server (`POST /api/position`): a check here only asks whether a legal move did what the
// lesson asked, and says why not in the lesson's own words.
import { parseMove } from './notation.js';
import { t, orWords } from './i18n.js';

const START = '6/6/6/6/6 w 12 12 0';


// The dark answers that would take one of the player's stones, after a move: the server's
// legal moves of the position it leads to, those with a capture.
const darkRows = (after) => after.pos.legal.filter((m) => parseMove(m).captures.length > 0);

export const lessons = [
  {
    id: 'placing',
    title: t('lesson.placing.title'),
    intro: [
      t('lesson.placing.intro1'),
      t('lesson.placing.intro2'),
    ],
    position: START,
    tasks: [{
      ask: t('lesson.placing.ask1'),
      check: ({ move }) => (move.kind === 'put' ? null : t('lesson.placing.wrong')),
      done: t('lesson.placing.done1'),
    }],
  },
  {
    id: 'closed',
    title: t('lesson.closed.title'),
    intro: [
      t('lesson.closed.intro1'),
      t('lesson.closed.intro2'),
    ],
    position: '4BB/6/6/6/WW4 w 10 10 0',
    tasks: [
      {
        ask: t('lesson.closed.ask1'),
        closed: 'c1',
        done: t('lesson.closed.done1'),
      },
      {
        ask: t('lesson.closed.ask2'),
        check: ({ move }) => (['a2', 'b2'].includes(move.to) ? null
          : t('lesson.closed.wrong', { cell: move.to })),
        done: t('lesson.closed.done2'),
      },
    ],
  },
  {
    id: 'stepping',
    title: t('lesson.stepping.title'),
    intro: [
      t('lesson.stepping.intro1'),
      t('lesson.stepping.intro2'),
    ],
    position: '1B4/6/2W1B1/4W1/W4B w 0 0 0',
    tasks: [{
      ask: t('lesson.stepping.ask1'),
      check: ({ move }) => (move.kind === 'step' ? null : t('lesson.stepping.wrong')),
      done: t('lesson.stepping.done1'),
    }],
  },
  {
    id: 'row',
    title: t('lesson.row.title'),
    intro: [
      t('lesson.row.intro1'),
      t('lesson.row.intro2'),
    ],
    position: 'B2W2/4WW/BB4/3W2/WWW2B w 0 0 0',
    tasks: [{
      ask: t('lesson.row.ask1'),
      check: ({ m, move }) => {
        if (move.captures.length) return null;
        if (m === 'd2-d1') return t('lesson.row.four');
        return t('lesson.row.wrong', { move: m });
      },
      done: t('lesson.row.done1'),
    }],
  },
  {
    id: 'taking',
    title: t('lesson.taking.title'),
    intro: [
      t('lesson.taking.intro1'),
      t('lesson.taking.intro2'),
    ],
    position: '3B2/1BB3/5B/2W1W1/WW4 w 0 0 0',
    tasks: [{
      ask: t('lesson.taking.ask1'),
      check: ({ m, move, after }) => {
        if (!move.captures.length) return t('lesson.taking.no-row', { move: m });
        if (['b4', 'c4', 'd5'].includes(move.captures[0])) return null;
        const threats = darkRows(after);
        return t('lesson.taking.wrong', { taken: move.captures[0], threats: orWords(threats) });
      },
      done: t('lesson.taking.done1'),
    }],
  },
  {
    id: 'again',
    title: t('lesson.again.title'),
    intro: [
      t('lesson.again.intro1'),
    ],
    position: 'B1BB2/5B/6/4W1/WWW3 w 0 0 0',
    tasks: [
      {
        ask: t('lesson.again.ask1'),
        check: ({ m, move }) => (['a1', 'b1', 'c1'].includes(move.from) ? null
          : t('lesson.again.wrong1', { move: m })),
        done: t('lesson.again.done1'),
        reply: 'f4-f3',
      },
      {
        ask: t('lesson.again.ask2'),
        check: ({ m, move }) => (move.captures.length ? null
          : t('lesson.again.wrong2', { move: m })),
        done: t('lesson.again.done2'),
      },
    ],
  },
  {
    id: 'blocked',
    title: t('lesson.blocked.title'),
    intro: [
      t('lesson.blocked.intro1'),
      t('lesson.blocked.intro2'),
    ],
    position: 'BB1W2/WW4/6/5W/4WB w 0 0 0',
    tasks: [{
      ask: t('lesson.blocked.ask1'),
      check: ({ m, after }) => {
        if (after.status.code === 'no-moves') return null;
        return t('lesson.blocked.wrong', { move: m, steps: orWords(after.pos.legal) });
      },
      done: t('lesson.blocked.done1'),
    }],
  },
  {
    id: 'winning',
    title: t('lesson.winning.title'),
    intro: [
      t('lesson.winning.intro1'),
      t('lesson.winning.intro2'),
    ],
    position: '4B1/4W1/3B2/2W2B/WW4 w 0 0 0',
    tasks: [{
      ask: t('lesson.winning.ask1'),
      check: ({ m, after }) => (after.status.code === 'few-stones' ? null
        : t('lesson.winning.wrong', { move: m })),
      done: t('lesson.winning.done1'),
    }],
  },
];
