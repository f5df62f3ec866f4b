// The panel for a ruleset the client has no module for: counters from `view.units`
// where they have a hex, and every listed action as a button, so that any ruleset the
// server plays can be played to the end here.

import { esc, nice } from './api.js';
import { plain } from './log.js';

let ctx = null;
let g = null;

function label(a) {
  return plain(a).replace(/<[^>]+>/g, '');
}

export default {
  name: 'generic',
  init(c) {
    ctx = c;
    ctx.board.onHexClick = () => {};
    ctx.board.onHexHover = (hex) => ctx.hexInfo(hex ? ctx.board.describeHex(hex) : '');
  },
  update(next) {
    g = next;
    const v = g.view || {};
    ctx.board.setUnits(
      (v.units || []).filter((u) => u.hex).map((u) => ({ id: u.id, side: u.side, hex: u.hex, kind: u.kind || u.class || u.type, top: u.id, values: u.strength ?? u.cs ?? '', facing: u.facing })),
    );
    const acts = ctx.canAct() ? g.actions : [];
    ctx.panel.innerHTML = `<section><h3>Actions</h3>${acts.length ? `<div class="bc-choices">${acts.map((a, i) => `<button data-i="${i}">${esc(label(a))}</button>`).join('')}</div>` : '<div class="muted">Nothing to do now.</div>'}</section>`;
    ctx.panel.querySelectorAll('button[data-i]').forEach((b) => (b.onclick = () => ctx.act(acts[+b.dataset.i])));
  },
  status(next) {
    const v = next.view || {};
    return { turn: v.turn, turns: v.turns, phases: [], phase: v.phase || (next.to_act && next.to_act.kind) };
  },
  counters(v) {
    return (v.units || []).filter((u) => u.hex).map((u) => ({ id: u.id, side: u.side, hex: u.hex, kind: u.kind || u.class, top: u.id, values: '' }));
  },
  describeAction: () => null,
  describeEvent: () => undefined,
  key: () => false,
  nice,
};
