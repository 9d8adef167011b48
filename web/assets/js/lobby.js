// Lobby (/salon): the online games waiting for players, each joinable in
// one click (straight away with the remembered name or the signed-in
// account, else through the join page), and the games in progress to
// watch. A rated seek shows its creator's rating and the range it accepts;
// a guest is asked to sign in to take it. Refreshed every 5 s.

import { initI18n, t, currentLang } from './i18n.js';
import * as api from './api.js';
import { errorText } from './errors.js';
import { SIDES, gameLabel, tcLine, names, el } from './online.js';
import { signedIn, loginPath, profilePath } from './account-menu.js';

const $ = (id) => document.getElementById(id);
let data = null;
let drawn = '';
let busy = false;
let me = null; // the signed-in account, once known

const gamePath = (id) => `/partie/${encodeURIComponent(id)}`;

function teams(g, open) {
  const box = el('p', { class: 'teams' });
  for (const side of SIDES[g.game] || []) {
    const n = (g.free && g.free[side]) || 0;
    box.append(el('span', { class: 'team', 'data-side': side },
      el('span', { class: `swatch-dot ${side}`, 'aria-hidden': 'true' }),
      el('strong', { text: `${t(`side.${side}`)}\u00a0:` }),
      // The players of a rated game are accounts: their names lead to their profiles.
      g.rated && (g.teams?.[side] || []).length
        ? el('span', {}, ...g.teams[side].flatMap((n, i) => [i ? ', ' : null, el('a', { href: profilePath(n), text: n })]).filter(Boolean))
        : el('span', { text: names(g.teams && g.teams[side]) }),
      open && n ? el('span', { class: 'free', text: t('join.free', { n }) }) : null));
  }
  return box;
}

function meta(g, open) {
  const bits = [tcLine(g.time_control)];
  if (g.game === 'nsolo' && g.team_size > 1) bits.push(t('join.teamSize', { n: g.team_size }));
  if (!open) bits.push(t('lobby.turns', { n: Math.ceil((g.ply || 0) / 2) }));
  return el('p', { class: 'meta', text: bits.join(' · ') });
}

const POOL = (g) => (g.game === 'yote' ? 'yote' : g.size === 8 ? 'nsolo8' : 'nsolo');

// A rated seek: its creator's rating and the ratings it accepts.
function ratingLine(g) {
  const bits = [];
  if (g.rating != null) bits.push(t('lobby.creatorRating', { rating: Math.round(g.rating) }));
  if (g.rating_range) bits.push(t('lobby.range', { min: g.rating_range[0], max: g.rating_range[1] }));
  return bits.length ? el('p', { class: 'rating-line', text: bits.join(' · ') }) : null;
}

// Why the signed-in player may not take this rated seek, or null.
function outOfRange(g) {
  const r = me?.ratings?.[POOL(g)]?.rating;
  if (!g.rating_range || r == null) return null;
  const [lo, hi] = g.rating_range;
  return r < lo || r > hi ? t('lobby.outOfRange', { rating: Math.round(r) }) : null;
}

function item(g, open) {
  const mine = api.loadSeat(g.id) || (me && Object.values(g.teams || {}).some((l) => l.includes(me.username)));
  const name = me ? me.username : api.cleanName($('name').value);
  const away = open && g.rated && me ? outOfRange(g) : null;
  let action;
  if (mine) action = el('a', { class: 'btn primary', href: gamePath(g.id), text: t('lobby.resume') });
  else if (!open) action = el('a', { class: 'btn', href: gamePath(g.id), text: t('lobby.watch') });
  else if (g.rated && !me) {
    action = el('p', { class: 'sign-in', 'data-sign-in': '' },
      el('span', { text: t('lobby.signInRated') }), ' ', el('a', { href: loginPath(), text: t('account.signIn') }));
  } else if (away) action = el('p', { class: 'sign-in', text: away });
  else if (name) action = el('button', { type: 'button', class: 'btn primary', 'data-join': g.id, text: t('join.join') });
  else action = el('a', { class: 'btn primary', href: `${gamePath(g.id)}/rejoindre`, text: t('join.join') });
  // Both sides have room: the join page lets one choose.
  const choose = open && !mine && !(g.rated && !me) && !away && Object.values(g.free || {}).filter((n) => n > 0).length > 1
    ? el('a', { class: 'choose', href: `${gamePath(g.id)}/rejoindre`, text: t('lobby.chooseSide') }) : null;
  return el('li', { class: 'card game-item', 'data-id': g.id },
    el('div', { class: 'what' },
      el('p', { class: 'title' }, gameLabel(g), g.rated ? el('span', { class: 'rated-badge', text: t('rated.mark') }) : null),
      meta(g, open), g.rated && open ? ratingLine(g) : null, teams(g, open)),
    el('div', { class: 'act' }, action, choose));
}

function render(force = false) {
  if (!data) return;
  const key = JSON.stringify([data, $('name').value.trim() !== '', currentLang(), me?.username]);
  if (key === drawn && !force) return;
  drawn = key;
  for (const kind of ['open', 'live']) {
    const list = data[kind] || [];
    const ul = $(kind);
    // Keep the keyboard focus where it was across a refresh.
    const focused = document.activeElement && ul.contains(document.activeElement)
      ? document.activeElement.closest('[data-id]')?.dataset.id : null;
    ul.textContent = '';
    for (const g of list) ul.append(item(g, kind === 'open'));
    $(`${kind}-empty`).hidden = list.length > 0;
    $(`${kind}-n`).textContent = list.length ? `(${list.length})` : '';
    if (focused) ul.querySelector(`[data-id="${CSS.escape(focused)}"] .act > *`)?.focus();
  }
}

async function load() {
  try {
    data = await api.lobby();
    $('error').hidden = true;
    $('updated').textContent = t('lobby.updated', {
      time: new Date().toLocaleTimeString(currentLang(), { hour: '2-digit', minute: '2-digit', second: '2-digit' }),
    });
    render();
  } catch (e) {
    $('error').textContent = errorText(e);
    $('error').hidden = false;
  }
}

async function join(id, button) {
  const name = me ? me.username : api.cleanName($('name').value);
  if (!name || busy) return;
  busy = true;
  button.disabled = true;
  button.textContent = t('lobby.joining');
  try {
    await api.join(id, name, undefined, !me);
    location.assign(gamePath(id));
  } catch (e) {
    busy = false;
    $('error').textContent = errorText(e);
    $('error').hidden = false;
    load();
  }
}

$('open').addEventListener('click', (e) => {
  const b = e.target.closest('button[data-join]');
  if (b) join(b.dataset.join, b);
});
$('name').value = api.loadName();
$('name').addEventListener('input', () => {
  const n = api.cleanName($('name').value);
  $('name').removeAttribute('aria-invalid');
  if (n) api.saveName(n);
  render();
});
$('name-form').addEventListener('submit', (e) => e.preventDefault());
document.addEventListener('langchange', () => render(true));
document.addEventListener('visibilitychange', () => !document.hidden && load());

// Signed in, one plays under one's username: no name to type.
function showAccount() {
  for (const e of [$('name'), $('name-label'), $('name-hint')]) e.hidden = !!me;
  $('as-account').hidden = !me;
  if (me) $('as-account').textContent = t('new.asAccount', { name: me.username });
}

document.addEventListener('langchange', showAccount);
initI18n().then(() => signedIn()).then((a) => {
  me = a;
  showAccount();
  return load();
});
setInterval(() => !document.hidden && !busy && load(), 5000);
