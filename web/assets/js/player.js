// A player's profile (/joueur/{name}): the name (with « BOT » for a
// program), the rating in each pool with its deviation, games and results,
// the rating history drawn by rating-chart.js, and the recent online games
// from the player's side, each to replay or to watch. An unknown name says
// « Joueur introuvable ». A bot's profile offers to challenge it
// (bot-challenge.js).

import { initI18n, t, currentLang, localPath } from './i18n.js';
import * as api from './api.js';
import { errorText } from './errors.js';
import { SIDES, gameLabel, el } from './online.js';
import { signedIn, profilePath } from './account-menu.js';
import { RatingChart } from './rating-chart.js';
import { renderChallenge } from './bot-challenge.js';

const $ = (id) => document.getElementById(id);
const POOLS = ['yote', 'nsolo8', 'nsolo'];
const name = decodeURIComponent(location.pathname.replace(/\/+$/, '').split('/').pop() || '');
let data = null;
let me = null;
let chart = null;

const poolLabel = (pool) => (pool === 'yote' ? 'Yoté' : t(`pool.${pool}`));
const round = (x) => Math.round(Number(x) || 0);
// A rating known well enough to be on a leaderboard (players.rs).
const settled = (r) => r.games >= 10 && r.deviation < 110;

function day(at) {
  if (!at) return '';
  const d = new Date(typeof at === 'number' && at < 1e12 ? at * 1000 : at);
  return Number.isNaN(+d) ? '' : d.toLocaleDateString(currentLang(), { day: 'numeric', month: 'short', year: 'numeric' });
}

function poolCard(pool) {
  const r = data.ratings?.[pool] || { rating: 1500, deviation: 350, games: 0 };
  const res = data.results?.[pool] || { wins: 0, draws: 0, losses: 0 };
  const card = el('article', { class: `card pool-card${r.games ? '' : ' none'}`, 'data-pool': pool },
    el('h3', {}, el('a', { href: `${localPath('/classement')}?jeu=${pool}`, text: poolLabel(pool) })));
  if (!r.games) {
    card.append(el('p', { class: 'pool-none', text: t('player.unrated') }));
    return card;
  }
  card.append(
    el('p', { class: 'pool-rating' },
      el('strong', { 'data-rating': round(r.rating), text: String(round(r.rating)) }),
      el('span', { class: 'pool-dev', title: t('player.deviation'), text: `± ${round(r.deviation)}` })),
    el('p', { class: 'pool-games', text: t('player.gamesN', { n: r.games }) + (settled(r) ? '' : ` · ${t('player.provisional')}`) }),
    el('p', { class: 'pool-results' },
      el('span', { class: 'w', text: t('player.wins', { n: res.wins }) }), ' · ',
      el('span', { class: 'd', text: t('player.draws', { n: res.draws }) }), ' · ',
      el('span', { class: 'l', text: t('player.losses', { n: res.losses }) })));
  return card;
}

// The player's side in a listed game, by name.
function sideOf(g) {
  const key = data.username.toLowerCase();
  return (SIDES[g.game] || []).find((s) => (g.players?.[s] || []).some((n) => String(n).toLowerCase() === key)) || null;
}

function outcome(g, side) {
  const over = g.status === 'finished' || !!g.result;
  if (!over) return { key: g.status === 'waiting' ? 'player.waiting' : 'player.inPlay', cls: 'live' };
  const r = g.result || {};
  if (!r.reason || r.reason === 'aborted') return { key: 'end.aborted', cls: 'aborted' };
  if (!r.winner) return { key: 'player.draw', cls: 'draw' };
  return r.winner === side ? { key: 'player.win', cls: 'win' } : { key: 'player.loss', cls: 'loss' };
}

