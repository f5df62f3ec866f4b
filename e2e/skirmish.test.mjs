// Futile Kingdoms skirmish played hotseat in a real headless Chromium against the real
// server: a shot in the missile phase with its odds on hover, facing drawn on every
// character and turned with the keyboard, movement costs from GET .../reachable, a step that
// opens the passive side's reaction window, a short move answered in the prompt, a pass, and
// the phases ended; reaction fire from the window prompt; the Maneuver in the melee phase.

import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { api, gameOfSideToAct, heldTokens, clickHex, hoverHex, seekPosition, shot, waitForN, session, startFromLobby } from './harness.mjs';

const { server, page, scenario, close } = await session({ ruleset: 'skirmish' });
after(close);

describe('Futile Kingdoms skirmish in the browser', () => {
  let gameId;

  const seen = () => gameOfSideToAct(page, server.base, gameId);
  const unitOf = (g, id) => g.view.units.find((u) => u.id === id);
  const alone = (g, id) => g.view.units.filter((u) => u.hex === unitOf(g, id).hex).length === 1;

  test('the missile phase: a shooter selected, the odds on hover, the shot, the log in words', async (t) => {
    if (!scenario) return t.skip('no skirmish scenario is built in');
    gameId = await startFromLobby(page, server.base, scenario.id, 'hotseat');
    await page.waitForFunction(() => document.body.dataset.phase === 'missile');
    assert.equal(await page.locator('#phasebar .phase.current').getAttribute('data-phase'), 'missile', 'the header lists the missile phase, current');
    let g = await seen();
    const shoot = g.actions.find((a) => a.type === 'shoot');
    assert.ok(shoot, `a shot is listed: ${JSON.stringify(g.actions).slice(0, 300)}`);
    const token = (await heldTokens(page, gameId))[g.to_act.side];
    const preview = await api(server.base, 'POST', `/api/games/${gameId}/preview`, { token, body: { action: shoot } });
    await clickHex(page, unitOf(g, shoot.unit).hex);
    await page.locator(`.counter.is-selected[data-unit="${shoot.unit}"]`).waitFor();
    await page.locator('#sk-shoot-hint').waitFor();
    assert.match(await page.locator('#sk-shoot-hint').innerText(), /SK-MIS-1/, 'the rule badge');
    assert.equal(await page.locator(`.counter.is-target[data-unit="${shoot.target}"]`).count(), 1, 'the target ringed');
    await hoverHex(page, unitOf(g, shoot.target).hex);
    const odds = page.locator('.tooltip:not([hidden]) .sk-odds');
    await odds.waitFor();
    const tip = await odds.innerText();
    assert.match(tip, /shoots at/);
    assert.match(tip, /SK-MIS-3/);
    assert.equal(await page.locator('.tooltip .sk-odds tr').count(), preview.outcomes.length, 'one line per result');
    assert.doesNotMatch(tip, /[{}]/, 'the results in words, no JSON');
    assert.match(tip, /no effect|damage/);
    await shot(page, 'skirmish-missile.png');
    await clickHex(page, unitOf(g, shoot.target).hex);
    await waitForN(page, g.n + 1);
    const entry = page.locator('.log .entry[data-type="shoot"]').last();
    await entry.waitFor();
    const text = await entry.innerText();
    assert.match(text, /shoots at/);
    assert.match(text, /a hit|a miss/);
    assert.match(text, /SK-MIS-1/);
    assert.doesNotMatch(text, /[{}]/, 'the log in words, no JSON');
    assert.ok((await entry.locator('.die').count()) >= 1, 'the die shown');
    // End the missile phase.
    g = await seen();
    await page.keyboard.press('Escape');
    await page.keyboard.press('Enter');
    await waitForN(page, g.n + 1);
    await page.waitForFunction(() => document.body.dataset.phase === 'movement');
    assert.deepEqual(page.errors, []);
  });

  test('a hotseat turn: facing by keyboard, costs, a step, the reaction prompt, end phases', async (t) => {
    if (!gameId) return t.skip('no game from the test before');
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
  /**
   * A new hotseat game brought by the API to blue's movement phase, where Hrolf steps to
   * 0803: with Idwal left at home, red's Tam has him in sight and may answer the step with
   * his sling; with Idwal walked up the middle to 0804, Hrolf is Engaged beside him. No die
   * is rolled on the way, so any seed leads there.
   */
  async function toHrolfStep({ idwal }) {
    const created = await api(server.base, 'POST', '/api/games', { body: { scenario: scenario.id, seats: { red: 'human', blue: 'human' } } });
    const id = created.id;
    const tok = { red: created.seats.red.token, blue: created.seats.blue.token };
    const game = async () => {
      const any = await api(server.base, 'GET', `/api/games/${id}`, { token: tok.red });
      return any.to_act && any.to_act.side !== 'red' ? api(server.base, 'GET', `/api/games/${id}`, { token: tok[any.to_act.side] }) : any;
    };
    const act = async (action) => {
      const g = await game();
      return api(server.base, 'POST', `/api/games/${id}/actions`, { token: tok[g.to_act.side], body: { action, expect: g.n } });
    };
    await act({ type: 'end_phase' });
    for (const to of idwal ? ['0808', '0807', '0806', '0805', '0804'] : []) {
      await act({ type: 'move', unit: 'r-idwal', to });
      if ((await game()).to_act.reaction) await act({ type: 'pass' });
    }
    for (let i = 0; i < 8; i++) {
      const g = await game();
      if (g.view.active === 'blue' && g.view.phase === 'movement') break;
      await act({ type: 'end_phase' });
    }
    await act({ type: 'move', unit: 'b-hrolf', to: '0803' });
    await page.goto(server.base + '/');
    await page.evaluate(([g, t]) => localStorage.setItem('grognard.tokens', JSON.stringify({ ...JSON.parse(localStorage.getItem('grognard.tokens') || '{}'), [g]: t })), [id, tok]);
    return { id, tok, game, act };
  }

  test('reaction fire from the window prompt, with its chance to hit, and the log in words', async (t) => {
    if (!scenario || scenario.id !== 'broken-cairn') return t.skip('the broken-cairn scenario is not built in');
    const { id, tok, game } = await toHrolfStep({ idwal: false });
    let g = await game();
    const fire = g.actions.find((a) => a.type === 'shoot' && a.unit === 'r-tam');
    assert.ok(g.to_act.reaction && fire, `Tam may answer with reaction fire: ${JSON.stringify(g.actions).slice(0, 300)}`);
    await page.goto(`${server.base}/play/${id}?token=${tok.red}`);
    await page.locator('#sk-prompt').waitFor();
    assert.match(await page.locator('#sk-prompt').innerText(), /SK-MIS-4/, 'the rule badge');
    const button = page.locator('#sk-prompt button[data-fire]');
    assert.equal(await button.count(), 1);
    await page.waitForFunction(() => /% to hit/.test(document.querySelector('[data-fire-odds]')?.textContent || ''));
    await shot(page, 'skirmish-reaction-fire.png');
    await button.click();
    await waitForN(page, g.n + 1);
    const entry = page.locator('.log .entry[data-type="shoot"]').last();
    await entry.waitFor();
    const text = await entry.innerText();
    assert.match(text, /reaction fire/);
    assert.match(text, /SK-MIS-4/);
    assert.doesNotMatch(text, /[{}]/);
    g = await game();
    assert.equal(g.view.units.find((u) => u.id === 'r-tam').actions.quick, false, 'the Quick Action is spent');
    assert.deepEqual(page.errors, []);
  });

  test('the Maneuver: an Engaged character clicks a lit hex in the melee phase', async (t) => {
    if (!scenario || scenario.id !== 'broken-cairn') return t.skip('the broken-cairn scenario is not built in');
    const { id, tok, game, act } = await toHrolfStep({ idwal: true });
    for (let i = 0; i < 8; i++) {
      const g = await game();
      if (g.view.active === 'blue' && g.view.phase === 'melee') break;
      await act({ type: g.to_act.reaction ? 'pass' : 'end_phase' });
    }
    let g = await game();
    const man = g.actions.find((a) => a.type === 'maneuver' && a.unit === 'b-hrolf');
    assert.ok(man, `Hrolf may manoeuvre: ${JSON.stringify(g.actions).slice(0, 300)}`);
    await page.goto(`${server.base}/play/${id}?token=${tok.blue}`);
    await page.waitForFunction(() => document.body.dataset.phase === 'melee');
    await clickHex(page, unitOf(g, 'b-hrolf').hex);
    await page.locator('.counter.is-selected[data-unit="b-hrolf"]').waitFor();
    await page.locator('#sk-maneuver-hint').waitFor();
    assert.match(await page.locator('#sk-maneuver-hint').innerText(), /SK-SHM-4/);
    for (const a of g.actions.filter((x) => x.type === 'maneuver' && x.unit === 'b-hrolf')) {
      assert.equal(await page.locator(`.hl.reach[data-hex="${a.to}"]`).count(), 1, `${a.to} is lit`);
    }
    await clickHex(page, man.to);
    await waitForN(page, g.n + 1);
    g = await game();
    assert.equal(unitOf(g, 'b-hrolf').hex, man.to, 'Hrolf manoeuvred');
    const entry = page.locator('.log .entry[data-type="maneuver"]').last();
    await entry.waitFor();
    assert.match(await entry.innerText(), /manoeuvres to/);
    assert.deepEqual(page.errors, []);
  });

  test('a panicked character: the End button is greyed and says it must flee first', async (t) => {
    if (!scenario || scenario.id !== 'broken-cairn') return t.skip('the broken-cairn scenario is not built in');
    const at = await seekPosition(page, server.base, scenario, (g) => !g.to_act.reaction && g.view.phase === 'movement' && !g.actions.some((a) => a.type === 'end_phase') && g.actions.some((a) => (unitOf(g, a.unit)?.statuses || []).includes('panicked')));
    assert.ok(at, 'a fixed seed leads to a panicked character in its movement phase');
    const panicked = at.g.actions.map((a) => unitOf(at.g, a.unit)).find((u) => u && (u.statuses || []).includes('panicked'));
    assert.ok(await page.locator('#end-phase').isDisabled(), 'the phase cannot end yet');
    const reason = await page.locator('#end-reason').innerText();
    assert.match(reason, /panicked and must flee/);
    assert.match(reason, /SK-STA-2/);
    assert.ok(reason.includes(panicked.name), `the reason names ${panicked.name}: ${reason}`);
    assert.deepEqual(page.errors, []);
  });

  test('a charge: the charger stays selected from one step to the next', async (t) => {
    if (!scenario || scenario.id !== 'broken-cairn') return t.skip('the broken-cairn scenario is not built in');
    const at = await seekPosition(page, server.base, scenario, (g) => !g.to_act.reaction && g.view.charge && g.view.charge.current && g.actions.filter((a) => a.type === 'move' && a.unit === g.view.charge.current).length > 0);
    assert.ok(at, 'a fixed seed leads to a charge under way');
    const charger = at.g.view.charge.current;
    await page.locator(`.counter.is-selected[data-unit="${charger}"]`).waitFor();
    const step = at.g.actions.find((a) => a.type === 'move' && a.unit === charger);
    await clickHex(page, step.to);
    await waitForN(page, at.g.n + 1);
    const g = await api(server.base, 'GET', `/api/games/${at.id}`, { token: at.token });
    if (g.view.charge && g.view.charge.current === charger && !g.to_act.reaction) {
      await page.locator(`.counter.is-selected[data-unit="${charger}"]`).waitFor();
    }
    assert.equal(unitOf(g, charger).hex, step.to, 'the charger stepped');
    // The page asks whether a charge or a charge step rolls with `empty_if_no_dice`, so a
    // step that strikes nothing answers an empty distribution: no request fails.
    const errors = [...page.errors];
    page.errors.length = 0;
    assert.deepEqual(errors, []);
  });

  test('a reaction window with nothing but a pass is passed by itself; a player may pass for the rest of the phase', async (t) => {
    if (!scenario || scenario.id !== 'broken-cairn') return t.skip('the broken-cairn scenario is not built in');
    const at = await seekPosition(page, server.base, scenario, (g) => g.to_act.reaction && g.actions.length === 1 && g.actions[0].type === 'pass');
    assert.ok(at, 'a fixed seed leads to a window with nothing but a pass');
    await waitForN(page, at.g.n + 1);
    const after = await api(server.base, 'GET', `/api/games/${at.id}/replay`, { token: at.token });
    assert.equal(after.log[at.g.n].action.type, 'pass', 'the page passed by itself');
    const choice = await seekPosition(page, server.base, scenario, (g) => g.to_act.reaction && g.actions.some((a) => a.type !== 'pass'));
    assert.ok(choice, 'a fixed seed leads to a window with a choice');
    await page.locator('#sk-pass-phase').click();
    await waitForN(page, choice.g.n + 1);
    const then = await api(server.base, 'GET', `/api/games/${choice.id}/replay`, { token: choice.token });
    assert.equal(then.log[choice.g.n].action.type, 'pass');
    assert.deepEqual(page.errors, []);
  });
});

