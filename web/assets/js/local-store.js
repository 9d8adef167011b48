// The games that live in this browser, in IndexedDB: each entry is a game's
// record as the engine reads it (`game`), a summary of its last state for
// the lists (`state`: what « Mes parties » describes without the engine),
// when it began and changed, and whether a finished game was sent to the
// server as a record.

const DB = 'palabre';
const STORE = 'local-games';
let opened = null;

function open() {
  opened ??= new Promise((resolve, reject) => {
    const req = indexedDB.open(DB, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE, { keyPath: 'id' });
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
  return opened;
}

async function run(mode, fn) {
  const db = await open();
  return new Promise((resolve, reject) => {
    const tx = db.transaction(STORE, mode);
    const req = fn(tx.objectStore(STORE));
    tx.oncomplete = () => resolve(req && req.result);
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error);
  });
}

/** The entry of game `id`, or undefined. */
export const get = (id) => run('readonly', (s) => s.get(id));

/** Every entry, newest change first. */
export async function list() {
  const all = (await run('readonly', (s) => s.getAll())) || [];
  return all.sort((a, b) => b.updated - a.updated);
}

const SUMMARY = ['id', 'local', 'game', 'size', 'opponent', 'level', 'players', 'ply', 'turn', 'result', 'status'];

/** Stores game record `game` with the summary of its `state`. */
export async function save(game, state, extra = {}) {
  const old = await get(game.id);
  const now = Date.now();
  const summary = Object.fromEntries(SUMMARY.map((k) => [k, state[k]]));
  const entry = { ...old, ...extra, id: game.id, game, state: summary, finished: !!state.result, created: old?.created ?? now, updated: now };
  await run('readwrite', (s) => s.put(entry));
  return entry;
}

/** The games as the lists show them ({id, local, state, updated, synced}),
 * newest first; none where IndexedDB is refused (a private window). */
export async function summaries() {
  try {
    return (await list())
      .filter((e) => e.state)
      .map((e) => ({ id: e.id, local: true, state: e.state, updated: e.updated, synced: e.synced }));
  } catch {
    return [];
  }
}

/** Adds `fields` to entry `id` (what the upload learned). */
export async function mark(id, fields) {
  const old = await get(id);
  if (old) await run('readwrite', (s) => s.put({ ...old, ...fields }));
}

export const remove = (id) => run('readwrite', (s) => s.delete(id));

/** A new game id: `L` and 10 random letters or digits. */
export function newId() {
  const abc = 'abcdefghijkmnpqrstuvwxyz23456789';
  const bytes = crypto.getRandomValues(new Uint8Array(10));
  return `L${Array.from(bytes, (b) => abc[b % abc.length]).join('')}`;
}
