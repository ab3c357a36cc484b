// The page's engine in a Web Worker (a module worker), so that a search of a second or more
// never holds up the page: it loads engine.wasm when first asked, and answers each
// { id, request } message (a request line, engine-wasm.js) with { id, reply } or { id, error },
// one search at a time, in the order asked. Time is the worker's performance.now(): the page's
// clock. Started and stopped by engine.js.
import { fetchModule } from './engine-wasm.js';

let engine = null;

function load() {
  engine ??= fetchModule('engine.wasm');
  return engine;
}

self.onmessage = async ({ data: { id, request } }) => {
  try {
    const { think } = await load();
    self.postMessage({ id, reply: think(request) });
  } catch (error) {
    // A module that trapped may be left half-way: the next request loads it afresh.
    engine = null;
    self.postMessage({ id, error: String(error?.message ?? error) });
  }
};
