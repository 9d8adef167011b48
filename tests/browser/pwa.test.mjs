// Palabre as an installable app: Chromium finds nothing missing to install
// it, the service worker takes control, with the network cut the kept pages
// still open (home, new game) at a desktop and at a phone width, and a new
// version of the site is offered, then taken on « Mettre à jour ».
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { browserMissing, launch, newPage, shot, startServer } from './harness.mjs';

const skip = browserMissing();

/** Waits until the service worker is ready and controls the page (a page
 * becomes controlled by the worker's clients.claim(), or on its next load). */
async function controlled(page) {
  await page.waitForFunction(() => document.documentElement.dataset.sw === 'ready');
  await page.waitForFunction(() => !!navigator.serviceWorker.controller);
  // The install keeps every file before the worker is active: once it
  // controls the page, the cache is complete.
  return page.evaluate(async () => (await caches.keys()).filter((k) => k.startsWith('palabre-')));
}

/** A browser with a profile on disk (`dir`): Chromium installs no app from
 * an off-the-record context, which is what `browser.newContext()` makes. */
async function profileContext() {
  const dir = mkdtempSync(join(tmpdir(), 'palabre-profile-'));
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    viewport: { width: 1280, height: 800 },
    locale: 'fr-FR',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  return { context, dir };
}

test('Chromium can install Palabre and its worker controls the pages', { skip }, async () => {
  const server = await startServer();
  const { context, dir } = await profileContext();
  try {
    const page = context.pages()[0] ?? await context.newPage();
    await page.goto(server.base + '/');
    const cdp = await context.newCDPSession(page);

    const manifest = await cdp.send('Page.getAppManifest');
    assert.deepEqual(manifest.errors, [], JSON.stringify(manifest.errors));
    assert.match(manifest.url, /\/manifest\.webmanifest$/);
    const parsed = JSON.parse(manifest.data);
    assert.equal(parsed.display, 'standalone');

    const caches = await controlled(page);
    assert.equal(caches.length, 1, `one cache: ${caches}`);
    await page.reload();
    await controlled(page);
    assert.ok(await page.evaluate(() => !!navigator.serviceWorker.controller), 'controlled after a reload');

    const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
    assert.deepEqual(installabilityErrors, []);
  } finally {
    await context.close();
    rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
    await server.stop();
  }
});

for (const [width, height] of [[1280, 800], [390, 844]]) {
  test(`offline at ${width} px, the home page and the new-game page still open`, { skip }, async () => {
    const server = await startServer();
    const browser = await launch();
    try {
      const page = await newPage(browser, width, height);
      const failures = [];
      page.on('pageerror', (e) => failures.push(String(e)));
      await page.goto(server.base + '/');
      await controlled(page);

      await page.context().setOffline(true);
      await page.reload();
      await page.waitForFunction(() => document.documentElement.lang === 'fr' && document.title.includes('Palabre'));
      const h1 = page.locator('main h1');
      assert.equal(await h1.isVisible(), true);
      assert.match(await h1.innerText(), /Deux jeux/);
      assert.equal(await page.locator('.game-card[data-game="yote"]').isVisible(), true);
      assert.equal(await page.locator('.game-card[data-game="nsolo"]').isVisible(), true);
      assert.equal(await page.locator('a[href*="jeu=yote"]').first().isVisible(), true);
      // The stylesheet came from the cache too: the cards sit in a styled grid.
      assert.notEqual(await page.locator('header.top').evaluate((e) => getComputedStyle(e).display), 'block');
      await page.locator('.game-card img').first().evaluate((img) => img.decode());
      await shot(page, `pwa-offline-home-${width}`);

      await page.goto(server.base + '/nouvelle?jeu=nsolo');
      await page.waitForFunction(() => document.title.includes('Palabre'));
      assert.match(await page.locator('main h1').innerText(), /Nouvelle partie/);
      assert.equal(await page.locator('#new-form').isVisible(), true);
      await shot(page, `pwa-offline-new-${width}`);

      // An English path opens its French twin's kept page, in English.
      await page.goto(server.base + '/new');
      await page.waitForFunction(() => document.documentElement.lang === 'en');
      assert.match(await page.locator('main h1').innerText(), /New game/i);

      assert.deepEqual(failures, []);
    } finally {
      await browser.close();
      await server.stop();
    }
  });
}

/**
 * A proxy in front of `target` that, once `state.next` is set, serves the
 * service worker with another version: what a browser sees after the site
 * has changed (the worker's script is fetched by the browser itself, out of
 * reach of Playwright's routes).
 */
function nextVersionProxy(target) {
  const to = new URL(target);
  const state = { next: false };
  const server = createServer((req, res) => {
    const headers = { ...req.headers, host: to.host };
    delete headers['accept-encoding']; // the worker's text is rewritten below
    const up = request({ host: to.hostname, port: to.port, path: req.url, method: req.method, headers }, (r) => {
      if (!(state.next && req.url === '/sw.js')) {
        res.writeHead(r.statusCode, r.headers);
        r.pipe(res);
        return;
      }
      const chunks = [];
      r.on('data', (c) => chunks.push(c));
      r.on('end', () => {
        const text = Buffer.concat(chunks).toString()
          .replace(/const VERSION = "([0-9a-f]+)";/, 'const VERSION = "next-$1";');
        const h = { ...r.headers };
        delete h['content-length'];
        res.writeHead(r.statusCode, h);
        res.end(text);
      });
    });
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  return new Promise((ok) => server.listen(0, '127.0.0.1', () => ok({
    base: `http://127.0.0.1:${server.address().port}`,
    state,
    close: () => new Promise((done) => server.close(done)),
  })));
}

test('a new version is offered, and taken only on « Mettre à jour »', { skip }, async () => {
  const server = await startServer();
  const proxy = await nextVersionProxy(server.base);
  const browser = await launch();
  try {
    const page = await newPage(browser, 390, 844);
    await page.goto(proxy.base + '/');
    const [first] = await controlled(page);
    assert.match(first, /^palabre-[0-9a-f]{16}$/);

    proxy.state.next = true;
    await page.evaluate(async () => (await navigator.serviceWorker.getRegistration()).update());
    const bar = page.locator('.update-bar');
    await bar.waitFor();
    assert.match(await bar.innerText(), /Une nouvelle version de Palabre est prête\./);
    assert.equal(await bar.getAttribute('role'), 'status');
    // Installed but waiting: the page keeps the version it opened with.
    const both = await page.evaluate(() => caches.keys());
    assert.deepEqual(both.sort(), [first, `palabre-next-${first.slice(8)}`].sort());
    await shot(page, 'pwa-update-390');

    const reloaded = page.waitForEvent('load');
    await bar.getByRole('button', { name: 'Mettre à jour' }).click();
    await reloaded;
    await controlled(page);
    // The new worker took over and dropped the old version's files.
    assert.deepEqual(await page.evaluate(() => caches.keys()), [`palabre-next-${first.slice(8)}`]);
    assert.equal(await bar.count(), 0);
  } finally {
    await browser.close();
    await proxy.close();
    await server.stop();
  }
});
