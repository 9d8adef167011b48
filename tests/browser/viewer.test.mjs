// The details a newcomer trips over: the replay viewer's move list on a phone
// and its arrow keys, the capped length of a move's animation, the Yoté
// capture prompt where the eye is, and the taps a board refuses.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { api, browserMissing, launch, newPage, openGame, shot, startServer } from './harness.mjs';

const skip = browserMissing();
const SIZES = [[1280, 800], [390, 844]];

// A fixed sequence of pseudo-random numbers, so that a failure replays.
function rng(seed) {
  let x = seed >>> 0;
  return () => {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    return x / 2 ** 32;
  };
}

// A legal Nsolo move from a state: an origin, with its bonus taken from the
// opponent's first pits (the captured pit excluded, it is emptied first).
function nsoloMove(s, entry) {
  if (!entry.bonus) return entry.pit;
  const rows = s.turn === 'south' ? ['C', 'D'] : ['A', 'B'];
  const items = [];
  let left = entry.bonus;
  for (const row of ['A', 'B', 'C', 'D']) {
    if (!rows.includes(row)) continue;
    s.nsolo.rows[row].forEach((k, i) => {
      const pit = `${row}${i + 1}`;
      if (pit === entry.capture || !k || !left) return;
      const n = Math.min(k, left);
      left -= n;
      items.push(`${pit}:${n}`);
    });
  }
  return `${entry.pit}/${items.join(',')}`;
}

/** A game on one screen, played through the API for up to `plies` moves. */
async function playLocal(base, body, plies, pick) {
  const created = await api(base, 'POST', '/api/games', { ...body, opponent: 'local' });
  let s = created.state;
  while (!s.result && s.ply < plies && s.legal.length) {
    const move = pick(s);
    const next = await api(base, 'POST', `/api/games/${created.id}/moves`, { move, ply: s.ply }, created.seat);
    assert.equal(next.ply, s.ply + 1, `move ${move} at ply ${s.ply}: ${JSON.stringify(next).slice(0, 200)}`);
    s = next;
  }
  return { created, state: s };
}

// Long Nsolo games: the origin with the most stones, so that sowings relay far.
function nsoloPicker(seed) {
  const r = rng(seed);
  return (s) => {
    const count = (p) => s.nsolo.rows[p[0]][+p.slice(1) - 1];
    const sorted = [...s.legal].sort((a, b) => count(b.pit) - count(a.pit));
    const e = r() < 0.6 ? sorted[0] : sorted[Math.floor(r() * sorted.length)];
    return nsoloMove(s, e);
  };
}

// Long Yoté games: captures now and then, so that the game lasts.
function yotePicker(seed) {
  const r = rng(seed);
  return (s) => {
    const caps = s.legal.filter((m) => m.kind === 'capture');
    const quiet = s.legal.filter((m) => m.kind !== 'capture');
    const from = caps.length && (r() < 0.15 || !quiet.length) ? caps : quiet;
    return from[Math.floor(r() * from.length)].move;
  };
}

async function noSidewaysScroll(page) {
  return page.evaluate(() => ({
    page: document.scrollingElement.scrollWidth - innerWidth,
    list: (() => {
      const l = document.querySelector('.viewer-moves');
      return l.scrollWidth - l.clientWidth;
    })(),
    moves: document.querySelectorAll('.viewer-moves button[data-frame]').length,
    outside: [...document.querySelectorAll('.viewer-moves button[data-frame]')]
      .filter((b) => b.getBoundingClientRect().right > document.querySelector('.viewer-moves').getBoundingClientRect().right + 1).length,
    first: document.querySelector('.viewer-turn')?.textContent,
  }));
}

