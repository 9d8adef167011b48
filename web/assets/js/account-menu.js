// The account in every page's header, beside the language switch:
// « Se connecter » for a guest, else the player's name (to their profile)
// and « Déconnexion ». GET /api/session is asked once a page: the pages
// that need the account too (new game, lobby, the game page, « Mes
// parties ») share the same answer through signedIn(). Not GET
// /api/account, which answers a guest 401: every guest's page would log
// that failed request in the console.

import { t, has, localPath } from './i18n.js';
import * as api from './api.js';

let asked = null;
let who; // the account, null for a guest, undefined until known

/** The signed-in account ({username, bot, ratings}), or null for a guest
 * (and when the server cannot say). */
export function signedIn() {
  asked ??= api.session().then((s) => s.account).catch(() => null);
  return asked;
}

export const profilePath = (name) => localPath(`/joueur/${encodeURIComponent(name)}`);

const SIGN_PAGES = ['/connexion', '/login', '/inscription', '/signup'];

/** The log-in page, coming back here afterwards. */
export function loginPath() {
  const path = localPath('/connexion');
  if (SIGN_PAGES.includes(location.pathname)) return path + location.search;
  return `${path}?retour=${encodeURIComponent(location.pathname + location.search)}`;
}

const EXIT = '<svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true"><path d="M10 4H5v16h5M15 8l4 4-4 4M19 12H9" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"/></svg>';

function render() {
  const tools = document.querySelector('.top .tools');
  if (!tools || who === undefined || !has('account.signIn')) return;
  let box = tools.querySelector('[data-account]');
  if (!box) {
    box = document.createElement('span');
    box.className = 'account-menu';
    tools.prepend(box);
  }
  box.dataset.account = who ? who.username : '';
  box.textContent = '';
  const link = document.createElement('a');
  link.className = 'account-link';
  if (!who) {
    link.href = loginPath();
    link.textContent = t('account.signIn');
    box.append(link);
    return;
  }
  link.href = profilePath(who.username);
  link.textContent = who.username;
  link.title = t('account.myProfile');
  const out = document.createElement('button');
  out.type = 'button';
  out.className = 'account-logout';
  out.dataset.logout = '';
  out.setAttribute('aria-label', t('account.logout'));
  out.innerHTML = EXIT;
  const words = document.createElement('span');
  words.className = 'words';
  words.textContent = t('account.logout');
  out.append(words);
  out.addEventListener('click', async () => {
    out.disabled = true;
    try {
      await api.logout();
    } catch {
      /* the session may already be gone: the page says so after the reload */
    }
    location.reload();
  });
  box.append(link, out);
}

document.addEventListener('langchange', render);
signedIn().then((a) => {
  who = a;
  render();
});
