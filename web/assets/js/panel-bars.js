// The game page's side bars, above and below the board: each side's name,
// its players (online: the team, who is present, whose hand is next), the
// Nsolo stone count, the clock and « à jouer ».

import { t, localPath } from './i18n.js';
import { clockText } from './online.js';
import { vsMachine, online, over, inPlay } from './permissions.js';

const $ = (id) => document.getElementById(id);

export function sideName(side) {
  return t(`side.${side}`);
}

// A member's name: a link to the profile when it is an account's.
export function memberName(m, cls) {
  const name = document.createElement(m.account ? 'a' : 'span');
  if (cls) name.className = cls;
  if (m.account) name.href = localPath(`/joueur/${encodeURIComponent(m.name)}`);
  name.textContent = m.name;
  return name;
}

// « BOT » after a member who is a program playing under an account, else nothing.
export function botBadge(m) {
  if (!m.bot) return '';
  const b = document.createElement('span');
  b.className = 'bot-badge';
  b.title = t('player.botTitle');
  b.textContent = 'BOT';
  return b;
}

// A member's presence dot, online.
export function presence(m) {
  const dot = document.createElement('span');
  dot.className = `presence${m.online ? ' on' : ''}`;
  dot.setAttribute('role', 'img');
  dot.setAttribute('aria-label', t(m.online ? 'online.present' : 'online.absent'));
  dot.title = t(m.online ? 'online.present' : 'online.absent');
  return dot;
}

function who(s, v, side) {
  if (online(s)) return '';
  if (s.players[side] === 'machine') return t('player.machine');
  if (v.seat && vsMachine(s)) return t('player.you');
  return '';
}

// The time left on a side's clock now: the running clock counts down from
// the moment its state arrived.
function clockLeft(s, side) {
  const ms = s.clocks[side];
  if (s.running !== side || over(s) || s.status !== 'playing') return ms;
  return Math.max(0, ms - (performance.now() - (s.at || performance.now())));
}

function renderClock(el, s) {
  const side = el.dataset.clock;
  const ms = clockLeft(s, side);
  el.textContent = clockText(ms, t);
  const run = s.running === side && s.status === 'playing' && !over(s);
  el.classList.toggle('running', run);
  el.classList.toggle('low', run && ms < 20000);
}

// Called a few times a second: only the clocks change between states.
export function tickClocks(s) {
  if (!s || !s.clocks) return;
  for (const el of document.querySelectorAll('[data-clock]')) renderClock(el, s);
}

function members(s, v, side) {
  const box = document.createElement('span');
  box.className = 'members';
  const team = (s.teams && s.teams[side]) || [];
  const h = s.next_hand;
  team.forEach((m, i) => {
    const chip = document.createElement('span');
    chip.className = 'member';
    const next = !over(s) && s.status === 'playing' && h && h.side === side && h.index === i;
    if (next) {
      chip.classList.add('next');
      chip.setAttribute('aria-current', 'step');
    }
    const me = side === v.mySide && i === v.myIndex;
    if (me) chip.classList.add('me');
    chip.append(presence(m), memberName(m, 'member-name'), botBadge(m));
    if (me) {
      const y = document.createElement('span');
      y.className = 'you';
      y.textContent = ` (${t('player.you')})`;
      chip.append(y);
    }
    box.append(chip);
  });
  return box;
}

// v.counts: Nsolo stone counts in step with a running animation, else null.
export function renderBars(s, v) {
  const sides = s.game === 'yote' ? ['red', 'black'] : ['south', 'north'];
  const [bottom, top] = v.flipped ? [sides[1], sides[0]] : sides;
  for (const [el, side] of [[$('bar-top'), top], [$('bar-bottom'), bottom]]) {
    el.textContent = '';
    el.dataset.side = side;
    el.classList.toggle('to-move', inPlay(s) && s.turn === side);
    const dot = document.createElement('span');
    dot.className = `swatch ${side}`;
    const name = document.createElement('strong');
    name.textContent = sideName(side);
    el.append(dot, name);
    if (online(s)) el.append(members(s, v, side));
    const w = who(s, v, side);
    if (w) {
      const span = document.createElement('span');
      span.textContent = ` · ${w}`;
      el.append(span);
    }
    if (s.game === 'nsolo') {
      const c = document.createElement('span');
      c.className = 'count';
      c.dataset.count = side; // the side bar's count, kept in step by the animation
      c.textContent = t('nsolo.stones', { n: (v.counts || s.nsolo.stones)[side] });
      el.append(c);
    }
    if (online(s) && s.clocks && side in s.clocks) {
      const c = document.createElement('span');
      c.className = 'clock';
      c.dataset.clock = side;
      c.setAttribute('role', 'timer');
      c.setAttribute('aria-label', t('online.clock', { side: sideName(side) }));
      renderClock(c, s);
      el.append(c);
    }
    if (inPlay(s) && s.turn === side) {
      const tm = document.createElement('span');
      tm.className = 'turn-tag';
      tm.textContent = t('game.toMove');
      el.append(tm);
    }
  }
}

// The counts alone, as the animation sows.
export function renderCounts(counts) {
  for (const c of document.querySelectorAll('.side-bar [data-count]')) c.textContent = t('nsolo.stones', { n: counts[c.dataset.count] });
}
