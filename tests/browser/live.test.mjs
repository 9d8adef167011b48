// The live socket carries every kind of game: the machine's reply and the
// moves of a game on one screen reach the page over `/ws` (there is no
// `/events` stream any more), and a page whose socket is refused still gets
// them by reading the game. And what the page says when the server refuses:
// the machine too busy to take a move, a damaged game kept read-only.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { api, browserMissing, launch, newPage, openGame, shot, startServer, until } from './harness.mjs';

const skip = browserMissing();

/** Records what a page asks over HTTP and the states its live sockets bring. */
function watch(page) {
  const seen = { requests: [], sockets: [], states: [] };
  page.on('request', (r) => seen.requests.push(`${r.method()} ${new URL(r.url()).pathname}`));
  page.on('websocket', (ws) => {
    seen.sockets.push(new URL(ws.url()).pathname);
    ws.on('framereceived', ({ payload }) => {
      try {
        const msg = JSON.parse(String(payload));
        if (msg.type === 'state') seen.states.push(msg.state);
      } catch { /* not JSON */ }
    });
  });
  return seen;
}

/** Clicks a legal Yoté move: a placement, or the two holes of a step. */
async function clickYote(page, entry) {
  if (entry.from) await page.click(`[data-cell="${entry.from}"]`);
  await page.click(`[data-cell="${entry.to}"]`);
}

test('against the machine, its reply arrives over the live socket', { skip }, async () => {
  const server = await startServer();
  const browser = await launch();
  try {
    const created = await api(server.base, 'POST', '/api/games', { game: 'yote', opponent: 'machine', level: 'debutant', side: 'red' });
    const page = await newPage(browser);
    const seen = watch(page);
    await openGame(page, server.base, created);
    // Once the socket is up (a click before its first state costs one more read).
    await page.waitForSelector('body[data-ply="0"][data-ready="1"][data-conn="open"]');
    const placement = created.state.legal.find((m) => !m.from);
    await clickYote(page, placement);
    // The page shows the machine's answer without asking for it.
    await page.waitForSelector('body[data-ply="2"][data-ready="1"]', { timeout: 30000 });
    const s = await api(server.base, 'GET', `/api/games/${created.id}`);
    assert.equal(s.ply, 2);
    assert.equal(await page.getAttribute('body', 'data-ply'), '2');
    assert.deepEqual(seen.sockets, [`/api/games/${created.id}/ws`], 'one live socket, to this game');
    assert.ok(seen.states.some((st) => st.ply === 2 && st.moves[1] === s.moves[1]), 'the reply came as a socket state');
    assert.ok(!seen.requests.some((r) => r.includes('/events')), 'no event stream is asked for');
    // One read, then the socket. A second read is allowed: when the move's
    // HTTP answer already carries the machine's reply, the socket's older
    // state (ply 1) arrives behind the screen, and the page reads the game
    // again rather than guess whether a take-back happened. Polling would
    // read far more often.
    const reads = seen.requests.filter((r) => r === `GET /api/games/${created.id}`);
    assert.ok(reads.length >= 1 && reads.length <= 2, `the state was read, then followed live (${reads.length} reads)`);
    assert.match(await page.textContent('#status'), /À vous/);
    await shot(page, 'live-machine-reply');
  } finally {
    await browser.close();
    server.stop();
  }
});

test('with WebSockets refused on the way, the machine\'s reply still shows', { skip }, async () => {
  const server = await startServer();
  const browser = await launch();
  try {
    const created = await api(server.base, 'POST', '/api/games', { game: 'yote', opponent: 'machine', level: 'debutant', side: 'red' });
    const page = await newPage(browser);
    // A proxy that refuses WebSockets: every socket closes at once.
    await page.routeWebSocket(/\/ws$/, (ws) => ws.close({ code: 1011, reason: 'refused' }));
    await openGame(page, server.base, created);
    await page.waitForSelector('body[data-ply="0"][data-ready="1"][data-conn="lost"]');
    assert.equal(await page.locator('#conn').isVisible(), true, 'the page says it is reconnecting');
    await clickYote(page, created.state.legal.find((m) => !m.from));
    await page.waitForSelector('body[data-ply="2"][data-ready="1"]', { timeout: 30000 });
  } finally {
    await browser.close();
    server.stop();
  }
});

