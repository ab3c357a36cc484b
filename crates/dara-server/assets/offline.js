// Every page installs the Arcade's service worker (/sw.js), which keeps the pages, their assets
// and the engine so that they open without a connection. A newer release's worker waits until
// a page that is not a game loads, and takes over then: never under a game in progress. And
// every page offers to install the Arcade as an app once the browser says it may.
if ('serviceWorker' in navigator) {
  const inGame = /^\/(g|computer)\//.test(location.pathname);
  navigator.serviceWorker.register('/sw.js').then((registration) => {
    // A browser that blocks service workers may resolve with none rather than refuse.
    if (!registration) return;
    if (!inGame && registration.waiting) registration.waiting.postMessage('take-over');
    registration.addEventListener('updatefound', () => {
      const installing = registration.installing;
      installing?.addEventListener('statechange', () => {
        if (!inGame && installing.state === 'installed' && navigator.serviceWorker.controller) installing.postMessage('take-over');
      });
    });
  }, (error) => console.warn(`no service worker: ${error.message}`));
}

// A table this browser waits at (a seek) is the browser's, not a page's: while one waits, every
// page keeps it and calls the person when someone sits down (seek.js, fetched only then; the
// table's page starts the seek, and a tab hears of one started in another through `storage`).
// (The key is seek.js's SEEK, written here rather than imported: importing it would load the
// module on every page, and the pages' assets may not import each other in a circle.)
const SEEK_KEY = 'dara.seek';
const seeking = () => import('./seek.js');
try {
  if (localStorage.getItem(SEEK_KEY)) seeking();
  window.addEventListener('storage', (e) => { if (e.key === SEEK_KEY && e.newValue) seeking(); });
} catch {
  // No local storage (blocked): no seek outlives its page.
}

// The browser says the Arcade may be installed (Chromium's `beforeinstallprompt`: the manifest,
// its icons and the service worker pass): its own banner is held back, and the header offers
// it instead (install.js, fetched then), until it is used or the app is installed.
window.addEventListener('beforeinstallprompt', (event) => {
  event.preventDefault();
  import('./install.js').then(({ offerInstall }) => offerInstall(event));
});
