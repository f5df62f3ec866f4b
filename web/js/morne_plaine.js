// Morne Plaine's panel: select a unit, see where it can go and at what cost, move it by a
// click or hex by hex with the movement rose, the red charge arrow when a charge would
// follow, the odds beside the cursor before an attack, supports marked.
//
// Every rule stays on the server: legality comes from the listed actions, reasons from
// `explain`, odds from `preview`, movement from `reachable`.

import { esc, nice, reasonsHtml, ruleBadge, sideColour } from './api.js';
import { phaseLine } from './log.js';
import { panelKit } from './panel_kit.js';
import { facesCell } from './odds.js';

let ctx = null;
let moving = false;
const kit = panelKit({ draw, click: onClick, hover: onHover, wantsReach: (u) => mine(u) && phase() === 'movement' && !!u.hex && !moving, reachProbe, onView, init: (c) => (ctx = c) });

const PHASES = ['bombardment', 'movement', 'combat', 'rally'];
// Keys for the six directions of a flat-top map (0..5 = NE, SE, S, SW, NW, N), as the
// QWE/ASD block sits around S, and the numeric keypad around 5.
const KEYS = { e: 0, d: 1, s: 2, a: 3, q: 4, w: 5, 9: 0, 3: 1, 2: 2, 1: 3, 7: 4, 8: 5 };
const KEY_OF = ['E', 'D', 'S', 'A', 'Q', 'W'];
// Where each direction sits in the sidebar rose's 3x3 grid (flat-top).
const ROSE_CELL = [[0, 2], [2, 2], [2, 1], [2, 0], [0, 0], [0, 1]];

const view = () => kit.view();
const phase = () => kit.phase();

function short(id) {
  return String(id).replace(/^[a-z]{1,2}-/, '');
}

/** A unit's name as players read it: the scenario's name, else its id without the side's prefix, in words. */
function unitName(id) {
  const u = kit.unit(id);
  if (u && u.name) return u.name;
  const bare = String(id ?? '').replace(/^[a-z]{1,2}-/, '').replace(/-/g, ' ');
  return bare.charAt(0).toUpperCase() + bare.slice(1);
}

function unitHtml(id) {
  const u = kit.unit(id);
  const c = u ? sideColour(u.side) : '#888';
  return `<b class="u" data-unit="${esc(id)}"><span class="side-chip" style="background:${c}"></span> ${esc(unitName(id))}</b>`;
}

function mine(u) {
  return !!u && ctx.canAct() && u.side === view().active;
}

/** The direction of a charge: the target stands two hexes away in a straight line. */
function chargeDir(unitHex, targetHex) {
  for (let d = 0; d < 6; d++) {
    const a = ctx.board.neighbor(unitHex, d);
    if (a && ctx.board.neighbor(a, d) === targetHex) return d;
  }
  return -1;
}

// ---- selection and movement -------------------------------------------------------------------

/**
 * Moves the selected unit along the engine's path to `hex`, one listed step at a time.
 * The walk goes to the end of the path unless a step halts the unit (a bog test, an
 * enemy zone of control) or is not listed; then it stops there and says why in words.
 */
async function goTo(hex) {
  const r = kit.reach.get(hex);
  if (!r || moving) return;
  const id = kit.sel;
  moving = true;
  try {
    for (const [i, step] of r.path.entries()) {
      const u = kit.unit(id);
      if (!u || !u.hex) break;
      if (u.hex === step) continue;
      const a = kit.actionsOf(id).find((x) => x.type === 'move' && x.to === step);
      if (!a) {
        const d = ctx.board.direction(u.hex, step);
        const charge = kit.actionsOf(id).find((x) => x.type === 'charge' && chargeDir(u.hex, kit.unit(x.target)?.hex) === d);
        if (charge) {
          ctx.notice(`${ruleBadge('MP-CHG-7')} The next step toward ${esc(hex)} continues a run on clear terrain toward ${unitHex(charge.target)}: it is a charge. Click the red arrow to charge, or pick another way.`, 'info');
        } else {
          const e = await kit.explain({ type: 'move', unit: id, to: step });
          const reasons = e.reasons || (e.error && e.error.reasons) || [{ rule: 'MP-MOV-3', message: `${step} is not among the steps the rules list for ${id} now` }];
          ctx.notice(`<b>${esc(unitName(id))} cannot step into ${esc(step)}</b>: it stops at ${esc(u.hex)}, short of ${esc(hex)}.${reasonsHtml(reasons)}`);
        }
        break;
      }
      const res = await ctx.act(a);
      if (res.error) break;
      const h = (res.events || []).find((e) => e.type === 'halted' && e.unit === id);
      if (h) {
        const left = i < r.path.length - 1 ? ` ${esc(hex)} is not reached: ${r.path.length - 1 - i} step${r.path.length - 1 - i > 1 ? 's' : ''} of the way not taken.` : '';
        ctx.notice(`${ruleBadge(h.rule)} ${esc(unitName(id))} halts at ${esc(step)}: ${esc(h.reason)}.${left}`, 'info', left ? 10000 : 6000);
        break;
      }
    }
  } finally {
    // No reach is asked for during the walk: the next step would overtake the question, and
    // the server answer for a unit halted since (400). It is asked once the walk is over.
    moving = false;
    kit.loadReach();
    draw();
  }
}

