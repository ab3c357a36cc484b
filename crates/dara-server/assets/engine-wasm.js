// The page's engine: the WebAssembly module built from crates/dara-pocket (scripts/build-wasm),
// behind one function. A request and its reply are lines of text in the engine protocol's words
// (crates/dara-pocket/src/request.rs and reply.rs say which); they cross into the module's
// memory through its exports `alloc_bytes`, `think` and `free_bytes`. The module reads time
// through its import `env.now`: the host's monotonic clock, in milliseconds.
// Loaded by engine-worker.js in the page, and by the tests under Node as it is.

const encoder = new TextEncoder();
const decoder = new TextDecoder();

// Instantiates the module from its bytes or from a fetch of it; `now` is the clock (the page's
// performance.now()). Resolves to { think(request) → reply line }.
export async function instantiate(source, now = () => performance.now()) {
  const imports = { env: { now } };
  const { instance } = source instanceof Response
    ? await WebAssembly.instantiateStreaming(source, imports)
    : await WebAssembly.instantiate(source, imports);
  const { memory, alloc_bytes: alloc, free_bytes: free, think } = instance.exports;
  return {
    think(request) {
      const bytes = encoder.encode(request);
      const at = alloc(bytes.length);
      new Uint8Array(memory.buffer, at, bytes.length).set(bytes);
      let reply;
      try {
        reply = think(at, bytes.length);
      } finally {
        free(at, bytes.length);
      }
      // The memory may have grown during the search: views are taken afresh.
      const length = new DataView(memory.buffer).getUint32(reply, true);
      const line = decoder.decode(new Uint8Array(memory.buffer, reply + 4, length));
      free(reply, length + 4);
      return line;
    },
  };
}
