// The game page's controller without a browser: the order in which states
// reach the screen, which ones are animated, what is sent for a move and
// what the page waits for, with a fake transport and a fake animator.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GameController, normalise, cellsOf } from '../../../web/assets/js/controller.js';

const settle = () => new Promise((r) => setImmediate(r));

function deferred() {
  let resolve;
  let reject;
  const promise = new Promise((ok, ko) => ((resolve = ok), (reject = ko)));
  return { promise, resolve, reject };
}

// A Yoté state at `ply` against the machine (the human plays red), or as `more` says.
function yote(ply, more = {}) {
  return {
    game: 'yote', size: 5, ply, opponent: 'machine', level: 'confirme', status: 'playing',
    turn: ply % 2 ? 'black' : 'red', result: null, thinking: false,
    players: { red: 'human', black: 'machine' },
    moves: Array.from({ length: ply }, (_, i) => `m${i}`),
    last: ply ? { ply: ply - 1, by: ply % 2 ? 'red' : 'black', animation: { kind: 'place' } } : null,
    legal: [{ to: 'c3' }], refusals: {}, yote: { board: {}, reserve: { red: 12, black: 12 }, captured: { red: 0, black: 0 } },
    ...more,
  };
}

// Online, red's only member (Awa, this page) to play at even plies.
function onlineState(ply, more = {}) {
  const turn = ply % 2 ? 'black' : 'red';
  return yote(ply, {
    opponent: 'online', players: { red: 'human', black: 'human' },
    teams: { red: [{ name: 'Awa' }], black: [{ name: 'Kofi' }] }, next_hand: { side: turn, index: 0, name: turn === 'red' ? 'Awa' : 'Kofi' },
    ...more,
  });
}

// Every call recorded; each request answers what `answers[name]` gives, or a fresh pending promise.
function fakeTransport({ me = { seat: 'S', side: 'red', name: 'Awa' }, online = true } = {}) {
  const t = {
    kind: online ? 'server' : 'local', id: 'g1', calls: [], reads: [], answers: {}, handlers: null,
    me: () => me,
    read() {
      t.calls.push(['read']);
      return Promise.resolve(t.reads.shift());
    },
    connect(h) {
      t.handlers = h;
    },
    links: () => null,
  };
  for (const name of ['play', 'hint', 'takeback', 'draw', 'resign', 'replay', 'newGame']) {
    t[name] = (...args) => {
      t.calls.push([name, ...args]);
      const a = t.answers[name];
      return a ? a(...args) : new Promise(() => {});
    };
  }
  if (online) {
    t.sent = [];
    t.up = true;
    t.send = (msg) => {
      if (!t.up) return false;
      t.sent.push(msg);
      return true;
    };
    t.takeRematch = (msg, more) => {
      t.calls.push(['takeRematch', msg.id, more]);
      return `/partie/${msg.id}`;
    };
  }
  return t;
}

// The controller with a fake animator whose runs end when the test says.
function setup(opts = {}) {
  const transport = opts.transport || fakeTransport(opts);
  const runs = [];
  const screens = []; // the ply on screen at every full render
  const notes = [];
  const went = [];
  const c = new GameController({
    transport,
    render: (part) => (part === 'note' ? notes.push(c.note) : screens.push(c.shown && c.shown.ply)),
    animate: (prev, next) => {
      const d = deferred();
      runs.push({ from: prev.ply, to: next.ply, end: d.resolve });
      return d.promise;
    },
    confirmMoves: () => !!opts.confirm,
    navigate: (url) => went.push(url),
  });
  return { c, transport, runs, screens, notes, went };
}

test('states reach the screen in ply order, one at a time, each one-ply advance animated', async () => {
  const { c, runs, screens } = setup();
  c.receive(yote(0), 'reset');
  c.pushed(yote(1));
  c.pushed(yote(2));
  assert.equal(c.shown.ply, 1, 'the first move is on screen, being animated');
  assert.equal(c.replaying, true);
  assert.deepEqual(c.queue.map((s) => s.ply), [2], 'the next one waits for the animation');
  assert.equal(c.lastPly(), 2, 'the socket is told the last ply the page has, queued or not');
  assert.equal(runs.length, 1);
  runs[0].end();
  await settle();
  assert.deepEqual(runs.map((r) => [r.from, r.to]), [[0, 1], [1, 2]]);
  runs[1].end();
  await settle();
  assert.equal(c.shown.ply, 2);
  assert.equal(c.replaying, false);
  assert.deepEqual([...new Set(screens)], [0, 1, 2], 'never an older ply after a newer one');
});

