// « Mes parties » (/mes-parties): the games this browser holds a seat in,
// read from the server, and the games played in this browser (IndexedDB,
// local-store.js): those in progress to resume, the finished ones to
// replay. A game the server no longer knows is forgotten; offline, the
// server's games simply do not show.

import { initI18n, t } from './i18n.js';
import * as api from './api.js';
import { el } from './online.js';
import { describe, inProgress, readSeat } from './mygames.js';
import * as store from './local-store.js';

const $ = (id) => document.getElementById(id);
const MAX = 60;
let games = [];

function href(g, live) {
  const id = encodeURIComponent(g.id);
  // A game finished offline and sent as a record is replayed from the server.
  if (g.local && g.synced && !live) return `/parties/${encodeURIComponent(g.synced)}`;
  if (g.local) return live ? `/partie-locale?id=${id}` : `/partie-locale/revoir?id=${id}`;
  return live ? `/partie/${id}` : `/parties/${id}`;
}

function row(g) {
  const d = describe(g.state);
  const live = inProgress(g.state);
  const title = g.local ? `${d.title} · ${t('game.offline')}` : d.title;
  const forget = el('button', { type: 'button', class: 'btn small', 'data-forget': g.id, text: t('mine.forget') });
  forget.addEventListener('click', () => {
    if (g.local) store.remove(g.id).catch(() => {});
    else api.forgetSeat(g.id);
    games = games.filter((x) => x.id !== g.id);
    render();
  });
  const attrs = { class: 'mine-item card', 'data-id': g.id };
  if (g.local) attrs['data-local'] = '1';
  return el('li', attrs,
    el('div', { class: 'mine-what' },
      el('strong', { text: title }),
      el('span', { class: 'hint', text: d.line })),
    el('div', { class: 'mine-acts' },
      el('a', { class: `btn small${live ? ' primary' : ''}`, href: href(g, live), text: t(live ? 'mine.resume' : 'mine.replay') }),
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
  const [read, here] = await Promise.all([Promise.all(seats.map(readSeat)), store.summaries()]);
  games = [...here, ...read.filter(Boolean)];
  $('loading').hidden = true;
  render();
}

document.addEventListener('langchange', render);
initI18n().then(load);
