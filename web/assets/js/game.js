// The game page: loads the state, follows the live socket (for every kind of
// game: the machine's reply comes through it too), animates each new move,
// shows whose turn it is and sends what the player does to the server: over
// the socket online, over HTTP against the machine and on one screen.

import { initI18n, t, has } from './i18n.js';
import * as api from './api.js';
import { errorText } from './errors.js';
import * as sound from './sound.js';
import { YoteBoard } from './board-yote.js';
import { NsoloBoard } from './board-nsolo.js';
import { Animator } from './animate.js';
import { Live } from './live.js';
import { clockText, gameLabel, tcLabel } from './online.js';
import * as settings from './settings.js';
import { mountSettings, showFaceToFace } from './settings-panel.js';
import { MoveList } from './movelist.js';
import * as P from './permissions.js';
import { other, humanSides, vsMachine, online, local, over, damaged, inPlay, sidesOf, newGameLink, stonesOf } from './permissions.js';

const $ = (id) => document.getElementById(id);
const id = decodeURIComponent(location.pathname.replace(/\/+$/, '').split('/').pop());
const saved = api.loadSeat(id);
const seat = saved?.seat || null;
const anim = new Animator();

let shown = null; // the state on screen
let board = null;
let sending = false;
let hintCells = [];
let note = null; // { key, vars } or { text }
let endDismissed = false;
let resignArmed = null;
const queue = [];
let pumping = false;
let replaying = false; // a move is being animated: the board shows the animation
let live = null; // the live socket, for every kind of game
let pending = null; // online: {move, ply} sent and not yet acknowledged
let asked = null; // online: a message waiting for its answer (draw, resign, abort, rematch)
let ticker = null;
let poller = null; // reads the game while the socket is down
let copiedTimer = null;
let moveList = null;
let viewing = null; // the ply shown read-only from the move list, or null for the live game
let frames = null; // {frames, moves}: the game's positions, read once for the move list
let proposed = null; // a move waiting for the player's confirmation (a setting)
let counts = null; // Nsolo stone counts in step with the running animation
let noteTimer = null; // hides the refusal note

// The rules of the page (who may play, whose side is whose) live in
// permissions.js, as pure functions of the state and this page's seat.
const mySide = (s) => P.mySide(s, saved);
const myIndex = (s) => P.myIndex(s, saved);
const myHand = (s) => P.myHand(s, saved);
const canPlay = (s) => P.canPlay(s, saved, pending);

// The seat's natural orientation, turned round when the player asks.
function flipped(s) {
  return P.seatFlipped(s, saved) !== !!settings.get('flip');
}

// A tap on a hole or pit that starts no move: say why, briefly.
function refuse(name, stage = 'origin') {
  const s = shown;
  if (!s || viewing != null || replaying || sending || proposed) return;
  const key = P.refusalKey(s, saved, name, stage, pending);
  if (key) tapNote(t(key));
}

// A refusal shows where the eye is, over the page's foot, and fades.
function tapNote(text) {
  const n = $('tap-note');
  n.textContent = text;
  n.hidden = false;
  clearTimeout(noteTimer);
  noteTimer = setTimeout(() => (n.hidden = true), 3000);
}

function say(n) {
  note = n;
  renderNote();
}

// ---- states in, one at a time ------------------------------------------

// Whole states come from the live socket ('event') and from the answers to
// this page's own requests: 'move' (a move: old news when the socket was
// quicker, as it often is with the machine's reply) and 'reset' (the first
// read, a takeback, a draw: always shown).
function receive(s, source) {
  if (!s) return;
  s.at = performance.now(); // the clocks count down from here
  const ref = queue.length ? queue[queue.length - 1] : shown;
  if (ref && source === 'move' && s.ply <= ref.ply) return;
  if (ref && source === 'event' && s.ply < ref.ply) {
    // Behind the screen: a takeback, or a state sent before the answer to
    // this page's own request arrived. Ask which.
    api.getGame(id).then((g) => receive(g, 'reset'), () => {});
    return;
  }
  queue.push(s);
  pump();
}

async function pump() {
  if (pumping) return;
  pumping = true;
  while (queue.length) {
    const s = queue.shift();
    const prev = shown;
    // A move arriving while an older position is shown is not animated.
    const moved = viewing == null && prev && s.game === prev.game && s.last && s.ply === prev.ply + 1 && s.last.ply === prev.ply;
    if (moved) {
      hintCells = [];
      if (note && note.transient) note = null;
      renderNote();
      shown = s;
      replaying = true;
      render();
      counts = s.game === 'nsolo' ? stonesOf(prev.nsolo.rows) : null;
      renderBars(s);
      try {
        await anim.run(() => (s.game === 'yote'
          ? anim.yote(board, prev.yote, s.last)
          : anim.nsolo(board, prev.nsolo.rows, (s.last.animation && s.last.animation.steps) || [])));
      } catch {
        /* a broken animation must not block the game */
      }
      replaying = false;
      counts = null;
    } else if (prev && s.ply !== prev.ply) {
      hintCells = [];
    }
    shown = s;
    render();
  }
  pumping = false;
}

