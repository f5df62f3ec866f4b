// Battle Cry played in a real headless Chromium against the real server: the hand of
// cards, sections lit for a card, ordered units marked, the battle dice's odds before the
// roll, the retreat offered to the defending player, the embolden decision (ignore one flag
// thanks to a general) on a game object served as the server would, and a whole game played
// to its end.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { api, gameOfSideToAct, heldTokens, clickHex, hoverHex, seekPosition, shot, shownN, waitForN, session, startFromLobby } from './harness.mjs';

const { server, page, scenario, close } = await session({ ruleset: 'battle_cry' });
after(close);

describe('Battle Cry in the browser', () => {
  let board;
  let gameId;

  before(async () => {
    if (scenario) board = await api(server.base, 'GET', `/api/scenarios/${scenario.id}/board`);
  });

  const seen = (p) => gameOfSideToAct(p, server.base, gameId);

  const hexOf = (g, id) => g.view.pieces.find((x) => x.id === id)?.hex;
  function dist(a, b) {
    const h = (l) => board.hexes.find((x) => x.label === l);
    const p = h(a);
    const q = h(b);
    const dq = p.q - q.q;
    const dr = p.r - q.r;
    return (Math.abs(dq) + Math.abs(dr) + Math.abs(dq + dr)) / 2;
  }
  function nearestEnemy(g, side, hex) {
    return Math.min(...g.view.pieces.filter((x) => x.side !== side && x.hex).map((x) => dist(hex, x.hex)));
  }

  test('a game against the computer: deal, play a card with its sections lit, order, move, battle', async (t) => {
    if (!scenario) return t.skip('no Battle Cry scenario is built in');
    const first = scenario.sides[0].id;
    gameId = await startFromLobby(page, server.base, scenario.id, 'ai', first);
    await page.waitForFunction((s) => document.body.dataset.toAct === s, first, { timeout: 30_000 });
    let g = await seen(page);
    assert.equal(await page.locator('.counter').count(), g.view.pieces.filter((x) => x.hex).length);
    assert.ok((await page.locator('.section-divider').count()) === 2, 'the two section dividers');
    if (g.view.phase === 'deal') {
      assert.match(await page.locator('#end-phase').innerText(), /Deal/);
      await page.keyboard.press('Enter');
      await waitForN(page, g.n + 1);
      g = await seen(page);
    }
    await page.waitForFunction(() => document.body.dataset.phase === 'command');
    g = await seen(page);
    const hand = g.view.hands[first];
    assert.equal(await page.locator('.hand-section .card').count(), hand.cards.length, 'the hand of cards');
    const playable = g.actions.filter((a) => a.type === 'play_card');
    assert.ok(playable.length > 0, 'a card can be played');
    // A section card lights its sections when hovered.
    const sectionCard = hand.cards.find((c) => /in the (left|centre|right)/.test(c.orders) && playable.some((a) => a.card === c.card));
    const pick = sectionCard ? sectionCard.card : playable[0].card;
    await page.locator(`.card[data-card="${pick}"]`).first().hover();
    if (sectionCard) await page.waitForFunction(() => document.querySelectorAll('.hl.section-on').length > 0);
    await shot(page, 'battle-cry.png');
    await page.locator(`.card[data-card="${pick}"]`).first().click();
    await waitForN(page, g.n + 1);
    await page.waitForFunction(() => document.body.dataset.phase === 'orders');
    // The log names the card by its printed title.
    assert.ok((await page.locator('.log .entry[data-type="play_card"]').last().innerText()).includes(`plays ${hand.cards.find((c) => c.card === pick).title}`));
    // Order the units the card allows.
    for (let i = 0; i < 6; i++) {
      g = await seen(page);
      const order = g.actions.find((a) => a.type === 'order' && g.view.pieces.filter((x) => x.hex === hexOf(g, a.unit)).length === 1);
      if (!order) break;
      await clickHex(page, hexOf(g, order.unit));
      await waitForN(page, g.n + 1);
      await page.locator(`.counter.is-ordered[data-unit="${order.unit}"]`).waitFor();
    }
    g = await seen(page);
    const ordered = g.view.pieces.filter((x) => x.ordered);
    assert.ok(ordered.length > 0, 'ordered units are marked');
    assert.equal(await page.locator('.counter.is-ordered').count(), ordered.length);
    await page.keyboard.press('Enter');
    await waitForN(page, g.n + 1);
    await page.waitForFunction(() => document.body.dataset.phase === 'movement');
    g = await seen(page);
    const move = g.actions.filter((a) => a.type === 'move').sort((a, b) => nearestEnemy(g, first, a.to) - nearestEnemy(g, first, b.to))[0];
    if (move) {
      await clickHex(page, hexOf(g, move.unit));
      await page.locator(`.counter.is-selected[data-unit="${move.unit}"]`).waitFor();
      // Where it can go is lit once GET .../reachable has answered.
      await page.locator('.hl.reach, .hl.reach-stop').first().waitFor();
      await clickHex(page, move.to);
      await waitForN(page, g.n + 1);
      await page.waitForFunction(([u, h]) => document.querySelector(`.counter[data-unit="${u}"]`)?.dataset.hex === h, [move.unit, move.to]);
    }
    g = await seen(page);
    await page.keyboard.press('Escape');
    await page.keyboard.press('Enter');
    await waitForN(page, g.n + 1);
    await page.waitForFunction(() => document.body.dataset.phase === 'battle');
    g = await seen(page);
    const battle = g.actions.find((a) => a.type === 'battle');
    if (battle) {
      const preview = await api(server.base, 'POST', `/api/games/${gameId}/preview`, { token: (await heldTokens(page, gameId))[first], body: { action: battle } });
      await clickHex(page, hexOf(g, battle.unit));
      await hoverHex(page, hexOf(g, battle.target));
      const odds = page.locator('.tooltip:not([hidden]) .odds');
      await odds.waitFor();
      assert.equal(await odds.innerText(), `${preview.inputs.dice} dice`);
      await clickHex(page, hexOf(g, battle.target));
      await waitForN(page, g.n + 1);
      const entry = page.locator('.log .entry[data-type="battle"]').last();
      await entry.waitFor();
      assert.ok((await entry.locator('.die').count()) >= 1, 'the battle dice in the log');
      assert.match(await entry.innerText(), /BC-/);
    }
    // As the dice fall, a window may open for this side before its battles go on: the
    // computer's Fight Back (BC-CARD-8) may send the attacker back (BC-RET-3, with the
    // embolden choice of BC-GEN-5 and BC-GEN-6), a unit with its general may take ground
    // (BC-GEN-7). Each is answered through the page before the phase is ended.
    for (let i = 0; i < 10; i++) {
      await page.waitForFunction(() => document.body.dataset.over === 'yes' || document.body.dataset.seat === document.body.dataset.toAct, undefined, { timeout: 30_000 });
      if ((await page.locator('body').getAttribute('data-over')) === 'yes') break;
      g = await seen(page);
      const kind = g.to_act.kind;
      if (kind === 'retreat') {
        await page.locator('.retreat-box[data-pending="retreat"]').waitFor();
        await clickHex(page, g.actions.find((a) => a.type === 'retreat').to);
      } else if (kind === 'embolden') {
        await page.locator('#bc-ignore-flag').click();
      } else if (kind === 'take_ground' || kind === 'fight_back') {
        await page.locator('.retreat-box button').first().click();
      } else break;
      await waitForN(page, g.n + 1);
    }
    if ((await page.locator('body').getAttribute('data-over')) !== 'yes') {
      g = await seen(page);
      await page.keyboard.press('Escape');
      await page.keyboard.press('Enter');
      await waitForN(page, g.n + 1);
    }
    assert.deepEqual(page.errors, []);
  });

  test('hotseat to the end: both sides play their cards, the defender chooses its retreats, the game-over screen', async (t) => {
    if (!scenario) return t.skip('no Battle Cry scenario is built in');
    gameId = await startFromLobby(page, server.base, scenario.id, 'hotseat');
    const held = await heldTokens(page, gameId);
    assert.deepEqual(Object.keys(held).sort(), scenario.sides.map((s) => s.id).sort(), 'the creator holds both seats');
    let retreats = 0;
    let emboldens = 0;
    let cardsPlayed = new Set();
    let moved = new Set(); // units moved this turn, by n of the turn's card
    for (let i = 0; i < 3000; i++) {
      await page.waitForFunction(() => document.body.dataset.over === 'yes' || document.body.dataset.seat === document.body.dataset.toAct);
      if ((await page.locator('body').getAttribute('data-over')) === 'yes') break;
      const g = await seen(page);
      if (g.outcome) break;
      const side = g.to_act.side;
      assert.equal(g.seat, side, 'the page acts with the token of the side to act');
      const acts = g.actions;
      const kind = g.to_act.kind;
      if (kind === 'retreat') {
        retreats++;
        const box = page.locator('.retreat-box[data-pending="retreat"]');
        await box.waitFor();
        const r = acts.find((a) => a.type === 'retreat');
        assert.ok((await page.locator('.hl.reach').count()) >= 1, 'the retreat hexes are lit');
        await clickHex(page, r.to);
      } else if (kind === 'embolden') {
        // BC-GEN-5, BC-GEN-6: ignore one flag, or take every flag, in turn.
        const box = page.locator('.retreat-box[data-pending="embolden"]');
        await box.waitFor();
        assert.match(await box.innerText(), /BC-GEN-[56]/);
        await page.locator(emboldens++ % 2 ? '#bc-take-flags' : '#bc-ignore-flag').click();
      } else if (kind === 'take_ground' || kind === 'fight_back') {
        await page.locator('.retreat-box button').first().click();
      } else if (kind === 'deal' || kind === 'command') {
        const c = acts.find((a) => a.type === 'play_card' || a.type === 'discard') || acts[0];
        if (c.card) {
          cardsPlayed.add(side);
          await page.locator(`.card[data-card="${c.card}"]`).first().click();
        } else await page.locator('#end-phase').click();
        moved = new Set();
      } else if (kind === 'orders') {
        const o = acts.find((a) => a.type === 'order' && g.view.pieces.filter((x) => x.hex === hexOf(g, a.unit)).length === 1);
        if (o) await clickHex(page, hexOf(g, o.unit));
        else await page.locator('#end-phase').click();
      } else if (kind === 'movement') {
        const best = acts
          .filter((a) => a.type === 'move' && !moved.has(a.unit))
          .map((a) => ({ a, gain: nearestEnemy(g, side, hexOf(g, a.unit)) - nearestEnemy(g, side, a.to) }))
          .sort((x, y) => y.gain - x.gain)[0];
        if (best && best.gain > 0 && nearestEnemy(g, side, best.a.to) >= 1) {
          moved.add(best.a.unit);
          await page.keyboard.press('Escape');
          await clickHex(page, hexOf(g, best.a.unit));
          await page.locator(`.counter.is-selected[data-unit="${best.a.unit}"]`).waitFor();
          await clickHex(page, best.a.to);
        } else {
          await page.keyboard.press('Escape');
          await page.locator('#end-phase').click();
        }
      } else if (kind === 'battle') {
        const b = acts.find((a) => a.type === 'battle');
        await page.keyboard.press('Escape');
        if (b) {
          await clickHex(page, hexOf(g, b.unit));
          await page.locator(`.counter.is-selected[data-unit="${b.unit}"]`).waitFor();
          await clickHex(page, hexOf(g, b.target));
        } else await page.locator('#end-phase').click();
      } else {
        assert.fail(`an unknown decision: ${kind}`);
      }
      await waitForN(page, g.n + 1);
    }
    await page.locator('#gameover:not([hidden])').waitFor({ timeout: 10_000 });
    assert.match(await page.locator('#go-winner').innerText(), /Victory|draw/);
    assert.match(await page.locator('#go-reason').innerText(), /BC-/);
    assert.equal(cardsPlayed.size, 2, 'both sides played cards');
    t.diagnostic(`${await shownN(page)} actions, ${retreats} retreats chosen, ${emboldens} embolden decisions`);
    assert.ok(retreats > 0, 'the defender chose a retreat at least once');
    assert.deepEqual(page.errors, []);
  });
  test('the embolden decision: the prompt in words with its rule, both buttons, the log', async (t) => {
    if (!scenario) return t.skip('no Battle Cry scenario is built in');
    const created = await api(server.base, 'POST', '/api/games', { body: { scenario: scenario.id, seats: Object.fromEntries(scenario.sides.map((s) => [s.id, 'human'])) } });
    const id = created.id;
    const tok = Object.fromEntries(Object.entries(created.seats).map(([side, s]) => [side, s.token]));
    const real = await api(server.base, 'GET', `/api/games/${id}`, { token: Object.values(tok)[0] });
    // A unit with a general, and an enemy unit that battled it: the game as the server
    // sends it when that battle rolled two flags (BC-GEN-5). The rules decide when this
    // comes in play; here the page is checked on it whatever the dice.
    const pieces = real.view.pieces.filter((p) => p.hex);
    const general = pieces.find((p) => p.type === 'general');
    const unit = pieces.find((p) => p.type !== 'general' && p.side === general.side);
    const battler = pieces.find((p) => p.type !== 'general' && p.side !== general.side);
    general.hex = unit.hex;
    general.attached = unit.id;
    unit.attached = general.id;
    const side = unit.side;
    const n = real.n + 1000; // ahead of anything the live socket sends
    const craft = (seat) => ({
      ...real,
      n,
      seat,
      to_act: { side, kind: 'embolden' },
      actions: seat === side ? [{ type: 'ignore_flag' }, { type: 'decline' }] : [],
      view: { ...real.view, phase: 'battle', pending: { kind: 'embolden', unit: unit.id, flags: 2, battler: battler.id, from: unit.hex } },
      log: [
        { n: 1, action: { type: 'battle', unit: battler.id, target: unit.id }, events: [{ type: 'battled', unit: battler.id, target: unit.id, dice: 3, faces: ['flag', 'flag', 'sabers'], hits: 1, flags: 2, rules: ['BC-HIT-1'] }] },
        { n: 2, action: { type: 'ignore_flag' }, events: [{ type: 'flag_ignored', unit: unit.id, left: 1, rule: 'BC-GEN-5' }] },
        { n: 3, action: { type: 'battle', unit: battler.id, target: unit.id }, events: [{ type: 'battled', unit: battler.id, target: unit.id, dice: 2, faces: ['flag', 'infantry'], hits: 0, flags: 1, rules: ['BC-HIT-1'] }] },
        { n: 4, action: { type: 'decline' }, events: [] },
      ],
    });
    const posted = [];
    // By path: the page asks with a query (`?since=K&legal=compact`, issue 17).
    await page.route((url) => url.pathname === `/api/games/${id}`, (route) => {
      const auth = route.request().headers().authorization || '';
      const seat = Object.keys(tok).find((s) => auth.endsWith(tok[s])) || 'spectator';
      route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(craft(seat)) });
    });
    await page.route((url) => url.pathname === `/api/games/${id}/actions`, (route) => {
      posted.push(route.request().postDataJSON().action);
      route.fulfill({ status: 400, contentType: 'application/json', body: JSON.stringify({ error: { rule: 'test', message: 'test: the action was seen', reasons: [] } }) });
    });
    await page.goto(server.base + '/');
    await page.evaluate(([g, tk]) => localStorage.setItem('grognard.tokens', JSON.stringify({ ...JSON.parse(localStorage.getItem('grognard.tokens') || '{}'), [g]: tk })), [id, tok]);
    await page.goto(`${server.base}/play/${id}?token=${tok[side]}`);
    const box = page.locator('.retreat-box[data-pending="embolden"]');
    await box.waitFor();
    const text = await box.innerText();
    assert.match(text, new RegExp(`${unit.id}[\\s\\S]*with its general[\\s\\S]*${battler.id}`));
    assert.match(text, /2 flags/);
    assert.match(text, /BC-GEN-5/);
    assert.match(text, /retreats 1 hex instead of 2 hexes/);
    assert.doesNotMatch(text, /[{}]/, 'in words, no JSON');
    assert.equal(await page.locator('#bc-ignore-flag').innerText(), 'Ignore one flag');
    assert.equal(await page.locator('#bc-take-flags').innerText(), 'Take every flag');
    await shot(page, 'battle-cry-embolden.png');
    await page.locator('#bc-ignore-flag').click();
    await page.waitForFunction(() => !document.querySelector('#refusal').hidden);
    await page.locator('#bc-take-flags').click();
    await page.waitForFunction(() => document.querySelector('#refusal').textContent.includes('test'));
    await new Promise((r) => setTimeout(r, 200));
    assert.deepEqual(posted, [{ type: 'ignore_flag' }, { type: 'decline' }], 'each button sends its listed action');
    // The log in words.
    const log = await page.locator('#log').innerText();
    assert.match(log, /ignores one flag[\s\S]*retreats 1 hex/);
    assert.match(log, /takes every flag/);
    assert.doesNotMatch(log, /ignored\)/, 'no count of ignored flags on the battle line');
    assert.doesNotMatch(log, /[{}]/);
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    page.errors.length = 0; // the refusals were the stand-in's
  });

  test('a click on a unit with its general orders the unit, not the general', async (t) => {
    if (!scenario) return t.skip('no Battle Cry scenario is built in');
    const both = (g) => {
      if (g.view.phase !== 'orders') return null;
      const orders = g.actions.filter((a) => a.type === 'order');
      const general = orders.map((a) => g.view.pieces.find((p) => p.id === a.unit)).find((p) => p && p.type === 'general' && p.hex);
      const unit = general && orders.map((a) => g.view.pieces.find((p) => p.id === a.unit)).find((p) => p && p.type !== 'general' && p.hex === general.hex);
      return unit ? { general, unit } : null;
    };
    const at = await seekPosition(page, server.base, scenario, both);
    assert.ok(at, 'a fixed seed leads to a unit and its general both to be ordered');
    const { general, unit } = both(at.g);
    await clickHex(page, unit.hex);
    await waitForN(page, at.g.n + 1);
    const g = await api(server.base, 'GET', `/api/games/${at.id}`, { token: at.token });
    const ordered = (id) => g.view.pieces.find((p) => p.id === id).ordered;
    assert.ok(ordered(unit.id), `${unit.id} was ordered`);
    assert.ok(!ordered(general.id), `${general.id} was not ordered on his own`);
    assert.deepEqual(page.errors, []);
  });
});
