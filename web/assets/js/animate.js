// Replays a move's animation data (state.last.animation) on a board: Yoté
// placements, steps, jumps and removals; Nsolo sowing stone by stone with
// relays, the front capture and the bonus. It only follows the data it is
// given. Speed is remembered; skip ends at once; reduced motion shows no
// motion at all.
//
// A move's whole animation fits in a budget (cap(speed), 1.6 s at Normale),
// however long the sowing: a player waiting for the machine's reply should
// not watch a 4×36 relay chain for half a minute. A long Nsolo sowing is
// therefore played on a timeline: the per-step time comes from the number
// of steps, and every step whose time has passed is applied at the next
// frame, so that a step shorter than a frame still costs no more than its
// share.

import { svgEl } from './svg.js';
import * as sound from './sound.js';

const KEY = 'palabre.speed';
const reduced = matchMedia('(prefers-reduced-motion: reduce)');

// The budget of one move, in units of the per-step speed: Lente, Normale and
// Rapide (280, 150, 70 ms) give about 3.0, 1.6 and 0.75 s.
const CAP = 32 / 3;
export const cap = (speed) => Math.round(speed * CAP);

// Natural length of each Nsolo step, in units of the speed.
const W = { lift: 0.9, relay: 2.2, drop: 1, capture: 4, bonus: 3.4, end: 1 };
// Shares of a squeezed budget: the captures stay long enough to be seen, and
// the pause before a relay stays longer than a drop.
const TAKES = 0.3;
const RELAYS = 0.35;

// The durations (ms) of an Nsolo move's steps at `speed`: {total, unit, relay, take}.
// unit is the scale of lifts and drops (a drop lasts `unit`), relay the pause
// before a relay's lift, take the scale of the capture and bonus steps.
export function planNsolo(steps, speed) {
  let takes = 0;
  let relays = 0;
  let rest = W.end;
  for (const s of steps) {
    if (s.lift) {
      rest += W.lift;
      if (s.relay) relays++;
    } else if (s.drop) rest += W.drop;
    else if (s.capture) takes += W.capture;
    else if (s.bonus) takes += W.bonus;
  }
  const natural = (takes + relays * W.relay + rest) * speed;
  const budget = cap(speed);
  if (natural <= budget) return { total: natural, unit: speed, relay: W.relay * speed, take: speed };
  const takeMs = Math.min(takes * speed, TAKES * budget);
  const sow = budget - takeMs;
  let relayMs = Math.min(relays * W.relay * speed, RELAYS * sow);
  let unit = Math.min(speed, (sow - relayMs) / rest);
  if (relays && relayMs < 2 * unit * relays) {
    unit = Math.min(speed, sow / (rest + 2 * relays));
    relayMs = 2 * unit * relays;
  }
  const relay = relays ? relayMs / relays : 0;
  const take = takes ? takeMs / takes : speed;
  return { total: takeMs + relayMs + unit * rest, unit, relay, take };
}

// The length of a Yoté move in flights (d): a capture is a longer flight,
// then each taken ball's pause and flight to the capture zone.
function yoteUnits(a) {
  if (a.kind !== 'capture') return 1;
  return 1.3 + (a.jumped ? 1.3 : 0) + (a.second ? 1.4 : 0) + 0.3;
}

export class Animator {
  constructor() {
    this.speed = +localStorage.getItem(KEY) || 150;
    this.running = false;
    this.skipped = false;
    this.wake = null;
    this.onChange = () => {};
    // Counts as the animation shows them, for whatever mirrors them beside the board.
    this.onRows = null; // Nsolo: (rows {A,B,C,D}) on every change of a pit's count
    this.onYote = null; // Yoté: ({board, reserve, captured}) on every change
  }

  setSpeed(ms) {
    this.speed = ms;
    try {
      localStorage.setItem(KEY, String(ms));
    } catch {
      /* no storage */
    }
  }

  // The planned duration (ms) of a move's animation at the current speed (or
  // `speed`): `anim` is last.animation, or an Nsolo move's steps.
  budget(anim, speed = this.speed) {
    if (Array.isArray(anim)) return planNsolo(anim, speed).total;
    if (anim && Array.isArray(anim.steps)) return planNsolo(anim.steps, speed).total;
    return this.yoteD(anim || {}, speed) * yoteUnits(anim || {});
  }