// ---- rendering -----------------------------------------------------------

function setupBoard(s) {
  const host = $('board');
  host.textContent = '';
  host.classList.add(s.game);
  const onMove = (m) => play(m);
  const onRefuse = (name, stage) => refuse(name, stage);
  board = s.game === 'yote' ? new YoteBoard(host, { onMove, onRefuse }) : new NsoloBoard(host, { onMove, onRefuse });
  $('game').classList.toggle('wide', s.game === 'nsolo' && s.size > 12);
  $('game').classList.add(`is-${s.game}`);
  const again = newGameLink(s);
  $('act-new').href = again;
  $('end-new').href = again;
  $('end-replay').href = `/parties/${encodeURIComponent(id)}`;
  $('end-export').href = api.exportUrl(id);
  $('end-export').setAttribute('download', `palabre-${id}.txt`);
  showFaceToFace($('settings'), local(s));
  $('move-input').dataset.i18nAttr = `placeholder:game.notationHint.${s.game}`;
  $('move-input').placeholder = t(`game.notationHint.${s.game}`);
}

function render() {
  const s = shown;
  if (!s) return;
  if (!board) setupBoard(s);
  if (viewing != null && viewing >= s.ply) viewing = null; // taken back meanwhile
  if (viewing != null) renderHistory(s);
  else if (!replaying) renderBoard(s);
  $('history').hidden = viewing == null;
  $('game').classList.toggle('face-to-face', local(s) && !!settings.get('faceToFace'));
  renderHeader(s);
  renderWaiting(s);
  renderBars(s);
  renderStatus(s);
  renderMoves(s);
  renderActions(s);
  renderDrawOffer(s);
  renderTakebackOffer(s);
  renderReadOnly(s);
  renderNote();
  renderConfirm();
  if (!replaying) renderEnd(s);
}

// The position after `viewing` moves, read-only, from the replay's frames.
function renderHistory(s) {
  const f = frames && frames.frames[viewing];
  if (!f) return;
  document.body.dataset.ready = '0';
  document.body.dataset.viewing = String(viewing);
  const common = { legal: [], flipped: flipped(s), interactive: false, hint: [], turn: f.turn, last: f.last && f.last.animation };
  if (s.game === 'yote') board.set({ ...common, board: f.yote.board, reserve: f.yote.reserve, captured: f.yote.captured });
  else board.set({ ...common, rows: f.nsolo.rows });
  const move = s.moves[viewing - 1];
  $('history-text').textContent = t('moves.viewing', { turn: Math.ceil(viewing / 2), move });
}

function renderBoard(s) {
  const interactive = canPlay(s) && !sending && !proposed;
  delete document.body.dataset.viewing;
  // Hooks for tools and browser tests: the ply on screen and whether it waits for a click.
  document.body.dataset.ply = String(s.ply);
  document.body.dataset.ready = interactive ? '1' : '0';
  if (s.status) document.body.dataset.status = s.status;
  const common = {
    legal: canPlay(s) ? s.legal : [],
    flipped: flipped(s),
    interactive,
    hint: hintCells,
    turn: s.turn,
  };
  if (s.game === 'yote') {
    board.set({ ...common, board: s.yote.board, reserve: s.yote.reserve, captured: s.yote.captured, last: s.last && s.last.animation });
  } else {
    board.set({ ...common, rows: s.nsolo.rows, last: s.last && s.last.animation });
  }
}

function sideName(side) {
  return t(`side.${side}`);
}

function renderHeader(s) {
  const name = gameLabel(s);
  let who;
  if (online(s)) who = [t('game.online'), tcLabel(s.time_control)].filter(Boolean).join(', ');
  else who = vsMachine(s) ? t('game.vsMachine', { level: t(`level.${s.level}`) }) : t('game.local');
  $('game-name').textContent = `${name} · ${who}`;
  // A player waiting in another tab sees when the hand comes back to them.
  document.title = `${online(s) && canPlay(s) ? '● ' : ''}${name} · Palabre`;
}

function who(s, side) {
  if (online(s)) return '';
  if (s.players[side] === 'machine') return t('player.machine');
  if (seat && vsMachine(s)) return t('player.you');
  return '';
}

