// The page's engine against the native build, in nodes per second: the search benchmark's 12
// positions (`dara pocket bench`, depth 9) searched by `dara pocket answer` (native), by
// engine.wasm under Node, and by engine.wasm in a Web Worker of headless Chromium, one after
// another, round after round; the median of each. Then level 8 as the page plays it (a second,
// or its node floor), with Chromium's CPU slowed 4 times and not.
// A measurement, not a test: `cargo build --release -p dara-cli && cd browser-tests &&
// node bench-engine.js [rounds]`.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { startServer, startBrowser, BINARY } from './harness.js';
import { instantiate } from '../crates/dara-server/assets/engine-wasm.js';

const rounds = Number(process.argv[2] || 5);
const requests = execFileSync(BINARY, ['pocket', 'bench'], { encoding: 'utf8' }).trim().split('\n');
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
const word = (reply, w) => Number(reply.split(' ')[reply.split(' ').indexOf(w) + 1]);
// Nodes and milliseconds summed over the replies (each timed by its own search's clock).
function speed(replies) {
  const nodes = replies.reduce((n, r) => n + word(r, 'nodes'), 0);
  const ms = replies.reduce((n, r) => n + word(r, 'time'), 0);
  return { nodes, nps: Math.round((nodes / ms) * 1000) };
}

const native = () => execFileSync(BINARY, ['pocket', 'answer'], { input: `${requests.join('\n')}\n`, encoding: 'utf8' }).trim().split('\n');
const engine = await instantiate(readFileSync(new URL('../crates/dara-server/assets/engine.wasm', import.meta.url)));
const node = () => requests.map((r) => engine.think(r));

const server = await startServer();
const browser = await startBrowser();
const page = await browser.newPage();
await page.goto(`${server.url}/`);
// The worker the page's engine.js starts, asked the raw request lines.
await page.evaluate(() => {
  const worker = new Worker('/assets/engine-worker.js', { type: 'module' });
  let id = 0;
  window.ask = (request) => new Promise((resolve, reject) => {
    const mine = ++id;
    worker.addEventListener('message', function heard({ data }) {
      if (data.id !== mine) return;
      worker.removeEventListener('message', heard);
      if (data.error) reject(new Error(data.error)); else resolve(data.reply);
    });
    worker.postMessage({ id: mine, request });
  });
});
const chromium = () => page.evaluate(async (lines) => {
  const replies = [];
  for (const line of lines) replies.push(await window.ask(line));
  return replies;
}, requests);

const runs = { native: [], node: [], chromium: [] };
let signature = null;
for (let round = 0; round < rounds; round += 1) {
  const order = round % 2 === 0 ? ['native', 'node', 'chromium'] : ['chromium', 'node', 'native'];
  for (const name of order) {
    const replies = await { native, node, chromium }[name]();
    const { nodes, nps } = speed(replies);
    signature ??= nodes;
    if (nodes !== signature) throw new Error(`${name} searched ${nodes} nodes, not ${signature}`);
    runs[name].push(nps);
  }
  console.log(`round ${round + 1}: native ${runs.native.at(-1)}, node ${runs.node.at(-1)}, chromium ${runs.chromium.at(-1)} nodes/s`);
}
const m = Object.fromEntries(Object.entries(runs).map(([k, v]) => [k, median(v)]));
console.log(`${signature} nodes a run; median nodes/s: native ${m.native}, node ${m.node} (${(m.node / m.native).toFixed(2)}x), chromium worker ${m.chromium} (${(m.chromium / m.native).toFixed(2)}x)`);

// Level 8 as the page plays it, from the benchmark's positions, at full speed and with the CPU
// slowed 4 times. Chromium slows a page's main thread only ("only supported for pages, not
// workers"), so these searches run there, in a bare page of the server's origin with no policy
// against compiling WebAssembly: the same module on a 4-times slower thread.
const bare = await browser.newPage();
await bare.route(`${server.url}/engine-bench`, (route) => route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>engine</title>' }));
await bare.goto(`${server.url}/engine-bench`);
await bare.evaluate(async () => {
  const { instantiate } = await import('/assets/engine-wasm.js');
  window.engine = await instantiate(await fetch('/assets/engine.wasm'));
});
const level8 = requests.map((r) => r.replace(/ go depth \d+$/, ''));
const cdp = await bare.context().newCDPSession(bare);
for (const rate of [1, 4]) {
  await cdp.send('Emulation.setCPUThrottlingRate', { rate });
  const replies = await bare.evaluate((lines) => lines.map((line) => window.engine.think(line)), level8);
  const times = replies.map((r) => word(r, 'time'));
  const nodes = replies.map((r) => word(r, 'nodes'));
  console.log(`level 8, CPU slowed ${rate}x: time per move median ${median(times)} ms (longest ${Math.max(...times)}), nodes median ${median(nodes)}, ${speed(replies).nps} nodes/s`);
}
await browser.close();
server.stop();
