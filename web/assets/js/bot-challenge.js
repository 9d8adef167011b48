// « Défier ce bot » on a bot's profile (docs/bot-api.md): a signed-in
// visitor chooses the game (Nsolo with its board size), rated or not, the
// clock and their side, and sends POST /api/challenge/{bot}; the page then
// reads the challenge every 700 ms until the bot answers: accepted, it goes
// to the game (played with the account, no seat needed); declined, it says
// so. « Annuler » withdraws the challenge, and so does leaving the page
// while it waits (a challenge never expires: the bot would start a game
// nobody plays). A guest is asked to sign in first.

import { t, has, currentLang } from './i18n.js';
import * as api from './api.js';
import { errorText } from './errors.js';
import { loginPath } from './account-menu.js';

const $ = (id) => document.getElementById(id);
const SIDES = { yote: ['red', 'black'], nsolo: ['south', 'north'] };
const POLL_MS = 700;
// Refusals worth another try on the next read rather than giving up.
const PASSING = ['network', 'busy', 'unavailable', 'moved', 'rate_limited', 'internal'];

let bot = null; // the bot's username
let pending = null; // the id of the challenge waiting for the bot's answer
let accepted = false;
let timer = null;
let note = null; // what the panel says: {key} or {error}, or null
let wired = false;

const form = () => $('challenge-form');
const value = (name) => form().querySelector(`input[name="${name}"]:checked`)?.value;
// The game page in the reader's language, as the server serves both.
const gamePath = (id) => `${currentLang() === 'en' ? '/game/' : '/partie/'}${encodeURIComponent(id)}`;

// The choices that depend on the game: the board size, the sides' names.
function update() {
  const game = value('ch-game');
  form().dataset.game = game;
  $('ch-size-set').hidden = game !== 'nsolo';
  $('ch-size-out').textContent = `4\u00a0×\u00a0${$('ch-size').value}`;
  for (const input of form().querySelectorAll('input[name="ch-side"][data-slot]')) {
    const side = SIDES[game][+input.dataset.slot];
    input.value = side;
    const label = input.parentElement.querySelector('[data-i18n^="side."]');
    label.dataset.i18n = `side.${side}`;
    if (has(label.dataset.i18n)) label.textContent = t(label.dataset.i18n);
  }
}

function showNote() {
  const p = $('challenge-note');
  p.hidden = !note;
  if (!note) return;
  p.className = note.error || note.key === 'challenge.declined' ? 'form-error challenge-note' : 'challenge-note';
  p.textContent = note.error ? errorText(note.error, 'challenge') : t(note.key);
}

function say(n) {
  note = n;
  showNote();
}

// The panel's state: the form, or the wait for the bot's answer.
function showState() {
  const waiting = !!pending || accepted;
  form().hidden = waiting;
  $('challenge-wait').hidden = !waiting;
  $('challenge-wait-text').textContent = t(accepted ? 'challenge.accepted' : 'challenge.waiting');
  $('challenge-cancel').hidden = accepted;
  const send = $('challenge-send');
  send.textContent = t(send.disabled ? 'challenge.sending' : 'challenge.send');
}

function focusIn(id) {
  const box = $('challenge');
  if (box.contains(document.activeElement) || document.activeElement === document.body) $(id).focus();
}

function stop(n) {
  clearTimeout(timer);
  pending = null;
  $('challenge-send').disabled = false;
  $('challenge-cancel').disabled = false;
  showState();
  say(n);
  focusIn('challenge-send');
}

function follow(c) {
  if (c.status === 'accepted' && c.game_id) {
    clearTimeout(timer);
    pending = null;
    accepted = true;
    showState();
    location.assign(gamePath(c.game_id));
    return;
  }
  if (c.status === 'declined') return stop({ key: 'challenge.declined' });
  if (c.status === 'canceled') return stop({ key: 'challenge.canceled' });
  clearTimeout(timer);
  timer = setTimeout(poll, POLL_MS);
}

async function poll() {
  const id = pending;
  if (!id) return;
  let c;
  try {
    c = await api.showChallenge(id);
  } catch (err) {
    if (id !== pending) return;
    if (PASSING.includes(err.code)) {
      clearTimeout(timer);
      timer = setTimeout(poll, POLL_MS);
      return;
    }
    return stop({ error: err });
  }
  if (id === pending) follow(c);
}

async function send(e) {
  e.preventDefault();
  const btn = $('challenge-send');
  if (pending || btn.disabled) return;
  const game = value('ch-game');
  const body = {
    game,
    // Yoté has one board (5 × 5); Nsolo 4 × 8 up to 4 × 36.
    size: game === 'nsolo' ? +$('ch-size').value : 5,
    rated: $('ch-rated').checked,
    time_control: value('ch-tc'),
    side: value('ch-side'),
  };
  say(null);
  btn.disabled = true;
  showState();
  let c;
  try {
    c = await api.challenge(bot, body);
  } catch (err) {
    btn.disabled = false;
    showState();
    say({ error: err });
    return;
  }
  pending = c.id;
  showState();
  focusIn('challenge-cancel');
  follow(c);
}

async function cancel() {
  const id = pending;
  const btn = $('challenge-cancel');
  if (!id || btn.disabled) return;
  btn.disabled = true;
  clearTimeout(timer);
  try {
    await api.cancelChallenge(id);
  } catch (err) {
    btn.disabled = false;
    if (id !== pending) return;
    // The bot answered first: its answer decides.
    if (err.code === 'challenge_answered') return poll();
    say({ error: err });
    timer = setTimeout(poll, POLL_MS);
    return;
  }
  if (id === pending) stop({ key: 'challenge.canceled' });
}

// Leaving while the bot has not answered withdraws the challenge.
function withdraw() {
  if (!pending) return;
  fetch(`/api/challenge/${encodeURIComponent(pending)}/cancel`, { method: 'POST', keepalive: true }).catch(() => {});
  stop(null);
}

function wire() {
  wired = true;
  form().addEventListener('change', update);
  form().addEventListener('input', update);
  form().addEventListener('submit', send);
  $('challenge-cancel').addEventListener('click', cancel);
  window.addEventListener('pagehide', withdraw);
  // Back from the game (the page kept whole by the browser): the form again.
  window.addEventListener('pageshow', (e) => {
    if (!e.persisted || !accepted) return;
    accepted = false;
    $('challenge-send').disabled = false;
    showState();
  });
}

/**
 * Shows the panel on a bot's profile (`user` from GET /api/users/{name}) for
 * `me`, the signed-in account or null; hides it elsewhere and on the bot's
 * own profile. Called again on a change of language.
 */
export function renderChallenge(user, me) {
  const box = $('challenge');
  const mine = !!me && me.username.toLowerCase() === String(user.username).toLowerCase();
  box.hidden = !user.bot || mine;
  if (box.hidden) return;
  bot = user.username;
  $('challenge-guest').hidden = !!me;
  if (!me) {
    form().hidden = true;
    $('challenge-login').href = loginPath();
    return;
  }
  if (!wired) wire();
  update();
  showState();
  showNote();
}
