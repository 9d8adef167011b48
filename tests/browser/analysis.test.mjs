// « Analyser » on the replay page: a short Yoté game with a known blunder
// (Black's 1… e2 lets Red jump e1xe3), analysed by the browser's engine.
// The command line's analysis of the same record is the reference: the
// browser must mark the same ply and name the same best move.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { api, browserMissing, launch, newPage, shot, startServer } from './harness.mjs';

const skip = browserMissing();
const here = dirname(fileURLToPath(import.meta.url));
const BIN = process.env.PALABRE_BIN ? resolve(process.env.PALABRE_BIN) : resolve(here, '../../target/debug/palabre');
// Ply 2 (e2) is the blunder; the others are the best move or close to it.
const MOVES = ['e1', 'e2', 'e1xe3/r', 'a1', 'a5'];
const BLUNDER = 2;

async function playGame(base) {
  const created = await api(base, 'POST', '/api/games', { game: 'yote', opponent: 'local' });
  for (const [ply, move] of MOVES.entries()) {
    const s = await api(base, 'POST', `/api/games/${created.id}/moves`, { move, ply }, created.seat);
    assert.equal(s.ply, ply + 1, `move ${move}: ${JSON.stringify(s).slice(0, 200)}`);
  }
  return created.id;
}

// `palabre analyse` on the exported record, at its default depth.
async function cliLines(base, id) {
  const text = await (await fetch(`${base}/api/games/${id}/export`)).text();
  const out = spawnSync(BIN, ['analyse', '-'], { input: text, encoding: 'utf8', timeout: 60000 });
  assert.equal(out.status, 0, out.stderr);
  return out.stdout.trim().split('\n').map((l) => JSON.parse(l));
}

test('« Analyser » marks the known blunder, draws the graph and shows the best move', { skip }, async () => {
  const server = await startServer();
  const browser = await launch();
  try {
    const id = await playGame(server.base);
    const cli = await cliLines(server.base, id);
    assert.equal(cli.length, MOVES.length);
    assert.deepEqual(cli.map((l) => l.mark), MOVES.map((_, i) => (i + 1 === BLUNDER ? 'blunder' : null)), 'the reference marks only the blunder');
    const best = cli[BLUNDER - 1].best;

    for (const [width, height] of [[1280, 800], [390, 844]]) {
      const page = await newPage(browser, width, height);
      await page.goto(`${server.base}/parties/${id}`);
      await page.waitForSelector('[data-viewer][data-ply="0"]');
      const button = page.locator('#analyse');
      await button.waitFor({ state: 'visible' });
      assert.equal((await button.textContent()).trim(), 'Analyser');
      // Every status the page shows, to see the progress text go by.
      await page.evaluate(() => {
        const s = document.getElementById('analysis-status');
        window.statuses = [];
        new MutationObserver(() => window.statuses.push(s.textContent)).observe(s, { childList: true, characterData: true, subtree: true });
      });
      await button.click();
      await page.waitForSelector('#analysis[data-analysis="done"]', { timeout: 60000 });

      const seen = await page.evaluate(() => window.statuses);
      assert.ok(seen.some((s) => /^Analyse\u00a0: [1-5] \/ 5 coups$/.test(s)), `a progress text: ${JSON.stringify(seen)}`);
      const progress = await page.evaluate(() => {
        const p = document.getElementById('analysis-progress');
        return { value: p.value, max: p.max };
      });
      assert.deepEqual(progress, { value: 5, max: 5 });

      // The graph: one point a ply, the blunder's coloured.
      const points = await page.locator('[data-eval-graph] circle[data-ply]').evaluateAll((cs) => cs.map((c) => [+c.dataset.ply, c.dataset.mark || null]));
      assert.deepEqual(points, MOVES.map((_, i) => [i + 1, i + 1 === BLUNDER ? 'blunder' : null]));

      // The move list: the blunder's sign, with its spoken name.
      const mv = page.locator(`.viewer-moves button[data-frame="${BLUNDER}"]`);
      assert.equal(await mv.getAttribute('data-mark'), 'blunder');
      assert.equal(await mv.locator('.viewer-mark').textContent(), '??');
      assert.equal(await mv.locator('.viewer-mark').getAttribute('aria-label'), 'gaffe');
      assert.equal(await page.locator('.viewer-moves button[data-mark]').count(), 1);

      // Stepping to the position before the blunder: the best move there,
      // as text and as a hint on the board.
      await page.locator('[data-go="next"]').click();
      await page.waitForSelector(`[data-viewer][data-ply="${BLUNDER - 1}"]:not([data-animating])`);
      const aside = page.locator('[data-viewer-aside]');
      await aside.waitFor({ state: 'visible' });
      assert.equal(await aside.textContent(), `Meilleur coup\u00a0: ${best}`);
      const hinted = await page.locator('[data-cell].hint').evaluateAll((gs) => gs.map((g) => g.dataset.cell));
      assert.deepEqual(hinted, best.match(/[a-e][1-5]/g), 'the best move is hinted on the board');
      await shot(page, `analysis-yote-${width}x${height}`);

      // A click on the graph goes to that ply.
      const graph = page.locator('[data-eval-graph]');
      const box = await graph.boundingBox();
      await graph.click({ position: { x: 8 + ((box.width - 16) * 4) / 5, y: box.height / 2 } });
      await page.waitForSelector('[data-viewer][data-ply="4"]');
      await page.context().close();
    }
  } finally {
    await browser.close();
    server.stop();
  }
});

