// The headings read as words (issue 15), in a real headless Chromium against the real server.
// A flex heading drops the space between its items from the layout, so a screen reader, a
// copy or a reader that does not break lines between flex items read "LOG263 ACTIONS" and
// "MISSILETURN 1/8". Each heading carries a separator in its text that the eye does not see.

import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { api, session } from './harness.mjs';

const { server, page, scenario, close } = await session({ ruleset: 'skirmish' });
after(close);

/**
 * The text of an element as a reader that joins flex items without a break reads it: each
 * rendered text node in order, its spaces collapsed, trimmed where it is an item of a flex or
 * grid container (the layout drops those spaces), in capitals where the CSS says so.
 */
function flatText(el) {
  const walk = (node) => {
    if (node.nodeType === Node.TEXT_NODE) {
      const parent = node.parentElement;
      const style = getComputedStyle(parent);
      let t = node.data.replace(/\s+/g, ' ');
      if (/flex|grid/.test(style.display)) t = t.trim();
      return style.textTransform === 'uppercase' ? t.toUpperCase() : t;
    }
    if (node.nodeType !== Node.ELEMENT_NODE || getComputedStyle(node).display === 'none') return '';
    return [...node.childNodes].map(walk).join('');
  };
  return walk(el);
}

describe('headings read as words', () => {
  test('the top bar, the Log heading and the skirmish status heading keep a separator between their items', async (t) => {
    if (!scenario) return t.skip('no skirmish scenario is built in');
    const seats = Object.fromEntries(scenario.sides.map((s) => [s.id, 'human']));
    const made = await api(server.base, 'POST', '/api/games', { body: { scenario: scenario.id, seats, hotseat: true } });
    const token = Object.values(made.seats)[0].token;
    await page.goto(`${server.base}/play/${made.id}?token=${token}`);
    await page.waitForSelector('#phasebar .phase.current');
    await page.waitForFunction(() => /\d/.test(document.getElementById('log-count').textContent));
    const read = (sel) => page.$eval(sel, (e, src) => ({ inner: e.innerText, flat: new Function(`return (${src})`)()(e) }), flatText.toString());

    const bar = await read('#phasebar');
    for (const [how, text] of Object.entries(bar)) {
      assert.match(text, /Turn 1 \/ \d+\W+Missile\W+Movement\W+Melee/i, `the turn and each phase apart (${how}): ${JSON.stringify(text)}`);
      assert.doesNotMatch(text, /\d(Missile|Movement|Melee)|(Missile|Movement|Melee)(Movement|Melee)/i, `no phase glued (${how})`);
    }
    const log = await read('.log-section h3');
    for (const [how, text] of Object.entries(log)) {
      assert.match(text, /^Log\W+\d+ actions$/i, `"Log" and the count apart (${how}): ${JSON.stringify(text)}`);
    }
    const status = await read('#ruleset-panel section h3');
    for (const [how, text] of Object.entries(status)) {
      assert.match(text, /^Missile\W+turn 1\/\d+/i, `the phase and "turn" apart (${how}): ${JSON.stringify(text)}`);
    }
    // Every heading of the sidebar: no word of the heading glued to the item beside it.
    const heads = await page.$$eval('.sidebar h3', (es, src) => es.map((e) => new Function(`return (${src})`)()(e)), flatText.toString());
    for (const h of heads) assert.doesNotMatch(h, /[A-Z][0-9]|[a-z][A-Z]/, `a heading reads as words: ${JSON.stringify(h)}`);
    assert.deepEqual(page.errors, [], 'no error in the page');
  });
});
