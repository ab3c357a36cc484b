// A position or a game studied by the engine, for the analysis board, the puzzles and a
// finished game's review: the server's engine while the server answers (POST /api/analysis,
// POST /api/review), as it alone has the endgame tables (megabytes of files, never sent to a
// page); the page's own engine (engine.js, in its worker) when no answer comes at all (offline,
// the server away, or an error in front of it), with the same budgets, so that the pages still
// study offline. An answer found in the page says so (`inPage: true`): the page then tells the
// reader that the tables were not at hand. A refusal the server words (a bad turn, too many
// turns, busy) is the answer, as the server meant it.
import { postJson } from './api.js';
import { search, stopEngine } from './engine.js';
import { requestLine } from './engine-wasm.js';

// The server's budgets (crates/dara-server/src/game/study.rs): an analysis's, and each
// position's of a review. The page's engine keeps to them, so that its answers read like the
// server's (without the tables) and a slow phone does not think for ever.
const ANALYSIS = { movetime: 700, nodes: 1_500_000 };
const REVIEW = { movetime: 80, nodes: 60_000 };
// The marks of a review (crates/dara-server/src/review.rs): where each begins, in hundredths
// of a stone lost, and what a won or lost game counts as.
const INACCURACY = 50;
const MISTAKE = 150;
const BLUNDER = 300;
const DECISIVE = 1000;

// Whether a failed request had no answer from the Arcade's server itself: the network, the
// server stopped, or an error in front of it (a 5xx without the server's code). Then the page
// studies on its own. The server's own refusals (busy, one at a time) stay its answer: the page
// would say the server did not answer when it did.
function noAnswer(error) {
  if (error.name === 'AbortError') return false;
  return error.status === undefined || (error.status >= 500 && error.code === undefined);
}

// The side to move after `moves` from `start` (Pale moves first from a ruleset's start): every
// turn, a pass too, gives the move to the other side.
function sideAfter(start, moves) {
  const first = start && start.split(/\s+/)[1] === 'b' ? 'black' : 'white';
  const other = first === 'white' ? 'black' : 'white';
  return moves.length % 2 === 0 ? first : other;
}

// The page's engine on the position after `moves` from `start`, under `rules`, at level 8
// (no dice) within `budget`. Resolves to the engine's reply (engine-wasm.js, readReply).
function searchHere({ rules, start, moves }, budget) {
  const request = requestLine({ rules, position: start || 'start', moves, level: 8, seed: 0 });
  return search(`${request} go movetime ${budget.movetime} nodes ${budget.nodes}`);
}

// The page's engine's reply as the server's analysis answers.
function asFound(reply, side) {
  return {
    side,
    best: reply.move,
    line: reply.pv,
    score: { [reply.score.kind]: reply.score.value },
    depth: reply.depth,
    nodes: reply.nodes,
    thoughtMs: reply.time,
    waitedMs: 0,
    inPage: true,
  };
}

// What the engine thinks of the position after `moves` (turns in notation) from `start` (a
// position's text, or null for the ruleset's start) under `rules`: the answer of POST
// /api/analysis, found by the page when the server does not answer. `signal` calls it off (the
// page's search too: its worker is stopped, and the next search starts another); `onHere` is
// told when the page's engine starts, so that the page can say so meanwhile.
export async function analyse({ rules, start = null, moves = [] }, signal, onHere = () => {}) {
  try {
    return await postJson('/api/analysis', { rules, start, moves }, signal);
  } catch (error) {
    if (!noAnswer(error)) throw error;
  }
  if (signal?.aborted) throw new DOMException('called off', 'AbortError');
  onHere();
  const calledOff = () => stopEngine(new DOMException('called off', 'AbortError'));
  signal?.addEventListener('abort', calledOff, { once: true });
  try {
    return asFound(await searchHere({ rules, start, moves }, ANALYSIS), sideAfter(start, moves));
  } finally {
    signal?.removeEventListener('abort', calledOff);
  }
}

// The review of a finished game (`rules`, `positions` from the start, `moves`): the answer of
// POST /api/review, found by the page when the server does not answer.
export async function reviewGame({ rules, positions, moves }) {
  try {
    return await postJson('/api/review', { rules, start: positions[0], moves });
  } catch (error) {
    if (!noAnswer(error)) throw error;
  }
  return reviewHere({ rules, start: positions[0], moves });
}

// Every position from the start searched in turn by the page's engine, each turn marked by
// what it lost for its player, as crates/dara-server/src/review.rs does.
async function reviewHere({ rules, start, moves }) {
  const positions = [];
  for (let ply = 0; ply <= moves.length; ply += 1) {
    const side = sideAfter(start, moves.slice(0, ply));
    const reply = await searchHere({ rules, start, moves: moves.slice(0, ply) }, REVIEW);
    positions.push(judged(side, reply));
  }
  const turns = moves.map((played, i) => {
    const [before, after] = [positions[i], positions[i + 1]];
    const by = before.side;
    const forPlayer = (pale) => (by === 'white' ? pale : -pale);
    const loss = Math.max(0, forPlayer(before.pale) - forPlayer(after.pale));
    const mark = before.best === played ? 'best' : markOf(loss);
    return { move: played, by, best: before.best, loss, mark };
  });
  return { positions, turns, inPage: true };
}

// A position as the review judges it: Pale's evaluation between -DECISIVE and DECISIVE, and
// the engine's score and best turn, none where the game is over (the side to move there has
// lost, unless the game was drawn).
function judged(side, reply) {
  const { kind, value } = reply.score;
  if (reply.move === null) {
    const forMover = kind === 'loss' ? -DECISIVE : kind === 'win' ? DECISIVE : 0;
    return { side, pale: side === 'white' ? forMover : -forMover, score: null, best: null };
  }
  const forMover = kind === 'cp' ? Math.max(-DECISIVE, Math.min(DECISIVE, value)) : kind === 'win' ? DECISIVE : -DECISIVE;
  return { side, pale: side === 'white' ? forMover : -forMover, score: { [kind]: value }, best: reply.move };
}

function markOf(loss) {
  if (loss >= BLUNDER) return 'blunder';
  if (loss >= MISTAKE) return 'mistake';
  if (loss >= INACCURACY) return 'inaccuracy';
  return 'good';
}
