// Offline play: with the network cut after a first visit, a whole Yoté game
// against Débutant is played by clicks to the end screen, and Nsolo 4×8
// moves with a capture and its bonus, all against the WebAssembly engine in
// its worker; the games show in « Mes parties ». The page's state is read
// through the app's own modules (the stored record, the engine's state), as
// the tests read the server's API for online games.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { api, browserMissing, launch, newPage, shot, startServer } from './harness.mjs';

const skip = browserMissing();

/** The service worker controls the page and keeps the engine. */
async function installed(page, base) {
  await page.goto(base + '/');
  await page.waitForFunction(() => document.documentElement.dataset.sw === 'ready');
  await page.reload();
  await page.waitForFunction(() => !!navigator.serviceWorker.controller);
  const kept = await page.evaluate(async () => !!(await caches.match('/assets/wasm/engine_bg.wasm')));
  assert.ok(kept, 'the engine is kept for offline use');
}

/** The local game on screen: its stored summary and its state from the engine. */
function localState(page) {
  return page.evaluate(async () => {
    const id = new URLSearchParams(location.search).get('id');
    const store = await import('/assets/js/local-store.js');
    const engine = await import('/assets/js/engine-client.js');
    const entry = await store.get(id);
    return (await engine.call('state', [entry.game])).state;
  });
}

/** Waits until the page shows ply `ply` or later, ready for a click or over. */
async function settled(page, after) {
  await page.waitForFunction((ply) => {
    const b = document.body.dataset;
    return Number(b.ply) > ply && (b.ready === '1' || b.status === 'finished' || !document.getElementById('end').hidden);
  }, after, { timeout: 60000 });
  return localState(page);
}

async function startOffline(page, base, game, extra = '') {
  await page.goto(`${base}/nouvelle?jeu=${game}${extra}`);
  assert.equal(await page.isChecked('#offline'), true, 'offline, the form plays in this browser');
  await page.check('input[name="opponent"][value="machine"]');
  await page.check('input[name="level"][value="debutant"]');
  await page.check('input[name="side"][value="first"]');
  await Promise.all([page.waitForURL(/\/partie-locale\?id=L/), page.click('#start')]);
  await page.waitForSelector('body[data-ply="0"][data-ready="1"]', { timeout: 30000 });
  return localState(page);
}

async function clickYote(page, m) {
  if (m.from) await page.click(`[data-cell="${m.from}"]`);
  await page.click(`[data-cell="${m.to}"]`);
  if (m.kind === 'capture' && m.second) {
    await page.click(m.second === 'reserve' ? '[data-reserve="black"]' : `[data-cell="${m.second}"]`);
  }
}

function chooseYote(legal) {
  return legal.find((m) => m.kind === 'capture') || legal[Math.floor(legal.length / 2)];
}

/** A sowing that captures nothing: one click plays it. */
function quiet(s) {
  return s.legal.find((o) => !o.capture) || s.legal[0];
}

/** Clicks an Nsolo capture and removes its bonus from North's first full pits. */
async function clickNsoloCapture(page, s, entry) {
  await page.click(`[data-pit="${entry.pit}"]`);
  let left = entry.bonus;
  for (const row of ['C', 'D']) {
    for (let col = 1; col <= 8 && left > 0; col++) {
      const pit = `${row}${col}`;
      if (pit === entry.capture) continue;
      for (let k = s.nsolo.rows[row][col - 1]; k > 0 && left > 0; k--, left--) await page.click(`[data-pit="${pit}"]`);
    }
  }
  await page.click('.board-prompt .confirm');
}

