// The language from the first byte (issue 31): the server words each page in the player's
// language, chosen by the `lang` cookie the header's switch sets, else `Accept-Language`, else
// English, and says so in `<html lang>`, `Content-Language` and `Vary`. Checked on the HTML as
// sent, before any script runs, and in Chromium: the switch sets the cookie, and the next page
// comes from the server already in the language chosen.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useArcade, keepScreenshotsOnFailure } from '../harness.js';

const { server, newPage, pages } = useArcade();

const title = (html) => html.match(/<title[^>]*>([^<]*)<\/title>/)[1];
const htmlLang = (html) => html.match(/<html lang="([^"]*)"/)[1];

test('the HTML as sent is in the language Accept-Language or the lang cookie names', async () => {
  for (const [headers, code, words] of [
    [{}, 'en', 'Dara — play in your browser'],
    [{ 'Accept-Language': 'fr-NE,fr;q=0.9,en;q=0.8' }, 'fr', 'Dara — jouer dans le navigateur'],
    [{ 'Accept-Language': 'de, ha;q=0.5' }, 'ha', null],
    [{ 'Accept-Language': 'fr', Cookie: 'lang=ha' }, 'ha', null],
  ]) {
    const answer = await fetch(`${server.url}/`, { headers });
    const html = await answer.text();
    assert.equal(htmlLang(html), code, JSON.stringify(headers));
    assert.equal(answer.headers.get('content-language'), code);
    assert.match(answer.headers.get('vary'), /Cookie, Accept-Language/);
    if (words) assert.equal(title(html), words);
  }
  const privacy = await (await fetch(`${server.url}/privacy`, { headers: { Cookie: 'lang=ha' } })).text();
  assert.equal(htmlLang(privacy), 'ha');
  assert.match(privacy, /<code>lang<\/code>/, 'the privacy page names the cookie');
  assert.doesNotMatch(privacy, /There are no accounts/);
});

test('the switch sets the lang cookie, and the next page comes in that language from the server', { timeout: 60000 }, async () => {
  await keepScreenshotsOnFailure('first-byte-lang', pages, async () => {
    const page = await newPage({ width: 1280, height: 860 }, { locale: 'en-GB' });
    await page.goto(`${server.url}/rules`);
    assert.equal(await page.getAttribute('html', 'lang'), 'en');
    await Promise.all([page.waitForEvent('load'), page.selectOption('#lang', 'fr')]);
    const cookies = await page.context().cookies();
    assert.deepEqual(cookies.map((c) => [c.name, c.value, c.sameSite, c.path]), [['lang', 'fr', 'Lax', '/']]);
    assert.ok(cookies[0].expires * 1000 > Date.now() + 360 * 86400 * 1000, 'kept about a year');
    // The next page's HTML, as the server sent it (before any script), is French.
    const answer = await page.goto(`${server.url}/privacy`);
    assert.equal(htmlLang(await answer.text()), 'fr');
    assert.equal(answer.headers()['content-language'], 'fr');
    assert.equal(await page.getAttribute('html', 'lang'), 'fr');
    assert.equal(await page.inputValue('#lang'), 'fr');
  });
});

test('the service worker keeps each page in each language, whatever the cookie says, and serves the cookie\'s offline', { timeout: 90000 }, async () => {
  await keepScreenshotsOnFailure('first-byte-lang-kept', pages, async () => {
    const page = await newPage({ width: 390, height: 844 });
    // A Hausa cookie first: the worker's copies must not all come in Hausa.
    await page.context().addCookies([{ name: 'lang', value: 'ha', url: server.url }]);
    await page.goto(`${server.url}/`);
    assert.equal(await page.getAttribute('html', 'lang'), 'ha');
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 60000 });
    const kept = await page.evaluate(async () => {
      const found = {};
      for (const name of await caches.keys()) {
        const cache = await caches.open(name);
        for (const request of await cache.keys()) {
          const url = new URL(request.url);
          if (!url.searchParams.has('lang')) continue;
          const html = await (await cache.match(request)).text();
          found[url.pathname + url.search] = html.match(/<html lang="([^"]*)"/)[1];
        }
      }
      return found;
    });
    for (const path of ['/', '/rules', '/learn', '/puzzles', '/analysis', '/privacy', '/watch', '/computer/0000000000000000']) {
      for (const code of ['en', 'fr', 'ha']) assert.equal(kept[`${path}?lang=${code}`], code, `${path} in ${code}`);
    }
    // Without a connection the kept copy in the cookie's language is the one served. (The
    // last test of the file: the server is not needed after it.)
    await server.kill('SIGKILL');
    await page.context().setOffline(true);
    const answer = await page.goto(`${server.url}/rules`);
    assert.equal(htmlLang(await answer.text()), 'ha');
  });
});
