// The computer in the page: askEngine() searches with the engine compiled to WebAssembly
// (engine.wasm, built from crates/dara-pocket) in a Web Worker (engine-worker.js), as the
// server's computer would at that level, so that a move needs no round trip. The worker and the
// module are fetched when first asked, not with the page. Where workers or WebAssembly are
// missing, or the module cannot be had, the promise is rejected: the caller then asks the
// server, whose computer plays as before.
//
// The server's level 8 answers from its endgame tablebases where few stones are left; the page
// has no tables (megabytes on the server) and searches those positions like any other (see
// crates/dara-pocket/src/lib.rs).
import { requestLine, readReply, engineInPage } from './engine-wasm.js';

let worker = null;
let asked = 0;
const waiting = new Map();

function fail(error) {
  for (const { reject } of waiting.values()) reject(error);
  waiting.clear();
}

function start() {
  worker = new Worker(new URL('./engine-worker.js', import.meta.url), { type: 'module' });
  worker.onmessage = ({ data: { id, reply, error } }) => {
    const asking = waiting.get(id);
    if (!asking) return;
    waiting.delete(id);
    if (error !== undefined) {
      asking.reject(new Error(error));
      return;
    }
    try {
      asking.resolve(readReply(reply));
    } catch (e) {
      asking.reject(e);
    }
  };
  worker.onerror = (event) => {
    event.preventDefault();
    stopEngine(new Error(`the engine's worker failed: ${event.message ?? 'no reason given'}`));
  };
}

// A fresh seed for a level's dice, as the server draws one for every move.
function randomSeed() {
  const [high, low] = crypto.getRandomValues(new Uint32Array(2));
  return ((BigInt(high) << 32n) | BigInt(low)).toString();
}

// The engine's move in `position` (`start` or the five position fields, NOTATION.md) at `level`
// (1 to 8), after `moves` played from it, under `rules`; `nodes` bounds the search (otherwise
// the level decides, as on the server), `seed` fixes the level's dice (otherwise drawn afresh).
// Resolves to { move (null where the game is over), score: { kind, value }, depth, nodes,
// time (ms), pv }.
export function askEngine(position, level, { rules = 'arcade', moves = [], nodes, seed = randomSeed() } = {}) {
  return search(requestLine({ rules, position, moves, level, seed, nodes }));
}

// The engine's answer to a whole request line (engine-wasm.js), as askEngine resolves it: the
// page's own table writes its searches whole (page-table.js).
export function search(request) {
  if (!engineInPage()) return Promise.reject(new Error('no Web Worker or WebAssembly here'));
  if (!worker) start();
  const id = ++asked;
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    worker.postMessage({ id, request });
  });
}

// Calls off every search asked and not answered (a takeback, the game's end): the worker is
// stopped mid-search, their promises are rejected with `reason`, and the next askEngine()
// starts a new worker.
export function stopEngine(reason = new Error('called off')) {
  worker?.terminate();
  worker = null;
  fail(reason);
}
