// What a newcomer trips over, walked in Chromium at 1280 and 390 px: a
// closed tab loses nothing (« Reprendre la partie », « Mes parties »), the
// move list shows any earlier position read-only, settings are remembered,
// « Nouvelle partie » and « Rejouer » after a game, take-backs, a team game
// started before it is full, a refused tap that says why, and a spectator's
// page that stays silent until a click.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { api, browserMissing, launch, newPage, openGame, shot, startServer, until } from './harness.mjs';

const skip = browserMissing();
const SIZES = [[1280, 800], [390, 844]];

async function placeYote(page, base, id, cell) {
  const before = await api(base, 'GET', `/api/games/${id}`);
  await page.waitForSelector(`body[data-ply="${before.ply}"][data-ready="1"]`);
  await page.click(`[data-cell="${cell}"]`);
  return until(base, id, (s) => s.ply > before.ply);
}

test('a closed tab loses nothing: « Reprendre la partie » and « Mes parties »', { skip }, async () => {
  const server = await startServer();
  const browser = await launch();
  try {
    for (const [w, h] of SIZES) {
      const context = await browser.newContext({ viewport: { width: w, height: h }, reducedMotion: 'reduce', locale: 'fr-FR' });
      let page = await context.newPage();
      const done = await api(server.base, 'POST', '/api/games', { game: 'nsolo', size: 8, opponent: 'machine', level: 'debutant', side: 'south' });
      await openGame(page, server.base, done);
      await api(server.base, 'POST', `/api/games/${done.id}/resign`, {}, done.seat);
      const live = await api(server.base, 'POST', '/api/games', { game: 'yote', opponent: 'machine', level: 'debutant', side: 'red' });
      await openGame(page, server.base, live);
      const after = await placeYote(page, server.base, live.id, 'c3');
      await until(server.base, live.id, (s) => s.ply >= 2);
      await page.close();

      page = await context.newPage();
      await page.goto(server.base + '/');
      await page.waitForSelector('#resume:not([hidden])');
      assert.match(await page.textContent('#resume'), /Yoté · contre la machine, Débutant/);
      await shot(page, `resume-home-${w}`);
      await Promise.all([page.waitForURL(new RegExp(`/partie/${live.id}$`)), page.click('#resume-go')]);
      await page.waitForSelector('body[data-ply="2"][data-ready="1"]');
      assert.ok(after.ply >= 1);

      await page.goto(server.base + '/mes-parties');
      await page.waitForSelector(`[data-mine="live"] [data-id="${live.id}"]`);
      await page.waitForSelector(`[data-mine="done"] [data-id="${done.id}"]`);
      assert.match(await page.textContent(`[data-mine="done"] [data-id="${done.id}"]`), /Victoire de Nord/);
      assert.equal(await page.getAttribute(`[data-mine="done"] [data-id="${done.id}"] a`, 'href'), `/parties/${done.id}`);
      await shot(page, `mine-${w}`);
      await page.click(`[data-forget="${done.id}"]`);
      await page.reload();
      await page.waitForSelector(`[data-mine="live"] [data-id="${live.id}"]`);
      assert.equal(await page.locator(`[data-id="${done.id}"]`).count(), 0);
      await context.close();
    }
  } finally {
    await browser.close();
    await server.stop();
  }
});

test('the move list shows an earlier position read-only, then the live game again', { skip }, async () => {
  const server = await startServer();
  const browser = await launch();
  try {
    for (const [w, h] of SIZES) {
      const page = await newPage(browser, w, h);
      const g = await api(server.base, 'POST', '/api/games', { game: 'yote', opponent: 'local' });
      await openGame(page, server.base, g);
      for (const cell of ['c3', 'a1', 'e5']) await placeYote(page, server.base, g.id, cell);
      await page.waitForSelector('body[data-ply="3"][data-ready="1"]');
      assert.equal(await page.locator('#moves li').count(), 2, 'numbered by turn: two moves a line');
      assert.equal(await page.getAttribute('#moves li:first-child', 'value'), '1');
      assert.equal(await page.locator('.moves h2').evaluate((e) => getComputedStyle(e).position), 'sticky');

      await page.click('#moves button[data-ply="1"]');
      await page.waitForSelector('body[data-viewing="1"]');
      assert.equal(await page.isVisible('#history'), true);
      assert.equal(await page.getAttribute('body', 'data-ready'), '0', 'read-only');
      const balls = () => page.evaluate(() => [...document.querySelectorAll('[data-cell]')].filter((c) => c.querySelector('.ball.red, .ball.black')).map((c) => c.dataset.cell).sort());
      assert.deepEqual(await balls(), ['c3']);
      await shot(page, `history-${w}`);
      await page.click('#history-back');
      await page.waitForSelector('body[data-ready="1"]:not([data-viewing])');
      assert.deepEqual(await balls(), ['a1', 'c3', 'e5']);
      await page.close();
    }
  } finally {
    await browser.close();
    await server.stop();
  }
});

