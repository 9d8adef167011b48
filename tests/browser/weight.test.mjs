// The game page's weight as a browser downloads it (compressed HTML, CSS and
// JavaScript, the WebAssembly engine aside: a server game never loads it):
// the budget is 80 KB. A size, not a timing: it cannot flake.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { api, browserMissing, launch, newPage, openGame, startServer } from './harness.mjs';

const skip = browserMissing();
const BUDGET = 80 * 1024;

test('the game page weighs at most 80 KB compressed', { skip }, async () => {
  const server = await startServer();
  const browser = await launch();
  try {
    const page = await newPage(browser);
    const sizes = new Map();
    page.on('response', async (res) => {
      const type = res.headers()['content-type'] || '';
      if (!/html|css|javascript/.test(type) || res.url().includes('/assets/wasm/')) return;
      const sizesOf = await res.request().sizes().catch(() => null);
      if (sizesOf) sizes.set(res.url(), sizesOf.responseBodySize);
    });
    const created = await api(server.base, 'POST', '/api/games', { game: 'nsolo', size: 36, opponent: 'local' });
    await openGame(page, server.base, created);
    await page.waitForSelector('body[data-ply="0"]');
    const total = [...sizes.entries()].filter(([u]) => !u.endsWith('/')).reduce((a, [, n]) => a + n, 0);
    console.log(`game page: ${sizes.size} files, ${(total / 1024).toFixed(1)} KB compressed`);
    assert.ok(sizes.size >= 3, 'HTML, CSS and JS were counted');
    assert.ok(total <= BUDGET, `${total} bytes`);
  } finally {
    await browser.close();
    server.stop();
  }
});