function unitHex(id) {
  return unitHtml(id);
}

/**
 * For a unit no listed action moves, a step whose explanation says why it cannot move
 * (MP-MOV-1, MP-MOV-4, MP-MOV-8, MP-BMB-4...): asked instead of its reachable hexes, which
 * the server refuses with 400.
 */
function reachProbe(u) {
  for (let d = 0; d < 6; d++) {
    const to = ctx.board.neighbor(u.hex, d);
    if (to) return { type: 'move', unit: u.id, to };
  }
  return null;
}

/** One step in direction `d`: a listed move, a listed charge, or the reason why not. */
async function stepDir(d) {
  const u = kit.unit(kit.sel);
  if (!u || !u.hex || moving) return;
  const to = ctx.board.neighbor(u.hex, d);
  const list = kit.actionsOf(kit.sel);
  const charge = list.find((x) => x.type === 'charge' && chargeDir(u.hex, kit.unit(x.target)?.hex) === d);
  if (charge) {
    const res = await ctx.act(charge);
    if (!res.error) announce(charge, res.events || []);
    return res;
  }
  const move = to && list.find((x) => x.type === 'move' && x.to === to);
  if (move) {
    const res = await ctx.act(move);
    const h = (res.events || []).find((e) => e.type === 'halted' && e.unit === kit.sel);
    if (h) ctx.notice(`${ruleBadge(h.rule)} ${esc(unitName(kit.sel))} halts: ${esc(h.reason)}`, 'info', 6000);
    return res;
  }
  if (!to) {
    ctx.notice(`${ruleBadge('MP-MOV-5')} ${esc(unitName(kit.sel))} cannot leave the map.`);
    return;
  }
  const e = await ctx.explain({ type: 'move', unit: kit.sel, to });
  ctx.notice(`<b>${esc(unitName(kit.sel))} cannot step ${ctx.board.dirNames[d]} into ${esc(to)}</b>${reasonsHtml(e.reasons)}`);
}

// ---- the pointer ------------------------------------------------------------------------------

function enemyAt(hex) {
  const u = kit.unitAt(hex);
  const s = kit.unit(kit.sel);
  return u && s && u.side !== s.side ? u : null;
}

/** What acting on `hex` would do for the selected unit: an action from the list, if any. */
function actionAt(hex) {
  const s = kit.unit(kit.sel);
  if (!s || !mine(s)) return null;
  const e = enemyAt(hex);
  const list = kit.actionsOf(kit.sel);
  if (phase() === 'combat' && e) return list.find((a) => a.type === 'attack' && a.target === e.id) || null;
  if (phase() === 'bombardment') return list.find((a) => a.type === 'bombard' && a.target === hex) || null;
  if (phase() === 'movement' && e) return list.find((a) => a.type === 'charge' && a.target === e.id) || null;
  return null;
}

