// A whole game of every ruleset against the computer, with the page open from the first
// action to the game-over box: one side plays legal actions through the HTTP API with the
// seat's token the lobby gave this browser, the computer plays the other, and the page
// follows over its WebSocket. Every few actions the test hovers and clicks the board as a
// player would, and the game fails on any page error, any console error, any failed
// request, and any visible text that is data rather than words.

import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { api, heldTokens, hoverHex, clickHex, shot, startBrowser, startServer, newPage, startFromLobby } from './harness.mjs';

const server = await startServer();
const browser = await startBrowser();
after(async () => {
  await browser.close();
  await server.stop();
});

/** Text a player must never read: JSON, a missing value, a bare object. */
const DATA = /\{"|\["|\[object|\bundefined\b|\bNaN\b|\bnull\b|\b[a-z]+_[a-z_]+\b/;

/** A small seeded generator, so a failure repeats. */
function rng(seed) {
  let s = seed >>> 0 || 1;
  return () => ((s = (s * 1103515245 + 12345) >>> 0) >>> 8) / (1 << 24);
}

const END = new Set(['end_phase', 'end_turn', 'end_command', 'end_movement', 'pass', 'end_orders', 'end_moves', 'end_battles']);

async function watch(page) {
  const problems = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`));
  page.on('response', async (r) => {
    if (r.status() < 400) return;
    const body = await r.text().catch(() => '');
    problems.push(`${r.request().method()} ${new URL(r.url()).pathname}${new URL(r.url()).search} ${r.request().postData() || ''}: ${r.status()} ${body.slice(0, 300)}`);
  });
  page.on('requestfailed', (r) => !/ws$|\/ws\?/.test(r.url()) && problems.push(`request failed: ${r.url()}`));
  return problems;
}

async function visibleData(page) {
  const text = await page.evaluate(() => document.body.innerText);
  const line = text.split('\n').find((l) => DATA.test(l));
  return line || null;
}

/** Where a unit (or a hex target) is on the page's map. */
function hexOf(g, id) {
  const u = (g.view.units || g.view.pieces || []).find((x) => x.id === id);
  return u ? u.hex : /^\d{4}$/.test(id) ? id : null;
}

/** Selects the attacker, hovers its target as a player would to read the odds, checks the tooltip's words; 1 when odds were shown. */
async function probeOdds(page, g, a) {
  await page.waitForFunction((n) => Number(document.body.dataset.n) >= n, g.n, { timeout: 20_000 });
  const from = hexOf(g, a.unit);
  const to = hexOf(g, a.target);
  if (!from || !to || !(await page.locator(`.hit[data-hex="${from}"]`).count())) return 0;
  await clickHex(page, from);
  await page.waitForTimeout(150);
  await hoverHex(page, to);
  await page.waitForTimeout(400);
  const tip = await page.evaluate(() => [...document.querySelectorAll('.tooltip, #tooltip, .tip')].filter((t) => !t.hidden).map((t) => t.innerText).join('\n'));
  const bad = tip.split('\n').find((l) => DATA.test(l));
  assert.equal(bad, undefined, `the odds of ${a.type} ${a.unit} on ${a.target} read: ${bad}`);
  await page.mouse.move(1, 1);
  await page.keyboard.press('Escape');
  return tip.trim() ? 1 : 0;
}

/** An action aimed at an enemy, whose odds the page shows on hover. */
const aimedAt = (a) => a.unit && typeof a.target === 'string' && a.type !== 'charge';

/** Hovers the first units of both sides and clicks this side's, then deselects. */
async function lookAround(page, g, side) {
  const units = (g.view.units || g.view.pieces || []).filter((u) => typeof u.hex === 'string');
  const own = units.filter((u) => u.side === side).slice(0, 2);
  const foe = units.filter((u) => u.side !== side).slice(0, 2);
  for (const u of [...own, ...foe]) {
    if (await page.locator(`.hit[data-hex="${u.hex}"]`).count()) {
      await hoverHex(page, u.hex);
      await page.waitForTimeout(120);
    }
  }
  for (const u of own) if (await page.locator(`.hit[data-hex="${u.hex}"]`).count()) await clickHex(page, u.hex);
  await page.waitForTimeout(250);
  await page.keyboard.press('Escape');
  // A click on a unit may act (a Battle Cry order): a player waits for the page's answer
  // before acting again, so the next action does not race it (CI saw a 409 under load).
  for (let i = 0; i < 200 && page.postsInFlight > 0; i++) await page.waitForTimeout(50);
}

/** Counts the page's POST requests still waiting for their answer, on `page.postsInFlight`. */
function countPosts(page) {
  page.postsInFlight = 0;
  page.on('request', (r) => { if (r.method() === 'POST') page.postsInFlight += 1; });
  const done = (r) => { if (r.method() === 'POST') page.postsInFlight -= 1; };
  page.on('requestfinished', done);
  page.on('requestfailed', done);
}

async function playWhole(ruleset) {
  const scenario = (await api(server.base, 'GET', '/api/scenarios')).find((s) => s.ruleset === ruleset);
  const page = await newPage(browser);
  const problems = await watch(page);
  countPosts(page);
  const side = scenario.sides[0].id;
  const id = await startFromLobby(page, server.base, scenario.id, 'ai', side);
  // Count the notices that announce the computer's dice.
  await page.evaluate(() => {
    window.announced = 0;
    const box = document.getElementById('refusal');
    new MutationObserver(() => {
      if (/The computer rolled the dice/.test(box.innerText)) window.announced += 1;
    }).observe(box, { childList: true, subtree: true });
  });
  const token = (await heldTokens(page, id))[side];
  assert.ok(token, 'the lobby gave this browser its seat');
  const next = rng(ruleset.length * 7919);
  let g = await api(server.base, 'GET', `/api/games/${id}`, { token });
  let mine = 0;
  let oddsSeen = 0;
  let looked = 0;
  let probes = 0;
  let trails = 0;
  let waited = false;
  // The log's entries this seat posted: the others are the computer's.
  const posted = new Set();
  const trailShown = () => page.evaluate(() => (document.querySelector('.layer-trail .trail-move, .layer-trail .trail-hit') ? 1 : 0));
  for (let guard = 0; !g.outcome && guard < 4000; guard++) {
    // A reaction window in which this seat can only pass is answered by the page itself
    // (SK-MOV-2): a player waits for it, as this one does, rather than race it.
    const pageAnswers = g.to_act && g.to_act.reaction && g.actions.length && g.actions.every((a) => a.type === 'pass');
    if (!g.to_act || g.to_act.side !== side || !g.actions.length || pageAnswers) {
      waited = true;
      await new Promise((r) => setTimeout(r, 100));
      g = await api(server.base, 'GET', `/api/games/${id}`, { token });
      continue;
    }
    // Back to this seat after the computer played: until a mark has been seen, look
    // for the marks of its moves (a turn of orders or passes alone leaves none).
    if (waited && trails === 0) {
      await page.waitForFunction((n) => Number(document.body.dataset.n) === n, g.n, { timeout: 20_000 });
      trails += await trailShown();
    }
    waited = false;
    // When it is this seat's turn and the page shows the game as it is, look at it as a
    // player would: nothing else moves while the page is asked.
    if (mine - looked >= 25 || (oddsSeen < 3 && probes < 12 && g.actions.some(aimedAt))) {
      await page.waitForFunction((n) => Number(document.body.dataset.n) === n, g.n, { timeout: 20_000 });
      looked = mine;
      const aimed = g.actions.find(aimedAt);
      if (aimed) {
        probes += 1;
        oddsSeen += await probeOdds(page, g, aimed);
      }
      await lookAround(page, g, side);
      assert.match(await page.title(), /^▶ Your turn/, 'the title says it is this seat\'s turn');
      trails += await trailShown();
      const bad = await visibleData(page);
      assert.equal(bad, null, `${ruleset} after ${g.n} actions shows data: ${bad}`);
      assert.deepEqual(problems, [], `${ruleset} after ${g.n} actions`);
      g = await api(server.base, 'GET', `/api/games/${id}`, { token });
      if (!g.to_act || g.to_act.side !== side || !g.actions.length) continue;
    }
    const ends = g.actions.filter((a) => END.has(a.type));
    // A player who attacks when it can, ends a phase now and then, and otherwise does anything legal.
    const attacks = g.actions.filter(aimedAt);
    const r = next();
    const a = attacks.length && r < 0.5 ? attacks[Math.floor(next() * attacks.length)] : ends.length && r < 0.65 ? ends[0] : g.actions[Math.floor(next() * g.actions.length)];
    try {
      await api(server.base, 'POST', `/api/games/${id}/actions`, { token, body: { action: a, expect: g.n } });
      posted.add(g.n + 1);
    } catch (e) {
      if (e.status !== 409) throw e;
    }
    mine += 1;
    g = await api(server.base, 'GET', `/api/games/${id}`, { token });
    // A player acts from the page as it stands: before the next action, let the page
    // catch up with this one, so that nothing it asks is about a position already gone.
    if (!g.outcome) await page.waitForFunction((n) => Number(document.body.dataset.n) >= n, g.n, { timeout: 20_000 });
  }
  assert.ok(g.outcome, `${ruleset}: the game ended (${g.n} actions)`);
  // Every game in which the computer rolled dice on its own actions announces them; a
  // short game can end with none (a JOMINI side that only held its ground, its losses
  // and the enemy's rolled in the enemy's attacks, battle backs included).
  const whole = await api(server.base, 'GET', `/api/games/${id}/replay`, { token });
  const computerRolled = whole.log.some((e) => !posted.has(e.n) && (e.events || []).some((ev) => ev.type === 'roll'));
  if (computerRolled) assert.ok((await page.evaluate(() => window.announced)) > 0, `${ruleset}: the computer's dice were announced`);
  assert.ok(trails > 0, `${ruleset}: the other side's moves were marked on the board`);
  // The dice are the server's, so a game may pass without an attack open to this seat.
  assert.ok(probes === 0 || oddsSeen > 0, `${ruleset}: the odds of an attack were read on hover`);
  await page.waitForSelector('#game-over, .game-over', { timeout: 20_000 }).catch(() => {});
  const bad = await visibleData(page);
  assert.equal(bad, null, `${ruleset} at the end shows data: ${bad}`);
  assert.deepEqual(problems, [], `${ruleset} at the end`);
  await shot(page, `${ruleset}-whole-game-end.png`);
  // A rule badge of the log opens its rule in the rules page.
  const href = await page.locator('#log a.rule').last().getAttribute('href');
  assert.match(href, /^\/rules\/[a-z-]+#[A-Z]+-/);
  const rules = await page.context().newPage();
  await rules.goto(server.base + href);
  assert.equal(await rules.locator(`tr[id="${href.split('#')[1]}"]`).count(), 1, `${href} shows its rule`);
  await rules.close();
  // The replay of the finished game: drawn buttons, the whole title, everything revealed.
  await page.goto(`${server.base}/replay/${id}?token=${token}&at=${g.n}`);
  await page.waitForSelector('.counter');
  await page.waitForFunction((n) => document.getElementById('step').textContent.startsWith(`${n} `), g.n);
  for (const b of ['first', 'last']) assert.equal(await page.locator(`#${b} svg.glyph`).count(), 1, `the ${b} button is drawn`);
  assert.ok(await page.evaluate(() => { const t = document.getElementById('title'); return t.scrollWidth <= t.clientWidth; }), 'the title is whole');
  if (ruleset === 'battle_cry') {
    await page.locator('.hand-section').first().waitFor();
    assert.equal(await page.locator('.hand-section').count(), 2, 'both hands are shown once the game is over');
  }
  const badReplay = await visibleData(page);
  assert.equal(badReplay, null, `${ruleset}'s replay shows data: ${badReplay}`);
  assert.deepEqual(problems, [], `${ruleset}'s replay`);
  await shot(page, `${ruleset}-replay-end.png`);
  // A rematch from the game-over box: the same battle, this browser on the other side.
  await page.goto(`${server.base}/play/${id}?token=${token}`);
  await page.locator('#go-rematch').click();
  await page.waitForURL((u) => u.pathname.startsWith('/play/') && !u.pathname.endsWith(id));
  const again = new URL(page.url()).pathname.split('/').pop();
  const held = await heldTokens(page, again);
  const rematch = await api(server.base, 'GET', `/api/games/${again}`, { token: held[scenario.sides[1].id] });
  assert.equal(rematch.scenario, scenario.id);
  assert.equal(rematch.seat, scenario.sides[1].id, 'this browser plays the other side');
  assert.equal(rematch.seats[side], 'ai', 'the computer plays the side this browser played');
  await page.waitForSelector('.counter');
  await page.context().close();
}

describe('a whole game against the computer in every ruleset', () => {
  for (const r of ['morne_plaine', 'battle_cry', 'jomini', 'skirmish']) {
    test(`${r}: from the lobby to the end, no error, no data on screen`, { timeout: 600_000 }, () => playWhole(r));
  }
});
