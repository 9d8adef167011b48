// The evaluation graph of an analysed game: one point per ply, x the ply,
// y the evaluation from the first side's point of view (red in Yoté, south
// in Nsolo), clamped to ±CAP so that one capture does not flatten the rest
// and forced results sit on the edge. Marked moves are coloured by mark; a
// click goes to the nearest ply. Redrawn whole on each new line: a game is
// a few hundred plies at most, and the SVG is measured at each draw so that
// its points stay round at any width.

const NS = 'http://www.w3.org/2000/svg';
/** The graph's range, in engine units (ten balls or stones). */
export const CAP = 1000;
/** Beyond this the engine reports a forced win or loss. */
export const FORCED = 90000;
const H = 150;
const PAD = 8;

function node(tag, attrs = {}) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

/** The value drawn for an evaluation: clamped, forced results at the cap. */
export function clamp(v) {
  if (Math.abs(v) > FORCED) return Math.sign(v) * CAP;
  return Math.max(-CAP, Math.min(CAP, v));
}

export class EvalGraph {
  /** `plies` points to come; `onPick(ply)` on a click. */
  constructor(host, plies, onPick) {
    this.plies = Math.max(1, plies);
    this.points = []; // [{ply, value, mark, title}]
    this.current = 0;
    this.svg = node('svg', { 'data-eval-graph': '', class: 'eval-graph', role: 'img', height: H, preserveAspectRatio: 'none' });
    this.svg.addEventListener('click', (e) => {
      const r = this.svg.getBoundingClientRect();
      const ply = Math.round(((e.clientX - r.left - PAD) / Math.max(1, r.width - 2 * PAD)) * this.plies);
      onPick(Math.max(0, Math.min(this.plies, ply)));
    });
    host.append(this.svg);
    this.onResize = () => (this.svg.isConnected ? this.draw() : window.removeEventListener('resize', this.onResize));
    window.addEventListener('resize', this.onResize);
  }

  label(text) {
    this.svg.setAttribute('aria-label', text);
  }

  set(points) {
    this.points = points;
    this.draw();
  }

  cursor(ply) {
    this.current = ply;
    this.draw();
  }

  draw() {
    const w = Math.max(100, this.svg.clientWidth || 600);
    const x = (ply) => PAD + (ply / this.plies) * (w - 2 * PAD);
    const y = (v) => H / 2 - (clamp(v) / CAP) * (H / 2 - PAD);
    this.svg.setAttribute('viewBox', `0 0 ${w} ${H}`);
    const parts = [
      node('rect', { class: 'eg-ahead', x: 0, y: 0, width: w, height: H / 2 }),
      node('line', { class: 'eg-zero', x1: 0, x2: w, y1: H / 2, y2: H / 2 }),
      node('line', { class: 'eg-cursor', x1: x(this.current), x2: x(this.current), y1: 0, y2: H }),
    ];
    if (this.points.length) {
      // The curve starts level at the start position.
      const d = [`M${x(0)},${H / 2}`, ...this.points.map((p) => `L${x(p.ply)},${y(p.value)}`)].join(' ');
      parts.push(node('path', { class: 'eg-line', d }));
    }
    for (const p of this.points) {
      const c = node('circle', { class: `eg-point${p.mark ? ` eg-${p.mark}` : ''}`, cx: x(p.ply), cy: y(p.value), r: p.mark ? 5 : 2.5, 'data-ply': p.ply });
      if (p.mark) c.setAttribute('data-mark', p.mark);
      const title = node('title');
      title.textContent = p.title;
      c.append(title);
      parts.push(c);
    }
    this.svg.replaceChildren(...parts);
  }
}