test('offline: Yoté against Débutant to the end, Nsolo captures with their bonus, both in « Mes parties »', { skip }, async () => {
  const server = await startServer();
  const browser = await launch();
  try {
    const page = await newPage(browser);
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await installed(page, server.base);
    await page.context().setOffline(true);

    let s = await startOffline(page, server.base, 'yote');
    const yoteId = s.id;
    assert.equal(s.players.red, 'human');
    for (let turn = 0; !s.result && turn < 400; turn++) {
      await clickYote(page, chooseYote(s.legal));
      s = await settled(page, s.ply);
      if (turn === 3) await shot(page, 'offline-yote-1280');
    }
    assert.ok(s.result, 'the game ended');
    const yoteResult = s.result;
    await page.waitForSelector('#end[data-result]:not([hidden])', { timeout: 30000 });
    assert.equal(await page.getAttribute('#end', 'data-result'), s.result.winner || 'draw');
    await shot(page, 'offline-yote-end');

    // Still offline, the finished game is analysed by the browser's engine.
    const replay = await page.getAttribute('#end-replay', 'href');
    assert.equal(replay, `/partie-locale/revoir?id=${yoteId}`);
    await page.goto(server.base + replay);
    await page.click('#analyse');
    await page.waitForSelector('#analysis[data-analysis="done"]', { timeout: 120000 });
    const points = await page.locator('[data-eval-graph] circle[data-ply]').count();
    assert.equal(points, s.moves.length, 'one point a ply on the graph');
    await shot(page, 'offline-analysis');

    s = await startOffline(page, server.base, 'nsolo', '&taille=8');
    const nsoloId = s.id;
    let captures = 0;
    for (let turn = 0; turn < 30 && captures < 2 && !s.result; turn++) {
      const entry = s.legal.find((o) => o.bonus > 0);
      if (entry) {
        await clickNsoloCapture(page, s, entry);
        const next = await settled(page, s.ply);
        const played = next.moves[s.ply];
        assert.match(played, new RegExp(`^${entry.pit}/`), 'the capture and its bonus were played');
        const bonus = played.split('/')[1].split(',').reduce((n, part) => n + Number(part.split(':')[1]), 0);
        assert.equal(bonus, entry.bonus, 'the bonus removes as many stones as the capture asks');
        captures++;
        s = next;
      } else {
        await page.click(`[data-pit="${quiet(s).pit}"]`);
        s = await settled(page, s.ply);
      }
    }
    assert.ok(captures > 0, 'a capture with its bonus was played offline');
    await shot(page, 'offline-nsolo');

    await page.goto(`${server.base}/mes-parties`);
    for (const id of [yoteId, nsoloId]) {
      await page.waitForSelector(`[data-id="${id}"][data-local="1"]`, { timeout: 10000 });
    }
    await shot(page, 'offline-mine');

    // The unfinished Nsolo game is the one the home page offers to resume.
    await page.goto(`${server.base}/`);
    await page.waitForSelector('#resume:not([hidden])', { timeout: 10000 });
    assert.equal(await page.getAttribute('#resume-go', 'href'), `/partie-locale?id=${nsoloId}`);

    // Back online, the finished game is sent to the server as a record; the
    // unfinished one stays in the browser.
    await page.context().setOffline(false);
    let synced;
    for (let i = 0; i < 80 && !synced; i++) {
      synced = await page.evaluate(async (id) => (await (await import('/assets/js/local-store.js')).get(id))?.synced, yoteId);
      if (!synced) await new Promise((r) => setTimeout(r, 250));
    }
    assert.ok(synced, 'the finished game was sent');
    const local = await page.evaluate(async (id) => (await import('/assets/js/local-store.js')).get(id).then((e) => e.game), yoteId);
    const stored = await api(server.base, 'GET', `/api/games/${synced}`);
    assert.equal(stored.status, 'finished', JSON.stringify({ synced, stored }));
    assert.deepEqual(stored.moves, local.moves, 'the record has the moves played offline');
    assert.deepEqual(stored.result, yoteResult, 'with the result it had offline');
    const records = await api(server.base, 'GET', '/api/records');
    assert.ok(JSON.stringify(records).includes(synced), 'listed with the records');
    const nsolo = await page.evaluate(async (id) => (await import('/assets/js/local-store.js')).get(id), nsoloId);
    assert.equal(nsolo.synced, undefined, 'an unfinished game is not sent');
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    await server.stop();
  }
});

test('offline at 390 px: a local game on a phone', { skip }, async () => {
  const server = await startServer();
  const browser = await launch();
  try {
    const page = await newPage(browser, 390, 844);
    await installed(page, server.base);
    await page.context().setOffline(true);
    const s = await startOffline(page, server.base, 'nsolo', '&taille=8');
    await page.click(`[data-pit="${quiet(s).pit}"]`);
    await settled(page, 0);
    await shot(page, 'offline-nsolo-390');
  } finally {
    await browser.close();
    await server.stop();
  }
});

// /partie-locale with no game, or with one this browser does not hold (a
// link from another device): the page says there is no such game, not that
// the server failed, and shows no empty player bars.
test('a local game page that names no game here says so', { skip }, async () => {
  const server = await startServer();
  const browser = await launch();
  try {
    const page = await newPage(browser, 390, 844);
    for (const path of ['/partie-locale', '/partie-locale?id=Lnothere', '/local-game']) {
      await page.goto(server.base + path);
      await page.waitForSelector('body[data-error="not_found"]');
      assert.match(await page.textContent('#status'), /Cette partie n’existe pas/, path);
      assert.equal(await page.locator('.side-bar').filter({ visible: true }).count(), 0, `${path}: no empty bars`);
    }
    await shot(page, 'local-game-missing');
  } finally {
    await browser.close();
    await server.stop();
  }
});
