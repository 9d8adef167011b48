// Words shared by the online pages: the game's name, the time control, the
// time left on a clock, the list of a side's players.

import { t, has, currentLang } from './i18n.js';

export const SIDES = { yote: ['red', 'black'], nsolo: ['south', 'north'] };
export const TIME_CONTROLS = ['none', '5+3', '10+5', '1d', '3d'];

export function gameLabel(g) {
  return g.game === 'yote' ? 'Yoté' : `Nsolo 4×${g.size}`;
}

export function tcLabel(tc) {
  if (!tc) return '';
  const key = `tc.${tc}`;
  return t(key) === key ? tc : t(key);
}

const pad = (n) => String(n).padStart(2, '0');

// 4:59, 1:02:03, 2 j 23 h; tenths under ten seconds (0:09.4).
export function clockText(ms, tr = t) {
  ms = Math.max(0, ms || 0);
  if (ms >= 86400000) {
    const h = Math.floor(ms / 3600000);
    return tr('clock.days', { d: Math.floor(h / 24), h: h % 24 });
  }
  if (ms < 10000) {
    const tenths = Math.ceil(ms / 100);
    return `0:0${Math.floor(tenths / 10)}${currentLang() === 'fr' ? ',' : '.'}${tenths % 10}`;
  }
  const s = Math.ceil(ms / 1000);
  if (s >= 3600) return `${Math.floor(s / 3600)}:${pad(Math.floor(s / 60) % 60)}:${pad(s % 60)}`;
  return `${Math.floor(s / 60)}:${pad(s % 60)}`;
}

// "Awa, Kofi", or `none` (« personne encore ») for nobody; a name may also
// be the machine.
export function names(list, none = 'online.nobody') {
  const l = (list || []).map((n) => (n === 'machine' ? t('player.machine') : typeof n === 'string' ? n : n.name));
  return l.length ? l.join(', ') : t(none);
}

// The result of a finished game in words: the big word and the reason.
const OTHER = { red: 'black', black: 'red', south: 'north', north: 'south' };
export function resultText(r) {
  if (!r || !r.reason || r.reason === 'aborted') return { word: t('end.aborted'), reason: '' };
  const w = r.winner;
  const key = w && has(`reason.${r.reason}.${OTHER[w]}`) ? `reason.${r.reason}.${OTHER[w]}` : `reason.${r.reason}`;
  return { word: w ? t(`end.victory.${w}`) : t('end.draw'), reason: has(key) ? t(key) : '' };
}

// « Pendule 10+5 », « Correspondance 1 jour » or « Sans pendule ».
export function tcLine(tc) {
  if (!tc || tc === 'none') return tcLabel('none');
  return /d$/.test(tc) ? tcLabel(tc) : t('online.tcLine', { tc: tcLabel(tc) });
}

export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v == null || v === false) continue;
    if (k === 'class') e.className = v;
    else if (k === 'text') e.textContent = v;
    else if (k.startsWith('data-')) e.setAttribute(k, v === true ? '' : v);
    else e.setAttribute(k, v === true ? '' : v);
  }
  e.append(...children.filter((c) => c != null && c !== false));
  return e;
}