for (const [game, body, plies, pick] of [
  ['nsolo', { game: 'nsolo', size: 16 }, 140, nsoloPicker(7)],
  ['yote', { game: 'yote' }, 110, yotePicker(11)],
]) {
  test(`the viewer lists every move of a long ${game} game, numbered by turn, without sideways scrolling`, { skip }, async () => {
    const server = await startServer();
    const browser = await launch();
    try {
      const { created, state } = await playLocal(server.base, body, plies, pick);
      assert.ok(state.ply >= 60, `a long game (${state.ply} plies)`);
      for (const [width, height] of SIZES) {
        const page = await newPage(browser, width, height);
        await page.goto(`${server.base}/parties/${created.id}`);
        await page.waitForSelector('[data-viewer][data-ply="0"]');
        const m = await noSidewaysScroll(page);
        assert.equal(m.moves, state.ply, 'one button a move');
        assert.ok(m.page <= 0, `the page does not scroll sideways at ${width}×${height} (${m.page}px)`);
        assert.ok(m.list <= 0 && m.outside === 0, `the list does not overflow sideways (${m.list}px, ${m.outside} moves outside)`);
        assert.match(m.first, new RegExp(`^1\\.\\s*${state.moves[0].replace(/[/]/g, '\\/')}\\s*${state.moves[1].replace(/[/]/g, '\\/')}$`));
        // The last move is reachable by scrolling the list down.
        await page.locator('.viewer-moves button[data-frame]').last().click();
        await page.waitForSelector(`[data-viewer][data-ply="${state.ply}"]`);
        const seen = await page.locator('.viewer-moves button.current').boundingBox();
        const list = await page.locator('.viewer-moves').boundingBox();
        assert.ok(seen.y >= list.y - 1 && seen.y + seen.height <= list.y + list.height + 1, 'the current move is scrolled into the list');
        await page.locator('[data-go="start"]').click();
        await shot(page, `viewer-${game}-${width}x${height}`);
        await page.context().close();
      }
    } finally {
      await browser.close();
      server.stop();
    }
  });
}

// The replay's frames hold positions only: the page asks the game how it
// ended and the viewer says so on the last move, and only there.
test('the replay page says how the game ended, on its last move', { skip }, async () => {
  const server = await startServer();
  const browser = await launch();
  try {
    const { created, state } = await playLocal(server.base, { game: 'yote' }, 6, yotePicker(5));
    const over = await api(server.base, 'POST', `/api/games/${created.id}/resign`, { side: 'red' }, created.seat);
    assert.deepEqual(over.result, { winner: 'black', reason: 'resignation' });
    for (const [lang, word, reason] of [['fr-FR', 'Victoire des Noires', 'Les Rouges ont abandonné.'], ['en-GB', 'Black wins', 'Red resigned.']]) {
      const page = await newPage(browser, 390, 844, lang);
      await page.goto(`${server.base}/parties/${created.id}`);
      await page.waitForSelector('[data-viewer][data-ply="0"]');
      assert.equal(await page.locator('.viewer-result').isVisible(), false, 'no result at the start');
      await page.locator('[data-go="end"]').click();
      await page.waitForSelector(`[data-viewer][data-ply="${state.ply}"]`);
      const line = page.locator('.viewer-result');
      await line.waitFor({ state: 'visible' });
      assert.equal(await line.textContent(), `${word} — ${reason}`);
      await shot(page, `viewer-result-${lang}`);
      await page.context().close();
    }
  } finally {
    await browser.close();
    server.stop();
  }
});

test('in the viewer each ArrowRight is one move, even during an animation; ArrowLeft is one back', { skip }, async () => {
  const server = await startServer();
  const browser = await launch();
  try {
    const { created } = await playLocal(server.base, { game: 'nsolo', size: 8 }, 12, nsoloPicker(3));
    // Motion on: the animations run.
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'fr-FR' });
    const page = await context.newPage();
    await page.goto(`${server.base}/parties/${created.id}`);
    await page.waitForSelector('[data-viewer][data-ply="0"]');
    // The viewer has the keyboard as soon as it opens, without a click.
    assert.equal(await page.evaluate(() => document.activeElement?.hasAttribute('data-viewer')), true);
    await page.keyboard.press('ArrowRight');
    await page.waitForSelector('[data-viewer][data-animating]');
    await page.keyboard.press('ArrowRight');
    await page.waitForSelector('[data-viewer]:not([data-animating])', { timeout: 10000 });
    assert.equal(await page.getAttribute('[data-viewer]', 'data-ply'), '2');
    await page.keyboard.press('ArrowLeft');
    await page.waitForSelector('[data-viewer][data-ply="1"]');
    // Keys pressed while nothing has the focus (the page's body) reach the viewer too.
    await page.evaluate(() => document.activeElement.blur());
    assert.equal(await page.evaluate(() => document.activeElement === document.body), true);
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
    await page.waitForSelector('[data-viewer][data-ply="4"]:not([data-animating])', { timeout: 10000 });
    await page.waitForTimeout(300);
    assert.equal(await page.getAttribute('[data-viewer]', 'data-ply'), '4', 'three presses, three moves');
    await context.close();
  } finally {
    await browser.close();
    server.stop();
  }
});

