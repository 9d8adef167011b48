// The Palabre JSON API (docs/api.md): fetch calls and the event stream.

export class ApiError extends Error {
  constructor(code, message, status) {
    super(message || code);
    this.code = code;
    this.status = status;
  }
}

async function call(method, path, { body, seat } = {}) {
  const headers = {};
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (seat) headers.Authorization = `Bearer ${seat}`;
  let r;
  try {
    r = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new ApiError('network', '', 0);
  }
  let data = null;
  try {
    data = await r.json();
  } catch {
    /* an empty or non-JSON body */
  }
  if (!r.ok) {
    const e = (data && data.error) || {};
    throw new ApiError(e.code || 'internal', e.message || r.statusText, r.status);
  }
  return data;
}

const game = (id) => `/api/games/${encodeURIComponent(id)}`;

export const createGame = (body) => call('POST', '/api/games', { body });
export const getGame = (id) => call('GET', game(id));
export const playMove = (id, seat, move, ply) => call('POST', `${game(id)}/moves`, { seat, body: { move, ply } });
export const resign = (id, seat, body = {}) => call('POST', `${game(id)}/resign`, { seat, body });
export const draw = (id, seat, action) => call('POST', `${game(id)}/draw`, { seat, body: { action } });
export const takeback = (id, seat) => call('POST', `${game(id)}/takeback`, { seat, body: {} });
export const hint = (id, seat) => call('GET', `${game(id)}/hint`, { seat });

// Every `event: state` goes to onState; after a reconnection onReconnect is
// called so the page can fetch what it may have missed.
export function subscribe(id, onState, onReconnect) {
  const es = new EventSource(`${game(id)}/events`);
  let opened = false;
  es.addEventListener('state', (e) => {
    try {
      onState(JSON.parse(e.data));
    } catch {
      /* a malformed event is ignored */
    }
  });
  es.addEventListener('open', () => {
    if (opened) onReconnect();
    opened = true;
  });
  return es;
}

const SEAT = 'palabre.seat.';

export function saveSeat(id, seat, side) {
  try {
    localStorage.setItem(SEAT + id, JSON.stringify({ seat, side }));
  } catch {
    /* no storage: the game can still be watched */
  }
}

export function loadSeat(id) {
  try {
    const s = JSON.parse(localStorage.getItem(SEAT + id));
    return s && s.seat ? s : null;
  } catch {
    return null;
  }
}
