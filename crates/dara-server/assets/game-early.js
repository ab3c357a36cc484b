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
document.documentElement.classList.add('before-snapshot');
const hints = new URLSearchParams(location.hash.slice(1));
if (hints.has('invite')) {
  document.documentElement.classList.add('inviting');
  if (hints.get('you') === 'black') document.documentElement.classList.add('inviting-black');
  if (hints.has('clock')) document.documentElement.classList.add('inviting-clock');
}
