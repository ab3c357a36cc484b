// The Arcade's service worker, served at /sw.js: it keeps the pages, their assets, the language
// catalogues and the engine, so that without a connection the home page, the rules, /learn,
// /puzzles, /analysis and games against the computer (played in the page) all open and work.
// The server writes VERSION (a hash of every file below and of this script), LANGUAGE_CODES and ASSETS (the
// names under /assets/, each with its content's hash: `game.0123456789ab.js`) above this text
// when it is built: a new release is a new script, which the browser installs beside the old
// one. A file the release did not change keeps its name, and installing fetches it from the
// browser's HTTP cache, where the pages left it (kept a year, immutable).
//
// A new worker waits while pages of the old one are open and takes over when a page that is
// not a game loads (offline.js asks it to): never in the middle of a game, whose modules, its
// engine's worker and WebAssembly must all come from one release.

const CACHE = `dara-${VERSION}`;
// The pages kept, by address; a game's page is one page for every game, kept under GAME_PAGE.
const PAGES = ['/', '/rules', '/learn', '/puzzles', '/analysis', '/privacy', '/watch'];
const GAME_PAGE = '/computer/0000000000000000';
// The server's answers kept too: the puzzles (the same for every visitor of a release).
const DATA = ['/api/puzzles'];
// LANGUAGE_CODES, written above by the build from crates/dara-server/src/lang.rs, are the
// languages the server words its pages in: a copy of each page is kept in each, under
// `<address>?lang=<code>`, so that the page a player opens without a connection comes in the
// language they chose.
// Asked of the server only: a game between people, the lobby, the engine's analysis.
const NEVER_KEPT = ['/api/', '/ws/', '/metrics', '/healthz', '/readyz', '/sw.js'];

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await cache.addAll([...DATA, ...ASSETS.map((name) => `/assets/${name}`)]);
    // Each page in each language: asked without the `lang` cookie, which would name one
    // language for all, and with the language wanted as the browser's only one.
    await Promise.all([...PAGES, GAME_PAGE].flatMap((page) => LANGUAGE_CODES.map(async (code) => {
      const answer = await fetch(page, { credentials: 'omit', headers: { 'Accept-Language': code } });
      if (!answer.ok) throw new Error(`${page} in ${code}: ${answer.status}`);
      await cache.put(`${page}?lang=${code}`, answer);
    })));
    // The first worker of this browser has no pages to wait for.
    if (!self.registration.active) await self.skipWaiting();
  })());
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith('dara-') && name !== CACHE) await caches.delete(name);
    }
    // Pages opened before the first worker was installed are served from now on.
    await self.clients.claim();
  })());
});

self.addEventListener('message', (event) => {
  if (event.data === 'take-over') self.skipWaiting();
});

// The player's language as the server would choose it: the `lang` cookie the page's switch
// sets (read where the browser lets a worker read cookies), else the browser's languages, else
// English. A page that comes in another language than localStorage's choice words itself
// again (i18n.js).
async function language() {
  try {
    const chosen = await self.cookieStore?.get('lang');
    if (chosen && LANGUAGE_CODES.includes(chosen.value)) return chosen.value;
  } catch { /* no cookies for workers here */ }
  for (const tag of self.navigator.languages || []) {
    const main = String(tag).toLowerCase().split('-')[0];
    if (LANGUAGE_CODES.includes(main)) return main;
  }
  return 'en';
}

// The kept copy of a page's address: every game page is the same page.
async function keptAs(url) {
  const page = url.pathname.startsWith('/computer/') || url.pathname.startsWith('/g/') ? GAME_PAGE : url.pathname;
  return `${page}?lang=${await language()}`;
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== self.location.origin) return;
  if (DATA.includes(url.pathname)) {
    event.respondWith(fetch(request).catch(async () => (await caches.match(url.pathname, { cacheName: CACHE })) ?? Response.error()));
    return;
  }
  if (NEVER_KEPT.some((prefix) => url.pathname.startsWith(prefix))) return;
  if (request.mode === 'navigate') {
    // A page: the server's own when it answers (it knows whether a game is still there),
    // the kept copy when it does not.
    event.respondWith(fetch(request).catch(async () => {
      const kept = await caches.match(await keptAs(url), { cacheName: CACHE });
      return kept ?? Response.error();
    }));
    return;
  }
  if (url.pathname.startsWith('/assets/')) {
    // An asset of this release: the kept copy, which is the one its pages were made with. A
    // name this release does not have is a page of another one's (open since before this worker
    // took over), asking late for a file that has changed since: the network's answer, else,
    // offline, this release's copy of the same file, as the server itself answers such a name.
    event.respondWith((async () => {
      const kept = await caches.match(url.pathname, { cacheName: CACHE });
      if (kept) return kept;
      try {
        return await fetch(request);
      } catch (error) {
        const name = plainName(url.pathname.slice('/assets/'.length));
        const ours = ASSETS.find((asset) => plainName(asset) === name);
        const copy = ours && await caches.match(`/assets/${ours}`, { cacheName: CACHE });
        if (copy) return copy;
        throw error;
      }
    })());
  }
});

// The file a hashed name is a version of: `game.0123456789ab.js` → `game.js` (src/hashed.rs).
function plainName(name) {
  return name.replace(/\.[0-9a-f]{12}(\.[^.]+)$/, '$1');
}