async function onHover(hex, ev, h) {
  const info = hex ? ctx.board.describeHex(hex) : '';
  const here = hex && kit.unitAt(hex);
  ctx.hexInfo(info + (here ? ` · ${unitHtml(here.id)} ${esc(nice(here.class))}` : ''));
  if (!hex) {
    h.hide();
    h.show(null);
    return;
  }
  const s = kit.unit(kit.sel);
  if (!s || !mine(s)) {
    if (here) h.tip(unitTip(here), ev);
    else h.hide();
    h.show(null);
    return;
  }
  const action = actionAt(hex);
  if (action && action.type !== 'move') {
    h.tip(`<span class="muted">${esc(nice(action.type))}…</span>`, ev);
    const [p, x] = await Promise.all([kit.preview(action), kit.explain(action)]);
    if (!h.live()) return;
    h.show({ action, preview: p.error ? null : p, explain: x.error ? null : x, target: enemyAt(hex)?.id, hex });
    h.tip(oddsTip(action, p, x), null);
    return;
  }
  const e = enemyAt(hex);
  if (e && (phase() === 'combat' || phase() === 'bombardment')) {
    const a = phase() === 'combat' ? { type: 'attack', unit: kit.sel, target: e.id } : { type: 'bombard', unit: kit.sel, target: hex };
    const x = await kit.explain(a);
    if (!h.live()) return;
    h.show(null);
    h.tip(`<b>${esc(unitName(kit.sel))} cannot ${a.type} ${esc(unitName(e.id))}</b>${reasonsHtml(x.reasons || (x.error && x.error.reasons))}`, null, 'refused');
    return;
  }
  h.show(null);
  if (phase() !== 'movement' || hex === s.hex) {
    if (here) h.tip(unitTip(here), ev);
    else h.hide();
    return;
  }
  // Judged against the reachable hexes of this view and selection, once they are in.
  await kit.reachLoaded();
  if (!h.live()) return;
  const r = kit.reach.get(hex);
  if (r) {
    const left = s.mp - r.cost;
    h.tip(`<b>${esc(hex)}</b>: ${r.cost} MP, ${left} left${r.stop ? `<div class="reason">${ruleBadge('MP-ZOC-10')} enemy zone of control: movement ends there</div>` : ''}<div class="muted">click to move · ${r.path.length} step${r.path.length > 1 ? 's' : ''}</div>`, ev);
    drawRoute(hex);
    return;
  }
  drawRoute(null);
  if (kit.reachError) {
    h.tip(`<b>${esc(unitName(kit.sel))} cannot move</b>${reasonsHtml(kit.reachError)}`, ev, 'refused');
    return;
  }
  if (ctx.board.distance(s.hex, hex) === 1) {
    const a = { type: 'move', unit: kit.sel, to: hex };
    const x = await kit.explain(a);
    if (!h.live()) return;
    const d = ctx.board.direction(s.hex, hex);
    const charge = kit.actionsOf(kit.sel).find((c) => c.type === 'charge' && chargeDir(s.hex, kit.unit(c.target)?.hex) === d);
    if (charge) {
      h.tip(`<b>Charge!</b> A step into ${esc(hex)} charges ${unitHtml(charge.target)} ${ruleBadge('MP-CHG-7')}<div class="muted">click the red arrow or press ${KEY_OF[d]}</div>`, null);
      return;
    }
    h.tip(`<b>${esc(unitName(kit.sel))} cannot enter ${esc(hex)}</b>${reasonsHtml(x.reasons || (x.error && x.error.reasons))}`, null, x.legal ? '' : 'refused');
    return;
  }
  // Farther away: the engine's search found no way in within the points left.
  const near = [...kit.reach.values()].some((r2) => ctx.board.distance(r2.hex, hex) === 1 && !r2.stop);
  const why = near
    ? `${ruleBadge('MP-MOV-3')} no step into ${esc(hex)} from any hex ${esc(unitName(kit.sel))} can reach is allowed within its ${s.mp} movement point${s.mp === 1 ? '' : 's'} (terrain costs, hexsides that cannot be crossed, zones of control or an occupied hex); hover a hex next to the unit for the rule`
    : ctx.board.distance(s.hex, hex) <= s.mp
      ? `${ruleBadge('MP-MOV-3')} no way in within ${esc(unitName(kit.sel))}'s ${s.mp} movement point${s.mp === 1 ? '' : 's'}: every way there crosses what it may not (${ruleBadge('MP-MOV-6')} a river without a bridge or ford, a steep slope) or costs more than it has (terrain, zones of control)`
      : `${ruleBadge('MP-MOV-3')} out of reach: ${esc(unitName(kit.sel))} has ${s.mp} movement point${s.mp === 1 ? '' : 's'} left`;
  h.tip(`<b>${esc(hex)}</b><div class="reason">${why}</div>`, ev, 'refused');
}

function unitTip(u) {
  const bits = [`<b>${esc(unitName(u.id))}</b> <span class="muted">${esc(u.side)} ${esc(u.class)}${u.mounted ? ', mounted' : ''}</span>`];
  bits.push(stats(u));
  return bits.join('<br>');
}

function stats(u) {
  const s = [`CS <b>${u.cs}</b>`];
  if (u.class !== 'leader') s.push(`morale <b>${u.mv}</b>`);
  s.push(`MP <b>${u.mp}</b>/${u.ma}`);
  if (u.class === 'leader') s.push(`stripes <b>${u.stripes}</b>`);
  if (u.class === 'artillery') s.push(`BV <b>${u.bv}</b> range <b>${u.range}</b>`);
  return s.join(' · ');
}

function flags(u) {
  const f = [];
  for (const k of ['moved', 'stopped', 'fired', 'attacked', 'defended', 'victorious', 'demoralised']) if (u[k]) f.push(k);
  return f.join(', ');
}

function pct(p) {
  return `${(p * 100).toFixed(p < 0.1 && p > 0 ? 1 : 0)}%`;
}

function resultText(r, text) {
  if (!r || typeof r !== 'object') return esc(String(r));
  if ('charge' in r) return r.charge === 'succeeds' ? 'the charge succeeds: the target falls back' : 'the target stands';
  if ('loss' in r) return r.loss === 'none' ? 'no effect' : r.loss === 'strength' ? 'the target loses a strength point' : 'the target loses a morale point';
  if ('stuck' in r) return r.stuck ? 'stuck in the marsh' : 'gets through';
  const res = r.result || r;
  if ('attacker_loss' in res) {
    const part = (who, loss, check) => (loss || check ? `${who} ${loss ? `−${loss}` : ''}${check ? `${loss ? ' ' : ''}morale check` : ''}` : '');
    const t = [part('defender', res.defender_loss, res.defender_check), part('attacker', res.attacker_loss, res.attacker_check)].filter(Boolean).join(', ');
    return `${r.die != null && !r.dice ? `<span class="muted">die ${r.die}:</span> ` : ''}${t || 'no effect'}`;
  }
  return esc(text || JSON.stringify(r));
}

