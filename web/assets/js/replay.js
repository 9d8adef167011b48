// Replay page (/parties/<id>): the frames of a game in the viewer, with a
// link to export its record as text, and « Analyser » (analysis.js): the
// browser's engine judges its moves. /partie-locale/revoir?id=<id> is the
// same page for a game kept in this browser: its frames come from the
// engine, offline too, and there is no export.

import { initI18n, t } from './i18n.js';
import * as api from './api.js';
import { errorText } from './errors.js';
import { Viewer } from './viewer.js';
import { gameLabel } from './online.js';
import { mountAnalysis } from './analysis.js';

const $ = (id) => document.getElementById(id);
const local = /^\/(partie-locale|local-game)\//.test(location.pathname);
const id = local
  ? new URLSearchParams(location.search).get('id') || ''
  : decodeURIComponent(location.pathname.replace(/\/+$/, '').split('/').pop());
let viewer = null;
let data = null;
let analysis = null;

function heading() {
  if (!data) return;
  const name = gameLabel(data);
  $('replay-h1').textContent = t('replay.h1game', { game: name });
  document.title = `${name} · ${t('replay.title')}`;
}

// The frames hold positions only: how the game ended goes on the last one,
// where the viewer says it (« Victoire des Rouges — … »).
function withResult(replay, result) {
  const last = replay.frames?.[replay.frames.length - 1];
  if (last && result) last.result = result;
  return replay;
}

// A game of this browser's: its frames from the engine, as the server's replay.
async function localReplay() {
  const [store, engine] = await Promise.all([import('./local-store.js'), import('./engine-client.js')]);
  const entry = await store.get(id);
  if (!entry) throw new api.ApiError('not_found', '', 404);
  return withResult(await engine.call('frames', [entry.game]), entry.state?.result);
}

// A game of the server's: its frames, and its result from the game's state.
async function serverReplay() {
  const [replay, state] = await Promise.all([api.replay(id), api.getGame(id).catch(() => null)]);
  return withResult(replay, state?.result);
}

async function start() {
  await initI18n();
  $('export').href = api.exportUrl(id);
  $('export').setAttribute('download', `palabre-${id}.txt`);
  $('export').hidden = local;
  $('to-game').href = local ? `/partie-locale?id=${encodeURIComponent(id)}` : `/partie/${encodeURIComponent(id)}`;
  try {
    data = await (local ? localReplay() : serverReplay());
    viewer = new Viewer($('viewer'), data);
    heading();
    analysis = mountAnalysis($('viewer'), id, data, viewer);
  } catch (e) {
    $('error').textContent = errorText(e);
    $('error').hidden = false;
    $('export').hidden = true;
  } finally {
    $('loading').hidden = true;
  }
}

document.addEventListener('langchange', () => {
  heading();
  viewer?.labels();
  analysis?.labels();
});
start();