// Online, while places are free: the invitation and the places taken.
function renderWaiting(s) {
  const box = $('waiting');
  const show = online(s) && s.status === 'waiting' && !over(s);
  box.hidden = !show;
  $('game').classList.toggle('is-waiting', show);
  if (!show) return;
  const path = `/partie/${encodeURIComponent(id)}/rejoindre`;
  const url = new URL(path, location.origin).href;
  const link = $('invite');
  link.href = url;
  link.textContent = url;
  $('copy-invite').hidden = !seat;
  $('join-link').hidden = !!seat;
  $('join-link').href = path;
  $('waiting-lead').textContent = t(seat ? 'online.inviteLead' : 'online.spectatorLead');
  const places = $('places');
  places.textContent = '';
  for (const side of sidesOf(s)) {
    const team = (s.teams && s.teams[side]) || [];
    const col = document.createElement('div');
    col.className = 'place-side';
    col.dataset.side = side;
    const h = document.createElement('h3');
    const dot = document.createElement('span');
    dot.className = `swatch ${side}`;
    h.append(dot, sideName(side));
    const ul = document.createElement('ul');
    for (let i = 0; i < Math.max(s.team_size || 1, team.length); i++) {
      const li = document.createElement('li');
      const m = team[i];
      if (m) {
        li.append(presence(m), m.name);
        if (side === mySide(s) && i === myIndex(s)) li.append(` (${t('player.you')})`);
      } else {
        li.className = 'free';
        li.textContent = t('online.freePlace');
      }
      ul.append(li);
    }
    col.append(h, ul);
    places.append(col);
  }
}

function presence(m) {
  const dot = document.createElement('span');
  dot.className = `presence${m.online ? ' on' : ''}`;
  dot.setAttribute('role', 'img');
  dot.setAttribute('aria-label', t(m.online ? 'online.present' : 'online.absent'));
  dot.title = t(m.online ? 'online.present' : 'online.absent');
  return dot;
}

// The time left on a side's clock now: the running clock counts down from
// the moment its state arrived.
function clockLeft(s, side) {
  const ms = s.clocks[side];
  if (s.running !== side || over(s) || s.status !== 'playing') return ms;
  return Math.max(0, ms - (performance.now() - (s.at || performance.now())));
}

function renderClock(el, s) {
  const side = el.dataset.clock;
  const ms = clockLeft(s, side);
  el.textContent = clockText(ms, t);
  const run = s.running === side && s.status === 'playing' && !over(s);
  el.classList.toggle('running', run);
  el.classList.toggle('low', run && ms < 20000);
}

function tick() {
  const s = shown;
  if (!s || !s.clocks) return;
  for (const el of document.querySelectorAll('[data-clock]')) renderClock(el, s);
}

function members(s, side) {
  const box = document.createElement('span');
  box.className = 'members';
  const team = (s.teams && s.teams[side]) || [];
  const h = s.next_hand;
  team.forEach((m, i) => {
    const chip = document.createElement('span');
    chip.className = 'member';
    const next = !over(s) && s.status === 'playing' && h && h.side === side && h.index === i;
    if (next) {
      chip.classList.add('next');
      chip.setAttribute('aria-current', 'step');
    }
    if (side === mySide(s) && i === myIndex(s)) chip.classList.add('me');
    const name = document.createElement('span');
    name.className = 'member-name';
    name.textContent = m.name;
    chip.append(presence(m), name);
    if (side === mySide(s) && i === myIndex(s)) {
      const y = document.createElement('span');
      y.className = 'you';
      y.textContent = ` (${t('player.you')})`;
      chip.append(y);
    }
    box.append(chip);
  });
  return box;
}

function renderBars(s) {
  const sides = s.game === 'yote' ? ['red', 'black'] : ['south', 'north'];
  const [bottom, top] = flipped(s) ? [sides[1], sides[0]] : sides;
  for (const [el, side] of [[$('bar-top'), top], [$('bar-bottom'), bottom]]) {
    el.textContent = '';
    el.dataset.side = side;
    el.classList.toggle('to-move', inPlay(s) && s.turn === side);
    const dot = document.createElement('span');
    dot.className = `swatch ${side}`;
    const name = document.createElement('strong');
    name.textContent = sideName(side);
    el.append(dot, name);
    if (online(s)) el.append(members(s, side));
    const w = who(s, side);
    if (w) {
      const span = document.createElement('span');
      span.textContent = ` · ${w}`;
      el.append(span);
    }
    if (s.game === 'nsolo') {
      const c = document.createElement('span');
      c.className = 'count';
      c.dataset.count = side; // the side bar's count, kept in step by the animation
      c.textContent = t('nsolo.stones', { n: (counts || s.nsolo.stones)[side] });
      el.append(c);
    }
    if (online(s) && s.clocks && side in s.clocks) {
      const c = document.createElement('span');
      c.className = 'clock';
      c.dataset.clock = side;
      c.setAttribute('role', 'timer');
      c.setAttribute('aria-label', t('online.clock', { side: sideName(side) }));
      renderClock(c, s);
      el.append(c);
    }
    if (inPlay(s) && s.turn === side) {
      const tm = document.createElement('span');
      tm.className = 'turn-tag';
      tm.textContent = t('game.toMove');
      el.append(tm);
    }
  }
}

