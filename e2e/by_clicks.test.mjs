// A whole game of every ruleset against the computer played by clicks alone (issue 15):
// the lobby's card starts it, and from then on this side acts only as a player does, by
// clicks on counters, hexes, cards and buttons (End, Pass, a retreat's hex, a reaction's
// button); the test never posts an action. It reads the game (GET) to know what the rules
// list, picks one by a simple seeded policy (attack when it can, a few moves, then End),
// and does it through the page; an action the page cannot do by clicks fails the test.
// Any page error, console error, failed request or visible data fails it too. One game
// (Morne Plaine) is also played on a phone's screen (390x844): the map at least half of
// the screen, the sidebar below it, and every button and hex clicked on the screen and not
// covered when it is clicked.

import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { api, heldTokens, shot, startBrowser, startServer, startFromLobby } from './harness.mjs';

const server = await startServer();
const browser = await startBrowser();
after(async () => {
  await browser.close();
  await server.stop();
});

/** Text a player must never read: JSON, a missing value, a bare object. */
const DATA = /\{"|\["|\[object|\bundefined\b|\bNaN\b|\bnull\b|\b[a-z]+_[a-z_]+\b/;

/** Ends of a phase, a turn or a step, as the rulesets name them. */
const END = new Set(['end_phase', 'end_turn', 'end_command', 'end_movement', 'done_ordering', 'done_moving', 'deal']);
/** Actions aimed at an enemy: the unit is selected, then the enemy (or its hex) clicked. */
const AIMED = new Set(['attack', 'battle', 'bombard', 'shoot', 'charge']);
/** What a player does a few of in each phase before ending it. */
const STEPS = new Set(['move', 'order', 'activate']);
/** The most steps of one kind a phase of this side takes before it is ended. */
const STEPS_PER_PHASE = 3;

/** A small seeded generator, so a failure repeats. */
function rng(seed) {
  let s = seed >>> 0 || 1;
  return () => ((s = (s * 1103515245 + 12345) >>> 0) >>> 8) / (1 << 24);
}

function watch(page) {
  const problems = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`));
  page.on('response', async (r) => {
    if (r.status() < 400) return;
    const body = await r.text().catch(() => '');
    problems.push(`${r.request().method()} ${new URL(r.url()).pathname} ${r.request().postData() || ''}: ${r.status()} ${body.slice(0, 300)}`);
  });
  page.on('requestfailed', (r) => !/ws$|\/ws\?/.test(r.url()) && problems.push(`request failed: ${r.url()}`));
  return problems;
}

async function visibleData(page) {
  const text = await page.evaluate(() => document.body.innerText);
  return text.split('\n').find((l) => DATA.test(l)) || null;
}

const unitsOf = (g) => g.view.units || g.view.pieces || [];
const hexOfUnit = (g, id) => unitsOf(g).find((u) => u.id === id)?.hex;
/** The hex an action aims at: its target's hex, or the target when it is a hex. */
const targetHex = (g, a) => (typeof a.target === 'string' && /^\d{3,}$/.test(a.target) ? a.target : hexOfUnit(g, a.target));

/**
 * The player's hand on the page: clicks that check, on a phone, that what is clicked is on
 * the screen and not covered (`reach` lists what was clicked).
 */
function hand(page, { phone }) {
  const reach = [];
  /** Fails unless the point is on the screen and the topmost element there is `inside`'s. */
  async function onScreen(x, y, selector, what) {
    const vp = page.viewportSize();
    assert.ok(x >= 0 && y >= 0 && x <= vp.width && y <= vp.height, `${what} is on the screen (${Math.round(x)}, ${Math.round(y)})`);
    // A passing notice (the computer's move, a result) may lie over the point for a
    // moment: a finger waits for it to go, up to two seconds, then the test names what
    // covers the point.
    let top = null;
    for (let i = 0; i < 20; i++) {
      top = await page.evaluate(([px, py, sel]) => {
        const t = document.elementFromPoint(px, py);
        const el = document.querySelector(sel);
        if (t && el && (el === t || el.contains(t) || t.closest(sel))) return null;
        return t ? `${t.tagName.toLowerCase()}${t.id ? `#${t.id}` : ''}${t.className && typeof t.className === 'string' ? `.${t.className.trim().split(/\s+/).join('.')}` : ''}` : 'nothing';
      }, [x, y, selector]);
      if (top === null) return;
      await page.waitForTimeout(100);
    }
    assert.fail(`${what} is covered where it is clicked: ${top} lies over it at (${Math.round(x)}, ${Math.round(y)})`);
  }
  async function tap(x, y) {
    if (phone) await page.touchscreen.tap(x, y);
    else await page.mouse.click(x, y);
  }
  return {
    reach,
    /** Clicks a button (or any element) of the page. */
    async button(selector, what) {
      const el = page.locator(selector).first();
      await el.waitFor({ state: 'visible', timeout: 10_000 });
      await el.scrollIntoViewIfNeeded();
      const box = await el.boundingBox();
      assert.ok(box, `${what} has a box`);
      const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
      if (phone) await onScreen(x, y, selector, what);
      reach.push(what);
      await tap(x, y);
    },
    /** Clicks a hex of the map, or the counter of a unit in it. */
    async hex(label, unit) {
      const sel = unit ? `.counter[data-unit="${unit}"]` : `.hit[data-hex="${label}"]`;
      const el = page.locator(sel).first();
      // On a phone the page scrolls under a sticky top bar: bring the hex to the middle
      // of the screen, as a finger would, not just inside it (where the bar may hide it).
      if (phone) await el.evaluate((e) => e.scrollIntoView({ block: 'center', inline: 'nearest' })).catch(() => el.scrollIntoViewIfNeeded());
      // The board redraws its counters on each view: ask again while one is replaced.
      let box = await el.boundingBox();
      for (let i = 0; !box && i < 20; i++) {
        await page.waitForTimeout(50);
        box = await el.boundingBox();
      }
      assert.ok(box, `${unit || label} is drawn (${await page.locator(sel).count()} such, ${await page.evaluate((q) => document.querySelector(q)?.outerHTML.slice(0, 300), sel)})`);
      const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
      if (phone) {
        await onScreen(x, y, '#board', `${unit || `hex ${label}`} on the map`);
        // What a finger finds there is this counter or this hex, not a button of another hex.
        const hex = label || (await el.getAttribute('data-hex'));
        const found = await page.evaluate(([px, py]) => {
          const top = document.elementFromPoint(px, py);
          return [top?.closest('.counter')?.dataset.unit || null, top?.closest('[data-hex]')?.dataset.hex || null, top?.getAttribute('class') || top?.tagName];
        }, [x, y]);
        assert.ok((unit && found[0] === unit) || found[1] === hex, `${unit || `hex ${label}`} is what is under the finger, not ${found.join(' ')}`);
      }
      reach.push(unit || label);
      await tap(x, y);
    },
  };
}

/**
 * Selects a unit by a click on its counter, unless it is selected already; a unit waiting
 * off the map by its button in the sidebar.
 */
async function select(page, h, unit, g) {
  if (g && !hexOfUnit(g, unit)) {
    if (!(await page.locator(`button[data-waiting="${unit}"].on`).count())) await h.button(`button[data-waiting="${unit}"]`, `${unit}, waiting to enter`);
    return page
      .locator(`button[data-waiting="${unit}"].on`)
      .waitFor({ timeout: 5000 })
      .then(() => true)
      .catch(() => false);
  }
  const chosen = page.locator(`.counter.is-selected[data-unit="${unit}"]`);
  for (let i = 0; i < 3; i++) {
    if (await chosen.count()) return true;
    await h.hex(null, unit);
    if (await chosen.waitFor({ timeout: 3000 }).then(() => true, () => false)) return true;
  }
  return false;
}

/** A selector of the buttons matching `selector` whose text includes `text`. */
function byText(selector, text) {
  return `${selector}:has-text("${text.replace(/"/g, '\\"')}")`;
}

/** Does action `a` through the page as a player would: clicks only. */
async function perform(page, h, g, a) {
  const listed = (type) => g.actions.filter((x) => x.type === type);
  switch (a.type) {
    case 'end_phase':
    case 'end_turn':
    case 'end_command':
    case 'end_movement':
    case 'done_ordering':
    case 'done_moving':
    case 'deal':
      return h.button('#end-phase:not([disabled])', `the ${a.type} button`);
    case 'pass':
      if (await page.locator('#sk-pass').count()) return h.button('#sk-pass', 'Pass');
      return h.button('#end-phase:not([disabled])', 'Pass');
    case 'play_card':
    case 'discard':
      return h.button(`.hand button.card[data-card="${a.card}"]:not([disabled])`, `the card ${a.card}`);
    case 'order':
      if (a.order) {
        await h.button(`button.jo-order[data-order="${a.order}"]`, `the ${a.order} order`);
        if (!a.unit) return;
      }
      return hexOfUnit(g, a.unit) ? h.hex(null, a.unit) : h.button(`button[data-waiting="${a.unit}"]`, `${a.unit}, waiting to enter`);
    case 'activate':
      return hexOfUnit(g, a.unit) ? h.hex(null, a.unit) : h.button(`button[data-waiting="${a.unit}"]`, `${a.unit}, waiting to enter`);
    case 'retreat':
      return h.hex(a.to);
    case 'move':
    case 'maneuver':
      if (!(await select(page, h, a.unit, g))) throw new Error(`${a.unit} cannot be selected`);
      return h.hex(a.to);
    case 'exit':
      return h.button(`button[data-exit="${listed('exit').indexOf(a)}"]`, `the exit of ${a.unit}`);
    case 'flee':
      return h.button(`button[data-flee="${listed('flee').indexOf(a)}"]`, `${a.unit} flees`);
    case 'opportunity':
      return h.button(`button[data-opp="${listed('opportunity').indexOf(a)}"]`, `${a.unit} strikes`);
    case 'defend':
      if (!(await select(page, h, a.unit, g))) throw new Error(`${a.unit} cannot be selected`);
      return h.button(byText('button[data-mine]', 'Defend'), `${a.unit} defends`);
    case 'face':
      if (!(await select(page, h, a.unit, g))) throw new Error(`${a.unit} cannot be selected`);
      return h.button(`button[data-face="${a.facing}"]:not([disabled])`, `${a.unit} faces ${a.facing}`);
    case 'short_move':
      await h.button(`button[data-reactor="${a.unit}"]`, `the reactor ${a.unit}`);
      return h.hex(a.to);
    case 'fight_back':
      return h.button(byText('.retreat-box button', 'Fight back'), 'Fight back');
    case 'take_ground':
      return h.button(byText('.retreat-box button', 'Take ground'), 'Take ground');
    case 'ignore_flag':
      return h.button('#bc-ignore-flag', 'Ignore one flag');
    case 'decline':
      if (await page.locator('#bc-take-flags').count()) return h.button('#bc-take-flags', 'Take every flag');
      return h.button(byText('.retreat-box button', 'Decline'), 'Decline');
    default:
      if (AIMED.has(a.type)) {
        if (!(await select(page, h, a.unit, g))) throw new Error(`${a.unit} cannot be selected`);
        return h.hex(targetHex(g, a));
      }
      throw new Error(`no click does ${a.type}`);
  }
}

/**
 * The player's policy: a card when one must be played, an attack when one is open (four
 * times in five), a few steps each phase, then the end of the phase; a decision the
 * rules force is answered by one of its choices.
 */
function chooser(seed) {
  const next = rng(seed);
  const pick = (list) => list[Math.floor(next() * list.length)];
  const taken = new Map();
  return (g) => {
    const acts = g.actions;
    const key = `${g.view.turn}/${g.view.phase}/${g.to_act.kind}`;
    const cards = acts.filter((a) => a.type === 'play_card' || a.type === 'discard');
    if (cards.length) return pick(cards);
    // Skirmish: a charge is clicked on its target like an attack, so only when nothing else aims at it.
    const aimed = acts.filter((a) => AIMED.has(a.type) && targetHex(g, a) && !(a.type === 'charge' && acts.some((b) => b !== a && b.unit === a.unit && b.target === a.target && b.type !== 'charge')) && !a.together);
    if (aimed.length && next() < 0.8) return pick(aimed);
    const ends = acts.filter((a) => END.has(a.type));
    const steps = acts.filter((a) => STEPS.has(a.type) && (a.type !== 'move' || a.unit));
    const n = taken.get(key) || 0;
    if (steps.length && (n < STEPS_PER_PHASE || !ends.length) && next() < 0.85) {
      taken.set(key, n + 1);
      return pick(steps);
    }
    if (ends.length) return ends[0];
    // A decision with no end: one of its choices, a reaction window's pass first.
    const pass = acts.find((a) => a.type === 'pass');
    if (pass && next() < 0.7) return pass;
    const plain = acts.filter((a) => a.type !== 'face' && !a.together);
    return pick(plain.length ? plain : acts);
  };
}

/** The game as this seat sees it (read only: the page does every action). */
const look = (id, token) => api(server.base, 'GET', `/api/games/${id}`, { token });

async function playByClicks(ruleset, { phone = false } = {}) {
  const started = Date.now();
  const scenario = (await api(server.base, 'GET', '/api/scenarios')).find((s) => s.ruleset === ruleset);
  const viewport = phone ? { width: 390, height: 844 } : { width: 1366, height: 768 };
  const context = await browser.newContext({ viewport, ...(phone ? { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } : {}) });
  const page = await context.newPage();
  const problems = watch(page);
  const side = scenario.sides[0].id;
  const id = await startFromLobby(page, server.base, scenario.id, 'ai', side);
  const token = (await heldTokens(page, id))[side];
  assert.ok(token, 'the lobby gave this browser its seat');
  if (phone) {
    const map = await page.locator('#board-wrap').boundingBox();
    assert.ok(map.height >= 844 / 2 && map.width >= 380, `the map takes at least half of the phone's screen: ${JSON.stringify(map)}`);
    const bar = await page.locator('.sidebar').boundingBox();
    assert.ok(bar.y >= map.y + map.height - 1, 'the sidebar is below the map');
  }
  const h = hand(page, { phone });
  const choose = chooser(ruleset.length * 7919 + (phone ? 1 : 0));
  const done = [];
  const retried = [];
  let g = await look(id, token);
  let shotMid = false;
  for (let guard = 0; !g.outcome && guard < 3000; guard++) {
    if (!g.to_act || g.to_act.side !== side || !g.actions.length) {
      await new Promise((r) => setTimeout(r, 80));
      g = await look(id, token);
      continue;
    }
    // The page shows the game as it is, and nothing of this page's is under way.
    const shown = await page
      .waitForFunction((n) => Number(document.body.dataset.n) >= n && !document.body.classList.contains('busy'), g.n, { timeout: 20_000 })
      .catch(async (e) => {
        throw new Error(`${ruleset}: the page shows ${await page.evaluate(() => `${document.body.dataset.n} ${document.body.className}`)}, the game ${g.n}: ${e.message}`);
      });
    if (!shown) continue;
    // The page may have acted by itself (a window with nothing but a pass): read again.
    if ((await page.evaluate(() => Number(document.body.dataset.n))) !== g.n) {
      g = await look(id, token);
      continue;
    }
    const a = choose(g);
    const before = g.n;
    // The page acted when the game moves on; a click that does nothing is a page that
    // cannot do what the rules list. A second try (after Esc) is allowed and counted.
    for (let attempt = 0; ; attempt++) {
      await perform(page, h, g, a);
      const until = Date.now() + 15_000;
      let now = g;
      do {
        await new Promise((r) => setTimeout(r, 60));
        now = await look(id, token);
      } while (now.n === before && !now.outcome && Date.now() < until);
      if (now.n > before || now.outcome) {
        g = now;
        break;
      }
      const said = await page.evaluate(() => [document.querySelector('.counter.is-selected')?.dataset.unit, document.getElementById('refusal').innerText]);
      const why = `${ruleset}: the page did not do ${JSON.stringify(a)} by clicks (${now.n} actions; selected ${said[0]}; the notice: ${said[1]}; ${problems.join('; ')})`;
      if (attempt > 0) assert.fail(why);
      retried.push(why);
      console.log(`# tried again: ${why}`);
      await page.keyboard.press('Escape');
    }
    done.push(a.type);
    if (phone && !shotMid && done.length >= 12) {
      shotMid = true;
      await shot(page, `${ruleset}-phone-by-clicks.png`);
    }
    if (done.length % 25 === 0) {
      const bad = await visibleData(page);
      assert.equal(bad, null, `${ruleset} after ${g.n} actions shows data: ${bad}`);
      assert.deepEqual(problems, [], `${ruleset} after ${g.n} actions`);
    }
  }
  assert.ok(g.outcome, `${ruleset}: the game ended (${g.n} actions)`);
  await page.locator('#gameover:not([hidden])').waitFor({ timeout: 20_000 });
  const bad = await visibleData(page);
  assert.equal(bad, null, `${ruleset} at the end shows data: ${bad}`);
  assert.deepEqual(problems, [], `${ruleset} at the end`);
  await shot(page, phone ? `${ruleset}-phone-by-clicks-end.png` : `${ruleset}-by-clicks-end.png`);
  // Every kind of decision this side made was made on the page.
  const kinds = [...new Set(done)].sort();
  assert.ok(kinds.some((k) => END.has(k) || k === 'pass'), `${ruleset}: phases ended by the End button: ${kinds}`);
  const seconds = Math.round((Date.now() - started) / 1000);
  console.log(`# ${ruleset}${phone ? ' (phone)' : ''}: ${g.n} actions, ${done.length} by clicks (${kinds.join(', ')}), ${h.reach.length} clicks (${h.reach.filter((w) => /waiting to enter/.test(w)).length} on pieces waiting off the map), ${seconds} s, ${retried.length} tried twice; ${g.outcome.winner || 'draw'} (${g.outcome.reason || ''})`);
  await context.close();
}

describe('a whole game against the computer played by clicks alone', () => {
  for (const r of ['morne_plaine', 'battle_cry', 'jomini', 'skirmish']) {
    test(`${r}: by clicks alone from the lobby to the game-over box, no error, no data on screen`, { timeout: 300_000 }, () => playByClicks(r));
  }
  test('morne_plaine on a phone (390x844): by clicks alone to the end, the map half the screen, the sidebar below, every click on the screen', { timeout: 300_000 }, () => playByClicks('morne_plaine', { phone: true }));
});
