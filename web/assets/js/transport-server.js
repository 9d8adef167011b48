// The transport (transport.js) of a game kept on the server: HTTP requests
// (api.js) for games against the machine and on one screen, the live socket
// (live.js) for pushed states and online play, and a read every few seconds
// while the socket is down. Without a seat in this browser, a signed-in
// player still plays their own online game: the session says who they are,
// so requests go without a seat and the socket's hello names none.

import * as api from './api.js';
import { Live } from './live.js';
import { signedIn } from './account-menu.js';

// While the socket is down (a network that refuses WebSockets, a server
// restarting), a game waiting for someone else (the machine's reply,
// another screen's move) is read this often instead.
const POLL_MS = 3000;

const pageOf = (id) => `/partie/${encodeURIComponent(id)}`;

/** @returns {import('./transport.js').Transport} */
export function createServerTransport(id) {
  let saved = api.loadSeat(id);
  let first = null; // the state read by claim(), given to the first read()
  let live = null; // the live socket, for every kind of game
  let poller = null;
  // Playing as the account: no seat travels, the session cookie speaks.
  const seatOf = (seat) => (saved?.account ? null : seat);

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
    read() {
      const s = first;
      first = null;
      return s ? Promise.resolve(s) : api.getGame(id);
    },
    // No seat here: the member of this online game who is the signed-in
    // account, if any, becomes this page's seat; a game against the machine
    // or on one screen is the account's own if its list of games says so.
    // Before the controller is made.
    async claim() {
      if (saved) return;
      const [s, me] = await Promise.all([api.getGame(id), signedIn()]);
      first = s;
      if (!me) return;
      if (s.opponent !== 'online') {
        if (s.status === 'finished' || s.result) return;
        const mine = await api.accountGames().catch(() => []);
        const side = Object.keys(s.players || {}).find((k) => s.players[k] === 'human');
        if (mine.some((g) => g.id === id)) saved = { seat: 'account', account: true, side };
        return;
      }
      for (const [side, team] of Object.entries(s.teams || {})) {
        const index = team.findIndex((m) => m.account && m.name === me.username);
        if (index >= 0) saved = { seat: 'account', account: true, side, index, name: me.username };
      }
    },
    connect(h) {
      live = new Live(id, {
        seat: seatOf(saved?.seat) || null,
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
    play: (seat, move, ply) => api.playMove(id, seatOf(seat), move, ply),
    hint: (seat) => api.hint(id, seatOf(seat)),
    takeback: (seat) => api.takeback(id, seatOf(seat)),
    draw: (seat, action) => api.draw(id, seatOf(seat), action),
    resign: (seat, body) => api.resign(id, seatOf(seat), body),
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
