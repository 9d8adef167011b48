// The pages a visitor reads: home, the French rules page, the switch to English,
// and the choices of the new-game form.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserMissing, launch, newPage, shot, startServer } from './harness.mjs';

const skip = browserMissing();

test('the home page offers both games', { skip }, async () => {
  const server = await startServer();
  const browser = await launch();
  try {
    const page = await newPage(browser);
    await page.goto(server.base + '/');
    assert.equal(await page.getAttribute('html', 'lang'), 'fr');
    const text = await page.textContent('body');
    assert.match(text, /Yoté/);
    assert.match(text, /Nsolo/);
    assert.ok(await page.locator('a[href*="jeu=yote"]').count() >= 1);
    assert.ok(await page.locator('a[href*="jeu=nsolo"]').count() >= 1);
    await shot(page, 'home');
  } finally {
    await browser.close();
    server.stop();
  }
});

test('the French Yoté rules page, ending with an invitation to play Débutant', { skip }, async () => {
  const server = await startServer();
  const browser = await launch();
  try {
    const page = await newPage(browser);
    await page.goto(server.base + '/yote/regles');
    const visible = await page.locator('main').innerText();
    assert.match(visible, /Ndar-Kepp/);
    assert.match(visible, /réserve/);
    assert.match(visible, /120/);
    assert.ok(await page.locator('a[href*="niveau=debutant"]:visible').count() >= 1);
    // rules.js draws the diagrams once its module has loaded.
    await page.waitForFunction(() => document.querySelectorAll('main svg').length >= 2, null, { timeout: 10000 });
    await shot(page, 'yote-rules-fr');
    await page.goto(server.base + '/nsolo/regles');
    assert.match(await page.locator('main').innerText(), /relais/i);
    await shot(page, 'nsolo-rules-fr');
  } finally {
    await browser.close();
    server.stop();
  }
});

test('switching to English is remembered', { skip }, async () => {
  const server = await startServer();
  const browser = await launch();
  try {
    const page = await newPage(browser);
    await page.goto(server.base + '/yote/regles');
    // The switch answers once i18n.js has loaded (it labels the button then).
    await page.waitForSelector('[data-lang-switch][aria-label]');
    await page.click('[data-lang-switch]');
    await page.waitForFunction(() => document.documentElement.lang === 'en');
    assert.match(await page.locator('main').innerText(), /capture/i);
    await page.goto(server.base + '/');
    assert.equal(await page.getAttribute('html', 'lang'), 'en');
    assert.match(await page.textContent('body'), /Play/);
    await shot(page, 'home-en');
  } finally {
    await browser.close();
    server.stop();
  }
});

test('the new-game page offers a time control only for online games', { skip }, async () => {
  const server = await startServer();
  const browser = await launch();
  try {
    const page = await newPage(browser);
    const bodies = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/games') bodies.push(r.postDataJSON());
    });
    await page.goto(`${server.base}/nouvelle?jeu=yote`);
    await page.check('input[name="opponent"][value="online"]');
    assert.equal(await page.locator('#tc-set').isVisible(), true);
    await page.check('input[name="opponent"][value="machine"]');
    assert.equal(await page.locator('#tc-set').isVisible(), false, 'no time control against the machine');
    await Promise.all([page.waitForURL(/\/partie\//), page.click('#start')]);
    assert.equal(bodies.length, 1);
    assert.equal(bodies[0].opponent, 'machine');
    assert.ok(!('time_control' in bodies[0]), 'none is sent');
  } finally {
    await browser.close();
    server.stop();
  }
});

test('an unknown page or game gets « Page introuvable » with a way home', { skip }, async () => {
  const server = await startServer();
  const browser = await launch();
  try {
    for (const [width, height] of [[1280, 800], [390, 844]]) {
      const page = await newPage(browser, width, height);
      const res = await page.goto(server.base + '/nulle-part');
      assert.equal(res.status(), 404);
      assert.equal((await page.locator('h1').innerText()).trim(), 'Page introuvable');
      await shot(page, `not-found-${width}`);
      const game = await page.goto(server.base + '/partie/000000000000');
      assert.equal(game.status(), 404);
      assert.equal((await page.locator('h1').innerText()).trim(), 'Page introuvable');
      await page.click('main a[href="/"]');
      await page.waitForURL(server.base + '/');
      assert.match(await page.textContent('body'), /Yoté/);
      await page.close();
    }
  } finally {
    await browser.close();
    server.stop();
  }
});

test('a first visit follows the browser language; the choice is remembered; English paths', { skip }, async () => {
  const server = await startServer();
  const browser = await launch();
  try {
    for (const [width, height] of [[1280, 800], [390, 844]]) {
      const page = await newPage(browser, width, height, 'en-GB');
      await page.goto(server.base + '/');
      await page.waitForFunction(() => document.documentElement.lang === 'en');
      assert.match(await page.textContent('body'), /Play/);
      assert.equal(await page.locator('nav a[href="/yote/rules"]').count(), 1, 'English paths in English');
      await shot(page, `home-browser-en-${width}`);
      await page.click('nav a[href="/yote/rules"]');
      await page.waitForURL(server.base + '/yote/rules');
      assert.equal(await page.locator('link[rel="alternate"][hreflang="fr"]').getAttribute('href'), '/yote/regles');
      // Choosing French is remembered over the browser's English, with French paths.
      await page.waitForFunction(() => document.documentElement.lang === 'en');
      await page.click('[data-lang-switch]');
      await page.waitForFunction(() => document.documentElement.lang === 'fr');
      assert.equal(new URL(page.url()).pathname, '/yote/regles');
      await page.goto(server.base + '/');
      await page.waitForFunction(() => document.documentElement.lang === 'fr');
      assert.equal(await page.locator('nav a[href="/yote/regles"]').count(), 1);
      await page.context().close();
    }
    const french = await newPage(browser, 1280, 800, 'fr-FR');
    await french.goto(server.base + '/');
    await french.waitForFunction(() => document.documentElement.lang === 'fr');
    await french.context().close();
  } finally {
    await browser.close();
    server.stop();
  }
});
