// The game's WebSocket: says hello with the seat token and the last version applied, comes
// back by itself after a drop (asking only for what it missed), and measures the round trip
// so the server's clock can credit the lag.
//
// A link can die without closing: a cable pulled, a laptop asleep, a router that forgets. The
// server answers every turn and every ping, and the page pings whenever it has sent nothing for
// PING_MS, so a socket that has been silent for SILENT_MS is taken for dead and replaced, with
// a visible "reconnecting". (A page in play sends turns, not pings: on a busy server pings
// would be a third of the messages.) A turn is kept until the server answers it and sent again
// (same id) on the next socket: the server plays a resent turn once.

// The protocol version this page speaks (PROTOCOL.md); a server of another release says reload.
const PROTOCOL = 1;
// A dead link is noticed within SILENT_MS plus a look (the watchdog looks once a second):
// about five seconds, as a player expects to hear of it.
const PING_MS = 2000;
const SILENT_MS = 5000;
// A socket that has not opened by then is stuck on a dead link too.
const OPEN_MS = 5000;
// How long after a turn the server could not keep (saving paused) it is sent again.
const RESEND_MS = 3000;
// The longest wait between attempts while the server is away.
const MAX_RETRY_MS = 5000;

export class Connection {
  constructor(gameId, { seat, onMessage, onState }) {
    this.gameId = gameId;
    this.seat = seat;
    this.onMessage = onMessage;
    this.onState = onState;
    this.version = null;   // the last event version applied
    this.lag = 0;
    this.retry = 500;
    this.queue = [];
    this.turns = new Map(); // turns sent and not yet answered, by id
    this.turnSentAt = new Map(); // when each was last sent, for the round trip
    this.sentAt = performance.now();
    this.open();
    this.watchdog = setInterval(() => this.check(), 1000);
  }

  open() {
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    const ws = new WebSocket(`${scheme}://${location.host}/ws/game/${this.gameId}`);
    this.ws = ws;
    this.openedAt = performance.now();
    this.heardAt = performance.now();
    ws.onopen = () => {
      this.retry = 500;
      this.heardAt = performance.now();
      this.write(JSON.stringify({ t: 'hello', d: { protocol: PROTOCOL, seat: this.seat || null, since: this.version } }));
      this.onState('connected');
      for (const msg of this.queue.splice(0)) this.write(msg);
      for (const [id, msg] of this.turns) this.writeTurn(id, msg);
    };
    ws.onmessage = (e) => {
      this.heardAt = performance.now();
      const msg = JSON.parse(e.data);
      if (msg.t === 'pong' && this.pingAt) { this.measured(this.pingAt); this.pingAt = null; }
      if (msg.t === 'accepted' || msg.t === 'rejected') {
        const sentAt = this.turnSentAt.get(msg.d.id);
        if (sentAt !== undefined) this.measured(sentAt);
        this.turnSentAt.delete(msg.d.id);
        if (msg.t === 'rejected' && msg.d.code === 'store-unreachable' && this.turns.has(msg.d.id)) {
          // The server could not keep it just now (saving is paused): the same turn, same id,
          // goes again in a moment, until it is played or refused for another reason.
          const id = msg.d.id;
          setTimeout(() => {
            const text = this.turns.get(id);
            if (text && this.ws && this.ws.readyState === WebSocket.OPEN) this.writeTurn(id, text);
          }, RESEND_MS);
          this.onMessage({ t: 'paused', d: { id } });
          return;
        }
        this.turns.delete(msg.d.id);
      }
      if (typeof msg.v === 'number') {
        // Events arrive in order; one already applied (after a resume) is skipped.
        if (msg.t !== 'snapshot' && this.version !== null && msg.v <= this.version) return;
        this.version = msg.v;
      }
      this.onMessage(msg);
    };
    ws.onclose = (e) => {
      if (this.ws !== ws) return;
      if (e.code === 4004) { this.stop('gone'); return; }
      if (e.code === 4010) { this.stop('damaged'); return; }
      if (e.code === 4011) { this.stop('replaced'); return; }
      if (e.code === 1008) { this.stop('refused'); return; }
      if (e.code === 4009) { this.stop('reload'); return; }
      // 1012: the server is restarting (a deploy) and will be back in a moment: at once.
      if (e.code === 1012) this.retry = 150;
      this.reconnect();
    };
  }

