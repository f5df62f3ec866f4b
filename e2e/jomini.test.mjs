// Jomini played hotseat in a real headless Chromium against the real server: an officer
// activated on the board with the units that join him, the order buttons with their cost,
// the reachable hexes with road march and pass-through marked, a move, and the phases ended.

import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { api, gameOfSideToAct, clickHex, hoverHex, shot, waitForN, session, startFromLobby } from './harness.mjs';

const { server, page, scenario, close } = await session({ ruleset: 'jomini' });
after(close);

describe('Jomini in the browser', () => {
  let gameId;

  const seen = () => gameOfSideToAct(page, server.base, gameId);
  const hexOf = (g, id) => g.view.pieces.find((p) => p.id === id)?.hex;

  test('a hotseat turn: activate on the board, orders with costs, move, end the phases', async (t) => {
    if (!scenario) return t.skip('no Jomini scenario is built in');
    gameId = await startFromLobby(page, server.base, scenario.id, 'hotseat');
    await page.waitForFunction(() => document.body.dataset.phase === 'command');
    let g = await seen();
    const side = g.to_act.side;
    assert.equal(await page.locator('.counter').count(), g.view.pieces.filter((p) => p.hex).length);
    // Order buttons show their cost and are enabled only when listed.
    const orders = page.locator('button.jo-order');
    assert.equal(await orders.count(), Object.keys(g.view.order_costs).length);
    for (const [o, cost] of Object.entries(g.view.order_costs)) {
      const b = page.locator(`button.jo-order[data-order="${o}"]`);
      assert.equal(await b.locator('.cost').innerText(), String(cost));
      assert.equal(await b.isDisabled(), !g.actions.some((a) => a.type === 'order' && a.order === o), `${o} enabled only when listed`);
    }
    assert.match(await page.locator('#jo-activations').innerText(), new RegExp(`0 of ${g.view.activations.count}`));
    // Activate an officer whose hex holds nothing else, then the units that may join him.
    const officer = g.actions.find((a) => a.type === 'activate' && g.view.pieces.filter((p) => p.hex === hexOf(g, a.unit)).length === 1);
    assert.ok(officer, 'an officer to activate');
    await clickHex(page, hexOf(g, officer.unit));
    await waitForN(page, g.n + 1);
    await page.locator(`.counter.is-ordered[data-unit="${officer.unit}"]`).waitFor();
    assert.match(await page.locator('#jo-activations').innerText(), /^1 of/);
    for (let i = 0; i < 3; i++) {
      g = await seen();
      const join = g.actions.find((a) => a.type === 'activate' && !g.view.pieces.find((p) => p.id === a.unit).officer && g.view.pieces.filter((p) => p.hex === hexOf(g, a.unit)).length === 1);
      if (!join) break;
      await clickHex(page, hexOf(g, join.unit));
      await waitForN(page, g.n + 1);
      await page.locator(`.counter.is-ordered[data-unit="${join.unit}"]`).waitFor();
    }
    g = await seen();
    assert.ok(g.view.groups[0].units.length > 0, 'units joined the activation');
    assert.match(await page.locator('#end-phase').innerText(), /End command/);
    await page.locator('#end-phase').click();
    await waitForN(page, g.n + 1);
    await page.waitForFunction(() => document.body.dataset.phase === 'movement');
    g = await seen();
    // Select a unit and see its reachable hexes, marked by road march and pass-through.
    const movers = Object.keys(g.view.moves).filter((u) => g.actions.some((a) => a.type === 'move' && a.unit === u) && g.view.pieces.filter((p) => p.hex === hexOf(g, u)).length === 1);
    assert.ok(movers.length, 'a unit can move');
    const unit = movers.find((u) => g.view.moves[u].some((m) => m.road_march || m.through)) || movers[0];
    await clickHex(page, hexOf(g, unit));
    await page.locator(`.counter.is-selected[data-unit="${unit}"]`).waitFor();
    const legal = g.view.moves[unit].filter((m) => g.actions.some((a) => a.type === 'move' && a.unit === unit && a.to === m.hex));
    assert.equal(await page.locator('.hl.reach, .hl.reach-stop').count(), legal.length, 'every reachable hex lit');
    assert.equal(await page.locator('.hl.road').count(), legal.filter((m) => m.road_march && !m.through).length, 'road march marked');
    assert.equal(await page.locator('.hl.through').count(), legal.filter((m) => m.through).length, 'pass-through marked');
    await shot(page, 'jomini.png');
    // Toward the enemy, keeping the right to fight, so that the combat phase has an attack.
    const board = await api(server.base, 'GET', `/api/scenarios/${scenario.id}/board`);
    const axial = (l) => board.hexes.find((x) => x.label === l);
    const dist = (a, b) => {
      const p = axial(a);
      const q = axial(b);
      return (Math.abs(p.q - q.q) + Math.abs(p.r - q.r) + Math.abs(p.q + p.r - q.q - q.r)) / 2;
    };
    const foes = g.view.pieces.filter((p) => p.side !== side && p.hex && !p.officer);
    const near = (h) => Math.min(...foes.map((f) => dist(h, f.hex)));
    const to = legal.sort((a, b) => Number(b.combat) - Number(a.combat) || near(a.hex) - near(b.hex))[0].hex;
    await clickHex(page, to);
    await waitForN(page, g.n + 1);
    await page.waitForFunction(([u, h]) => document.querySelector(`.counter[data-unit="${u}"]`)?.dataset.hex === h, [unit, to]);
    g = await seen();
    assert.equal(hexOf(g, unit), to);
    await page.keyboard.press('Escape');
    assert.match(await page.locator('#end-phase').innerText(), /End movement/);
    await page.keyboard.press('Enter');
    await waitForN(page, g.n + 1);
    await page.waitForFunction(() => document.body.dataset.phase !== 'movement');
    g = await seen();
    if (g.view.phase === 'combat' && g.to_act.side === side) {
      const atk = g.actions.find((a) => a.type === 'attack');
      if (atk) {
        await clickHex(page, hexOf(g, atk.unit));
        await page.locator('.hl.attackable').first().waitFor();
        await hoverHex(page, hexOf(g, atk.target));
        await page.locator('.jo-odds').waitFor();
        assert.match(await page.locator('#tooltip').innerText(), /%/, 'the odds on hover');
        console.log('# attack odds shown on hover');
      }
      await page.keyboard.press('Escape');
      assert.match(await page.locator('#end-phase').innerText(), /End turn/);
      await page.locator('#end-phase').click();
      await page.waitForFunction((s) => document.body.dataset.toAct && document.body.dataset.toAct !== s, side, { timeout: 20_000 });
    }
    g = await seen();
    assert.notEqual(g.to_act.side, side, 'the other side acts next');
    assert.deepEqual(page.errors, []);
  });
});
