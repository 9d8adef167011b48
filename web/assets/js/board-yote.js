// The Yoté board: a plank with 25 hollows, each side's reserve and capture
// zone. It renders what it is given (position, legal moves, orientation, last
// move) and reports the move the user built from the legal list. No rules:
// a tap that starts nothing is handed to onRefuse(hole, stage), whose caller
// knows why (the server's refusals), and the hole shakes.

import { svgEl, ensureDefs, ball } from './svg.js';
import { t } from './i18n.js';
import { shake } from './board-nsolo.js';
import { RovingFocus } from './roving-focus.js';
import { sameLegal } from './legal-list.js';

const FILES = 'abcde';
const W = 560;
const TRAY = 118;

export class YoteBoard {
  constructor(host, { onMove = () => {}, onRefuse = () => {}, trays = true } = {}) {
    ensureDefs();
    this.onMove = onMove;
    this.onRefuse = onRefuse;
    this.trays = trays;
    this.oy = trays ? TRAY : 0;
    this.view = {
      board: {}, reserve: { red: 12, black: 12 }, captured: { red: 0, black: 0 },
      legal: [], flipped: false, last: null, interactive: false, hint: [], marks: [],
    };
    this.sel = null;
    this.pending = null; // the captures from sel to the chosen hole, waiting for their second ball
    this.choice = null; // the second ball ready to be confirmed: a hole or 'reserve'

    const h = W + 2 * this.oy;
    this.svg = svgEl('svg', { viewBox: `0 0 ${W} ${h}`, class: 'board yote', role: 'group' });
    host.append(this.svg);
    if (trays) {
      this.prompt = document.createElement('div');
      this.prompt.className = 'board-prompt';
      this.prompt.setAttribute('aria-live', 'polite');
      host.append(this.prompt);
    }

    const plank = svgEl('g', { class: 'plank' }, this.svg);
    svgEl('rect', { x: 2, y: this.oy + 2, width: W - 4, height: W - 4, rx: 20, fill: 'url(#oak)', class: 'wood' }, plank);
    svgEl('rect', { x: 2, y: this.oy + 2, width: W - 4, height: W - 4, rx: 20, fill: 'url(#grain)' }, plank);
    this.coords = svgEl('g', { class: 'coords', 'aria-hidden': 'true' }, this.svg);

    this.holes = {};
    const hg = svgEl('g', {}, this.svg);
    for (let r = 5; r >= 1; r--) {
      for (let f = 0; f < 5; f++) {
        const name = FILES[f] + r;
        const g = svgEl('g', { 'data-cell': name, class: 'hole', role: 'button', tabindex: '-1' }, hg);
        svgEl('circle', { r: 47, class: 'ring' }, g);
        svgEl('circle', { r: 40, class: 'hollow', fill: 'url(#hollow)', filter: 'url(#inset)' }, g);
        const b = ball(g, 'none', 33);
        svgEl('circle', { r: 10, class: 'dot' }, g);
        svgEl('path', { d: 'M-19 -19L19 19M19 -19L-19 19', class: 'x halo' }, g);
        svgEl('path', { d: 'M-19 -19L19 19M19 -19L-19 19', class: 'x' }, g);
        this.holes[name] = { g, b };
      }
    }

    this.tray = {};
    if (trays) {
      for (const side of ['red', 'black']) {
        const g = svgEl('g', { class: `tray tray-${side}` }, this.svg);
        svgEl('rect', { x: 2, y: 6, width: W - 4, height: 104, rx: 16, fill: 'url(#oak-dark)', class: 'tray-bg' }, g);
        const rlabel = svgEl('text', { x: 20, y: 30, class: 'tray-label' }, g);
        const res = svgEl('g', { 'data-reserve': side, class: 'reserve', role: 'button' }, g);
        svgEl('rect', { x: 12, y: 40, width: 300, height: 46, rx: 23, class: 'trough', fill: 'url(#hollow)', filter: 'url(#inset)' }, res);
        svgEl('rect', { x: 8, y: 36, width: 308, height: 54, rx: 27, class: 'ring' }, res);
        const resBalls = svgEl('g', {}, res);
        const clabel = svgEl('text', { x: 334, y: 30, class: 'tray-label' }, g);
        svgEl('rect', { x: 326, y: 38, width: 222, height: 66, rx: 16, class: 'trough', fill: 'url(#hollow)', filter: 'url(#inset)' }, g);
        const capBalls = svgEl('g', { 'data-captures': side }, g);
        this.tray[side] = { g, rlabel, res, resBalls, clabel, capBalls };
      }
    }
    this.fx = svgEl('g', { class: 'fx', 'aria-hidden': 'true' }, this.svg);

    this.svg.addEventListener('click', (e) => this.onClick(e));
    this.svg.addEventListener('keydown', (e) => this.onKey(e));
    this.roving = new RovingFocus(host);
    this.render();
  }