function turnOf(name) {
  return t(/^[aeiouyhàâäéèêëîïôöûüœæ]/i.test(name) ? 'online.turnOfVowel' : 'online.turnOf', { name });
}

function statusText(s) {
  if (damaged(s)) return t('status.damaged');
  if (over(s)) return resultWords(s).line;
  if (online(s)) {
    if (s.status === 'waiting') return t('online.waiting');
    const h = s.next_hand;
    if (myHand(s)) return t('online.yourHand');
    if (h) return turnOf(h.name);
    return t(`status.turn.${s.turn}`);
  }
  if (seat && vsMachine(s)) {
    if (ownMoveShowing(s)) return t('status.yourMove');
    return s.players[s.turn] === 'human' && !s.thinking ? t('status.you') : t('status.thinking');
  }
  return t(`status.turn.${s.turn}`);
}

// The player's own move is still being animated: the machine's turn has
// not visibly begun.
function ownMoveShowing(s) {
  return replaying && !!s.last && s.players[s.last.by] === 'human';
}

function renderStatus(s) {
  const st = $('status');
  st.textContent = '';
  const line = document.createElement('span');
  line.textContent = statusText(s);
  // The hand to play next, online: « À vous de jouer » for that member only.
  if (online(s) && s.next_hand && s.status === 'playing' && !over(s)) {
    line.dataset.nextHand = s.next_hand.name;
    line.className = myHand(s) ? 'next-hand mine' : 'next-hand';
  }
  st.append(line);
  st.classList.toggle('thinking', inPlay(s) && s.players[s.turn] === 'machine' && !ownMoveShowing(s));
  if (!seat) {
    const w = document.createElement('span');
    w.className = 'watch';
    w.textContent = t(online(s) ? 'online.watching' : 'status.watching');
    st.append(w);
  }
  const q = $('quiet');
  q.hidden = s.game !== 'yote';
  if (s.game === 'yote') q.textContent = t('yote.quiet', { n: s.yote.quiet, max: s.yote.quiet_limit ?? 120 });
}

function renderMoves(s) {
  moveList.render(s.moves, viewing);
}

// A move picked in the list: the position after it, read-only.
async function viewPly(p) {
  const s = shown;
  if (!s || p >= s.ply || p < 0) return backToLive();
  const same = (a, b) => a.slice(0, p).join(' ') === b.slice(0, p).join(' ');
  if (!frames || p >= frames.frames.length || !same(frames.moves, s.moves)) {
    try {
      const r = await api.replay(id);
      frames = { frames: r.frames || [], moves: s.moves.slice() };
    } catch (e) {
      say({ text: errorText(e), error: true });
      return;
    }
  }
  if (!frames.frames[p]) return;
  proposed = null;
  viewing = p;
  render();
}

function backToLive() {
  if (viewing == null) return;
  viewing = null;
  render();
}

function renderActions(s) {
  if (online(s)) return renderOnlineActions(s);
  $('act-abort').hidden = true;
  $('act-rematch').hidden = true;
  // Hints are for games against the machine or on one screen, never online.
  const playing = !!seat && inPlay(s);
  const mine = canPlay(s) && !sending && !replaying;
  $('act-hint').hidden = !playing;
  $('act-takeback').hidden = !playing;
  $('act-takeback').textContent = t('action.takeback');
  $('act-draw').hidden = !playing;
  $('act-resign').hidden = !playing;
  $('move-form').hidden = !playing;
  $('act-hint').disabled = !mine;
  $('act-takeback').disabled = sending || s.thinking || !s.moves.length || replaying;
  $('act-draw').disabled = sending || !!s.draw_offer || (vsMachine(s) && !mine);
  $('act-resign').disabled = sending;
  $('move-input').disabled = !mine;
  $('move-form').querySelector('button').disabled = !mine;
  if (!resignArmed) $('act-resign').textContent = t('action.resign');
}