test('settings are remembered: flip, coordinates, confirm, dark theme, volume', { skip }, async () => {
  const server = await startServer();
  const browser = await launch();
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce', locale: 'fr-FR', colorScheme: 'light' });
    const page = await context.newPage();
    const g = await api(server.base, 'POST', '/api/games', { game: 'yote', opponent: 'machine', level: 'debutant', side: 'red' });
    await openGame(page, server.base, g);
    await page.waitForSelector('body[data-ready="1"]');
    const a1Below = () => page.evaluate(() => {
      const r = (c) => document.querySelector(`[data-cell="${c}"]`).getBoundingClientRect();
      return r('a1').top > r('a5').top;
    });
    assert.equal(await a1Below(), true, 'Red sees rank 1 at the bottom');
    assert.equal(await page.getAttribute('html', 'data-theme'), 'light');

    await page.click('#settings-box summary');
    await page.check('[data-setting="flip"]');
    await page.uncheck('[data-setting="coords"]');
    await page.check('[data-setting="confirm"]');
    await page.selectOption('[data-setting="theme"]', 'dark');
    await page.fill('[data-setting="volume"]', '30');
    await page.dispatchEvent('[data-setting="volume"]', 'change');
    await page.reload();
    await page.waitForSelector('body[data-ready="1"]');
    assert.equal(await a1Below(), false, 'flipped after a reload');
    assert.equal(await page.getAttribute('html', 'data-theme'), 'dark');
    assert.equal(await page.locator('.coords').first().isVisible(), false);
    assert.equal(await page.inputValue('[data-setting="volume"]'), '30');
    await shot(page, 'settings-dark-1280');

    // Confirm moves: a click proposes, nothing is sent until confirmed.
    await page.click('[data-cell="c3"]');
    await page.waitForSelector('#confirm-move:not([hidden])');
    assert.match(await page.textContent('#confirm-text'), /c3/);
    assert.equal((await api(server.base, 'GET', `/api/games/${g.id}`)).ply, 0);
    await page.click('#confirm-no');
    assert.equal(await page.isVisible('#confirm-move'), false);
    await page.click('[data-cell="c3"]');
    await page.click('#confirm-yes');
    await until(server.base, g.id, (s) => s.ply >= 1 && s.moves[0] === 'c3');

    // The system's dark mode is followed while the setting says so.
    await page.click('#settings-box summary').catch(() => {});
    await page.selectOption('[data-setting="theme"]', 'system');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.waitForSelector('html[data-theme="dark"]');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.waitForSelector('html[data-theme="light"]');

    const phone = await context.newPage();
    await phone.setViewportSize({ width: 390, height: 844 });
    await phone.goto(`${server.base}/partie/${g.id}`);
    await phone.waitForSelector('body[data-ply]');
    await phone.click('#settings-box summary');
    await shot(phone, 'settings-390');
    await context.close();
  } finally {
    await browser.close();
    await server.stop();
  }
});

test('after a game: « Rejouer » with sides swapped, « Nouvelle partie » keeps the choices, replay and export links', { skip }, async () => {
  const server = await startServer();
  const browser = await launch();
  try {
    for (const [w, h] of SIZES) {
      const page = await newPage(browser, w, h);
      const g = await api(server.base, 'POST', '/api/games', { game: 'nsolo', size: 12, opponent: 'machine', level: 'confirme', side: 'south' });
      await openGame(page, server.base, g);
      await page.waitForSelector('body[data-ready="1"]');
      await page.click('#act-resign');
      await page.click('#act-resign');
      await page.waitForSelector('#end:not([hidden])');
      assert.equal(await page.getAttribute('#end-replay', 'href'), `/parties/${g.id}`);
      assert.equal(await page.getAttribute('#end-export', 'href'), `/api/games/${g.id}/export`);
      const next = new URL(await page.getAttribute('#end-new', 'href'), server.base);
      assert.equal(next.searchParams.get('jeu'), 'nsolo');
      assert.equal(next.searchParams.get('niveau'), 'confirme');
      assert.equal(next.searchParams.get('camp'), 'premier');
      assert.equal(next.searchParams.get('taille'), '12');
      await shot(page, `after-game-${w}`);

      const newPageForm = await newPage(browser, w, h);
      await newPageForm.goto(next.href);
      await newPageForm.waitForSelector('input[name="level"][value="confirme"]:checked');
      await newPageForm.waitForSelector('input[name="side"][value="first"]:checked');
      assert.equal(await newPageForm.inputValue('#size'), '12');
      await newPageForm.close();

      await Promise.all([page.waitForURL((u) => !u.pathname.endsWith(g.id)), page.click('#end-again')]);
      const id = page.url().split('/').pop();
      const s = await until(server.base, id, (n) => n.players);
      assert.deepEqual(s.players, { south: 'machine', north: 'human' });
      assert.equal(s.level, 'confirme');
      assert.equal(s.size, 12);
      await page.close();
    }
  } finally {
    await browser.close();
    await server.stop();
  }
});

