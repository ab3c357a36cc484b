// The page's engine and its own table: the two WebAssembly modules built from crates/dara-pocket
// (scripts/build-wasm), behind one function each export: engine.wasm's `think`, table.wasm's
// `table`, `judge` and `record`. For `think`, a request and its reply are lines of text in the
// engine protocol's words (crates/dara-pocket/src/request.rs and reply.rs say which); for
// `table`, `judge` and `record`, JSON (crates/dara-pocket/src/asked.rs). They cross into a module's memory through its
// exports `alloc_bytes` and `free_bytes`. The engine reads time through its import `env.now`: the
// host's monotonic clock, in milliseconds.
// Loaded by engine-worker.js in the page, and by the tests under Node as it is; engine.js, the
// page's side of the worker, writes the requests and reads the replies with the two functions
// at the end.

const encoder = new TextEncoder();
const decoder = new TextDecoder();

// Whether this browser can run the engine in the page at all (engine.js's worker, and the page's
// own table: page-table.js asks before it fetches the engine).
export function engineInPage() {
  return typeof Worker === 'function' && typeof WebAssembly === 'object';
}

// Instantiates a module from its bytes or from a fetch of it; `now` is the clock (the page's
// performance.now()). Resolves to { think(request) → reply line, table(request) → answer,
// judge(question) → answer, record(request) → answer }, of which the module has either the
// first or the other three.
export async function instantiate(source, now = () => performance.now()) {
  const imports = { env: { now } };
  const { instance } = source instanceof Response
    ? await WebAssembly.instantiateStreaming(source, imports)
    : await WebAssembly.instantiate(source, imports);
  const { memory, alloc_bytes: alloc, free_bytes: free } = instance.exports;
  // Calls the export `name` with `text`: copied in, answered in a block the module made
  // (its length in 4 bytes, then the text), copied out, both freed.
  const call = (name, text) => {
    const bytes = encoder.encode(text);
    const at = alloc(bytes.length);
    new Uint8Array(memory.buffer, at, bytes.length).set(bytes);
    let reply;
    try {
      reply = instance.exports[name](at, bytes.length);
    } finally {
      free(at, bytes.length);
    }
    // The memory may have grown during the call: views are taken afresh.
    const length = new DataView(memory.buffer).getUint32(reply, true);
    const answer = decoder.decode(new Uint8Array(memory.buffer, reply + 4, length));
    free(reply, length + 4);
    return answer;
  };
  return {
    think: (request) => call('think', request),
    table: (request) => call('table', request),
    judge: (question) => call('judge', question),
    record: (request) => call('record', request),
  };
}

// A module as the site serves it (or the service worker keeps it), instantiated:
// `engine.wasm` for the engine's worker, `table.wasm` for the page's own table and the teaching
// pages, each keeping its own.
export async function fetchModule(name) {
  const response = await fetch(moduleUrl(name));
  if (!response.ok) throw new Error(`${name}: ${response.status}`);
  return instantiate(response);
}

function moduleUrl(name) {
  return new URL(`./${name}`, import.meta.url);
}

// Whether the site serves the page's modules: a server built without them (scripts/build-wasm
// never run) answers 404, and its own computer plays. With no answer at all (offline), they
// are what the service worker kept, and it kept them only where they were served.
export async function modulesServed() {
  try {
    return (await fetch(moduleUrl('table.wasm'), { method: 'HEAD' })).ok;
  } catch {
    return true;
  }
}

// A request line: `rules R position P [moves M...] level N seed S [go nodes N]`. `position` is
// `start` or the five position fields; `moves` are played from it, so that the engine sees the
// game's repetitions; `seed` draws the level's dice (a fresh one for every move, as the server
// does); `nodes` bounds the search (none: the level decides, as on the server).
export function requestLine({ rules = 'arcade', position = 'start', moves = [], level = 8, seed = 0, nodes } = {}) {
  let line = `rules ${rules} position ${position}`;
  if (moves.length > 0) line += ` moves ${moves.join(' ')}`;
  line += ` level ${level} seed ${seed}`;
  if (nodes !== undefined) line += ` go nodes ${nodes}`;
  return line;
}

// A reply line, `bestmove M score (cp|win|loss) N depth N nodes N time MS [pv M...]`, as an
// object: { move (null where the game is over), score: { kind, value }, depth, nodes, time, pv }.
// An `error ...` line throws.
export function readReply(line) {
  if (line.startsWith('error ')) throw new Error(line.slice('error '.length));
  const words = line.split(' ');
  const after = (word, n = 1) => words[words.indexOf(word) + n];
  const pv = words.indexOf('pv');
  return {
    move: words[1] === 'none' ? null : words[1],
    score: { kind: after('score'), value: Number(after('score', 2)) },
    depth: Number(after('depth')),
    nodes: Number(after('nodes')),
    time: Number(after('time')),
    pv: pv < 0 ? [] : words.slice(pv + 1),
  };
}
