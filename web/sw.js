// Palabre's service worker: keeps one version of the app shell (pages,
// scripts, styles, pictures, dictionaries) so that the site opens without a
// network, and never caches the API or the live socket, whose answers are
// only true at the moment they are given.
//
// This file is a template: the server (crates/server/src/pwa.rs) fills
// VERSION with a hash over every embedded file and PRECACHE with the
// addresses to keep, so that any change to any asset makes a new worker,
// hence a new cache and the « update available » bar.

const VERSION = "__VERSION__";
const PRECACHE = ["__PRECACHE__"];
const PREFIX = 'palabre-';
const CACHE = PREFIX + VERSION;

// The pages' English paths serve the same file as their French ones, which
// are the only ones kept: offline, /new opens the kept /nouvelle (the page
// reads its language from the address it is at).
const ENGLISH = {
  '/new': '/nouvelle',
  '/my-games': '/mes-parties',
  '/yote/rules': '/yote/regles',
  '/nsolo/rules': '/nsolo/regles',
  '/games': '/parties',
  '/local-game': '/partie-locale',
  '/local-game/replay': '/partie-locale/revoir',
};

self.addEventListener('install', (event) => {
  // No skipWaiting here: a page keeps the version it was opened with until
  // the player chooses « Mettre à jour » (a half-old, half-new page could
  // break mid-game).
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(PRECACHE)));
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

self.addEventListener('message', (event) => {
  if (event.data && event.data.type === 'skip-waiting') self.skipWaiting();
});

self.addEventListener('fetch', (event) => {
  const req = event.request;
  if (req.method !== 'GET') return;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin) return;
  // The API and the live socket go straight to the network, uncached.
  if (url.pathname.startsWith('/api/') || req.headers.get('upgrade')) return;
  if (req.mode === 'navigate') {
    event.respondWith(page(req, url));
  } else if (url.pathname.startsWith('/assets/') || url.pathname === '/manifest.webmanifest') {
    event.respondWith(asset(req));
  }
});

// Network first, so that an online reader always gets the newest page;
// offline, the kept page for that path, else the home page.
async function page(req, url) {
  try {
    return await fetch(req);
  } catch (err) {
    const cache = await caches.open(CACHE);
    const path = ENGLISH[url.pathname] || url.pathname;
    const kept = (await cache.match(path, { ignoreSearch: true })) || (await cache.match('/'));
    if (kept) return kept;
    throw err;
  }
}

// Cache first: the kept files are exactly those of this worker's version.
async function asset(req) {
  const cache = await caches.open(CACHE);
  return (await cache.match(req)) || fetch(req);
}
