// Accounts in the browser: two players sign up through the sign-up page,
// fourteen rated Yoté games played through the API (each ends by the side
// to move resigning, the winner alternating) put both on the leaderboard;
// then a rated game in the browser, created on the new-game page, taken
// from the lobby and played by one player from another device with no seat
// in it (signed in, after a wrong password first), to the end by
// resignation. The profiles show the ratings the API gives, the
// leaderboard lists both, the account page makes and revokes a token, and
// signing out leaves a guest's header.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserMissing, launch, shot, startServer, until } from './harness.mjs';

const skip = browserMissing();
const PASSWORD = 'sous-le-baobab';
const SEEDED = 14;

/** The API as one account: the session cookie kept from a response. */
class Jar {
  constructor(base, cookie = '') {
    this.base = base;
    this.cookie = cookie;
  }

  async call(method, path, body) {
    const headers = { 'content-type': 'application/json' };
    if (this.cookie) headers.cookie = this.cookie;
    const res = await fetch(this.base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    for (const c of res.headers.getSetCookie()) {
      const pair = c.split(';')[0];
      if (pair.startsWith('palabre_session=')) this.cookie = pair;
    }
    const text = await res.text();
    const data = text ? JSON.parse(text) : null;
    if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${text}`);
    return data;
  }
}

async function context(browser, width = 1280, height = 800) {
  return browser.newContext({ viewport: { width, height }, reducedMotion: 'reduce', locale: 'fr-FR' });
}

/** Signs up on the sign-up page; resolves to the session cookie it was given. */
async function signUp(page, base, name) {
  await page.goto(`${base}/inscription`);
  await page.waitForSelector('[data-account=""]');
  await page.fill('#username', name);
  await page.fill('#password', PASSWORD);
  const [res] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith('/api/account/signup')),
    page.click('#submit'),
  ]);
  assert.equal(res.status(), 201);
  const set = (await res.headerValue('set-cookie')) || '';
  const cookie = set.split(/\n|,(?=\s*palabre_session=)/).map((c) => c.split(';')[0].trim()).find((c) => c.startsWith('palabre_session='));
  assert.ok(cookie, 'the sign-up set the session cookie');
  await page.waitForURL(new RegExp(`/joueur/${name}$`));
  await page.waitForSelector(`[data-account="${name}"]`);
  return cookie;
}

async function clickMove(page, entry, opponent) {
  if (entry.from) await page.click(`[data-cell="${entry.from}"]`);
  await page.click(`[data-cell="${entry.to}"]`);
  if (entry.kind === 'capture' && entry.second) {
    await page.click(entry.second === 'reserve' ? `[data-reserve="${opponent}"]` : `[data-cell="${entry.second}"]`);
  }
}

/** The rating a profile page shows for `pool`, and the API's, rounded. */
async function shownRating(page, base, name, pool = 'yote') {
  await page.goto(`${base}/joueur/${name}`);
  await page.waitForSelector('body[data-ready="1"]');
  const shown = Number(await page.getAttribute(`.pool-card[data-pool="${pool}"] [data-rating]`, 'data-rating'));
  const api = await (await fetch(`${base}/api/users/${name}`)).json();
  return { shown, api: Math.round(api.ratings[pool].rating), profile: api };
}

test('accounts: sign up, rated games, profiles, leaderboard, account page, sign out', { skip }, async () => {
  const server = await startServer();
  const browser = await launch();
  const base = server.base;
  try {
    const awaCtx = await context(browser);
    const kofiCtx = await context(browser, 390, 844);
    const awa = await awaCtx.newPage();
    const kofi = await kofiCtx.newPage();
    const errors = [];
    for (const p of [awa, kofi]) p.on('pageerror', (e) => errors.push(e.message));

    // Two accounts, through the sign-up page.
    const A = new Jar(base, await signUp(awa, base, 'Awa'));
    const B = new Jar(base, await signUp(kofi, base, 'Kofi_7'));
    assert.equal((await A.call('GET', '/api/account')).username, 'Awa');
    assert.equal((await B.call('GET', '/api/account')).username, 'Kofi_7');
    // A name already taken is refused on the page, in words.
    const again = await (await context(browser)).newPage();
    await again.goto(`${base}/inscription`);
    await again.fill('#username', 'awa');
    await again.fill('#password', PASSWORD);
    await again.click('#submit');
    await again.waitForSelector('#error:not([hidden])');
    assert.match(await again.textContent('#error'), /déjà pris/);
    await again.context().close();

    // Fourteen rated games through the API, the side to move resigning,
    // the winner alternating; actions go with the session, without a seat.
    for (let i = 0; i < SEEDED; i++) {
      const side = i % 2 ? 'black' : 'red';
      const g = await A.call('POST', '/api/games', { game: 'yote', opponent: 'online', rated: true, side });
      await B.call('POST', `/api/games/${g.id}/join`, {});
      const s = await A.call('GET', `/api/games/${g.id}`);
      assert.equal(s.rated, true);
      assert.equal(s.status, 'playing');
      const mover = s.turn === side ? A : B;
      await mover.call('POST', `/api/games/${g.id}/resign`, {});
      await until(base, g.id, (n) => n.result);
    }
    const seeded = await A.call('GET', '/api/leaderboard/yote');
    const names = seeded.players.map((p) => p.username).sort();
    assert.deepEqual(names, ['Awa', 'Kofi_7'], JSON.stringify(seeded));

    // A rated game made on the new-game page, with a range of ratings.
    await awa.goto(`${base}/nouvelle?jeu=yote&adversaire=en-ligne`);
    await awa.waitForSelector('#rated-box:not([hidden])');
    assert.equal(await awa.locator('#name').isVisible(), false, 'signed in: no name to type');
    await awa.check('#rated');
    await awa.fill('#rating-min', '1000');
    await awa.fill('#rating-max', '2000');
    await awa.check('input[name="side"][value="first"]');
    await shot(awa, 'accounts-new-rated-1280');
    const created = awa.waitForRequest((r) => r.method() === 'POST' && new URL(r.url()).pathname === '/api/games');
    await Promise.all([awa.waitForURL(/\/partie\//), awa.click('#start')]);
    const body = (await created).postDataJSON();
    assert.equal(body.rated, true);
    assert.deepEqual([body.rating_min, body.rating_max], [1000, 2000]);
    const id = awa.url().split('/').pop();

    // The lobby: « classée », the creator's rating and the range; a guest is
    // asked to sign in, Kofi takes the seat in one click.
    const guest = await (await context(browser, 390, 844)).newPage();
    await guest.goto(`${base}/salon`);
    const seek = guest.locator(`.game-item[data-id="${id}"]`);
    await seek.waitFor();
    assert.match(await seek.innerText(), /classée/);
    assert.match(await seek.innerText(), /1000 à 2000/);
    assert.match(await seek.locator('[data-sign-in]').innerText(), /Connectez-vous pour jouer une partie classée/);
    assert.equal(await seek.locator('[data-sign-in] a[href^="/connexion"]').count(), 1);
    await shot(guest, 'accounts-lobby-guest-390');
    await guest.context().close();
    await kofi.goto(`${base}/salon`);
    const item = kofi.locator(`.game-item[data-id="${id}"]`);
    await item.waitFor();
    const awaRating = Math.round((await A.call('GET', '/api/account')).ratings.yote.rating);
    assert.match(await item.innerText(), new RegExp(`Classement du créateur\\s*:\\s*${awaRating}`));
    await Promise.all([kofi.waitForURL(new RegExp(`/partie/${id}$`)), item.locator('button[data-join]').click()]);
    let s = await until(base, id, (n) => n.status === 'playing');
    assert.equal(s.rated, true);
    assert.deepEqual([s.teams.red[0].account, s.teams.black[0].account], [true, true]);

    // Awa on another device: no seat there, a wrong password first.
    const phone = await (await context(browser, 390, 844)).newPage();
    phone.on('pageerror', (e) => errors.push(e.message));
    await phone.goto(`${base}/connexion?retour=${encodeURIComponent(`/partie/${id}`)}`);
    await phone.fill('#username', 'Awa');
    await phone.fill('#password', 'pas-le-bon');
    await phone.click('#submit');
    await phone.waitForSelector('#error:not([hidden])');
    assert.match(await phone.textContent('#error'), /Nom de joueur ou mot de passe incorrect/);
    await shot(phone, 'accounts-login-wrong-390');
    await phone.fill('#password', PASSWORD);
    await Promise.all([phone.waitForURL(new RegExp(`/partie/${id}$`)), phone.click('#submit')]);
    assert.equal(await phone.evaluate((gid) => localStorage.getItem(`palabre.seat.${gid}`), id), null, 'no seat on this device');
    await phone.waitForSelector('[data-account="Awa"]');
    await phone.waitForSelector('.member.me');
    assert.match(await phone.locator('.member.me').innerText(), /Awa/);

    // Rated: « Partie classée », no take-back, no hint; names lead to profiles.
    const pages = { red: phone, black: kofi };
    for (let i = 0; i < 4; i++) {
      const page = pages[s.turn];
      await page.waitForSelector(`body[data-ply="${s.ply}"][data-ready="1"]`, { timeout: 30000 });
      const entry = s.legal[(i * 5) % s.legal.length];
      await clickMove(page, entry, s.turn === 'red' ? 'black' : 'red');
      s = await until(base, id, (n) => n.ply === s.ply + 1);
    }
    for (const page of [phone, kofi]) {
      await page.waitForSelector(`body[data-ply="${s.ply}"]`);
      assert.equal(await page.locator('#rated-line').isVisible(), true);
      assert.equal(await page.locator('#act-takeback').isVisible(), false, 'no take-back in a rated game');
      assert.equal(await page.locator('#act-hint').isVisible(), false, 'no hint in a rated game');
      assert.equal(await page.locator('.member a.member-name[href="/joueur/Kofi_7"]').count(), 1);
    }
    await shot(phone, 'accounts-rated-game-phone-390');
    await shot(kofi, 'accounts-rated-game-kofi-390');

    // Awa resigns from the phone.
    await phone.click('#act-resign');
    await phone.click('#act-resign');
    s = await until(base, id, (n) => n.result);
    assert.deepEqual(s.result, { winner: 'black', reason: 'resignation' });
    await kofi.waitForSelector('#end[data-result="black"]:not([hidden])', { timeout: 30000 });

    // The profiles show the new ratings, as the API gives them.
    let after;
    for (let i = 0; i < 50; i++) {
      after = await (await fetch(`${base}/api/users/Awa`)).json();
      if (after.ratings.yote.games === SEEDED + 1) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(after.ratings.yote.games, SEEDED + 1, 'the rated game counted');
    for (const [page, name, width] of [[awa, 'Awa', 1280], [kofi, 'Kofi_7', 390]]) {
      const r = await shownRating(page, base, name);
      assert.equal(r.shown, r.api, `${name}'s profile shows the API's rating`);
      assert.equal(r.profile.ratings.yote.games, SEEDED + 1);
      const points = page.locator('[data-rating-chart] [data-pool="yote"] .rc-point');
      assert.equal(await points.count(), SEEDED + 1);
      // The last point is the rating now: the points follow the order of play.
      assert.match(await points.last().locator('title').textContent(), new RegExp(`: ${r.shown} `));
      assert.ok(await page.locator(`.player-games tr[data-id="${id}"]`).count() === 1, 'the game is in the recent games');
      assert.match(await page.locator(`.player-games tr[data-id="${id}"]`).innerText(), name === 'Awa' ? /Défaite/ : /Victoire/);
      await shot(page, `accounts-profile-${width}`);
    }
    // The other width of each page too.
    await awa.setViewportSize({ width: 390, height: 844 });
    await awa.reload();
    await awa.waitForSelector('body[data-ready="1"]');
    await shot(awa, 'accounts-profile-awa-390');
    await awa.setViewportSize({ width: 1280, height: 800 });

    // The leaderboard lists both, with their rounded ratings.
    for (const [page, width] of [[awa, 1280], [kofi, 390]]) {
      await page.goto(`${base}/classement`);
      await page.waitForSelector('body[data-ready="1"]');
      for (const name of ['Awa', 'Kofi_7']) {
        const row = page.locator(`#panel-yote tr[data-player="${name}"]`);
        assert.equal(await row.count(), 1, `${name} on the leaderboard`);
        const api = await (await fetch(`${base}/api/users/${name}`)).json();
        assert.match(await row.locator('.rating strong').innerText(), new RegExp(`^${Math.round(api.ratings.yote.rating)}$`));
        assert.equal(await row.locator(`a[href="/joueur/${name}"]`).count(), 1);
      }
      await shot(page, `accounts-leaderboard-${width}`);
    }
    await kofi.click('#tab-nsolo8');
    assert.match(await kofi.locator('#panel-nsolo8').innerText(), /Personne/);
    assert.match(kofi.url(), /\?jeu=nsolo8$/);

