// « Mes parties » (/mes-parties): the games this browser holds a seat in,
// read from the server: those in progress to resume, the finished ones to
// replay. A game the server no longer knows is forgotten.

import { initI18n, t } from './i18n.js';
import * as api from './api.js';
import { el } from './online.js';
import { describe, inProgress, readSeat } from './mygames.js';

const $ = (id) => document.getElementById(id);
const MAX = 60;
let games = [];

function row(g) {
  const d = describe(g.state);
  const live = inProgress(g.state);
  const href = live ? `/partie/${encodeURIComponent(g.id)}` : `/parties/${encodeURIComponent(g.id)}`;
  const forget = el('button', { type: 'button', class: 'btn small', 'data-forget': g.id, text: t('mine.forget') });
  forget.addEventListener('click', () => {
    api.forgetSeat(g.id);
    games = games.filter((x) => x.id !== g.id);
    render();
  });
  return el('li', { class: 'mine-item card', 'data-id': g.id },
    el('div', { class: 'mine-what' },
      el('strong', { text: d.title }),
      el('span', { class: 'hint', text: d.line })),
    el('div', { class: 'mine-acts' },
      el('a', { class: `btn small${live ? ' primary' : ''}`, href, text: t(live ? 'mine.resume' : 'mine.replay') }),
      forget));
}

function render() {
  const live = games.filter((g) => inProgress(g.state));
  const done = games.filter((g) => !inProgress(g.state));
  $('mine-live').replaceChildren(...live.map(row));
  $('mine-done').replaceChildren(...done.map(row));
  $('live-section').hidden = !live.length;
  $('done-section').hidden = !done.length;
  $('empty').hidden = games.length > 0;
}

async function load() {
  const seats = api.mySeats().slice(0, MAX);
  const read = await Promise.all(seats.map(readSeat));
  games = read.filter(Boolean);
  $('loading').hidden = true;
  render();
}

document.addEventListener('langchange', render);
initI18n().then(load);