  set(view) {
    const prevLegal = this.view.legal;
    this.view = { ...this.view, ...view };
    if (view.legal !== undefined && !sameLegal(view.legal, prevLegal)) {
      this.sel = null;
      this.pending = null;
      this.choice = null;
    }
    this.render();
  }

  // Row and column of a hole on screen, from the top left.
  place(name) {
    const f = FILES.indexOf(name[0]);
    const r = +name[1];
    return this.view.flipped ? [r - 1, 4 - f] : [5 - r, f];
  }

  // Centre of a hole in SVG units.
  center(name) {
    const [row, col] = this.place(name);
    return [80 + 100 * col, this.oy + 80 + 100 * row];
  }

  trayY(side) {
    const bottom = (side === 'red') !== this.view.flipped;
    return bottom ? this.oy + W : 0;
  }

  // [x, y, radius] of the i-th ball of a reserve or of a capture zone.
  reserveXY(side, i) {
    return [34 + 23.3 * Math.max(0, i), this.trayY(side) + 63, 11];
  }

  captureXY(side, i) {
    const p = Math.floor(i / 2) % 6;
    const x = 372 + 66 * (p % 3) + (i % 2 ? 11.5 : -11.5);
    return [x, this.trayY(side) + 57 + 28 * Math.floor(p / 3), 11];
  }

  onClick(e) {
    const cell = e.target.closest('[data-cell]');
    if (cell) return this.clickCell(cell.dataset.cell);
    const res = e.target.closest('[data-reserve]');
    if (res) this.clickReserve(res.dataset.reserve);
  }

