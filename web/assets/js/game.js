// The game page: loads the state, follows the event stream, animates each new
// move, shows whose turn it is and sends what the player does to the server.

import { initI18n, t, has } from './i18n.js';
import * as api from './api.js';
import * as sound from './sound.js';
import { YoteBoard } from './board-yote.js';
import { NsoloBoard } from './board-nsolo.js';
import { Animator } from './animate.js';

const $ = (id) => document.getElementById(id);
const id = decodeURIComponent(location.pathname.replace(/\/+$/, '').split('/').pop());
const seat = api.loadSeat(id)?.seat || null;
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

const other = { red: 'black', black: 'red', south: 'north', north: 'south' };

function humanSides(s) {
  return Object.keys(s.players || {}).filter((k) => s.players[k] === 'human');
}

function vsMachine(s) {
  return s.opponent === 'machine';
}

function flipped(s) {
  if (!seat || !vsMachine(s)) return false;
  const h = humanSides(s)[0];
  return h === 'black' || h === 'north';
}

function canPlay(s) {
  return !!seat && !s.result && s.players[s.turn] === 'human' && !s.thinking;
}

function errorText(e) {
  return has(`error.${e.code}`) ? t(`error.${e.code}`) : e.message || t('error.internal');
}

function say(n) {
  note = n;
  renderNote();
}

// ---- states in, one at a time ------------------------------------------

function receive(s, source) {
  if (!s) return;
  const ref = queue.length ? queue[queue.length - 1] : shown;
  if (ref && s.ply < ref.ply && source !== 'reset') {
    // An older state from the stream: a takeback, or a late event. Ask.
    api.getGame(id).then((g) => receive(g, 'reset'), () => {});
    return;
  }
  if (ref && source === 'move' && s.ply <= ref.ply) return;
  queue.push(s);
  pump();
}