function outcomesTable(p) {
  const rows = (p.outcomes || [])
    .map((o) => `<tr>${facesCell(o.result)}<td>${resultText(o.result, o.text)}</td><td class="p"><span class="bar" style="width:${Math.max(2, o.p * 60).toFixed(0)}px"></span> ${pct(o.p)} <span class="muted">${o.num}/${o.den}</span></td></tr>`)
    .join('');
  return `<table class="prob-table"><tbody>${rows}</tbody></table>`;
}

function oddsHead(action, p) {
  const i = (p && p.inputs) || {};
  if (action.type === 'attack') {
    return `<div class="odds">${esc(i.odds || '?')}</div><div>${esc(i.attack)} against ${esc(i.defence)}${i.modifier ? ` · die ${i.modifier > 0 ? '+' : ''}${esc(i.modifier)}` : ''}</div>`;
  }
  if (action.type === 'charge') {
    return `<div class="odds">Charge</div><div>${unitHtml(action.unit)} charges ${unitHtml(action.target)}: 1d9 ${i.modifier ? `${i.modifier > 0 ? '+' : ''}${esc(i.modifier)} ` : ''}against morale ${esc(i.morale)}</div>`;
  }
  if (action.type === 'bombard') {
    return `<div class="odds">Fire</div><div>BV ${esc(i.bv)} at ${esc(i.distance)} hex${i.distance === 1 ? '' : 'es'} on ${esc(i.target)}</div>`;
  }
  return `<div class="odds">${esc(nice(action.type))}</div>`;
}

function moraleLine(i) {
  const f = (x) => (Array.isArray(x) ? `${pct(x[0] / x[1])} <span class="muted">${x[0]}/${x[1]}</span>` : '');
  const bits = [];
  if (i.defender_fails_morale_check) bits.push(`defender fails a morale check ${f(i.defender_fails_morale_check)}`);
  if (i.attacker_fails_morale_check) bits.push(`attacker ${f(i.attacker_fails_morale_check)}`);
  return bits.length ? `<div class="muted">${bits.join(' · ')}</div>` : '';
}

function supportsLine(i) {
  const a = i.supports || i.attack_supports;
  const d = i.defence_supports;
  if (!a && !d) return '';
  const list = (l) => (l && l.length ? l.map(unitHtml).join(', ') : 'none');
  return `<div><span class="side-chip" style="background:#27a83a"></span> supports: ${list(a)} · defending: ${list(d)}</div>`;
}

function oddsTip(action, p, x) {
  if (p.error) {
    return `<b>${esc(nice(action.type))}</b>${reasonsHtml(p.error.reasons)}`;
  }
  return `${oddsHead(action, p)}${supportsLine(p.inputs || {})}${outcomesTable(p)}${moraleLine(p.inputs || {})}${reasonsHtml((x && x.reasons) || p.reasons)}<div class="muted">click to ${esc(action.type)} · ${esc(p.roll)}</div>`;
}

async function onClick(hex) {
  ctx.tip.hide();
  const here = kit.unitAt(hex);
  const s = kit.unit(kit.sel);
  const action = actionAt(hex);
  if (action) {
    const res = await ctx.act(action);
    if (!res.error) announce(action, res.events || []);
    kit.info = null;
    draw();
    return;
  }
  if (here && (!s || here.side === s.side || !mine(s))) {
    kit.select(kit.sel === here.id ? null : here.id);
    return;
  }
  if (here && s && mine(s)) {
    // An enemy the selected unit cannot act on: say why.
    const a = phase() === 'combat' ? { type: 'attack', unit: kit.sel, target: here.id } : phase() === 'bombardment' ? { type: 'bombard', unit: kit.sel, target: hex } : { type: 'move', unit: kit.sel, to: hex };
    const x = await ctx.explain(a);
    ctx.notice(`<b>${esc(unitName(kit.sel))} cannot ${esc(a.type)} ${esc(unitName(here.id))}</b>${reasonsHtml(x.reasons)}`);
    return;
  }
  if (s && mine(s) && phase() === 'movement') {
    await kit.reachLoaded();
    if (kit.reach.has(hex)) return goTo(hex);
    if (ctx.board.distance(s.hex, hex) === 1) {
      const x = await ctx.explain({ type: 'move', unit: kit.sel, to: hex });
      ctx.notice(`<b>${esc(unitName(kit.sel))} cannot enter ${esc(hex)}</b>${reasonsHtml(x.reasons)}`);
      return;
    }
    if (kit.reachError) {
      ctx.notice(`<b>${esc(unitName(kit.sel))} cannot move</b>${reasonsHtml(kit.reachError)}`);
      return;
    }
  }
  kit.select(null);
}

