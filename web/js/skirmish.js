// The Futile Kingdoms skirmish panel: each character's facing drawn on its counter and
// turned with [ and ] (or the panel's buttons) when a face action is listed; the cost of
// every reachable hex (GET .../reachable, which follows facing); one step per click, each
// step opening the passive side's reaction window, answered here with the listed short
// moves and attacks of opportunity or a pass; charges declared on a target; melee attacks
// with their odds on hover (POST .../preview).

import { esc, nice } from './api.js';
import { plain } from './log.js';
import { panelKit } from './panel_kit.js';

let ctx = null;
let together = false;
let evasive = false;
// The selection lasts while the character has a listed action.
const kit = panelKit({ draw, click: onClick, hover: onHover, keep: (id) => kit.actions().some((a) => a.unit === id), onView, wantsReach, init: (c) => (ctx = c) });

// The order of facing_index (0 = ne ... 5 = n) on the flat-topped map.
const DIRS = ['ne', 'se', 's', 'sw', 'nw', 'n'];

const view = () => kit.view();
const units = () => kit.units();
const unit = (id) => kit.unit(id);
const actions = () => kit.actions();
const inWindow = () => !!(kit.g && kit.g.to_act && kit.g.to_act.reaction);

function label(a) {
  return plain(a).replace(/<[^>]+>/g, '');
}

function endAction(game) {
  const acts = (game && game.actions) || [];
  return acts.find((a) => a.type === 'pass') || acts.find((a) => a.type === 'end_phase') || null;
}

function endLabel(game) {
  const a = endAction(game);
  return a && a.type === 'pass' ? 'Pass' : 'End phase';
}

/** The listed action that turns `u` to `dir` (a face, or in a reaction window a short move on the spot). */
function faceAction(u, dir) {
  return actions().find((a) => a.unit === u.id && ((a.type === 'face' && a.facing === dir) || (a.type === 'short_move' && a.to === u.hex && a.facing === dir)));
}

/** The costs of the hexes a character can reach (GET .../reachable follows facing), while it may step. */
function wantsReach(u) {
  return ctx.canAct() && !inWindow() && actions().some((a) => a.type === 'move' && a.unit === u.id);
}

function draw() {
  const acts = actions();
  const v = view();
  const w = v.window;
  const targets = new Set(acts.filter((a) => a.unit === kit.sel && (a.type === 'charge' || a.type === 'attack' || a.type === 'opportunity')).map((a) => a.target));
  kit.setCounters((u) => ({
    kind: 'character',
    top: String(u.name || u.id).split(' ').pop().slice(0, 11),
    values: `${Math.max(0, (u.health ?? 0) - (u.damage ?? 0))}`,
    facing: typeof u.facing_index === 'number' ? u.facing_index : DIRS.indexOf(u.facing),
    tip: `${u.name || u.id} (${u.side}), facing ${u.facing}; health ${u.health}, damage ${u.damage}, ${u.mp} MP${(u.statuses || []).length ? `; ${u.statuses.join(', ')}` : ''}`,
    marks: {
      selected: u.id === kit.sel,
      spent: u.done,
      target: targets.has(u.id),
      demoralised: (u.statuses || []).includes('panicked'),
      'active-pick': w && (w.reactors || w.eligible || []).includes(u.id),
    },
  }));
  const hl = [];
  if (kit.sel) {
    const steps = acts.filter((a) => a.unit === kit.sel && a.type === 'move' && !!a.evasive === evasive);
    const stepHexes = new Set(steps.map((a) => a.to));
    if (kit.reachAnswered && !inWindow()) {
      for (const r of kit.reach.values()) hl.push({ hex: r.hex, cls: stepHexes.has(r.hex) ? 'reach' : r.stop ? 'reach-stop' : 'reach far', text: `${r.cost}`, inset: stepHexes.has(r.hex) ? 0.94 : 0.8 });
    }
    for (const h of stepHexes) if (!hl.some((x) => x.hex === h)) hl.push({ hex: h, cls: 'reach' });
    const shorts = new Set(acts.filter((a) => a.unit === kit.sel && a.type === 'short_move').map((a) => a.to));
    for (const h of shorts) hl.push({ hex: h, cls: 'reach', text: h === unit(kit.sel)?.hex ? 'turn' : 'short' });
    for (const t of targets) hl.push({ hex: unit(t)?.hex, cls: 'attackable' });
  } else {
    for (const id of new Set(acts.map((a) => a.unit).filter(Boolean))) hl.push({ hex: unit(id)?.hex, cls: 'movable', inset: 0.86 });
  }
  if (v.moving && unit(v.moving)) hl.push({ hex: unit(v.moving).hex, cls: 'target', inset: 0.98 });
  kit.setHighlights(hl);
  panel();
}

