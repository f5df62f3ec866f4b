// Futile Kingdoms skirmish played hotseat in a real headless Chromium against the real
// server: facing drawn on every character and turned with the keyboard, movement costs from
// GET .../reachable, a step that opens the passive side's reaction window, a short move
// answered in the prompt, a pass, and the phases ended.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { api, gameOfSideToAct, heldTokens, clickHex, newPage, shot, startBrowser, startServer, waitForN } from './harness.mjs';

describe('Futile Kingdoms skirmish in the browser', () => {
  let server;
  let browser;
  let page;
  let scenario;
  let gameId;

  before(async () => {
    server = await startServer();
    browser = await startBrowser();
    page = await newPage(browser);
    scenario = (await api(server.base, 'GET', '/api/scenarios')).find((s) => s.ruleset === 'skirmish');
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  const seen = () => gameOfSideToAct(page, server.base, gameId);
  const unitOf = (g, id) => g.view.units.find((u) => u.id === id);
  const alone = (g, id) => g.view.units.filter((u) => u.hex === unitOf(g, id).hex).length === 1;

  test('a hotseat turn: facing by keyboard, costs, a step, the reaction prompt, end phases', async (t) => {
    if (!scenario) return t.skip('no skirmish scenario is built in');
    await page.goto(server.base + '/');
    const card = page.locator(`.scenario-card[data-scenario="${scenario.id}"]`);
    await card.locator('select[name=mode]').selectOption('hotseat');
    await card.locator('button[type=submit]').click();
    await page.waitForURL(/\/play\//);
    gameId = new URL(page.url()).pathname.split('/').pop();
    await page.waitForSelector('.counter');
    await page.waitForFunction(() => document.body.dataset.phase === 'movement');
    let g = await seen();
    const active = g.to_act.side;
    const onMap = g.view.units.filter((u) => u.hex);
    assert.equal(await page.locator('.counter').count(), onMap.length);
    assert.equal(await page.locator('.counter polygon.facing').count(), onMap.length, 'every character shows its facing');
    // Select a character that can turn and step; turn it with ].
    const id = g.actions.find((a) => a.type === 'face' && alone(g, a.unit) && g.actions.some((m) => m.type === 'move' && m.unit === a.unit))?.unit;
    assert.ok(id, 'a character that can turn and move');
    await clickHex(page, unitOf(g, id).hex);
    await page.locator(`.counter.is-selected[data-unit="${id}"]`).waitFor();
    const reach = await api(server.base, 'GET', `/api/games/${gameId}/reachable?unit=${id}`, { token: (await heldTokens(page, gameId))[active] });
    await page.waitForFunction((n) => document.querySelectorAll('.hl .hl-text').length >= n, reach.length);
    const before = unitOf(g, id).facing;
    await page.keyboard.press(']');
    await waitForN(page, g.n + 1);
    g = await seen();
    assert.notEqual(unitOf(g, id).facing, before, '] turned the character');
    assert.equal(await page.locator('#sk-facing').innerText(), unitOf(g, id).facing);
    // Costs follow facing: they are fetched again for the new facing.
    const reach2 = await api(server.base, 'GET', `/api/games/${gameId}/reachable?unit=${id}`, { token: (await heldTokens(page, gameId))[active] });
    const probe = reach2.find((r) => r.path.length === 1);
    await page.waitForFunction(([h, c]) => document.querySelector(`.hl[data-hex="${h}"] .hl-text`)?.textContent === String(c), [probe.hex, probe.cost]);
    // Step toward the enemy until the passive side gets a reaction window.
    const foes = g.view.units.filter((u) => u.side !== active && u.hex);
    const dist = (a, b) => {
      const h = (l) => [Number(l.slice(0, 2)), Number(l.slice(2))];
      const [c1, r1] = h(a);
      const [c2, r2] = h(b);
      const z = (c, r) => [c, r - Math.floor((c + (c & 1)) / 2)];
      const [q1, s1] = z(c1, r1);
      const [q2, s2] = z(c2, r2);
      return (Math.abs(q1 - q2) + Math.abs(s1 - s2) + Math.abs(q1 + s1 - q2 - s2)) / 2;
    };
    const step = g.actions.filter((a) => a.type === 'move' && a.unit === id && !a.evasive).sort((a, b) => Math.min(...foes.map((f) => dist(a.to, f.hex))) - Math.min(...foes.map((f) => dist(b.to, f.hex))))[0];
    await clickHex(page, step.to);
    await waitForN(page, g.n + 1);
    g = await seen();
    assert.equal(unitOf(g, id).hex, step.to);
    if (g.to_act.reaction) {
      const passive = g.to_act.side;
      assert.notEqual(passive, active);
      await page.locator('#sk-prompt').waitFor();
      await page.waitForFunction((s) => document.body.dataset.toAct === s, passive);
      assert.match(await page.locator('#end-phase').innerText(), /Pass/);
      const short = g.actions.find((a) => a.type === 'short_move' && a.to !== unitOf(g, a.unit).hex && alone(g, a.unit));
      if (!short) await shot(page, 'skirmish.png');
      if (short) {
        await page.locator(`button[data-reactor="${short.unit}"]`).click();
        await page.locator(`.counter.is-selected[data-unit="${short.unit}"]`).waitFor();
        assert.ok((await page.locator('.hl.reach').count()) > 0, 'the short moves are lit');
        await shot(page, 'skirmish.png');
        await clickHex(page, short.to);
        await waitForN(page, g.n + 1);
        g = await seen();
        assert.equal(unitOf(g, short.unit).hex, short.to, 'the short move was made');
      }
      for (let i = 0; i < 6 && g.to_act.reaction; i++) {
        await page.locator('#sk-pass').click();
        await waitForN(page, g.n + 1);
        g = await seen();
      }
    } else {
      await shot(page, 'skirmish.png');
    }
    await page.waitForFunction((s) => document.body.dataset.toAct === s, active);
    assert.equal(g.to_act.side, active, 'back to the moving side');
    // End the phases until the other side's turn.
    for (let i = 0; i < 12 && g.view.active === active && !g.outcome; i++) {
      await page.keyboard.press('Escape');
      await page.keyboard.press('Enter');
      await waitForN(page, g.n + 1);
      g = await seen();
    }
    assert.notEqual(g.view.active, active, 'the other side is active');
    assert.deepEqual(page.errors, []);
  });
});
