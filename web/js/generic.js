// The panel for a ruleset the client has no module of its own for: counters from
// `view.units` (or `view.pieces`) where they have a hex, with their facing; a click on a
// unit selects it, a click on a hex or an enemy sends the listed action that names them;
// every listed action is also a button. Any ruleset the server plays can so be played
// to the end here, before it gets a panel of its own.

import { esc, nice, reasonsHtml } from './api.js';
import { plain } from './log.js';
import { panelKit } from './panel_kit.js';

let ctx = null;
const kit = panelKit({ draw, click: onClick, hover: (hex) => ctx.hexInfo(hex ? ctx.board.describeHex(hex) : ''), init: (c) => (ctx = c) });

function label(a) {
  return plain(a).replace(/<[^>]+>/g, '');
}

function actions() {
  return kit.actions();
}

/** The listed actions of the selected unit that name this hex, or the unit in it. */
function actionsAt(hex) {
  const here = kit.unitsAt(hex)[0];
  return actions().filter((a) => a.unit === kit.sel && (a.to === hex || a.target === hex || (here && a.target === here.id)));
}

function draw() {
  kit.setCounters((u) => ({
    kind: u.kind || u.class || u.type || 'unit',
    top: String(u.name || u.id).slice(0, 12),
    values: u.health != null ? `${u.health}` : u.figures ?? u.strength ?? u.cs ?? '',
    facing: typeof u.facing_index === 'number' ? u.facing_index : typeof u.facing === 'number' ? u.facing : null,
    tip: `${u.name || u.id} (${u.side})${(u.statuses || []).length ? `: ${u.statuses.join(', ')}` : ''}`,
    marks: { selected: u.id === kit.sel, spent: u.done, demoralised: (u.statuses || []).includes('panicked') },
  }));
  const hl = [];
  for (const a of actions().filter((x) => x.unit === kit.sel)) {
    const hex = a.to || (typeof a.target === 'string' && /^\d+$/.test(a.target) ? a.target : kit.unit(a.target)?.hex);
    if (hex) hl.push({ hex, cls: a.target ? 'attackable' : 'reach' });
  }
  if (!kit.sel) for (const id of new Set(actions().map((a) => a.unit).filter(Boolean))) hl.push({ hex: kit.unit(id)?.hex, cls: 'movable', inset: 0.86 });
  kit.setHighlights(hl);
  const acts = actions().filter((a) => !kit.sel || !a.unit || a.unit === kit.sel);
  const s = kit.unit(kit.sel);
  ctx.panel.innerHTML = `${s ? `<section><h3>Selected<span class="sr-gap">: </span><span class="muted">Esc to deselect</span></h3><b>${esc(s.name || s.id)}</b> <span class="muted">${esc(s.side)}${s.hex ? ` at ${esc(s.hex)}` : ''}</span></section>` : ''}
    <section><h3>Actions<span class="sr-gap">: </span><span class="muted">${acts.length}</span></h3>${acts.length ? `<div class="bc-choices" style="max-height:260px;overflow:auto">${acts.map((a, i) => `<button data-i="${i}">${esc(label(a))}</button>`).join('')}</div>` : '<div class="muted">Nothing to do now.</div>'}</section>`;
  ctx.panel.querySelectorAll('button[data-i]').forEach((b) => (b.onclick = () => ctx.act(acts[+b.dataset.i])));
}

async function onClick(hex) {
  const at = actionsAt(hex);
  if (at.length === 1) return ctx.act(at[0]);
  const here = kit.unitsAt(hex)[0];
  if (here) return kit.select(kit.sel === here.id ? null : here.id);
  if (kit.sel && ctx.canAct()) {
    const a = { ...(actions().find((x) => x.unit === kit.sel && 'to' in x) || { type: 'move', unit: kit.sel }), to: hex };
    const x = await ctx.explain(a).catch((e) => ({ reasons: e.reasons }));
    if (x && !x.legal) return ctx.notice(`<b>${esc(kit.sel)} cannot ${esc(a.type)} to ${esc(hex)}</b>${reasonsHtml(x.reasons)}`);
  }
  kit.select(null);
}

export default kit.module({
  name: 'generic',
  status(next) {
    const v = next.view || {};
    return { turn: v.turn, turns: v.turns, phases: [], phase: v.phase || (next.to_act && next.to_act.kind) };
  },
  describeAction: () => null,
  describeEvent: () => undefined,
  nice,
});
