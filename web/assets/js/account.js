// My account (/compte): change the password, download one's data, personal
// tokens for programs (made with a description and shown once, listed,
// revoked), and deleting the account, confirmed by the password. A guest
// is asked to sign in first.

import { initI18n, t, currentLang } from './i18n.js';
import * as api from './api.js';
import { errorText } from './errors.js';
import { el } from './online.js';
import { signedIn, profilePath, loginPath } from './account-menu.js';

const $ = (id) => document.getElementById(id);
let me = null;
let tokens = [];

function say(id, text) {
  $(id).textContent = text || '';
  $(id).hidden = !text;
}

function when(at) {
  const d = new Date(at * 1000);
  return Number.isNaN(+d) ? '' : d.toLocaleDateString(currentLang(), { day: 'numeric', month: 'short', year: 'numeric' });
}

function renderTokens() {
  $('tokens').replaceChildren(...tokens.map((k) => {
    const revoke = el('button', { type: 'button', class: 'btn small danger', 'data-revoke': k.id, text: t('account.revoke') });
    revoke.addEventListener('click', () => revokeToken(k, revoke));
    return el('li', { class: 'token-item', 'data-token': k.id },
      el('div', { class: 'token-what' },
        el('strong', { text: k.description }),
        el('span', { class: 'hint', text: t('account.tokenLine', { scopes: (k.scopes || []).join(', '), date: when(k.created_at) }) })),
      revoke);
  }));
  $('tokens-empty').hidden = tokens.length > 0;
}

async function loadTokens() {
  try {
    tokens = await api.tokens();
    renderTokens();
  } catch (e) {
    say('token-error', errorText(e));
  }
}

async function revokeToken(k, button) {
  if (button.dataset.armed !== '1') {
    button.dataset.armed = '1';
    button.textContent = t('account.revokeConfirm');
    return;
  }
  button.disabled = true;
  try {
    await api.revokeToken(k.id);
    tokens = tokens.filter((x) => x.id !== k.id);
    renderTokens();
    $('token-new').hidden = true;
  } catch (e) {
    button.disabled = false;
    say('token-error', errorText(e));
  }
}

function render() {
  if (me === null) {
    $('guest-login').href = loginPath();
    return;
  }
  $('me-name').textContent = me.username;
  $('me-link').href = profilePath(me.username);
  $('export').setAttribute('download', `palabre-${me.username}.json`);
  renderTokens();
}

function wire() {
  $('pw-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    say('pw-error', '');
    $('pw-done').hidden = true;
    const old = $('pw-old').value;
    const next = $('pw-new').value;
    if (!old) return say('pw-error', t('auth.passwordRequired'));
    if (next.length < 8) return say('pw-error', t('auth.shortPassword'));
    const b = e.submitter || $('pw-form').querySelector('button');
    b.disabled = true;
    try {
      await api.changePassword(old, next);
      $('pw-form').reset();
      $('pw-done').hidden = false;
    } catch (err) {
      say('pw-error', err.code === 'wrong_credentials' ? t('account.wrongPassword') : errorText(err));
    } finally {
      b.disabled = false;
    }
  });

  $('token-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    say('token-error', '');
    const description = $('token-desc').value.trim();
    if (!description) {
      $('token-desc').focus();
      return say('token-error', t('account.tokenDescRequired'));
    }
    const b = $('token-form').querySelector('button');
    b.disabled = true;
    try {
      const k = await api.createToken(description);
      $('token-value').textContent = k.token;
      $('token-copied').textContent = '';
      $('token-new').hidden = false;
      $('token-desc').value = '';
      tokens = [...tokens, { id: k.id, description: k.description, scopes: k.scopes, created_at: Date.now() / 1000 }];
      renderTokens();
    } catch (err) {
      say('token-error', errorText(err));
    } finally {
      b.disabled = false;
    }
  });

  $('token-copy').addEventListener('click', async () => {
    let ok = false;
    try {
      await navigator.clipboard.writeText($('token-value').textContent);
      ok = true;
    } catch {
      getSelection().selectAllChildren($('token-value'));
    }
    $('token-copied').textContent = t(ok ? 'account.copied' : 'online.copyByHand');
  });

  $('delete-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    say('delete-error', '');
    const password = $('delete-pw').value;
    if (!password) return say('delete-error', t('auth.passwordRequired'));
    const b = $('delete-form').querySelector('button');
    if (b.dataset.armed !== '1') {
      b.dataset.armed = '1';
      b.textContent = t('account.deleteReally');
      return;
    }
    b.disabled = true;
    try {
      await api.deleteAccount(password);
      location.assign('/');
    } catch (err) {
      b.disabled = false;
      say('delete-error', err.code === 'wrong_credentials' ? t('account.wrongPassword') : errorText(err));
    }
  });
}

async function start() {
  await initI18n();
  me = await signedIn();
  $('loading').hidden = true;
  if (!me) {
    $('guest').hidden = false;
    render();
    return;
  }
  $('account').hidden = false;
  wire();
  render();
  await loadTokens();
  document.body.dataset.ready = '1';
}

document.addEventListener('langchange', render);
start();
