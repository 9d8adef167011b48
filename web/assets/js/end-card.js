// The end-of-game card: the result in big words, the reason, and what to do
// next (a rematch online, « Rejouer » against the machine, a new game, the
// replay and the record).

import { t, has } from './i18n.js';
import { other, vsMachine, over, damaged, rematchable } from './permissions.js';
import { sideName } from './panel-bars.js';

const $ = (id) => document.getElementById(id);

// {word, sub, reason, line}: the big word, a line under it, the reason, and
// all of it on one line for the status.
export function resultWords(s, v) {
  const r = s.result;
  if (!r || r.reason === 'aborted') {
    // Online, a game ended before its first move: no result.
    const word = t('end.aborted');
    return { word, sub: '', reason: t('reason.aborted'), line: word };
  }
  const w = r.winner;
  const loser = w ? other[w] : null;
  let win;
  if (!w) win = t('end.draw');
  else if (v.seat && vsMachine(s)) win = s.players[w] === 'human' ? t('end.youWin') : t('end.machineWins');
  else if (v.mySide) win = w === v.mySide ? t('end.youWin') : t('end.youLose', { side: sideName(w) });
  else win = t(`end.victory.${w}`);
  const key = loser && has(`reason.${r.reason}.${loser}`) ? `reason.${r.reason}.${loser}` : `reason.${r.reason}`;
  const reason = has(key) ? t(key) : '';
  const word = r.reason === 'ndar-kepp' ? 'Ndar-Kepp' : win;
  return { word, sub: r.reason === 'ndar-kepp' ? win : '', reason, line: [win, reason].filter(Boolean).join(' — ') };
}

// v.endDismissed: the player closed the card to look at the board.
export function renderEnd(s, v) {
  const end = $('end');
  const show = over(s) && !damaged(s) && !v.endDismissed;
  if (!show) {
    end.hidden = true;
    return;
  }
  const r = resultWords(s, v);
  end.dataset.result = s.result ? s.result.winner || 'draw' : 'aborted';
  end.dataset.reason = s.result ? s.result.reason : 'aborted';
  const rematch = rematchable(s);
  $('end-rematch').hidden = !rematch || !v.seat;
  $('end-rematch').disabled = !!v.asked || !v.up;
  $('end-rematch').textContent = t(s.rematch ? 'action.joinRematch' : 'action.rematch');
  $('end-rematch-link').hidden = !rematch || !!v.seat || !s.rematch;
  $('end-new').classList.toggle('primary', $('end-rematch').hidden && $('end-rematch-link').hidden);
  if (s.rematch && v.links?.gamePage) $('end-rematch-link').href = v.links.gamePage(s.rematch);
  $('end-again').hidden = !(v.seat && vsMachine(s));
  $('end-again').disabled = v.sending;
  if (!$('end-again').hidden) $('end-new').classList.remove('primary');
  $('end-note').hidden = !(rematch && v.seat && s.rematch);
  $('end-note').textContent = t('online.rematchOffered');
  $('end-word').textContent = r.word;
  $('end-sub').textContent = r.sub;
  $('end-sub').hidden = !r.sub;
  $('end-reason').textContent = r.reason;
  if (end.hidden) {
    end.hidden = false;
    $('end-close').focus();
  }
}