  onKey(e) {
    const cell = e.target.closest('[data-cell]');
    const res = e.target.closest('[data-reserve]');
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      if (cell) this.clickCell(cell.dataset.cell);
      else if (res) this.clickReserve(res.dataset.reserve);
      return;
    }
    if (e.key === 'Escape') return this.cancel();
  }

  cancel() {
    if (!this.sel && !this.pending) return;
    const back = this.sel;
    this.sel = null;
    this.pending = null;
    this.choice = null;
    this.render();
    if (back) this.holes[back].g.focus();
  }

  // stage: 'wait' (not this page's turn), 'origin', 'target' or 'second'.
  refuse(name, stage) {
    shake(this.holes[name].g);
    this.onRefuse(name, stage);
  }

  clickCell(name) {
    const v = this.view;
    if (!v.interactive) return this.refuse(name, 'wait');
    const legal = v.legal;
    if (this.pending) {
      const e = this.pending.find((x) => x.second === name);
      if (e) return this.emit(e.move);
      if (name === this.pending[0].to) return;
      if (name === this.sel) return this.cancel();
      // Another ball of the mover: the capture is dropped for that ball.
      if (legal.some((x) => x.from === name)) {
        this.pending = null;
        this.choice = null;
        this.sel = name;
        return this.render();
      }
      return this.refuse(name, 'second');
    }
    if (this.sel) {
      if (name === this.sel) return this.cancel();
      const es = legal.filter((x) => x.from === this.sel && x.to === name);
      if (es.length) {
        if (es.length === 1 && !es[0].second) return this.emit(es[0].move);
        this.pending = es;
        // A single possible second ball is chosen for the player, who confirms it.
        this.choice = es.length === 1 ? es[0].second : null;
        this.render();
        const first = es.find((x) => x.second === this.choice) || es.find((x) => x.second && x.second !== 'reserve');
        if (first && first.second !== 'reserve') this.holes[first.second].g.focus();
        else this.tray[this.opp()]?.res.focus();
        this.prompt?.scrollIntoView?.({ block: 'nearest' });
        return;
      }
    }
    if (legal.some((x) => x.from === name)) {
      this.sel = name;
      return this.render();
    }
    const p = legal.find((x) => x.kind === 'place' && x.to === name);
    if (p) return this.emit(p.move);
    const stage = this.sel ? 'target' : 'origin';
    if (this.sel) this.cancel();
    this.refuse(name, stage);
  }

  clickReserve(side) {
    if (!this.pending || side !== this.opp()) return;
    const e = this.pending.find((x) => x.second === 'reserve');
    if (e) this.emit(e.move);
  }

  confirm() {
    const e = this.pending && this.pending.find((x) => x.second === this.choice);
    if (e) this.emit(e.move);
  }

  opp() {
    const from = this.sel && this.view.board[this.sel];
    return from === 'red' ? 'black' : 'red';
  }

  emit(move) {
    this.sel = null;
    this.pending = null;
    this.choice = null;
    this.render();
    this.onMove(move);
  }

  // Classes a hole gets from the current input mode.
  modes() {
    const v = this.view;
    const m = {};
    const add = (n, c) => (m[n] = (m[n] || '') + ' ' + c);
    if (v.interactive) {
      if (this.pending) {
        for (const e of this.pending) {
          if (e.second && e.second !== 'reserve') add(e.second, e.second === this.choice ? 'cand chosen' : 'cand');
        }
        add(this.pending[0].to, 'dest');
        if (this.pending[0].jumped) add(this.pending[0].jumped, 'jumped-mark');
      } else if (this.sel) {
        for (const e of v.legal) if (e.from === this.sel) add(e.to, 'target');
        for (const e of v.legal) if (e.kind === 'place') add(e.to, 'open');
      } else {
        for (const e of v.legal) add(e.kind === 'place' ? e.to : e.from, e.kind === 'place' ? 'open' : 'can');
      }
      if (this.sel) add(this.sel, 'sel');
    }
    const last = v.last;
    if (last) {
      if (last.from) add(last.from, 'last-from');
      if (last.to) add(last.to, 'last');
      if (last.jumped) add(last.jumped, 'last-taken');
      if (last.second && last.second !== 'reserve') add(last.second, 'last-taken');
    }
    for (const h of v.hint || []) add(h, 'hint');
    for (const h of v.marks || []) add(h, 'mark');
    return m;
  }

  render() {
    const v = this.view;
    const m = this.modes();
    this.svg.classList.toggle('interactive', !!v.interactive);
    this.svg.setAttribute('aria-label', t('yote.boardLabel'));
    const cells = [];
    for (const [name, h] of Object.entries(this.holes)) {
      const [x, y] = this.center(name);
      h.g.setAttribute('transform', `translate(${x} ${y})`);
      const owner = v.board[name];
      h.b.setAttribute('class', `ball ${owner || 'none'}`);
      const cls = m[name] || '';
      h.g.setAttribute('class', `hole${cls}${h.g.classList.contains('refused') ? ' refused' : ''}`);
      let label = t(owner ? `yote.hole.${owner}` : 'yote.hole.empty', { cell: name });
      if (/ (can|open|target|cand)/.test(cls)) label += t('board.playable');
      if (/ (sel|chosen)/.test(cls)) label += t('board.selected');
      if (/ jumped-mark/.test(cls)) label += t('yote.jumpedLabel');
      h.g.setAttribute('aria-label', label);
      const [row, col] = this.place(name);
      cells.push({ el: h.g, row, col, playable: / (can|open|target|cand)/.test(cls) });
    }
    this.roving.layout(cells);
    this.renderCoords();
    if (this.trays) this.renderTrays();
    if (this.prompt) this.renderPrompt();
  }

  renderCoords() {
    const c = this.coords;
    c.textContent = '';
    for (let i = 0; i < 5; i++) {
      const [x] = this.center(FILES[i] + 1);
      const [, y] = this.center('a' + (i + 1));
      svgEl('text', { x, y: this.oy + 546, class: 'coord' }, c).textContent = FILES[i];
      svgEl('text', { x: 22, y: y + 7, class: 'coord' }, c).textContent = i + 1;
    }
  }

  renderTrays() {
    const v = this.view;
    const opp = this.opp();
    for (const side of ['red', 'black']) {
      const tr = this.tray[side];
      tr.g.setAttribute('transform', `translate(0 ${this.trayY(side)})`);
      const n = v.reserve[side] ?? 0;
      const k = v.captured[side] ?? 0;
      tr.rlabel.textContent = t(`yote.reserve.${side}`, { n });
      tr.clabel.textContent = t('yote.taken', { n: k });
      tr.resBalls.textContent = '';
      tr.capBalls.textContent = '';
      for (let i = 0; i < n; i++) ball(tr.resBalls, side, 11, { cx: 34 + 23.3 * i, cy: 63 });
      const foe = side === 'red' ? 'black' : 'red';
      for (let i = 0; i < k; i++) {
        const [x, y, r] = this.captureXY(side, i);
        ball(tr.capBalls, foe, r, { cx: x, cy: y - this.trayY(side) });
      }
      const cand = this.pending && side === opp && this.pending.some((e) => e.second === 'reserve');
      tr.res.classList.toggle('cand', !!cand);
      tr.res.classList.toggle('chosen', !!cand && this.choice === 'reserve');
      if (cand) tr.res.setAttribute('tabindex', '0');
      else tr.res.removeAttribute('tabindex');
      tr.res.setAttribute('aria-label', t(`yote.reserveLabel.${side}`, { n }));
      tr.res.setAttribute('aria-disabled', cand ? 'false' : 'true');
    }
  }

  // The instruction lies over the mover's own tray, against the holes, where
  // the eye already is; it never hides a hole nor the opponent's reserve.
  renderPrompt() {
    const p = this.prompt;
    p.textContent = '';
    const pend = this.pending;
    p.hidden = !pend && !this.sel;
    p.classList.toggle('strong', !!pend);
    if (p.hidden) return;
    const bottom = this.trayY(this.view.board[this.sel] || 'red') > 0;
    p.classList.toggle('at-bottom', bottom);
    p.classList.toggle('at-top', !bottom);
    p.style.setProperty('--tray', `${(100 * this.oy) / (W + 2 * this.oy)}%`);
    let text = t('yote.prompt.target');
    if (pend) {
      const reserve = pend.some((e) => e.second === 'reserve');
      let key = reserve ? 'yote.prompt.second' : 'yote.prompt.secondBoard';
      if (this.choice === 'reserve') key = 'yote.prompt.secondReserve';
      else if (this.choice) key = 'yote.prompt.secondOne';
      const jumped = pend[0].jumped ? `${t('yote.prompt.jump', { cell: pend[0].jumped })} ` : '';
      text = jumped + t(key, { cell: this.choice });
    }
    const s = document.createElement('span');
    s.textContent = text;
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'btn small';
    b.textContent = t('action.cancel');
    b.addEventListener('click', () => this.cancel());
    const acts = document.createElement('div');
    acts.className = 'prompt-actions';
    acts.append(b);
    if (pend && this.choice) {
      const ok = document.createElement('button');
      ok.type = 'button';
      ok.className = 'btn small primary confirm';
      ok.textContent = t('action.confirm');
      ok.addEventListener('click', () => this.confirm());
      acts.append(ok);
    }
    p.append(s, acts);
  }
}
