// The game page's move list: numbered by turn (a turn is the first side's
// move and the reply, as in the export), each move a button. Picking one
// asks the page to show the position after it, read-only; the page shows a
// « back to the game » bar meanwhile. The list keeps its heading in view and
// follows the newest move unless the reader scrolled up.

import { t } from './i18n.js';

export class MoveList {
  // box: the scrolling section; ol: the list; onPick(ply): a move was picked
  // (ply = the number of moves played up to and including it).
  constructor(box, ol, { onPick }) {
    this.box = box;
    this.ol = ol;
    this.onPick = onPick;
    this.count = -1;
    this.viewing = null;
    ol.addEventListener('click', (e) => {
      const b = e.target.closest('button[data-ply]');
      if (b) onPick(+b.dataset.ply);
    });
  }

  /** moves: the move strings; viewing: the ply shown read-only, or null. */
  render(moves, viewing) {
    const grew = moves.length !== this.count;
    const stuck = this.box.scrollTop + this.box.clientHeight >= this.box.scrollHeight - 8;
    if (grew) this.build(moves);
    this.mark(viewing);
    if (grew && stuck && viewing == null) this.box.scrollTop = this.box.scrollHeight;
  }

  build(moves) {
    this.count = moves.length;
    this.ol.textContent = '';
    for (let i = 0; i < moves.length; i += 2) {
      const li = document.createElement('li');
      li.value = i / 2 + 1;
      for (let k = i; k < Math.min(i + 2, moves.length); k++) {
        const b = document.createElement('button');
        b.type = 'button';
        b.className = 'mv';
        b.dataset.ply = String(k + 1);
        b.textContent = moves[k];
        b.setAttribute('aria-label', t('moves.show', { turn: i / 2 + 1, move: moves[k] }));
        li.append(b);
      }
      this.ol.append(li);
    }
  }

  mark(viewing) {
    this.viewing = viewing;
    const newest = this.count;
    for (const b of this.ol.querySelectorAll('button[data-ply]')) {
      const p = +b.dataset.ply;
      const on = viewing == null ? p === newest : p === viewing;
      b.classList.toggle('current', on);
      if (on) b.setAttribute('aria-current', 'step');
      else b.removeAttribute('aria-current');
      if (on && viewing != null) b.scrollIntoView({ block: 'nearest' });
    }
  }
}