test('a move answer older than what is queued or shown is dropped; a newer one is shown', async () => {
  const { c, transport, runs } = setup({ online: false });
  const answer = deferred();
  transport.answers.play = () => answer.promise;
  c.receive(yote(0), 'reset');
  c.play('c3');
  const pushed1 = yote(1);
  c.pushed(pushed1); // the socket is quicker than the answer
  c.pushed(yote(2)); // and already brings the machine's reply
  answer.resolve(yote(1));
  await settle();
  assert.deepEqual(c.queue.map((s) => s.ply), [2], 'the answer is not queued behind the reply');
  assert.equal(c.shown, pushed1);
  runs[0].end();
  await settle();
  runs[1].end();
  await settle();
  assert.equal(c.shown.ply, 2);
  assert.equal(runs.length, 2, 'nothing else was animated');
  assert.equal(c.sending, false);

  const late = setup({ online: false });
  late.transport.answers.play = () => Promise.resolve(yote(1));
  late.c.receive(yote(0), 'reset');
  late.c.play('c3');
  await settle();
  assert.equal(late.c.shown.ply, 1, 'an answer ahead of the screen is shown');
});

test('a pushed state behind the screen is not shown: the game is read again', async () => {
  const { c, transport, runs } = setup();
  c.receive(yote(3), 'reset');
  const reread = yote(2, { moves: ['a', 'b'] });
  transport.reads.push(reread);
  c.pushed(yote(2));
  assert.equal(c.shown.ply, 3, 'the stale state is not shown');
  assert.deepEqual(transport.calls, [['read']]);
  await settle();
  assert.equal(c.shown, reread, 'what the read says is shown, even behind the screen');
  assert.equal(runs.length, 0, 'a take-back is not animated');
  c.pushed(yote(2));
  assert.equal(transport.calls.length, 1, 'a state at the ply on screen needs no read');

  // Behind what is queued counts too: during an animation, the queue is ahead of the screen.
  c.pushed(yote(3));
  c.pushed(yote(4));
  assert.equal(c.shown.ply, 3);
  transport.reads.push(yote(4));
  c.pushed(yote(3));
  assert.equal(transport.calls.length, 2, 'a state behind the queued one is read again');
  assert.deepEqual(c.queue.map((s) => s.ply), [4], 'and not queued');
});

test('a move is sent with the seat and the ply on screen', async () => {
  const off = setup({ online: false });
  off.c.receive(yote(4), 'reset');
  off.c.play('c3');
  assert.deepEqual(off.transport.calls, [['play', 'S', 'c3', 4]]);
  assert.equal(off.c.sending, true);

  const on = setup();
  on.c.receive(onlineState(4), 'reset');
  on.c.play('c3');
  assert.deepEqual(on.transport.sent, [{ type: 'move', move: 'c3', ply: 4 }]);
  assert.deepEqual(on.transport.calls, [], 'online, nothing over HTTP');
  assert.deepEqual(on.c.pending, { move: 'c3', ply: 4 });
  assert.equal(on.c.canPlay(), false, 'no second move while the first is on its way');
  on.c.play('d4');
  assert.equal(on.transport.sent.length, 1);

  const spectator = setup({ me: null, online: false });
  spectator.c.receive(yote(4), 'reset');
  spectator.c.play('c3');
  assert.deepEqual(spectator.transport.calls, []);

  const careful = setup({ online: false, confirm: true });
  careful.c.receive(yote(4), 'reset');
  assert.equal(careful.c.play('c3'), true, 'the move waits for confirmation');
  assert.deepEqual(careful.transport.calls, []);
  assert.equal(careful.c.proposed, 'c3');
  careful.c.play(careful.c.proposed, true);
  assert.deepEqual(careful.transport.calls, [['play', 'S', 'c3', 4]]);
  assert.equal(careful.c.proposed, null);
});