// A long sowing: a game on one screen where each move is, among the first
// dozen origins tried (each played then taken back), the one that sows longest.
async function longSowing(base, size, plies) {
  const c = await api(base, 'POST', '/api/games', { game: 'nsolo', size, opponent: 'local' });
  let s = c.state;
  let best = null;
  while (!s.result && s.ply < plies) {
    let top = null;
    for (const e of s.legal.slice(0, 12)) {
      const move = nsoloMove(s, e);
      const tried = await api(base, 'POST', `/api/games/${c.id}/moves`, { move, ply: s.ply }, c.seat);
      await api(base, 'POST', `/api/games/${c.id}/takeback`, {}, c.seat);
      const steps = tried.last.animation.steps;
      if (!top || steps.length > top.steps.length) top = { move, steps, rows: s.nsolo.rows };
    }
    if (!best || top.steps.length > best.steps.length) best = top;
    s = await api(base, 'POST', `/api/games/${c.id}/moves`, { move: top.move, ply: s.ply }, c.seat);
  }
  return { id: c.id, ...best };
}

test('a long sowing animates within its budget on 4×8 and 4×36', { skip }, async (t) => {
  const server = await startServer();
  const browser = await launch();
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'fr-FR' });
    const page = await context.newPage();
    for (const size of [8, 36]) {
      const long = await longSowing(server.base, size, size === 8 ? 20 : 4);
      assert.ok(long.steps.length > 90, `a long sowing (${long.steps.length} steps)`);
      await page.goto(`${server.base}/parties/${long.id}`);
      await page.waitForSelector('[data-viewer]');
      const r = await page.evaluate(async ({ rows, steps }) => {
        const { Animator, cap } = await import('/assets/js/animate.js');
        const { NsoloBoard } = await import('/assets/js/board-nsolo.js');
        const host = document.createElement('div');
        host.className = 'board-host nsolo';
        document.querySelector('main').prepend(host);
        const board = new NsoloBoard(host, { bar: false });
        board.set({ rows, legal: [], interactive: false });
        const anim = new Animator();
        const budgets = Object.fromEntries([280, 150, 70].map((s) => [s, [anim.budget(steps, s), cap(s)]]));
        anim.setSpeed(150);
        let updates = 0;
        let last = null;
        anim.onRows = (x) => {
          updates++;
          last = x;
        };
        const t0 = performance.now();
        await anim.run(() => anim.nsolo(board, rows, steps));
        const ms = performance.now() - t0;
        const shown = {};
        for (const row of ['A', 'B', 'C', 'D']) shown[row] = rows[row].map((_, i) => +board.pits[`${row}${i + 1}`].g.dataset.count);
        host.remove();
        return { budgets, ms, updates, last, shown, budget: anim.budget(steps) };
      }, long);
      for (const [speed, [b, c]] of Object.entries(r.budgets)) assert.ok(b <= c + 1, `budget at ${speed} ms a step: ${b} ≤ ${c}`);
      assert.ok(r.budgets[150][1] <= 1700, 'about 1.6 s at Normale');
      // The wall time is reported, not asserted: a loaded machine is slow, and
      // timings belong to measurements (tests/browser/measure.mjs).
      assert.ok(r.updates > 5, 'the counts were reported along the way');
      assert.deepEqual(r.last, r.shown, 'the last counts reported are the ones on the board');
      t.diagnostic(`4×${size}: ${long.move}, ${long.steps.length} steps, ${Math.round(r.ms)} ms at Normale (budget ${Math.round(r.budget)} ms)`);
    }
    await context.close();
  } finally {
    await browser.close();
    server.stop();
  }
});

