// Join page (/partie/<id>/rejoindre): what the game is, who waits, the free
// places; a name and one button per side with a free place (a single
// « Rejoindre » when only one side has room). A full or started game can
// only be watched. Signed in, one joins under one's username; a rated
// game asks a guest to sign in first.

import { initI18n, t, has } from './i18n.js';
import * as api from './api.js';
import { errorText } from './errors.js';
import { SIDES, gameLabel, tcLine, names, el } from './online.js';
import { signedIn, loginPath } from './account-menu.js';

const $ = (id) => document.getElementById(id);
const parts = location.pathname.replace(/\/+$/, '').split('/');
const id = decodeURIComponent(parts[parts.length - 2] || '');
const gamePath = `/partie/${encodeURIComponent(id)}`;

let state = null;
let joining = false;
let failure = null; // an error code that closes the page (not_found…)
let me = null; // the signed-in account, once known

function free(s, side) {
  return Math.max(0, (s.team_size || 1) - ((s.teams && s.teams[side]) || []).length);
}

function render() {
  $('loading').hidden = !!state || !!failure;
  $('watch').href = gamePath;
  if (failure) {
    $('summary').hidden = true;
    $('join-form').hidden = true;
    $('closed').hidden = false;
    $('closed-text').textContent = t(has(`error.${failure}`) ? `error.${failure}` : 'error.internal');
    $('watch').hidden = failure === 'not_found';
    return;
  }
  const s = state;
  if (!s) return;
  const sides = SIDES[s.game];
  const open = sides.filter((side) => free(s, side) > 0);
  const mine = api.loadSeat(id) || (me && sides.some((side) => (s.teams?.[side] || []).some((m) => m.account && m.name === me.username)));

  $('summary').hidden = false;
  document.title = `${t('join.title')}`;
  $('join-game').textContent = gameLabel(s);
  const bits = [tcLine(s.time_control)];
  if (s.game === 'nsolo') bits.push(t('join.teamSize', { n: s.team_size || 1 }));
  if (s.rated) bits.push(t('rated.game'));
  $('join-tc').textContent = bits.join(' · ');
  const waiting = sides.flatMap((side) => (s.teams && s.teams[side]) || []).map((m) => m.name);
  $('join-who').textContent = waiting.length ? t('join.waits', { names: waiting.join(', '), n: waiting.length }) : '';

  const places = $('join-places');
  places.textContent = '';
  for (const side of sides) {
    const n = free(s, side);
    places.append(el('div', { class: 'join-side', 'data-side': side },
      el('span', { class: `swatch-dot ${side}` }),
      el('strong', { text: t(`side.${side}`) }),
      el('span', { class: 'join-names', text: names(s.teams && s.teams[side]) }),
      el('span', { class: `join-free${n ? '' : ' none'}`, text: n ? t('join.free', { n }) : t('join.full') })));
  }

  const playable = s.opponent === 'online' && s.status === 'waiting' && !s.result && s.ply === 0 && open.length > 0;
  let closed = '';
  if (s.opponent !== 'online') closed = t('join.notOnline');
  else if (mine) closed = t('join.haveSeat');
  else if (s.status === 'damaged') closed = t('error.damaged');
  else if (playable && s.rated && !me) closed = t('lobby.signInRated');
  else if (!playable) closed = s.status === 'finished' || s.result ? t('error.game_over') : s.ply > 0 || s.status === 'playing' ? t('error.already_started') : t('error.game_full');
  $('closed').hidden = !closed;
  $('closed-text').textContent = closed;
  $('watch').textContent = t(mine ? 'join.goToGame' : 'join.watch');
  $('sign-in').hidden = !(playable && s.rated && !me && !mine);
  $('sign-in').href = loginPath();
  $('watch').classList.toggle('primary', $('sign-in').hidden);
  $('join-form').hidden = !!closed;
  if (closed) return;
  for (const e of [$('name'), $('name-hint')]) e.hidden = !!me;
  $('as-account').hidden = !me;
  if (me) $('as-account').textContent = t('new.asAccount', { name: me.username });

  const box = $('join-buttons');
  box.textContent = '';
  if (open.length === 1) {
    box.append(
      el('button', { type: 'submit', class: 'btn primary big', 'data-join': '', text: t('join.join') }),
      el('p', { class: 'hint', text: t(`join.youPlay.${open[0]}`) }),
    );
  } else {
    for (const side of open) {
      box.append(el('button', { type: 'submit', class: 'btn primary big', 'data-join': side, 'data-side': side },
        el('span', { class: `swatch-dot ${side}` }), t(`join.side.${side}`)));
    }
  }
  for (const b of box.querySelectorAll('button')) b.disabled = joining;
}

async function load() {
  try {
    state = await api.getGame(id);
    failure = null;
  } catch (e) {
    if (e.code === 'not_found') failure = 'not_found';
    else if (!state) failure = e.code;
  }
  if (!joining) render();
}

async function join(side) {
  $('error').hidden = true;
  $('name').removeAttribute('aria-invalid');
  const name = me ? me.username : api.cleanName($('name').value);
  if (!name) {
    $('error').textContent = t('new.nameRequired');
    $('error').hidden = false;
    $('name').setAttribute('aria-invalid', 'true');
    $('name').focus();
    return;
  }
  joining = true;
  render();
  try {
    await api.join(id, name, side || undefined, !me);
    location.assign(gamePath);
  } catch (e) {
    joining = false;
    if (e.code === 'game_full' || e.code === 'already_started') await load();
    else render();
    $('error').textContent = errorText(e);
    $('error').hidden = false;
  }
}

$('join-form').addEventListener('submit', (e) => {
  e.preventDefault();
  const b = e.submitter;
  join(b && b.dataset.join);
});
document.addEventListener('langchange', render);

$('name').value = api.loadName();
initI18n().then(signedIn).then((a) => {
  me = a;
  return load();
});
setInterval(() => {
  if (!document.hidden && !joining && !failure) load();
}, 5000);
