// Sharing: the link-preview tags of a game page and the picture they point
// to (screenshots of it at 1280 px), the icons every page links to, and
// web/assets/js/share.js with and without the browser's share sheet.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { api, artifacts, browserMissing, launch, newPage, startServer } from './harness.mjs';

const skip = browserMissing();

/** A screenshot of the picture open in the page (an SVG document has no
 * page to scroll: the harness's full-page shot never ends on it). */
async function shot(page, name) {
  await page.screenshot({ path: join(artifacts, `${name}.png`) });
}

/** The `content` of the meta tag `key` (property or name) of the page. */
async function meta(page, key) {
  return page.evaluate((k) => {
    const m = document.querySelector(`meta[property="${k}"], meta[name="${k}"]`);
    return m ? m.getAttribute('content') : null;
  }, key);
}

/** Plays `n` moves of a game on one screen: the first that earns no bonus each time. */
async function play(base, created, n) {
  for (let i = 0; i < n; i++) {
    const s = await api(base, 'GET', `/api/games/${created.id}`);
    const move = (s.legal.find((l) => !l.bonus) || s.legal[0]).pit;
    const r = await api(base, 'POST', `/api/games/${created.id}/moves`, { move, ply: s.ply }, created.seat);
    assert.ok(!r.error, JSON.stringify(r.error));
  }
}

test('a game page carries its link preview, and the picture is the position', { skip }, async () => {
  const server = await startServer();
  const browser = await launch();
  try {
    const created = await api(server.base, 'POST', '/api/games', {
      game: 'yote', opponent: 'online', side: 'red', name: 'Awa',
    });
    const kofi = await api(server.base, 'POST', `/api/games/${created.id}/join`, { name: 'Kofi' });
    assert.ok(kofi.seat, JSON.stringify(kofi));
    await api(server.base, 'POST', `/api/games/${created.id}/start`, {}, created.seat);
    const seats = [created.seat, kofi.seat];
    for (const [ply, move] of ['c3', 'c4', 'd3', 'b2'].entries()) {
      const r = await api(server.base, 'POST', `/api/games/${created.id}/moves`, { move, ply }, seats[ply % 2]);
      assert.ok(!r.error, `${move}: ${JSON.stringify(r.error)}`);
    }

    const page = await newPage(browser, 1280, 720);
    await page.goto(`${server.base}/partie/${created.id}`);
    assert.equal(await meta(page, 'og:title'), 'Yoté — partie en ligne · Palabre');
    const description = await meta(page, 'og:description');
    assert.match(description, /Awa \(Rouges\) contre Kofi \(Noires\)/);
    assert.match(description, /aux Rouges de jouer/);
    assert.equal(await meta(page, 'og:type'), 'website');
    assert.equal(await meta(page, 'og:url'), `${server.base}/partie/${created.id}`);
    assert.equal(await meta(page, 'twitter:card'), 'summary_large_image');
    const image = await meta(page, 'og:image');
    assert.equal(image, `${server.base}/partie/${created.id}/apercu.svg?coup=4`);

    const res = await fetch(image);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'image/svg+xml');
    assert.match(res.headers.get('cache-control'), /max-age=\d+/);
    const svg = await res.text();
    assert.match(svg, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="1200" height="630"/);

    // The picture as Chromium draws it: the balls on the board are the
    // position's, and nothing overflows the 1200 × 630 frame.
    await page.goto(image);
    const drawn = await page.evaluate(() => {
      const root = document.documentElement;
      const box = root.getBoundingClientRect();
      const atOf = (side) => [...document.querySelectorAll(`circle.ball.${side}[data-at]`)].map((c) => c.dataset.at).sort();
      const outside = [...document.querySelectorAll('text, circle, rect')].filter((e) => {
        const b = e.getBoundingClientRect();
        return b.right > box.right + 1 || b.bottom > box.bottom + 1 || b.left < box.left - 1 || b.top < box.top - 1;
      }).length;
      return { w: box.width, h: box.height, red: atOf('red'), black: atOf('black'), outside, tag: root.tagName };
    });
    assert.equal(drawn.tag, 'svg');
    assert.deepEqual([drawn.w, drawn.h], [1200, 630]);
    assert.deepEqual(drawn.red, ['c3', 'd3']);
    assert.deepEqual(drawn.black, ['b2', 'c4']);
    assert.equal(drawn.outside, 0, 'every shape inside the frame');
    await shot(page, 'preview-yote');

    // An Nsolo board, the largest one: every pit is drawn with its count.
    const nsolo = await api(server.base, 'POST', '/api/games', { game: 'nsolo', size: 36, opponent: 'local' });
    await page.goto(`${server.base}/partie/${nsolo.id}`);
    assert.match(await meta(page, 'og:title'), /^Nsolo 4\u00a0×\u00a036 — /);
    await page.goto(await meta(page, 'og:image'));
    assert.equal(await page.locator('g.pit').count(), 144);
    await shot(page, 'preview-nsolo-36');
    const eight = await api(server.base, 'POST', '/api/games', { game: 'nsolo', size: 8, opponent: 'local' });
    await play(server.base, eight, 3);
    await page.goto(`${server.base}/partie/${eight.id}/apercu.svg`);
    assert.equal(await page.locator('g.pit').count(), 32);
    await shot(page, 'preview-nsolo-8');
  } finally {
    await browser.close();
    await server.stop();
  }
});

