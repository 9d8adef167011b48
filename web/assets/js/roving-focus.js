// One Tab stop for a board of many holes or pits (the WAI-ARIA roving
// tabindex): a 4×36 Nsolo board would otherwise take 144 presses of Tab to
// get past. Only one cell is in the Tab order (tabindex 0, the others -1):
// the one the player last focused, else the first playable one, else the
// first on screen. The arrows move the focus by rows and columns as they
// are drawn, whatever the board's orientation; Home and End go to the ends
// of the row, Ctrl+Home and Ctrl+End to the first and the last cell.
// Playing the focused cell (Enter, space) stays with the board, which
// knows what a click means.

const STEPS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

export class RovingFocus {
  // root: the board's HTML host. Not its <svg>: in Chromium an SVG element
  // with a focus listener is a Tab stop of its own.
  constructor(root) {
    this.at = new Map(); // cell -> [row, col] on screen
    this.grid = new Map(); // 'row,col' -> cell
    this.order = []; // the cells in reading order
    this.focused = null; // the cell the player last focused
    root.addEventListener('focusin', (e) => {
      if (!this.at.has(e.target)) return;
      this.focused = e.target;
      this.stop(e.target);
    });
    root.addEventListener('keydown', (e) => this.key(e));
  }

  // cells: [{el, row, col, playable}], rows and columns from 0 as drawn
  // (the board calls it at each render: a flip moves them).
  layout(cells) {
    this.at.clear();
    this.grid.clear();
    for (const c of cells) {
      this.at.set(c.el, [c.row, c.col]);
      this.grid.set(`${c.row},${c.col}`, c.el);
    }
    const sorted = [...cells].sort((a, b) => a.row - b.row || a.col - b.col);
    this.order = sorted.map((c) => c.el);
    const kept = this.at.has(this.focused) ? this.focused : null;
    this.stop(kept || sorted.find((c) => c.playable)?.el || this.order[0]);
  }

  // Makes `el` the board's one Tab stop.
  stop(el) {
    for (const cell of this.order) {
      const want = cell === el ? '0' : '-1';
      if (cell.getAttribute('tabindex') !== want) cell.setAttribute('tabindex', want);
    }
  }

  key(e) {
    const from = this.at.get(e.target);
    if (!from || e.altKey || e.metaKey) return;
    let to;
    if (STEPS[e.key]) {
      const [dr, dc] = STEPS[e.key];
      to = this.grid.get(`${from[0] + dr},${from[1] + dc}`);
    } else if (e.key === 'Home' || e.key === 'End') {
      const row = this.order.filter((c) => this.at.get(c)[0] === from[0]);
      const list = e.ctrlKey ? this.order : row;
      to = e.key === 'Home' ? list[0] : list[list.length - 1];
    } else {
      return;
    }
    // The board has these keys: neither the page's scroll nor a replay's
    // own arrows (viewer.js) move as well.
    e.preventDefault();
    e.stopPropagation();
    if (!to) return;
    to.focus();
    to.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
  }
}
