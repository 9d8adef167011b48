// The game page's permissions, without a browser: who may play, whose board
// is turned round, what « Nouvelle partie » keeps, and why a tap is refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as P from '../../../web/assets/js/permissions.js';

const yote = (over = {}) => ({
  game: 'yote', size: 5, opponent: 'local', status: 'playing', turn: 'red', result: null, thinking: false,
  players: { red: 'human', black: 'human' }, yote: { board: { c3: 'red', d4: 'black' } }, refusals: {}, ...over,
});
const me = { seat: 's3cret', side: 'red' };

test('on one screen the seat plays both sides; a spectator plays none', () => {
  assert.equal(P.canPlay(yote(), me), true);
  assert.equal(P.canPlay(yote({ turn: 'black' }), me), true);
  assert.equal(P.canPlay(yote(), null), false);
  assert.equal(P.canPlay(yote({ result: { winner: 'red', reason: 'resignation' } }), me), false);
});

test('against the machine, only while it is the human\'s turn and the machine is not thinking', () => {
  const s = yote({ opponent: 'machine', players: { red: 'machine', black: 'human' } });
  assert.equal(P.canPlay(s, me), false);
  assert.equal(P.canPlay({ ...s, turn: 'black' }, me), true);
  assert.equal(P.canPlay({ ...s, turn: 'black', thinking: true }, me), false);
  assert.equal(P.seatFlipped(s, me), true, 'Black sees the board from its side');
});

test('online, only the member whose hand is next, and not while a move is on its way', () => {
  const s = yote({
    opponent: 'online', teams: { red: [{ name: 'Awa' }, { name: 'Ama' }], black: [{ name: 'Kofi' }] },
    next_hand: { side: 'red', name: 'Ama', index: 1 },
  });
  assert.equal(P.canPlay(s, { ...me, name: 'Awa' }), false);
  assert.equal(P.canPlay(s, { ...me, name: 'Ama' }), true);
  assert.equal(P.canPlay(s, { ...me, index: 1 }, { move: 'c3', ply: 4 }), false);
  assert.equal(P.mySide(s, { seat: 'x', side: 'green' }), null, 'a forged side is nobody');
});

test('« Nouvelle partie » keeps the game, size, level and side', () => {
  const s = { game: 'nsolo', size: 12, opponent: 'machine', level: 'expert', players: { south: 'machine', north: 'human' } };
  const q = new URL(P.newGameLink(s), 'http://x').searchParams;
  assert.deepEqual(Object.fromEntries(q), { jeu: 'nsolo', taille: '12', niveau: 'expert', camp: 'second' });
  assert.match(P.newGameLink(yote({ opponent: 'online' })), /adversaire=en-ligne/);
});

test('a refused tap names the reason: the server\'s, the turn, or the owner', () => {
  const s = yote({ refusals: { c3: 'reserve_first' } });
  assert.equal(P.refusalKey(s, me, 'c3'), 'refusal.reserve_first');
  assert.equal(P.refusalKey(s, me, 'd4'), 'refusal.theirs.yote');
  assert.equal(P.refusalKey(s, null, 'c3'), 'refusal.watching');
  assert.equal(P.refusalKey(s, me, 'a1', 'target'), 'refusal.target');
  const online = yote({ opponent: 'online', turn: 'black', teams: { red: [{ name: 'Awa' }], black: [{ name: 'Kofi' }] }, next_hand: { side: 'black', index: 0 } });
  assert.equal(P.refusalKey(online, me, 'c3'), 'refusal.turn.black');
  assert.equal(P.refusalKey({ ...online, turn: 'red', next_hand: { side: 'red', index: 0 } }, me, 'c3', 'origin', { move: 'c3' }), null);
  assert.equal(P.refusalKey(yote({ result: { winner: 'red' } }), me, 'c3'), 'refusal.over');
});

test('Nsolo stone counts come from each side\'s two rows', () => {
  assert.deepEqual(P.stonesOf({ A: [2, 0], B: [1, 1], C: [3, 3], D: [0, 0] }), { south: 4, north: 6 });
});

test('no rematch against a bot: it joins only the games it is challenged to', () => {
  const teams = (bot) => ({ red: [{ name: 'Ama', account: true, bot: false }], black: [{ name: 'robot', account: true, bot }] });
  const done = { opponent: 'online', status: 'finished', result: { winner: 'black', reason: 'resignation' } };
  assert.equal(P.rematchable(yote({ ...done, teams: teams(false) })), true);
  assert.equal(P.vsBot(yote({ ...done, teams: teams(true) })), true);
  assert.equal(P.rematchable(yote({ ...done, teams: teams(true) })), false);
  assert.equal(P.rematchable(yote({ ...done, teams: teams(false), result: { winner: null, reason: 'aborted' } })), false);
  assert.equal(P.rematchable(yote({ ...done, opponent: 'machine' })), false);
});