function panel() {
  const v = view();
  const acts = actions();
  const w = v.window;
  const s = kit.sel && unit(kit.sel);
  let prompt = '';
  if (w && inWindow() && ctx.canAct()) {
    const mover = unit(w.unit);
    const opp = acts.filter((a) => a.type === 'opportunity');
    const reactors = [...new Set(acts.filter((a) => a.type === 'short_move').map((a) => a.unit))];
    prompt = `<section class="sk-prompt" id="sk-prompt"><h3>${esc(ctx.sideName(kit.g.to_act.side))}: ${w.kind === 'opportunity' ? 'attack of opportunity?' : 'react?'}</h3>
      <div>${esc(mover ? mover.name : w.unit)} ${w.kind === 'opportunity' ? 'is leaving your zone of control' : `has moved to ${esc(w.at || mover?.hex || '')}`}.</div>
      ${opp.length ? `<div class="bc-choices">${opp.map((a, i) => `<button class="sk-opp" data-opp="${i}">${esc(unit(a.unit)?.name || a.unit)} strikes</button>`).join('')}</div>` : ''}
      ${reactors.length ? `<div>Short move: click a reactor, then a lit hex (<kbd>[</kbd> <kbd>]</kbd> turn on the spot).</div><div class="bc-choices">${reactors.map((id) => `<button class="sk-react ${id === kit.sel ? 'on' : ''}" data-reactor="${esc(id)}">${esc(unit(id)?.name || id)}</button>`).join('')}</div>` : ''}
      <div class="bc-choices"><button id="sk-pass" class="primary">Pass</button></div></section>`;
  } else if (w && inWindow()) {
    prompt = `<section class="sk-prompt"><h3>${esc(ctx.sideName(kit.g.to_act.side))} may react</h3><div class="muted">waiting for the passive side…</div></section>`;
  }
  let selHtml = '';
  if (s) {
    const faces = DIRS.map((d) => ({ d, a: faceAction(s, d) }));
    const mine = acts.filter((a) => a.unit === kit.sel && ['defend', 'flee'].includes(a.type));
    const charges = acts.filter((a) => a.unit === kit.sel && a.type === 'charge');
    selHtml = `<section><h3>${esc(s.name || s.id)} <span class="muted">Esc to deselect</span></h3>
      <div class="muted">${esc(nice(s.formation || ''))} · facing <b id="sk-facing">${esc(s.facing)}</b> · ${s.mp} MP left · health ${s.health - s.damage}/${s.health} · ${esc(s.weapon?.name || '')}</div>
      ${faces.some((f) => f.a) ? `<div>Face: <span class="bc-choices sk-faces">${faces.map((f) => `<button data-face="${f.d}" ${f.a ? '' : 'disabled'} class="${f.d === s.facing ? 'on' : ''}">${f.d.toUpperCase()}</button>`).join('')}</span> <span class="muted"><kbd>[</kbd> <kbd>]</kbd></span></div>` : ''}
      ${acts.some((a) => a.unit === kit.sel && a.type === 'move' && a.evasive) ? `<label><input type="checkbox" id="sk-evasive" ${evasive ? 'checked' : ''}> evasive steps (+1 MP)</label>` : ''}
      ${charges.length ? `<div>Charge: click a red-ringed enemy. ${charges.some((a) => a.together) ? `<label><input type="checkbox" id="sk-together" ${together ? 'checked' : ''}> with the formation</label>` : ''}</div>` : ''}
      ${mine.length ? `<div class="bc-choices">${mine.map((a, i) => `<button data-mine="${i}">${esc(nice(a.type))}</button>`).join('')}</div>` : ''}
      ${kit.reachAnswered ? '<div class="muted">Numbers: movement points to get there, facing counted; a click steps one hex along the way.</div>' : ''}</section>`;
    panel.mine = mine;
  }
  ctx.panel.innerHTML = `<section><h3>${esc(nice(v.phase || ''))} <span class="muted">turn ${v.turn}/${v.turns} · ${esc(ctx.sideName(v.active || ''))} active</span></h3>
    <div>Points: ${Object.entries(v.points || {}).map(([k, n]) => `${esc(ctx.sideName(k))} ${n}`).join(' · ')}</div>
    ${v.charge ? `<div class="muted">Charge under way: ${esc(JSON.stringify(v.charge).slice(0, 80))}</div>` : ''}</section>${prompt}${selHtml}`;
  const p = ctx.panel;
  p.querySelector('#sk-pass')?.addEventListener('click', () => {
    const a = acts.find((x) => x.type === 'pass');
    if (a) ctx.act(a);
  });
  const opp = acts.filter((a) => a.type === 'opportunity');
  p.querySelectorAll('button[data-opp]').forEach((b) => (b.onclick = () => ctx.act(opp[+b.dataset.opp])));
  p.querySelectorAll('button[data-reactor]').forEach(
    (b) =>
      (b.onclick = () => {
        kit.select(kit.sel === b.dataset.reactor ? null : b.dataset.reactor);
      }),
  );
  p.querySelectorAll('button[data-face]').forEach((b) => (b.onclick = () => turnTo(b.dataset.face)));
  p.querySelectorAll('button[data-mine]').forEach((b) => (b.onclick = () => ctx.act(panel.mine[+b.dataset.mine])));
  p.querySelector('#sk-evasive')?.addEventListener('change', (e) => {
    evasive = e.target.checked;
    draw();
  });
  p.querySelector('#sk-together')?.addEventListener('change', (e) => (together = e.target.checked));
}