    // « Mes parties » on the phone lists the account's games, none kept there.
    await phone.goto(`${base}/mes-parties`);
    await phone.waitForSelector('#loading', { state: 'hidden' });
    assert.ok(await phone.locator('.mine-item[data-account="1"]').count() >= SEEDED, 'the account’s games');
    assert.equal(await phone.locator(`.mine-item[data-id="${id}"]`).count(), 1);

    // The account page: a token shown once, listed, revoked.
    await awa.goto(`${base}/compte`);
    await awa.waitForSelector('body[data-ready="1"]');
    assert.equal(await awa.getAttribute('#export', 'href'), '/api/account/export');
    await awa.fill('#token-desc', 'Mon bot');
    await awa.click('#token-form button');
    await awa.waitForSelector('#token-new:not([hidden])');
    assert.ok((await awa.textContent('#token-value')).length > 16, 'the token is shown');
    assert.equal(await awa.locator('.token-item').count(), 1);
    await shot(awa, 'accounts-account-1280');
    await awa.setViewportSize({ width: 390, height: 844 });
    await shot(awa, 'accounts-account-390');
    await awa.setViewportSize({ width: 1280, height: 800 });
    await awa.click('.token-item [data-revoke]');
    await awa.click('.token-item [data-revoke]');
    await awa.waitForSelector('#tokens-empty:not([hidden])');
    assert.deepEqual(await A.call('GET', '/api/account/tokens'), []);

    // Signing out leaves a guest's header.
    await phone.click('[data-logout]');
    await phone.waitForSelector('[data-account=""] a[href^="/connexion"]');
    assert.match(await phone.locator('[data-account=""]').innerText(), /Se connecter/);
    const gone = await phone.evaluate(async () => (await fetch('/api/account')).status);
    assert.equal(gone, 401);
    // Awa's desk is still signed in: another session.
    await awa.goto(`${base}/`);
    await awa.waitForSelector('[data-account="Awa"]');

    // An unknown player.
    await kofi.goto(`${base}/joueur/personne`);
    await kofi.waitForSelector('#missing:not([hidden])');
    assert.match(await kofi.locator('h1:visible').innerText(), /Joueur introuvable/);

    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    server.stop();
  }
});
