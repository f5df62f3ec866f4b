// Battle Cry played in a real headless Chromium against the real server: the hand of
// cards, sections lit for a card, ordered units marked, the battle dice's odds before the
// roll, the retreat offered to the defending player, and a whole game played to its end.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { api, gameOfSideToAct, heldTokens, clickHex, hoverHex, newPage, shot, shownN, startBrowser, startServer, waitForN } from './harness.mjs';

describe('Battle Cry in the browser', () => {
  let server;
  let browser;
  let page;
  let scenario;
  let board;
  let gameId;

  before(async () => {
    server = await startServer();
    browser = await startBrowser();
    page = await newPage(browser);
    scenario = (await api(server.base, 'GET', '/api/scenarios')).find((s) => s.ruleset === 'battle_cry');
    if (scenario) board = await api(server.base, 'GET', `/api/scenarios/${scenario.id}/board`);
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
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
    await page.goto(server.base + '/');
    const card = page.locator(`.scenario-card[data-scenario="${scenario.id}"]`);
    await card.locator('select[name=mode]').selectOption('ai');
    const first = scenario.sides[0].id;
    await card.locator('select[name=side]').selectOption(first);
    await card.locator('button[type=submit]').click();
    await page.waitForURL(/\/play\//);
    gameId = new URL(page.url()).pathname.split('/').pop();
    await page.waitForSelector('.counter');
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
    assert.match(await page.locator('.log .entry[data-type="play_card"]').last().innerText(), new RegExp(pick));
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
      assert.ok((await page.locator('.hl.reach, .hl.reach-stop').count()) > 0, 'where it can go is lit');
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
    g = await seen(page);
    await page.keyboard.press('Escape');
    await page.keyboard.press('Enter');
    await waitForN(page, g.n + 1);
    assert.deepEqual(page.errors, []);
  });

  test('hotseat to the end: both sides play their cards, the defender chooses its retreats, the game-over screen', async (t) => {
    if (!scenario) return t.skip('no Battle Cry scenario is built in');
    await page.goto(server.base + '/');
    const card = page.locator(`.scenario-card[data-scenario="${scenario.id}"]`);
    await card.locator('select[name=mode]').selectOption('hotseat');
    await card.locator('button[type=submit]').click();
    await page.waitForURL(/\/play\//);
    gameId = new URL(page.url()).pathname.split('/').pop();
    await page.waitForSelector('.counter');
    const held = await heldTokens(page, gameId);
    assert.deepEqual(Object.keys(held).sort(), scenario.sides.map((s) => s.id).sort(), 'the creator holds both seats');
    let retreats = 0;
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
    assert.match(await page.locator('#go-winner').innerText(), /wins|draw/);
    assert.match(await page.locator('#go-reason').innerText(), /BC-/);
    assert.equal(cardsPlayed.size, 2, 'both sides played cards');
    t.diagnostic(`${await shownN(page)} actions, ${retreats} retreats chosen`);
    assert.ok(retreats > 0, 'the defender chose a retreat at least once');
    assert.deepEqual(page.errors, []);
  });
});
