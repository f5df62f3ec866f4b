// The panels of issue 15 in a real headless Chromium against the real server: Morne
// Plaine's odds table names the die faces of each result; JOMINI's odds of an attack in
// words on hover, and why an attack is refused on hover and click; skirmish's charge odds;
// two characters in one hex both seen and each selectable; the terrain drawn for what it
// is, the same marks as `grognard show --svg`, with a key.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { api, clickHex, hoverHex, ROOT, seekPosition, session } from './harness.mjs';

const { server, page, close } = await session();
after(close);

const scenarios = await api(server.base, 'GET', '/api/scenarios');
const of = (ruleset) => scenarios.find((s) => s.ruleset === ruleset);
const units = (g) => g.view.pieces || g.view.units || [];
const hexOf = (g, id) => units(g).find((u) => u.id === id)?.hex;
const preview = (found, action) => api(server.base, 'POST', `/api/games/${found.id}/preview`, { token: found.token, body: { action } });

/**
 * As `seekPosition`, but `want(g)` may ask the server (it answers a promise of what it
 * found, or null): hotseat games with fixed seeds played by seeded random picks.
 */
async function seekRolling(scenario, want, { seeds = 8, actions = 300 } = {}) {
  const seats = Object.fromEntries(scenario.sides.map((s) => [s.id, 'human']));
  for (let seed = 1; seed <= seeds; seed++) {
    const created = await api(server.base, 'POST', '/api/games', { body: { scenario: scenario.id, seats, hotseat: true, seed } });
    const token = Object.values(created.seats)[0].token;
    let pick = (seed * 2654435761) >>> 0;
    for (let i = 0; i < actions; i++) {
      const g = await api(server.base, 'GET', `/api/games/${created.id}`, { token });
      if (g.outcome) break;
      const step = await want({ ...g, token });
      if (step) {
        await page.goto(`${server.base}/play/${created.id}?token=${token}`);
        await page.waitForFunction((n) => Number(document.body.dataset.n) === n, g.n);
        return { id: created.id, token, g, step };
      }
      pick = (pick * 1103515245 + 12345) >>> 0;
      const ends = g.actions.filter((a) => a.type === 'end_phase' || a.type === 'pass');
      const a = ends.length && pick % 7 === 0 ? ends[0] : g.actions[(pick >>> 8) % g.actions.length];
      await api(server.base, 'POST', `/api/games/${created.id}/actions`, { token, body: { action: a, expect: g.n } });
    }
  }
  return null;
}

/** Clicks the middle of a unit's counter (two counters may share a hex). */
async function clickCounter(unit) {
  const box = await page.locator(`.counter[data-unit="${unit}"]`).boundingBox();
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
}

/** Selects `unit` by clicking its hex (or its counter when others share the hex). */
async function select(g, unit) {
  // A charger under way is selected already (its next step is the page's question).
  if (await page.locator(`.counter.is-selected[data-unit="${unit}"]`).count()) return;
  await page.keyboard.press('Escape');
  const alone = units(g).filter((u) => u.hex === hexOf(g, unit)).length === 1;
  if (alone) await clickHex(page, hexOf(g, unit));
  else await clickCounter(unit);
  await page.locator(`.counter.is-selected[data-unit="${unit}"]`).waitFor({ timeout: 5000 });
}

