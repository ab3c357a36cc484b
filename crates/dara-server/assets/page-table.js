// A game against the computer played in the page: its table (the rules of a game at the table,
// crates/dara-table, in table.wasm, built from crates/dara-pocket) runs here, and the
// computer's searches run in the engine's worker (engine.js). No move goes to the server, and
// the game is kept only in this browser's local storage, after every change, so that a reload
// (or a page opened offline) continues it.
//
// PageConnection has the interface of the socket's Connection (connection.js): the game page
// sends it the same messages and is told the same ones back, so it draws a game here and a game
// on the server with the same code.
import { fetchModule, engineInPage } from './engine-wasm.js';

const keptKey = (id) => `dara.computer.${id}`;
// The ids of the finished games still kept, oldest first.
const FINISHED_KEY = 'dara.computer.finished';
// How many finished games are kept for analysis and review; an older one is let go.
export const KEEP_FINISHED = 20;

// Where a game against the computer played in the page lives.
export const computerGameUrl = (id) => `/computer/${id}`;

// Whether a game against the computer can be played in this page (otherwise the server's
// computer plays it, as before).
export const tableInPage = () => engineInPage() && typeof localStorage === 'object';

// The engine's side of the page (its worker and module), fetched when the computer first thinks:
// the game's page is usable before it, the person placing the first stone meanwhile.
const engine = () => import('./engine.js');

// 53 random bits (as many as a number holds exactly): the computer's dice for a move, and the
// id of a rematch.
function randomBits() {
  const [high, low] = crypto.getRandomValues(new Uint32Array(2));
  return (high & 0x1fffff) * 2 ** 32 + low;
}

function randomId() {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

// Today as a game's record writes it: 2026.12.04.
function today() {
  const d = new Date();
  return `${d.getFullYear()}.${String(d.getMonth() + 1).padStart(2, '0')}.${String(d.getDate()).padStart(2, '0')}`;
}

// Sets up a new game against the computer in this browser and returns its address. `first` is
// the home page's choice: `pale` (the person places first), `dark` or `random`.
export function newComputerGame({ rules, level, first }) {
  const you = first === 'pale' ? 'white' : first === 'dark' ? 'black' : (randomBits() % 2 ? 'white' : 'black');
  const game = randomId();
  const kept = { game, date: today(), rules, level, you, journal: [] };
  localStorage.setItem(keptKey(game), JSON.stringify(kept));
  return computerGameUrl(game);
}

// The games against the computer kept in this browser, finished or not, the latest first: the
// finished in the order they ended, after the unfinished.
export function keptGames() {
  const games = [];
  for (let i = 0; i < localStorage.length; i += 1) {
    const key = localStorage.key(i);
    if (!/^dara\.computer\.[0-9a-f]{16}$/.test(key)) continue;
    try {
      const kept = JSON.parse(localStorage.getItem(key));
      if (kept && Array.isArray(kept.journal)) games.push(kept);
    } catch { /* a damaged copy is not listed; its page says so */ }
  }
  const order = finishedIds();
  const rank = (kept) => {
    const at = order.indexOf(kept.game);
    return at < 0 ? Infinity : at;
  };
  return games.sort((a, b) => rank(b) - rank(a));
}

// The ids of the finished games kept, oldest first (none, if the list is damaged).
function finishedIds() {
  try {
    const ids = JSON.parse(localStorage.getItem(FINISHED_KEY) ?? '[]');
    return Array.isArray(ids) ? ids : [];
  } catch {
    return [];
  }
}

// A game has ended: it joins the finished ones kept, and the oldest beyond KEEP_FINISHED go.
function finished(id) {
  const ids = finishedIds().filter((other) => other !== id);
  ids.push(id);
  for (const old of ids.splice(0, Math.max(0, ids.length - KEEP_FINISHED))) localStorage.removeItem(keptKey(old));
  localStorage.setItem(FINISHED_KEY, JSON.stringify(ids));
}

export class PageConnection {
  constructor(gameId, { onMessage, onState }) {
    this.gameId = gameId;
    this.onMessage = onMessage;
    this.onState = onState;
    this.lag = 0;
    this.table = null;
    this.queue = [];       // messages sent before the module was ready
    this.searching = null; // the ticket of the search the table waits for
    this.wake = null;
    this.start();
  }

  async start() {
    const text = localStorage.getItem(keptKey(this.gameId));
    if (text === null) {
      this.onState('not-here');
      return;
    }
    let kept;
    try {
      kept = JSON.parse(text);
    } catch {
      this.onState('kept-damaged');
      return;
    }
    try {
      this.table = await fetchModule('table.wasm');
    } catch (e) {
      this.onState('no-table', { reason: e.message });
      return;
    }
    if (!this.ask({ open: kept }, 'kept-damaged')) return;
    this.onState('connected');
    for (const message of this.queue.splice(0)) this.ask({ call: { message } });
  }

  // Hands the table a request; carries out its answer. False if it refused (`failure` is then
  // the page's state, the reason in the console).
  ask(request, failure = 'kept-damaged') {
    const answer = JSON.parse(this.table.table(JSON.stringify({ now: Date.now(), seed: randomBits(), ...request })));
    if (answer.error !== undefined) {
      console.error(`the page's table: ${answer.error}`);
      this.onState(failure);
      return false;
    }
    this.carryOut(answer.ok);
    return true;
  }

  // Keeps the game first (what the page is told has happened is never lost to a reload), then
  // starts or calls off the computer's search, sets the table's timer, and tells the page.
  carryOut({ messages, search: asked, callOff, wakeAt, kept, rematch }) {
    localStorage.setItem(keptKey(kept.game), JSON.stringify(kept));
    if (rematch) localStorage.setItem(keptKey(rematch.game), JSON.stringify(rematch));
    if (messages.some((m) => m.t === 'end')) finished(kept.game);
    if (callOff.includes(this.searching)) {
      this.searching = null;
      engine().then(({ stopEngine }) => stopEngine());
    }
    if (asked) this.think(asked);
    clearTimeout(this.wake);
    if (wakeAt !== null) this.wake = setTimeout(() => this.ask({ call: 'time' }), Math.max(0, wakeAt - Date.now()));
    // Told once what the page is doing now is done, as a socket's messages would come: a turn's
    // answer must not arrive inside the click that sent it.
    queueMicrotask(() => { for (const message of messages) this.onMessage(message); });
  }

  // The computer's search, in the engine's worker; its move goes to the table unless the
  // table stopped waiting for it meanwhile.
  think({ ticket, request }) {
    this.searching = ticket;
    engine().then(({ search }) => search(request)).then(
      (reply) => {
        if (this.searching !== ticket) return;
        this.searching = null;
        this.ask({ call: { computer: { ticket, m: reply.move } } });
      },
      (error) => {
        if (this.searching !== ticket) return;
        this.searching = null;
        this.onState('no-table', { reason: error.message });
      },
    );
  }

  send(t, d) {
    const message = JSON.stringify(d === undefined ? { t } : { t, d });
    if (this.table) this.ask({ call: { message } });
    else this.queue.push(message);
  }

  sendTurn(id, m) { this.send('move', { id, m }); }

  // The table answers at once: no turn is ever on its way.
  sending() { return false; }

  setSeat() {}

  retryNow() {}

  retryIn() { return 0; }
}