test('every page links a favicon and an apple-touch-icon that resolve', { skip }, async () => {
  const server = await startServer();
  const browser = await launch();
  try {
    const page = await newPage(browser);
    const created = await api(server.base, 'POST', '/api/games', { game: 'yote', opponent: 'local' });
    for (const path of ['/', '/nouvelle', '/yote/regles', '/nsolo/regles', '/salon', '/parties',
      `/partie/${created.id}`, `/parties/${created.id}`, '/nulle-part']) {
      await page.goto(server.base + path);
      const links = await page.evaluate(() => ({
        icon: document.querySelector('link[rel="icon"]')?.href,
        touch: document.querySelector('link[rel="apple-touch-icon"]')?.href,
        image: document.querySelector('meta[property="og:image"]')?.content,
        title: document.querySelector('meta[property="og:title"]')?.content,
      }));
      assert.ok(links.title, `${path}: og:title`);
      for (const [url, type] of [[links.icon, 'image/svg+xml'], [links.touch, 'image/png']]) {
        assert.ok(url, `${path}: the link is there`);
        const res = await fetch(url);
        assert.equal(res.status, 200, `${path}: ${url}`);
        assert.equal(res.headers.get('content-type'), type, `${path}: ${url}`);
      }
      assert.ok(links.image.startsWith(server.base + '/'), `${path}: og:image is absolute (${links.image})`);
      const image = await fetch(links.image);
      assert.equal(image.status, 200, `${path}: ${links.image}`);
      assert.match(image.headers.get('content-type'), /^image\/(jpeg|svg\+xml)$/);
    }
    const touch = Buffer.from(await (await fetch(`${server.base}/assets/img/apple-touch-icon.png`)).arrayBuffer());
    // The PNG header's width and height: 180 × 180, as iOS asks.
    assert.deepEqual([touch.readUInt32BE(16), touch.readUInt32BE(20)], [180, 180]);
  } finally {
    await browser.close();
    await server.stop();
  }
});

test('share() uses the share sheet when there is one, else copies the address', { skip }, async () => {
  const server = await startServer();
  const browser = await launch();
  try {
    const context = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
    const page = await context.newPage();
    const created = await api(server.base, 'POST', '/api/games', { game: 'yote', opponent: 'local' });
    const url = `${server.base}/partie/${created.id}/rejoindre`;
    await page.goto(`${server.base}/partie/${created.id}`);

    // No share sheet in headless Chromium on Linux: the address is copied.
    const copied = await page.evaluate(async (u) => {
      const { share } = await import('/assets/js/share.js');
      const how = await share({ title: 'Palabre', text: 'Une partie de Yoté', url: u });
      return { how, clip: await navigator.clipboard.readText(), sheet: typeof navigator.share };
    }, url);
    assert.equal(copied.sheet, 'undefined');
    assert.deepEqual([copied.how, copied.clip], ['copied', url]);

    // With a share sheet (as on a phone) it gets the title, text and address.
    const shared = await page.evaluate(async (u) => {
      let got = null;
      Object.defineProperty(navigator, 'share', { configurable: true, value: async (d) => { got = d; } });
      Object.defineProperty(navigator, 'canShare', { configurable: true, value: () => true });
      const { share } = await import('/assets/js/share.js');
      const how = await share({ title: 'Palabre', text: 'Une partie de Yoté', url: u });
      return { how, got };
    }, url);
    assert.deepEqual(shared, { how: 'shared', got: { title: 'Palabre', text: 'Une partie de Yoté', url } });

    // The reader closes the sheet: nothing is copied behind their back.
    // A sheet that refuses for another reason leaves the clipboard.
    const answers = await page.evaluate(async (u) => {
      const { share } = await import('/assets/js/share.js');
      await navigator.clipboard.writeText('avant');
      const refuse = (name) => Object.defineProperty(navigator, 'share', {
        configurable: true, value: async () => { throw new DOMException('no', name); },
      });
      refuse('AbortError');
      const closed = await share({ url: u });
      const clipAfterClose = await navigator.clipboard.readText();
      refuse('NotAllowedError');
      const refused = await share({ url: u + '?b' });
      return { closed, clipAfterClose, refused, clip: await navigator.clipboard.readText() };
    }, url);
    assert.deepEqual(answers, { closed: 'failed', clipAfterClose: 'avant', refused: 'copied', clip: url + '?b' });
    await context.close();
  } finally {
    await browser.close();
    await server.stop();
  }
});