/** A short notice of what the dice did. */
function announce(action, events) {
  const att = events.find((e) => e.type === 'attacked');
  const ch = events.find((e) => e.type === 'charged');
  const bo = events.find((e) => e.type === 'bombarded');
  const rolls = events.filter((e) => e.type === 'roll').map((r) => `<span class="die">${r.value}</span>`).join('');
  let text = '';
  if (att) text = `<b>${esc(att.odds)}</b>: ${rolls} → ${resultText({ die: att.die, result: att.result })}`;
  else if (ch) {
    // MP-CHG-29: after a failed charge the target may fire back: its die is the second.
    const fire = events.find((e) => e.type === 'roll' && /^MP-CHG-29/.test(e.purpose || ''));
    const shaken = events.find((e) => e.type === 'shaken' && e.rule === 'MP-CHG-29');
    const morale = events.find((e) => e.type === 'roll');
    text = `<b>Charge</b> ${morale ? `<span class="die">${morale.value}</span>` : ''}: ${ch.success ? 'succeeds' : 'fails'} (${ch.result} against morale ${ch.morale})`;
    if (fire) text += `<div>${ruleBadge('MP-CHG-29')} reaction fire: <span class="die">${fire.value}</span> → ${shaken ? describeEvent(shaken)?.html || '' : 'no effect'}</div>`;
    // MP-CHG-28: the charge does not end the charger's movement.
    if (kit.actionsOf(action.unit).some((a) => a.type === 'move' || a.type === 'charge')) text += `<div class="muted">${esc(action.unit)} may go on moving with the points it has left ${ruleBadge('MP-CHG-28')}.</div>`;
  } else if (bo) {
    // MP-BMB-5: the die, plus the battery's value, less the distance; its cost follows as events.
    const hurt = events.some((e) => e.type === 'shaken' || e.type === 'eliminated');
    text = `<b>Bombardment of ${esc(bo.target)}</b> ${rolls}: ${esc(bo.result)} after the battery's value and the distance ${ruleBadge('MP-BMB-5')}${hurt ? '' : ': <b>no effect</b>'}`;
  }
  if (!text) return;
  const after = events.filter((e) => ['shaken', 'retreated', 'eliminated', 'took_hex', 'morale_checked'].includes(e.type) && !(ch && e.type === 'shaken')).map((e) => describeEvent(e)?.html || '').join('<br>');
  ctx.notice(`${text}${after ? `<div>${after}</div>` : ''}`, 'info', 8000);
}

// ---- drawing --------------------------------------------------------------------------------

function drawRoute(hex) {
  ctx.board.overlay.querySelectorAll('.route').forEach((e) => e.remove());
  const s = kit.unit(kit.sel);
  const r = hex && kit.reach.get(hex);
  if (s && r) ctx.board.route([s.hex, ...r.path]);
}

