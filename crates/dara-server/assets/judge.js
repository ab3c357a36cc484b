// The rules' answer about a position (what may be played, why a cell is closed, whether a move
// is legal and what it leads to), for the pages that teach and the analysis board, and a game
// record read for the analysis board: from the server (POST /api/position, POST /api/record)
// while it answers, and from the page's own WebAssembly module (crates/dara-table's
// view::judge and the dara crate's record, in table.wasm, the same code) once it does not:
// offline, the pages still judge every move and read every record. Online the page need not
// fetch the module at all (it is most of a page's weight); the answer, and a refusal's wording,
// are the same either way.
import { fetchModule } from './engine-wasm.js';
import { postJson } from './api.js';
import { errorText } from './i18n.js';

let module = null;

function load() {
  module ??= (async () => {
    if (typeof WebAssembly !== 'object') throw new Error('no WebAssembly here');
    return fetchModule('table.wasm');
  })();
  return module;
}

// Resolves to the answer `POST /api/position` gives for `question` ({ position, rules, move }),
// or rejects with the reason in the page's language.
export async function judgePosition(question) {
  if (!module) {
    try {
      return await postJson('/api/position', question);
    } catch (error) {
      // A refusal is the answer; no answer at all (offline, the server away) turns to the module.
      if (error.status !== undefined) throw error;
    }
  }
  const { judge } = await load();
  return answered(judge(JSON.stringify(question)));
}

// Resolves to the answer `POST /api/record` gives for `record` (a game record's text): the
// rules, the start, the turns and the position after each; or rejects with the reason in the
// page's language (an illegal turn named by its number and text).
export async function readRecord(record) {
  if (!module) {
    try {
      return await postJson('/api/record', { record });
    } catch (error) {
      if (error.status !== undefined) throw error;
    }
  }
  const { record: read } = await load();
  return answered(read(JSON.stringify({ record })));
}

// The module's `{"ok": ...}`, or its `{"error": why}` as the server's refusal would be worded.
function answered(text) {
  const answer = JSON.parse(text);
  if (answer.error !== undefined) throw new Error(errorText({ code: 'bad-request', detail: answer.error, error: answer.error }));
  return answer.ok;
}
