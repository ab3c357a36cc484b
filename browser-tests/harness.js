// Starts the real `dara` server on a free loopback port and a real headless Chromium.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { before, after, afterEach } from 'node:test';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
export const BINARY = process.env.DARA_BIN || join(here, '..', 'target', 'release', 'dara');
export const FAILURES = join(here, 'failures');

// Flags for Chromium on a machine with no outside network (see the README).
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

// A server of its own: on a free port unless `listen` names one (a restart comes back on the
// same), keeping its live games in memory unless `extra` names a `--data-dir` (tests run side by
// side, and each store is locked to one process).
export async function startServer(extra = [], { listen = '127.0.0.1:0' } = {}) {
  const keep = extra.includes('--data-dir') ? [] : ['--memory-only'];
  const child = spawn(BINARY, ['serve', '--listen', listen, ...keep, ...extra], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const m = /http:\/\/[0-9.]+:\d+\//.exec(out);
      if (m) resolve(m[0].replace(/\/$/, ''));
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}: is ${BINARY} built?`)));
  });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  return { url, stop: () => child.kill('SIGINT'), kill: (signal) => { child.kill(signal); return exited; } };
}

// A browser with a profile kept on disk, `dir` (not the incognito contexts of `startBrowser`),
// for what Chromium allows only there: offering to install the Arcade as an app.
export async function startProfileBrowser(dir, viewport) {
  return chromium.launchPersistentContext(dir, { executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: FLAGS, headless: true, viewport });
}

export async function startBrowser() {
  // A page fulfilled from disk (DARA_ASSETS, below) has no address of its own, and Chromium
  // would keep it from the loopback server's socket.
  const args = process.env.DARA_ASSETS ? [...FLAGS, '--disable-features=LocalNetworkAccessChecks'] : FLAGS;
  return chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args, headless: true });
}

// Runs `body(page)`; on failure keeps a screenshot of every open page under failures/.
export async function keepScreenshotsOnFailure(name, pages, body) {
  try {
    await body();
  } catch (error) {
    mkdirSync(FAILURES, { recursive: true });
    let i = 0;
    for (const page of pages()) {
      i += 1;
      await page.screenshot({ path: join(FAILURES, `${name}-${i}.png`), fullPage: true }).catch(() => {});
    }
    throw error;
  }
}

// While the pages are worked on: `DARA_ASSETS=crates/dara-server/assets` serves the pages and
// their assets from that folder instead of the copy built into the binary (the server still
// answers, with its status and headers: only the body is swapped), so a change to a page is
// tried without building the server again. The tests of record run without it.
const PAGE_FILES = { '/': 'index.html', '/rules': 'rules.html', '/analysis': 'analysis.html', '/learn': 'learn.html', '/puzzles': 'puzzles.html', '/privacy': 'privacy.html', '/watch': 'watch.html' };

async function servePagesFromDisk(context, dir) {
  const { readFileSync } = await import('node:fs');
  await context.route((url) => url.pathname.startsWith('/assets/') || url.pathname in PAGE_FILES || url.pathname.startsWith('/g/') || url.pathname.startsWith('/computer/'), async (route) => {
    const response = await route.fetch();
    const { pathname } = new URL(route.request().url());
    // An asset by its hashed name is the file of that name in the folder (whose modules, as
    // written, then load the others by their plain names, served from the folder too).
    let name = pathname.startsWith('/assets/') ? plainAsset(pathname).slice('/assets/'.length) : PAGE_FILES[pathname];
    if (pathname.startsWith('/g/')) name = response.status() === 200 ? 'game.html' : 'gone.html';
    // A game against the computer, played in the page, is the same page.
    if (pathname.startsWith('/computer/')) name = 'game.html';
    let body;
    try { body = readFileSync(join(dir, name)); } catch { return route.fulfill({ response }); }
    if (!pathname.startsWith('/assets/')) {
      body = withSharedHead(body.toString('utf8'), readFileSync(join(dir, '..', 'build', 'head.html'), 'utf8'));
      // The server's headers but those of its own bytes (its compression, its tag, its length).
      const headers = { ...response.headers() };
      for (const own of ['content-encoding', 'content-length', 'etag']) delete headers[own];
      return route.fulfill({ status: response.status(), headers, body });
    }
    // A new asset is not in the binary at all: served as the binary would serve it.
    const type = { js: 'text/javascript', css: 'text/css', svg: 'image/svg+xml', wasm: 'application/wasm' }[name.split('.').pop()];
    return route.fulfill({ status: 200, headers: { 'content-type': type, 'cache-control': 'no-cache' }, body });
  });
}

// A page's file with the head every page shares written around its own, as the server's build
// writes it (crates/dara-server/build/head.rs, whose rules these are): the page's title, meta
// and links after the shared head's first lines, its classic scripts and its modules where
// `head.html` marks them.
function withSharedHead(page, shared) {
  const open = page.indexOf('<head>\n') + '<head>\n'.length;
  const close = page.indexOf('</head>');
  const own = page.slice(open, close).split('\n').map((line) => line.trim()).filter(Boolean);
  const kind = (line) => (line.startsWith('<script type="module"') ? 'module' : line.startsWith('<script') ? 'classic' : 'described');
  const slots = { '{title, meta, link}': 'described', '{script}': 'classic', '{script type=module}': 'module' };
  const head = shared.replace(/<!--[\s\S]*?-->\n/g, '').split('\n').filter(Boolean)
    .flatMap((line) => (line in slots ? own.filter((element) => kind(element) === slots[line]) : [line]));
  return `${page.slice(0, open)}${head.map((line) => `${line}\n`).join('')}${page.slice(close)}`;
}

// Pages, each in a fresh browser context (its own local storage: its own person), remembered
// so that a failing test can keep a screenshot of every one still open.
export function pageMaker(browser) {
  const open = [];
  const newPage = async (viewport = { width: 1280, height: 860 }, options = {}) => {
    const context = await browser.newContext({ viewport, ...options });
    if (process.env.DARA_ASSETS) await servePagesFromDisk(context, process.env.DARA_ASSETS);
    const page = await context.newPage();
    page.on('pageerror', (e) => { throw new Error(`page error: ${e.message}`); });
    open.push(page);
    return page;
  };
  // Every person of the test leaves: their sockets and kept-alive connections close. Pages left
  // open from test to test all come from 127.0.0.1 and add up to the server's 64 connections per
  // address, after which a new page's requests are refused and it never starts.
  const closePages = async () => {
    const contexts = open.splice(0).map((p) => p.context());
    await Promise.all(contexts.map((c) => c.close().catch(() => {})));
  };
  return { newPage, pages: () => open.filter((p) => !p.isClosed()), closePages };
}

// A server (started with `extra` arguments) and a browser for one test file, with its pages.
async function startArcade(extra = []) {
  const server = await startServer(extra);
  const browser = await startBrowser();
  return { server, browser, ...pageMaker(browser) };
}

async function stopArcade({ server, browser }) {
  await browser.close();
  server.stop();
}

// The server (started with `extra` arguments) and the browser of one test file, started before
// its first test and stopped after its last: called at the file's top level, where the tests
// cannot run yet. What it returns is filled in when they have started, so a file takes it apart
// at once: `const { server, newPage, pages } = useArcade(['--instant-computer']);`. `setUp`
// (given the server) is what the file needs before its tests once the server is up: the file's
// own `before` hooks would not do, as the test runner starts a file's `before` hooks together
// rather than one after another.
export function useArcade(extra = [], setUp = async () => {}) {
  const server = {};
  let arcade = null;
  before(async () => {
    arcade = await startArcade(extra);
    Object.assign(server, arcade.server);
    await setUp(server);
  });
  afterEach(() => arcade && arcade.closePages());
  // A start that failed has nothing to stop, and its own error is the one to see.
  after(() => arcade && stopArcade(arcade));
  return {
    server,
    newPage: (...args) => arcade.newPage(...args),
    pages: () => (arcade ? arcade.pages() : []),
  };
}

// A browser for one test file whose tests start their own servers, each on a data directory of
// its own: `dataDir(name)` makes one, removed with the browser after the file's last test.
// Called at the file's top level, as useArcade is.
export function useBrowser() {
  let browser = null;
  let made = null;
  const dirs = [];
  before(async () => {
    browser = await startBrowser();
    made = pageMaker(browser);
  });
  after(async () => {
    if (browser) await browser.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  return {
    newPage: (...args) => made.newPage(...args),
    pages: () => (made ? made.pages() : []),
    dataDir: (name) => {
      const dir = mkdtempSync(join(tmpdir(), `dara-${name}-`));
      dirs.push(dir);
      return dir;
    },
  };
}

// Creates a game through the HTTP API (as the home page would); returns the server's answer.
export async function createGame(server, body) {
  const response = await fetch(`${server.url}/api/games`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`creating a game: ${response.status} ${await response.text()}`);
  return response.json();
}

// Adds up, in `window.shifted`, every layout shift `page` makes from its next load on, as
// Chromium measures it (the web's CLS), leaving out those that follow the person's own input.
export async function countShifts(page) {
  await page.addInitScript(() => {
    window.shifted = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) if (!entry.hadRecentInput) window.shifted += entry.value;
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

// A TCP proxy in front of the server whose link can be cut without closing anything, as a
// pulled cable or a sleeping laptop would: while cut, no byte passes either way and every
// socket stays open; after `restore`, new connections pass again (the cut ones stay dead).
export async function startProxy(target) {
  const { createServer, connect } = await import('node:net');
  const { port: targetPort, hostname } = new URL(target);
  let cut = false;
  const frozen = [];
  const server = createServer((client) => {
    if (cut) { frozen.push(client); return; }
    const upstream = connect(Number(targetPort), hostname);
    const pipe = (from, to) => from.on('data', (chunk) => { if (!from.cut) to.write(chunk); });
    pipe(client, upstream);
    pipe(upstream, client);
    const end = () => { client.destroy(); upstream.destroy(); };
    client.on('error', end); upstream.on('error', end);
    client.on('close', () => { if (!client.cut) upstream.destroy(); });
    upstream.on('close', () => { if (!upstream.cut) client.destroy(); });
    frozen.push(client, upstream);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    cut: () => { cut = true; for (const s of frozen) s.cut = true; },
    restore: () => { cut = false; },
    close: () => { for (const s of frozen) s.destroy(); server.close(); },
  };
}

// One whole turn by clicking: a placement, or a step (and a capture when the step makes a row).
export async function clickTurn(page) {
  // The turn line can still read "Your turn" for a moment after our last move was sent; the
  // board marks cells to place on, or stones that can step, only once it really is our turn.
  await page.waitForSelector('[data-cell].put, [data-cell].select');
  const put = page.locator('[data-cell].put');
  if (await put.count()) {
    await put.first().click();
    return;
  }
  const stones = page.locator('[data-cell].select');
  const n = await stones.count();
  if (n === 0) throw new Error('no stone that can step');
  await stones.nth(Math.floor(Math.random() * n)).click();
  const targets = page.locator('[data-cell].target');
  await targets.first().waitFor();
  await targets.nth(Math.floor(Math.random() * (await targets.count()))).click();
  const capture = page.locator('[data-cell].capture');
  if (await capture.count()) await capture.first().click();
}

// Types the whole turn `m` once it is this page's turn; with `plies`, waits until the move list
// shows that many turns (without, the turn may be refused or held, as on a full disk).
export async function typeTurn(page, m, plies) {
  await page.waitForFunction(() => document.querySelector('#turn').textContent.startsWith('Your turn'));
  await page.fill('#typed-input', m);
  await page.press('#typed-input', 'Enter');
  if (plies) await page.waitForFunction((n) => document.querySelectorAll('#moves button.move').length >= n, plies);
}

// The number of turns in the page's move list.
export const moveCount = (page) => page.$$eval('#moves button.move', (b) => b.length);

// The words the English catalogue has for `key`, as the server serves it (by its plain name:
// the current bytes, asked about again each time, which is all a test needs).
export const catalogueWords = (page, key) => page.evaluate(async (k) => (await import('/assets/lang-en.js')).default[k], key);

// The file a hashed asset name is a version of: `/assets/game.0123456789ab.js` →
// `/assets/game.js` (crates/dara-server/src/hashed.rs); any other path as it is.
export const plainAsset = (path) => path.replace(/^(\/assets\/.*)\.[0-9a-f]{12}(\.[^./]+)$/, '$1$2');

// The address a server serves the asset `name` under (`engine.js` → `/assets/engine.<hash>.js`),
// as its service worker lists them: the same module the pages import, not a second copy.
export async function assetUrl(serverUrl, name) {
  const script = await (await fetch(`${serverUrl}/sw.js`)).text();
  const list = JSON.parse(script.match(/^const ASSETS = (\[.*\]);$/m)[1]);
  const hashed = list.find((asset) => plainAsset(`/assets/${asset}`) === `/assets/${name}`);
  if (!hashed) throw new Error(`no asset ${name} in ${list.join(' ')}`);
  return `/assets/${hashed}`;
}

// Tells `page` it is hidden (or seen again) as a browser tells a tab behind another: headless
// Chromium keeps every tab visible.
export const setHidden = (page, hidden) => page.evaluate((h) => {
  Object.defineProperty(document, 'hidden', { configurable: true, get: () => h });
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => (h ? 'hidden' : 'visible') });
  document.dispatchEvent(new Event('visibilitychange'));
}, hidden);

// Waits for the person's turn or the game's end; true at the end.
export async function myTurnOrEnd(page, timeout = 30000) {
  await page.waitForFunction(() => !document.querySelector('#end').hidden
    || document.querySelector('#turn').textContent.startsWith('Your turn'), null, { timeout });
  return !(await page.locator('#end').isHidden());
}

// Starts a game against the computer from the home page's form (pale, at `level`, under
// `preset` if named), played in the page; returns its id once the page is at /computer/<id>.
export async function playComputerFromHome(page, serverUrl, { level, preset } = {}) {
  await page.goto(serverUrl + '/');
  if (preset) await page.selectOption('#preset', preset);
  await page.selectOption('#level', String(level));
  await page.selectOption('#computer-colour', 'pale');
  await page.click('#play-computer button[type=submit]');
  await page.waitForURL(/\/computer\/[0-9a-f]{16}$/);
  return new URL(page.url()).pathname.split('/')[2];
}

// Asserts that `selector`'s text on `page` (its innerText) is `expected`, or matches it (a
// RegExp), once that page shows it: a test that has just waited on one page reads another only
// through this, as each page draws in its own time on a busy machine (the player's own turn may
// still say "Sending d1-c1xf3…" when the other page already has the move). Fails, saying what
// the page showed last, if it does not within `timeout`.
export async function expectText(page, selector, expected, { timeout = 15000 } = {}) {
  const matches = (text) => (expected instanceof RegExp ? expected.test(text) : text === expected);
  const deadline = Date.now() + timeout;
  let text = await page.locator(selector).innerText();
  while (!matches(text) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    text = await page.locator(selector).innerText();
  }
  if (expected instanceof RegExp) assert.match(text, expected);
  else assert.equal(text, expected);
}

// Waits until `read(page)` (a read of `page`: a count, an attribute, a value) gives what
// `check` accepts, and returns it; gives the last read after `timeout` for the test's own
// assertion to fail on. For reads of one page after waiting on another, as `expectText`.
export async function settled(read, check, { timeout = 15000 } = {}) {
  const deadline = Date.now() + timeout;
  let value = await read();
  while (!check(value) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    value = await read();
  }
  return value;
}
