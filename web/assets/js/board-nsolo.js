// The Nsolo board: four rows of N pits, pebbles drawn and counted. It renders
// {rows, legal origins, orientation, last move} and reports the move the user
// built: an origin, then, when the server says the origin earns a bonus, the
// stones the user picks from the opponent's pits. No rules: a tap that starts
// nothing is handed to onRefuse(pit, stage), whose caller knows why (the
// server's refusals), and the pit shakes.

import { svgEl, ensureDefs, PEBBLES } from './svg.js';
import { t } from './i18n.js';
import { RovingFocus } from './roving-focus.js';
import { sameLegal } from './legal-list.js';

const ROWS = ['A', 'B', 'C', 'D'];
const P = 100;
const LM = 50;
const TM = 10;
const GAP = 20;
const SHOWN = 12;
// Pebble places inside a pit: a small cluster first, then a ring.
const SPOTS = [[-11, -7], [11, -7], [0, 11], [-24, 8], [24, 8], [0, -27],
  [-17, 25], [17, 25], [-26, -16], [26, -16], [-12, -26], [12, -26]];

export const ownRows = (side) => (side === 'south' ? ['A', 'B'] : ['C', 'D']);

// A short shake of a hole or a pit that cannot be played (board.css: .refused);
// render() keeps the class until the timer takes it off.
export function shake(g) {
  g.classList.remove('refused');
  void g.getBoundingClientRect();
  g.classList.add('refused');
  clearTimeout(g.refusedTimer);
  g.refusedTimer = setTimeout(() => g.classList.remove('refused'), 450);
}

export class NsoloBoard {
  constructor(host, { onMove = () => {}, onRefuse = () => {}, bar = true } = {}) {
    ensureDefs();
    this.host = host;
    this.onMove = onMove;
    this.onRefuse = onRefuse;
    this.view = { rows: null, legal: [], flipped: false, last: null, interactive: false, turn: 'south', hint: [], marks: [] };
    this.n = 0;
    this.bonus = null;
    this.roving = new RovingFocus(host);
    this.scroller = document.createElement('div');
    this.scroller.className = 'nsolo-scroll';
    host.append(this.scroller);
    this.scrollHint = document.createElement('p');
    this.scrollHint.className = 'scroll-hint';
    this.scrollHint.hidden = true;
    host.append(this.scrollHint);
    if (typeof ResizeObserver === 'function') new ResizeObserver(() => this.checkScroll()).observe(this.scroller);
    if (bar) {
      this.bar = document.createElement('div');
      this.bar.className = 'board-prompt';
      this.bar.setAttribute('aria-live', 'polite');
      host.append(this.bar);
    }
  }

  build(n) {
    this.n = n;
    this.scroller.textContent = '';
    const w = LM + P * n + 14;
    const h = TM + 4 * P + GAP + 40;
    this.svg = svgEl('svg', { viewBox: `0 0 ${w} ${h}`, class: `board nsolo${n > 12 ? ' dense' : ''}`, role: 'group' });
    this.svg.style.setProperty('--n', n);
    this.scroller.append(this.svg);
    svgEl('rect', { x: 2, y: 2, width: w - 4, height: h - 4, rx: 22, fill: 'url(#oak)', class: 'wood' }, this.svg);
    svgEl('rect', { x: 2, y: 2, width: w - 4, height: h - 4, rx: 22, fill: 'url(#grain)' }, this.svg);
    this.terr = svgEl('g', {}, this.svg);
    for (const side of ['south', 'north']) {
      svgEl('rect', { rx: 18, width: P * n + 8, height: 2 * P - 4, x: LM - 4, class: `terr ${side}` }, this.terr);
    }
    this.coords = svgEl('g', { class: 'coords', 'aria-hidden': 'true' }, this.svg);
    this.pits = {};
    const pg = svgEl('g', {}, this.svg);
    for (const row of ['D', 'C', 'B', 'A']) {
      for (let c = 1; c <= n; c++) {
        const name = row + c;
        const g = svgEl('g', { 'data-pit': name, 'data-count': '0', class: 'pit', role: 'button', tabindex: '-1' }, pg);
        svgEl('circle', { r: 47, class: 'ring' }, g);
        svgEl('circle', { r: 41, class: 'hollow', fill: 'url(#hollow)', filter: 'url(#inset)' }, g);
        const stones = svgEl('g', { class: 'stones' }, g);
        const badge = svgEl('g', { class: 'badge' }, g);
        // On long boards the pits are small on screen: larger numbers.
        if (n > 12) svgEl('rect', { x: -2, y: 10, width: 52, height: 42, rx: 21 }, badge);
        else svgEl('rect', { x: 10, y: 22, width: 44, height: 30, rx: 15 }, badge);
        const num = svgEl('text', n > 12 ? { x: 24, y: 44, class: 'big' } : { x: 32, y: 45 }, badge);
        const took = svgEl('text', { x: -30, y: -22, class: 'took' }, g);
        this.pits[name] = { g, stones, badge, num, took, shown: -1, row, col: c };
      }
    }
    this.fx = svgEl('g', { class: 'fx', 'aria-hidden': 'true' }, this.svg);
    this.svg.addEventListener('click', (e) => {
      const p = e.target.closest('[data-pit]');
      if (p) this.click(p.dataset.pit);
    });
    this.svg.addEventListener('keydown', (e) => this.onKey(e));
  }

