// The Arcade as an installable app (issue 43): the manifest's icons, each fetched under its
// hashed name and of the size it states (192 and 512, a maskable one), the apple-touch-icon,
// and the header's offer to install once Chromium fires `beforeinstallprompt`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { useArcade, keepScreenshotsOnFailure, startProfileBrowser } from '../harness.js';

const { server } = useArcade();

// A PNG's width and height, from its header (the IHDR chunk right after the signature).
function pngSize(bytes) {
  assert.deepEqual([...bytes.subarray(1, 4)], [0x50, 0x4e, 0x47], 'a PNG');
  return `${bytes.readUInt32BE(16)}x${bytes.readUInt32BE(20)}`;
}

async function fetchPng(path) {
  const answer = await fetch(server.url + path);
  assert.equal(answer.status, 200, path);
  assert.equal(answer.headers.get('content-type'), 'image/png', path);
  assert.match(answer.headers.get('cache-control'), /immutable/, path);
  return pngSize(Buffer.from(await answer.arrayBuffer()));
}

test('the manifest\'s icons are fetched and are of the sizes they state, one maskable; the apple-touch-icon too', { timeout: 30000 }, async () => {
  const html = await (await fetch(`${server.url}/`)).text();
  const manifestUrl = /<link rel="manifest" href="(\/assets\/manifest\.[0-9a-f]{12}\.webmanifest)">/.exec(html)?.[1];
  assert.ok(manifestUrl, 'the page names its manifest under a hashed name');
  const manifest = await (await fetch(server.url + manifestUrl)).json();
  const pngs = manifest.icons.filter((icon) => icon.type === 'image/png');
  assert.deepEqual(pngs.map((icon) => `${icon.sizes} ${icon.purpose}`).sort(), ['192x192 any', '512x512 any', '512x512 maskable']);
  for (const icon of pngs) {
    assert.match(icon.src, /^\/assets\/icon-[a-z0-9-]+\.[0-9a-f]{12}\.png$/, 'served under a hashed name');
    assert.equal(await fetchPng(icon.src), icon.sizes, icon.src);
  }
  const touch = /<link rel="apple-touch-icon" href="(\/assets\/apple-touch-icon\.[0-9a-f]{12}\.png)">/.exec(html)?.[1];
  assert.ok(touch, 'every page names its apple-touch-icon');
  assert.equal(await fetchPng(touch), '180x180');
});

test('the page offers to install once Chromium fires beforeinstallprompt', { timeout: 60000 }, async () => {
  // Chromium offers no install in an incognito context (the tests' usual one): a profile.
  const dir = mkdtempSync(join(tmpdir(), 'dara-install-'));
  const browser = await startProfileBrowser(dir, { width: 390, height: 844 });
  try {
    await keepScreenshotsOnFailure('install', () => browser.pages(), async () => {
    const page = await browser.newPage();
    page.on('pageerror', (e) => { throw new Error(`page error: ${e.message}`); });
    // Whether the page held the browser's own banner back, and when it asked for the prompt.
    await page.addInitScript(() => {
      window.installSeen = [];
      window.addEventListener('beforeinstallprompt', (event) => {
        // Heard before the page's own listener: no offer may be on the page yet.
        window.installSeen.push(document.getElementById('install') ? 'offered before' : 'fired');
        event.userChoice.then((choice) => window.installSeen.push(choice.outcome), () => {});
      });
    });
    await page.goto(`${server.url}/`);
    // Chromium judges the page installable (manifest, icons, service worker)...
    const cdp = await page.context().newCDPSession(page);
    await page.evaluate(() => navigator.serviceWorker.ready);
    const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
    assert.deepEqual(installabilityErrors, [], 'installable');
    // ...and fires beforeinstallprompt: the header offers it, in the page's words.
    await page.waitForFunction(() => window.installSeen.length > 0, null, { timeout: 30000 });
    assert.deepEqual(await page.evaluate(() => window.installSeen), ['fired'], 'no offer before the browser says so');
    await page.waitForSelector('#install:not([hidden])');
    assert.equal(await page.locator('#install').innerText(), 'Install the app');
    const box = await page.locator('#install').boundingBox();
    assert.ok(box.y + box.height <= 844, 'on the first screen');
    });
  } finally {
    await browser.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