async function pump() {
  if (pumping) return;
  pumping = true;
  while (queue.length) {
    const s = queue.shift();
    const prev = shown;
    const moved = prev && s.game === prev.game && s.last && s.ply === prev.ply + 1 && s.last.ply === prev.ply;
    if (moved) {
      hintCells = [];
      if (note && note.transient) note = null;
      renderNote();
      shown = s;
      replaying = true;
      render();
      try {
        await anim.run(() => (s.game === 'yote'
          ? anim.yote(board, prev.yote, s.last)
          : anim.nsolo(board, prev.nsolo.rows, (s.last.animation && s.last.animation.steps) || [])));
      } catch {
        /* a broken animation must not block the game */
      }
      replaying = false;
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
  board = s.game === 'yote' ? new YoteBoard(host, { onMove }) : new NsoloBoard(host, { onMove });
  $('game').classList.toggle('wide', s.game === 'nsolo' && s.size > 12);
  $('game').classList.add(`is-${s.game}`);
  $('act-new').href = `/nouvelle?jeu=${s.game}`;
  $('end-new').href = `/nouvelle?jeu=${s.game}`;
  $('move-input').dataset.i18nAttr = `placeholder:game.notationHint.${s.game}`;
  $('move-input').placeholder = t(`game.notationHint.${s.game}`);
}

function render() {
  const s = shown;
  if (!s) return;
  if (!board) setupBoard(s);
  if (!replaying) renderBoard(s);
  renderHeader(s);
  renderBars(s);
  renderStatus(s);
  renderMoves(s);
  renderActions(s);
  renderDrawOffer(s);
  renderNote();
  if (!replaying) renderEnd(s);
}

function renderBoard(s) {
  const interactive = canPlay(s) && !sending;
  // Hooks for tools and browser tests: the ply on screen and whether it waits for a click.
  document.body.dataset.ply = String(s.ply);
  document.body.dataset.ready = interactive ? '1' : '0';
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
  const name = s.game === 'yote' ? 'Yoté' : `Nsolo 4×${s.size}`;
  const who = vsMachine(s) ? t('game.vsMachine', { level: t(`level.${s.level}`) }) : t('game.local');
  $('game-name').textContent = `${name} · ${who}`;
  document.title = `${name} · Palabre`;
}

function who(s, side) {
  if (s.players[side] === 'machine') return t('player.machine');
  if (seat && vsMachine(s)) return t('player.you');
  return '';
}

function renderBars(s) {
  const sides = s.game === 'yote' ? ['red', 'black'] : ['south', 'north'];
  const [bottom, top] = flipped(s) ? [sides[1], sides[0]] : sides;
  for (const [el, side] of [[$('bar-top'), top], [$('bar-bottom'), bottom]]) {
    el.textContent = '';
    el.dataset.side = side;
    el.classList.toggle('to-move', !s.result && s.turn === side);
    const dot = document.createElement('span');
    dot.className = `swatch ${side}`;
    const name = document.createElement('strong');
    name.textContent = sideName(side);
    el.append(dot, name);
    const w = who(s, side);
    if (w) {
      const span = document.createElement('span');
      span.textContent = ` · ${w}`;
      el.append(span);
    }
    if (s.game === 'nsolo') {
      const c = document.createElement('span');
      c.className = 'count';
      c.textContent = t('nsolo.stones', { n: s.nsolo.stones[side] });
      el.append(c);
    }
    if (!s.result && s.turn === side) {
      const tm = document.createElement('span');
      tm.className = 'turn-tag';
      tm.textContent = t('game.toMove');
      el.append(tm);
    }
  }
}

function statusText(s) {
  if (s.result) return resultWords(s).line;
  if (seat && vsMachine(s)) return s.players[s.turn] === 'human' && !s.thinking ? t('status.you') : t('status.thinking');
  return t(`status.turn.${s.turn}`);
}

function renderStatus(s) {
  const st = $('status');
  st.textContent = statusText(s);
  st.classList.toggle('thinking', !s.result && s.players[s.turn] === 'machine');
  if (!seat) {
    const w = document.createElement('span');
    w.className = 'watch';
    w.textContent = t('status.watching');
    st.append(w);
  }
  const q = $('quiet');
  q.hidden = s.game !== 'yote';
  if (s.game === 'yote') q.textContent = t('yote.quiet', { n: s.yote.quiet, max: s.yote.quiet_limit ?? 120 });
}

function renderMoves(s) {
  const ol = $('moves');
  ol.textContent = '';
  for (let i = 0; i < s.moves.length; i += 2) {
    const li = document.createElement('li');
    for (const m of s.moves.slice(i, i + 2)) {
      const span = document.createElement('span');
      span.textContent = m;
      li.append(span);
    }
    ol.append(li);
  }
  ol.parentElement.scrollTop = ol.parentElement.scrollHeight;
}

function renderActions(s) {
  const live = !!seat && !s.result;
  const mine = canPlay(s) && !sending && !replaying;
  $('act-hint').hidden = !live;
  $('act-takeback').hidden = !live || !vsMachine(s);
  $('act-draw').hidden = !live;
  $('act-resign').hidden = !live;
  $('move-form').hidden = !live;
  $('act-hint').disabled = !mine;
  $('act-takeback').disabled = sending || s.thinking || !s.moves.length || replaying;
  $('act-draw').disabled = sending || !!s.draw_offer || (vsMachine(s) && !mine);
  $('act-resign').disabled = sending;
  $('move-input').disabled = !mine;
  $('move-form').querySelector('button').disabled = !mine;
  if (!resignArmed) $('act-resign').textContent = t('action.resign');
}

function offerSide(o) {
  return typeof o === 'string' ? o : o && (o.by || o.side);
}

function renderDrawOffer(s) {
  const box = $('draw-offer');
  const show = !!seat && !s.result && !!s.draw_offer && !vsMachine(s);
  box.hidden = !show;
  if (show) {
    const by = offerSide(s.draw_offer);
    $('draw-offer-text').textContent = by ? t(`draw.offer.${by}`) : t('draw.offer');
  }
}

function renderNote() {
  const m = $('message');
  m.hidden = !note;
  m.classList.toggle('error', !!(note && note.error));
  m.textContent = note ? note.text || t(note.key, note.vars) : '';
}

function resultWords(s) {
  const r = s.result;
  const w = r.winner;
  const loser = w ? other[w] : null;
  let win;
  if (!w) win = t('end.draw');
  else if (seat && vsMachine(s)) win = s.players[w] === 'human' ? t('end.youWin') : t('end.machineWins');
  else win = t(`end.victory.${w}`);
  const key = loser && has(`reason.${r.reason}.${loser}`) ? `reason.${r.reason}.${loser}` : `reason.${r.reason}`;
  const reason = t(key);
  const word = r.reason === 'ndar-kepp' ? 'Ndar-Kepp' : win;
  return { word, sub: r.reason === 'ndar-kepp' ? win : '', reason, line: w ? `${win} — ${reason}` : reason };
}

function renderEnd(s) {
  const end = $('end');
  const show = !!s.result && !endDismissed;
  if (!show) {
    end.hidden = true;
    return;
  }
  const r = resultWords(s);
  end.dataset.result = s.result.winner || 'draw';
  end.dataset.reason = s.result.reason;
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

async function send(fn, { reset = false, after } = {}) {
  sending = true;
  render();
  try {
    const s = await fn();
    if (after) after(s);
    if (s && s.ply !== undefined) receive(s, reset ? 'reset' : 'move');
  } catch (e) {
    say({ text: errorText(e), error: true });
  } finally {
    sending = false;
    render();
  }
}

function play(move) {
  if (!shown || !seat) return;
  note = null;
  send(() => api.playMove(id, seat, move, shown.ply));
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
    note = null;
    send(() => api.takeback(id, seat), { reset: true });
  });
  $('act-draw').addEventListener('click', () => {
    note = null;
    send(() => api.draw(id, seat, 'offer'), {
      reset: true,
      after: (s) => {
        if (vsMachine(s) && s.draw_declined) note = { key: 'draw.declined', transient: true };
        else if (!vsMachine(s)) note = null;
      },
    });
  });
  $('draw-accept').addEventListener('click', () => send(() => api.draw(id, seat, 'accept'), { reset: true }));
  $('draw-decline').addEventListener('click', () => send(() => api.draw(id, seat, 'decline'), {
    reset: true,
    after: () => (note = { key: 'draw.refused', transient: true }),
  }));
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

async function start() {
  await initI18n();
  wire();
  try {
    const s = await api.getGame(id);
    receive(s, 'reset');
  } catch (e) {
    $('status').textContent = e.code === 'not_found' ? t('error.not_found') : errorText(e);
    $('actions').hidden = true;
    $('move-form').hidden = true;
    return;
  }
  api.subscribe(id, (s) => receive(s, 'event'), () => api.getGame(id).then((g) => receive(g, 'reset'), () => {}));
}

start();
