// Home page: the language, and « Reprendre la partie » when this browser has
// an unfinished game against the machine or on one screen (a tab closed
// mid-game loses nothing: the game lives on the server).

import { initI18n } from './i18n.js';
import * as api from './api.js';
import { describe, inProgress, readSeat } from './mygames.js';

const $ = (id) => document.getElementById(id);
const LOOK = 8; // the newest seats worth a request each
let found = null;

function render() {
  if (!found) return;
  const d = describe(found.state);
  $('resume-what').textContent = `${d.title} — ${d.line}`;
  $('resume-go').href = `/partie/${encodeURIComponent(found.id)}`;
  $('resume').hidden = false;
}

async function lookForUnfinished() {
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

