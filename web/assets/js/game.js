// The game page, wired together: it picks where the game lives (a
// transport), then creates the controller (the state and its rules of
// arrival), the board and the panels, and connects the page's controls to
// the controller. Below makeTransport(), nothing knows whether the game is
// on the server or in this browser.

import { initI18n, t } from './i18n.js';
import { errorText } from './errors.js';
import * as sound from './sound.js';
import { Animator } from './animate.js';
import * as settings from './settings.js';
import { mountSettings, showFaceToFace } from './settings-panel.js';
import { MoveList } from './movelist.js';
import { local, newGameLink, seatFlipped, stonesOf } from './permissions.js';
import { GameController, normalise } from './controller.js';
import { createServerTransport } from './transport-server.js';
import { createBoard, renderBoard, renderHistory } from './panel-board.js';
import { renderBars, renderCounts, tickClocks } from './panel-bars.js';
import { renderHeader, renderStatus, renderNote, renderConfirm, renderReadOnly, renderConn, tapNote } from './panel-status.js';
import { renderActions, renderDrawOffer, renderTakebackOffer, shareGame } from './panel-actions.js';
import { renderWaiting, copyInvite } from './panel-waiting.js';
import { renderEnd } from './end-card.js';

const $ = (id) => document.getElementById(id);
const anim = new Animator();

let ctl = null; // the controller (controller.js)
let links = null; // the transport's addresses (transport.js, Links)
let board = null;
let moveList = null;
let counts = null; // Nsolo stone counts in step with the running animation
let endDismissed = false;
let resignArmed = null; // the resign button waits for its second click

// ---- where the game lives ------------------------------------------------

// /partie/{id}: a game on the server. /partie-locale?id={id}: a game in this
// browser against the engine in a Web Worker; its module is loaded only
// there, so that server games do not download it.
async function makeTransport() {
  if (/^\/(partie-locale|local-game)/.test(location.pathname)) {
    const { createLocalTransport } = await import('./transport-local.js');
    return createLocalTransport(new URLSearchParams(location.search).get('id'));
  }
  const id = decodeURIComponent(location.pathname.replace(/\/+$/, '').split('/').pop());
  return createServerTransport(id);
}

// ---- rendering -----------------------------------------------------------

// What the panels need besides the state: the controller's view and this page's own.
function context(s) {
  return {
    ...ctl.view(s),
    // The seat's natural orientation, turned round when the player asks.
    flipped: !!s && seatFlipped(s, ctl.me) !== !!settings.get('flip'),
    counts,
    links,
    endDismissed,
    resignArmed: !!resignArmed,
  };
}

// A link the transport does not give is not shown.
function setLink(a, href) {
  a.hidden = !href;
  if (href) a.href = href;
}

function setup(s) {
  board = createBoard($('board'), s.game, { onMove, onRefuse });
  $('game').classList.toggle('wide', s.game === 'nsolo' && s.size > 12);
  $('game').classList.add(`is-${s.game}`);
  const again = newGameLink(s);
  $('act-new').href = again;
  $('end-new').href = again;
  setLink($('end-replay'), links?.replay);
  setLink($('end-export'), links?.export);
  if (links?.exportName) $('end-export').setAttribute('download', links.exportName);
  showFaceToFace($('settings'), local(s));
  $('move-input').dataset.i18nAttr = `placeholder:game.notationHint.${s.game}`;
  $('move-input').placeholder = t(`game.notationHint.${s.game}`);
}

// The controller's render callback; part 'note': the note alone.
function paint(part) {
  const s = ctl.shown;
  const v = context(s);
  renderConn(v);
  if (part === 'note') return renderNote(v);
  if (!s) return;
  if (!board) setup(s);
  if (v.viewing != null) renderHistory(board, s, v);
  else if (!v.replaying) renderBoard(board, s, v);
  $('history').hidden = v.viewing == null;
  $('game').classList.toggle('face-to-face', local(s) && !!settings.get('faceToFace'));
  renderHeader(s, v);
  renderWaiting(s, v);
  renderBars(s, v);
  renderStatus(s, v);
  moveList.render(s.moves, v.viewing);
  renderActions(s, v);
  renderDrawOffer(s, v);
  renderTakebackOffer(s, v);
  renderReadOnly(s);
  renderNote(v);
  renderConfirm(v);
  if (!v.replaying) renderEnd(s, v);
}

// The controller's animation runner: the move from prev to s on the board,
// the Nsolo counts beside it following the sowing.
async function animate(prev, s) {
  counts = s.game === 'nsolo' ? stonesOf(prev.nsolo.rows) : null;
  renderBars(s, context(s));
  try {
    await anim.run(() => (s.game === 'yote'
      ? anim.yote(board, prev.yote, s.last)
      : anim.nsolo(board, prev.nsolo.rows, (s.last.animation && s.last.animation.steps) || [])));
  } finally {
    counts = null;
  }
}