function draw() {
  const v = view();
  const s = kit.unit(kit.sel);
  const act = ctx.canAct();
  const acting = new Set(kit.actions().map((a) => a.unit).filter(Boolean));
  const info = kit.info;
  const supports = new Set([...((info && info.preview && (info.preview.inputs.supports || info.preview.inputs.attack_supports)) || []), ...((info && info.preview && info.preview.inputs.defence_supports) || [])]);
  kit.setCounters((u) => ({
    kind: u.class,
    top: short(u.id),
    // The printed values (combat strength, morale, movement allowance): what is left shows in the tip and the panel.
    values: u.class === 'leader' ? `${u.cs}-${u.ma}` : `${u.cs}-${u.mv}-${u.ma}`,
    stripes: u.stripes,
    badge: u.class === 'artillery' ? u.bv : null,
    tip: `${u.id}: ${ctx.sideName(u.side)} ${u.class}, CS ${u.cs}${u.class === 'leader' ? `, ${u.stripes} stripes` : `, morale ${u.mv}`}, MP ${u.mp}/${u.ma}${flags(u) ? ` (${flags(u)})` : ''}`,
    marks: {
      selected: u.id === kit.sel,
      target: info && info.target === u.id,
      support: supports.has(u.id),
      victorious: u.victorious,
      demoralised: u.demoralised,
      spent: act && u.side === v.active && !acting.has(u.id) && phase() !== 'rally',
    },
  }));
  const hl = [];
  if (s && mine(s)) {
    if (phase() === 'movement') for (const r of kit.reach.values()) hl.push({ hex: r.hex, cls: r.stop ? 'reach-stop' : 'reach', text: r.cost });
    for (const a of kit.actionsOf(kit.sel)) {
      if (a.type === 'attack') hl.push({ hex: kit.unit(a.target)?.hex, cls: info && info.target === a.target ? 'target' : 'attackable' });
      if (a.type === 'bombard') hl.push({ hex: a.target, cls: info && info.hex === a.target ? 'target' : 'attackable' });
    }
  } else if (!s && act) {
    for (const id of acting) hl.push({ hex: kit.unit(id)?.hex, cls: 'movable', inset: 0.86 });
  }
  kit.setHighlights(hl);
  ctx.board.clearOverlay();
  if (s && mine(s) && phase() === 'movement' && s.hex) {
    const dirs = [];
    for (let d = 0; d < 6; d++) {
      const to = ctx.board.neighbor(s.hex, d);
      const list = kit.actionsOf(kit.sel);
      const charge = list.find((x) => x.type === 'charge' && chargeDir(s.hex, kit.unit(x.target)?.hex) === d);
      const move = to && list.find((x) => x.type === 'move' && x.to === to);
      dirs.push(charge ? { state: 'charge', title: `charge ${charge.target} (${KEY_OF[d]})` } : move ? { state: 'move', title: `${ctx.board.dirNames[d]} to ${to}${kit.reach.get(to) ? `: ${kit.reach.get(to).cost} MP` : ''} (${KEY_OF[d]})` } : { state: 'blocked', title: `${ctx.board.dirNames[d]}: click for the reason` });
    }
    for (const a of kit.actionsOf(kit.sel).filter((x) => x.type === 'charge')) {
      const t = kit.unit(a.target);
      if (t && t.hex) ctx.board.arrow(s.hex, t.hex, 'arrow-red', { shrink: 0.55, start: 0.55, title: `charge ${a.target}`, onClick: () => ctx.act(a).then((r) => !r.error && announce(a, r.events || [])) });
    }
    ctx.board.rose(s.hex, dirs, (d) => stepDir(d));
  }
  if (kit.hover && kit.reach.has(kit.hover)) drawRoute(kit.hover);
  panel();
  const held = {};
  for (const u of kit.units()) if (u.hex) held[u.hex] = u.side;
  ctx.board.setHolders(held);
}

function panel() {
  const s = kit.unit(kit.sel);
  const info = kit.info;
  let unitSection = '';
  if (s) {
    const canMove = mine(s) && phase() === 'movement' && s.hex;
    const cells = Array.from({ length: 9 }, () => '<div></div>');
    if (canMove) {
      for (let d = 0; d < 6; d++) {
        const [r, c] = ROSE_CELL[d];
        const to = ctx.board.neighbor(s.hex, d);
        const charge = kit.actionsOf(kit.sel).find((x) => x.type === 'charge' && chargeDir(s.hex, kit.unit(x.target)?.hex) === d);
        const move = to && kit.actionsOf(kit.sel).find((x) => x.type === 'move' && x.to === to);
        cells[r * 3 + c] = `<button data-dir="${d}" class="${charge ? 'charge' : ''}" ${charge || move ? '' : 'aria-disabled="true" style="opacity:.45"'} title="${esc(ctx.board.dirNames[d])}${to ? ` to ${to}` : ''} (${KEY_OF[d]})">${ctx.board.dirNames[d]}<br><kbd>${KEY_OF[d]}</kbd></button>`;
      }
      cells[4] = `<div class="centre"><b>${s.mp}</b>&nbsp;MP</div>`;
    }
    unitSection = `<section class="unit-section"><h3>Selected unit<span class="sr-gap">: </span><span class="muted">Esc to deselect</span></h3>
      <div class="unit-card">
        <div class="uc-body">
          <div class="uc-name">${unitHtml(s.id)}</div>
          <div class="muted">${esc(ctx.sideName(s.side))} ${esc(s.class)}${s.mounted ? ', mounted' : ''}${s.hex ? ` at ${esc(s.hex)}` : ', off the map'}</div>
          <div>${stats(s)}</div>
          <div class="uc-flags">${esc(flags(s))}</div>
          ${kit.reachError && canMove ? `<div class="reason">${reasonsHtml(kit.reachError)}</div>` : ''}
          ${mine(s) ? hintFor(s) : ''}
        </div>
        ${canMove ? `<div class="rose-panel" id="side-rose">${cells.join('')}</div>` : ''}
      </div></section>`;
  } else {
    unitSection = `<section class="unit-section"><h3>Selected unit</h3><div class="muted">${ctx.canAct() ? 'Click one of your units (outlined) or press <kbd>Tab</kbd>.' : 'Click a unit to see its values.'}</div></section>`;
  }
  let combat = '';
  if (info && info.preview) {
    combat = `<section class="combat-panel"><h3>${esc(nice(info.action.type))}<span class="sr-gap">: </span><span class="muted">before the dice</span></h3>${oddsHead(info.action, info.preview)}${supportsLine(info.preview.inputs || {})}${outcomesTable(info.preview)}${moraleLine(info.preview.inputs || {})}</section>`;
  }
  const off = kit.units().filter((u) => !u.hex);
  const offHtml = off.length ? `<section><h3>Off the map</h3><div style="font-size:12px">${off.map((u) => `${unitHtml(u.id)} <span class="muted">${eliminated.has(u.id) ? 'eliminated' : 'not yet arrived'}</span>`).join('<br>')}</div></section>` : '';
  ctx.panel.innerHTML = unitSection + combat + offHtml;
  const rose = ctx.panel.querySelector('#side-rose');
  if (rose) rose.addEventListener('click', (ev) => {
    const b = ev.target.closest('button[data-dir]');
    if (b) stepDir(+b.dataset.dir);
  });
}

