// The page's engine (assets/engine.wasm, built from crates/dara-pocket) against the native
// build, no browser: over positions of games the engine plays against itself (`dara pocket
// sample`: seven rulesets, levels 1 to 8 in turn with the same seeds, level 8 on node budgets
// of 10 000 to 100 000), the module under Node chooses the same move with the same score, depth,
// node count and line as `dara pocket answer`. Neither side has tablebases (the page has none).
// Besides the committed module, `.ci/run` names the one it rebuilt (DARA_ENGINE_WASM_REBUILT),
// which another compiler may have built: its moves must be the same all the same.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BINARY } from '../harness.js';
import { instantiate, requestLine, readReply } from '../../crates/dara-server/assets/engine-wasm.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const modules = { committed: join(root, 'crates/dara-server/assets/engine.wasm') };
if (process.env.DARA_ENGINE_WASM_REBUILT) modules.rebuilt = resolve(root, process.env.DARA_ENGINE_WASM_REBUILT);

const lines = (text) => text.trim().split('\n');
const dara = (args, input) => execFileSync(BINARY, args, { input, encoding: 'utf8', maxBuffer: 1 << 26 });
// The time is the one thing the two may differ in.
const withoutTime = (reply) => reply.replace(/ time \d+/, '');

const requests = lines(dara(['pocket', 'sample']));
const native = lines(dara(['pocket', 'answer'], requests.join('\n') + '\n'));

test('the sample covers every level and both phases, and native answers each', () => {
  assert.ok(requests.length >= 250, `${requests.length} requests`);
  assert.equal(native.length, requests.length);
  for (let level = 1; level <= 8; level += 1) {
    assert.ok(requests.some((r) => r.includes(` level ${level} `)), `level ${level}`);
  }
  assert.ok(native.every((reply) => reply.startsWith('bestmove ')), native.find((r) => !r.startsWith('bestmove ')));
  // Steps as well as placements were chosen: movement positions are in the sample.
  assert.ok(native.filter((reply) => /^bestmove \w+-/.test(reply)).length >= 50);
});

for (const [name, file] of Object.entries(modules)) {
  test(`the ${name} module chooses native's move with native's node count in every position`, async () => {
    const engine = await instantiate(readFileSync(file));
    const differ = [];
    let moves = 0;
    requests.forEach((request, i) => {
      const reply = engine.think(request);
      if (withoutTime(reply) === withoutTime(native[i])) return;
      differ.push(`${request}\n  wasm:   ${reply}\n  native: ${native[i]}`);
      if (reply.split(' ')[1] !== native[i].split(' ')[1]) moves += 1;
    });
    assert.equal(differ.length, 0, `${differ.length} of ${requests.length} replies differ, ${moves} in the move; the first:\n${differ.slice(0, 3).join('\n')}`);
  });
}

test("the page's request and reply words reach the module and back", async () => {
  const engine = await instantiate(readFileSync(modules.committed));
  const request = requestLine({ rules: 'jaques', position: 'start', moves: ['c3', 'd4'], level: 8, seed: '12345678901234567890', nodes: 30000 });
  assert.equal(request, 'rules jaques position start moves c3 d4 level 8 seed 12345678901234567890 go nodes 30000');
  const [nativeReply] = lines(dara(['pocket', 'answer'], `${request}\n`));
  const reply = readReply(engine.think(request));
  assert.deepEqual({ ...reply, time: 0 }, { ...readReply(nativeReply), time: 0 });
  assert.ok(reply.move && reply.nodes >= 30000 && reply.pv[0] === reply.move && reply.score.kind === 'cp', JSON.stringify(reply));
  // A game already over has no move; a request the module cannot read is an error, not a trap.
  assert.equal(readReply(engine.think('position 6/6/6/5B/WW2BB w 0 0 0 level 8')).move, null);
  assert.throws(() => readReply(engine.think('position start moves z9')), /z9/);
  assert.match(engine.think('position start level 8 go nodes 1000'), /^bestmove /);
});
