// The transport (transport.js) of a game kept on the server: HTTP requests
// (api.js) for games against the machine and on one screen, the live socket
// (live.js) for pushed states and online play, and a read every few seconds
// while the socket is down.

import * as api from './api.js';
import { Live } from './live.js';

// While the socket is down (a network that refuses WebSockets, a server
// restarting), a game waiting for someone else (the machine's reply,
// another screen's move) is read this often instead.
const POLL_MS = 3000;

const pageOf = (id) => `/partie/${encodeURIComponent(id)}`;

/** @returns {import('./transport.js').Transport} */
export function createServerTransport(id) {
  const saved = api.loadSeat(id);
  let live = null; // the live socket, for every kind of game
  let poller = null;

  function pollWhileLost(lost, h) {
    clearInterval(poller);
    poller = null;
    if (!lost) return;
    poller = setInterval(() => {
      if (!h.waiting() || document.hidden) return;
      api.getGame(id).then((g) => h.onState(g, 'reset'), () => {});
    }, POLL_MS);
  }

  return {
    kind: 'server',
    id,
    me: () => saved,
    read: () => api.getGame(id),
    connect(h) {
      live = new Live(id, {
        seat: saved?.seat || null,
        ply: h.ply,
        onMessage: (msg) => {
          if (msg.type === 'state') return h.onState(msg.state, 'event');
          if (msg.type === 'error' && msg.code === 'wrong_seat' && !live.up) live.seat = null; // watch instead
          h.onMessage(msg);
        },
        onStatus: (status) => {
          h.onStatus(status);
          pollWhileLost(status === 'lost', h);
        },
      });
    },
    get up() {
      return !!live && live.up;
    },
    send: (msg) => !!live && live.send(msg),
    play: (seat, move, ply) => api.playMove(id, seat, move, ply),
    hint: (seat) => api.hint(id, seat),
    takeback: (seat) => api.takeback(id, seat),
    draw: (seat, action) => api.draw(id, seat, action),
    resign: (seat, body) => api.resign(id, seat, body),
    replay: () => api.replay(id),
    async newGame(body) {
      const r = await api.createGame(body);
      api.saveSeat(r.id, r.seat, r.side);
      return pageOf(r.id);
    },
    takeRematch(msg, { side, name }) {
      api.saveSeat(msg.id, msg.seat, side, { name: name || api.loadName() });
      return pageOf(msg.id);
    },
    links: () => ({
      page: pageOf(id),
      invite: `${pageOf(id)}/rejoindre`,
      replay: `/parties/${encodeURIComponent(id)}`,
      export: api.exportUrl(id),
      exportName: `palabre-${id}.txt`,
      gamePage: pageOf,
    }),
  };
}
