// The installable app, on every page: registers the service worker
// (/sw.js, which keeps the pages for offline use) and, when a newer version
// of Palabre has been installed behind the one this page runs, offers to
// switch with a bar « Mettre à jour ». The switch waits for that click: an
// automatic one could swap the files under a game in progress.

import { has, t } from './i18n.js';

// The bar's words before the dictionary is loaded (French first).
const FRENCH = {
  'pwa.ready': 'Une nouvelle version de Palabre est prête.',
  'pwa.update': 'Mettre à jour',
  'pwa.later': 'Plus tard',
};
const say = (key) => (has(key) ? t(key) : FRENCH[key]);

let bar = null;

function words() {
  if (!bar) return;
  bar.querySelector('[data-pwa-text]').textContent = say('pwa.ready');
  bar.querySelector('[data-pwa-update]').textContent = say('pwa.update');
  bar.querySelector('[data-pwa-later]').textContent = say('pwa.later');
}

// Hands over to `worker` and reloads once it controls the page.
function update(worker) {
  if (worker.state === 'activated') {
    // Another tab already switched: this page only needs the new files.
    location.reload();
    return;
  }
  let reloading = false;
  navigator.serviceWorker.addEventListener('controllerchange', () => {
    if (reloading) return;
    reloading = true;
    location.reload();
  });
  worker.postMessage({ type: 'skip-waiting' });
}

function offer(worker) {
  if (bar) bar.remove();
  bar = document.createElement('div');
  bar.className = 'update-bar';
  bar.setAttribute('role', 'status');
  bar.innerHTML = '<span data-pwa-text></span>'
    + '<button type="button" class="btn primary small" data-pwa-update></button>'
    + '<button type="button" class="btn small" data-pwa-later></button>';
  bar.querySelector('[data-pwa-update]').addEventListener('click', (e) => {
    e.currentTarget.disabled = true;
    update(worker);
  });
  bar.querySelector('[data-pwa-later]').addEventListener('click', () => {
    bar.remove();
    bar = null;
  });
  words();
  document.body.append(bar);
}

// A worker installed while another controls the page is a new version.
function watch(reg) {
  if (reg.waiting && navigator.serviceWorker.controller) offer(reg.waiting);
  reg.addEventListener('updatefound', () => {
    const worker = reg.installing;
    if (!worker) return;
    worker.addEventListener('statechange', () => {
      if (worker.state === 'installed' && navigator.serviceWorker.controller) offer(worker);
    });
  });
}

if ('serviceWorker' in navigator) {
  document.addEventListener('langchange', words);
  navigator.serviceWorker.register('/sw.js', { scope: '/' }).then(watch).catch(() => {
    // No worker (a private window, storage refused): the site works online.
  });
  navigator.serviceWorker.ready.then(() => {
    document.documentElement.dataset.sw = 'ready';
  });
}

// Games finished offline go to the server as records when it can be reached.
const sync = () => import('./record-sync.js').then((m) => m.syncRecords()).catch(() => {});
addEventListener('online', sync);
if (navigator.onLine) sync();
