// The game page's words about the game: the header, the status line (whose
// turn, the result), the quiet-move count, the notes (a hint, a refusal, an
// error), the move waiting for confirmation, the connection and the short
// note on a refused tap.

import { t } from './i18n.js';
import { errorText } from './errors.js';
import { gameLabel, tcLabel } from './online.js';
import { vsMachine, online, over, damaged, inPlay } from './permissions.js';
import { resultWords } from './end-card.js';

const $ = (id) => document.getElementById(id);

export function renderHeader(s, v) {
  const name = gameLabel(s);
  let who;
  if (online(s)) who = [t('game.online'), tcLabel(s.time_control)].filter(Boolean).join(', ');
  else who = vsMachine(s) ? t('game.vsMachine', { level: t(`level.${s.level}`) }) : t('game.local');
  if (s.local) who += ` · ${t('game.offline')}`;
  if (s.rated) who += ` · ${t('rated.mark')}`;
  $('game-name').textContent = `${name} · ${who}`;
  // A rated game: no hint, no take-back, and the result counts.
  $('rated-line').hidden = !s.rated;
  // A player waiting in another tab sees when the hand comes back to them.
  document.title = `${online(s) && v.canPlay ? '● ' : ''}${name} · Palabre`;
}

function turnOf(name) {
  return t(/^[aeiouyhàâäéèêëîïôöûüœæ]/i.test(name) ? 'online.turnOfVowel' : 'online.turnOf', { name });
}

// The player's own move is still being animated: the machine's turn has
// not visibly begun.
function ownMoveShowing(s, v) {
  return v.replaying && !!s.last && s.players[s.last.by] === 'human';
}

function statusText(s, v) {
  if (damaged(s)) return t('status.damaged');
  if (over(s)) return resultWords(s, v).line;
  if (online(s)) {
    if (s.status === 'waiting') return t('online.waiting');
    const h = s.next_hand;
    if (v.myHand) return t('online.yourHand');
    if (h) return turnOf(h.name);
    return t(`status.turn.${s.turn}`);
  }
  if (v.seat && vsMachine(s)) {
    if (ownMoveShowing(s, v)) return t('status.yourMove');
    return s.players[s.turn] === 'human' && !s.thinking ? t('status.you') : t('status.thinking');
  }
  return t(`status.turn.${s.turn}`);
}

export function renderStatus(s, v) {
  const st = $('status');
  st.textContent = '';
  const line = document.createElement('span');
  line.textContent = statusText(s, v);
  // The hand to play next, online: « À vous de jouer » for that member only.
  if (online(s) && s.next_hand && s.status === 'playing' && !over(s)) {
    line.dataset.nextHand = s.next_hand.name;
    line.className = v.myHand ? 'next-hand mine' : 'next-hand';
  }
  st.append(line);
  st.classList.toggle('thinking', inPlay(s) && s.players[s.turn] === 'machine' && !ownMoveShowing(s, v));
  if (!v.seat) {
    const w = document.createElement('span');
    w.className = 'watch';
    w.textContent = t(online(s) ? 'online.watching' : 'status.watching');
    st.append(w);
  }
  const q = $('quiet');
  q.hidden = s.game !== 'yote';
  if (s.game === 'yote') q.textContent = t('yote.quiet', { n: s.yote.quiet, max: s.yote.quiet_limit ?? 120 });
}

// A damaged game says why nothing can be done in it.
export function renderReadOnly(s) {
  $('readonly').hidden = !damaged(s);
}

// v.note: {key, vars} or {fault, context} (an error the transport threw).
export function renderNote(v) {
  const n = v.note;
  const m = $('message');
  m.hidden = !n;
  m.classList.toggle('error', !!(n && n.error));
  m.textContent = !n ? '' : n.fault ? errorText(n.fault, n.context) : t(n.key, n.vars);
}

export function renderConfirm(v) {
  $('confirm-move').hidden = !v.proposed;
  if (v.proposed) $('confirm-text').textContent = t('game.confirmMove', { move: v.proposed });
}

// v.link: 'open' or 'lost' once the transport has said.
export function renderConn(v) {
  if (!v.link) return;
  document.body.dataset.conn = v.link;
  $('conn').hidden = v.link === 'open';
}

let noteTimer = null;

// A refusal shows where the eye is, over the page's foot, and fades.
export function tapNote(text) {
  const n = $('tap-note');
  n.textContent = text;
  n.hidden = false;
  clearTimeout(noteTimer);
  noteTimer = setTimeout(() => (n.hidden = true), 3000);
}