  // Gives up on the current socket and opens another after a short wait that grows while the
  // server stays away. The wait is spread at random (a third either way) so that the pages of
  // a restarted server do not all come back in the same instant.
  reconnect() {
    const old = this.ws;
    this.ws = null;
    if (old) {
      old.onclose = null;
      old.onmessage = null;
      try { old.close(); } catch { /* already closing */ }
    }
    const wait = Math.round(this.retry * (2 / 3 + Math.random() * 2 / 3));
    this.retryAt = performance.now() + wait;
    this.onState('reconnecting');
    clearTimeout(this.reopen);
    this.reopen = setTimeout(() => this.open(), wait);
    this.retry = Math.min(Math.max(this.retry * 2, 500), MAX_RETRY_MS);
  }

  // The person asked: try again now rather than at the end of the wait.
  retryNow() {
    if (this.stopped || (this.ws && this.ws.readyState === WebSocket.OPEN)) return;
    const stuck = this.ws;
    if (stuck) {
      // An attempt still opening on a link that was dead when it began: start afresh.
      stuck.onclose = null;
      stuck.onmessage = null;
      try { stuck.close(); } catch { /* already closing */ }
    }
    clearTimeout(this.reopen);
    this.open();
  }

  // Milliseconds until the next attempt, while reconnecting.
  retryIn() { return Math.max(0, (this.retryAt || 0) - performance.now()); }

  stop(state) {
    this.stopped = true;
    clearTimeout(this.reopen);
    clearInterval(this.watchdog);
    this.onState(state);
  }

  // Once a second: a socket stuck opening, or silent too long, is dead and replaced; one that
  // has been sent nothing for a while is pinged.
  check() {
    const ws = this.ws;
    if (!ws) return;
    const now = performance.now();
    const stuck = ws.readyState === WebSocket.CONNECTING && now - this.openedAt > OPEN_MS;
    const silent = ws.readyState === WebSocket.OPEN && now - this.heardAt > SILENT_MS;
    if (stuck || silent) this.reconnect();
    else if (now - this.sentAt >= PING_MS) this.ping();
  }

  // The one-way delay, half a round trip begun at `since`, which the server credits on the clock.
  measured(since) { this.lag = Math.round((performance.now() - since) / 2); }

  write(text) {
    this.ws.send(text);
    this.sentAt = performance.now();
  }

  send(t, d) {
    const text = JSON.stringify(d === undefined ? { t } : { t, d });
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.write(text);
    else this.queue.push(text);
  }

  // A turn, kept until the server answers it (see above). It carries the lag, as pings do.
  sendTurn(id, m) {
    const text = JSON.stringify({ t: 'move', d: { id, m, lag: this.lag } });
    this.turns.set(id, text);
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.writeTurn(id, text);
  }

  writeTurn(id, text) {
    this.write(text);
    this.turnSentAt.set(id, performance.now());
  }

  // Whether a turn is on its way.
  sending() { return this.turns.size > 0; }

  ping() {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return;
    this.pingAt = performance.now();
    this.send('ping', { lag: this.lag });
  }

  setSeat(seat) { this.seat = seat; }

  // Done with the game here: the socket is closed and not opened again.
  close() {
    this.stopped = true;
    clearTimeout(this.reopen);
    clearInterval(this.watchdog);
    const ws = this.ws;
    this.ws = null;
    if (!ws) return;
    ws.onclose = null;
    ws.onmessage = null;
    try { ws.close(); } catch { /* already closing */ }
  }
}