test('a game on one screen, watched from another browser, follows each move live', { skip }, async () => {
  const server = await startServer();
  const browser = await launch();
  try {
    const created = await api(server.base, 'POST', '/api/games', { game: 'yote', opponent: 'local' });
    const watcher = await newPage(browser, 390, 844);
    const seen = watch(watcher);
    await watcher.goto(`${server.base}/partie/${created.id}`);
    await watcher.waitForSelector('body[data-ply="0"]');
    for (const [ply, move] of ['b3', 'c3', 'a1'].entries()) {
      await api(server.base, 'POST', `/api/games/${created.id}/moves`, { move, ply }, created.seat);
      await watcher.waitForSelector(`body[data-ply="${ply + 1}"]`, { timeout: 10000 });
    }
    assert.equal(await watcher.getAttribute('body', 'data-ready'), '0', 'a watcher cannot play');
    assert.equal(await watcher.locator('#act-hint').isVisible(), false, 'nor ask for hints');
    assert.ok(seen.sockets.length >= 1 && !seen.requests.some((r) => r.includes('/events')));
    assert.match(await watcher.textContent('#status'), /Vous regardez/);
    await shot(watcher, 'live-local-watcher-390x844');
  } finally {
    await browser.close();
    server.stop();
  }
});

test('a move the busy machine cannot take is refused in words, and the board stays playable', { skip }, async () => {
  // No waiting place for a quick search: every move against the machine is refused `busy`.
  const server = await startServer({ args: ['--quick-queue', '0'] });
  const browser = await launch();
  try {
    const created = await api(server.base, 'POST', '/api/games', { game: 'yote', opponent: 'machine', level: 'debutant', side: 'red' });
    const page = await newPage(browser);
    await openGame(page, server.base, created);
    await page.waitForSelector('body[data-ply="0"][data-ready="1"]');
    const placement = created.state.legal.find((m) => !m.from);
    await clickYote(page, placement);
    await page.waitForSelector('#message.error:not([hidden])', { timeout: 10000 });
    assert.match(await page.textContent('#message'), /très demandée.*votre coup n’a pas été joué/);
    await page.waitForSelector('body[data-ply="0"][data-ready="1"]');
    const s = await api(server.base, 'GET', `/api/games/${created.id}`);
    assert.equal(s.ply, 0, 'nothing was played');
    await shot(page, 'live-busy-fr');

    await page.evaluate(() => localStorage.setItem('palabre.lang', 'en'));
    await page.reload();
    await page.waitForSelector('body[data-ply="0"][data-ready="1"]');
    await clickYote(page, placement);
    await page.waitForSelector('#message.error:not([hidden])', { timeout: 10000 });
    assert.match(await page.textContent('#message'), /great demand.*your move was not played/);
  } finally {
    await browser.close();
    server.stop();
  }
});

test('a damaged game is shown read-only, with the reason', { skip }, async () => {
  let server = await startServer();
  const browser = await launch();
  try {
    const created = await api(server.base, 'POST', '/api/games', { game: 'yote', opponent: 'local' });
    for (const [ply, move] of ['b3', 'c3', 'a1'].entries()) {
      await api(server.base, 'POST', `/api/games/${created.id}/moves`, { move, ply }, created.seat);
    }
    // Stopped gracefully, the server leaves everything in the database file
    // (no journal beside it). The second move is then made unreadable in
    // place: a row of `moves` holds the game's id, its ply (no bytes for 0
    // and 1) and the notation side by side, and `z9` is no Yoté square.
    const { db } = server;
    await server.stop();
    assert.ok(!existsSync(`${db}-wal`) || readFileSync(`${db}-wal`).length === 0, 'the journal was checkpointed');
    const bytes = readFileSync(db);
    const row = Buffer.from(`${created.id}c3`);
    let at = bytes.indexOf(row);
    assert.ok(at >= 0, 'the second move is found in the file');
    for (; at >= 0; at = bytes.indexOf(row, at + 1)) bytes.write('z9', at + row.length - 2, 'latin1');
    writeFileSync(db, bytes);
    server = await startServer({ db });

    const page = await newPage(browser);
    await openGame(page, server.base, created);
    await page.waitForSelector('body[data-status="damaged"]', { timeout: 10000 });
    await page.waitForSelector('#readonly:not([hidden])');
    assert.match(await page.textContent('#readonly'), /endommagée/);
    assert.match(await page.textContent('#status'), /lecture seule/);
    assert.equal(await page.getAttribute('body', 'data-ready'), '0');
    for (const sel of ['#act-hint', '#act-takeback', '#act-draw', '#act-resign', '#move-form']) {
      assert.equal(await page.locator(sel).isVisible(), false, `${sel} is not offered`);
    }
    assert.equal(await page.locator('#end').isVisible(), false);
    await shot(page, 'live-damaged-1280x800');
    const refused = await api(server.base, 'POST', `/api/games/${created.id}/moves`, { move: 'c3', ply: 1 }, created.seat);
    assert.equal(refused.error.code, 'damaged');

    await page.setViewportSize({ width: 390, height: 844 });
    await page.evaluate(() => localStorage.setItem('palabre.lang', 'en'));
    await page.reload();
    await page.waitForSelector('body[data-status="damaged"]');
    assert.match(await page.textContent('#readonly'), /damaged/);
    assert.match(await page.textContent('#status'), /read-only/);
    await shot(page, 'live-damaged-390x844-en');
  } finally {
    await browser.close();
    server.stop();
  }
});
