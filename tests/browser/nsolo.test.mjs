// Nsolo in the browser: a 4×8 game with a capture whose bonus is chosen by
// clicks, and the 4×36 board on a laptop and on a phone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { api, browserMissing, launch, newPage, openGame, shot, startServer, until } from './harness.mjs';

const skip = browserMissing();

test('an Nsolo 4×8 game with a capture and its bonus chosen by clicks', { skip }, async () => {
  const server = await startServer();
  const browser = await launch();
  try {
    const created = await api(server.base, 'POST', '/api/games', { game: 'nsolo', size: 8, side: 'south', level: 'debutant' });
    const page = await newPage(browser);
    await openGame(page, server.base, created);
    let s = created.state;
    for (let round = 0; round < 3; round++) {
      await page.waitForSelector(`body[data-ply="${s.ply}"][data-ready="1"]`, { timeout: 30000 });
      const entry = s.legal.find((o) => o.bonus > 0);
      assert.ok(entry, 'a capturing origin exists');
      await page.click(`[data-pit="${entry.pit}"]`);
      // Remove the bonus one stone at a time from the first full North pits.
      const taken = {};
      let left = entry.bonus;
      for (const row of ['C', 'D']) {
        for (let col = 1; col <= 8 && left > 0; col++) {
          const pit = `${row}${col}`;
          if (pit === entry.capture) continue;
          for (let k = s.nsolo.rows[row][col - 1]; k > 0 && left > 0; k--, left--) {
            await page.click(`[data-pit="${pit}"]`);
            taken[pit] = (taken[pit] || 0) + 1;
          }
        }
      }
      if (round === 0) await shot(page, 'nsolo-bonus-chosen');
      await page.click('.board-prompt .confirm');
      const bonus = Object.entries(taken).map(([p, n]) => `${p}:${n}`).join(',');
      // The machine may answer before the page shows our move: wait for both.
      const next = await until(server.base, created.id, (n) => n.result || (n.ply >= s.ply + 2 && !n.thinking));
      assert.equal(next.moves[s.ply], `${entry.pit}/${bonus}`);
      assert.equal(s.nsolo.stones.north - next.nsolo.stones.north, 2 * entry.bonus, 'front capture and bonus left the board');
      await page.waitForSelector(`body[data-ply="${next.ply}"]`);
      for (const row of ['A', 'B', 'C', 'D']) {
        for (let col = 1; col <= 8; col++) {
          const count = Number(await page.getAttribute(`[data-pit="${row}${col}"]`, 'data-count'));
          assert.equal(count, next.nsolo.rows[row][col - 1], `${row}${col} shows the server's count`);
        }
      }
      s = next;
      if (s.result || !s.legal.some((o) => o.bonus > 0)) break;
    }
    await shot(page, 'nsolo-after-captures');
  } finally {
    await browser.close();
    server.stop();
  }
});

for (const [width, height] of [[1280, 800], [390, 844]]) {
  test(`the 4×36 board at ${width}×${height}: every pit reachable, none cut off`, { skip }, async () => {
    const server = await startServer();
    const browser = await launch();
    try {
      const created = await api(server.base, 'POST', '/api/games', { game: 'nsolo', size: 36, side: 'south' });
      const page = await newPage(browser, width, height);
      await openGame(page, server.base, created);
      await page.waitForSelector('body[data-ply="0"][data-ready="1"]');
      assert.equal(await page.locator('[data-pit]').count(), 144);
      const pageOverflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(pageOverflow <= 1, `the page itself does not scroll sideways (${pageOverflow}px)`);
      for (const pit of ['A1', 'A36', 'D1', 'D36', 'B18', 'C19']) {
        const el = page.locator(`[data-pit="${pit}"]`);
        await el.scrollIntoViewIfNeeded();
        const box = await el.boundingBox();
        assert.ok(box, `${pit} is drawn`);
        assert.ok(box.x >= -1 && box.x + box.width <= width + 1, `${pit} is inside the screen once scrolled to`);
        assert.ok(box.width >= (width < 500 ? 34 : 24), `${pit} is ${box.width.toFixed(1)}px wide`);
      }
      const origin = created.state.legal[0].pit;
      await page.locator(`[data-pit="${origin}"]`).scrollIntoViewIfNeeded();
      await page.click(`[data-pit="${origin}"]`);
      await shot(page, `nsolo-4x36-${width}x${height}`);
    } finally {
      await browser.close();
      server.stop();
    }
  });
}
