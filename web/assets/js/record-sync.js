// Sends the games finished offline in this browser to the server as
// records (POST /api/records, docs/offline.md) once the network is back:
// they are then listed, replayed, exported and analysed like the others.
// Each entry remembers the server's id; the server stores one game per
// browser game even if an answer is lost and the upload is sent again.

import * as api from './api.js';
import * as store from './local-store.js';

let running = null;

/** The upload's body for a stored entry. */
function bodyOf(entry) {
  const g = entry.game;
  const body = { client_id: g.id, game: g.game, size: g.size, moves: g.moves, opponent: g.opponent };
  if (g.opponent === 'machine') {
    body.level = g.level;
    body.human = Object.keys(entry.state.players).find((side) => entry.state.players[side] === 'human');
  }
  if (g.ended) body.ended = g.ended;
  return body;
}

async function sendAll() {
  let entries;
  try {
    entries = await store.list();
  } catch {
    return 0; // no IndexedDB here
  }
  let sent = 0;
  for (const entry of entries) {
    if (!entry.finished || entry.synced || entry.refused) continue;
    try {
      const r = await api.uploadRecord(bodyOf(entry));
      await store.mark(entry.id, { synced: r.id });
      sent++;
    } catch (e) {
      // Offline again, or the server busy: the next visit tries again. A
      // record the server refuses is not sent again and again.
      if (e.status === 400) await store.mark(entry.id, { refused: e.code });
      if (e.code === 'network' || e.status === 429 || e.status >= 500) break;
    }
  }
  return sent;
}

/** Sends what is waiting, once at a time; resolves to the number sent. */
export function syncRecords() {
  if (!navigator.onLine) return Promise.resolve(0);
  running ??= sendAll().finally(() => (running = null));
  return running;
}
