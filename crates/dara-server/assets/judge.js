// The rules' answer about a position (what may be played, why a cell is closed, whether a move
// is legal and what it leads to), for the pages that teach and the analysis board: from the
// page's own WebAssembly module (crates/dara-table's view::judge, in engine.wasm) where it runs,
// so that they work offline; from the server (POST /api/position, the same code) where it does
// not. The answer, and a refusal's wording, are the same either way.
import { instantiate } from './engine-wasm.js';
import { postJson } from './api.js';
import { errorText } from './i18n.js';

let module = null;

function load() {
  module ??= (async () => {
    if (typeof WebAssembly !== 'object') throw new Error('no WebAssembly here');
    const response = await fetch(new URL('./engine.wasm', import.meta.url));
    if (!response.ok) throw new Error(`engine.wasm: ${response.status}`);
    return instantiate(response);
  })();
  return module;
}

// Resolves to the answer `POST /api/position` gives for `question` ({ position, rules, move }),
// or rejects with the reason in the page's language.
export async function judgePosition(question) {
  let judge;
  try {
    ({ judge } = await load());
  } catch {
    return postJson('/api/position', question);
  }
  const answer = JSON.parse(judge(JSON.stringify(question)));
  if (answer.error !== undefined) throw new Error(errorText({ code: 'bad-request', detail: answer.error, error: answer.error }));
  return answer.ok;
}
