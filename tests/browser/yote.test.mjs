// Yoté in the browser: a whole game against Débutant played by clicks, and a
// capture whose second ball comes from the opponent's reserve.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { api, browserMissing, launch, newPage, openGame, shot, startServer, until } from './harness.mjs';

const skip = browserMissing();

/** Clicks the holes (and reserve) that make up `move` (a legal entry). */
async function clickMove(page, entry, opponent) {
  if (entry.from) await page.click(`[data-cell="${entry.from}"]`);
  await page.click(`[data-cell="${entry.to}"]`);
  if (entry.kind === 'capture' && entry.second) {
    const target = entry.second === 'reserve' ? `[data-reserve="${opponent}"]` : `[data-cell="${entry.second}"]`;
    await page.click(target);
  }
}

/** Captures first, taking the reserve ball when there is a choice; else the first listed move. */
function choose(legal) {
  return legal.find((m) => m.kind === 'capture' && m.second === 'reserve')
    || legal.find((m) => m.kind === 'capture') || legal[Math.floor(legal.length / 2)];
}

test('a whole Yoté game against Débutant, by clicks, to the end screen', { skip }, async () => {
  const server = await startServer();
  const browser = await launch();
  try {
    const page = await newPage(browser);
    await page.goto(`${server.base}/nouvelle?jeu=yote`);
    await page.check('input[name="opponent"][value="machine"]');
    await page.check('input[name="level"][value="debutant"]');
    await page.check('input[name="side"][value="first"]');
    await Promise.all([page.waitForURL(/\/partie\//), page.click('#start')]);
    const id = page.url().split('/').pop();
    let s = await api(server.base, 'GET', `/api/games/${id}`);
    assert.equal(s.players.red, 'human');
    for (let turn = 0; !s.result && turn < 400; turn++) {
      await page.waitForSelector(`body[data-ply="${s.ply}"][data-ready="1"]`, { timeout: 30000 });
      const entry = choose(s.legal);
      await clickMove(page, entry, 'black');
      s = await until(server.base, id, (n) => n.result || (n.ply >= s.ply + 2 && !n.thinking));
      if (turn === 3) await shot(page, 'yote-game-playing');
    }
    assert.ok(s.result, 'the game ended');
    await page.waitForSelector('#end[data-result]:not([hidden])', { timeout: 30000 });
    const shown = await page.getAttribute('#end', 'data-result');
    assert.equal(shown, s.result.winner || 'draw');
    assert.ok((await page.textContent('#end')).trim().length > 0);
    await shot(page, 'yote-game-end');
  } finally {
    await browser.close();
    server.stop();
  }
});

test('a Yoté capture whose second ball comes from the reserve', { skip }, async () => {
  const server = await startServer();
  const browser = await launch();
  try {
    const created = await api(server.base, 'POST', '/api/games', { game: 'yote', opponent: 'local' });
    for (const [ply, move] of ['b3', 'c3', 'a1', 'e5'].entries()) {
      await api(server.base, 'POST', `/api/games/${created.id}/moves`, { move, ply }, created.seat);
    }
    const page = await newPage(browser);
    await openGame(page, server.base, created);
    await page.waitForSelector('body[data-ply="4"][data-ready="1"]');
    await page.click('[data-cell="b3"]');
    await page.click('[data-cell="d3"]');
    await page.waitForSelector('.board-prompt:not(:empty)');
    await shot(page, 'yote-second-ball-prompt');
    await page.click('[data-reserve="black"]');
    const s = await until(server.base, created.id, (n) => n.ply === 5);
    assert.equal(s.moves[4], 'b3xd3/r');
    assert.deepEqual([s.yote.reserve.black, s.yote.captured.red, s.yote.board.c3], [9, 2, undefined]);
    await page.waitForSelector('body[data-ply="5"]');
    assert.equal(await page.locator('[data-cell="d3"]').getAttribute('aria-label').then((l) => /rouge|red/i.test(l)), true);
    await shot(page, 'yote-second-ball-taken');
  } finally {
    await browser.close();
    server.stop();
  }
});

// « Ndar-Kepp » shouts on one line, in capitals: on the narrowest phones
// (320 px) the card must still fit the screen with even margins. No short
// line of play reaches a Ndar-Kepp from the start, so the page is shown a
// finished game whose result the test rewrites on its way in.
test('the Ndar-Kepp end card fits a 320 px phone', { skip }, async () => {
  const server = await startServer();
  const browser = await launch();
  try {
    const created = await api(server.base, 'POST', '/api/games', { game: 'yote', opponent: 'local' });
    const s = await api(server.base, 'POST', `/api/games/${created.id}/resign`, { side: 'black' }, created.seat);
    assert.deepEqual(s.result, { winner: 'red', reason: 'resignation' });
    const ndar = (text) => text.replace(/"reason":"resignation"/g, '"reason":"ndar-kepp"');
    for (const [width, height] of [[320, 568], [390, 844], [1280, 800]]) {
      const page = await newPage(browser, width, height);
      await page.route(`**/api/games/${created.id}`, async (route) => {
        const res = await route.fetch();
        await route.fulfill({ response: res, body: ndar(await res.text()) });
      });
      await page.routeWebSocket(/\/ws$/, (ws) => {
        const server = ws.connectToServer();
        server.onMessage((m) => ws.send(typeof m === 'string' ? ndar(m) : m));
      });
      await openGame(page, server.base, { ...created, side: null });
      await page.waitForSelector('#end:not([hidden])[data-reason="ndar-kepp"]');
      assert.equal(await page.textContent('#end-word'), 'Ndar-Kepp');
      const m = await page.evaluate(() => {
        const word = document.getElementById('end-word');
        const card = document.querySelector('.end-card').getBoundingClientRect();
        return { left: card.left, right: innerWidth - card.right, word: word.scrollWidth - word.clientWidth };
      });
      assert.ok(m.word <= 0, `the word fits its line at ${width} px (${m.word} px over)`);
      assert.ok(m.left >= 8 && Math.abs(m.left - m.right) <= 1, `even margins at ${width} px (${m.left} / ${m.right})`);
      await shot(page, `yote-ndar-kepp-${width}`);
      await page.context().close();
    }
  } finally {
    await browser.close();
    server.stop();
  }
});
