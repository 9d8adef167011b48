// « Mes parties » (/mes-parties): the games this browser holds a seat in,
// read from the server, the games played in this browser (IndexedDB,
// local-store.js) and, signed in, the account's games from any device
// (GET /api/account/games), each once: those in progress to resume, the
// finished ones to replay. A game the server no longer knows is forgotten;
// offline, the server's games simply do not show.

import { initI18n, t } from './i18n.js';
import * as api from './api.js';
import { el, gameLabel, resultText } from './online.js';
import { signedIn } from './account-menu.js';
import { describe, inProgress, readSeat } from './mygames.js';
import * as store from './local-store.js';

const $ = (id) => document.getElementById(id);
const MAX = 60;
// The account's games in progress read in full (the others are shown from the list).
const LIVE_READS = 12;
let games = [];
let me = null;

function href(g, live) {
  const id = encodeURIComponent(g.id);
  // A game finished offline and sent as a record is replayed from the server.
  if (g.local && g.synced && !live) return `/parties/${encodeURIComponent(g.synced)}`;
  if (g.local) return live ? `/partie-locale?id=${id}` : `/partie-locale/revoir?id=${id}`;
  return live ? `/partie/${id}` : `/parties/${id}`;
}

// An account's finished game, in words, from its listing: who it was
// against and how it ended for the account.
function describeListed(l) {
  const side = Object.keys(l.players || {}).find((k) => (l.players[k] || []).includes(me.username));
  const others = Object.keys(l.players || {}).filter((k) => k !== side).flatMap((k) => l.players[k] || []);
  const against = l.opponent === 'machine' ? t('mine.vsMachine') : l.opponent === 'online'
    ? (others.length ? t('mine.against', { names: others.join(', ') }) : t('game.online')) : t('game.local');
  const r = resultText(l.result);
  let word = r.word;
  if (l.opponent !== 'local' && side && l.result && l.result.reason !== 'aborted') {
    word = !l.result.winner ? t('end.draw') : l.result.winner === side ? t('player.win') : t('player.loss');
  }
  return { title: `${gameLabel(l)} · ${against}`, line: `${t('moves.turns', { n: Math.ceil((l.moves || 0) / 2) })} · ${word}` };
}

function row(g) {
  const d = g.state ? describe(g.state) : describeListed(g.listed);
  const live = g.state ? inProgress(g.state) : false;
  const title = g.local ? `${d.title} · ${t('game.offline')}` : d.title;
  const rated = g.state?.rated || g.listed?.rated;
  // Kept by the account, not by this browser: nothing to forget here.
  const forget = g.account ? null : el('button', { type: 'button', class: 'btn small', 'data-forget': g.id, text: t('mine.forget') });
  forget?.addEventListener('click', () => {
    if (g.local) store.remove(g.id).catch(() => {});
    else api.forgetSeat(g.id);
    games = games.filter((x) => x.id !== g.id);
    render();
  });
  const attrs = { class: 'mine-item card', 'data-id': g.id };
  if (g.local) attrs['data-local'] = '1';
  if (g.account) attrs['data-account'] = '1';
  return el('li', attrs,
    el('div', { class: 'mine-what' },
      el('strong', {}, title, rated ? el('span', { class: 'rated-badge', text: t('rated.mark') }) : null),
      el('span', { class: 'hint', text: d.line })),
    el('div', { class: 'mine-acts' },
      el('a', { class: `btn small${live ? ' primary' : ''}`, href: href(g, live), text: t(live ? 'mine.resume' : 'mine.replay') }),
      forget));
}

const isLive = (g) => (g.state ? inProgress(g.state) : false);

function render() {
  const live = games.filter(isLive);
  const done = games.filter((g) => !isLive(g));
  $('mine-live').replaceChildren(...live.map(row));
  $('mine-done').replaceChildren(...done.map(row));
  $('live-section').hidden = !live.length;
  $('done-section').hidden = !done.length;
  $('empty').hidden = games.length > 0;
  if (me) $('lead').textContent = t('mine.leadAccount', { name: me.username });
}

// The account's games this browser does not already list: those in progress
// read in full (to resume), the finished ones as listed.
async function accountGames(known) {
  if (!me) return [];
  let list = [];
  try {
    list = await api.accountGames();
  } catch {
    return [];
  }
  const fresh = list.filter((l) => !known.has(l.id));
  const over = (l) => l.status === 'finished' || l.status === 'damaged' || !!l.result;
  const reading = fresh.filter((l) => !over(l)).slice(0, LIVE_READS);
  const read = await Promise.all(reading.map((l) => api.getGame(l.id).then((state) => ({ id: l.id, state, account: true }), () => null)));
  const done = fresh.filter(over).map((l) => ({ id: l.id, listed: l, account: true }));
  return [...read.filter(Boolean), ...done];
}

async function load() {
  const seats = api.mySeats().slice(0, MAX);
  const [read, here, who] = await Promise.all([Promise.all(seats.map(readSeat)), store.summaries(), signedIn()]);
  me = who;
  games = [...here, ...read.filter(Boolean)];
  const known = new Set(games.flatMap((g) => [g.id, g.synced].filter(Boolean)));
  games.push(...(await accountGames(known)));
  $('loading').hidden = true;
  render();
}

document.addEventListener('langchange', render);
initI18n().then(load);
