// The game's WebSocket: says hello with the seat token and the last version applied, comes
// back by itself after a drop (asking only for what it missed), and measures the round trip
// so the server's clock can credit the lag.
//
// A link can die without closing: a cable pulled, a laptop asleep, a router that forgets. The
// page pings every few seconds and the server answers every ping, so a socket that has been
// silent for SILENT_MS is taken for dead and replaced, with a visible "reconnecting". A turn is
// kept until the server answers it and sent again (same id) on the next socket: the server
// plays a resent turn once.

// The protocol version this page speaks (PROTOCOL.md); a server of another release says reload.
const PROTOCOL = 1;
const PING_MS = 4000;
const SILENT_MS = 10000;
// A socket that has not opened by then is stuck on a dead link too.
const OPEN_MS = 5000;

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
    this.open();
    this.pinger = setInterval(() => this.ping(), PING_MS);
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
      ws.send(JSON.stringify({ t: 'hello', d: { protocol: PROTOCOL, seat: this.seat || null, since: this.version } }));
      this.onState('connected');
      for (const msg of this.queue.splice(0)) ws.send(msg);
      for (const msg of this.turns.values()) ws.send(msg);
    };
    ws.onmessage = (e) => {
      this.heardAt = performance.now();
      const msg = JSON.parse(e.data);
      if (msg.t === 'pong' && this.pingAt) { this.lag = Math.round((performance.now() - this.pingAt) / 2); this.pingAt = null; }
      if (msg.t === 'accepted' || msg.t === 'rejected') this.turns.delete(msg.d.id);
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
      if (e.code === 1008) { this.stop('refused'); return; }
      if (e.code === 4009) { this.stop('reload'); return; }
      this.reconnect();
    };
  }

  // Gives up on the current socket and opens another after a short, growing wait.
  reconnect() {
    const old = this.ws;
    this.ws = null;
    if (old) {
      old.onclose = null;
      old.onmessage = null;
      try { old.close(); } catch { /* already closing */ }
    }
    this.onState('reconnecting');
    setTimeout(() => this.open(), this.retry);
    this.retry = Math.min(this.retry * 2, 8000);
  }

  stop(state) {
    clearInterval(this.pinger);
    clearInterval(this.watchdog);
    this.onState(state);
  }

  // A socket stuck opening, or silent too long, is dead: replace it.
  check() {
    const ws = this.ws;
    if (!ws) return;
    const now = performance.now();
    const stuck = ws.readyState === WebSocket.CONNECTING && now - this.openedAt > OPEN_MS;
    const silent = ws.readyState === WebSocket.OPEN && now - this.heardAt > SILENT_MS;
    if (stuck || silent) this.reconnect();
  }

  send(t, d) {
    const text = JSON.stringify(d === undefined ? { t } : { t, d });
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(text);
    else this.queue.push(text);
  }

  // A turn, kept until the server answers it (see above).
  sendTurn(id, m) {
    const text = JSON.stringify({ t: 'move', d: { id, m } });
    this.turns.set(id, text);
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(text);
  }

  // Whether a turn is on its way.
  sending() { return this.turns.size > 0; }

  ping() {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return;
    this.pingAt = performance.now();
    this.send('ping', { lag: this.lag });
  }

  setSeat(seat) { this.seat = seat; }
}