for (const [width, height] of SIZES) {
  test(`the Yoté capture prompt at ${width}×${height}: in view, the jumped ball marked, a lone second ball preselected`, { skip }, async () => {
    const server = await startServer();
    const browser = await launch();
    try {
      // Black's only ball on the board is the one jumped: the second ball can
      // only come from Black's reserve.
      const created = await api(server.base, 'POST', '/api/games', { game: 'yote', opponent: 'local' });
      for (const [ply, move] of ['b3', 'c3'].entries()) {
        await api(server.base, 'POST', `/api/games/${created.id}/moves`, { move, ply }, created.seat);
      }
      const page = await newPage(browser, width, height);
      await openGame(page, server.base, created);
      await page.waitForSelector('body[data-ply="2"][data-ready="1"]');
      await page.click('[data-cell="b3"]');
      await page.click('[data-cell="d3"]');
      await page.waitForSelector('.board-prompt.strong:not([hidden])');
      const box = await page.locator('.board-prompt').boundingBox();
      assert.ok(box.y >= 0 && box.y + box.height <= height && box.x >= 0 && box.x + box.width <= width,
        `the prompt is in view without scrolling (${JSON.stringify(box)})`);
      assert.equal(await page.evaluate(() => scrollY), 0, 'nothing scrolled');
      assert.match(await page.getAttribute('[data-cell="c3"]', 'class'), /jumped-mark/);
      assert.match(await page.getAttribute('[data-reserve="black"]', 'class'), /chosen/);
      // Preselected, not played: the move waits for « Valider ».
      await page.waitForTimeout(300);
      assert.equal((await api(server.base, 'GET', `/api/games/${created.id}`)).ply, 2);
      await shot(page, `capture-reserve-${width}x${height}`);
      if (width > 500) await page.click('.board-prompt .confirm');
      else await page.keyboard.press('Enter');
      await page.waitForSelector('body[data-ply="3"]');
      const s = await api(server.base, 'GET', `/api/games/${created.id}`);
      assert.equal(s.moves[2], 'b3xd3/r');

      // Black's e5 and the reserve: a real choice, nothing preselected.
      for (const [ply, move] of [[3, 'e5'], [4, 'a1'], [5, 'c3']].values()) {
        await api(server.base, 'POST', `/api/games/${created.id}/moves`, { move, ply }, created.seat);
      }
      await page.waitForSelector('body[data-ply="6"][data-ready="1"]');
      await page.click('[data-cell="d3"]');
      await page.click('[data-cell="b3"]');
      await page.waitForSelector('.board-prompt.strong:not([hidden])');
      const box2 = await page.locator('.board-prompt').boundingBox();
      assert.ok(box2.y >= 0 && box2.y + box2.height <= height, 'the prompt is in view');
      assert.match(await page.getAttribute('[data-cell="c3"]', 'class'), /jumped-mark/);
      assert.equal(await page.locator('.chosen').count(), 0, 'nothing preselected among two choices');
      assert.equal(await page.locator('.board-prompt .confirm').count(), 0);
      await shot(page, `capture-choice-${width}x${height}`);
      await page.click('[data-cell="e5"]');
      await page.waitForSelector('body[data-ply="7"]');
      assert.equal((await api(server.base, 'GET', `/api/games/${created.id}`)).moves[6], 'd3xb3/e5');
    } finally {
      await browser.close();
      server.stop();
    }
  });
}