function renderOnlineActions(s) {
  const playing = !!seat && inPlay(s);
  const busy = !!asked || !live || !live.up;
  const mine = canPlay(s) && !replaying;
  $('act-hint').hidden = true;
  // Online, a take-back is a request the other side answers.
  $('act-takeback').hidden = !playing || !mySide(s) || !s.moves.length;
  $('act-takeback').disabled = busy || !!s.takeback_offer;
  $('act-takeback').textContent = t('action.takebackAsk');
  $('act-draw').hidden = !playing;
  $('act-resign').hidden = !playing;
  $('act-abort').hidden = !seat || over(s) || damaged(s) || s.ply > 0;
  $('act-rematch').hidden = !seat || !over(s) || !s.result || s.result.reason === 'aborted';
  $('move-form').hidden = !playing;
  $('act-draw').disabled = busy || !!s.draw_offer;
  $('act-resign').disabled = busy;
  $('act-abort').disabled = busy;
  $('act-rematch').disabled = busy;
  $('act-rematch').textContent = t(s.rematch ? 'action.joinRematch' : 'action.rematch');
  $('move-input').disabled = !mine;
  $('move-form').querySelector('button').disabled = !mine;
  if (!resignArmed) $('act-resign').textContent = t('action.resign');
  renderStart(s);
}

// A team game may start before every place is taken, once each side has
// a member: any seated member may launch it.
function renderStart(s) {
  const waiting = online(s) && s.status === 'waiting' && !over(s);
  const sides = sidesOf(s);
  const ready = waiting && sides.every((side) => ((s.teams && s.teams[side]) || []).length > 0);
  $('start-row').hidden = !waiting || !seat || (s.team_size || 1) < 2;
  $('act-start').disabled = !ready || !!asked || !live || !live.up;
}

function offerSide(o) {
  return typeof o === 'string' ? o : o && (o.by || o.side);
}

function renderDrawOffer(s) {
  const box = $('draw-offer');
  if (online(s)) {
    // Online: every member of the other side may answer; the offering side waits.
    const by = offerSide(s.draw_offer);
    box.hidden = !s.draw_offer || !inPlay(s);
    const answer = !!seat && !!by && mySide(s) && by !== mySide(s);
    $('draw-accept').hidden = !answer;
    $('draw-decline').hidden = !answer;
    $('draw-accept').disabled = !!asked;
    $('draw-decline').disabled = !!asked;
    if (by) $('draw-offer-text').textContent = by === mySide(s) ? t('draw.youOffered') : t(`draw.offer.${by}`);
    return;
  }
  $('draw-accept').hidden = false;
  $('draw-decline').hidden = false;
  const show = !!seat && inPlay(s) && !!s.draw_offer && !vsMachine(s);
  box.hidden = !show;
  if (show) {
    const by = offerSide(s.draw_offer);
    $('draw-offer-text').textContent = by ? t(`draw.offer.${by}`) : t('draw.offer');
  }
}

// Online: a take-back request, answered by the other side.
function renderTakebackOffer(s) {
  const o = s.takeback_offer;
  const box = $('takeback-offer');
  box.hidden = !o || !online(s) || !inPlay(s);
  if (box.hidden) return;
  const by = offerSide(o);
  const answer = !!seat && !!mySide(s) && by !== mySide(s);
  $('takeback-accept').hidden = !answer;
  $('takeback-decline').hidden = !answer;
  $('takeback-accept').disabled = !!asked;
  $('takeback-decline').disabled = !!asked;
  $('takeback-offer-text').textContent = by === mySide(s) ? t('takeback.youAsked') : t(`takeback.asked.${by}`);
}

function renderConfirm() {
  $('confirm-move').hidden = !proposed;
  if (proposed) $('confirm-text').textContent = t('game.confirmMove', { move: proposed });
}

// A damaged game says why nothing can be done in it.
function renderReadOnly(s) {
  $('readonly').hidden = !damaged(s);
}

function renderNote() {
  const m = $('message');
  m.hidden = !note;
  m.classList.toggle('error', !!(note && note.error));
  m.textContent = note ? note.text || t(note.key, note.vars) : '';
}

function resultWords(s) {
  const r = s.result;
  if (!r || r.reason === 'aborted') {
    // Online, a game ended before its first move: no result.
    const word = t('end.aborted');
    return { word, sub: '', reason: t('reason.aborted'), line: word };
  }
  const w = r.winner;
  const loser = w ? other[w] : null;
  let win;
  if (!w) win = t('end.draw');
  else if (seat && vsMachine(s)) win = s.players[w] === 'human' ? t('end.youWin') : t('end.machineWins');
  else if (mySide(s)) win = w === mySide(s) ? t('end.youWin') : t('end.youLose', { side: sideName(w) });
  else win = t(`end.victory.${w}`);
  const key = loser && has(`reason.${r.reason}.${loser}`) ? `reason.${r.reason}.${loser}` : `reason.${r.reason}`;
  const reason = has(key) ? t(key) : '';
  const word = r.reason === 'ndar-kepp' ? 'Ndar-Kepp' : win;
  return { word, sub: r.reason === 'ndar-kepp' ? win : '', reason, line: [win, reason].filter(Boolean).join(' — ') };
}

