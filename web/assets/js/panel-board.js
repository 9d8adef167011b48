// The game page's board: the Yoté or Nsolo board for the state, the live
// position or one picked in the move list (read-only), and the hooks on
// <body> that tools and browser tests wait on.

import { t } from './i18n.js';
import { YoteBoard } from './board-yote.js';
import { NsoloBoard } from './board-nsolo.js';

// onMove(move): the player built a move; onRefuse(name, stage): a tap started none.
export function createBoard(host, game, { onMove, onRefuse }) {
  host.textContent = '';
  host.classList.add(game);
  return game === 'yote' ? new YoteBoard(host, { onMove, onRefuse }) : new NsoloBoard(host, { onMove, onRefuse });
}

// v: the controller's view, with `flipped` (the orientation on screen).
export function renderBoard(board, s, v) {
  const interactive = v.canPlay && !v.sending && !v.proposed;
  delete document.body.dataset.viewing;
  // Hooks for tools and browser tests: the ply on screen and whether it waits for a click.
  document.body.dataset.ply = String(s.ply);
  document.body.dataset.ready = interactive ? '1' : '0';
  if (s.status) document.body.dataset.status = s.status;
  const common = {
    legal: v.canPlay ? s.legal : [],
    flipped: v.flipped,
    interactive,
    hint: v.hint,
    turn: s.turn,
  };
  if (s.game === 'yote') {
    board.set({ ...common, board: s.yote.board, reserve: s.yote.reserve, captured: s.yote.captured, last: s.last && s.last.animation });
  } else {
    board.set({ ...common, rows: s.nsolo.rows, last: s.last && s.last.animation });
  }
}

// The position after `v.viewing` moves, read-only, from the replay's frames.
export function renderHistory(board, s, v) {
  const f = v.frames && v.frames.frames[v.viewing];
  if (!f) return;
  document.body.dataset.ready = '0';
  document.body.dataset.viewing = String(v.viewing);
  const common = { legal: [], flipped: v.flipped, interactive: false, hint: [], turn: f.turn, last: f.last && f.last.animation };
  if (s.game === 'yote') board.set({ ...common, board: f.yote.board, reserve: f.yote.reserve, captured: f.yote.captured });
  else board.set({ ...common, rows: f.nsolo.rows });
  const move = s.moves[v.viewing - 1];
  document.getElementById('history-text').textContent = t('moves.viewing', { turn: Math.ceil(v.viewing / 2), move });
}