function turnTo(dir) {
  const u = kit.sel && unit(kit.sel);
  if (!u) return false;
  const a = faceAction(u, dir);
  if (!a) {
    ctx.notice(`<b>${esc(u.name || u.id)} cannot turn to face ${esc(dir)} now</b>`, 'info', 3000);
    return false;
  }
  ctx.act(a);
  return true;
}

function rotate(step) {
  const u = kit.sel && unit(kit.sel);
  if (!u) return false;
  const i = typeof u.facing_index === 'number' ? u.facing_index : DIRS.indexOf(u.facing);
  // Turn to the next direction round that a listed action allows.
  for (let k = 1; k < 6; k++) {
    const d = DIRS[(i + step * k + 60) % 6];
    if (faceAction(u, d)) return turnTo(d);
  }
  return turnTo(DIRS[(i + step + 6) % 6]);
}

function onClick(hex, ev) {
  const acts = actions();
  const here = kit.unitsAt(hex);
  if (kit.sel) {
    const s = unit(kit.sel);
    const shorts = acts.filter((a) => a.unit === kit.sel && a.type === 'short_move' && a.to === hex);
    if (shorts.length) return ctx.act(shorts.find((a) => a.facing === s.facing) || shorts[0]);
    const foe = here.find((u) => u.side !== s.side);
    if (foe) {
      const charges = acts.filter((a) => a.unit === kit.sel && a.type === 'charge' && a.target === foe.id);
      const pick = acts.find((a) => a.unit === kit.sel && (a.type === 'attack' || a.type === 'opportunity') && a.target === foe.id) || charges.find((a) => !!a.together === together) || charges[0];
      if (pick) return ctx.act(pick);
    }
    const ev2 = evasive || (ev && ev.shiftKey);
    const step = acts.find((a) => a.unit === kit.sel && a.type === 'move' && a.to === hex && !!a.evasive === ev2) || acts.find((a) => a.unit === kit.sel && a.type === 'move' && a.to === hex);
    if (step) return ctx.act(step);
    const far = kit.reach.get(hex);
    if (far && far.path && far.path.length) {
      const first = acts.find((a) => a.unit === kit.sel && a.type === 'move' && a.to === far.path[0] && !!a.evasive === ev2) || acts.find((a) => a.unit === kit.sel && a.type === 'move' && a.to === far.path[0]);
      if (first) return ctx.act(first);
    }
  }
  const mine = here.find((u) => acts.some((a) => a.unit === u.id));
  kit.select(mine && mine.id !== kit.sel ? mine.id : null);
}

async function onHover(hex, ev, h) {
  ctx.hexInfo(hex ? ctx.board.describeHex(hex) : '');
  const foe = hex && kit.sel && kit.unitsAt(hex).find((u) => u.side !== unit(kit.sel)?.side);
  const a = foe && actions().find((x) => x.unit === kit.sel && ['attack', 'opportunity', 'charge'].includes(x.type) && x.target === foe.id && (x.type !== 'charge' || !!x.together === together));
  if (!a) {
    if (!hex || !foe) h.hide();
    return;
  }
  const p = await kit.preview(a);
  if (p.error) return h.tip(`<b>${esc(label(a))}</b>`, ev);
  const rows = (p.outcomes || []).slice(0, 8).map((o) => `<tr><td>${esc(typeof o.result === 'string' ? o.result : JSON.stringify(o.result).slice(0, 60))}</td><td>${(100 * o.p).toFixed(0)}%</td></tr>`).join('');
  h.tip(`<div class="sk-odds"><b>${esc(label(a))}</b> <span class="muted">${esc(p.roll || '')}</span><table>${rows}</table></div>`, ev);
}

/** While a character moves, it stays selected for its next step. */
function onView() {
  const moving = view().moving;
  if (!kit.sel && moving && actions().some((a) => a.unit === moving && a.type === 'move')) kit.sel = moving;
}

export default kit.module({
  name: 'skirmish',
  keysHelp: 'click a character, then a lit hex (numbers: MP with facing) · <kbd>[</kbd> <kbd>]</kbd> turn · click an enemy to charge or attack · <kbd>Enter</kbd> ends the phase or passes · <kbd>Esc</kbd> deselects ·',
  status(next) {
    const v = next.view || {};
    return { turn: v.turn, turns: v.turns, phases: ['movement', 'melee'], phase: v.phase };
  },
  endAction,
  endLabel,
  describeAction: () => null,
  describeEvent: () => undefined,
  key(ev) {
    if (ev.key === '[' || ev.key === ',') return kit.sel ? (rotate(-1), true) : false;
    if (ev.key === ']' || ev.key === '.') return kit.sel ? (rotate(1), true) : false;
    return false;
  },
  nice,
});
