// New game: choose the game, the opponent, the level, the side and (Nsolo)
// the board size; online, also the name, the time control and (Nsolo) the
// players per side; signed in, one player a side, a rated game with an
// optional range of opponents' ratings. Create the game and go to it.

import { initI18n, t, has } from './i18n.js';
import { createGame, saveSeat, loadName, saveName, cleanName } from './api.js';
import { errorText } from './errors.js';
import { signedIn, loginPath } from './account-menu.js';

const form = document.getElementById('new-form');
const $ = (id) => document.getElementById(id);
const SIDES = { yote: ['red', 'black'], nsolo: ['south', 'north'] };
const LEVELS = ['debutant', 'intermediaire', 'confirme', 'expert'];
let me = null; // the signed-in account, once known

function value(name) {
  return form.querySelector(`input[name="${name}"]:checked`)?.value;
}

function update() {
  const game = value('game');
  const opponent = value('opponent');
  const local = opponent === 'local';
  const online = opponent === 'online';
  $('level-set').hidden = local || online;
  $('side-set').hidden = local;
  $('size-set').hidden = game !== 'nsolo';
  $('name-set').hidden = !online;
  $('tc-set').hidden = !online;
  // A rated game is one player a side: no team size to choose.
  const ratable = online && (game === 'yote' || value('team') === '1' || $('rated').checked);
  const rated = ratable && !!me && $('rated').checked;
  $('team-set').hidden = !online || game !== 'nsolo' || rated;
  $('rated-set').hidden = !ratable;
  $('rated-guest').hidden = !!me;
  $('rated-box').hidden = !me;
  $('range-set').hidden = !rated;
  $('rated-login').href = loginPath();
  // Signed in, one plays under one's username.
  $('name').hidden = !!me;
  $('name-hint').hidden = !!me;
  $('as-account').hidden = !me;
  if (me) {
    $('as-account').textContent = t('new.asAccount', { name: me.username });
    const pool = game === 'yote' ? 'yote' : +$('size').value === 8 ? 'nsolo8' : 'nsolo';
    const r = me.ratings && me.ratings[pool];
    $('my-rating').textContent = r ? t('new.myRating', { rating: Math.round(r.rating) }) : '';
  }
  $('offline-set').hidden = online;
  const [a, b] = SIDES[game];
  $('side-first').dataset.i18n = `side.${a}`;
  $('side-second').dataset.i18n = `side.${b}`;
  if (has(`side.${a}`)) {
    $('side-first').textContent = t(`side.${a}`);
    $('side-second').textContent = t(`side.${b}`);
  }
  form.dataset.game = game;
  const start = $('start');
  if (!start.disabled) {
    start.dataset.i18n = online ? 'new.startOnline' : 'new.start';
    if (has(start.dataset.i18n)) start.textContent = t(start.dataset.i18n);
  }
  $('size-out').textContent = `4 × ${$('size').value}`;
}

function preset() {
  const q = new URLSearchParams(location.search);
  const game = q.get('jeu');
  if (game in SIDES) form.querySelector(`input[name="game"][value="${game}"]`).checked = true;
  const level = q.get('niveau');
  if (LEVELS.includes(level)) form.querySelector(`input[name="level"][value="${level}"]`).checked = true;
  const against = { 'en-ligne': 'online', local: 'local', machine: 'machine' }[q.get('adversaire')];
  if (against) form.querySelector(`input[name="opponent"][value="${against}"]`).checked = true;
  // « Nouvelle partie » after a game keeps its side and its board size.
  const side = { premier: 'first', second: 'second' }[q.get('camp')];
  if (side) form.querySelector(`input[name="side"][value="${side}"]`).checked = true;
  if (q.get('hors-ligne') === '1' || !navigator.onLine) $('offline').checked = true;
  const size = +q.get('taille');
  if (size >= 8 && size <= 36) $('size').value = String(size);
  $('name').value = loadName();
}

function fail(text, field) {
  $('error').textContent = text;
  $('error').hidden = false;
  if (field) {
    field.setAttribute('aria-invalid', 'true');
    field.focus();
  }
}

form.addEventListener('change', update);
form.addEventListener('input', update);
form.addEventListener('submit', async (e) => {
  e.preventDefault();
  const game = value('game');
  const opponent = value('opponent');
  const s = value('side');
  const body = { game, opponent };
  if (game === 'nsolo') body.size = +$('size').value;
  if (opponent === 'machine' || opponent === 'online') {
    body.side = s === 'random' ? 'random' : SIDES[game][s === 'first' ? 0 : 1];
  }
  if (opponent === 'machine') body.level = value('level');
  $('error').hidden = true;
  $('name').removeAttribute('aria-invalid');
  let name = null;
  for (const f of [$('rating-min'), $('rating-max')]) f.removeAttribute('aria-invalid');
  if (opponent === 'online') {
    name = me ? me.username : cleanName($('name').value);
    if (!name) return fail(t('new.nameRequired'), $('name'));
    if (!me) saveName(name);
    body.name = name;
    body.time_control = value('tc');
    const rated = !!me && !$('rated-set').hidden && $('rated').checked;
    if (game === 'nsolo') body.team_size = rated ? 1 : +value('team');
    if (rated) {
      body.rated = true;
      const bound = (f) => (f.value.trim() === '' ? null : Math.round(+f.value));
      const [lo, hi] = [bound($('rating-min')), bound($('rating-max'))];
      for (const [v, f] of [[lo, $('rating-min')], [hi, $('rating-max')]]) {
        if (v !== null && !(v >= 0 && v <= 4000)) return fail(t('new.rangeBad'), f);
      }
      if (lo !== null && hi !== null && lo > hi) return fail(t('new.rangeBad'), $('rating-min'));
      if (lo !== null) body.rating_min = lo;
      if (hi !== null) body.rating_max = hi;
    }
  }
  const btn = $('start');
  btn.disabled = true;
  btn.textContent = t('new.starting');
  try {
    if (opponent !== 'online' && $('offline').checked) return location.assign(await offline(body));
    const r = await createGame(body);
    saveSeat(r.id, r.seat, r.side, name ? { name, index: 0 } : {});
    location.assign(`/partie/${encodeURIComponent(r.id)}`);
  } catch (err) {
    // The server out of reach: a game against the machine or on one screen
    // is played in this browser instead.
    if (err.code === 'network' && opponent !== 'online') {
      try {
        $('error').textContent = t('new.offlineFallback');
        $('error').hidden = false;
        return location.assign(await offline(body));
      } catch (e) {
        err = e;
      }
    }
    fail(errorText(err));
    btn.disabled = false;
    update();
  }
});

// A game kept in this browser, played against its WebAssembly engine.
async function offline(body) {
  const { createLocalGame } = await import('./transport-local.js');
  return createLocalGame(body);
}
document.addEventListener('langchange', update);

preset();
initI18n().then(update);
signedIn().then((a) => {
  me = a;
  update();
});
update();
