// A guest's visit leaves the browser's console clean: the pages ask who is
// signed in without drawing a 401, and « Analyser » on a server without
// endgame tables does not ask them for what they would say (no 404).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { api, browserMissing, consoleErrors, launch, newPage, openGame, startServer } from './harness.mjs';

const skip = browserMissing();

const PAGES = ['/', '/nouvelle', '/salon', '/parties', '/mes-parties', '/classement', '/connexion',
  '/inscription', '/compte', '/yote/regles', '/nsolo/regles', '/partie-locale?jeu=yote'];

test('a guest loads every page without a console error', { skip }, async () => {
  const server = await startServer();
  const browser = await launch();
  try {
    const created = await api(server.base, 'POST', '/api/games', { game: 'yote', opponent: 'local' });
    await api(server.base, 'POST', `/api/games/${created.id}/moves`, { move: 'c3', ply: 0 }, created.seat);
    const page = await newPage(browser);
    const errors = consoleErrors(page);
    await openGame(page, server.base, created);
    await page.waitForSelector('body[data-ply="1"]');
    await page.waitForLoadState('networkidle');
    assert.deepEqual(errors.splice(0), [], 'the game page');
    for (const path of [...PAGES, `/parties/${created.id}`]) {
      await page.goto(server.base + path);
      await page.waitForLoadState('networkidle');
      assert.deepEqual(errors.splice(0), [], path);
    }
    // The header still offers « Se connecter ».
    await page.goto(server.base + '/');
    await page.waitForSelector('[data-account=""] .account-link');
  } finally {
    await browser.close();
    server.stop();
  }
});

test('« Analyser » on a server without endgame tables logs no error and ends', { skip }, async () => {
  const server = await startServer();
  const browser = await launch();
  try {
    const created = await api(server.base, 'POST', '/api/games', { game: 'yote', opponent: 'local' });
    for (const [ply, move] of ['e1', 'e2', 'e1xe3/r'].entries()) {
      await api(server.base, 'POST', `/api/games/${created.id}/moves`, { move, ply }, created.seat);
    }
    const page = await newPage(browser);
    const errors = consoleErrors(page);
    await page.goto(`${server.base}/parties/${created.id}`);
    const button = page.locator('#analyse');
    await button.waitFor({ state: 'visible' });
    await button.click();
    await page.waitForSelector('#analysis[data-analysis="done"]', { timeout: 60000 });
    await page.waitForLoadState('networkidle');
    assert.equal(await page.getAttribute('#analysis', 'data-tables'), null, 'no verdicts without tables');
    assert.equal(await page.locator('[data-eval-graph] circle[data-ply]').count(), 3, 'the analysis is shown');
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    server.stop();
  }
});
