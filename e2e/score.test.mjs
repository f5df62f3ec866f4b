// The score and the prompt line in every ruleset (issue 19 item 3, issue 15): the top bar
// says the score in words with the sides' names, the map marks who holds each objective
// with a tooltip in words, and the prompt line at the top of the sidebar says what this
// seat must do, or whose turn it is for a spectator; all of it on a phone's screen too.

import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { api, hoverHex, shot, startBrowser, startServer } from './harness.mjs';

const server = await startServer();
const browser = await startBrowser();
after(async () => {
  await browser.close();
  await server.stop();
});

/** Text a player must never read: JSON, a bare object, a missing value, a snake_case name. */
const DATA = /[{}]|\[object|\bundefined\b|\bNaN\b|\bnull\b|\b[a-z]+_[a-z_]+\b/;

/** Fails when `text` shows data or a side's id (ids are lower case; names are not). */
function words(what, text, scenario) {
  assert.ok(text && text.trim(), `${what} is empty`);
  assert.ok(!DATA.test(text), `${what} shows data: ${text}`);
  for (const s of scenario.sides) assert.ok(!new RegExp(`\\b${s.id}\\b`).test(text), `${what} shows the id ${s.id}: ${text}`);
}

async function open(url, viewport) {
  const context = await browser.newContext({ viewport, ...(viewport.width < 500 ? { isMobile: true, hasTouch: true } : {}) });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && !/status of 4\d\d/.test(m.text()) && errors.push(m.text()));
  await page.goto(url);
  await page.waitForSelector('.counter');
  await page.waitForFunction(() => document.getElementById('score').textContent.trim() && document.getElementById('prompt').textContent.trim());
  return { context, page, errors };
}

describe('the score and the prompt line', () => {
  for (const ruleset of ['morne_plaine', 'battle_cry', 'jomini', 'skirmish']) {
    test(`${ruleset}: the score in the top bar, the objectives' holders and the prompt line in words`, async () => {
      const scenario = (await api(server.base, 'GET', '/api/scenarios')).find((s) => s.ruleset === ruleset);
      const seats = Object.fromEntries(scenario.sides.map((s) => [s.id, 'human']));
      const made = await api(server.base, 'POST', '/api/games', { body: { scenario: scenario.id, seats, hotseat: true } });
      const token = Object.values(made.seats)[0].token;
      const g = await api(server.base, 'GET', `/api/games/${made.id}`, { token });
      const { context, page, errors } = await open(`${server.base}/play/${made.id}?token=${token}`, { width: 1366, height: 768 });

      // The score: each side by name with what it has, as the view counts it.
      const score = await page.locator('#score').innerText();
      words('the score', score, scenario);
      for (const s of scenario.sides) {
        const t = g.view.score[s.id];
        assert.ok(score.includes(`${s.name} ${t.have}`), `the score names ${s.name} with ${t.have}: ${score}`);
        if (t.need != null) assert.ok(score.includes(`(needs ${t.need})`), `the score says what ${s.name} needs: ${score}`);
      }
      if (g.view.turns_left != null) assert.match(score, /turns? left|last turn/);
      const bar = await page.locator('#score').boundingBox();
      const top = await page.locator('.topbar').boundingBox();
      assert.ok(bar && bar.width > 100 && bar.y >= top.y && bar.y + bar.height <= top.y + top.height, `the score is in the top bar: ${JSON.stringify([bar, top])}`);
      const end = await page.locator('#end-phase').boundingBox();
      assert.ok(end.x + end.width <= 1366 && end.y + end.height <= top.y + top.height, `the End button is on the screen: ${JSON.stringify(end)}`);

      // The prompt line: what this seat (the hotseat holds both) must do now.
      const prompt = await page.locator('#prompt').innerText();
      words('the prompt line', prompt, scenario);
      assert.match(prompt, /^Your move, /);
      const endDisabled = await page.locator('#end-phase').isDisabled();
      if (endDisabled) assert.ok(prompt.includes(await page.locator('#end-phase').getAttribute('data-reason')), `the prompt says why End is disabled: ${prompt}`);
      else assert.ok(prompt.includes(await page.locator('#end-phase').innerText()), `the prompt names the End button: ${prompt}`);

      // Each objective of the view is marked on its hex, with its holder in words.
      const objectives = g.view.objectives;
      const markers = page.locator('.layer-holders .holder');
      assert.equal(await markers.count(), objectives.length);
      if (ruleset === 'morne_plaine' || ruleset === 'jomini') assert.ok(objectives.length > 0, 'the scenario has objectives');
      const label = (o) => `held by ${o.holder ? scenario.sides.find((s) => s.id === o.holder).name : 'nobody'}, worth ${o.value}`;
      for (const [i, o] of objectives.entries()) {
        const m = markers.nth(i);
        assert.equal(await m.getAttribute('data-hex'), o.hex);
        const said = await m.getAttribute('aria-label');
        words('an objective marker', said, scenario);
        assert.equal(said, `${o.name || `Hex ${o.hex}`}: ${label(o)}`);
      }
      if (objectives.length) {
        const held = objectives.findIndex((o) => o.holder);
        const i = held >= 0 ? held : 0;
        await markers.nth(i).hover();
        await page.waitForFunction(() => !document.getElementById('tooltip').hidden);
        const tip = await page.locator('#tooltip').innerText();
        assert.equal(tip, await markers.nth(i).getAttribute('aria-label'));
        if (held >= 0) assert.equal(await markers.nth(i).locator('.holder-flag').getAttribute('fill'), await page.evaluate((s) => import('/js/api.js').then((m) => m.sideColour(s)), objectives[i].holder));
        await page.mouse.move(5, 700);
        // The word on the hex beside the map says it too.
        await hoverHex(page, objectives[i].hex);
        await page.waitForFunction((said) => document.getElementById('hexinfo').textContent.includes(said), label(objectives[i]));
      }
      await shot(page, `score-${ruleset}.png`);
      assert.deepEqual(errors, []);
      await context.close();

      // A spectator on a phone: the score stays in the bar at the top, and the prompt
      // line says whose turn it is and what they are doing.
      const phone = await open(`${server.base}/play/${made.id}`, { width: 390, height: 844 });
      const small = await phone.page.locator('#score').boundingBox();
      assert.ok(small && small.x >= 0 && small.x + small.width <= 390 && small.y >= 0 && small.y + small.height <= 200, `the score is on the phone's screen: ${JSON.stringify(small)}`);
      const phoneScore = await phone.page.locator('#score').innerText();
      words('the score on a phone', phoneScore, scenario);
      await phone.page.locator('#log').scrollIntoViewIfNeeded();
      const scrolled = await phone.page.locator('#score').boundingBox();
      assert.ok(scrolled.y >= 0 && scrolled.y + scrolled.height <= 844, 'the score stays on the screen when scrolled');
      const watching = await phone.page.locator('#prompt').innerText();
      words('the spectator prompt', watching, scenario);
      const toAct = scenario.sides.find((s) => s.id === g.to_act.side).name;
      assert.ok(watching.startsWith(`${toAct} is `) && watching.endsWith('you are watching.'), watching);
      assert.deepEqual(phone.errors, []);
      await phone.context.close();
    });
  }
});
