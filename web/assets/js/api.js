// The Palabre JSON API (docs/api.md): fetch calls, the address of the live
// socket (live.js) and the seats kept in this browser.

export class ApiError extends Error {
  // retryAfter: the seconds the server asked to wait (busy, rate limited), or 0;
  // details: what the server adds to some refusals (an import's bad move).
  constructor(code, message, status, retryAfter = 0, details = undefined) {
    super(message || code);
    this.code = code;
    this.status = status;
    this.retryAfter = retryAfter;
    this.details = details;
  }
}

async function call(method, path, { body, seat, text } = {}) {
  const headers = {};
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (text !== undefined) headers['Content-Type'] = 'text/plain; charset=utf-8';
  if (seat) headers.Authorization = `Bearer ${seat}`;
  let r;
  try {
    r = await fetch(path, { method, headers, body: text ?? (body === undefined ? undefined : JSON.stringify(body)) });
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
    const wait = Number(r.headers.get('Retry-After')) || 0;
    throw new ApiError(e.code || 'internal', e.message || r.statusText, r.status, wait, e.details);
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

// Online play (docs/online.md), the lobby and the records.
export const joinGame = (id, body) => call('POST', `${game(id)}/join`, { body });
export const lobby = () => call('GET', '/api/lobby');
export const records = () => call('GET', '/api/records');
export const replay = (id) => call('GET', `${game(id)}/replay`);
export const importText = (text) => call('POST', '/api/import', { text });
export const uploadRecord = (body) => call('POST', '/api/records', { body });
export const tablesAvailable = () => call('GET', '/api/tables/yote');
export const probeTables = (positions) => call('POST', '/api/tables/yote', { body: { positions } });
export const exportUrl = (id) => `${game(id)}/export`;
export const socketUrl = (id) => `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${game(id)}/ws`;

// Accounts (the session cookie does the rest), players and leaderboards.
export const signup = (username, password) => call('POST', '/api/account/signup', { body: { username, password } });
export const login = (username, password) => call('POST', '/api/account/login', { body: { username, password } });
export const logout = () => call('POST', '/api/account/logout');
export const session = () => call('GET', '/api/session');
export const accountGames = () => call('GET', '/api/account/games');
export const changePassword = (password, newPassword) => call('POST', '/api/account/password', { body: { password, new_password: newPassword } });
export const deleteAccount = (password) => call('DELETE', '/api/account', { body: { password } });
export const tokens = () => call('GET', '/api/account/tokens');
export const createToken = (description) => call('POST', '/api/account/tokens', { body: { description, scopes: ['bot:play'] } });
export const revokeToken = (id) => call('DELETE', `/api/account/tokens/${encodeURIComponent(id)}`);
export const user = (name) => call('GET', `/api/users/${encodeURIComponent(name)}`);
export const leaderboards = () => call('GET', '/api/leaderboard');
export const exportAccountUrl = '/api/account/export';

// Challenges (docs/bot-api.md): people challenge bots from their profiles.
const challengeOf = (id) => `/api/challenge/${encodeURIComponent(id)}`;
export const challenge = (username, body) => call('POST', challengeOf(username), { body });
export const showChallenge = (id) => call('GET', `${challengeOf(id)}/show`);
export const cancelChallenge = (id) => call('POST', `${challengeOf(id)}/cancel`);

const SEAT = 'palabre.seat.';

// `more` may add what the page needs to know who it is in an online game:
// {name, index} (the member's place in the side's team).
export function saveSeat(id, seat, side, more = {}) {
  try {
    // `at`: when this browser took the seat, for « Mes parties ».
    localStorage.setItem(SEAT + id, JSON.stringify({ seat, side, at: Date.now(), ...more }));
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

// Every game this browser holds a seat in, the newest first: {id, seat, side, at, …}.
export function mySeats() {
  const out = [];
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const k = localStorage.key(i);
      if (!k.startsWith(SEAT)) continue;
      const s = loadSeat(k.slice(SEAT.length));
      if (s) out.push({ ...s, id: k.slice(SEAT.length), at: s.at || 0 });
    }
  } catch {
    /* no storage: no games */
  }
  return out.sort((a, b) => b.at - a.at);
}

export function forgetSeat(id) {
  try {
    localStorage.removeItem(SEAT + id);
  } catch {
    /* no storage */
  }
}

const NAME = 'palabre.name';

// The display name for online games, remembered between games.
export function loadName() {
  try {
    return localStorage.getItem(NAME) || '';
  } catch {
    return '';
  }
}

export function saveName(name) {
  try {
    localStorage.setItem(NAME, name);
  } catch {
    /* no storage */
  }
}

// A display name: 1 to 32 characters once trimmed, else null.
export function cleanName(v) {
  const n = String(v || '').trim().replace(/\s+/g, ' ');
  return n && [...n].length <= 32 ? n : null;
}

// Joins an online game and remembers the seat (and which member it is).
// Signed in (`guest` false), `name` is the account's username, which the
// server uses anyway; it is not kept as the guest name.
export async function join(id, name, side, guest = true) {
  const body = { name };
  if (side) body.side = side;
  const r = await joinGame(id, body);
  const team = (r.state && r.state.teams && r.state.teams[r.side]) || [];
  const index = team.map((m) => m.name).lastIndexOf(name);
  saveSeat(id, r.seat, r.side, { name, index: index < 0 ? undefined : index });
  if (guest) saveName(name);
  return r;
}
