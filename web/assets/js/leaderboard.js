// Leaderboards (/classement): one tab per pool (Yoté, Nsolo 4×8, the large
// Nsolo boards), each a table of rank, player (to the profile, « BOT » for
// a program), rating and rated games. The tab shown is in the address
// (?jeu=nsolo8) and the arrow keys move between tabs. The reader's own line
// stands out.

import { initI18n, t } from './i18n.js';
import * as api from './api.js';
import { errorText } from './errors.js';
import { el } from './online.js';
import { signedIn, profilePath } from './account-menu.js';

const $ = (id) => document.getElementById(id);
const POOLS = ['yote', 'nsolo8', 'nsolo'];
let boards = null;
let me = null;
let pool = POOLS.includes(new URLSearchParams(location.search).get('jeu')) ? new URLSearchParams(location.search).get('jeu') : 'yote';

function table(players) {
  const mine = me && me.username.toLowerCase();
  const rows = players.map((p) => el('tr', { class: p.username.toLowerCase() === mine ? 'me' : null, 'data-player': p.username },
    el('td', { class: 'num rank', text: String(p.rank) }),
    el('td', { class: 'who' },
      el('a', { href: profilePath(p.username), text: p.username }),
      p.bot ? el('span', { class: 'bot-badge', title: t('player.botTitle'), text: 'BOT' }) : null),
    el('td', { class: 'num rating' },
      el('strong', { text: String(Math.round(p.rating)) }),
      el('span', { class: 'dev', text: ` ± ${Math.round(p.deviation)}` })),
    el('td', { class: 'num n-games', text: String(p.games) })));
  return el('div', { class: 'table-wrap' },
    el('table', { class: 'records-table board-table' },
      el('thead', {}, el('tr', {},
        el('th', { class: 'num', scope: 'col', text: t('board.rank') }),
        el('th', { scope: 'col', text: t('board.player') }),
        el('th', { class: 'num', scope: 'col', text: t('board.rating') }),
        el('th', { class: 'num', scope: 'col', text: t('board.games') }))),
      el('tbody', {}, ...rows)));
}

function render() {
  for (const tab of document.querySelectorAll('[role="tab"]')) {
    const on = tab.dataset.pool === pool;
    tab.setAttribute('aria-selected', String(on));
    tab.tabIndex = on ? 0 : -1;
  }
  for (const p of POOLS) {
    const panel = $(`panel-${p}`);
    panel.hidden = !boards || p !== pool;
    if (!boards) continue;
    const players = boards[p]?.players || [];
    panel.replaceChildren(players.length ? table(players) : el('p', { class: 'empty', text: t('board.empty') }));
  }
}

function select(p, focus = false) {
  pool = p;
  const q = new URLSearchParams(location.search);
  q.set('jeu', p);
  history.replaceState(history.state, '', `${location.pathname}?${q}`);
  render();
  if (focus) $(`tab-${p}`).focus();
}

$('tabs').addEventListener('click', (e) => {
  const tab = e.target.closest('[role="tab"]');
  if (tab) select(tab.dataset.pool);
});
$('tabs').addEventListener('keydown', (e) => {
  const i = POOLS.indexOf(pool);
  const to = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: POOLS.length - 1 }[e.key];
  if (to === undefined) return;
  e.preventDefault();
  select(POOLS[(to + POOLS.length) % POOLS.length], true);
});

async function load() {
  try {
    [boards, me] = await Promise.all([api.leaderboards(), signedIn()]);
    $('error').hidden = true;
  } catch (e) {
    $('error').textContent = errorText(e);
    $('error').hidden = false;
  }
  $('loading').hidden = true;
  render();
  document.body.dataset.ready = '1';
}

document.addEventListener('langchange', render);
render();
initI18n().then(load);