// ---- the page's controls -------------------------------------------------

function onMove(move) {
  if (ctl.play(move)) $('confirm-yes').focus();
}

// A tap on a hole or pit that starts no move: say why, briefly.
function onRefuse(name, stage) {
  const key = ctl.refusal(name, stage);
  if (key) tapNote(t(key));
}

function wireResign() {
  const resignBtn = $('act-resign');
  resignBtn.addEventListener('click', () => {
    if (!resignArmed) {
      resignBtn.textContent = t('action.resignConfirm');
      resignArmed = setTimeout(() => {
        resignArmed = null;
        ctl.render();
      }, 4000);
      return;
    }
    clearTimeout(resignArmed);
    resignArmed = null;
    endDismissed = false;
    ctl.resign();
  });
  $('end-close').addEventListener('click', () => {
    endDismissed = true;
    $('end').hidden = true;
    $('status').focus?.();
  });
  $('end').addEventListener('keydown', (e) => {
    if (e.key === 'Escape') $('end-close').click();
  });
}

function wireAnimation() {
  const speed = $('speed');
  speed.value = String(anim.speed);
  if (!speed.value) speed.value = '150';
  speed.addEventListener('change', () => anim.setSpeed(+speed.value));
  $('skip').addEventListener('click', () => anim.skip());
  anim.onChange = (running) => {
    $('skip').hidden = !running;
    if (ctl.shown) renderActions(ctl.shown, context(ctl.shown));
  };
  anim.onRows = (rows) => {
    if (!counts || !ctl.shown) return;
    counts = stonesOf(rows);
    renderCounts(counts);
  };
  addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && anim.running) anim.skip();
    else if (e.key === 'Escape' && ctl.viewing != null) ctl.backToLive();
  });
}

function wireMute() {
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
}

function wire() {
  $('move-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const v = normalise(ctl.shown?.game, $('move-input').value);
    if (!v) return;
    $('move-input').value = '';
    onMove(v);
  });
  const click = (id, f) => $(id).addEventListener('click', f);
  click('act-hint', () => ctl.hint());
  click('act-takeback', () => ctl.takeback());
  click('takeback-accept', () => ctl.answerTakeback('accept'));
  click('takeback-decline', () => ctl.answerTakeback('decline'));
  click('act-start', () => ctl.ask({ type: 'start' }));
  click('history-back', () => ctl.backToLive());
  click('confirm-yes', () => ctl.proposed && ctl.play(ctl.proposed, true));
  click('confirm-no', () => ctl.cancelProposal());
  click('end-again', () => ctl.playAgain());
  click('act-share', () => shareGame(ctl.shown, links));
  click('act-draw', () => ctl.draw('offer'));
  click('draw-accept', () => ctl.draw('accept'));
  click('draw-decline', () => ctl.draw('decline'));
  click('act-abort', () => ctl.ask({ type: 'abort' }));
  click('act-rematch', () => ctl.ask({ type: 'rematch' }));
  click('end-rematch', () => ctl.ask({ type: 'rematch' }));
  click('copy-invite', copyInvite);
  moveList = new MoveList($('moves-box'), $('moves'), { onPick: (p) => ctl.viewPly(p) });
  mountSettings($('settings'));
  settings.onChange(() => ctl.shown && ctl.render());
  wireResign();
  wireAnimation();
  wireMute();
  document.addEventListener('langchange', () => ctl.render());
}

// A game that cannot be read at all: say why, as for one shown read-only.
function refused(e) {
  $('status').textContent = e.code === 'damaged' ? t('status.damaged') : errorText(e);
  $('readonly').hidden = e.code !== 'damaged';
  $('actions').hidden = true;
  $('move-form').hidden = true;
  // No moves to list, animate or set up either.
  for (const box of [$('moves-box'), $('settings-box'), document.querySelector('.anim-ctl')]) box.hidden = true;
  if (e.code) document.body.dataset.error = e.code;
}

async function start() {
  await initI18n();
  let transport;
  try {
    transport = await makeTransport();
  } catch (e) {
    return refused(e);
  }
  try {
    await transport.claim?.();
  } catch (e) {
    return refused(e);
  }
  links = transport.links();
  ctl = new GameController({
    transport,
    render: paint,
    animate,
    confirmMoves: () => !!settings.get('confirm'),
    navigate: (url) => location.assign(url),
  });
  wire();
  try {
    await ctl.load();
  } catch (e) {
    return refused(e);
  }
  ctl.connect();
  setInterval(() => tickClocks(ctl.shown), 200);
}

start();