  set(view) {
    const prevLegal = this.view.legal;
    this.view = { ...this.view, ...view };
    if (view.legal !== undefined && !sameLegal(view.legal, prevLegal)) this.bonus = null;
    const n = this.view.rows.A.length;
    if (n !== this.n) this.build(n);
    this.render();
  }

  // Row and column on screen, from the top left.
  place(name) {
    const row = ROWS.indexOf(name[0]);
    const c = +name.slice(1);
    const f = this.view.flipped;
    return [f ? row : 3 - row, f ? this.n - c : c - 1];
  }

  center(name) {
    const [i, j] = this.place(name);
    return [LM + P * j + P / 2, TM + P * i + P / 2 + (i >= 2 ? GAP : 0)];
  }

  count(name) {
    return this.view.rows[name[0]][+name.slice(1) - 1];
  }

  onKey(e) {
    const p = e.target.closest('[data-pit]');
    if (!p) return;
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      return this.click(p.dataset.pit);
    }
    if (e.key === 'Escape') return this.cancel();
  }

  picked(name) {
    return this.bonus ? this.bonus.stack.filter((x) => x === name).length : 0;
  }

  available(name) {
    const b = this.bonus;
    if (!b || name === b.capture || !ownRows(this.foe()).includes(name[0])) return 0;
    return this.count(name) - this.picked(name);
  }

  foe() {
    return this.view.turn === 'south' ? 'north' : 'south';
  }

  click(name) {
    const v = this.view;
    if (!v.interactive) return this.refuse(name, 'wait');
    const b = this.bonus;
    if (b) {
      if (b.stack.length < b.total && this.available(name) > 0) {
        b.stack.push(name);
        this.render();
        if (b.stack.length === b.total) this.bar?.querySelector('.confirm')?.focus();
      } else if (name !== b.origin) this.refuse(name, 'bonus');
      return;
    }
    const e = v.legal.find((x) => x.pit === name);
    if (!e) return this.refuse(name, 'origin');
    if (!e.bonus) return this.emit(e.pit);
    this.bonus = { origin: e.pit, capture: e.capture, total: e.bonus, stack: [] };
    this.render();
  }

  // stage: 'wait' (not this page's turn), 'origin' or 'bonus'.
  refuse(name, stage) {
    const g = this.pits[name]?.g;
    if (g) shake(g);
    this.onRefuse(name, stage);
  }

  undo() {
    const b = this.bonus;
    if (!b) return;
    if (b.stack.length) b.stack.pop();
    else return this.cancel();
    this.render();
  }

  cancel() {
    if (!this.bonus) return;
    const o = this.bonus.origin;
    this.bonus = null;
    this.render();
    this.pits[o].g.focus();
  }

  confirm() {
    const b = this.bonus;
    if (!b || b.stack.length !== b.total) return;
    const tally = {};
    for (const p of b.stack) tally[p] = (tally[p] || 0) + 1;
    const items = Object.keys(tally)
      .sort((x, y) => ROWS.indexOf(x[0]) - ROWS.indexOf(y[0]) || x.slice(1) - y.slice(1))
      .map((p) => `${p}:${tally[p]}`);
    this.emit(`${b.origin}/${items.join(',')}`);
  }

  emit(move) {
    this.bonus = null;
    this.render();
    this.onMove(move);
  }

  modes() {
    const v = this.view;
    const m = {};
    const add = (n, c) => (m[n] = (m[n] || '') + ' ' + c);
    const b = this.bonus;
    if (v.interactive) {
      if (b) {
        add(b.origin, 'sel');
        if (b.capture) add(b.capture, 'taken');
        if (b.stack.length < b.total) for (const name in this.pits) if (this.available(name) > 0) add(name, 'cand');
      } else {
        for (const e of v.legal) add(e.pit, 'can');
      }
    }
    const last = v.last;
    if (last && last.steps) {
      const lift = last.steps.find((s) => s.lift);
      if (lift) add(lift.lift, 'last-from');
      const drops = last.steps.filter((s) => s.drop);
      if (drops.length) add(drops[drops.length - 1].drop, 'last');
      for (const s of last.steps) if (s.capture || s.bonus) add(s.capture || s.bonus, 'last-taken');
    }
    for (const h of v.hint || []) add(h, 'hint');
    for (const h of v.marks || []) add(h, 'mark');
    return m;
  }

  // Draw one pit with `k` stones (used by the animation too).
  showPit(name, k) {
    const p = this.pits[name];
    p.g.dataset.count = k;
    p.g.setAttribute('aria-label', this.label(name, k));
    if (p.shown === k) return;
    p.shown = k;
    p.stones.textContent = '';
    const seed = p.col * 7 + ROWS.indexOf(p.row) * 3;
    for (let i = 0; i < Math.min(k, SHOWN); i++) {
      const [x, y] = SPOTS[i];
      const rot = ((seed + i * 37) % 60) - 30;
      svgEl('ellipse', {
        rx: 11, ry: 9, class: 'pebble', fill: `url(#peb${(seed + i) % PEBBLES})`,
        transform: `translate(${x} ${y}) rotate(${rot})`,
      }, p.stones);
    }
    p.badge.style.display = k ? '' : 'none';
    p.num.textContent = k;
  }

  label(name, k) {
    return t('nsolo.pit', { pit: name, stones: t('nsolo.stones', { n: k }) });
  }

  render() {
    const v = this.view;
    if (!this.svg) return;
    const m = this.modes();
    this.svg.classList.toggle('interactive', !!v.interactive);
    this.svg.setAttribute('aria-label', t('nsolo.boardLabel'));
    const cells = [];
    const [south, north] = this.terr.children;
    const sy = Math.min(this.center('A1')[1], this.center('B1')[1]) - P / 2 + 2;
    const ny = Math.min(this.center('C1')[1], this.center('D1')[1]) - P / 2 + 2;
    south.setAttribute('y', sy);
    north.setAttribute('y', ny);
    for (const [name, p] of Object.entries(this.pits)) {
      const [x, y] = this.center(name);
      p.g.setAttribute('transform', `translate(${x} ${y})`);
      const k = this.count(name) - this.picked(name);
      this.showPit(name, k);
      const cls = m[name] || '';
      p.g.setAttribute('class', `pit${cls}${p.g.classList.contains('refused') ? ' refused' : ''}`);
      const took = this.picked(name);
      p.took.textContent = took ? `−${took}` : '';
      let label = this.label(name, k);
      if (/ (can|cand)/.test(cls)) label += t('board.playable');
      if (/ sel/.test(cls)) label += t('board.selected');
      if (took) label += t('nsolo.picked', { n: took });
      p.g.setAttribute('aria-label', label);
      const [row, col] = this.place(name);
      cells.push({ el: p.g, row, col, playable: / (can|cand)/.test(cls) });
    }
    this.roving.layout(cells);
    this.renderCoords();
    this.renderBar();
    this.checkScroll();
  }

  checkScroll() {
    const sc = this.scroller;
    this.scrollHint.hidden = sc.scrollWidth <= sc.clientWidth + 2;
    this.scrollHint.textContent = t('nsolo.scroll');
  }

  renderCoords() {
    const c = this.coords;
    c.textContent = '';
    const bottom = TM + 4 * P + GAP + 28;
    for (let i = 1; i <= this.n; i++) {
      svgEl('text', { x: this.center('A' + i)[0], y: bottom + (this.n > 12 ? 6 : 0), class: 'coord' }, c).textContent = i;
    }
    for (const r of ROWS) {
      svgEl('text', { x: LM / 2 + 2, y: this.center(r + '1')[1] + 9, class: 'coord' }, c).textContent = r;
    }
  }

  renderBar() {
    const bar = this.bar;
    if (!bar) return;
    const b = this.bonus;
    bar.textContent = '';
    bar.hidden = !b;
    bar.classList.toggle('strong', !!b);
    if (!b) return;
    const left = b.total - b.stack.length;
    const s = document.createElement('span');
    s.textContent = (b.capture ? t('nsolo.capturing', { pit: b.capture }) + ' ' : '') + t(left ? 'nsolo.bonusLeft' : 'nsolo.bonusDone', { n: left });
    const count = document.createElement('strong');
    count.className = 'bonus-count';
    count.textContent = left;
    const undo = document.createElement('button');
    undo.type = 'button';
    undo.className = 'btn small';
    undo.textContent = t(b.stack.length ? 'action.undoStone' : 'action.cancel');
    undo.addEventListener('click', () => this.undo());
    const ok = document.createElement('button');
    ok.type = 'button';
    ok.className = 'btn small primary confirm';
    ok.textContent = t('action.confirm');
    ok.disabled = left > 0;
    ok.addEventListener('click', () => this.confirm());
    bar.append(count, s, undo, ok);
  }
}