test('an online move stays pending until its ack or a newer state, and is sent again on reconnection', async () => {
  const { c, transport } = setup();
  c.receive(onlineState(4), 'reset');
  c.play('c3');
  c.message({ type: 'ack', ply: 2 });
  assert.ok(c.pending, 'an ack for another ply is not this move\'s');
  c.message({ type: 'ack', ply: 4 });
  assert.equal(c.pending, null);

  const again = setup();
  again.c.receive(onlineState(4), 'reset');
  again.c.play('c3');
  again.c.pushed(onlineState(4));
  assert.ok(again.c.pending, 'a state at the same ply does not settle it');
  again.c.pushed(onlineState(5));
  assert.equal(again.c.pending, null, 'a newer state does');

  const lost = setup();
  lost.transport.up = false;
  lost.c.receive(onlineState(4), 'reset');
  lost.c.play('c3');
  assert.equal(lost.c.pending.resend, true, 'the move could not leave');
  assert.deepEqual(lost.transport.sent, []);
  lost.transport.up = true;
  lost.c.status('open');
  assert.deepEqual(lost.transport.sent, [{ type: 'move', move: 'c3', ply: 4 }]);
  assert.equal(lost.c.pending.resent, true);
  lost.c.message({ type: 'error', code: 'stale_ply' });
  assert.equal(lost.c.note, null, 'a resent move already played is no error');
  assert.equal(lost.c.pending, null);
  void transport;
});

test('a refused move says why and gives the board back', async () => {
  const off = setup({ online: false });
  off.transport.answers.play = () => Promise.reject({ code: 'illegal_move' });
  off.c.receive(yote(0), 'reset');
  off.c.play('c3');
  await settle();
  assert.deepEqual(off.c.note, { fault: { code: 'illegal_move' }, context: 'move', error: true });
  assert.deepEqual(off.notes.at(-1), off.c.note, 'the note was drawn');
  assert.equal(off.c.sending, false);
  assert.equal(off.c.canPlay(), true);

  const on = setup();
  on.c.receive(onlineState(0), 'reset');
  on.c.play('c3');
  on.c.message({ type: 'error', code: 'stale_ply' });
  assert.equal(on.c.pending, null);
  assert.equal(on.c.note.context, 'move', 'worded as a refused move');
  assert.equal(on.c.note.fault.code, 'stale_ply');
  assert.equal(on.c.note.error, true);
});

test('only a one-ply advance from the position on screen is animated', async () => {
  const { c, runs } = setup();
  c.receive(yote(0), 'reset');
  c.pushed(yote(2));
  assert.equal(runs.length, 0, 'a jump of two plies is shown at once');
  assert.equal(c.shown.ply, 2);
  c.pushed(yote(3, { last: { ply: 1, by: 'black', animation: {} } }));
  assert.equal(runs.length, 0, 'a move made from another position is not animated');
  c.pushed(yote(5, { last: { ply: 3, by: 'red', animation: {} } }));
  assert.equal(runs.length, 0, 'nor a state more than one ply ahead, whatever its last move');
  assert.equal(c.shown.ply, 5);
  c.receive(yote(3, { moves: ['a', 'b', 'c'] }), 'reset');
  c.pushed(yote(4));
  assert.deepEqual(runs.map((r) => [r.from, r.to]), [[3, 4]]);
  runs[0].end();
  await settle();
  c.frames = { frames: [{}, {}], moves: [] };
  c.viewing = 1;
  c.pushed(yote(5));
  assert.equal(runs.length, 1, 'not while an older position is looked at');
  assert.equal(c.shown.ply, 5);
});

test('the page asks to be read while the socket is down only when it waits for someone else', async () => {
  const { c, transport, runs } = setup({ online: false });
  c.receive(yote(1), 'reset');
  c.connect();
  const h = transport.handlers;
  assert.equal(h.waiting(), true, 'the machine\'s turn');
  c.sending = true;
  assert.equal(h.waiting(), false, 'not while a request is on its way');
  c.sending = false;
  h.onState(yote(2), 'reset');
  assert.equal(h.ply(), 2);
  assert.equal(h.waiting(), false, 'not during an animation');
  runs[0].end();
  await settle();
  assert.equal(h.waiting(), false, 'the player\'s own turn is not redrawn under the finger');
  h.onState(yote(0), 'reset');
  assert.equal(c.shown.ply, 0, 'a state read again is shown, even behind the screen');
  h.onStatus('lost');
  assert.equal(c.link, 'lost');
});

