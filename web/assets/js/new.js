// New game: choose the game, the opponent, the level, the side and (Nsolo)
// the board size; create the game and go to it.

import { initI18n, t, has } from './i18n.js';
import { createGame, saveSeat } from './api.js';

const form = document.getElementById('new-form');
const $ = (id) => document.getElementById(id);
const SIDES = { yote: ['red', 'black'], nsolo: ['south', 'north'] };
const LEVELS = ['debutant', 'intermediaire', 'confirme', 'expert'];

function value(name) {
  return form.querySelector(`input[name="${name}"]:checked`)?.value;
}

function update() {
  const game = value('game');
  const local = value('opponent') === 'local';
  $('level-set').hidden = local;
  $('side-set').hidden = local;
  $('size-set').hidden = game !== 'nsolo';
  const [a, b] = SIDES[game];
  $('side-first').dataset.i18n = `side.${a}`;
  $('side-second').dataset.i18n = `side.${b}`;
  if (has(`side.${a}`)) {
    $('side-first').textContent = t(`side.${a}`);
    $('side-second').textContent = t(`side.${b}`);
  }
  form.dataset.game = game;
  $('size-out').textContent = `4 × ${$('size').value}`;
}

function preset() {
  const q = new URLSearchParams(location.search);
  const game = q.get('jeu');
  if (game in SIDES) form.querySelector(`input[name="game"][value="${game}"]`).checked = true;
  const level = q.get('niveau');
  if (LEVELS.includes(level)) form.querySelector(`input[name="level"][value="${level}"]`).checked = true;
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
  if (opponent === 'machine') {
    body.level = value('level');
    body.side = s === 'random' ? 'random' : SIDES[game][s === 'first' ? 0 : 1];
  }
  const btn = $('start');
  btn.disabled = true;
  btn.textContent = t('new.starting');
  $('error').hidden = true;
  try {
    const r = await createGame(body);
    saveSeat(r.id, r.seat, r.side);
    location.assign(`/partie/${encodeURIComponent(r.id)}`);
  } catch (err) {
    $('error').textContent = has(`error.${err.code}`) ? t(`error.${err.code}`) : err.message;
    $('error').hidden = false;
    btn.disabled = false;
    btn.textContent = t('new.start');
  }
});
document.addEventListener('langchange', update);

preset();
initI18n().then(update);
update();