function hintFor(s) {
  const list = kit.actionsOf(s.id);
  if (phase() === 'movement') {
    if (list.some((a) => a.type === 'charge')) return `<div class="reason">${ruleBadge('MP-CHG-7')} <b style="color:#c8201c">A charge is possible</b>: click the red arrow.</div>`;
    return list.length ? '<div class="muted">Click a lit hex to move there, or step with the rose.</div>' : '';
  }
  if (phase() === 'combat') return list.length ? '<div class="muted">Hover an enemy outlined in red for the odds; click to attack.</div>' : '<div class="muted">No attack open to this unit.</div>';
  if (phase() === 'bombardment') return list.length ? '<div class="muted">Hover a target for the chances; click to fire.</div>' : '';
  return '';
}

const eliminated = new Set();

// ---- the log --------------------------------------------------------------------------------

function describeAction(a, events) {
  switch (a.type) {
    case 'move': {
      const m = events.find((e) => e.type === 'moved');
      return `${unitHtml(a.unit)} → ${esc(a.to)}${m ? ` <span class="muted">${m.cost} MP, ${m.left} left</span> ${m.rules.filter((r) => r !== 'MP-MOV-3').map(ruleBadge).join(' ')}` : ''}`;
    }
    case 'charge':
      return `${unitHtml(a.unit)} <b style="color:#c8201c">charges</b> ${unitHtml(a.target)}`;
    case 'attack':
      return `${unitHtml(a.unit)} <b>attacks</b> ${unitHtml(a.target)}`;
    case 'bombard':
      return `${unitHtml(a.unit)} <b>fires</b> at ${esc(a.target)}`;
    default:
      return null;
  }
}

function describeEvent(e) {
  switch (e.type) {
    case 'phase_began':
      return phaseLine(e, ctx);
    case 'phase_passed':
      return { html: passedHtml(e), cls: 'phase-line' };
    case 'moved':
      return null; // the action's line says it
    case 'halted':
      return { html: `${unitHtml(e.unit)} halts: ${esc(e.reason)} ${ruleBadge(e.rule)}`, cls: '' };
    case 'charged':
      return { html: `morale test ${esc(e.result)} (roll ${e.modifier ? `${e.modifier > 0 ? '+' : ''}${esc(e.modifier)}` : ''}) against ${esc(e.morale)}: the charge <b>${e.success ? 'succeeds' : 'fails'}</b> ${ruleBadge('MP-CHG-11')}`, cls: e.success ? 'good' : 'bad' };
    case 'shaken': {
      const lost = [e.morale ? `${e.morale} morale point${e.morale > 1 ? 's' : ''}` : '', e.strength ? `${e.strength} strength point${e.strength > 1 ? 's' : ''}` : ''].filter(Boolean).join(' and ') || 'nothing';
      // MP-CHG-29: the target that held fired back at the charger.
      const why = e.rule === 'MP-CHG-29' ? ' to the reaction fire of the unit it charged' : '';
      return { html: `${unitHtml(e.unit)} loses ${lost}${why} ${ruleBadge(e.rule)}`, cls: 'bad' };
    }
    case 'retreated':
      return { html: `${unitHtml(e.unit)} retreats ${esc(e.from)} → ${esc(e.to)}${e.zones ? ` into ${e.zones} enemy zone${e.zones > 1 ? 's' : ''} of control` : ''} ${ruleBadge(e.rule)}`, cls: 'bad' };
    case 'took_hex':
      return { html: `${unitHtml(e.unit)} takes ${esc(e.to)} ${ruleBadge(e.rule)}`, cls: 'good' };
    case 'eliminated':
      eliminated.add(e.unit);
      return { html: `${unitHtml(e.unit)} <b>eliminated</b>: ${esc(e.reason)} ${ruleBadge(e.rule)}`, cls: 'bad' };
    case 'bombarded':
      return { html: `bombardment of ${unitHtml(e.target)}: die, plus the battery's value, less the distance: <b>${esc(e.result)}</b> ${ruleBadge('MP-BMB-5')}`, cls: '' };
    case 'attacked': {
      const sup = (l) => (l && l.length ? l.map(unitHtml).join(', ') : 'none');
      return { html: `${esc(e.attack)} against ${esc(e.defence)}: <b>${esc(e.odds)}</b>, die ${esc(e.die)}${e.modifier ? ` (${e.modifier > 0 ? '+' : ''}${esc(e.modifier)})` : ''} → ${resultText({ result: e.result })} ${ruleBadge('MP-CMB-25')}<br><span class="muted">supports ${sup(e.supports)}; defending ${sup(e.defence_supports)}</span>`, cls: '' };
    }
    case 'morale_checked':
      return { html: `${unitHtml(e.unit)} morale check: ${esc(e.roll)} against ${esc(e.morale)}, <b>${e.failed ? 'fails' : 'holds'}</b> ${ruleBadge('MP-CMB-26')}`, cls: e.failed ? 'bad' : 'good' };
    case 'rallied':
      return { html: `${unitHtml(e.unit)} regains ${esc(e.morale)} morale ${ruleBadge(e.rule)}`, cls: 'good' };
    case 'arrived':
      return { html: `${unitHtml(e.unit)} arrives at ${esc(e.at)} ${ruleBadge(e.rule)}`, cls: 'good' };
    default:
      return undefined;
  }
}