test('the boards: a lone second ball on the board, and the taps they refuse', { skip }, async () => {
  const server = await startServer();
  const browser = await launch();
  try {
    // A page with the boards' styles: a replay, whose viewer makes way.
    const created = await api(server.base, 'POST', '/api/games', { game: 'yote', opponent: 'local' });
    const page = await newPage(browser, 1280, 800);
    await page.goto(`${server.base}/parties/${created.id}`);
    await page.waitForSelector('[data-viewer]');
    await page.evaluate(async () => {
      document.querySelector('main').textContent = '';
      const { YoteBoard } = await import('/assets/js/board-yote.js');
      const { NsoloBoard } = await import('/assets/js/board-nsolo.js');
      const log = (window.__log = []);
      const host = document.createElement('div');
      host.className = 'board-host yote';
      host.style.cssText = 'position: relative; width: 420px; margin: 0 auto';
      document.querySelector('main').prepend(host);
      window.__yote = new YoteBoard(host, { onMove: (m) => log.push(['move', m]), onRefuse: (...a) => log.push(['refuse', ...a]) });
      window.__yote.set({
        board: { c3: 'red', c4: 'black', e1: 'black', a1: 'red' },
        reserve: { red: 0, black: 0 }, captured: { red: 10, black: 10 }, interactive: true,
        legal: [
          { move: 'c3xc5/e1', kind: 'capture', from: 'c3', to: 'c5', jumped: 'c4', second: 'e1' },
          { move: 'c3-d3', kind: 'step', from: 'c3', to: 'd3' },
          { move: 'a1-a2', kind: 'step', from: 'a1', to: 'a2' },
        ],
      });
      const nhost = document.createElement('div');
      nhost.className = 'board-host nsolo';
      document.querySelector('main').append(nhost);
      window.__nsolo = new NsoloBoard(nhost, { onMove: (m) => log.push(['move', m]), onRefuse: (...a) => log.push(['refuse', ...a]) });
      const row = (k) => Array(8).fill(k);
      window.__nsolo.set({ rows: { A: row(2), B: row(2), C: row(2), D: row(2) }, legal: [{ pit: 'A1', bonus: 0, capture: null }], interactive: true, turn: 'south' });
    });
    const log = () => page.evaluate(() => window.__log.splice(0));

    // A move half-built survives the same moves pushed again in new objects
    // (the socket's first state after the page's own read), and is dropped
    // when the moves change.
    const redraw = (keep) => page.evaluate((keep) => {
      const b = window.__yote;
      const legal = b.view.legal.map((e) => ({ ...e }));
      b.set({ legal: keep ? legal : legal.slice(1) });
      return b.set({ legal });
    }, keep);
    await page.click('[data-cell="c3"]');
    await redraw(false);
    assert.doesNotMatch(await page.getAttribute('[data-cell="c3"]', 'class'), / sel/, 'new moves drop the selection');
    await page.click('[data-cell="c3"]');
    await redraw(true);
    await page.click('[data-cell="c5"]');
    await redraw(true);
    assert.match(await page.getAttribute('[data-cell="c4"]', 'class'), /jumped-mark/);
    assert.match(await page.getAttribute('[data-cell="e1"]', 'class'), /chosen/);
    assert.equal(await page.locator('[data-reserve].cand').count(), 0);
    const text = await page.evaluate(async () => {
      const { t } = await import('/assets/js/i18n.js');
      const p = document.querySelector('.board-prompt').textContent;
      return { p, mentions: [t('yote.prompt.second'), t('yote.prompt.secondReserve')].filter((x) => p.includes(x)) };
    });
    assert.deepEqual(text.mentions, [], `the reserve is not offered: ${text.p}`);
    await shot(page, 'capture-board-only-1280x800');
    assert.deepEqual(await log(), [], 'a preselected ball waits for its confirmation');
    await page.keyboard.press('Enter');
    assert.deepEqual(await log(), [['move', 'c3xc5/e1']]);

    // Holes that start nothing: shaken and handed over; none while waiting.
    await page.click('[data-cell="e5"]');
    assert.match(await page.getAttribute('[data-cell="e5"]', 'class'), /refused/);
    await page.click('[data-cell="c4"]');
    await page.click('[data-pit="A2"]');
    await page.click('[data-pit="A1"]');
    assert.deepEqual(await log(), [['refuse', 'e5', 'origin'], ['refuse', 'c4', 'origin'], ['refuse', 'A2', 'origin'], ['move', 'A1']]);
    await page.waitForTimeout(600);
    assert.doesNotMatch(await page.getAttribute('[data-cell="e5"]', 'class'), /refused/, 'the shake ends');
    await page.evaluate(() => {
      window.__yote.set({ interactive: false });
      window.__nsolo.set({ interactive: false });
    });
    await page.click('[data-cell="c3"]');
    await page.locator('[data-pit="A1"]').focus();
    await page.keyboard.press('Enter');
    assert.deepEqual(await log(), [['refuse', 'c3', 'wait'], ['refuse', 'A1', 'wait']]);
  } finally {
    await browser.close();
    server.stop();
  }
});
