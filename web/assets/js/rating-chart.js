// A player's rating history as an SVG chart: one line per pool (Yoté,
// Nsolo 4×8, the large Nsolo boards), a point after each rated game. The
// x axis counts the player's rated games in the order they were played,
// all pools together (a week of games and a day of games read alike);
// the y axis is the rating, on round steps. The pools differ by colour and
// also by line dash and point shape, so that colour is never the only cue.
// Redrawn at the width of its box, so that its text stays readable.

const NS = 'http://www.w3.org/2000/svg';
const H = 260;
const PAD = { left: 52, right: 16, top: 14, bottom: 40 };

function node(tag, attrs = {}, text) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text != null) e.textContent = text;
  return e;
}

/** A round step giving about `n` ticks over `span`. */
export function niceStep(span, n) {
  const raw = Math.max(span, 1) / Math.max(n, 1);
  const p = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 2.5, 5, 10].map((m) => m * p).find((s) => s >= raw) || raw;
}

/** The point's mark: circle, square or diamond, by the line's index. */
function mark(i, x, y, cls) {
  const r = 4.5;
  if (i % 3 === 0) return node('circle', { class: cls, cx: x, cy: y, r });
  if (i % 3 === 1) return node('rect', { class: cls, x: x - r, y: y - r, width: 2 * r, height: 2 * r });
  return node('path', { class: cls, d: `M${x},${y - r - 1}L${x + r + 1},${y}L${x},${y + r + 1}L${x - r - 1},${y}Z` });
}

export class RatingChart {
  /**
   * `lines`: [{key, label, points: [{at, rating, diff}]}]; `words`:
   * {axis(n, narrow) → the x axis's title (short when narrow), point(line, p) → a point's tooltip,
   * summary(lines) → the chart's description for screen readers}.
   */
  constructor(host, lines, words) {
    this.host = host;
    this.words = words;
    this.svg = node('svg', { class: 'rating-chart', role: 'img', height: H, 'data-rating-chart': '' });
    host.replaceChildren(this.svg);
    this.set(lines);
    this.onResize = () => (this.svg.isConnected ? this.draw() : removeEventListener('resize', this.onResize));
    addEventListener('resize', this.onResize);
  }

  set(lines) {
    // Every game of every pool on one count, oldest first.
    const all = lines.flatMap((l, i) => l.points.map((p) => ({ ...p, line: i })));
    all.sort((a, b) => a.at - b.at || a.line - b.line);
    all.forEach((p, n) => (p.n = n + 1));
    this.lines = lines.map((l, i) => ({ ...l, index: i, points: all.filter((p) => p.line === i) }));
    this.count = all.length;
    this.draw();
  }

  draw() {
    const w = Math.max(280, this.host.clientWidth || 640);
    const svg = this.svg;
    svg.setAttribute('viewBox', `0 0 ${w} ${H}`);
    svg.setAttribute('width', w);
    svg.setAttribute('aria-label', this.words.summary(this.lines));
    const ratings = this.lines.flatMap((l) => l.points.map((p) => p.rating));
    let lo = Math.min(...ratings);
    let hi = Math.max(...ratings);
    if (hi - lo < 100) {
      const mid = (hi + lo) / 2;
      lo = mid - 50;
      hi = mid + 50;
    }
    const step = niceStep(hi - lo, 4);
    lo = Math.floor(lo / step) * step;
    hi = Math.ceil(hi / step) * step;
    const n = Math.max(this.count, 1);
    const plotW = w - PAD.left - PAD.right;
    const plotH = H - PAD.top - PAD.bottom;
    // One game alone sits in the middle.
    const x = (i) => PAD.left + (n === 1 ? plotW / 2 : ((i - 1) / (n - 1)) * plotW);
    const y = (r) => PAD.top + (1 - (r - lo) / (hi - lo)) * plotH;
    const parts = [node('rect', { class: 'rc-bg', x: PAD.left, y: PAD.top, width: plotW, height: plotH })];
    for (let r = lo; r <= hi + 1e-9; r += step) {
      parts.push(node('line', { class: 'rc-grid', x1: PAD.left, x2: w - PAD.right, y1: y(r), y2: y(r) }));
      parts.push(node('text', { class: 'rc-label rc-y', x: PAD.left - 8, y: y(r) + 4, 'text-anchor': 'end' }, String(Math.round(r))));
    }
    // Game numbers on round steps, the last one always.
    const xs = Math.max(1, Math.ceil(niceStep(n - 1, Math.max(2, Math.floor(plotW / 70)))));
    const ticks = [1];
    for (let i = xs; i < n; i += xs) if (i > 1 && x(n) - x(i) >= 24 && x(i) - x(1) >= 24) ticks.push(i);
    if (n > 1) ticks.push(n);
    for (const i of ticks) {
      parts.push(node('line', { class: 'rc-tick', x1: x(i), x2: x(i), y1: PAD.top + plotH, y2: PAD.top + plotH + 5 }));
      parts.push(node('text', { class: 'rc-label', x: x(i), y: PAD.top + plotH + 18, 'text-anchor': 'middle' }, String(i)));
    }
    parts.push(node('text', { class: 'rc-axis', x: PAD.left + plotW / 2, y: H - 4, 'text-anchor': 'middle' }, this.words.axis(n, plotW < 420)));
    parts.push(node('line', { class: 'rc-base', x1: PAD.left, x2: w - PAD.right, y1: PAD.top + plotH, y2: PAD.top + plotH }));
    for (const l of this.lines) {
      if (!l.points.length) continue;
      const g = node('g', { class: `rc-line rc-${l.key}`, 'data-pool': l.key });
      const d = l.points.map((p, i) => `${i ? 'L' : 'M'}${x(p.n).toFixed(1)},${y(p.rating).toFixed(1)}`).join('');
      g.append(node('path', { class: 'rc-path', d }));
      for (const p of l.points) {
        const m = mark(l.index, x(p.n), y(p.rating), 'rc-point');
        m.append(node('title', {}, this.words.point(l, p)));
        g.append(m);
      }
      parts.push(g);
    }
    svg.replaceChildren(...parts);
  }
}
