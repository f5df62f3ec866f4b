// Undo in a real headless Chromium against the real server (issue 15): in a hotseat game
// of Morne Plaine a move made by a click is taken back by the Undo button (and by the
// keys U and Ctrl+Z), the unit back on its hex and the log one shorter; a second browser
// on the same game sees the undo arrive over the WebSocket; after an attack that rolled
// dice the button is disabled and the server refuses.

import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { api, clickHex, counterHex, newPage, session, waitForN } from './harness.mjs';

const SCENARIO = 'bridge-at-morne';

const { server, browser, page, close } = await session();
after(close);

/** Waits until the page shows the game at exactly `n` actions. */
const atN = (p, n) => p.waitForFunction((k) => Number(document.body.dataset.n) === k, n, { timeout: 20_000 });
const unitAt = (p, unit, hex) => p.waitForFunction(([u, h]) => document.querySelector(`.counter[data-unit="${u}"]`)?.dataset.hex === h, [unit, hex], { timeout: 10_000 });
const entries = (p) => p.locator('#log .entry').count();

describe('Undo in the browser', () => {
  let id;
  let token;
  let watcher;
  const game = () => api(server.base, 'GET', `/api/games/${id}`, { token });
  const act = async (action) => {
    const g = await game();
    return api(server.base, 'POST', `/api/games/${id}/actions`, { token, body: { action, expect: g.n } });
  };
  const endUntil = async (side, phase) => {
    for (let i = 0; i < 12; i++) {
      const g = await game();
      if (g.to_act.side === side && g.view.phase === phase) return;
      await act({ type: 'end_phase' });
    }
    assert.fail(`never reached ${side}'s ${phase} phase`);
  };

  /** A one-hex move of blue's, made by two clicks on the page; answers the move and where the unit was. */
  async function clickAMove() {
    const g = await game();
    const step = g.actions.find((a) => a.type === 'move');
    assert.ok(step, 'a step is open');
    const from = g.view.units.find((u) => u.id === step.unit).hex;
    await page.keyboard.press('Escape');
    await clickHex(page, from);
    await page.locator(`.counter.is-selected[data-unit="${step.unit}"]`).waitFor();
    await clickHex(page, step.to);
    await atN(page, g.n + 1);
    await unitAt(page, step.unit, step.to);
    return { step, from, n: g.n + 1 };
  }

  test('a hotseat game opens with the Undo button beside End, disabled before any action', async () => {
    // A seed is taken for a hotseat game, so its dice are the same every run.
    const made = await api(server.base, 'POST', '/api/games', { body: { scenario: SCENARIO, seed: 7, hotseat: true, seats: { blue: 'human', orange: 'human' } } });
    id = made.id;
    token = made.seats.blue.token;
    await page.goto(server.base + '/');
    await page.evaluate(([g, t]) => localStorage.setItem('grognard.tokens', JSON.stringify({ ...JSON.parse(localStorage.getItem('grognard.tokens') || '{}'), [g]: t })), [id, { blue: token, orange: token }]);
    await page.goto(`${server.base}/play/${id}?token=${token}`);
    await page.waitForSelector('.counter');
    const undo = page.locator('#undo');
    assert.ok(await undo.isVisible(), 'a player sees the button');
    assert.ok(await undo.isDisabled(), 'nothing to take back at n = 0');
    assert.equal(await page.locator('.topbar #undo + #end-phase').count(), 1, 'beside End');
    // Blue ends its bombardment: the movement phase, and that end may be taken back.
    await page.locator('#end-phase').click();
    await atN(page, 1);
    await page.waitForFunction(() => document.body.dataset.phase === 'movement');
    await page.waitForFunction(() => !document.getElementById('undo').disabled);
  });

  test('a move made by a click is taken back by the button: the unit back on its hex, the log one shorter', async () => {
    watcher = await newPage(browser);
    await watcher.goto(`${server.base}/play/${id}`);
    await watcher.waitForSelector('.counter');
    await watcher.locator('#ws-dot.on').waitFor();
    assert.equal(await watcher.locator('body').getAttribute('data-seat'), 'spectator');
    assert.ok(await watcher.locator('#undo').isHidden(), 'a spectator has no Undo');

    const { step, from, n } = await clickAMove();
    await atN(watcher, n);
    await unitAt(watcher, step.unit, step.to);
    const logged = await entries(page);
    const watched = await entries(watcher);
    const undo = page.locator('#undo');
    await page.waitForFunction(() => !document.getElementById('undo').disabled);
    await undo.click();
    await atN(page, n - 1);
    await unitAt(page, step.unit, from);
    assert.equal(await counterHex(page, step.unit), from);
    assert.equal(await entries(page), logged - 1, 'the log one shorter');
    assert.equal((await game()).n, n - 1, 'the server agrees');
    // The second browser sees the undo live.
    await atN(watcher, n - 1);
    await unitAt(watcher, step.unit, from);
    assert.equal(await entries(watcher), watched - 1);
    await page.locator('#refusal.info:not([hidden])').waitFor();
    assert.match(await page.locator('#refusal').innerText(), /Taken back/);
  });

  test('the keys U and Ctrl+Z take back a move too', async () => {
    for (const keys of ['u', 'Control+z']) {
      const { step, from, n } = await clickAMove();
      await page.waitForFunction(() => !document.getElementById('undo').disabled);
      await page.mouse.move(5, 300);
      await page.keyboard.press(keys);
      await atN(page, n - 1);
      await unitAt(page, step.unit, from);
      await atN(watcher, n - 1);
      await unitAt(watcher, step.unit, from);
    }
    assert.deepEqual(page.errors, []);
    assert.deepEqual(watcher.errors, []);
  });

  test('after an attack that rolled dice the button is disabled and the server refuses', async () => {
    // Orange steps back from the bridge, blue crosses and attacks (as in the Morne Plaine
    // tests, with the same seed). The unit the page still holds selected is let go first:
    // the page would ask its reachable hexes in blue's movement phase while this test,
    // acting faster than a player, has already ended that phase (400).
    await page.keyboard.press('Escape');
    await endUntil('orange', 'movement');
    await act({ type: 'move', unit: 'o-2-line', to: '0808' });
    await endUntil('blue', 'movement');
    await act({ type: 'move', unit: 'b-1-foot', to: '0809' });
    await act({ type: 'end_phase' });
    let g = await game();
    assert.equal(g.view.phase, 'combat');
    await atN(page, g.n);
    await page.waitForFunction(() => document.body.dataset.phase === 'combat');
    const attack = g.actions.find((a) => a.type === 'attack' && a.unit === 'b-1-foot');
    assert.ok(attack, `b-1-foot may attack: ${JSON.stringify(g.actions)}`);
    const at = (u) => g.view.units.find((x) => x.id === u).hex;
    await page.keyboard.press('Escape');
    await clickHex(page, at(attack.unit));
    await page.locator(`.counter.is-selected[data-unit="${attack.unit}"]`).waitFor();
    await clickHex(page, at(attack.target));
    await waitForN(page, g.n + 1);
    const entry = page.locator('#log .entry[data-type="attack"]').last();
    await entry.waitFor();
    assert.ok((await entry.locator('.die').count()) >= 1, 'the dice rolled');
    const after = await game();
    const last = after.log[after.log.length - 1];
    assert.equal(last.action.type, 'attack');
    assert.ok(last.events.some((e) => e.type === 'roll'));
    await atN(page, after.n);
    const undo = page.locator('#undo');
    assert.ok(await undo.isDisabled(), 'no undo past the dice');
    if (after.to_act && after.to_act.side === 'blue') assert.match(await undo.getAttribute('data-reason'), /dice/);
    await page.mouse.move(5, 300);
    await page.keyboard.press('u');
    const refused = await api(server.base, 'POST', `/api/games/${id}/undo`, { token, body: { expect: after.n } }).catch((e) => e);
    assert.equal(refused.status, 400, String(refused.message));
    assert.equal(refused.data.error.rule, 'undo');
    assert.match(refused.data.error.message, /rolled dice/);
    assert.equal((await game()).n, after.n, 'nothing taken back');
    assert.equal(await counterHex(page, attack.unit) != null, true);
    assert.deepEqual(page.errors, []);
    await watcher.context().close();
  });
});
