// Replays a move's animation data (state.last.animation) on a board: Yoté
// placements, steps, jumps and removals; Nsolo sowing stone by stone with
// relays, the front capture and the bonus. It only follows the data it is
// given. Speed is remembered; skip ends at once; reduced motion shows no
// motion at all.

import { svgEl } from './svg.js';
import * as sound from './sound.js';

const KEY = 'palabre.speed';
const reduced = matchMedia('(prefers-reduced-motion: reduce)');

export class Animator {
  constructor() {
    this.speed = +localStorage.getItem(KEY) || 150;
    this.running = false;
    this.skipped = false;
    this.wake = null;
    this.onChange = () => {};
  }

  setSpeed(ms) {
    this.speed = ms;
    try {
      localStorage.setItem(KEY, String(ms));
    } catch {
      /* no storage */
    }
  }

  skip() {
    this.skipped = true;
    if (this.wake) this.wake();
  }

  sleep(ms) {
    if (this.skipped) return Promise.resolve();
    return new Promise((res) => {
      const done = () => {
        clearTimeout(timer);
        this.wake = null;
        res();
      };
      const timer = setTimeout(done, ms);
      this.wake = done;
    });
  }

  // Move `el` from a to b ([x, y, r]) along a small arc.
  tween(el, a, b, ms, lift = 0) {
    const place = (p) => {
      const x = a[0] + (b[0] - a[0]) * p;
      const y = a[1] + (b[1] - a[1]) * p - lift * Math.sin(Math.PI * p);
      el.setAttribute('transform', `translate(${x} ${y})${el.dataset.scale ? ` scale(${el.dataset.scale})` : ''}`);
      if (a[2] && b[2]) el.setAttribute('r', a[2] + (b[2] - a[2]) * p);
    };
    if (this.skipped) return Promise.resolve();
    return new Promise((res) => {
      const t0 = performance.now();
      const frame = (now) => {
        const p = this.skipped ? 1 : Math.min(1, (now - t0) / ms);
        place(p < 0.5 ? 2 * p * p : 1 - (2 - 2 * p) ** 2 / 2);
        if (p < 1) requestAnimationFrame(frame);
        else res();
      };
      place(0);
      requestAnimationFrame(frame);
    });
  }

  async run(fn) {
    this.running = true;
    this.skipped = reduced.matches;
    this.onChange(true);
    try {
      await fn();
    } finally {
      this.running = false;
      this.skipped = false;
      this.wake = null;
      this.onChange(false);
    }
  }

  // prev: the Yoté part of the state before the move; last: state.last.
  async yote(board, prev, last) {
    const a = last.animation || {};
    const by = last.by;
    const foe = by === 'red' ? 'black' : 'red';
    const pos = { board: { ...prev.board }, reserve: { ...prev.reserve }, captured: { ...prev.captured } };
    const show = () => board.set({ ...pos, interactive: false, last: null, hint: [] });
    const d = this.speed * 2.4;
    const fly = async (side, from, to, ms, lift) => {
      if (this.skipped) return;
      const el = svgEl('circle', { r: from[2] || 33, class: `ball ${side}` }, board.fx);
      await this.tween(el, from, [...to.slice(0, 2), to[2] || 33], ms, lift);
      el.remove();
    };
    const ball = (cell) => [...board.center(cell), 33];
    const toZone = async (from) => {
      await fly(foe, from, board.captureXY(by, pos.captured[by]), d, 30);
      pos.captured[by]++;
      show();
      sound.capture();
    };

    if (a.kind === 'place') {
      pos.reserve[by]--;
      const from = board.reserveXY(by, pos.reserve[by]);
      show();
      await fly(by, from, ball(a.to), d, 60);
    } else if (a.from) {
      delete pos.board[a.from];
      show();
      await fly(by, ball(a.from), ball(a.to), a.kind === 'capture' ? d * 1.3 : d, a.kind === 'capture' ? 80 : 20);
    }
    if (a.to) {
      pos.board[a.to] = by;
      show();
      sound.drop();
    }
    if (a.kind !== 'capture') return;
    if (a.jumped) {
      await this.sleep(d * 0.3);
      const from = ball(a.jumped);
      delete pos.board[a.jumped];
      show();
      await toZone(from);
    }
    if (a.second) {
      await this.sleep(d * 0.4);
      let from;
      if (a.second === 'reserve') {
        pos.reserve[foe]--;
        from = board.reserveXY(foe, pos.reserve[foe]);
      } else {
        from = ball(a.second);
        delete pos.board[a.second];
      }
      show();
      await toZone(from);
    }
    await this.sleep(d * 0.3);
  }

  // prevRows: the rows before the move; steps: last.animation.steps.
  async nsolo(board, prevRows, steps) {
    const rows = {};
    for (const r in prevRows) rows[r] = [...prevRows[r]];
    board.set({ rows, interactive: false, last: null, hint: [] });
    const get = (p) => rows[p[0]][+p.slice(1) - 1];
    const put = (p, k) => {
      rows[p[0]][+p.slice(1) - 1] = k;
      board.showPit(p, k);
    };
    const hand = svgEl('g', { class: 'hand' }, board.fx);
    svgEl('ellipse', { rx: 15, ry: 12, fill: 'url(#peb3)', class: 'pebble' }, hand);
    svgEl('rect', { x: 8, y: -40, width: 48, height: 32, rx: 16 }, hand);
    const num = svgEl('text', { x: 32, y: -17 }, hand);
    hand.style.display = 'none';
    if (board.n > 12) hand.dataset.scale = '1.6';
    let at = null;
    let inHand = 0;
    let drops = 0;
    const setHand = () => {
      num.textContent = inHand;
      hand.style.display = inHand ? '' : 'none';
    };
    try {
      for (const s of steps) {
        const sp = this.speed * Math.max(0.35, 1 - Math.max(0, drops - 40) / 160);
        if (s.lift) {
          if (s.relay) await this.sleep(sp * 2.2);
          at = s.lift;
          inHand = s.count ?? get(s.lift);
          put(s.lift, 0);
          const [x, y] = board.center(at);
          hand.setAttribute('transform', `translate(${x} ${y - 10})${hand.dataset.scale ? ` scale(${hand.dataset.scale})` : ''}`);
          setHand();
          await this.sleep(sp * 0.9);
        } else if (s.drop) {
          const a = [...board.center(at)];
          const b = [...board.center(s.drop)];
          a[1] -= 10;
          b[1] -= 10;
          await this.tween(hand, a, b, sp * 0.7, 14);
          at = s.drop;
          inHand = Math.max(0, inHand - 1);
          put(s.drop, get(s.drop) + 1);
          setHand();
          sound.drop();
          drops++;
          await this.sleep(sp * 0.3);
        } else if (s.capture || s.bonus) {
          const p = s.capture || s.bonus;
          await this.sleep(sp * (s.capture ? 2 : 1.4));
          board.pits[p].g.classList.add('flash');
          put(p, Math.max(0, get(p) - (s.count ?? get(p))));
          sound.capture();
          await this.sleep(sp * 2);
        }
      }
      await this.sleep(this.speed);
    } finally {
      hand.remove();
    }
  }
}
