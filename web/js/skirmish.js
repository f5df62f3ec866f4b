// The Futile Kingdoms skirmish panel: each character's facing drawn on its counter and
// turned with [ and ] (or the panel's buttons) when a face action is listed; shots in the
// missile phase on a clicked target; the cost of every reachable hex (GET .../reachable,
// which follows facing); one step per click, each step opening the passive side's reaction
// window, answered here with the listed short moves, reaction fire and attacks of
// opportunity or a pass; charges declared on a target; melee attacks, and the Maneuver on
// a lit hex, in the melee phase; odds on hover (POST .../preview); the log in words.

import { esc, nice, ruleBadge, sideColour } from './api.js';
import { phaseLine } from './log.js';
import { panelKit } from './panel_kit.js';
import { chargeOddsHtml, counterFace, fleeHtml, pickInHex, refusedHtml, rolls, rosterHtml, valuesWords } from './skirmish_panel.js';

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

/** A character's name as the page writes it. */
function who(id) {
  const u = unit(id);
  return (u && u.name) || id;
}

function whoHtml(id) {
  const u = unit(id);
  return `<b class="u" data-unit="${esc(id)}"><span class="side-chip" style="background:${u ? sideColour(u.side) : '#888'}"></span> ${esc(who(id))}</b>`;
}

/** The attacks a click on an enemy makes, by kind, in the order tried. */
const AT_TARGET = ['shoot', 'attack', 'opportunity', 'charge'];

/** An action in words, for tooltips and buttons. */
function label(a) {
  switch (a.type) {
    case 'shoot':
      return `${who(a.unit)} shoots at ${who(a.target)}`;
    case 'attack':
      return `${who(a.unit)} attacks ${who(a.target)}`;
    case 'opportunity':
      return `${who(a.unit)} strikes ${who(a.target)} as it leaves`;
    case 'charge':
      return `${who(a.unit)} charges ${who(a.target)}${a.together ? ' with its formation' : ''}`;
    case 'maneuver':
      return `${who(a.unit)} manoeuvres to ${a.to}`;
    case 'short_move':
      return `${who(a.unit)} makes a short move to ${a.to}, facing ${a.facing}`;
    case 'move':
      return `${who(a.unit)} steps to ${a.to}${a.evasive ? ', evasively' : ''}`;
    default:
      return nice(a.type);
  }
}

/** A preview's outcome (what changed, by character) in words. */
function outcomeText(result) {
  if (typeof result === 'string') return result;
  const parts = Object.entries(result || {}).map(([id, r]) => {
    const bits = [];
    if (r.damage) bits.push(`${r.damage} damage`);
    if (r.wounded) bits.push('wounded');
    if (r.dazed) bits.push('dazed');
    if (r.out) bits.push('out of action');
    if (r.at) bits.push(`ends in ${r.at}`);
    return `${who(id)}: ${bits.join(', ') || 'unchanged'}`;
  });
  return parts.join('; ') || 'no effect';
}

function endAction(game) {
  const acts = (game && game.actions) || [];
  return acts.find((a) => a.type === 'pass') || acts.find((a) => a.type === 'end_phase') || null;
}

function endLabel(game) {
  const a = endAction(game);
  return a && a.type === 'pass' ? 'Pass' : 'End phase';
}

