// Language: French first, English second. One dictionary per language,
// remembered in localStorage; elements carry data-i18n (text) or
// data-i18n-attr="attr:key;attr:key". A first visit follows the browser's
// languages (its Accept-Language); pages that have an English path move to
// it in English, and so do the links to them.

// Every page loads this module: the settings module applies the theme too.
import './settings.js';

const KEY = 'palabre.lang';
const LANGS = ['fr', 'en'];
// Pages with a path in each language: [French, English].
const PATHS = [['/nouvelle', '/new'], ['/yote/regles', '/yote/rules'], ['/nsolo/regles', '/nsolo/rules'], ['/mes-parties', '/my-games'], ['/salon', '/lobby'], ['/parties', '/games'],
  ['/connexion', '/login'], ['/inscription', '/signup'], ['/compte', '/account'], ['/classement', '/leaderboard']];
// Pages under a path in each language, one per player: [French, English].
const PREFIXES = [['/joueur/', '/player/']];
let dict = {};
let lang = 'fr';

export function currentLang() {
  return lang;
}

function storedLang() {
  try {
    const s = localStorage.getItem(KEY);
    return LANGS.includes(s) ? s : null;
  } catch {
    return null;
  }
}

// The first of the browser's languages that Palabre speaks, else French.
function browserLang() {
  for (const tag of navigator.languages || [navigator.language || '']) {
    const primary = String(tag).toLowerCase().split('-')[0];
    if (LANGS.includes(primary)) return primary;
  }
  return 'fr';
}

function initialLang() {
  // An English path (/new, /yote/rules…) opens in English unless the reader
  // already chose a language.
  const english = PATHS.some(([, en]) => location.pathname === en) || PREFIXES.some(([, en]) => location.pathname.startsWith(en));
  return storedLang() || (english ? 'en' : browserLang());
}

// `path` in language `l`, if the page has a path in each language.
export function localPath(path, l = lang) {
  const i = l === 'en' ? 1 : 0;
  const pair = PATHS.find((p) => p.includes(path));
  if (pair) return pair[i];
  const pre = PREFIXES.find((p) => p.some((x) => path.startsWith(x)));
  return pre ? pre[i] + path.slice(pre.find((x) => path.startsWith(x)).length) : path;
}

function localizeLinks(l) {
  for (const a of document.querySelectorAll('a[href^="/"]')) {
    const url = new URL(a.getAttribute('href'), location.origin);
    const path = localPath(url.pathname, l);
    if (path !== url.pathname) a.setAttribute('href', path + url.search + url.hash);
  }
  const here = localPath(location.pathname, l);
  if (here !== location.pathname) history.replaceState(history.state, '', here + location.search + location.hash);
}

export function has(key) {
  return key in dict;
}

export function t(key, vars = {}) {
  let s = dict[key];
  if (s && typeof s === 'object') {
    const one = lang === 'fr' ? vars.n < 2 : vars.n === 1;
    s = one ? s.one : s.other;
  }
  if (s == null) return key;
  return s.replace(/\{(\w+)\}/g, (_, k) => (vars[k] ?? ''));
}

export function apply(root = document) {
  for (const e of root.querySelectorAll('[data-i18n]')) e.textContent = t(e.dataset.i18n);
  for (const e of root.querySelectorAll('[data-i18n-attr]')) {
    for (const pair of e.dataset.i18nAttr.split(';')) {
      const [attr, key] = pair.split(':');
      e.setAttribute(attr, t(key));
    }
  }
}

async function load(l) {
  try {
    const r = await fetch(`/assets/i18n/${l}.json`);
    dict = await r.json();
  } catch {
    // Without the dictionary the page keeps its French text.
    if (l !== 'fr') return load('fr');
    dict = {};
  }
  lang = l;
  document.documentElement.lang = l;
  apply();
  localizeLinks(l);
  for (const b of document.querySelectorAll('[data-lang-switch]')) {
    const other = l === 'fr' ? 'en' : 'fr';
    b.textContent = other.toUpperCase();
    b.setAttribute('lang', other);
    b.setAttribute('aria-label', t('lang.switch'));
  }
  document.dispatchEvent(new CustomEvent('langchange', { detail: l }));
}

export async function setLang(l) {
  try {
    localStorage.setItem(KEY, l);
  } catch {
    /* private mode: the choice lasts for the page */
  }
  await load(l);
}

export async function initI18n() {
  for (const b of document.querySelectorAll('[data-lang-switch]')) {
    b.addEventListener('click', () => setLang(lang === 'fr' ? 'en' : 'fr'));
  }
  await load(initialLang());
}