function gameRow(g) {
  const side = sideOf(g);
  const opp = (SIDES[g.game] || []).filter((s) => s !== side).flatMap((s) => g.players?.[s] || []);
  const who = el('td', { class: 'opponent' });
  opp.forEach((n, i) => {
    if (i) who.append(', ');
    // Both players of a rated game are accounts: their names lead to their profiles.
    who.append(g.rated ? el('a', { href: profilePath(n), text: n }) : el('span', { text: n }));
  });
  if (!opp.length) who.append(el('span', { class: 'hint', text: t('online.nobody') }));
  const o = outcome(g, side);
  const live = o.cls === 'live';
  const id = encodeURIComponent(g.id);
  return el('tr', { 'data-id': g.id },
    el('td', { class: 'game' }, el('span', { text: gameLabel(g) }), g.rated ? el('span', { class: 'rated-badge', text: t('rated.mark') }) : null),
    who,
    el('td', { class: `result ${o.cls}` }, el('strong', { text: t(o.key) })),
    el('td', { class: 'num', text: t('moves.turns', { n: Math.ceil((g.moves ?? 0) / 2) }) }),
    el('td', { class: 'date', text: day(g.ended_at) }),
    el('td', {}, el('a', { class: 'btn small', href: live ? `/partie/${id}` : `/parties/${id}`, text: t(live ? 'player.watch' : 'records.view') })));
}

// One pool's points in the order they were played: a game's rating minus
// its change is the rating after the game before. Points of the same second
// may come in any order; when the changes do not link them all up, they are
// taken by time alone.
function chained(points) {
  const near = (a, b) => Math.abs(a - b) < 0.01;
  const left = [...points];
  const out = [];
  let cur = left.find((p) => !left.some((q) => q !== p && near(q.rating, p.rating - p.diff)));
  while (cur) {
    out.push(cur);
    left.splice(left.indexOf(cur), 1);
    const end = cur.rating;
    cur = left.find((p) => near(p.rating - p.diff, end));
  }
  return left.length ? [...points].sort((a, b) => a.at - b.at) : out;
}

function drawChart() {
  const lines = POOLS.map((key) => ({ key, label: poolLabel(key), points: chained(data.history?.[key] || []) }));
  const any = lines.some((l) => l.points.length);
  $('chart-empty').hidden = any;
  $('chart').hidden = !any;
  if (!any) return;
  const words = {
    axis: (n, narrow) => t(narrow ? 'chart.axisShort' : 'chart.axis'),
    point: (l, p) => t('chart.point', { pool: l.label, rating: round(p.rating), diff: `${p.diff >= 0 ? '+' : '−'}${Math.abs(round(p.diff))}`, date: day(p.at) }),
    summary: (ls) => `${t('player.chart')}. ${ls.filter((l) => l.points.length).map((l) => t('chart.summary', {
      pool: l.label, from: round(l.points[0].rating), to: round(l.points[l.points.length - 1].rating), n: l.points.length,
    })).join(' ')}`,
  };
  if (chart) chart.words = words;
  if (chart) chart.set(lines);
  else chart = new RatingChart($('chart-plot'), lines, words);
  $('chart-legend').replaceChildren(...lines.filter((l) => l.points.length).map((l) => el('li', { 'data-pool': l.key },
    el('span', { class: `rc-key rc-${l.key}`, 'aria-hidden': 'true' }), l.label)));
}

function render() {
  if (!data) return;
  document.title = t('player.titleOf', { name: data.username });
  const h = $('player-name');
  h.textContent = data.username;
  if (data.bot) h.append(el('span', { class: 'bot-badge', title: t('player.botTitle'), text: 'BOT' }));
  $('player-since').textContent = data.created_at ? t('player.since', { date: day(data.created_at) }) : '';
  $('own').hidden = !me || me.username !== data.username;
  renderChallenge(data, me);
  $('pools').replaceChildren(...POOLS.map(poolCard));
  drawChart();
  const games = data.games || [];
  $('games').replaceChildren(...games.map(gameRow));
  $('games-wrap').hidden = !games.length;
  $('games-empty').hidden = games.length > 0;
  $('profile').hidden = false;
}

async function load() {
  try {
    [data, me] = await Promise.all([api.user(name), signedIn()]);
  } catch (e) {
    $('loading').hidden = true;
    if (e.code === 'not_found') {
      document.title = t('player.missingTitle');
      $('missing').hidden = false;
      document.body.dataset.missing = '';
      return;
    }
    $('error').textContent = errorText(e);
    $('error').hidden = false;
    return;
  }
  $('loading').hidden = true;
  render();
  document.body.dataset.ready = '1';
}

document.addEventListener('langchange', render);
initI18n().then(load);
