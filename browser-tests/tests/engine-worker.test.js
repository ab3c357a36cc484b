// The page's engine in Chromium: askEngine() (assets/engine.js) runs engine.wasm in a Web
// Worker, fetched when first asked, and answers as the native build does; a search can be
// called off. Not yet wired into games (the server's computer still plays them).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { BINARY, useArcade, plainAsset, assetUrl } from '../harness.js';

const { server, newPage } = useArcade();

test("askEngine answers in a worker with the native build's move, and a search can be called off", async () => {
  const page = await newPage();
  const fetched = [];
  page.on('request', (request) => fetched.push(plainAsset(new URL(request.url()).pathname)));
  await page.goto(`${server.url}/`);
  // The module and the worker are not part of the page until asked for.
  assert.ok(!fetched.includes('/assets/engine.wasm'), fetched.join(' '));

  const request = 'rules arcade position start moves c3 d4 c2 level 8 seed 99 go nodes 50000';
  const native = execFileSync(BINARY, ['pocket', 'answer'], { input: `${request}\n`, encoding: 'utf8' }).trim();
  // The module the page itself imports, under its hashed name.
  const engineJs = await assetUrl(server.url, 'engine.js');
  const reply = await page.evaluate(async (url) => {
    const { askEngine } = await import(url);
    return askEngine('start', 8, { moves: ['c3', 'd4', 'c2'], seed: '99', nodes: 50000 });
  }, engineJs);
  const words = native.split(' ');
  assert.equal(reply.move, words[1]);
  assert.equal(reply.nodes, Number(words[words.indexOf('nodes') + 1]));
  assert.equal(`${reply.score.kind} ${reply.score.value}`, words.slice(words.indexOf('score') + 1, words.indexOf('score') + 3).join(' '));
  assert.ok(fetched.includes('/assets/engine.wasm') && fetched.includes('/assets/engine-worker.js'), fetched.join(' '));

  // A level-8 search left to its second, called off half-way: its promise is rejected at once,
  // and the next question starts a new worker.
  const calledOff = await page.evaluate(async (url) => {
    const { askEngine, stopEngine } = await import(url);
    const search = askEngine('start', 8).then(() => 'answered', (e) => e.message);
    await new Promise((resolve) => setTimeout(resolve, 200));
    stopEngine(new Error('taken back'));
    const outcome = await search;
    const next = await askEngine('start', 1);
    return { outcome, next: next.move };
  }, engineJs);
  assert.equal(calledOff.outcome, 'taken back');
  assert.match(calledOff.next, /^[a-f][1-6]$/);
});
