// Play by web in a real headless Chromium against the real server (issue 16): two people,
// each in a browser context of their own, sign up in the lobby; one opens a challenge, the
// other joins it from the lobby's list; both land on the game's page, chat both ways live
// over the WebSocket, and play a few actions by the End phase button, each seeing the
// other's move arrive; the lobby then lists the game under "My games" with its clock.

import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { api, heldTokens, newPage, session, shot, signUp as signUpAt } from './harness.mjs';

const SCENARIO = 'bridge-at-morne';

const { server, browser, page: ney, close } = await session();
after(close);

const atN = (p, n) => p.waitForFunction((k) => Number(document.body.dataset.n) === k, n, { timeout: 20_000 });

const signUp = (page, name) => signUpAt(page, server.base, name);

describe('Play by web in the browser', () => {
  let soult;
  let gameId;

  test('two people sign up in the lobby, each in a browser of their own', async () => {
    soult = await newPage(browser);
    await signUp(ney, 'ney');
    await signUp(soult, 'soult');
    const cookies = await ney.context().cookies();
    const sessionCookie = cookies.find((c) => c.name === 'grognard_session');
    assert.ok(sessionCookie.httpOnly, 'the session cookie is HttpOnly');
    assert.equal(sessionCookie.sameSite, 'Lax');
    assert.equal(await ney.evaluate(() => document.cookie.includes('grognard_session')), false, 'the page cannot read the session');
  });

  test('one opens a challenge from the lobby; the other sees it and joins it', async () => {
    await ney.locator('#ch-scenario').selectOption(SCENARIO);
    await ney.locator('#ch-side').selectOption('blue');
    await ney.locator('#ch-hours').fill('24');
    await ney.locator('#ch-open').click();
    await ney.waitForURL(/\/play\//);
    gameId = new URL(ney.url()).pathname.split('/').pop();
    await ney.waitForSelector('.counter');
    await soult.goto(server.base + '/');
    const listed = soult.locator('#challenges li', { hasText: 'ney plays blue' });
    await listed.waitFor();
    await shot(soult, 'play-by-web-lobby.png');
    await listed.locator('button.join').click();
    await soult.waitForURL(new RegExp(`/play/${gameId}`));
    await soult.waitForSelector('.counter');
    await soult.waitForFunction(() => document.body.dataset.seat === 'orange');
    await ney.waitForFunction(() => document.body.dataset.seat === 'blue');
  });

  test('chat goes both ways live', async () => {
    await ney.locator('#chat-text').fill('Vive l\'Empereur!');
    await ney.locator('#chat-send').click();
    await soult.locator('#chat-log .chat-msg', { hasText: 'Vive l\'Empereur!' }).waitFor({ timeout: 10_000 });
    await soult.locator('#chat-text').fill('La Garde recule.');
    await soult.locator('#chat-send').click();
    await ney.locator('#chat-log .chat-msg', { hasText: 'La Garde recule.' }).waitFor({ timeout: 10_000 });
    assert.match(await ney.locator('#chat-log').innerText(), /ney \(Blue corps\): Vive l'Empereur!\s+soult \(Orange corps\): La Garde recule\./);
  });

  test('they play a few actions, each seeing the other\'s arrive', async () => {
    for (let n = 0; n < 4; n++) {
      const toAct = await ney.evaluate(() => document.body.dataset.toAct || '');
      const [me, other] = (await ney.locator('#end-phase').isEnabled()) ? [ney, soult] : [soult, ney];
      assert.ok(await me.locator('#end-phase').isEnabled(), `someone may end the phase (${toAct})`);
      await me.locator('#end-phase').click();
      await atN(me, n + 1);
      await atN(other, n + 1);
    }
    // The game page shows the clock of the side to act: 24 hours a move, from the last action.
    await ney.locator('#clock').filter({ hasText: /Clock: (23 h \d+|24 h 0) min left for (Blue corps|Orange corps) to move/ }).waitFor();
    await shot(ney, 'play-by-web-game-chat.png');
  });

  test('the lobby lists the game under My games, with its clock', async () => {
    await ney.goto(server.base + '/');
    const mine = ney.locator(`#my-games li[data-game="${gameId}"]`);
    await mine.waitFor();
    assert.match(await mine.innerText(), /against soult/);
    assert.match(await mine.innerText(), /h .*left/);
    await shot(ney, 'play-by-web-my-games.png');
  });

  test('the rated game played to its end is counted once for both players: the leaderboard and the profile show it', async () => {
    // The rest of the game through the API, with the seat each browser holds: seeded picks,
    // a phase ended now and then, so that it ends in a few hundred actions.
    const held = { ...(await heldTokens(ney, gameId)), ...(await heldTokens(soult, gameId)) };
    assert.deepEqual(Object.keys(held).sort(), ['blue', 'orange']);
    let seed = 5;
    const below = (n) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    for (let i = 0; ; i++) {
      assert.ok(i < 3000, 'the game ends');
      const any = await api(server.base, 'GET', `/api/games/${gameId}`);
      if (any.outcome) break;
      const token = held[any.to_act.side];
      const g = await api(server.base, 'GET', `/api/games/${gameId}`, { token });
      const end = g.actions.find((a) => a.type === 'end_phase');
      const action = end && below(2) === 0 ? end : g.actions[below(g.actions.length)];
      await api(server.base, 'POST', `/api/games/${gameId}/actions`, { token, body: { action, expect: g.n } });
    }
    await ney.goto(server.base + '/');
    const board = ney.locator('table.leaderboard[data-ruleset="morne_plaine"]');
    await board.waitFor();
    const text = await board.innerText();
    assert.match(text, /ney/);
    assert.match(text, /soult/);
    // Each row: name, rating, deviation, games. Both counted once; the deviation narrows
    // from a newcomer's 350; the ratings part unless the game was drawn.
    const rows = Object.fromEntries(text.split('\n').slice(2).map((l) => l.split('\t')).map(([n, r, d, k]) => [n, { r: Number(r), d: Number(d), k: Number(k) }]));
    const { outcome } = await api(server.base, 'GET', `/api/games/${gameId}`);
    for (const who of ['ney', 'soult']) {
      assert.equal(rows[who].k, 1, text);
      assert.ok(rows[who].d < 350, text);
    }
    const moved = { blue: rows.ney.r - 1500, orange: rows.soult.r - 1500 };
    if (outcome.winner) {
      assert.ok(moved[outcome.winner] > 0, `the winner gains: ${text}`);
      assert.ok(Object.entries(moved).some(([side, m]) => side !== outcome.winner && m < 0), `the loser loses: ${text}`);
    } else assert.deepEqual(moved, { blue: 0, orange: 0 }, `a draw between equals moves no rating: ${text}`);
    assert.match(await ney.locator(`#my-games li[data-game="${gameId}"]`).innerText(), /finished/);
    await ney.goto(`${server.base}/?player=ney`);
    const profile = ney.locator('#profile');
    await profile.waitFor();
    assert.match(await profile.innerText(), /(won|lost|drew) as blue against soult · rated/);
    assert.equal(await profile.locator(`a[href="/replay/${gameId}"]`).count(), 1, 'the game links to its replay');
    await shot(ney, 'play-by-web-profile.png');
    assert.deepEqual(ney.errors, []);
    assert.deepEqual(soult.errors, []);
  });
});
