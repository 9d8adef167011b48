// The transport (transport.js) of a game that lives in this browser: the
// engine's worker (engine-client.js) is its one owner, applying each action
// to the record, and IndexedDB (local-store.js) keeps the record. Actions
// run one at a time, in order; the machine's reply arrives as a pushed
// state, as it does from the server's socket.

import { ApiError } from './api.js';
import { call } from './engine-client.js';
import * as store from './local-store.js';

const pageOf = (id) => `/partie-locale?id=${encodeURIComponent(id)}`;

/** Creates a local game from the new-game form's body; resolves to its page. */
export async function createLocalGame(body) {
  const id = store.newId();
  const seed = crypto.getRandomValues(new Uint32Array(1))[0];
  const r = await call('create', [{ ...body, id, seed }]);
  await store.save(r.game, r.state);
  return pageOf(id);
}

/** @returns {import('./transport.js').Transport} */
export function createLocalTransport(id) {
  let game = null; // the record, as last stored
  let handlers = null;
  let thinking = false; // the machine was to move when the game was read
  let chain = Promise.resolve();
  const me = { seat: 'local' };

  // One action at a time: each starts from the record the previous left.
  function serial(fn) {
    const run = chain.then(fn);
    chain = run.catch(() => {});
    return run;
  }

  async function keep(answer) {
    game = answer.game;
    await store.save(game, answer.state);
    // A finished game goes to the server as a record if it can be reached.
    if (answer.state.result) import('./record-sync.js').then((m) => m.syncRecords()).catch(() => {});
    return answer.state;
  }

  async function act(op, ...args) {
    const state = await serial(async () => keep(await call(op, [game, ...args])));
    if (state.thinking) replyLater();
    return state;
  }

  // The machine's move, pushed to the page when it is found.
  function replyLater() {
    serial(async () => {
      const answer = await call('reply', [game]);
      if (!answer.move) return;
      const state = await keep(answer);
      handlers?.onState(state, 'event');
    }).catch(() => {});
  }

  return {
    kind: 'local',
    id,
    me: () => me,
    async read() {
      // No id (/partie-locale alone) names no game either, not a failure.
      const entry = id ? await store.get(id) : null;
      if (!entry) throw new ApiError('not_found', 'no such game in this browser', 404);
      game = entry.game;
      const { state } = await call('state', [game]);
      thinking = state.thinking;
      me.side = Object.keys(state.players).find((side) => state.players[side] === 'human');
      return state;
    },
    connect(h) {
      handlers = h;
      h.onStatus('open');
      if (thinking) replyLater();
    },
    play: (seat, move, ply) => act('play', move, ply),
    hint: () => serial(() => call('hint', [game])),
    takeback: () => act('takeback'),
    draw: (seat, action) => act('draw', action),
    resign: (seat, body) => act('resign', body?.side ?? null),
    replay: () => serial(() => call('frames', [game])),
    newGame: (body) => createLocalGame(body),
    // No address to share or export: the replay (and its analysis) is
    // this browser's own page.
    links: () => ({ replay: `/partie-locale/revoir?id=${encodeURIComponent(id)}` }),
  };
}