describe('the panels of issue 15', () => {
  test('Morne Plaine: the odds table shows the die faces of each result (MP-CMB-29, bug 16)', async () => {
    const found = await seekPosition(page, server.base, of('morne_plaine'), (g) => g.view.phase === 'combat' && g.actions.some((a) => a.type === 'attack'));
    assert.ok(found, 'a combat phase with an attack');
    const attack = found.g.actions.find((a) => a.type === 'attack');
    const p = await preview(found, attack);
    await select(found.g, attack.unit);
    await hoverHex(page, hexOf(found.g, attack.target));
    const cells = page.locator('.tooltip:not([hidden]) .prob-table td.faces');
    await cells.first().waitFor();
    assert.equal(await cells.count(), p.outcomes.length, 'a die cell on every line');
    const shown = (await cells.evaluateAll((tds) => tds.map((td) => td.dataset.faces))).sort();
    assert.deepEqual(shown, p.outcomes.map((o) => o.result.dice.join(',')).sort(), 'the faces the rules give');
    const all = shown.flatMap((s) => s.split(',').map(Number)).sort((a, b) => a - b);
    assert.deepEqual(all, [1, 2, 3, 4, 5, 6], 'every face once');
    // A run of three faces or more reads "3-5", not "die 3".
    for (const o of p.outcomes.filter((x) => x.result.dice.length >= 3)) {
      const d = o.result.dice;
      if (d[d.length - 1] - d[0] === d.length - 1) {
        assert.match(await page.locator(`.tooltip td.faces[data-faces="${d.join(',')}"]`).innerText(), new RegExp(`${d[0]}-${d[d.length - 1]}`));
      }
    }
    assert.deepEqual(page.errors, []);
  });

  test('JOMINI: the odds of an attack in words on hover, and why not on hover and click', async () => {
    const found = await seekPosition(page, server.base, of('jomini'), (g) => g.view.phase === 'combat' && g.actions.some((a) => a.type === 'attack'));
    assert.ok(found, 'a combat phase with an attack');
    const g = found.g;
    const attack = g.actions.find((a) => a.type === 'attack' && units(g).filter((u) => u.hex === hexOf(g, a.unit)).length === 1) || g.actions.find((a) => a.type === 'attack');
    const p = await preview(found, attack);
    await select(g, attack.unit);
    await hoverHex(page, hexOf(g, attack.target));
    const tip = page.locator('.tooltip:not([hidden]) .jo-odds');
    await tip.waitFor();
    assert.equal(await tip.locator('.prob-table tr:not(.muted)').count(), Math.min(8, p.outcomes.length), 'the most likely results beside the cursor');
    assert.equal(await page.locator('.combat-panel .jo-odds-panel .prob-table tr').count(), p.outcomes.length, 'every result beside the map');
    assert.match(await tip.locator('.jo-chances').innerText(), /(certain|likely|even chance|unlikely|a long shot)/, 'the chances in words');
    assert.match(await tip.innerText(), /\d+\/\d+/, 'with the exact fractions');
    assert.match(await tip.innerText(), /JO-DIE-1/, 'and the rule behind the dice');
    await page.locator('.combat-panel .jo-odds-panel').waitFor();
    // An enemy the selected unit may not attack: the rules' reason on hover, then on click.
    const me = units(g).find((u) => u.id === attack.unit);
    const targets = new Set(g.actions.filter((a) => a.type === 'attack' && a.unit === attack.unit).map((a) => a.target));
    const other = units(g).find((u) => u.hex && u.side !== me.side && !targets.has(u.id) && !units(g).some((x) => x.hex === u.hex && targets.has(x.id)));
    assert.ok(other, 'an enemy it may not attack');
    await hoverHex(page, other.hex);
    const refused = page.locator('.tooltip.refused:not([hidden])');
    await refused.waitFor();
    assert.match(await refused.innerText(), /cannot attack/);
    assert.ok((await refused.locator('.rule').count()) >= 1, 'with the rule that refuses it');
    await clickHex(page, other.hex);
    const notice = page.locator('#refusal:not([hidden])');
    await notice.waitFor();
    assert.match(await notice.innerText(), /cannot attack[\s\S]*JO-/);
    assert.deepEqual(page.errors, []);
  });

  test('skirmish: a charge shows its odds, on declaring (the strike at its end) and on the step that reaches the target', async () => {
    const sk = of('skirmish');
    const found = await seekPosition(page, server.base, sk, (g) => g.actions.some((a) => a.type === 'charge'));
    assert.ok(found, 'a charge is listed');
    const charge = found.g.actions.find((a) => a.type === 'charge');
    await select(found.g, charge.unit);
    await hoverHex(page, hexOf(found.g, charge.target));
    const tip = page.locator('.tooltip:not([hidden]) .sk-charge-odds');
    await tip.waitFor();
    assert.match(await tip.innerText(), /SK-CHG-10/, 'the strike at the end of the charge');
    // Declared out of reach, the charge rolls nothing yet: the rules' preview of the
    // declaration gives the odds of the strike at its end, shown in words on hover and
    // beside the charge under way once it is declared.
    const declaration = await preview(found, charge);
    assert.ok(declaration.outcomes.length > 0, 'the preview of a declaration gives the odds of its strike');
    const said = await tip.innerText();
    if (declaration.inputs.strike_from) assert.ok(said.includes(`the strike at its end, from ${declaration.inputs.strike_from}`), `the strike at its end: ${said}`);
    assert.match(said, /is hit: [a-z ]+ \(\d+(\.\d)?%\)/, `the chance of a hit in words: ${said}`);
    assert.match(said, /is put out of action: [a-z ]+ \(\d+(\.\d)?%\)/, `the chance of putting out of action in words: ${said}`);
    assert.equal(await tip.locator('.prob-table tr').count(), Math.min(8, declaration.outcomes.length), 'the strike’s results at declaring');
    assert.doesNotMatch(said, /\{"/, 'no data');
    if (declaration.inputs.strike_from) {
      await clickHex(page, hexOf(found.g, charge.target));
      const kept = page.locator('#sk-charge #sk-declared-odds');
      await kept.waitFor();
      const words = await kept.innerText();
      assert.match(words, /the strike at its end/);
      assert.match(words, /is hit: [a-z ]+ \(\d+(\.\d)?%\)/, `the odds kept beside the charge under way: ${words}`);
    }
    // A charge under way whose next step reaches the target: the strike's odds on that step.
    const rolling = async (g) => {
      const c = g.view.charge;
      if (!c || !c.current) return null;
      for (const a of g.actions.filter((x) => x.type === 'move' && x.unit === c.current)) {
        const made = await api(server.base, 'POST', `/api/games/${g.id}/preview`, { token: g.token, body: { action: a } }).catch(() => null);
        if (made && made.outcomes && made.outcomes.length) return { a, p: made };
      }
      return null;
    };
    // A charge under way whose next step reaches the target, found by seeded play.
    const under = await seekRolling(sk, rolling);
    assert.ok(under, 'a charge under way with a step that reaches its target');
    const step = under.step;
    await select(under.g, under.g.view.charge.current);
    await hoverHex(page, step.a.to);
    await tip.waitFor();
    assert.equal(await tip.locator('.prob-table tr').count(), Math.min(8, step.p.outcomes.length), 'the strike’s results');
    // The page asks whether a charge or a charge step rolls with `empty_if_no_dice`, so a
    // step that strikes nothing answers an empty distribution: no request fails.
    const errors = [...page.errors];
    page.errors.length = 0;
    assert.deepEqual(errors, []);
  });

  test('skirmish: two characters in one hex are both seen and each selectable', async () => {
    const stacked = (g) => {
      const hs = units(g).filter((u) => u.hex && !(u.statuses || []).includes('out_of_action')).map((u) => u.hex);
      return new Set(hs).size < hs.length;
    };
    const found = await seekPosition(page, server.base, of('skirmish'), stacked);
    assert.ok(found, 'two characters in one hex');
    const g = found.g;
    const inPlay = units(g).filter((u) => u.hex && !(u.statuses || []).includes('out_of_action'));
    const hex = inPlay.map((u) => u.hex).find((h, i, all) => all.indexOf(h) !== i);
    const two = inPlay.filter((u) => u.hex === hex);
    const bodies = two.map((u) => page.locator(`.counter[data-unit="${u.id}"] .counter-body`));
    for (const b of bodies) await b.waitFor();
    const boxes = await Promise.all(bodies.map((b) => b.boundingBox()));
    const [a, b] = boxes;
    const overlapX = Math.max(0, Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x));
    const overlapY = Math.max(0, Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y));
    assert.ok(overlapX * overlapY < 0.1 * a.width * a.height, `both counters seen whole: ${JSON.stringify(boxes)}`);
    for (const u of two) {
      await page.keyboard.press('Escape');
      await clickCounter(u.id);
      await page.locator(`.counter.is-selected[data-unit="${u.id}"]`).waitFor({ timeout: 5000 });
    }
    const roster = page.locator('#sk-roster button[data-pick]');
    assert.equal(await roster.count(), two.length, 'each in the sidebar');
    await page.locator(`#sk-roster button[data-pick="${two[0].id}"]`).click();
    await page.locator(`.counter.is-selected[data-unit="${two[0].id}"]`).waitFor({ timeout: 5000 });
    assert.deepEqual(page.errors, []);
  });

  test('terrain: every hex drawn for what it is, with the marks of grognard show --svg, and a key', async () => {
    const bin = process.env.GROGNARD_BIN || path.join(ROOT, 'target', 'debug', 'grognard');
    for (const s of scenarios) {
      const seats = Object.fromEntries(s.sides.map((x) => [x.id, 'human']));
      const made = await api(server.base, 'POST', '/api/games', { body: { scenario: s.id, seats, hotseat: true } });
      await page.goto(`${server.base}/play/${made.id}?token=${Object.values(made.seats)[0].token}`);
      await page.waitForSelector('.counter');
      const drawn = await page.locator('.terrain').evaluateAll((ps) => ps.map((p) => [p.dataset.hex, p.dataset.terrain, p.dataset.mark, p.getAttribute('fill')]));
      for (const [hex, terrain, mark, fill] of drawn) {
        assert.ok(mark, `${s.id} ${hex}: ${terrain} has a mark`);
        assert.match(fill, /^#/, `${s.id} ${hex}: ${terrain} has a colour of the palette, not a hashed one`);
      }
      const svg = spawnSync(bin, ['show', '--svg', '-', s.id], { encoding: 'utf8' });
      assert.equal(svg.status, 0, svg.stderr);
      const marks = new Map([...svg.stdout.matchAll(/class="hex" data-hex="(\w+)" data-terrain="[^"]*" data-mark="(\w*)"/g)].map((m) => [m[1], m[2]]));
      assert.equal(marks.size, drawn.length, `${s.id}: the SVG draws every hex`);
      for (const [hex, , mark] of drawn) assert.equal(mark, marks.get(hex), `${s.id} ${hex}: the same mark as the SVG`);
      const terrains = new Set(drawn.map((d) => d[1]));
      const key = page.locator('#terrain-key');
      await key.locator('summary').click();
      assert.equal(await key.locator('li').count(), terrains.size, `${s.id}: the key names every terrain of the map`);
      assert.equal(await key.locator('li[data-mark=""]').count(), 0);
    }
    assert.deepEqual(page.errors, []);
  });
});