/** Why the phase cannot end yet, in the rules' words (SK-STA-2, SK-CHG-2). */
function endReason(game) {
  const acts = (game && game.actions) || [];
  const v = (game && game.view) || {};
  // The game's own view: the panel's may still be the one before.
  const of = (id) => (v.units || []).find((u) => u.id === id);
  const named = (id) => of(id)?.name || id;
  const fleeing = [...new Set(acts.filter((a) => a.type === 'flee' || (a.type === 'move' && (of(a.unit)?.statuses || []).includes('panicked'))).map((a) => a.unit))];
  if (fleeing.length) return `${fleeing.map(named).join(' and ')} ${fleeing.length === 1 ? 'is' : 'are'} panicked and must flee toward the home edge before anyone else moves (SK-STA-2).`;
  if (v.charge && v.charge.current) return `${named(v.charge.current)} must finish the charge first: click a lit hex toward its target (SK-CHG-2).`;
  return null;
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
  const targets = new Set(acts.filter((a) => a.unit === kit.sel && AT_TARGET.includes(a.type)).map((a) => a.target));
  kit.setCounters((u) => ({
    ...counterFace(u),
    facing: typeof u.facing_index === 'number' ? u.facing_index : DIRS.indexOf(u.facing),
    tip: `${u.name || u.id} (${ctx.sideName(u.side)}), facing ${u.facing}; health ${u.health}, damage ${u.damage}, ${u.mp} MP${(u.statuses || []).length ? `; ${u.statuses.join(', ')}` : ''}; ${valuesWords(u)}`,
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
    // SK-SHM-4: a Maneuver ends on any of these hexes.
    for (const a of acts) if (a.unit === kit.sel && a.type === 'maneuver') hl.push({ hex: a.to, cls: 'reach', text: 'man.', inset: 0.94 });
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
    const fire = acts.filter((a) => a.type === 'shoot');
    const reactors = [...new Set(acts.filter((a) => a.type === 'short_move').map((a) => a.unit))];
    prompt = `<section class="sk-prompt" id="sk-prompt"><h3>${esc(ctx.sideName(kit.g.to_act.side))}: ${w.kind === 'opportunity' ? 'attack of opportunity?' : 'react?'} ${ruleBadge(w.kind === 'opportunity' ? 'SK-MOV-9' : 'SK-MOV-2')}</h3>
      <div>${esc(mover ? mover.name : w.unit)} ${w.kind === 'opportunity' ? 'is leaving your zone of control' : `has moved to ${esc(w.at || mover?.hex || '')}`}.</div>
      ${opp.length ? `<div class="bc-choices">${opp.map((a, i) => `<button class="sk-opp" data-opp="${i}">${esc(who(a.unit))} strikes</button>`).join('')}</div>` : ''}
      ${fire.length ? `<div>Reaction fire ${ruleBadge('SK-MIS-4')}: spends the Quick Action on a shot at ${esc(who(w.unit))}.</div><div class="bc-choices">${fire.map((a, i) => `<button class="sk-fire" data-fire="${i}" title="${esc(label(a))}">${esc(who(a.unit))} shoots (${esc(unit(a.unit)?.missile?.name || 'missile')}) <span class="muted" data-fire-odds="${i}"></span></button>`).join('')}</div>` : ''}
      ${reactors.length ? `<div>Short move ${ruleBadge('SK-SHM-1')}: click a reactor, then a lit hex (<kbd>[</kbd> <kbd>]</kbd> turn on the spot).</div><div class="bc-choices">${reactors.map((id) => `<button class="sk-react ${id === kit.sel ? 'on' : ''}" data-reactor="${esc(id)}">${esc(who(id))}</button>`).join('')}</div>` : ''}
      <div class="bc-choices"><button id="sk-pass" class="primary">Pass</button> <button id="sk-pass-phase" title="answer every reaction window of this phase with a pass">Pass for the rest of this phase</button></div></section>`;
  } else if (w && inWindow()) {
    prompt = `<section class="sk-prompt"><h3>${esc(ctx.sideName(kit.g.to_act.side))} may react</h3><div class="muted">waiting for the passive side…</div></section>`;
  }
  let selHtml = '';
  if (s) {
    const faces = DIRS.map((d) => ({ d, a: faceAction(s, d) }));
    const mine = acts.filter((a) => a.unit === kit.sel && ['defend', 'flee'].includes(a.type));
    const charges = acts.filter((a) => a.unit === kit.sel && a.type === 'charge');
    const shots = acts.filter((a) => a.unit === kit.sel && a.type === 'shoot' && !inWindow());
    const manoeuvres = acts.filter((a) => a.unit === kit.sel && a.type === 'maneuver');
    const m = s.missile;
    selHtml = `<section><h3>${esc(s.name || s.id)}<span class="sr-gap">: </span><span class="muted">Esc to deselect</span></h3>
      <div class="muted">${s.formation ? `${esc(nice(s.formation))} · ` : ''}facing <b id="sk-facing">${esc(s.facing)}</b> · ${s.mp} MP left · health ${s.health - s.damage}/${s.health} · ${esc(weaponWords(s.weapon?.name))}</div>
      ${faces.some((f) => f.a) ? `<div>Face: <span class="bc-choices sk-faces">${faces.map((f) => `<button data-face="${f.d}" ${f.a ? '' : 'disabled'} class="${f.d === s.facing ? 'on' : ''}">${f.d.toUpperCase()}</button>`).join('')}</span> <span class="muted"><kbd>[</kbd> <kbd>]</kbd></span></div>` : ''}
      ${acts.some((a) => a.unit === kit.sel && a.type === 'move' && a.evasive) ? `<label><input type="checkbox" id="sk-evasive" ${evasive ? 'checked' : ''}> evasive steps (+1 MP)</label>` : ''}
      ${charges.length ? `<div>Charge: click a red-ringed enemy. ${charges.some((a) => a.together) ? `<label><input type="checkbox" id="sk-together" ${together ? 'checked' : ''}> with the formation</label>` : ''}</div>` : ''}
      ${m ? `<div class="muted">${esc(m.name)}: short range ${esc(m.short)}, range ${esc(m.range)}, damage ${esc(m.damage)}</div>` : ''}
      ${shots.length ? `<div id="sk-shoot-hint">Shoot ${ruleBadge('SK-MIS-1')}: click a red-ringed enemy (hover for the odds); the Quick Action is spent.</div>` : ''}
      ${manoeuvres.length ? `<div id="sk-maneuver-hint">Maneuver ${ruleBadge('SK-SHM-4')}: click a lit hex to make a short move there instead of attacking; the Melee Action is spent.</div>` : ''}
      ${mine.length ? `<div class="bc-choices">${mine.map((a, i) => `<button data-mine="${i}">${esc(nice(a.type))}</button>`).join('')}</div>` : ''}
      ${kit.reachAnswered ? '<div class="muted">Numbers: movement points to get there, facing counted; a click steps one hex along the way.</div>' : ''}</section>`;
    panel.mine = mine;
  }
  ctx.panel.innerHTML = `<section><h3>${esc(nice(v.phase || ''))}<span class="sr-gap">: </span><span class="muted">turn ${v.turn}/${v.turns} · ${esc(ctx.sideName(v.active || ''))} active</span></h3>
    <div>Points: ${Object.entries(v.points || {}).map(([k, n]) => `${esc(ctx.sideName(k))} ${n}`).join(' · ')}</div>
    ${phaseHint(v, acts)}
    ${v.charge ? chargeHtml(v.charge) : ''}</section>${ctx.canAct() ? fleeHtml(acts, who) : ''}${prompt}${rosterOf()}${selHtml}`;
  const p = ctx.panel;
  p.querySelector('#sk-pass')?.addEventListener('click', () => {
    const a = acts.find((x) => x.type === 'pass');
    if (a) ctx.act(a);
  });
  p.querySelector('#sk-pass-phase')?.addEventListener('click', () => {
    passingPhase = phaseKey();
    const a = acts.find((x) => x.type === 'pass');
    if (a) ctx.act(a);
  });
  const opp = acts.filter((a) => a.type === 'opportunity');
  p.querySelectorAll('button[data-opp]').forEach((b) => (b.onclick = () => ctx.act(opp[+b.dataset.opp])));
  const fire = acts.filter((a) => a.type === 'shoot');
  p.querySelectorAll('button[data-fire]').forEach((b) => {
    const a = fire[+b.dataset.fire];
    b.onclick = () => ctx.act(a);
    // The chance to hit beside each shooter, from the rules' own odds.
    kit.preview(a).then((pv) => {
      const span = b.querySelector('[data-fire-odds]');
      if (span && b.isConnected && !pv.error) span.textContent = `${pct(hitChance(pv, a.target))} to hit`;
    });
  });
  p.querySelectorAll('button[data-reactor]').forEach(
    (b) =>
      (b.onclick = () => {
        kit.select(kit.sel === b.dataset.reactor ? null : b.dataset.reactor);
      }),
  );
  p.querySelectorAll('button[data-pick]').forEach((b) => (b.onclick = () => kit.select(b.dataset.pick)));
  const flee = acts.filter((a) => a.type === 'flee');
  p.querySelectorAll('button[data-flee]').forEach((b) => (b.onclick = () => ctx.act(flee[+b.dataset.flee])));
  p.querySelectorAll('button[data-face]').forEach((b) => (b.onclick = () => turnTo(b.dataset.face)));
  p.querySelectorAll('button[data-mine]').forEach((b) => (b.onclick = () => ctx.act(panel.mine[+b.dataset.mine])));
  p.querySelector('#sk-evasive')?.addEventListener('change', (e) => {
    evasive = e.target.checked;
    draw();
  });
  p.querySelector('#sk-together')?.addEventListener('change', (e) => (together = e.target.checked));
}

// The last hex clicked that several characters share: its roster stays in the sidebar.
let stackHex = null;

/** The characters sharing the selected character's hex, or the last such hex clicked. */
function rosterOf() {
  const s = kit.sel && unit(kit.sel);
  const hex = s && kit.unitsAt(s.hex).length > 1 ? s.hex : stackHex;
  return hex ? rosterHtml(hex, kit.unitsAt(hex), kit.sel, (u) => actions().some((a) => a.unit === u.id)) : '';
}

function pct(p) {
  return `${(100 * p).toFixed(p > 0 && p < 0.1 ? 1 : 0)}%`;
}

/** The chance that a preview's action does the target any harm. */
function hitChance(p, target) {
  return (p.outcomes || []).filter((o) => o.result && typeof o.result === 'object' && o.result[target] && (o.result[target].damage || o.result[target].out)).reduce((n, o) => n + o.p, 0);
}

/** What the phase asks of the side to act, when it is this page's. */
function phaseHint(v, acts) {
  if (!ctx.canAct() || inWindow()) return '';
  if (v.phase === 'missile' && acts.some((a) => a.type === 'shoot')) return `<div class="muted">${ruleBadge('SK-MIS-1')} Missile phase: click a shooter, then a red-ringed enemy.</div>`;
  if (v.phase === 'melee' && acts.some((a) => a.type === 'maneuver')) return `<div class="muted">${ruleBadge('SK-SHM-4')} An Engaged character may attack, or manoeuvre to a lit hex.</div>`;
  return '';
}

// The odds of the strike at the end of the charge this page declared, read as it was
// declared (SK-CHG-10): shown beside the charge while it is under way.
let declared = null;

/** The odds of a charge's strike: of the declaration itself, or of the strike at its end. */
function chargeTitle(a, p) {
  const from = p && p.inputs && p.inputs.strike_from;
  return `${esc(label(a))}${from ? `: the strike at its end, from ${esc(from)}, if nothing stops the charge on the way` : ''}`;
}

/** Declares a charge, keeping the odds of its strike (asked while the declaration is listed). */
async function declareCharge(a, foe) {
  const p = await kit.previewIfRolls(a);
  declared = rolls(p) ? { unit: a.unit, target: a.target, html: chargeOddsHtml(chargeTitle(a, p), p, foe, unit(a.unit), outcomeText) } : null;
  return ctx.act(a);
}

/** The charge under way in words (SK-CHG-2, SK-CHG-13): who charges whom, who steps next. */
function chargeHtml(c) {
  const legs = (c.legs || []).map((l) => `${whoHtml(l.unit)} at ${whoHtml(l.target)}${l.done ? ' <span class="muted">(done)</span>' : ''}`);
  const odds = declared && (c.legs || []).some((l) => l.unit === declared.unit && l.target === declared.target && !l.done) ? `<div id="sk-declared-odds">${declared.html}</div>` : '';
  return `<div id="sk-charge">${ruleBadge('SK-CHG-2')} Charge under way: ${legs.join('; ')}${c.current ? `. ${esc(who(c.current))} steps next.` : '.'}${odds}</div>`;
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
  stackHex = here.length > 1 ? hex : null;
  if (kit.sel) {
    const s = unit(kit.sel);
    const shorts = acts.filter((a) => a.unit === kit.sel && a.type === 'short_move' && a.to === hex);
    if (shorts.length) return ctx.act(shorts.find((a) => a.facing === s.facing) || shorts[0]);
    const foe = pickInHex(ctx.board, here.filter((u) => u.side !== s.side), ev);
    if (foe) {
      const charges = acts.filter((a) => a.unit === kit.sel && a.type === 'charge' && a.target === foe.id);
      const pick = acts.find((a) => a.unit === kit.sel && ['shoot', 'attack', 'opportunity'].includes(a.type) && a.target === foe.id) || charges.find((a) => !!a.together === together) || charges[0];
      if (pick) return pick.type === 'charge' ? declareCharge(pick, foe) : ctx.act(pick);
    }
    const man = acts.find((a) => a.unit === kit.sel && a.type === 'maneuver' && a.to === hex);
    if (man) return ctx.act(man);
    const ev2 = evasive || (ev && ev.shiftKey);
    const step = acts.find((a) => a.unit === kit.sel && a.type === 'move' && a.to === hex && !!a.evasive === ev2) || acts.find((a) => a.unit === kit.sel && a.type === 'move' && a.to === hex);
    if (step) return ctx.act(step);
    const far = kit.reach.get(hex);
    if (far && far.path && far.path.length) {
      const first = acts.find((a) => a.unit === kit.sel && a.type === 'move' && a.to === far.path[0] && !!a.evasive === ev2) || acts.find((a) => a.unit === kit.sel && a.type === 'move' && a.to === far.path[0]);
      if (first) return ctx.act(first);
    }
  }
  const sel = kit.sel && unit(kit.sel);
  const foe = sel && here.find((u) => u.side !== sel.side);
  if (foe && !here.some((u) => acts.some((a) => a.unit === u.id))) {
    // An enemy the selected character may not act on: the rules' reason.
    const a = { type: view().phase === 'missile' ? 'shoot' : 'attack', unit: kit.sel, target: foe.id };
    kit.explain(a).then((x) => ctx.notice(refusedHtml(`${who(kit.sel)} cannot ${a.type === 'shoot' ? 'shoot at' : 'attack'} ${who(foe.id)}`, x)));
    return;
  }
  // Of those who share the hex, the one whose counter was clicked (SK-MEL-4).
  const able = here.filter((u) => acts.some((a) => a.unit === u.id));
  const picked = here.length > 1 ? pickInHex(ctx.board, here, ev) : able[0];
  kit.select(picked && picked.id !== kit.sel ? picked.id : null);
}

async function onHover(hex, ev, h) {
  ctx.hexInfo(hex ? ctx.board.describeHex(hex) : '');
  const foe = hex && kit.sel && kit.unitsAt(hex).find((u) => u.side !== unit(kit.sel)?.side);
  const a = foe
    ? actions().find((x) => x.unit === kit.sel && AT_TARGET.includes(x.type) && x.target === foe.id && (x.type !== 'charge' || !!x.together === together))
    : hex && kit.sel && actions().find((x) => x.unit === kit.sel && x.type === 'maneuver' && x.to === hex);
  if (!a) {
    if (hex && kit.sel && !foe) return chargeStep(hex, ev, h);
    if (!hex || !foe) return h.hide();
    // Listed for nobody: the rules' reason why not.
    const would = { type: view().phase === 'missile' ? 'shoot' : 'attack', unit: kit.sel, target: foe.id };
    const x = await kit.explain(would);
    if (h.live()) h.tip(refusedHtml(`${who(kit.sel)} cannot ${would.type === 'shoot' ? 'shoot at' : 'attack'} ${who(foe.id)}`, x), ev, 'refused');
    return;
  }
  if (a.type === 'charge') {
    // SK-CHG-2: declaring a charge rolls no dice unless the target is in reach at once;
    // the strike at its end is rolled when the charger arrives (SK-CHG-10), and the
    // rules' preview of the declaration gives the odds of that strike.
    const p = await kit.previewIfRolls(a);
    if (!h.live()) return;
    if (rolls(p)) return h.tip(`${chargeOddsHtml(chargeTitle(a, p), p, foe, unit(kit.sel), outcomeText)}<div class="muted">click to declare</div>`, ev);
    return h.tip(`<div class="sk-charge-odds"><b>${esc(label(a))}</b><div class="muted">${ruleBadge('SK-CHG-2')} declaring the charge rolls no dice; the strike at its end is rolled when ${esc(who(kit.sel))} reaches ${esc(who(foe.id))} ${ruleBadge('SK-CHG-10')}, with +2 damage, after the target's counter ${ruleBadge('SK-CHG-11')}: its odds show on the step that reaches the target.</div><div class="muted">${esc(unit(kit.sel)?.mp)} MP to get there · click to declare</div></div>`, ev);
  }
  const p = await kit.preview(a);
  if (p.error) return h.tip(`<b>${esc(label(a))}</b>${a.type === 'maneuver' ? `<div class="muted">${ruleBadge('SK-SHM-4')} a short move instead of an attack: click to manoeuvre</div>` : ''}`, ev);
  const rows = [...(p.outcomes || [])]
    .sort((x, y) => y.p - x.p)
    .slice(0, 8)
    .map((o) => `<tr><td>${esc(outcomeText(o.result))}</td><td>${pct(o.p)}</td></tr>`)
    .join('');
  const shot = p.inputs && p.inputs.shot;
  const hit = a.type === 'shoot' && shot ? `<div>${ruleBadge('SK-MIS-3')} hits on a ${esc(shot.hit_on_die)} or more · ${esc(shot.range)} range, ${esc(shot.distance)} hexes, from the ${esc(shot.arc)}</div>` : '';
  h.tip(`<div class="sk-odds"><b>${esc(label(a))}</b> <span class="muted">${esc(p.roll || '')}</span>${hit}<table>${rows}</table><div class="muted">click to ${a.type === 'maneuver' ? 'manoeuvre' : a.type === 'shoot' ? 'shoot' : 'attack'}</div></div>`, ev);
}

/** During a charge, the odds of the strike on a step that reaches the target (SK-CHG-10). */
async function chargeStep(hex, ev, h) {
  const c = view().charge;
  const step = c && c.current === kit.sel && actions().find((x) => x.unit === kit.sel && x.type === 'move' && x.to === hex);
  if (!step) return h.hide();
  const p = await kit.previewIfRolls(step);
  if (!h.live()) return;
  const leg = (c.legs || []).find((l) => l.unit === kit.sel);
  const target = leg && unit(leg.target);
  if (rolls(p) && target) h.tip(chargeOddsHtml(`${esc(who(kit.sel))} reaches ${esc(who(target.id))} and strikes`, p, target, unit(kit.sel), outcomeText), ev);
  else h.hide();
}

// ---- the log --------------------------------------------------------------------------------

const ATTACK = {
  melee: ['attacks', 'SK-MEL-7'],
  counter: ['counterattacks', 'SK-CHG-11'],
  charge: ['strikes at the end of its charge', 'SK-CHG-10'],
  opportunity: ['makes an attack of opportunity on', 'SK-MEL-5'],
  missile: ['shoots at', 'SK-MIS-3'],
  reaction_fire: ['answers with reaction fire at', 'SK-MIS-4'],
};
const SPENT = { quick_action: 'Quick Action', complex_action: 'Complex Action', melee_action: 'Melee Action' };

// The modifiers whose names are the data's keys, in words.
const TERM = { two_handed: 'two-handed weapon', round: 'round shield', buckler: 'buckler' };

/** A weapon's or missile's data key in words ("two_handed" → "two-handed weapon"). */
function weaponWords(name) {
  return name ? TERM[name] || String(name).replace(/_/g, ' ') : '';
}

function terms(list) {
  return (list || []).map((t) => `${TERM[t.what] || String(t.what).replace(/_/g, ' ')} ${t.value >= 0 ? '+' : ''}${t.value}`).join(', ');
}

function describeAction(a, events) {
  switch (a.type) {
    case 'move':
      return `${whoHtml(a.unit)} steps to ${esc(a.to)}${a.evasive ? ' <span class="muted">evasively</span>' : ''}`;
    case 'face':
      return `${whoHtml(a.unit)} turns to face ${esc(a.facing)}`;
    case 'charge':
      return `${whoHtml(a.unit)} <b>charges</b> ${whoHtml(a.target)}${a.together ? ' with its formation' : ''}`;
    case 'defend':
      return `${whoHtml(a.unit)} <b>defends</b>`;
    case 'flee':
      return `${whoHtml(a.unit)} flees the field`;
    case 'attack':
      return `${whoHtml(a.unit)} <b>attacks</b> ${whoHtml(a.target)}`;
    case 'opportunity':
      return `${whoHtml(a.unit)} strikes ${whoHtml(a.target)} as it leaves`;
    case 'shoot': {
      const fire = (events || []).some((e) => e.type === 'attacked' && e.kind === 'reaction_fire');
      return `${whoHtml(a.unit)} <b>${fire ? 'answers with reaction fire at' : 'shoots at'}</b> ${whoHtml(a.target)}`;
    }
    case 'maneuver':
      return `${whoHtml(a.unit)} <b>manoeuvres</b> to ${esc(a.to)}`;
    case 'short_move':
      // A short move that ends where it began only turns the character (SK-SHM-3).
      return (events || []).some((e) => e.type === 'moved') ? `${whoHtml(a.unit)} makes a short move to ${esc(a.to)}, facing ${esc(a.facing)}` : `${whoHtml(a.unit)} turns on the spot to face ${esc(a.facing)}`;
    case 'pass':
      return '<span class="muted">passes</span>';
    default:
      return null;
  }
}

function describeEvent(e) {
  switch (e.type) {
    case 'phase_began':
      return phaseLine(e, ctx, ruleBadge('SK-TURN-1'));
    case 'moved':
      return { html: `${whoHtml(e.unit)} ${esc(e.from)} → ${esc(e.to)} <span class="muted">${e.cost} MP, ${e.left} left</span> ${(e.rules || []).map(ruleBadge).join(' ')}`, cls: '' };
    case 'faced':
      return { html: `${whoHtml(e.unit)} faces ${esc(e.facing)} ${ruleBadge(e.rule)}`, cls: '' };
    case 'halted':
      return { html: `${whoHtml(e.unit)} stops: ${esc(e.reason)} ${ruleBadge(e.rule)}`, cls: '' };
    case 'charge_declared':
      return { html: `${whoHtml(e.unit)} charges ${whoHtml(e.target)} with ${esc(e.mp)} MP${(e.with || []).length ? `, with ${e.with.map(whoHtml).join(', ')}` : ''} ${ruleBadge('SK-CHG-2')}`, cls: '' };
    case 'charge_ended':
      return { html: `${whoHtml(e.unit)}'s charge ends: ${esc(e.reason)} ${ruleBadge(e.rule)}`, cls: '' };
    case 'window_opened':
      return { html: `<span class="muted">${esc(ctx ? ctx.sideName(e.side) : e.side)} may ${e.kind === 'opportunity' ? `strike ${esc(who(e.unit))} as it leaves` : `react to ${esc(who(e.unit))}'s step`}</span> ${ruleBadge(e.kind === 'opportunity' ? 'SK-MOV-9' : 'SK-MOV-2')}`, cls: '' };
    case 'passed':
      return null; // the action's line says it
    case 'attacked': {
      const [verb, rule] = ATTACK[e.kind] || ['attacks', 'SK-MEL-6'];
      const sum = `die ${esc(e.die)} + ${esc(e.attack)} against ${esc(e.defense)}: ${esc(e.result)}`;
      return {
        html: `${whoHtml(e.unit)} ${verb} ${whoHtml(e.target)}: ${sum}, <b>${e.hit ? `a hit, ${esc(e.damage)} damage` : 'a miss'}</b> ${ruleBadge(rule)}<br><span class="muted">attack ${esc(terms(e.attack_terms))}; defense ${esc(terms(e.defense_terms))}</span>`,
        cls: e.hit ? 'bad' : '',
      };
    }
    case 'status':
      return { html: `${whoHtml(e.unit)} ${e.on ? 'is now' : 'is no longer'} <b>${esc(nice(e.status))}</b>: ${esc(e.reason)} ${ruleBadge(e.rule)}`, cls: e.on && e.status !== 'defending' && e.status !== 'evasive' ? 'bad' : '' };
    case 'spent':
      return { html: `<span class="muted">${esc(who(e.unit))} spends its ${esc(SPENT[e.action] || nice(e.action))}</span> ${ruleBadge(e.rule)}`, cls: '' };
    case 'checked':
      return { html: `${whoHtml(e.unit)} ${esc(nice(e.check))}: ${esc(e.total)} (needs ${esc(e.need)}), ${esc(e.result)} ${ruleBadge(e.rule)}`, cls: '' };
    case 'out_of_action':
      return { html: `${whoHtml(e.unit)} is <b>out of action</b> ${ruleBadge(e.rule)}`, cls: 'bad' };
    case 'fled':
      return { html: `${whoHtml(e.unit)} flees the field ${ruleBadge(e.rule)}`, cls: 'bad' };
    default:
      return undefined;
  }
}

// The phase whose reaction windows this page answers with a pass ("Pass for the rest of
// this phase"), and the last game position it passed at by itself.
let passingPhase = null;
let autoPassedAt = null;

function phaseKey() {
  const v = view();
  return `${ctx.gameId}|${v.turn}|${v.phase}|${v.active}`;
}

/**
 * SK-MOV-2: a reaction window this seat must answer is answered with a pass by itself when
 * nothing but a pass is listed (no reactor able to act), or when the player chose to pass
 * for the rest of the phase; the log says so.
 */
function autoPass() {
  if (!inWindow() || !ctx.canAct() || autoPassedAt === kit.g.n) return;
  const acts = actions();
  const pass = acts.find((a) => a.type === 'pass');
  if (!pass) return;
  const onlyPass = acts.every((a) => a.type === 'pass');
  if (!onlyPass && passingPhase !== phaseKey()) return;
  autoPassedAt = kit.g.n;
  const at = kit.g.n;
  // Only if the game is still where the pass was chosen.
  setTimeout(() => {
    if (kit.g && kit.g.n === at && ctx.canAct()) ctx.act(pass, { quiet: true });
  }, 150);
}

/** While a character moves or charges, it stays selected for its next step. */
function onView() {
  autoPass();
  const v = view();
  const moving = v.moving || (v.charge && v.charge.current);
  if (!kit.sel && moving && actions().some((a) => a.unit === moving && a.type === 'move')) kit.sel = moving;
}

export default kit.module({
  name: 'skirmish',
  keysHelp: 'click a character, then a lit hex (numbers: MP with facing) · <kbd>[</kbd> <kbd>]</kbd> turn · click an enemy to shoot, charge or attack · <kbd>Enter</kbd> ends the phase or passes · <kbd>Esc</kbd> deselects ·',
  phases: ['missile', 'movement', 'melee'],
  endAction,
  endLabel,
  endReason,
  describeAction,
  describeEvent,
  key(ev) {
    if (ev.key === '[' || ev.key === ',') return kit.sel ? (rotate(-1), true) : false;
    if (ev.key === ']' || ev.key === '.') return kit.sel ? (rotate(1), true) : false;
    return false;
  },
  nice,
});
