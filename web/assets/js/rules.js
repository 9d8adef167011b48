// Rules pages: show the article in the reader's language and draw the small
// diagrams with the same board components as the game.

import { initI18n, currentLang } from './i18n.js';
import { YoteBoard } from './board-yote.js';
import { NsoloBoard } from './board-nsolo.js';
import { svgEl } from './svg.js';

const start = (n) => ({
  A: Array(n).fill(2),
  B: [...Array(n - 1).fill(2), 0],
  C: [0, ...Array(n - 1).fill(2)],
  D: Array(n).fill(2),
});

// Each diagram: a position, marks, arrows [from, to, bend], crosses, numbers.
const DIAGRAMS = {
  'yote-place': { game: 'yote', board: { b2: 'red', d4: 'black', c3: 'red', d2: 'black' }, last: { to: 'c3' } },
  'yote-step': { game: 'yote', board: { c3: 'red', d4: 'black', b1: 'black' }, marks: ['c4', 'c2', 'b3', 'd3'], arrows: [['c3', 'c4', 0]] },
  'yote-capture': {
    game: 'yote', board: { c2: 'red', c3: 'black', e4: 'black', a5: 'black', b4: 'red' },
    arrows: [['c2', 'c4', 60]], crosses: ['c3'], marks: ['e4', 'a5'],
  },
  'yote-ndar': { game: 'yote', board: { a1: 'black', a2: 'red', a3: 'red', b1: 'red', c1: 'red', d4: 'red' }, crosses: ['a1'] },
  'nsolo-start': { game: 'nsolo', rows: start(8), loops: true },
  'nsolo-relay': {
    game: 'nsolo', rows: start(8),
    arrows: [['A1', 'A3', 40], ['A3', 'A6', 40], ['A6', 'B8', -60]], numbers: [['A1', 1], ['A3', 2], ['A6', 3]],
    crosses: ['C8'], marks: ['B8'],
  },
  'nsolo-single': {
    game: 'nsolo',
    rows: { A: [1, 1, 0, 1, 0, 0, 0, 0], B: [0, 0, 0, 0, 0, 0, 1, 0], C: [0, 1, 0, 2, 0, 0, 1, 0], D: [1, 0, 0, 1, 2, 0, 0, 1] },
    marks: ['A2', 'A4', 'B7'], crosses: ['A1'],
  },
};

let uid = 0;

function arrow(board, a, b, bend, cls = '') {
  const id = `ah${++uid}`;
  const defs = svgEl('defs', {}, board.fx);
  const m = svgEl('marker', { id, viewBox: '0 0 10 10', refX: 5, refY: 5, markerWidth: 3.2, markerHeight: 3.2, orient: 'auto-start-reverse' }, defs);
  svgEl('path', { d: 'M0 0L10 5L0 10z', class: `arrowhead ${cls}` }, m);
  const [x1, y1] = board.center(a);
  const [x2, y2] = board.center(b);
  const dx = x2 - x1;
  const dy = y2 - y1;
  const len = Math.hypot(dx, dy) || 1;
  const sh = 26 / len;
  const sx = x1 + dx * sh;
  const sy = y1 + dy * sh;
  const ex = x2 - dx * sh;
  const ey = y2 - dy * sh;
  const mx = (sx + ex) / 2 - (dy / len) * bend;
  const my = (sy + ey) / 2 + (dx / len) * bend;
  svgEl('path', { d: `M${sx} ${sy}Q${mx} ${my} ${ex} ${ey}`, class: `arrow ${cls}`, 'marker-end': `url(#${id})` }, board.fx);
}

function cross(board, c) {
  const [x, y] = board.center(c);
  svgEl('path', { d: `M${x - 22} ${y - 22}L${x + 22} ${y + 22}M${x + 22} ${y - 22}L${x - 22} ${y + 22}`, class: 'cross' }, board.fx);
}

function number(board, c, n) {
  const [x, y] = board.center(c);
  svgEl('circle', { cx: x - 30, cy: y - 30, r: 20, class: 'step-bg' }, board.fx);
  svgEl('text', { x: x - 30, y: y - 19, class: 'step-no' }, board.fx).textContent = n;
}

function draw(host) {
  const d = DIAGRAMS[host.dataset.diagram];
  if (!d) return;
  host.textContent = '';
  let board;
  if (d.game === 'yote') {
    board = new YoteBoard(host, { trays: false });
    board.set({ board: d.board, marks: d.marks || [], last: d.last || null });
  } else {
    board = new NsoloBoard(host, { bar: false });
    board.set({ rows: d.rows, marks: d.marks || [] });
  }
  board.fx.textContent = '';
  if (d.loops) {
    arrow(board, 'A1', 'A8', 0);
    arrow(board, 'A8', 'B8', -40);
    arrow(board, 'B8', 'B1', 0);
    arrow(board, 'B1', 'A1', -40);
    arrow(board, 'D8', 'D1', 0, 'soft');
    arrow(board, 'D1', 'C1', 40, 'soft');
    arrow(board, 'C1', 'C8', 0, 'soft');
    arrow(board, 'C8', 'D8', 40, 'soft');
  }
  for (const [a, b, bend] of d.arrows || []) arrow(board, a, b, bend);
  for (const c of d.crosses || []) cross(board, c);
  for (const [c, n] of d.numbers || []) number(board, c, n);
  // A picture, not a control: no focus stops, one label from the caption.
  const svg = host.querySelector('svg');
  for (const g of svg.querySelectorAll('[tabindex]')) {
    g.removeAttribute('tabindex');
    g.removeAttribute('role');
    g.removeAttribute('aria-label');
  }
  svg.setAttribute('role', 'img');
  const cap = host.closest('figure')?.querySelector('figcaption');
  if (cap) svg.setAttribute('aria-label', cap.textContent.trim());
}

function show() {
  const lang = currentLang();
  for (const a of document.querySelectorAll('article[lang]')) {
    const on = a.lang === lang;
    a.hidden = !on;
    if (on) {
      document.title = a.dataset.title;
      for (const d of a.querySelectorAll('.diagram:empty')) draw(d);
    }
  }
}

document.addEventListener('langchange', show);
initI18n();
