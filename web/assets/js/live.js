// The live socket of a game, of every kind: against the machine, on one
// screen, online (docs/online.md). It is the page's one channel for news: the
// machine's reply and the other players' moves arrive here. `hello` with the
// seat and the last ply on screen, then JSON messages both ways; the server
// answers every hello with the whole state, so nothing missed while away
// needs asking for. A lost connection comes back by itself, after 0.5 s
// doubling to 10 s with jitter, and says `hello` again. A ping every 20 s
// finds a connection that died silently (the server closes one silent for 60 s).

import { socketUrl } from './api.js';

const PING_MS = 20000;
const DEAD_MS = 45000;
// Refusals of a hello that another try cannot change.
const FINAL = new Set(['not_found', 'damaged']);

export class Live {
  // seat: null for a spectator; ply(): the last ply the page has;
  // onMessage(msg): every message; onStatus('open' | 'lost'): connection changes.
  constructor(id, { seat, ply, onMessage, onStatus = () => {} }) {
    this.id = id;
    this.seat = seat;
    this.ply = ply;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.ws = null;
    this.tries = 0;
    this.timer = null;
    this.pinger = null;
    this.heard = 0;
    this.closed = false;
    this.up = false;
    this.connect();
    addEventListener('online', () => this.soon());
    document.addEventListener('visibilitychange', () => {
      if (!document.hidden) this.soon();
    });
  }

  get open() {
    return !!this.ws && this.ws.readyState === WebSocket.OPEN;
  }

  connect() {
    clearTimeout(this.timer);
    this.timer = null;
    if (this.closed) return;
    let ws;
    try {
      ws = new WebSocket(socketUrl(this.id));
    } catch {
      this.retry();
      return;
    }
    this.ws = ws;
    ws.addEventListener('open', () => {
      const hello = { type: 'hello', ply: this.ply() };
      if (this.seat) hello.seat = this.seat;
      ws.send(JSON.stringify(hello));
      this.heard = Date.now();
      clearInterval(this.pinger);
      this.pinger = setInterval(() => this.ping(), PING_MS);
    });
    ws.addEventListener('message', (e) => {
      this.heard = Date.now();
      let msg;
      try {
        msg = JSON.parse(e.data);
      } catch {
        return; // a malformed message is ignored
      }
      if (msg.type === 'state' && !this.up) {
        this.up = true;
        this.tries = 0;
        this.onStatus('open');
      }
      if (msg.type !== 'pong') this.onMessage(msg);
      if (msg.type === 'error' && !this.up && FINAL.has(msg.code)) this.close();
    });
    ws.addEventListener('close', () => this.lost(ws));
  }

  // The connection is gone (closed, or silent too long): say so once, retry.
  lost(ws) {
    if (this.ws !== ws) return;
    this.ws = null;
    clearInterval(this.pinger);
    try {
      ws.close();
    } catch {
      /* already closed */
    }
    if (this.closed) return;
    if (this.up || this.tries === 0) this.onStatus('lost');
    this.up = false;
    this.retry();
  }

  retry() {
    if (this.timer || this.closed) return;
    const base = Math.min(10000, 500 * 2 ** this.tries);
    this.tries++;
    const wait = Math.min(10000, base * (0.75 + Math.random() * 0.5));
    this.timer = setTimeout(() => this.connect(), wait);
  }

  // Back in view or back online: try now rather than at the end of the wait.
  soon() {
    if (this.ws || this.closed || !this.timer) return;
    this.connect();
  }

  ping() {
    if (!this.open) return;
    if (Date.now() - this.heard > DEAD_MS) {
      this.lost(this.ws);
      return;
    }
    this.ws.send(JSON.stringify({ type: 'ping' }));
  }

  // Sends a message; false when the connection is down (the caller keeps
  // what it must send again after the next `hello`).
  send(msg) {
    if (!this.open || !this.up) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    clearInterval(this.pinger);
    if (this.ws) this.ws.close();
  }
}
