// The core of the game page's controller (controller.js), without a DOM:
// the state on screen, the queue of states waiting to be shown and its rules
// of arrival, what this page sent and waits for, and the transport's news
// (pushed states, answers, the connection). It only talks to a transport
// (transport.js), asks `render(part)` to redraw and `animate(prev, next)` to
// play a move: no `document` here, so that it runs under `node --test`.

import * as P from './permissions.js';
import { other, online, inPlay } from './permissions.js';

// An online request with no answer frees its buttons after this long.
const ASK_MS = 8000;

export class ControllerCore {
  // transport: see transport.js. render(part): redraw the page from this
  // controller ('note': the note alone). animate(prev, next): play the move
  // from prev to next; resolves when it is over. confirmMoves(): whether a
  // move waits for the player's confirmation. navigate(url): go to another game.
  constructor({ transport, render = () => {}, animate = async () => {}, confirmMoves = () => false, navigate = () => {}, now = () => performance.now() }) {
    this.transport = transport;
    this.paint = render;
    this.animate = animate;
    this.confirmMoves = confirmMoves;
    this.navigate = navigate;
    this.now = now;
    this.me = transport.me(); // {seat, side, index, name} or null for a spectator
    this.seat = this.me?.seat || null;
    this.shown = null; // the state on screen
    this.queue = []; // states waiting for their turn on screen
    this.pumping = false;
    this.replaying = false; // a move is being animated: the board shows the animation
    this.sending = false; // a request is on its way (not online)
    this.pending = null; // online: {move, ply} sent and not yet acknowledged
    this.asked = null; // online: the type of a message waiting for its answer
    this.askTimer = null;
    this.hintCells = [];
    this.note = null; // {key, vars} or {fault, context}; error, transient
    this.viewing = null; // the ply shown read-only from the move list, or null for the live game
    this.frames = null; // {frames, moves}: the game's positions, read once for the move list
    this.proposed = null; // a move waiting for the player's confirmation
    this.link = null; // 'open' or 'lost' once the transport has said
  }

  // ---- permissions, for this page's seat ----------------------------------

  canPlay(s = this.shown) {
    return !!s && P.canPlay(s, this.me, this.pending);
  }

  // Online: whether messages can be sent now.
  get up() {
    return !!this.transport.up;
  }

  // What the panels need besides the state.
  view(s = this.shown) {
    const v = {
      me: this.me, seat: this.seat, pending: this.pending, asked: this.asked, sending: this.sending,
      replaying: this.replaying, viewing: this.viewing, proposed: this.proposed, note: this.note,
      hint: this.hintCells, up: this.up, link: this.link, frames: this.frames,
    };
    if (!s) return v;
    return { ...v, canPlay: this.canPlay(s), mySide: P.mySide(s, this.me), myIndex: P.myIndex(s, this.me), myHand: P.myHand(s, this.me) };
  }

  render(part) {
    const s = this.shown;
    if (part !== 'note' && s && this.viewing != null && this.viewing >= s.ply) this.viewing = null; // taken back meanwhile
    this.paint(part);
  }

  say(note) {
    this.note = note;
    this.render('note');
  }

  // ---- states in, one at a time -------------------------------------------

  // Whole states come pushed by the transport ('event') and as answers to
  // this page's own requests: 'move' (a move: old news when the push was
  // quicker, as it often is with the machine's reply) and 'reset' (the first
  // read, a takeback, a draw: always shown).
  receive(s, source) {
    if (!s) return;
    s.at = this.now(); // the clocks count down from here
    const ref = this.queue.length ? this.queue[this.queue.length - 1] : this.shown;
    if (ref && source === 'move' && s.ply <= ref.ply) return;
    if (ref && source === 'event' && s.ply < ref.ply) {
      // Behind the screen: a takeback, or a state sent before the answer to
      // this page's own request arrived. Ask which.
      this.transport.read().then((g) => this.receive(g, 'reset'), () => {});
      return;
    }
    this.queue.push(s);
    this.pump();
  }

  // The last ply the page has, queued or shown.
  lastPly() {
    return (this.queue.length ? this.queue[this.queue.length - 1] : this.shown)?.ply ?? 0;
  }

