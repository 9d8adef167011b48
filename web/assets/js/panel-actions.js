// The game page's buttons under the status: hint, take-back, draw, resign,
// abort, rematch, start, the move form, the draw and take-back offers to
// answer, and « Partager ». They show and enable themselves from the state;
// game.js says what a click does.

import { t } from './i18n.js';
import { gameLabel } from './online.js';
import { vsMachine, online, over, damaged, inPlay, sidesOf, rematchable } from './permissions.js';

const $ = (id) => document.getElementById(id);

// v.resignArmed: the resign button asks for a second click.
export function renderActions(s, v) {
  // A game kept in this browser has no address to share.
  $('act-share').hidden = !v.links?.page;
  if (online(s)) return renderOnlineActions(s, v);
  $('act-abort').hidden = true;
  $('act-rematch').hidden = true;
  // Hints are for games against the machine or on one screen, never online.
  const playing = !!v.seat && inPlay(s);
  const mine = v.canPlay && !v.sending && !v.replaying;
  $('act-hint').hidden = !playing;
  $('act-takeback').hidden = !playing;
  $('act-takeback').textContent = t('action.takeback');
  $('act-draw').hidden = !playing;
  $('act-resign').hidden = !playing;
  $('move-form').hidden = !playing;
  $('act-hint').disabled = !mine;
  $('act-takeback').disabled = v.sending || s.thinking || !s.moves.length || v.replaying;
  $('act-draw').disabled = v.sending || !!s.draw_offer || (vsMachine(s) && !mine);
  $('act-resign').disabled = v.sending;
  $('move-input').disabled = !mine;
  $('move-form').querySelector('button').disabled = !mine;
  if (!v.resignArmed) $('act-resign').textContent = t('action.resign');
}

function renderOnlineActions(s, v) {
  const playing = !!v.seat && inPlay(s);
  const busy = !!v.asked || !v.up;
  const mine = v.canPlay && !v.replaying;
  $('act-hint').hidden = true;
  // Online, a take-back is a request the other side answers; never in a rated game.
  $('act-takeback').hidden = !playing || !v.mySide || !s.moves.length || !!s.rated;
  $('act-takeback').disabled = busy || !!s.takeback_offer;
  $('act-takeback').textContent = t('action.takebackAsk');
  $('act-draw').hidden = !playing;
  $('act-resign').hidden = !playing;
  $('act-abort').hidden = !v.seat || over(s) || damaged(s) || s.ply > 0;
  $('act-rematch').hidden = !v.seat || !over(s) || !rematchable(s);
  $('move-form').hidden = !playing;
  $('act-draw').disabled = busy || !!s.draw_offer;
  $('act-resign').disabled = busy;
  $('act-abort').disabled = busy;
  $('act-rematch').disabled = busy;
  $('act-rematch').textContent = t(s.rematch ? 'action.joinRematch' : 'action.rematch');
  $('move-input').disabled = !mine;
  $('move-form').querySelector('button').disabled = !mine;
  if (!v.resignArmed) $('act-resign').textContent = t('action.resign');
  renderStart(s, v);
}

// A team game may start before every place is taken, once each side has
// a member: any seated member may launch it.
function renderStart(s, v) {
  const waiting = online(s) && s.status === 'waiting' && !over(s);
  const ready = waiting && sidesOf(s).every((side) => ((s.teams && s.teams[side]) || []).length > 0);
  $('start-row').hidden = !waiting || !v.seat || (s.team_size || 1) < 2;
  $('act-start').disabled = !ready || !!v.asked || !v.up;
}

function offerSide(o) {
  return typeof o === 'string' ? o : o && (o.by || o.side);
}

export function renderDrawOffer(s, v) {
  const box = $('draw-offer');
  if (online(s)) {
    // Online: every member of the other side may answer; the offering side waits.
    const by = offerSide(s.draw_offer);
    box.hidden = !s.draw_offer || !inPlay(s);
    const answer = !!v.seat && !!by && v.mySide && by !== v.mySide;
    $('draw-accept').hidden = !answer;
    $('draw-decline').hidden = !answer;
    $('draw-accept').disabled = !!v.asked;
    $('draw-decline').disabled = !!v.asked;
    if (by) $('draw-offer-text').textContent = by === v.mySide ? t('draw.youOffered') : t(`draw.offer.${by}`);
    return;
  }
  $('draw-accept').hidden = false;
  $('draw-decline').hidden = false;
  const show = !!v.seat && inPlay(s) && !!s.draw_offer && !vsMachine(s);
  box.hidden = !show;
  if (show) {
    const by = offerSide(s.draw_offer);
    $('draw-offer-text').textContent = by ? t(`draw.offer.${by}`) : t('draw.offer');
  }
}

// Online: a take-back request, answered by the other side.
export function renderTakebackOffer(s, v) {
  const o = s.takeback_offer;
  const box = $('takeback-offer');
  box.hidden = !o || !online(s) || !inPlay(s);
  if (box.hidden) return;
  const by = offerSide(o);
  const answer = !!v.seat && !!v.mySide && by !== v.mySide;
  $('takeback-accept').hidden = !answer;
  $('takeback-decline').hidden = !answer;
  $('takeback-accept').disabled = !!v.asked;
  $('takeback-decline').disabled = !!v.asked;
  $('takeback-offer-text').textContent = by === v.mySide ? t('takeback.youAsked') : t(`takeback.asked.${by}`);
}

let sharedTimer = null;

// The share sheet on phones, else the link copied: the invitation while
// places are free, the game's page otherwise.
export async function shareGame(s, links) {
  if (!s) return;
  const waiting = online(s) && s.status === 'waiting';
  const path = waiting ? links?.invite : links?.page;
  if (!path) return;
  const url = new URL(path, location.origin).href;
  let how = 'failed';
  try {
    const { share } = await import('./share.js');
    how = await share({ title: `${gameLabel(s)} · Palabre`, text: t(waiting ? 'share.invite' : 'share.game', { game: gameLabel(s) }), url });
  } catch {
    how = 'failed';
  }
  $('shared').textContent = how === 'copied' ? t('online.copied') : how === 'failed' ? t('share.failed', { url }) : '';
  clearTimeout(sharedTimer);
  sharedTimer = setTimeout(() => ($('shared').textContent = ''), 4000);
}