function renderEnd(s) {
  const end = $('end');
  const show = over(s) && !damaged(s) && !endDismissed;
  if (!show) {
    end.hidden = true;
    return;
  }
  const r = resultWords(s);
  end.dataset.result = s.result ? s.result.winner || 'draw' : 'aborted';
  end.dataset.reason = s.result ? s.result.reason : 'aborted';
  const rematch = online(s) && !!s.result && s.result.reason !== 'aborted';
  $('end-rematch').hidden = !rematch || !seat;
  $('end-rematch').disabled = !!asked || !live || !live.up;
  $('end-rematch').textContent = t(s.rematch ? 'action.joinRematch' : 'action.rematch');
  $('end-rematch-link').hidden = !rematch || !!seat || !s.rematch;
  $('end-new').classList.toggle('primary', $('end-rematch').hidden && $('end-rematch-link').hidden);
  if (s.rematch) $('end-rematch-link').href = `/partie/${encodeURIComponent(s.rematch)}`;
  $('end-again').hidden = !(seat && vsMachine(s));
  $('end-again').disabled = sending;
  if (!$('end-again').hidden) $('end-new').classList.remove('primary');
  $('end-note').hidden = !(rematch && seat && s.rematch);
  $('end-note').textContent = t('online.rematchOffered');
  $('end-word').textContent = r.word;
  $('end-sub').textContent = r.sub;
  $('end-sub').hidden = !r.sub;
  $('end-reason').textContent = r.reason;
  if (end.hidden) {
    end.hidden = false;
    $('end-close').focus();
  }
}

// ---- actions -------------------------------------------------------------

// Against the machine and on one screen: an action over HTTP, whose answer
// is the new state (the same state also comes over the live socket).
async function send(fn, { reset = false, after, context } = {}) {
  sending = true;
  render();
  try {
    const s = await fn();
    if (after) after(s);
    if (s && s.ply !== undefined) receive(s, reset ? 'reset' : 'move');
  } catch (e) {
    say({ text: errorText(e, context), error: true });
  } finally {
    sending = false;
    render();
  }
}

function play(move, confirmed = false) {
  if (!shown || !seat) return;
  if (viewing != null) return;
  if (settings.get('confirm') && !confirmed) {
    proposed = move;
    render();
    $('confirm-yes').focus();
    return;
  }
  proposed = null;
  note = null;
  if (online(shown)) {
    if (!canPlay(shown)) return;
    pending = { move, ply: shown.ply };
    if (!live.send({ type: 'move', move, ply: shown.ply })) pending.resend = true;
    render();
    return;
  }
  send(() => api.playMove(id, seat, move, shown.ply), { context: 'move' });
}

// Online: a message that changes the game (draw, resign, abort, rematch);
// its answer is a new state, `rematch` or an error.
function ask(msg) {
  note = null;
  if (!live || !live.send(msg)) {
    say({ key: 'online.notSent', error: true, transient: true });
    return;
  }
  asked = msg.type;
  clearTimeout(ask.timer);
  ask.timer = setTimeout(() => {
    asked = null;
    render();
  }, 8000);
  render();
}

function answered() {
  asked = null;
  clearTimeout(ask.timer);
}

function onLive(msg) {
  if (msg.type === 'state') {
    const s = msg.state;
    if (pending && s.ply > pending.ply) pending = null;
    if (asked && asked !== 'rematch') answered();
    receive(s, 'event');
  } else if (msg.type === 'ok') {
    // An action other than a move was accepted; its state comes (or came) apart.
    if (asked !== 'rematch') answered();
    render();
  } else if (msg.type === 'ack') {
    if (pending && msg.ply === pending.ply) pending = null;
    render();
  } else if (msg.type === 'error') {
    if (msg.code === 'wrong_seat' && live && !live.up) live.seat = null; // watch instead
    const resent = pending && pending.resent;
    const wasMove = !!pending;
    pending = null;
    answered();
    // A move sent again after a reconnection may have been played meanwhile.
    if (!(resent && msg.code === 'stale_ply')) say({ text: errorText(msg, wasMove ? 'move' : undefined), error: true, transient: true });
    render();
  } else if (msg.type === 'rematch') {
    answered();
    const s = shown;
    const side = s && mySide(s) ? other[mySide(s)] : undefined;
    const name = (s && mySide(s) && s.teams[mySide(s)][myIndex(s)]?.name) || saved.name || api.loadName();
    api.saveSeat(msg.id, msg.seat, side, { name });
    location.assign(`/partie/${encodeURIComponent(msg.id)}`);
  }
}

