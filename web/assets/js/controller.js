// The game page's controller, without a DOM: what the player does (a move,
// a hint, a take-back, a draw, resigning, « Rejouer », a look back in the
// move list) on top of the state and its queue (controller-core.js). The
// same for a game on the server and one in the browser: it only talks to a
// transport (transport.js). Tested under `node --test`
// (tests/browser/unit/controller.test.mjs).

import * as P from './permissions.js';
import { other, humanSides, vsMachine, online } from './permissions.js';
import { ControllerCore } from './controller-core.js';
import { cellsOf } from './places.js';

// The notation typed in the move form, as the boards write it.
export function normalise(game, m) {
  const s = m.trim().replace(/\s+/g, '');
  return game === 'yote' ? s.toLowerCase() : s.toUpperCase();
}

export { cellsOf };

// new GameController({transport, render, animate, confirmMoves, navigate}):
// see ControllerCore.
export class GameController extends ControllerCore {
  // A tap on a hole or pit that starts no move: the dictionary key saying
  // why, or null to stay quiet.
  refusal(name, stage = 'origin') {
    const s = this.shown;
    if (!s || this.viewing != null || this.replaying || this.sending || this.proposed) return null;
    return P.refusalKey(s, this.me, name, stage, this.pending);
  }

  // Returns true when the move waits for the player's confirmation.
  play(move, confirmed = false) {
    const s = this.shown;
    if (!s || !this.seat || this.viewing != null) return false;
    if (this.confirmMoves() && !confirmed) {
      this.proposed = move;
      this.render();
      return true;
    }
    this.proposed = null;
    this.note = null;
    if (online(s)) {
      if (!this.canPlay(s)) return false;
      this.pending = { move, ply: s.ply };
      if (!this.transport.send({ type: 'move', move, ply: s.ply })) this.pending.resend = true;
      this.render();
      return false;
    }
    this.request(() => this.transport.play(this.seat, move, s.ply), { context: 'move' });
    return false;
  }

  cancelProposal() {
    this.proposed = null;
    this.render();
  }

  // Hints are for games against the machine or on one screen, never online.
  async hint() {
    const s = this.shown;
    if (!s || online(s)) return;
    try {
      const h = await this.transport.hint(this.seat);
      this.hintCells = cellsOf(s.game, h.move);
      this.note = { key: 'game.hint', vars: { move: h.move }, transient: true };
      this.render();
    } catch (e) {
      this.say({ fault: e, error: true });
    }
  }

  // Online, a take-back is a request the other side answers.
  takeback() {
    if (!this.shown) return;
    if (online(this.shown)) return this.ask({ type: 'takeback', action: 'offer' });
    this.note = null;
    this.request(() => this.transport.takeback(this.seat), { reset: true });
  }

  // The answer names the offer it answers: a newer one is not answered by mistake.
  answerTakeback(action) {
    this.ask({ type: 'takeback', action, ply: this.shown?.takeback_offer?.ply });
  }

  // action: 'offer', 'accept' or 'decline'.
  draw(action) {
    if (!this.shown) return;
    if (online(this.shown)) return this.ask({ type: 'draw', action });
    let after;
    if (action === 'offer') {
      this.note = null;
      after = (s) => {
        if (vsMachine(s) && s.draw_declined) this.note = { key: 'draw.declined', transient: true };
        else if (!vsMachine(s)) this.note = null;
      };
    } else if (action === 'decline') {
      after = () => (this.note = { key: 'draw.refused', transient: true });
    }
    this.request(() => this.transport.draw(this.seat, action), { reset: true, after });
  }

  resign() {
    const s = this.shown;
    if (!s) return;
    if (online(s)) return this.ask({ type: 'resign' });
    const body = vsMachine(s) ? {} : { side: s.turn };
    this.request(() => this.transport.resign(this.seat, body), { reset: true });
  }

  // « Rejouer »: the same game against the same level, sides swapped.
  async playAgain() {
    const s = this.shown;
    if (!s || !vsMachine(s)) return;
    const human = humanSides(s)[0];
    const side = human ? other[human] : 'random';
    const body = { game: s.game, opponent: 'machine', level: s.level, side };
    if (s.game === 'nsolo') body.size = s.size;
    this.sending = true;
    this.render();
    try {
      this.navigate(await this.transport.newGame(body));
    } catch (e) {
      this.sending = false;
      this.say({ fault: e, error: true });
      this.render();
    }
  }

  // A move picked in the list: the position after it, read-only.
  async viewPly(p) {
    const s = this.shown;
    if (!s || p >= s.ply || p < 0) return this.backToLive();
    const same = (a, b) => a.slice(0, p).join(' ') === b.slice(0, p).join(' ');
    if (!this.frames || p >= this.frames.frames.length || !same(this.frames.moves, s.moves)) {
      try {
        const r = await this.transport.replay();
        this.frames = { frames: r.frames || [], moves: s.moves.slice() };
      } catch (e) {
        this.say({ fault: e, error: true });
        return;
      }
    }
    if (!this.frames.frames[p]) return;
    this.proposed = null;
    this.viewing = p;
    this.render();
  }

  backToLive() {
    if (this.viewing == null) return;
    this.viewing = null;
    this.render();
  }
}
