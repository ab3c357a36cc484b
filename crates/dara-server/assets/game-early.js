// Runs before the game page's first paint (a classic script in its head, not a module, so it
// holds the paint for a file of a few hundred bytes): what the page's address already says, as
// classes on <html>, so that the room the game will take is kept from the first paint rather
// than made when the page's modules have run, moving what is under it (a layout shift).
//   inviting: a friend's game just made on the home page (its link says `invite`, and `you`, the
//   colour its maker plays): the invitation to send the link, the line under each player that a
//   game between people keeps, and the players' order for that colour, at once. The game's
//   snapshot then draws the page and takes the classes away (game-render.js).
//   inviting-clock: that game has a clock, whose room in each panel is kept as well.
//   before-snapshot: every game page until its snapshot is drawn: what sits below the side's
//   words the snapshot writes (the move list's title) is not shown until it has its place.
//   seat-unknown: a game on the server opened from its link or reloaded (not just made here):
//   whether the visitor takes a seat, which colour (the board turns for dark) or watches (a note
//   above the board), are known only from the snapshot, so the table is kept out of sight, its
//   room held, until the snapshot draws it once as it will stay. Shown and then turned, it
//   moved by a fifth of the screen (CLS 0.21 for the friend who opens the link).
document.documentElement.classList.add('before-snapshot');
const hints = new URLSearchParams(location.hash.slice(1));
if (hints.has('invite')) {
  document.documentElement.classList.add('inviting');
  if (hints.get('you') === 'black') document.documentElement.classList.add('inviting-black');
  if (hints.has('clock')) document.documentElement.classList.add('inviting-clock');
} else if (location.pathname.startsWith('/g/')) {
  document.documentElement.classList.add('seat-unknown');
}
// The game's link, the page's own table or the server's socket (game.js imports the one the
// address names): fetched now, beside the page's other modules, rather than once game.js has run.
const preload = document.createElement('link');
preload.rel = 'modulepreload';
preload.href = location.pathname.startsWith('/computer/') ? '/assets/page-table.js' : '/assets/connection.js';
document.head.append(preload);
