// The game's WebSocket: says hello with the seat token and the last version applied, comes
// back by itself after a drop (asking only for what it missed), and measures the round trip
// so the server's clock can credit the lag.

// The protocol version this page speaks (PROTOCOL.md); a server of another release says reload.
const PROTOCOL = 1;

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
    this.open();
    this.pinger = setInterval(() => this.ping(), 4000);
  }

  open() {
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    const ws = new WebSocket(`${scheme}://${location.host}/ws/game/${this.gameId}`);
    this.ws = ws;
    ws.onopen = () => {
      this.retry = 500;
      ws.send(JSON.stringify({ t: 'hello', d: { protocol: PROTOCOL, seat: this.seat || null, since: this.version } }));
      this.onState('connected');
      for (const msg of this.queue.splice(0)) ws.send(msg);
    };
    ws.onmessage = (e) => {
      const msg = JSON.parse(e.data);
      if (msg.t === 'pong' && this.pingAt) { this.lag = Math.round((performance.now() - this.pingAt) / 2); this.pingAt = null; }
      if (typeof msg.v === 'number') {
        // Events arrive in order; one already applied (after a resume) is skipped.
        if (msg.t !== 'snapshot' && this.version !== null && msg.v <= this.version) return;
        this.version = msg.v;
      }
      this.onMessage(msg);
    };
    ws.onclose = (e) => {
      if (this.ws !== ws) return;
      if (e.code === 4004) { this.onState('gone'); return; }
      if (e.code === 1008) { this.onState('refused'); return; }
      if (e.code === 4009) { this.onState('reload'); return; }
      this.onState('reconnecting');
      setTimeout(() => this.open(), this.retry);
      this.retry = Math.min(this.retry * 2, 8000);
    };
  }

  send(t, d) {
    const text = JSON.stringify(d === undefined ? { t } : { t, d });
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(text);
    else this.queue.push(text);
  }

  ping() {
    if (this.ws.readyState !== WebSocket.OPEN) return;
    this.pingAt = performance.now();
    this.send('ping', { lag: this.lag });
  }

  setSeat(seat) { this.seat = seat; }
}