function onLink(status) {
  document.body.dataset.conn = status;
  $('conn').hidden = status === 'open';
  if (status === 'open' && pending) {
    // The move may or may not have been stored: send it again, the server
    // acknowledges a duplicate again.
    pending.resent = true;
    pending.resend = false;
    live.send({ type: 'move', move: pending.move, ply: pending.ply });
  }
  if (status === 'lost') answered();
  pollWhileLost(status === 'lost');
  if (shown) render();
}

// While the socket is down (a network that refuses WebSockets, a server
// restarting), a game waiting for someone else (the machine's reply,
// another screen's move) is read every few seconds instead. Never while it
// is this page's turn: a move being built is not redrawn under the finger.
const POLL_MS = 3000;

function pollWhileLost(lost) {
  clearInterval(poller);
  poller = null;
  if (!lost) return;
  poller = setInterval(() => {
    const s = shown;
    if (!s || !inPlay(s) || canPlay(s) || sending || replaying || document.hidden) return;
    api.getGame(id).then((g) => receive(g, 'reset'), () => {});
  }, POLL_MS);
}

function startLive() {
  live = new Live(id, {
    seat,
    ply: () => (queue.length ? queue[queue.length - 1] : shown)?.ply ?? 0,
    onMessage: onLive,
    onStatus: onLink,
  });
  ticker = setInterval(tick, 200);
}

function normalise(m) {
  const s = m.trim().replace(/\s+/g, '');
  return shown && shown.game === 'yote' ? s.toLowerCase() : s.toUpperCase();
}

function cellsOf(move) {
  return shown.game === 'yote' ? move.match(/[a-e][1-5]/g) || [] : move.match(/[A-D]\d{1,2}/g) || [];
}

function wire() {
  $('move-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const v = normalise($('move-input').value);
    if (!v) return;
    $('move-input').value = '';
    play(v);
  });
  $('act-hint').addEventListener('click', async () => {
    if (!shown || online(shown)) return;
    try {
      const h = await api.hint(id, seat);
      hintCells = cellsOf(h.move);
      say({ key: 'game.hint', vars: { move: h.move }, transient: true });
      render();
    } catch (e) {
      say({ text: errorText(e), error: true });
    }
  });
  $('act-takeback').addEventListener('click', () => {
    if (online(shown)) return ask({ type: 'takeback', action: 'offer' });
    note = null;
    send(() => api.takeback(id, seat), { reset: true });
  });
  // The answer names the offer it answers: a newer one is not answered by mistake.
  const answerTakeback = (action) => ask({ type: 'takeback', action, ply: shown.takeback_offer?.ply });
  $('takeback-accept').addEventListener('click', () => answerTakeback('accept'));
  $('takeback-decline').addEventListener('click', () => answerTakeback('decline'));
  $('act-start').addEventListener('click', () => ask({ type: 'start' }));
  $('history-back').addEventListener('click', backToLive);
  $('confirm-yes').addEventListener('click', () => proposed && play(proposed, true));
  $('confirm-no').addEventListener('click', () => {
    proposed = null;
    render();
  });
  $('end-again').addEventListener('click', playAgain);
  $('act-share').addEventListener('click', shareGame);
  moveList = new MoveList($('moves-box'), $('moves'), { onPick: viewPly });
  mountSettings($('settings'));
  settings.onChange(() => shown && render());
  anim.onRows = (rows) => {
    if (!counts || !shown) return;
    counts = stonesOf(rows);
    for (const c of document.querySelectorAll('.side-bar [data-count]')) c.textContent = t('nsolo.stones', { n: counts[c.dataset.count] });
  };
  $('act-draw').addEventListener('click', () => {
    if (online(shown)) return ask({ type: 'draw', action: 'offer' });
    note = null;
    send(() => api.draw(id, seat, 'offer'), {
      reset: true,
      after: (s) => {
        if (vsMachine(s) && s.draw_declined) note = { key: 'draw.declined', transient: true };
        else if (!vsMachine(s)) note = null;
      },
    });
  });
  $('draw-accept').addEventListener('click', () => {
    if (online(shown)) return ask({ type: 'draw', action: 'accept' });
    send(() => api.draw(id, seat, 'accept'), { reset: true });
  });
  $('draw-decline').addEventListener('click', () => {
    if (online(shown)) return ask({ type: 'draw', action: 'decline' });
    send(() => api.draw(id, seat, 'decline'), {
      reset: true,
      after: () => (note = { key: 'draw.refused', transient: true }),
    });
  });
  $('act-abort').addEventListener('click', () => ask({ type: 'abort' }));
  $('act-rematch').addEventListener('click', () => ask({ type: 'rematch' }));
  $('end-rematch').addEventListener('click', () => ask({ type: 'rematch' }));
  $('copy-invite').addEventListener('click', copyInvite);
  const resignBtn = $('act-resign');
  resignBtn.addEventListener('click', () => {
    if (!resignArmed) {
      resignBtn.textContent = t('action.resignConfirm');
      resignArmed = setTimeout(() => {
        resignArmed = null;
        render();
      }, 4000);
      return;
    }
    clearTimeout(resignArmed);
    resignArmed = null;
    endDismissed = false;
    if (online(shown)) return ask({ type: 'resign' });
    const body = vsMachine(shown) ? {} : { side: shown.turn };
    send(() => api.resign(id, seat, body), { reset: true });
  });
  $('end-close').addEventListener('click', () => {
    endDismissed = true;
    $('end').hidden = true;
    $('status').focus?.();
  });
  $('end').addEventListener('keydown', (e) => {
    if (e.key === 'Escape') $('end-close').click();
  });

  const speed = $('speed');
  speed.value = String(anim.speed);
  if (!speed.value) speed.value = '150';
  speed.addEventListener('change', () => anim.setSpeed(+speed.value));
  $('skip').addEventListener('click', () => anim.skip());
  anim.onChange = (running) => {
    $('skip').hidden = !running;
    if (shown) renderActions(shown);
  };
  addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && anim.running) anim.skip();
    else if (e.key === 'Escape' && viewing != null) backToLive();
  });

  const mute = $('mute');
  const showMute = () => {
    mute.setAttribute('aria-pressed', String(sound.isMuted()));
    mute.classList.toggle('muted', sound.isMuted());
  };
  mute.addEventListener('click', () => {
    sound.setMuted(!sound.isMuted());
    showMute();
  });
  showMute();
  document.addEventListener('langchange', render);
}

