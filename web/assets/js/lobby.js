// Lobby (/salon): the online games waiting for players, each joinable in
// one click (straight away with the remembered name, else through the join
// page), and the games in progress to watch. Refreshed every 5 s.

import { initI18n, t, currentLang } from './i18n.js';
import * as api from './api.js';
import { errorText } from './errors.js';
import { SIDES, gameLabel, tcLine, names, el } from './online.js';

const $ = (id) => document.getElementById(id);
let data = null;
let drawn = '';
let busy = false;

const gamePath = (id) => `/partie/${encodeURIComponent(id)}`;

function teams(g, open) {
  const box = el('p', { class: 'teams' });
  for (const side of SIDES[g.game] || []) {
    const n = (g.free && g.free[side]) || 0;
    box.append(el('span', { class: 'team', 'data-side': side },
      el('span', { class: `swatch-dot ${side}`, 'aria-hidden': 'true' }),
      el('strong', { text: `${t(`side.${side}`)} :` }),
      el('span', { text: names(g.teams && g.teams[side]) }),
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

function item(g, open) {
  const mine = api.loadSeat(g.id);
  const name = api.cleanName($('name').value);
  let action;
  if (mine) action = el('a', { class: 'btn primary', href: gamePath(g.id), text: t('lobby.resume') });
  else if (!open) action = el('a', { class: 'btn', href: gamePath(g.id), text: t('lobby.watch') });
  else if (name) action = el('button', { type: 'button', class: 'btn primary', 'data-join': g.id, text: t('join.join') });
  else action = el('a', { class: 'btn primary', href: `${gamePath(g.id)}/rejoindre`, text: t('join.join') });
  // Both sides have room: the join page lets one choose.
  const choose = open && !mine && Object.values(g.free || {}).filter((n) => n > 0).length > 1
    ? el('a', { class: 'choose', href: `${gamePath(g.id)}/rejoindre`, text: t('lobby.chooseSide') }) : null;
  return el('li', { class: 'card game-item', 'data-id': g.id },
    el('div', { class: 'what' }, el('p', { class: 'title', text: gameLabel(g) }), meta(g, open), teams(g, open)),
    el('div', { class: 'act' }, action, choose));
}

function render(force = false) {
  if (!data) return;
  const key = JSON.stringify([data, $('name').value.trim() !== '', currentLang()]);
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
  const name = api.cleanName($('name').value);
  if (!name || busy) return;
  busy = true;
  button.disabled = true;
  button.textContent = t('lobby.joining');
  try {
    await api.join(id, name);
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

initI18n().then(load);
setInterval(() => !document.hidden && !busy && load(), 5000);
