// Morne Plaine played in a real headless Chromium against the real server: start a game
// against the computer from the lobby, move a unit by a click and hex by hex, read a
// refusal's rule, attack with the odds shown first, see the log, reload, replay; a second
// person's browser sees the move arrive over the WebSocket.

import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { api, clickHex, counterHex, heldTokens, hoverHex, neighbours, newPage, shot, shownN, waitForN, session, startFromLobby } from './harness.mjs';

const SCENARIO = 'bridge-at-morne';
const KEY_OF = ['e', 'd', 's', 'a', 'q', 'w']; // the six directions NE SE S SW NW N

const { server, browser, page, close } = await session();
after(close);
const board = await api(server.base, 'GET', `/api/scenarios/${SCENARIO}/board`);
// Entering marsh rolls a bog test (MP-REF-BOG).
const MARSH = new Set(board.hexes.filter((h) => h.terrain === 'marsh').map((h) => h.label));

describe('Morne Plaine in the browser', () => {
  let gameId;
  let token;

  const game = () => api(server.base, 'GET', `/api/games/${gameId}`, { token });
  const reachable = (unit) => api(server.base, 'GET', `/api/games/${gameId}/reachable?unit=${unit}`, { token });

  test('the lobby lists the scenarios of every ruleset', async () => {
    const scenarios = await api(server.base, 'GET', '/api/scenarios');
    await page.goto(server.base + '/');
    await page.waitForSelector('.scenario-card');
    for (const s of scenarios) {
      const card = page.locator(`.scenario-card[data-scenario="${s.id}"]`);
      await card.waitFor();
      assert.match(await card.innerText(), new RegExp(s.title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
      assert.equal(await page.locator(`.ruleset-group[data-ruleset="${s.ruleset}"]`).count(), 1, `the ${s.ruleset} group`);
    }
    assert.deepEqual(page.errors, []);
  });

  test('a game against the computer starts from the lobby and the board is drawn', async () => {
    const card = page.locator(`.scenario-card[data-scenario="${SCENARIO}"]`);
    await card.locator('select[name=mode]').selectOption('ai');
    await card.locator('select[name=side]').selectOption('blue');
    await card.locator('button[type=submit]').click();
    await page.waitForURL(/\/play\/[^/?]+/);
    await page.waitForSelector('.counter');
    const url = new URL(page.url());
    gameId = url.pathname.split('/').pop();
    // The page takes the token out of the address bar and keeps it in this browser.
    assert.equal(url.searchParams.get('token'), null, 'no token left in the address bar');
    token = await page.evaluate((id) => JSON.parse(localStorage.getItem('grognard.tokens'))[id].blue, gameId);
    assert.match(token, /^[0-9a-f]{32}$/);
    await page.waitForFunction(() => document.body.dataset.toAct === 'blue', null, { timeout: 30_000 });
    const g = await game();
    assert.equal(g.seat, 'blue');
    const onMap = g.view.units.filter((u) => u.hex);
    assert.equal(await page.locator('.counter').count(), onMap.length, 'a counter per unit on the map');
    for (const u of onMap) assert.equal(await counterHex(page, u.id), u.hex);
    assert.equal(await page.locator('.hit').count(), board.hexes.length, 'every hex');
    for (const t of new Set(board.hexes.map((h) => h.terrain))) {
      const fill = await page.locator(`.terrain[data-terrain="${t}"]`).first().getAttribute('fill');
      assert.equal(fill, board.palette.terrain[t], `${t} painted from the engine’s palette`);
    }
    assert.ok((await page.locator('.hexside.feature-river').count()) > 10, 'the river is drawn on the hexsides');
    assert.ok((await page.locator('.hexside.feature-bridge').count()) >= 1, 'the bridges');
    assert.equal(await page.locator('.path-road').count(), board.paths.filter((p) => p.kind === 'road').length, 'the roads');
    assert.ok((await page.locator('.place-name').count()) >= 5, 'the place names');
    assert.match(await page.locator('#phasebar').innerText(), /Turn 1/);
  });

  test('a unit moves to a clicked hex, step by step along the engine’s path', async () => {
    if ((await page.locator('body').getAttribute('data-phase')) === 'bombardment') {
      const n = await shownN(page);
      await page.keyboard.press('Enter');
      await waitForN(page, n + 1);
    }
    await page.waitForFunction(() => document.body.dataset.phase === 'movement');
    const g = await game();
    // A unit with a long way open: the farthest hex it can reach without stopping, by a
    // dry way: a marsh on the way rolls a bog test that may halt the unit short of the
    // hex (MP-REF-BOG; the walk into a marsh has its own test below).
    let pick = null;
    for (const id of [...new Set(g.actions.filter((a) => a.type === 'move').map((a) => a.unit))]) {
      const r = (await reachable(id)).filter((x) => !x.stop && x.path.length >= 2 && !x.path.some((h) => MARSH.has(h)));
      const best = r.sort((a, b) => b.path.length - a.path.length)[0];
      if (best && (!pick || best.path.length > pick.to.path.length)) pick = { id, to: best, all: await reachable(id) };
    }
    assert.ok(pick, 'some unit can move two hexes');
    const from = g.view.units.find((u) => u.id === pick.id).hex;
    await clickHex(page, from);
    await page.locator(`.counter.is-selected[data-unit="${pick.id}"]`).waitFor();
    await page.waitForFunction((k) => document.querySelectorAll('.hl.reach, .hl.reach-stop').length === k, pick.all.length);
    assert.equal(await page.locator('.rose .rose-btn').count(), 6, 'the movement rose on the unit');
    await hoverHex(page, pick.to.hex);
    await page.locator('.tooltip:not([hidden])').waitFor();
    assert.match(await page.locator('.tooltip').innerText(), new RegExp(`${pick.to.hex}: ${pick.to.cost} MP`));
    await shot(page, 'morne-plaine.png');
    const n = await shownN(page);
    await clickHex(page, pick.to.hex);
    await waitForN(page, n + pick.to.path.length);
    await page.waitForFunction(([u, h]) => document.querySelector(`.counter[data-unit="${u}"]`)?.dataset.hex === h, [pick.id, pick.to.hex]);
    const after = await game();
    assert.equal(after.view.units.find((u) => u.id === pick.id).hex, pick.to.hex);
    const entries = page.locator('.log .entry[data-type="move"]');
    assert.ok((await entries.count()) >= pick.to.path.length, 'each step is in the log');
    assert.match(await entries.last().innerText(), new RegExp(`${after.view.units.find((u) => u.id === pick.id).name}[\\s\\S]*${pick.to.hex}`), 'the unit by its name');
    // The counter keeps its printed values (strength, morale, allowance), not the points left.
    const moved = after.view.units.find((u) => u.id === pick.id);
    assert.ok(moved.mp < moved.ma, 'the move spent points');
    const printed = moved.class === 'leader' ? `${moved.cs}-${moved.ma}` : `${moved.cs}-${moved.mv}-${moved.ma}`;
    assert.equal(await page.locator(`.counter[data-unit="${pick.id}"] .counter-values`).textContent(), printed);
  });

  test('hovering a hex a unit cannot enter shows the reason with its rule ID', async () => {
    const g = await game();
    // A blue unit and a neighbouring hex the rules refuse, as the engine explains it.
    let found = null;
    for (const u of g.view.units.filter((x) => x.side === 'blue' && x.hex && g.actions.some((a) => a.unit === x.id))) {
      for (const hex of neighbours(board, u.hex)) {
        if (!hex || g.view.units.some((x) => x.hex === hex)) continue;
        const x = await api(server.base, 'POST', `/api/games/${gameId}/explain`, { token, body: { action: { type: 'move', unit: u.id, to: hex } } });
        if (!x.legal && /^MP-/.test(x.reasons[0].rule)) {
          found = { unit: u, hex, rule: x.reasons[0].rule };
          break;
        }
      }
      if (found) break;
    }
    assert.ok(found, 'a refused step somewhere on the board');
    await page.keyboard.press('Escape');
    await clickHex(page, found.unit.hex);
    await page.locator(`.counter.is-selected[data-unit="${found.unit.id}"]`).waitFor();
    await hoverHex(page, found.hex);
    const tip = page.locator('.tooltip.refused:not([hidden])');
    await tip.waitFor();
    assert.match(await tip.innerText(), new RegExp(found.rule));
    await clickHex(page, found.hex);
    const box = page.locator('#refusal:not([hidden])');
    await box.waitFor();
    assert.match(await box.innerText(), new RegExp(found.rule));
    assert.equal((await game()).n, g.n, 'nothing changed');
  });

  test('the keyboard and the rose step a unit hex by hex; Esc deselects', async () => {
    const g = await game();
    // A unit alone in its hex: a click on a stack selects the counter on top.
    const hexOfUnit = (id) => g.view.units.find((u) => u.id === id).hex;
    const moves = g.actions.filter((a) => a.type === 'move' && g.view.units.filter((u) => u.hex === hexOfUnit(a.unit)).length === 1);
    assert.ok(moves.length >= 1, 'a step is open');
    const step = moves[0];
    const from = g.view.units.find((u) => u.id === step.unit).hex;
    const d = neighbours(board, from).indexOf(step.to);
    await page.keyboard.press('Escape');
    // The refusal of the test before may still show over the foot of the board, where a
    // click would close it instead of selecting: close it first, as a player would.
    const notice = page.locator('#refusal:not([hidden]) .close');
    if (await notice.count()) await notice.click();
    await clickHex(page, from);
    await page.locator(`.counter.is-selected[data-unit="${step.unit}"]`).waitFor();
    await page.mouse.move(5, 300);
    await page.keyboard.press(KEY_OF[d]);
    await waitForN(page, g.n + 1);
    assert.equal(await counterHex(page, step.unit), step.to);
    // Then with the rose in the sidebar, if the unit can go on.
    const g2 = await game();
    const next = g2.actions.find((a) => a.type === 'move' && a.unit === step.unit);
    if (next) {
      const d2 = neighbours(board, step.to).indexOf(next.to);
      await page.locator(`#side-rose button[data-dir="${d2}"]`).click();
      await waitForN(page, g2.n + 1);
      assert.equal(await counterHex(page, step.unit), next.to);
    }
    await page.keyboard.press('Escape');
    assert.equal(await page.locator('.counter.is-selected').count(), 0);
  });

  test('a second browser sees the move arrive over the WebSocket', async () => {
    const watcher = await newPage(browser);
    await watcher.goto(`${server.base}/play/${gameId}`);
    await watcher.waitForSelector('.counter');
    await watcher.locator('#ws-dot.on').waitFor();
    assert.equal(await watcher.locator('body').getAttribute('data-seat'), 'spectator');
    assert.ok(await watcher.locator('#end-phase').isDisabled(), 'a spectator cannot end the phase');
    const g = await game();
    const step = g.actions.find((a) => a.type === 'move');
    assert.ok(step, 'a step is open');
    const from = g.view.units.find((u) => u.id === step.unit).hex;
    await page.keyboard.press('Escape');
    await clickHex(page, from);
    await page.locator(`.counter.is-selected[data-unit="${step.unit}"]`).waitFor();
    await clickHex(page, step.to);
    await waitForN(page, g.n + 1);
    await watcher.waitForFunction(([u, h]) => document.querySelector(`.counter[data-unit="${u}"]`)?.dataset.hex === h, [step.unit, step.to], { timeout: 10_000 });
    await waitForN(watcher, g.n + 1);
    assert.deepEqual(watcher.errors, []);
    await watcher.context().close();
  });

  test('an attack shows the odds and each result’s chance before the dice, then the result in the log', async () => {
    // A hotseat game brought by the API to blue's second turn with a unit over the bridge,
    // in contact with the orange line: orange steps back from the bridge, blue crosses.
    // Its seed is chosen, so its dice are the same every run: a seed is taken only for a
    // hotseat game (one token plays every seat) or computer seats.
    const made = await api(server.base, 'POST', '/api/games', { body: { scenario: SCENARIO, seed: 7, hotseat: true, seats: { blue: 'human', orange: 'human' } } });
    const tok = { blue: made.seats.blue.token, orange: made.seats.orange.token };
    const id = made.id;
    const as = async (side) => api(server.base, 'GET', `/api/games/${id}`, { token: tok[side] });
    const act = async (side, action) => {
      const g = await as(side);
      return api(server.base, 'POST', `/api/games/${id}/actions`, { token: tok[side], body: { action, expect: g.n } });
    };
    const endUntil = async (side, phase) => {
      for (let i = 0; i < 12; i++) {
        const g = await as(side);
        if (g.to_act.side === side && g.view.phase === phase) return;
        const who = g.to_act.side;
        await act(who, { type: 'end_phase' });
      }
      assert.fail(`never reached ${side}'s ${phase} phase`);
    };
    await endUntil('orange', 'movement');
    await act('orange', { type: 'move', unit: 'o-2-line', to: '0808' });
    await endUntil('blue', 'movement');
    await act('blue', { type: 'move', unit: 'b-1-foot', to: '0809' });
    await page.goto(server.base + '/');
    await page.evaluate(([g, t]) => localStorage.setItem('grognard.tokens', JSON.stringify({ ...JSON.parse(localStorage.getItem('grognard.tokens') || '{}'), [g]: t })), [id, tok]);
    await page.goto(`${server.base}/play/${id}?token=${tok.blue}`);
    await page.waitForSelector('.counter');
    assert.equal(await counterHex(page, 'b-1-foot'), '0809');
    let g = await as('blue');
    await page.locator('#end-phase').click();
    await waitForN(page, g.n + 1);
    await page.waitForFunction(() => document.body.dataset.phase === 'combat');
    g = await as('blue');
    const attack = g.actions.find((a) => a.type === 'attack' && a.unit === 'b-1-foot');
    assert.ok(attack, `b-1-foot may attack: ${JSON.stringify(g.actions)}`);
    const preview = await api(server.base, 'POST', `/api/games/${id}/preview`, { token: tok.blue, body: { action: attack } });
    const at = (u) => g.view.units.find((x) => x.id === u).hex;
    await clickHex(page, at(attack.unit));
    await page.locator(`.counter.is-selected[data-unit="${attack.unit}"]`).waitFor();
    assert.ok((await page.locator('.hl.attackable').count()) >= 1, 'the enemies it may attack are outlined');
    await hoverHex(page, at(attack.target));
    const odds = page.locator('.tooltip:not([hidden]) .odds');
    await odds.waitFor();
    assert.equal(await odds.innerText(), preview.inputs.odds, 'the odds beside the cursor');
    assert.equal(await page.locator('.tooltip .prob-table tr').count(), preview.outcomes.length, 'one line per result');
    assert.match(await page.locator('.tooltip').innerText(), /%/);
    await page.locator('.combat-panel').waitFor();
    assert.equal(await page.locator(`.counter.is-target[data-unit="${attack.target}"]`).count(), 1, 'the defender marked');
    for (const s of [...(preview.inputs.supports || []), ...(preview.inputs.defence_supports || [])]) {
      assert.equal(await page.locator(`.counter.is-support[data-unit="${s}"]`).count(), 1, `support ${s} marked`);
    }
    await shot(page, 'morne-plaine-combat.png');
    await clickHex(page, at(attack.target));
    await waitForN(page, g.n + 1);
    const entry = page.locator('.log .entry[data-type="attack"]').last();
    await entry.waitFor();
    const text = await entry.innerText();
    const named = (id) => g.view.units.find((u) => u.id === id).name;
    assert.match(text, new RegExp(`${named(attack.unit)}[\\s\\S]*attacks[\\s\\S]*${named(attack.target)}`), 'the units by their names');
    assert.doesNotMatch(text, new RegExp(`${attack.unit}|${attack.target}`), 'no bare id');
    assert.ok((await entry.locator('.die').count()) >= 1, 'the die shown');
    assert.match(text, /MP-CMB-\d+/, 'with the rule IDs');
    assert.match(text, new RegExp(preview.inputs.odds.replace('.', '\\.')));
    await page.locator('#refusal.info:not([hidden])').waitFor();
    // Back to the game against the computer for what follows.
    await page.goto(`${server.base}/play/${gameId}?token=${token}`);
    await page.waitForSelector('.counter');
  });

  test('a walk along the engine’s path that sticks in a marsh stops there and says why in words', async () => {
    // A hotseat game with a chosen seed, so its dice are the same every run: on blue's
    // first move General Ashcombe's way to 1510 must cross the marsh at 1410, and the bog
    // test there rolls a 2 (a leader is stuck on 1 or 2 of a d4, MP-REF-BOG).
    const made = await api(server.base, 'POST', '/api/games', { body: { scenario: SCENARIO, seed: 1, hotseat: true, seats: { blue: 'human', orange: 'human' } } });
    const tok = { blue: made.seats.blue.token, orange: made.seats.orange.token };
    const id = made.id;
    const as = () => api(server.base, 'GET', `/api/games/${id}`, { token: tok.blue });
    let g = await as();
    while (g.view.phase !== 'movement') {
      await api(server.base, 'POST', `/api/games/${id}/actions`, { token: tok.blue, body: { action: { type: 'end_phase' }, expect: g.n } });
      g = await as();
    }
    const unit = 'b-ashcombe';
    const to = (await api(server.base, 'GET', `/api/games/${id}/reachable?unit=${unit}`, { token: tok.blue })).find((r) => r.hex === '1510');
    assert.ok(to, `${unit} can reach 1510`);
    const bog = to.path.findIndex((h) => MARSH.has(h));
    assert.ok(bog >= 0 && bog < to.path.length - 1, `the way crosses a marsh before its end: ${to.path}`);
    await page.goto(server.base + '/');
    await page.evaluate(([gid, t]) => localStorage.setItem('grognard.tokens', JSON.stringify({ ...JSON.parse(localStorage.getItem('grognard.tokens') || '{}'), [gid]: t })), [id, tok]);
    await page.goto(`${server.base}/play/${id}?token=${tok.blue}`);
    await waitForN(page, g.n);
    await clickHex(page, g.view.units.find((u) => u.id === unit).hex);
    await page.locator(`.counter.is-selected[data-unit="${unit}"]`).waitFor();
    await page.locator('.hl.reach, .hl.reach-stop').first().waitFor();
    await clickHex(page, to.hex);
    // The walk halts on the marsh and says so: the rule, the roll, and the hex not reached.
    const box = page.locator('#refusal.info:not([hidden])');
    await page.waitForFunction(() => /MP-REF-BOG/.test(document.querySelector('#refusal.info:not([hidden])')?.innerText || ''));
    const text = await box.innerText();
    assert.match(text, new RegExp(`General Ashcombe halts at ${to.path[bog]}: stuck in the marsh at ${to.path[bog]} \\(rolled \\d on a d4\\)`));
    assert.match(text, new RegExp(`${to.hex} is not reached: ${to.path.length - 1 - bog} steps? of the way not taken`));
    const after = await as();
    assert.equal(after.n, g.n + bog + 1, 'each step to the marsh taken, none after');
    assert.equal(await shownN(page), after.n);
    assert.equal(after.view.units.find((u) => u.id === unit).hex, to.path[bog]);
    assert.equal(await counterHex(page, unit), to.path[bog]);
    assert.ok(!after.actions.some((a) => a.type === 'move' && a.unit === unit), 'stuck: no step left for it');
    // Back to the game against the computer for what follows.
    await page.goto(`${server.base}/play/${gameId}?token=${token}`);
    await page.waitForSelector('.counter');
  });

  test('a combat phase with no attack open passes with a word: each enemy across the river and its rule', async () => {
    // Issue 15: the orange unit on the bridge (0809) may be attacked over the bridge from
    // 0810, never across the river from 0710 or 0910 (MP-CMB-5). With 0810 left empty,
    // blue's combat phase has no attack and passes by itself (MP-TURN-2): the page says why.
    const made = await api(server.base, 'POST', '/api/games', { body: { scenario: SCENARIO, seed: 7, hotseat: true, seats: { blue: 'human', orange: 'human' } } });
    const tok = { blue: made.seats.blue.token, orange: made.seats.orange.token };
    const id = made.id;
    const as = () => api(server.base, 'GET', `/api/games/${id}`, { token: tok.blue });
    const act = async (action) => api(server.base, 'POST', `/api/games/${id}/actions`, { token: tok.blue, body: { action, expect: (await as()).n } });
    while ((await as()).view.phase !== 'movement') await act({ type: 'end_phase' });
    await act({ type: 'move', unit: 'b-1-foot', to: '0911' });
    const g = await as();
    await page.goto(server.base + '/');
    await page.evaluate(([gid, t]) => localStorage.setItem('grognard.tokens', JSON.stringify({ ...JSON.parse(localStorage.getItem('grognard.tokens') || '{}'), [gid]: t })), [id, tok]);
    await page.goto(`${server.base}/play/${id}?token=${tok.blue}`);
    await waitForN(page, g.n);
    await page.locator('#end-phase').click();
    await waitForN(page, g.n + 1);
    const after = await as();
    const passed = after.log.at(-1).events.find((e) => e.type === 'phase_passed' && e.phase === 'combat');
    assert.ok(passed, `blue's combat phase passed: ${JSON.stringify(after.log.at(-1).events)}`);
    assert.deepEqual(passed.refused.map((r) => `${r.unit}>${r.target} ${r.reasons[0].rule}`), ['b-2-foot>o-2-line MP-CMB-5', 'b-2-foot>o-3-light MP-CMB-5', 'b-3-foot>o-2-line MP-CMB-5', 'b-rifles>o-3-light MP-CMB-5']);
    // The notice says it at once, in words, with the rules.
    const box = page.locator('#refusal.info:not([hidden])');
    await box.waitFor();
    const text = await box.innerText();
    assert.match(text, /The combat phase of Blue corps passes by itself: no unit of Blue corps may attack an enemy next to it/);
    assert.match(text, /MP-TURN-2/);
    assert.match(text, /3rd Foot\s+cannot attack\s+2nd Line[\s\S]*MP-CMB-5[\s\S]*across a river or a major river but at a bridge or a ford/);
    // And the log keeps it.
    const line = page.locator('.log .ev[data-type="phase_passed"]', { hasText: 'combat phase of Blue corps' }).last();
    await line.waitFor();
    assert.match(await line.innerText(), /combat phase of Blue corps passes by itself[\s\S]*Rifles\s+cannot attack\s+3rd Light[\s\S]*MP-CMB-5/);
    // Back to the game against the computer for what follows.
    await page.goto(`${server.base}/play/${gameId}?token=${token}`);
    await page.waitForSelector('.counter');
  });

  test('a reload finds the game as it was', async () => {
    const before = await page.$$eval('.counter', (cs) => cs.map((c) => `${c.dataset.unit}@${c.dataset.hex}`).sort());
    const n = await shownN(page);
    const entries = await page.locator('.log .entry').count();
    await page.reload();
    await page.waitForSelector('.counter');
    await waitForN(page, n);
    assert.equal(await shownN(page), n);
    const after = await page.$$eval('.counter', (cs) => cs.map((c) => `${c.dataset.unit}@${c.dataset.hex}`).sort());
    assert.deepEqual(after, before);
    assert.equal(await page.locator('.log .entry').count(), entries);
    assert.equal(await page.locator('body').getAttribute('data-seat'), 'blue', 'still blue’s seat');
    assert.ok(!(await page.locator('#end-phase').isDisabled()), 'and blue may act');
  });

  test('the replay viewer steps through the game and shows the score at every step', async () => {
    const replay = await api(server.base, 'GET', `/api/games/${gameId}/replay`, { token });
    const rp = await newPage(browser);
    await rp.goto(`${server.base}/replay/${gameId}`);
    await rp.waitForFunction(() => document.body.dataset.at === '0');
    assert.equal(await rp.locator('.log .entry').count(), replay.log.length);
    const firstMove = replay.log.find((e) => e.action.type === 'move');
    // The score header at each step says what the game object of that step counts.
    const scoreAt = async (k) => {
      const frame = await api(server.base, 'GET', `/api/games/${gameId}/replay?at=${k}`, { token });
      const said = await rp.locator('#score').innerText();
      for (const s of board.sides) {
        const t = frame.view.score[s.id];
        assert.ok(said.includes(`${s.name} ${t.have}${t.need != null ? ` (needs ${t.need})` : ''}`), `step ${k}: the score names ${s.name} with ${t.have}: ${said}`);
      }
      const left = frame.view.turns_left;
      if (frame.outcome) assert.match(said, /game over/, `step ${k}: ${said}`);
      else if (left != null) assert.ok(said.includes(left === 1 ? 'last turn' : `${left} turns left`), `step ${k}: ${left} turns left: ${said}`);
      assert.equal(await rp.locator('.layer-holders .holder').count(), frame.view.objectives.length, `step ${k}: a flag on each objective`);
    };
    await scoreAt(0);
    for (let k = 1; k <= firstMove.n; k++) {
      await rp.keyboard.press('ArrowRight');
      await rp.waitForFunction((x) => document.body.dataset.at === String(x), k);
      await scoreAt(k);
    }
    await rp.waitForFunction(([u, h]) => document.querySelector(`.counter[data-unit="${u}"]`)?.dataset.hex === h, [firstMove.action.unit, firstMove.action.to]);
    await rp.keyboard.press('End');
    await rp.waitForFunction((x) => document.body.dataset.at === String(x), replay.log.length);
    await scoreAt(replay.log.length);
    const g = await game();
    for (const u of g.view.units.filter((x) => x.hex)) assert.equal(await counterHex(rp, u.id), u.hex, `${u.id} at the end`);
    assert.deepEqual(rp.errors, []);
    await rp.context().close();
  });

  test('an invitation link seats a friend in another browser, who sees the moves arrive', async () => {
    const host = await newPage(browser);
    await host.goto(server.base + '/');
    const card = host.locator(`.scenario-card[data-scenario="${SCENARIO}"]`);
    await card.locator('select[name=mode]').selectOption('invite');
    await card.locator('select[name=side]').selectOption('blue');
    await card.locator('button[type=submit]').click();
    const link = await card.locator('.invite-link').inputValue();
    assert.match(link, /\/play\/[^/?]+\?token=/);
    const friend = await newPage(browser);
    await friend.goto(link);
    await friend.waitForSelector('.counter');
    assert.equal(await friend.locator('body').getAttribute('data-seat'), 'orange');
    await friend.locator('#ws-dot.on').waitFor();
    await card.locator('a.go').click();
    await host.waitForURL(/\/play\//);
    await host.waitForSelector('.counter');
    await host.waitForFunction(() => document.body.dataset.seat === 'blue' && document.body.dataset.toAct === 'blue');
    assert.ok(await friend.locator('#end-phase').isDisabled(), 'not orange’s turn');
    const n = await shownN(host);
    await host.keyboard.press('Enter');
    await waitForN(host, n + 1);
    await waitForN(friend, n + 1);
    assert.equal(await friend.locator('body').getAttribute('data-phase'), await host.locator('body').getAttribute('data-phase'));
    await friend.reload();
    await friend.waitForSelector('.counter');
    assert.equal(await friend.locator('body').getAttribute('data-seat'), 'orange', 'the friend keeps the seat after a reload');
    assert.deepEqual([...host.errors, ...friend.errors], []);
    await host.context().close();
    await friend.context().close();
  });

  test('the lobby lists the game in progress as this browser’s, first, with the sides by name', async () => {
    // A newer game that is not this browser's: the server lists it first, the lobby after ours.
    const sc = (await api(server.base, 'GET', '/api/scenarios')).find((x) => x.id === SCENARIO);
    await api(server.base, 'POST', '/api/games', { body: { scenario: SCENARIO, seats: Object.fromEntries(sc.sides.map((x) => [x.id, 'human'])) } });
    await page.goto(server.base + '/');
    const item = page.locator(`#games li[data-game="${gameId}"]`);
    await item.waitFor();
    assert.match(await item.innerText(), /The Bridge at Morne/);
    assert.match(await item.getAttribute('class'), /mine/);
    const order = await page.locator('#games li').evaluateAll((els) => els.map((e) => e.classList.contains('mine')));
    assert.ok(order[0] && order.indexOf(false) > 0 && order.slice(order.indexOf(false)).every((m) => !m), `this browser’s games come first: ${order}`);
    await page.waitForFunction(([id, name]) => document.querySelector(`#games li[data-game="${id}"]`).innerText.includes(name), [gameId, sc.sides[0].name]);
    assert.doesNotMatch(await item.innerText(), new RegExp(`\\b${sc.sides[0].id} vs`), 'sides by name, not id');
    await shot(page, 'lobby.png');
    await item.locator('a').first().click();
    await page.waitForURL(new RegExp(`/play/${gameId}`));
    await page.waitForSelector('.counter');
    assert.deepEqual(page.errors, []);
  });

  test('hotseat to the end: the lobby creates a "hotseat": true game, one token acts for each side, End phase to the last turn, the game-over screen and its replay', async () => {
    const id = await startFromLobby(page, server.base, SCENARIO, 'hotseat');
    const held = await heldTokens(page, id);
    assert.deepEqual(Object.keys(held).sort(), ['blue', 'orange']);
    assert.equal(held.blue, held.orange, 'one token for every seat');
    const made = await api(server.base, 'GET', `/api/games/${id}`, { token: held.blue });
    assert.equal(made.hotseat, true, 'the server made a hotseat game');
    assert.equal(made.seat, made.to_act.side, 'its token is the side to act');
    const sides = new Set();
    for (let i = 0; i < 400; i++) {
      await page.waitForFunction(() => document.body.dataset.over === 'yes' || document.body.dataset.seat === document.body.dataset.toAct);
      if ((await page.locator('body').getAttribute('data-over')) === 'yes') break;
      sides.add(await page.locator('body').getAttribute('data-seat'));
      const n = await shownN(page);
      await page.locator('#end-phase').click();
      await waitForN(page, n + 1);
    }
    assert.deepEqual([...sides].sort(), ['blue', 'orange'], 'each side acted with its own token');
    await page.locator('#gameover:not([hidden])').waitFor();
    assert.match(await page.locator('#go-reason').innerText(), /MP-VIC/);
    const g = await api(server.base, 'GET', `/api/games/${id}`);
    assert.ok(g.outcome, 'the server says the game is over');
    assert.equal(g.view.turn, g.view.turns, 'on the last turn');
    await page.locator('#go-replay').click();
    await page.waitForURL(new RegExp(`/replay/${id}`));
    await page.waitForFunction(() => document.body.dataset.at === '0');
    await page.keyboard.press('End');
    await page.waitForFunction((n) => document.body.dataset.at === String(n), g.n);
    assert.match(await page.locator('#outcome').innerText(), /won|draw/i);
    assert.deepEqual(page.errors, []);
  });
});