test('on one screen, the last move can be taken back', { skip }, async () => {
  const server = await startServer();
  const browser = await launch();
  try {
    const page = await newPage(browser, 390, 844);
    const g = await api(server.base, 'POST', '/api/games', { game: 'yote', opponent: 'local' });
    await openGame(page, server.base, g);
    await placeYote(page, server.base, g.id, 'c3');
    await placeYote(page, server.base, g.id, 'd4');
    await page.waitForSelector('body[data-ply="2"][data-ready="1"]');
    await page.click('#act-takeback');
    await page.waitForSelector('body[data-ply="1"][data-ready="1"]');
    const s = await api(server.base, 'GET', `/api/games/${g.id}`);
    assert.deepEqual(s.moves, ['c3']);
    assert.equal(s.turn, 'black');
  } finally {
    await browser.close();
    await server.stop();
  }
});

test('a team game not yet full can be started from the page', { skip }, async () => {
  const server = await startServer();
  const browser = await launch();
  try {
    const g = await api(server.base, 'POST', '/api/games', { game: 'nsolo', size: 8, opponent: 'online', side: 'south', name: 'Awa', team_size: 2 });
    await api(server.base, 'POST', `/api/games/${g.id}/join`, { name: 'Kofi', side: 'north' });
    await api(server.base, 'POST', `/api/games/${g.id}/join`, { name: 'Ama', side: 'north' });
    for (const [w, h] of SIZES) {
      const page = await newPage(browser, w, h);
      await openGame(page, server.base, g);
      await page.waitForSelector('#act-start:not([disabled])');
      assert.match(await page.textContent('#start-rule'), /chaque camp/);
      await shot(page, `team-start-${w}`);
      await page.close();
    }
    const page = await newPage(browser, 1280, 800);
    await openGame(page, server.base, g);
    await page.click('#act-start');
    await until(server.base, g.id, (s) => s.status === 'playing');
    await page.waitForSelector('#waiting', { state: 'hidden' });
  } finally {
    await browser.close();
    await server.stop();
  }
});

test('a spectator page plays no sound before a click', { skip }, async () => {
  const server = await startServer();
  const browser = await launch();
  try {
    const g = await api(server.base, 'POST', '/api/games', { game: 'yote', opponent: 'local' });
    const context = await browser.newContext({ locale: 'fr-FR' });
    await context.addInitScript(() => {
      window.audioMade = 0;
      const Real = window.AudioContext;
      window.AudioContext = class extends Real {
        constructor(...a) {
          super(...a);
          window.audioMade++;
        }
      };
    });
    const page = await context.newPage();
    await page.goto(`${server.base}/partie/${g.id}`);
    await page.waitForSelector('body[data-ply="0"]');
    await api(server.base, 'POST', `/api/games/${g.id}/moves`, { move: 'c3', ply: 0 }, g.seat);
    await page.waitForSelector('body[data-ply="1"]');
    await page.waitForTimeout(1500); // the move's animation and its sounds
    assert.equal(await page.evaluate(() => window.audioMade), 0);
  } finally {
    await browser.close();
    await server.stop();
  }
});