test('not online, no online method is needed: requests go through the transport\'s calls', async () => {
  const transport = fakeTransport({ online: false });
  const { c } = setup({ transport });
  transport.answers.draw = () => Promise.resolve(yote(0, { draw_declined: true }));
  c.receive(yote(0), 'reset');
  c.takeback();
  c.draw('offer');
  c.resign();
  c.ask({ type: 'abort' });
  assert.deepEqual(transport.calls.map((x) => x.slice(0, 3)), [['takeback', 'S'], ['draw', 'S', 'offer'], ['resign', 'S', {}]]);
  assert.equal(c.note.key, 'online.notSent', 'an online message has nowhere to go');
  assert.equal(c.up, false);
  await settle();
  assert.equal(c.note.key, 'draw.declined', 'the machine\'s refusal is said');
});

test('an online request keeps its buttons busy until an answer, or for 8 s', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const { c, transport } = setup();
  c.receive(onlineState(2), 'reset');
  c.draw('offer');
  assert.deepEqual(transport.sent, [{ type: 'draw', action: 'offer' }]);
  assert.equal(c.asked, 'draw');
  c.pushed(onlineState(2, { draw_offer: 'red' }));
  assert.equal(c.asked, null, 'the new state answers it');
  c.resign();
  c.message({ type: 'ok' });
  assert.equal(c.asked, null);
  c.ask({ type: 'abort' });
  c.status('lost');
  assert.equal(c.asked, null, 'a lost connection answers nothing: the buttons come back');
  c.answerTakeback('accept');
  assert.equal(c.asked, 'takeback');
  t.mock.timers.tick(7999);
  assert.equal(c.asked, 'takeback');
  t.mock.timers.tick(1);
  assert.equal(c.asked, null, 'no answer: the buttons come back');
});

test('a rematch keeps the new seat through the transport and opens the new game', () => {
  const { c, transport, went } = setup();
  c.receive(onlineState(6, { result: { winner: 'black', reason: 'resignation' }, status: 'finished' }), 'reset');
  c.ask({ type: 'rematch' });
  c.message({ type: 'rematch', id: 'g2', seat: 'S2' });
  assert.deepEqual(transport.calls, [['takeRematch', 'g2', { side: 'black', name: 'Awa' }]]);
  assert.deepEqual(went, ['/partie/g2']);
  assert.equal(c.asked, null);
});

test('« Rejouer » asks for the same game with the sides swapped, then opens it', async () => {
  const { c, transport, went } = setup({ online: false });
  transport.answers.newGame = () => Promise.resolve('/partie/g9');
  c.receive(yote(9, { result: { winner: 'black', reason: 'all-captured' }, status: 'finished' }), 'reset');
  await c.playAgain();
  assert.deepEqual(transport.calls, [['newGame', { game: 'yote', opponent: 'machine', level: 'confirme', side: 'black' }]]);
  assert.deepEqual(went, ['/partie/g9']);
});

test('a hint marks its cells until the next move; a look back reads the replay once', async () => {
  const { c, transport, runs } = setup({ online: false });
  transport.answers.hint = () => Promise.resolve({ move: 'c3-e3' });
  c.receive(yote(2), 'reset');
  await c.hint();
  assert.deepEqual(c.hintCells, ['c3', 'e3']);
  assert.equal(c.note.key, 'game.hint');
  c.pushed(yote(3));
  assert.deepEqual(c.hintCells, []);
  assert.equal(c.note, null, 'a transient note goes with the move');
  runs[0].end();
  await settle();

  transport.answers.replay = () => Promise.resolve({ frames: [{ turn: 'red' }, { turn: 'black' }, { turn: 'red' }] });
  await c.viewPly(1);
  await c.viewPly(2);
  assert.equal(c.viewing, 2);
  assert.equal(transport.calls.filter((x) => x[0] === 'replay').length, 1);
  assert.equal(c.play('c3'), false);
  assert.equal(transport.calls.filter((x) => x[0] === 'play').length, 0, 'no move from a past position');
  c.receive(yote(2), 'reset'); // taken back meanwhile
  assert.equal(c.viewing, null, 'back to the live game');
});

test('the move form\'s notation and a hint\'s cells follow each game\'s writing', () => {
  assert.equal(normalise('yote', ' C3 - E3 '), 'c3-e3');
  assert.equal(normalise('nsolo', 'a4'), 'A4');
  assert.deepEqual(cellsOf('nsolo', 'A12 B3'), ['A12', 'B3']);
});