/**
 * A phase that passed by itself (MP-TURN-2), in words: why nothing was done and, in a
 * combat phase, why each enemy next to a unit of the side could not be attacked.
 */
function passedHtml(e) {
  const side = ctx ? ctx.sideName(e.side) : e.side;
  const why = e.phase === 'combat'
    ? (e.refused || []).length
      ? `no unit of ${esc(side)} may attack an enemy next to it`
      : `no unit of ${esc(side)} is next to an enemy`
    : `no battery of ${esc(side)} has a target it may fire at`;
  const refused = (e.refused || []).map((r) => `<div>${unitHtml(r.unit)} cannot attack ${unitHtml(r.target)}${reasonsHtml(r.reasons)}</div>`).join('');
  return `The ${esc(e.phase)} phase of ${esc(side)} passes by itself: ${why} ${ruleBadge(e.rule)}${refused}`;
}

// The last action whose log this page has seen, for the notice of a phase that passed.
let seenN = null;

/** Says so when a combat phase of a side this page plays passed by itself (MP-TURN-2). */
function noticePassed() {
  const log = kit.g.log || [];
  const last = log.length ? log[log.length - 1].n : 0;
  const before = seenN;
  seenN = last;
  if (before === null || last <= before) return;
  const mine = new Set(ctx.mySides ? ctx.mySides() : []);
  const passed = log
    .filter((e) => e.n > before)
    .flatMap((e) => e.events || [])
    .filter((ev) => ev.type === 'phase_passed' && ev.phase === 'combat' && mine.has(ev.side));
  if (passed.length) ctx.notice(passed.map(passedHtml).join('<hr>'), 'info', 15000);
}

// ---- keyboard -------------------------------------------------------------------------------

function key(ev) {
  const k = ev.key.length === 1 ? ev.key.toLowerCase() : ev.key;
  if (k === 'Tab' || k === 'n') {
    const own = kit.units().filter((u) => u.hex && kit.actionsOf(u.id).length);
    return kit.next(own.map((u) => u.id), ev.shiftKey) || k === 'Tab';
  }
  if (kit.sel && phase() === 'movement' && k in KEYS && mine(kit.unit(kit.sel))) {
    stepDir(KEYS[k]).then(() => {
      const u = kit.unit(kit.sel);
      if (u) ctx.board.reveal(u.hex);
    });
    return true;
  }
  return false;
}

// ---- the module -----------------------------------------------------------------------------

function onView() {
  for (const e of kit.g.log || []) for (const ev of e.events || []) if (ev.type === 'eliminated') eliminated.add(ev.unit);
  noticePassed();
}

export default kit.module({
  name: 'morne_plaine',
  keysHelp: '<kbd>Q</kbd><kbd>W</kbd><kbd>E</kbd><kbd>A</kbd><kbd>S</kbd><kbd>D</kbd> step NW N NE SW S SE · <kbd>Tab</kbd> next unit · <kbd>Esc</kbd> deselect · <kbd>Enter</kbd> end phase ·',
  status(next) {
    const v = next.view || {};
    return { turn: v.turn, turns: v.turns, phases: PHASES, phase: v.phase, active: v.active };
  },
  endLabel(next) {
    const p = next.view && next.view.phase;
    return p ? `End ${p}` : 'End phase';
  },
  describeAction,
  describeEvent,
  key,
  // For the replay viewer: counters from a view, with no selection.
  counters(v) {
    return (v.units || [])
      .filter((u) => u.hex)
      .map((u) => ({ id: u.id, side: u.side, hex: u.hex, kind: u.class, top: short(u.id), values: u.class === 'leader' ? `${u.cs}-${u.ma}` : `${u.cs}-${u.mv}-${u.ma}`, stripes: u.stripes, badge: u.class === 'artillery' ? u.bv : null, tip: u.id, marks: { victorious: u.victorious, demoralised: u.demoralised } }));
  },
});