test('a tap that cannot be played says why, in the reader\'s language', { skip }, async () => {
  const server = await startServer();
  const browser = await launch();
  try {
    const fr = JSON.parse(await (await fetch(`${server.base}/assets/i18n/fr.json`)).text());
    for (const [w, h] of SIZES) {
      const page = await newPage(browser, w, h);
      const g = await api(server.base, 'POST', '/api/games', { game: 'yote', opponent: 'local' });
      await openGame(page, server.base, g);
      await placeYote(page, server.base, g.id, 'c3');
      await placeYote(page, server.base, g.id, 'd4');
      await page.waitForSelector('body[data-ply="2"][data-ready="1"]');
      // Red still has balls in reserve: its ball on the board does not step.
      const s = await api(server.base, 'GET', `/api/games/${g.id}`);
      assert.equal(s.refusals.c3, 'reserve_first');
      await page.click('[data-cell="c3"]');
      await page.waitForSelector('#tap-note:not([hidden])');
      assert.equal(await page.textContent('#tap-note'), fr['refusal.reserve_first']);
      assert.equal(await page.textContent('#tap-note'), 'Posez d’abord vos boules.');
      // Where the eye is: inside the viewport, even on a phone.
      const box = await page.locator('#tap-note').boundingBox();
      assert.ok(box && box.y >= 0 && box.y + box.height <= h, `note at ${JSON.stringify(box)}`);
      await shot(page, `refusal-yote-${w}`);
      // An opponent's ball.
      await page.click('[data-cell="d4"]');
      await page.waitForFunction((t) => document.getElementById('tap-note').textContent === t, fr['refusal.theirs.yote']);
      await page.close();
    }

    // Nsolo: each pit the server refuses, worded from its code.
    const page = await newPage(browser, 1280, 800);
    const g = await api(server.base, 'POST', '/api/games', { game: 'nsolo', size: 8, opponent: 'local' });
    await openGame(page, server.base, g);
    await page.waitForSelector('body[data-ply="0"][data-ready="1"]');
    const s = await api(server.base, 'GET', `/api/games/${g.id}`);
    assert.equal(s.refusals.B8, 'empty');
    await page.click('[data-pit="B8"]');
    await page.waitForFunction((t) => document.getElementById('tap-note').textContent === t, 'Cette case est vide.');

    // Online, out of turn: whose turn it is.
    const on = await api(server.base, 'POST', '/api/games', { game: 'yote', opponent: 'online', side: 'red', name: 'Awa' });
    await api(server.base, 'POST', `/api/games/${on.id}/join`, { name: 'Kofi' });
    await api(server.base, 'POST', `/api/games/${on.id}/moves`, { move: 'c3', ply: 0 }, on.seat);
    await openGame(page, server.base, on);
    await page.waitForSelector('body[data-ply="1"]');
    await page.click('[data-cell="a1"]');
    await page.waitForFunction(() => document.getElementById('tap-note').textContent === 'C’est au tour des Noires.');
  } finally {
    await browser.close();
    await server.stop();
  }
});

test('online: a take-back asked and accepted, and no clock runs before the first move', { skip }, async () => {
  const server = await startServer();
  const browser = await launch();
  try {
    const g = await api(server.base, 'POST', '/api/games', { game: 'yote', opponent: 'online', side: 'red', name: 'Awa', time_control: '5+3' });
    const kofi = await api(server.base, 'POST', `/api/games/${g.id}/join`, { name: 'Kofi' });
    const awa = await newPage(browser, 1280, 800);
    const ko = await newPage(browser, 390, 844);
    await openGame(awa, server.base, g);
    await openGame(ko, server.base, { id: g.id, seat: kofi.seat, side: kofi.side });
    await awa.waitForSelector('body[data-ply="0"][data-ready="1"]');
    await awa.waitForSelector('[data-clock="red"]');
    assert.equal(await awa.locator('.clock.running').count(), 0, 'no clock before the first move');
    let s = await api(server.base, 'GET', `/api/games/${g.id}`);
    assert.equal(s.running, null);

    await awa.click('[data-cell="c3"]');
    await awa.waitForSelector('[data-clock="black"].running');
    await awa.waitForSelector('#act-takeback:not([hidden]):not([disabled])');
    await awa.click('#act-takeback');
    await ko.waitForSelector('#takeback-offer:not([hidden]) #takeback-accept:not([hidden])');
    assert.match(await ko.textContent('#takeback-offer-text'), /Rouges demandent/);
    await shot(ko, 'takeback-offer-390');
    await ko.click('#takeback-accept');
    s = await until(server.base, g.id, (n) => n.ply === 0);
    assert.equal(s.takeback_offer, null);
    await awa.waitForSelector('body[data-ply="0"][data-ready="1"]');
  } finally {
    await browser.close();
    await server.stop();
  }
});

test('an import refused names the turn, the move and the reason in French', { skip }, async () => {
  const server = await startServer();
  const browser = await launch();
  try {
    const page = await newPage(browser, 390, 844);
    await page.goto(`${server.base}/parties`);
    await page.fill('#import-text', '[Game "yote"]\n[Start "5/5/5/5/2r2 0 12 r 0"]\n\n1. c1-c2 a1\n2. c2-c3 b1\n3. c3-e3\n');
    await page.click('#import-btn');
    await page.waitForSelector('#import-error:not([hidden])');
    const text = await page.textContent('#import-error');
    assert.equal(text, 'Ce texte n’a pas pu être lu. Tour 3 (c3-e3)\u00a0: e3 n’est pas voisin de c3');
    assert.doesNotMatch(text, /Illegal|ply/);
    await shot(page, 'import-error-390');
  } finally {
    await browser.close();
    await server.stop();
  }
});
