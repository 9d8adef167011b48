// The invitation, online, while places are free: the link to send, the
// places taken and free on each side, and the link copied on a click.

import { t } from './i18n.js';
import { online, over, sidesOf } from './permissions.js';
import { presence, sideName, memberName, botBadge } from './panel-bars.js';

const $ = (id) => document.getElementById(id);

export function renderWaiting(s, v) {
  const box = $('waiting');
  const show = online(s) && s.status === 'waiting' && !over(s);
  box.hidden = !show;
  $('game').classList.toggle('is-waiting', show);
  if (!show) return;
  const path = v.links?.invite || '';
  const url = new URL(path, location.origin).href;
  const link = $('invite');
  link.href = url;
  link.textContent = url;
  $('copy-invite').hidden = !v.seat;
  $('join-link').hidden = !!v.seat;
  $('join-link').href = path;
  $('waiting-lead').textContent = t(v.seat ? 'online.inviteLead' : 'online.spectatorLead');
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
        li.append(presence(m), memberName(m), botBadge(m));
        if (side === v.mySide && i === v.myIndex) li.append(` (${t('player.you')})`);
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

let copiedTimer = null;

export async function copyInvite() {
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
