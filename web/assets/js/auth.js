// Log in (/connexion) and sign up (/inscription): one form, a name and a
// password; the form's data-mode says which. Signed in, the page goes back
// where the reader came from (?retour=/partie/…), else home after a log-in
// and to the new profile after a sign-up. A reader already signed in is
// told so.

import { initI18n, t } from './i18n.js';
import * as api from './api.js';
import { errorText } from './errors.js';
import { signedIn, profilePath } from './account-menu.js';

const $ = (id) => document.getElementById(id);
const form = $('auth-form');
const mode = form.dataset.mode;
const NAME = /^[A-Za-z0-9_-]{2,20}$/;

// Only a path of this site, never another site's address.
function back() {
  const r = new URLSearchParams(location.search).get('retour');
  return r && r.startsWith('/') && !r.startsWith('//') && !r.startsWith('/\\') ? r : null;
}

function fail(text, field) {
  $('error').textContent = text;
  $('error').hidden = false;
  if (field) {
    field.setAttribute('aria-invalid', 'true');
    field.focus();
  }
}

function busy(on) {
  const b = $('submit');
  b.disabled = on;
  b.textContent = t(on ? 'auth.wait' : `${mode}.submit`);
}

// The link to the other form keeps where to come back to.
function linkOther() {
  const r = back();
  const a = $('other');
  const path = a.getAttribute('href').split('?')[0];
  a.setAttribute('href', r ? `${path}?retour=${encodeURIComponent(r)}` : path);
}

form.addEventListener('submit', async (e) => {
  e.preventDefault();
  $('error').hidden = true;
  for (const f of [$('username'), $('password')]) f.removeAttribute('aria-invalid');
  const username = $('username').value.trim();
  const password = $('password').value;
  if (mode === 'signup' && !NAME.test(username)) return fail(t('auth.badName'), $('username'));
  if (!username) return fail(t('auth.nameRequired'), $('username'));
  if (mode === 'signup' && password.length < 8) return fail(t('auth.shortPassword'), $('password'));
  if (!password) return fail(t('auth.passwordRequired'), $('password'));
  busy(true);
  try {
    const r = await (mode === 'signup' ? api.signup(username, password) : api.login(username, password));
    location.assign(back() || (mode === 'signup' ? profilePath(r.username) : '/'));
  } catch (err) {
    busy(false);
    fail(errorText(err), err.code === 'name_taken' ? $('username') : err.code === 'wrong_credentials' ? $('password') : null);
  }
});

let me = null;

function render() {
  linkOther();
  if (!me) return;
  $('already-text').textContent = t('auth.already', { name: me.username });
  const go = $('already-go');
  go.href = back() || profilePath(me.username);
  go.textContent = t(back() ? 'auth.continue' : 'account.myProfile');
  $('already').hidden = false;
}

document.addEventListener('langchange', render);
initI18n().then(signedIn).then((a) => {
  me = a;
  render();
});