  // The length d of a Yoté flight: 2.4 speeds, shortened if the move would
  // not fit its budget.
  yoteD(a, speed = this.speed) {
    const d = speed * 2.4;
    return Math.min(d, cap(speed) / yoteUnits(a));
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

  // The next frame; a hidden tab gets no frames, so a timer stands in.
  frame() {
    if (this.skipped) return Promise.resolve();
    return new Promise((res) => {
      let id = 0;
      const done = () => {
        cancelAnimationFrame(id);
        clearTimeout(timer);
        this.wake = null;
        res();
      };
      id = requestAnimationFrame(done);
      const timer = setTimeout(done, 250);
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
    const show = () => {
      board.set({ ...pos, interactive: false, last: null, hint: [] });
      if (this.onYote) this.onYote({ board: { ...pos.board }, reserve: { ...pos.reserve }, captured: { ...pos.captured } });
    };
    const d = this.yoteD(a);
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
    let changed = true; // the counts before the move come first
    const put = (p, k) => {
      rows[p[0]][+p.slice(1) - 1] = k;
      board.showPit(p, k);
      changed = true;
    };
    const hand = svgEl('g', { class: 'hand' }, board.fx);
    svgEl('ellipse', { rx: 15, ry: 12, fill: 'url(#peb3)', class: 'pebble' }, hand);
    svgEl('rect', { x: 8, y: -40, width: 48, height: 32, rx: 16 }, hand);
    const num = svgEl('text', { x: 32, y: -17 }, hand);
    hand.style.display = 'none';
    const scale = board.n > 12 ? ' scale(1.6)' : '';
    const above = (p) => {
      const [x, y] = board.center(p);
      return [x, y - 10];
    };
    const placeHand = ([x, y]) => hand.setAttribute('transform', `translate(${x} ${y})${scale}`);
    let inHand = 0;
    const setHand = () => {
      num.textContent = inHand;
      hand.style.display = inHand ? '' : 'none';
    };

    // The timeline: each item is applied at `at` (ms from the start); a drop
    // also carries the flight of the hand that precedes it.
    const plan = planNsolo(steps, this.speed);
    const items = [];
    let t = 0;
    let at = null;
    for (const s of steps) {
      if (s.lift) {
        if (s.relay) t += plan.relay;
        const p = s.lift;
        items.push({
          at: t,
          apply: () => {
            inHand = s.count ?? get(p);
            put(p, 0);
            placeHand(above(p));
            setHand();
          },
        });
        at = p;
        t += plan.unit * W.lift;
      } else if (s.drop) {
        const p = s.drop;
        const fly = plan.unit * 0.7;
        items.push({
          at: t + fly,
          fly: [above(at || p), above(p), t, t + fly],
          apply: () => {
            inHand = Math.max(0, inHand - 1);
            put(p, get(p) + 1);
            placeHand(above(p));
            setHand();
            sound.drop();
          },
        });
        at = p;
        t += plan.unit * W.drop;
      } else if (s.capture || s.bonus) {
        const p = s.capture || s.bonus;
        const len = plan.take * (s.capture ? W.capture : W.bonus);
        items.push({
          at: t + len * (s.capture ? 0.5 : 0.41),
          apply: () => {
            board.pits[p].g.classList.add('flash');
            put(p, Math.max(0, get(p) - (s.count ?? get(p))));
            sound.capture();
          },
        });
        t += len;
      }
    }
    const total = t + plan.unit * W.end;

    const t0 = performance.now();
    let k = 0;
    try {
      for (;;) {
        const now = this.skipped ? Infinity : performance.now() - t0;
        while (k < items.length && items[k].at <= now) items[k++].apply();
        if (changed && this.onRows) {
          changed = false;
          const copy = {};
          for (const r in rows) copy[r] = [...rows[r]];
          this.onRows(copy);
        }
        if (k >= items.length && now >= total) break;
        const next = items[k];
        if (next && next.fly && now >= next.fly[2]) {
          const [a, b, f0, f1] = next.fly;
          const p = Math.min(1, (now - f0) / Math.max(1, f1 - f0));
          const e = p < 0.5 ? 2 * p * p : 1 - (2 - 2 * p) ** 2 / 2;
          placeHand([a[0] + (b[0] - a[0]) * e, a[1] + (b[1] - a[1]) * e - 14 * Math.sin(Math.PI * e)]);
        }
        await this.frame();
      }
    } finally {
      hand.remove();
    }
  }
}
