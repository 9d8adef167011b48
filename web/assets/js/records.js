// Records (/parties): the finished games, each to replay; and an import box
// where an exported game's text is pasted and shown in the viewer (nothing
// is stored).

import { initI18n, t, currentLang } from './i18n.js';
import * as api from './api.js';
import { errorText, importErrorText } from './errors.js';
import { Viewer } from './viewer.js';
import { mountAnalysis } from './analysis.js';
import { SIDES, gameLabel, names, resultText, el } from './online.js';

const $ = (id) => document.getElementById(id);
let list = null;
let viewer = null;
let analysis = null; // of the imported record

// `ended_at`: Unix seconds, milliseconds or an ISO date.
function when(at) {
  if (at == null || at === '') return '';
  const d = new Date(typeof at === 'number' && at < 1e12 ? at * 1000 : at);
  if (Number.isNaN(+d)) return String(at);
  return d.toLocaleString(currentLang(), { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' });
}

function render() {
  if (!list) return;
  const body = $('records');
  body.textContent = '';
  for (const g of list) {
    const r = resultText(g.result);
    const players = el('td', { class: 'players' });
    for (const side of SIDES[g.game] || Object.keys(g.players || {})) {
      players.append(el('div', { class: `side-line${g.result && g.result.winner === side ? ' won' : ''}` },
        el('span', { class: `swatch-dot ${side}`, 'aria-hidden': 'true' }),
        el('span', { text: `${t(`side.${side}`)} : ${names(g.players && g.players[side], 'records.player')}` })));
    }
    body.append(el('tr', { 'data-id': g.id },
      el('td', { class: 'game', text: gameLabel(g) }),
      players,
      el('td', { class: 'result' }, el('strong', { text: r.word }), r.reason ? el('div', { class: 'hint', text: r.reason }) : null),
      el('td', { class: 'num', text: t('moves.turns', { n: Math.ceil((g.moves ?? 0) / 2) }) }),
      el('td', { class: 'date', text: when(g.ended_at) }),
      el('td', {}, el('a', { class: 'btn small', href: `/parties/${encodeURIComponent(g.id)}`, text: t('records.view') }))));
  }
  $('table-wrap').hidden = !list.length;
  $('empty').hidden = list.length > 0;
}

async function load() {
  try {
    list = await api.records();
    $('error').hidden = true;
    render();
  } catch (e) {
    $('error').textContent = errorText(e);
    $('error').hidden = false;
  }
}

$('import-form').addEventListener('submit', async (e) => {
  e.preventDefault();
  const text = $('import-text').value.trim();
  const err = $('import-error');
  err.hidden = true;
  $('import-text').removeAttribute('aria-invalid');
  if (!text) {
    err.textContent = t('records.importEmpty');
    err.hidden = false;
    $('import-text').setAttribute('aria-invalid', 'true');
    $('import-text').focus();
    return;
  }
  const btn = $('import-btn');
  btn.disabled = true;
  try {
    const data = await api.importText(text);
    $('import-view').hidden = false;
    viewer = new Viewer($('import-view'), data);
    analysis = mountAnalysis($('import-view'), 'import', data, viewer);
    $('import-view').scrollIntoView({ block: 'start', behavior: matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth' });
    viewer.root.focus({ preventScroll: true });
  } catch (e2) {
    // The server says which move it could not play, and why: word it.
    err.textContent = `${t('records.importFailed')} ${importErrorText(e2)}`;
    err.hidden = false;
  } finally {
    btn.disabled = false;
  }
});

document.addEventListener('langchange', () => {
  render();
  viewer?.labels();
  analysis?.labels();
});
initI18n().then(load);