test('an imported record is analysed under the import box, with the same mark', { skip }, async () => {
  const server = await startServer();
  const browser = await launch();
  try {
    const id = await playGame(server.base);
    const text = await (await fetch(`${server.base}/api/games/${id}/export`)).text();
    const page = await newPage(browser);
    await page.goto(`${server.base}/parties`);
    await page.fill('#import-text', text);
    await page.click('#import-btn');
    await page.waitForSelector('#import-view [data-viewer]');
    await page.click('#analyse');
    await page.waitForSelector('#analysis[data-analysis="done"]', { timeout: 60000 });
    const marks = await page.locator('#import-view [data-mark]').evaluateAll((ms) => ms.map((m) => m.dataset.mark));
    assert.deepEqual(marks, ['blunder']);
    assert.equal(await page.locator('[data-eval-graph] circle[data-ply]').count(), MOVES.length);
    await shot(page, 'analysis-imported');
  } finally {
    await browser.close();
    await server.stop();
  }
});

test('with the server’s endgame tables, an ending says « gagnant en N »', { skip }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'palabre-tables-'));
  const built = spawnSync(BIN, ['tables', 'build', '--max', '4', '--dir', dir], { encoding: 'utf8', timeout: 60000 });
  assert.equal(built.status, 0, built.stderr);
  // Red steps while Black keeps a ball in reserve (outside the tables);
  // Black places it: three balls, both reserves empty, Red to move.
  const record = '[Game "yote"]\n[Start "5/5/2r2/2b2/5 0 1 r 0"]\n\n1. c3-b3 e5\n';
  const probe = spawnSync(BIN, ['tables', 'probe', '--dir', dir, '--fen', '4b/5/1r3/2b2/5 0 0 r 2'], { encoding: 'utf8' });
  const [, value] = probe.stdout.match(/^value: (win|loss|draw) for red/m);
  const [, dtc] = probe.stdout.match(/^dtc: (\d+)/m) || [];
  const expected = value === 'draw'
    ? 'Tables\u00a0: nulle'
    : `Tables\u00a0: gagnant en ${dtc} pour les ${value === 'win' ? 'Rouges' : 'Noires'}`;
  const server = await startServer({ args: ['--tables', dir] });
  const browser = await launch();
  try {
    const page = await newPage(browser);
    await page.goto(`${server.base}/parties`);
    await page.fill('#import-text', record);
    await page.click('#import-btn');
    await page.waitForSelector('#import-view [data-viewer][data-ply="0"]');
    await page.click('#analyse');
    await page.waitForSelector('#analysis[data-tables="1"]', { timeout: 60000 });
    await page.waitForSelector('#analysis[data-analysis="done"]', { timeout: 60000 });
    const aside = page.locator('[data-viewer-aside]');
    for (const ply of [1, 2]) {
      await page.locator('[data-go="next"]').click();
      await page.waitForSelector(`[data-viewer][data-ply="${ply}"]:not([data-animating])`);
    }
    assert.equal(await aside.textContent(), expected);
    await shot(page, 'analysis-tables');
    // The position before it is outside the tables: only the best move.
    await page.locator('[data-go="prev"]').click();
    await page.waitForSelector('[data-viewer][data-ply="1"]:not([data-animating])');
    assert.match(await aside.textContent(), /^Meilleur coup\u00a0: \S+$/);
  } finally {
    await browser.close();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
