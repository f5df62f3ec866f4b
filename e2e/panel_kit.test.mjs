// The panel kit (web/js/panel_kit.js) in a real headless Chromium, as the server serves it,
// driven with a stand-in for the game page: answers held back until the test lets them go,
// to pin what its contract promises. A late hover answer (another hex, another selection,
// another view) is never shown; the pointer moving within a hex asks nothing; the server
// is asked once per action and view, and once per unit and view for the reachable hexes;
// the end-phase button says why it is disabled.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { session } from './harness.mjs';

const { server, page, close } = await session();
after(close);

describe('the panel kit', () => {
  before(async () => {
    await page.goto(`${server.base}/`);
    // A panel on the kit, with a page whose server answers only when told to.
    await page.evaluate(async () => {
      const { panelKit, endButton } = await import('/js/panel_kit.js');
      const t = {
        asked: [], // every request the kit made: [kind, what]
        shown: [], // every tooltip shown
        held: [], // requests waiting for their answer: {kind, what, resolve}
        hovers: 0,
        draws: 0,
        endButton,
      };
      const hold = (kind) => (what) =>
        new Promise((resolve) => {
          t.asked.push([kind, kind === 'reachable' ? what : JSON.stringify(what)]);
          t.held.push({ kind, what, resolve });
        });
      const ctx = {
        board: { reveal() {} },
        canAct: () => true,
        preview: hold('preview'),
        explain: hold('explain'),
        reachable: hold('reachable'),
        tip: { show: (html) => t.shown.push(html), hide() {}, move() {} },
      };
      const kit = panelKit({
        draw: () => t.draws++,
        wantsReach: () => true,
        // Like the rulesets' panels: the odds of attacking the unit under the pointer.
        async hover(hex, ev, h) {
          t.hovers++;
          const target = hex && kit.unitAt(hex);
          if (!target || !kit.sel) return h.hide();
          const p = await kit.preview({ type: 'attack', unit: kit.sel, target: target.id });
          h.tip(`${kit.sel} attacks ${target.id}: ${p.odds}`);
          h.show(p);
        },
      });
      const module = kit.module({ name: 'test' });
      const board = ctx.board;
      module.init(ctx);
      const view = (n) => ({
        n,
        seat: 'blue',
        actions: [],
        view: {
          units: [
            { id: 'a', side: 'blue', hex: '0101' },
            { id: 'b', side: 'blue', hex: '0102' },
            { id: 'x', side: 'red', hex: '0201' },
            { id: 'y', side: 'red', hex: '0202' },
          ],
        },
      });
      t.kit = kit;
      t.module = module;
      t.view = view;
      t.hover = (hex) => board.onHexHover(hex, { clientX: 0, clientY: 0 });
      t.answer = (kind, odds) => {
        const i = t.held.findIndex((x) => x.kind === kind);
        if (i < 0) return;
        const [r] = t.held.splice(i, 1);
        r.resolve(kind === 'reachable' ? [{ hex: '0103', cost: 1, path: ['0103'] }] : { odds: odds ?? `${r.what.unit}-${r.what.target}` });
      };
      t.settle = () => new Promise((r) => setTimeout(r, 0));
      // Answers whatever is still held (for earlier steps), then forgets what was asked.
      t.drain = async () => {
        while (t.held.length) t.answer(t.held[0].kind);
        await t.settle();
        t.reset();
      };
      t.reset = () => {
        t.asked.length = 0;
        t.shown.length = 0;
        t.hovers = 0;
      };
      module.update(view(1));
      window.kitTest = t;
    });
  });

  test('a hover answer for a previous selection is never shown', async () => {
    const r = await page.evaluate(async () => {
      const t = window.kitTest;
      t.kit.select('a');
      await t.drain();
      t.hover('0201'); // a's odds against x: asked, held back
      t.kit.select('b'); // the pointer stays on x
      t.answer('preview', 'odds of a');
      await t.settle();
      const before = [...t.shown];
      t.hover('0201'); // the next move within the hex asks again, for b
      t.answer('preview', 'odds of b');
      await t.settle();
      return { before, after: [...t.shown], info: t.kit.info && t.kit.info.odds };
    });
    assert.deepEqual(r.before, [], 'the answer for a came after b was selected: not shown');
    assert.deepEqual(r.after, ['b attacks x: odds of b']);
    assert.equal(r.info, 'odds of b');
  });

  test('a hover answer for a hex the pointer has left is never shown', async () => {
    const r = await page.evaluate(async () => {
      const t = window.kitTest;
      t.module.update(t.view(2));
      t.kit.select('a');
      await t.drain();
      t.hover('0201');
      t.hover('0202');
      t.answer('preview', 'odds on x');
      t.answer('preview', 'odds on y');
      await t.settle();
      return [...t.shown];
    });
    assert.deepEqual(r, ['a attacks y: odds on y']);
  });

  test('an answer asked of an older view is dropped, and the pointer’s hex is asked again of the new one', async () => {
    const r = await page.evaluate(async () => {
      const t = window.kitTest;
      t.module.update(t.view(3));
      t.kit.select('a');
      await t.drain();
      t.hover('0201');
      t.module.update(t.view(4)); // the opponent moved: a new view, the pointer still on x
      const asked = t.asked.filter(([k]) => k === 'preview').length;
      t.answer('preview', 'odds in view 3');
      t.answer('preview', 'odds in view 4');
      await t.settle();
      return { asked, shown: [...t.shown] };
    });
    assert.equal(r.asked, 2, 'asked once of each view');
    assert.deepEqual(r.shown, ['a attacks x: odds in view 4']);
  });

  test('no request storm: moves within a hex ask nothing, a hex asked before is answered from the cache', async () => {
    const r = await page.evaluate(async () => {
      const t = window.kitTest;
      t.reset();
      t.module.update(t.view(5)); // the pointer is on x: asked of the new view
      t.kit.select('a');
      while (t.held.length) t.answer(t.held[0].kind);
      await t.settle();
      t.hovers = 0;
      for (let i = 0; i < 50; i++) t.hover('0201');
      const hovers = t.hovers;
      for (let i = 0; i < 5; i++) {
        t.hover('0202');
        t.hover('0201');
        while (t.held.length) t.answer(t.held[0].kind);
        await t.settle();
      }
      return { hovers, previews: t.asked.filter(([k]) => k === 'preview').map(([, w]) => JSON.parse(w).target) };
    });
    assert.equal(r.hovers, 1, 'the panel is asked once for the hex, not once per pointer move');
    assert.deepEqual(r.previews, ['x', 'y'], 'one preview per action and view');
  });

  test('the reachable hexes are asked once per unit and view, and a new view empties the cache', async () => {
    const r = await page.evaluate(async () => {
      const t = window.kitTest;
      t.kit.select(null);
      t.module.update(t.view(6)); // nothing selected: nothing asked yet of this view
      await t.drain();
      t.kit.select('a');
      t.kit.select('b');
      t.kit.select('a');
      while (t.held.length) t.answer(t.held[0].kind);
      await t.kit.reachLoaded();
      const reach = [...t.kit.reach.keys()];
      const once = t.asked.filter(([k]) => k === 'reachable').map(([, w]) => w);
      t.module.update(t.view(7));
      const emptied = t.kit.reach.size;
      while (t.held.length) t.answer(t.held[0].kind);
      await t.kit.reachLoaded();
      return { once, reach, emptied, again: t.asked.filter(([k]) => k === 'reachable').map(([, w]) => w) };
    });
    assert.deepEqual(r.once, ['a', 'b']);
    assert.deepEqual(r.reach, ['0103']);
    assert.equal(r.emptied, 0, 'nothing of the older view is shown while the new answer is on its way');
    assert.deepEqual(r.again, ['a', 'b', 'a']);
  });

  test('the end-phase button says why it is disabled', async () => {
    const r = await page.evaluate(() => {
      const { endButton } = window.kitTest;
      const rules = { endLabel: () => 'End movement' };
      const name = (s) => ({ red: 'Red army' })[s] || s;
      const g = (actions, extra = {}) => ({ n: 1, seat: 'blue', to_act: { side: 'blue', kind: 'movement' }, actions, ...extra });
      return {
        open: endButton(rules, g([{ type: 'end_phase' }]), true, name),
        theirs: endButton(rules, g([], { to_act: { side: 'red', kind: 'combat' } }), false, name),
        over: endButton(rules, g([], { outcome: { winner: 'red' } }), false, name),
        first: endButton(rules, g([{ type: 'flee', unit: 'a' }, { type: 'flee', unit: 'b' }]), true, name),
      };
    });
    assert.equal(r.open.label, 'End movement');
    assert.deepEqual(r.open.action, { type: 'end_phase' });
    assert.equal(r.theirs.action, null);
    assert.equal(r.theirs.reason, 'Waiting for Red army (combat).');
    assert.equal(r.over.reason, 'The game is over.');
    assert.equal(r.first.reason, 'Not yet: the rules want flee first.');
  });
});