// « Rejouer »: the same game against the same level, sides swapped.
async function playAgain() {
  const s = shown;
  if (!s || !vsMachine(s)) return;
  const human = humanSides(s)[0];
  const side = human ? other[human] : 'random';
  const body = { game: s.game, opponent: 'machine', level: s.level, side };
  if (s.game === 'nsolo') body.size = s.size;
  sending = true;
  render();
  try {
    const r = await api.createGame(body);
    api.saveSeat(r.id, r.seat, r.side);
    location.assign(`/partie/${encodeURIComponent(r.id)}`);
  } catch (e) {
    sending = false;
    say({ text: errorText(e), error: true });
    render();
  }
}

// The share sheet on phones, else the link copied: the invitation while
// places are free, the game's page otherwise.
async function shareGame() {
  const s = shown;
  if (!s) return;
  const waiting = online(s) && s.status === 'waiting';
  const path = `/partie/${encodeURIComponent(id)}${waiting ? '/rejoindre' : ''}`;
  const url = new URL(path, location.origin).href;
  let how = 'failed';
  try {
    const { share } = await import('./share.js');
    how = await share({ title: `${gameLabel(s)} · Palabre`, text: t(waiting ? 'share.invite' : 'share.game', { game: gameLabel(s) }), url });
  } catch {
    how = 'failed';
  }
  $('shared').textContent = how === 'copied' ? t('online.copied') : how === 'failed' ? t('share.failed', { url }) : '';
  clearTimeout(copiedTimer);
  copiedTimer = setTimeout(() => ($('shared').textContent = ''), 4000);
}

async function copyInvite() {
  const link = $('invite');
  let ok = false;
  try {
    await navigator.clipboard.writeText(link.href);
    ok = true;
  } catch {
    // No clipboard access: select the link so that it can be copied by hand.
    const r = document.createRange();
    r.selectNodeContents(link);
    const sel = getSelection();
    sel.removeAllRanges();
    sel.addRange(r);
    try {
      ok = document.execCommand('copy');
    } catch {
      ok = false;
    }
  }
  $('copied').textContent = t(ok ? 'online.copied' : 'online.copyByHand');
  clearTimeout(copiedTimer);
  copiedTimer = setTimeout(() => ($('copied').textContent = ''), 4000);
}

async function start() {
  await initI18n();
  wire();
  try {
    receive(await api.getGame(id), 'reset');
  } catch (e) {
    // A game too damaged to be read at all is refused: say so, as for one shown read-only.
    $('status').textContent = e.code === 'damaged' ? t('status.damaged') : errorText(e);
    $('readonly').hidden = e.code !== 'damaged';
    $('actions').hidden = true;
    $('move-form').hidden = true;
    if (e.code) document.body.dataset.error = e.code;
    return;
  }
  startLive();
}

start();