  async pump() {
    if (this.pumping) return;
    this.pumping = true;
    while (this.queue.length) {
      const s = this.queue.shift();
      const prev = this.shown;
      // A move arriving while an older position is shown is not animated.
      const moved = this.viewing == null && prev && s.game === prev.game && s.last && s.ply === prev.ply + 1 && s.last.ply === prev.ply;
      if (moved) {
        this.hintCells = [];
        if (this.note && this.note.transient) this.note = null;
        this.shown = s;
        this.replaying = true;
        this.render();
        try {
          await this.animate(prev, s);
        } catch {
          /* a broken animation must not block the game */
        }
        this.replaying = false;
      } else if (prev && s.ply !== prev.ply) {
        this.hintCells = [];
      }
      this.shown = s;
      this.render();
    }
    this.pumping = false;
  }

  // The first read; throws what the transport throws (the page says why).
  async load() {
    this.receive(await this.transport.read(), 'reset');
  }

  connect() {
    this.transport.connect({
      onState: (s, source) => this.pushed(s, source),
      onStatus: (status) => this.status(status),
      onMessage: (msg) => this.message(msg),
      ply: () => this.lastPly(),
      waiting: () => this.waiting(),
    });
  }

  // Whether the page waits for someone else's move and a read would disturb
  // nothing: never while it is this page's turn, a move being built is not
  // redrawn under the finger.
  waiting() {
    const s = this.shown;
    return !!s && inPlay(s) && !this.canPlay(s) && !this.sending && !this.replaying;
  }

  // A state from the transport: 'event' (pushed) or 'reset' (read again).
  pushed(s, source = 'event') {
    if (source === 'event') {
      if (this.pending && s.ply > this.pending.ply) this.pending = null;
      if (this.asked && this.asked !== 'rematch') this.answered();
    }
    this.receive(s, source);
  }

  // Online: the answers to this page's messages.
  message(msg) {
    if (msg.type === 'ok') {
      // An action other than a move was accepted; its state comes (or came) apart.
      if (this.asked !== 'rematch') this.answered();
      this.render();
    } else if (msg.type === 'ack') {
      if (this.pending && msg.ply === this.pending.ply) this.pending = null;
      this.render();
    } else if (msg.type === 'error') {
      const resent = this.pending && this.pending.resent;
      const wasMove = !!this.pending;
      this.pending = null;
      this.answered();
      // A move sent again after a reconnection may have been played meanwhile.
      if (!(resent && msg.code === 'stale_ply')) this.note = { fault: msg, context: wasMove ? 'move' : undefined, error: true, transient: true };
      this.render();
    } else if (msg.type === 'rematch') {
      this.answered();
      const s = this.shown;
      const mine = s && P.mySide(s, this.me);
      const side = mine ? other[mine] : undefined;
      const name = (mine && s.teams[mine][P.myIndex(s, this.me)]?.name) || this.me?.name;
      this.navigate(this.transport.takeRematch(msg, { side, name }));
    }
  }

  status(status) {
    this.link = status;
    if (status === 'open' && this.pending) {
      // The move may or may not have been stored: send it again, the server
      // acknowledges a duplicate again.
      this.pending.resent = true;
      this.pending.resend = false;
      this.transport.send({ type: 'move', move: this.pending.move, ply: this.pending.ply });
    }
    if (status === 'lost') this.answered();
    this.render();
  }

  // ---- requests and their answers -----------------------------------------

  // Not online: a request whose answer is the new state (the same state
  // may also come pushed).
  async request(fn, { reset = false, after, context } = {}) {
    this.sending = true;
    this.render();
    try {
      const s = await fn();
      if (after) after(s);
      if (s && s.ply !== undefined) this.receive(s, reset ? 'reset' : 'move');
    } catch (e) {
      this.say({ fault: e, context, error: true });
    } finally {
      this.sending = false;
      this.render();
    }
  }

  // Online: a message that changes the game; its answer is a new state, `ok`,
  // `rematch` or an error.
  ask(msg) {
    this.note = null;
    const s = this.shown;
    if (!s || !online(s) || !this.transport.send(msg)) {
      this.say({ key: 'online.notSent', error: true, transient: true });
      return;
    }
    this.asked = msg.type;
    clearTimeout(this.askTimer);
    this.askTimer = setTimeout(() => {
      this.asked = null;
      this.render();
    }, ASK_MS);
    this.render();
  }

  answered() {
    this.asked = null;
    clearTimeout(this.askTimer);
  }
}
