// New game: choose the game, the opponent, the level, the side and (Nsolo)
// the board size; online, also the name, the time control and (Nsolo) the
// players per side. Create the game and go to it.

import { initI18n, t, has } from './i18n.js';
import { createGame, saveSeat, loadName, saveName, cleanName } from './api.js';
import { errorText } from './errors.js';

const form = document.getElementById('new-form');
const $ = (id) => document.getElementById(id);
const SIDES = { yote: ['red', 'black'], nsolo: ['south', 'north'] };
const LEVELS = ['debutant', 'intermediaire', 'confirme', 'expert'];

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
  $('team-set').hidden = !online || game !== 'nsolo';
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
  if (opponent === 'online') {
    name = cleanName($('name').value);
    if (!name) return fail(t('new.nameRequired'), $('name'));
    saveName(name);
    body.name = name;
    body.time_control = value('tc');
    if (game === 'nsolo') body.team_size = +value('team');
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
update();
