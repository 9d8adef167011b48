// Who may do what in a game, from its state and this page's seat: pure
// functions of the state, with no DOM and no words, so that they run under
// `node --test` (tests/browser/unit/). `me` is the seat this browser keeps
// for the game ({seat, side, index, name}) or null for a spectator.

export const other = { red: 'black', black: 'red', south: 'north', north: 'south' };

export function sidesOf(s) {
  return s.game === 'yote' ? ['red', 'black'] : ['south', 'north'];
}

export function humanSides(s) {
  return Object.keys(s.players || {}).filter((k) => s.players[k] === 'human');
}

export function vsMachine(s) {
  return s.opponent === 'machine';
}

export function online(s) {
  return s.opponent === 'online';
}

// Two players on one screen.
export function local(s) {
  return !online(s) && !vsMachine(s);
}

export function over(s) {
  return !!s.result || s.status === 'finished';
}

// A game whose stored moves no longer replay: shown as far as it goes, read-only.
export function damaged(s) {
  return s.status === 'damaged';
}

// Online, a program plays for one of the sides (a bot account).
export function vsBot(s) {
  return online(s) && Object.values(s.teams || {}).some((team) => team.some((m) => m.bot));
}

// An online game over with a result may be played again, sides swapped;
// not against a bot, which joins only the games it is challenged to.
export function rematchable(s) {
  return online(s) && !!s.result && s.result.reason !== 'aborted' && !vsBot(s);
}

// Moves can still be made (by someone): started, not over, not damaged.
export function inPlay(s) {
  return s.status === 'playing' && !over(s);
}

// Online: this page's side, and its place in the side's team.
export function mySide(s, me) {
  return me?.seat && online(s) && me.side in (s.teams || {}) ? me.side : null;
}

export function myIndex(s, me) {
  const side = mySide(s, me);
  if (!side) return null;
  if (Number.isInteger(me.index)) return me.index;
  const team = s.teams[side] || [];
  const i = me.name ? team.map((m) => m.name).indexOf(me.name) : -1;
  if (i >= 0) return i;
  return team.length === 1 ? 0 : null;
}

export function myHand(s, me) {
  const h = s.next_hand;
  return !!h && h.side === mySide(s, me) && h.index === myIndex(s, me);
}

// The seat's natural orientation: the second side sees the board turned round.
export function seatFlipped(s, me) {
  if (online(s)) {
    const m = mySide(s, me);
    return m === 'black' || m === 'north';
  }
  if (!me?.seat || !vsMachine(s)) return false;
  const h = humanSides(s)[0];
  return h === 'black' || h === 'north';
}

// pending: an online move sent and not yet acknowledged.
export function canPlay(s, me, pending = null) {
  if (online(s)) return !!me?.seat && inPlay(s) && myHand(s, me) && !pending;
  return !!me?.seat && inPlay(s) && s.players[s.turn] === 'human' && !s.thinking;
}

// « Nouvelle partie » keeps this game's choices: game, size, level, side.
export function newGameLink(s) {
  const q = new URLSearchParams({ jeu: s.game });
  if (s.game === 'nsolo') q.set('taille', String(s.size));
  if (online(s)) q.set('adversaire', 'en-ligne');
  else if (vsMachine(s)) {
    q.set('niveau', s.level);
    const h = humanSides(s)[0];
    if (h) q.set('camp', sidesOf(s).indexOf(h) === 0 ? 'premier' : 'second');
  } else q.set('adversaire', 'local');
  if (s.local) q.set('hors-ligne', '1');
  return `/nouvelle?${q}`;
}

// Stones on each side, from rows A and B (South's) and C and D (North's).
export function stonesOf(rows) {
  const sum = (r) => (rows[r] || []).reduce((a, b) => a + b, 0);
  return { south: sum('A') + sum('B'), north: sum('C') + sum('D') };
}

function ownerOf(s, name) {
  if (s.game === 'yote') return s.yote.board[name] || null;
  return 'AB'.includes(name[0]) ? 'south' : 'north';
}

/**
 * Why a tap on `name` starts no move, as a dictionary key, or null when the
 * page should stay quiet (its own move is on its way). The reason for the
 * mover's own squares comes from the server (`refusals`); the rest is whose
 * turn it is. `stage` is where the board was: 'wait', 'origin', or halfway
 * through a move ('target', 'second', 'bonus').
 */
export function refusalKey(s, me, name, stage = 'origin', pending = null) {
  if (!me?.seat) return 'refusal.watching';
  if (['target', 'second', 'bonus'].includes(stage)) return `refusal.${stage}`;
  if (!inPlay(s)) return over(s) ? 'refusal.over' : 'refusal.notStarted';
  if (online(s) && pending) return null;
  if (online(s) && !myHand(s, me)) return mySide(s, me) === s.turn ? 'refusal.teammate' : `refusal.turn.${s.turn}`;
  if (!online(s) && (s.players[s.turn] !== 'human' || s.thinking)) return 'refusal.machine';
  if (s.refusals && s.refusals[name]) return `refusal.${s.refusals[name]}`;
  const owner = ownerOf(s, name);
  if (owner && owner !== s.turn) return `refusal.theirs.${s.game}`;
  return 'refusal.none';
}
