// Home page: the language, and « Reprendre la partie » when this browser has
// an unfinished game against the machine or on one screen (a tab closed
// mid-game loses nothing: the game lives on the server, or in this browser's
// own store for a game played offline, which is looked at first: offline,
// the server's games cannot be read).

import { initI18n } from './i18n.js';
import * as api from './api.js';
import { describe, inProgress, readSeat } from './mygames.js';
import * as store from './local-store.js';

const $ = (id) => document.getElementById(id);
const LOOK = 8; // the newest seats worth a request each
let found = null;

function render() {
  if (!found) return;
  const d = describe(found.state);
  $('resume-what').textContent = `${d.title} — ${d.line}`;
  const id = encodeURIComponent(found.id);
  $('resume-go').href = found.local ? `/partie-locale?id=${id}` : `/partie/${id}`;
  $('resume').hidden = false;
}

async function lookForUnfinished() {
  found = (await store.summaries()).find((g) => inProgress(g.state)) || null;
  if (found) return render();
  for (const s of api.mySeats().slice(0, LOOK)) {
    const g = await readSeat(s);
    if (g && inProgress(g.state) && g.state.opponent !== 'online') {
      found = g;
      break;
    }
  }
  render();
}

document.addEventListener('langchange', render);
initI18n().then(lookForUnfinished);

