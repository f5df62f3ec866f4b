// The Jomini panel: activations chosen on the board (an officer, then the units that join
// him), order tokens and manoeuvre orders as buttons with their cost, the reachable hexes
// of the movement phase with road march and pass-through marked, attack odds on hover
// (POST .../preview), retreats, and the phase-end buttons. The log words what it knows
// (a panicking elephant); the rest is written out plainly.

import { esc, nice, ruleBadge, sideColour } from './api.js';
import { panelKit } from './panel_kit.js';
import { counterFace, oddsHtml, refusedHtml, retreatHtml, waitingAction, waitingHtml, wouldBe } from './jomini_panel.js';

let ctx = null;
let picking = null; // an order kind waiting for the unit it is given to
// The selection (movement, combat) lasts while the unit has a listed action.
const kit = panelKit({ draw, click: onClick, hover: onHover, keep: (id) => kit.actions().some((a) => a.unit === id), onView, init: (c) => (ctx = c) });

const ORDERS = ['mount', 'reconnaissance', 'forced_march', 'woods_runner', 'courier', 'combined_attack', 'manoeuvre', 'forward_march', 'general_assault'];

const view = () => kit.view();
const piece = (id) => kit.unit(id);
const actions = () => kit.actions();
const phase = () => kit.phase();

function endAction(game) {
  const acts = (game && game.actions) || [];
  return acts.find((a) => a.type === 'end_command') || acts.find((a) => a.type === 'end_movement') || acts.find((a) => a.type === 'end_turn') || null;
}

function endLabel(game) {
  const a = endAction(game);
  if (!a) return 'End phase';
  return { end_command: 'End command', end_movement: 'End movement', end_turn: 'End turn' }[a.type];
}

function groupOf(p) {
  return p.group != null ? (view().groups || [])[p.group] : null;
}

function draw() {
  const v = view();
  const acts = actions();
  const activatable = new Set(acts.filter((a) => a.type === 'activate').map((a) => a.unit));
  const pickable = picking ? new Set(acts.filter((a) => a.type === 'order' && a.order === picking && a.unit).map((a) => a.unit)) : null;
  const pending = v.pending;
  const target = (id) => kit.sel && acts.some((a) => a.type === 'attack' && a.unit === kit.sel && a.target === id);
  kit.setCounters((p) => ({
    ...counterFace({ ...p, dice: Array.isArray(p.dice) ? p.dice[0] : p.dice }, name),
    tip: `${p.id}: ${nice(p.type)}, ${p.weight}${p.officer ? '' : `, strength ${p.strength} of ${p.full}`}${p.group != null ? ', activated' : ''}${p.moved ? ', moved' : ''}${p.attacked ? ', attacked' : ''}${p.no_combat ? ', may not fight' : ''}${p.waiting ? ', waiting' : ''}`,
    marks: {
      selected: p.id === kit.sel,
      ordered: p.group != null,
      spent: p.moved && phase() === 'movement' || p.attacked,
      target: target(p.id),
      'active-pick': activatable.has(p.id) || (pickable && pickable.has(p.id)),
    },
  }));
  const hl = [];
  if (pending && pending.kind === 'retreat') {
    // JO-RET-2: `pending.hexes` is how far the unit must go; the listed retreats are where it can end.
    for (const a of acts.filter((x) => x.type === 'retreat')) hl.push({ hex: a.to, cls: 'reach', text: 'retreat' });
  } else if (pickable) {
    for (const id of pickable) hl.push({ hex: piece(id)?.hex, cls: 'movable', inset: 0.86 });
  } else if (phase() === 'command') {
    for (const id of activatable) hl.push({ hex: piece(id)?.hex, cls: 'movable', inset: 0.86 });
  } else if (kit.sel && phase() === 'movement') {
    const legal = new Set(acts.filter((a) => a.type === 'move' && a.unit === kit.sel).map((a) => a.to));
    for (const m of (v.moves || {})[kit.sel] || []) {
      if (!legal.has(m.hex)) continue;
      const cls = m.through ? 'reach through' : m.road_march ? 'reach road' : m.combat === false ? 'reach-stop' : 'reach';
      hl.push({ hex: m.hex, cls, text: m.through ? '⇢' : m.road_march ? 'road' : m.combat === false ? 'no fight' : undefined });
    }
  } else if (kit.sel && phase() === 'combat') {
    for (const a of acts.filter((x) => x.type === 'attack' && x.unit === kit.sel)) hl.push({ hex: piece(a.target)?.hex, cls: 'attackable' });
  } else if (!kit.sel) {
    for (const id of new Set(acts.filter((a) => a.unit && (a.type === 'move' || a.type === 'attack')).map((a) => a.unit))) hl.push({ hex: piece(id)?.hex, cls: 'movable', inset: 0.86 });
  }
  kit.setHighlights(hl);
  panel();
}

function panel() {
  const v = view();
  const acts = actions();
  const side = v.active;
  const tokens = v.tokens || {};
  const costs = v.order_costs || {};
  const act = v.activations || {};
  const groups = v.groups || [];
  const orderButtons = ORDERS.filter((o) => costs[o] != null)
    .map((o) => {
      const listed = acts.filter((a) => a.type === 'order' && a.order === o);
      return `<button class="jo-order ${picking === o ? 'on' : ''}" data-order="${o}" ${listed.length ? '' : 'disabled'} title="${esc(nice(o))}: ${costs[o]} token${costs[o] === 1 ? '' : 's'}">${esc(nice(o))} <span class="cost">${costs[o]}</span></button>`;
    })
    .join('');
  const s = kit.sel && piece(kit.sel);
  const extra = acts.filter((a) => a.type === 'exit' && (!kit.sel || a.unit === kit.sel));
  const pend = v.pending && v.pending.kind === 'retreat' ? retreatHtml(v.pending, acts, name, ctx.canAct()) : '';
  const odds = kit.info && kit.info.preview ? `<section class="combat-panel"><h3>Attack<span class="sr-gap">: </span><span class="muted">before the dice</span></h3>${oddsHtml(kit.info.action, kit.info.preview, name, 'jo-odds-panel')}</section>` : '';
  ctx.panel.innerHTML = `
    <section class="jo-status"><h3>${esc(nice(phase() || ''))}<span class="sr-gap">: </span><span class="muted">${esc(ctx.sideName(side || ''))} active</span></h3>
      <div>Tokens: ${Object.entries(tokens).map(([k, n]) => `<b data-tokens="${esc(k)}">${esc(ctx.sideName(k))} ${n}</b>`).join(' · ')}</div>
      <div>Points: ${Object.entries(v.points || {}).map(([k, n]) => `${esc(ctx.sideName(k))} ${n}${v.target && v.target[k] != null ? `/${v.target[k]}` : ''}`).join(' · ')}</div>
      <div class="jo-activations">Activations: <b id="jo-activations">${groups.length} of ${act.count ?? '?'}</b> <span class="muted">(up to ${act.units ?? '?'} units within ${act.radius ?? '?'} hexes of the officer)</span></div>
      ${groups.map((gr) => `<div class="muted">${esc(gr.officer ? name(gr.officer) : 'Courier')}: ${gr.units.length ? esc(gr.units.map(name).join(', ')) : 'no units yet'}${gr.combined ? ' · combined' : ''}${gr.anywhere ? ' · anywhere' : ''}${gr.forward ? ' · forward march' : ''}</div>`).join('')}
    </section>
    ${pend}${odds}
    <section><h3>Manoeuvre orders<span class="sr-gap">: </span><span class="muted">cost in tokens</span></h3><div class="bc-choices jo-orders">${orderButtons}</div>
      ${picking ? `<div class="muted">Click a lit unit to give it ${esc(nice(picking))} (Esc cancels).</div>` : ''}</section>
    ${s ? `<section><h3>Selected<span class="sr-gap">: </span><span class="muted">Esc to deselect</span></h3><b>${esc(name(s.id))}</b> <span class="muted">${esc(nice(s.type))} ${s.hex ? `at ${esc(s.hex)}` : 'off the table'}</span>
      <div class="muted">Lit hexes: yellow a move, <span class="jo-key road">road</span> road march, <span class="jo-key through">⇢</span> passing through friends, orange no combat after.</div></section>` : ''}
    ${extra.length ? `<section><div class="bc-choices">${extra.map((a, i) => `<button data-exit="${i}">Exit ${esc(name(a.unit))}</button>`).join('')}</div></section>` : ''}
    ${waitingHtml(kit.units(), acts, { name, sel: kit.sel, picking })}`;
  ctx.panel.querySelectorAll('button.jo-order').forEach(
    (b) =>
      (b.onclick = () => {
        const o = b.dataset.order;
        const listed = acts.filter((a) => a.type === 'order' && a.order === o);
        if (listed.length === 1 && !listed[0].unit) return ctx.act(listed[0]);
        if (listed.every((a) => !a.unit)) return ctx.act(listed.sort((a, b2) => (a.hexes || 0) - (b2.hexes || 0))[0]);
        picking = picking === o ? null : o;
        kit.select(null);
      }),
  );
  const ends = acts.filter((x) => x.type === 'retreat');
  ctx.panel.querySelectorAll('button[data-retreat]').forEach((b) => (b.onclick = () => ctx.act(ends[+b.dataset.retreat])));
  ctx.panel.querySelectorAll('button[data-exit]').forEach((b) => (b.onclick = () => ctx.act(extra[+b.dataset.exit])));
  ctx.panel.querySelectorAll('button[data-waiting]').forEach(
    (b) =>
      (b.onclick = () => {
        const a = waitingAction(b.dataset.waiting, acts, picking);
        picking = null;
        if (a) return ctx.act(a);
        kit.select(kit.sel === b.dataset.waiting ? null : b.dataset.waiting);
      }),
  );
}

function onClick(hex) {
  const v = view();
  const acts = actions();
  const here = kit.unitsAt(hex);
  if (v.pending && v.pending.kind === 'retreat') {
    const a = acts.find((x) => x.type === 'retreat' && x.to === hex);
    if (a) return ctx.act(a);
  }
  if (picking) {
    const a = acts.find((x) => x.type === 'order' && x.order === picking && here.some((p) => p.id === x.unit));
    picking = null;
    if (a) return ctx.act(a);
    return draw();
  }
  if (phase() === 'command') {
    // Officers first: clicking a hex with an officer on a unit opens with the officer.
    const order = [...here].sort((a, b) => Number(b.officer) - Number(a.officer));
    for (const p of order) {
      const a = acts.find((x) => x.type === 'activate' && x.unit === p.id);
      if (a) return ctx.act(a);
    }
    return;
  }
  if (kit.sel) {
    const mv = acts.find((x) => x.type === 'move' && x.unit === kit.sel && x.to === hex);
    if (mv) return ctx.act(mv);
    const at = acts.find((x) => x.type === 'attack' && x.unit === kit.sel && here.some((p) => p.id === x.target));
    if (at) return ctx.act(at);
  }
  const mine = here.filter((p) => acts.some((a) => a.unit === p.id && (a.type === 'move' || a.type === 'attack' || a.type === 'exit')));
  const s = kit.sel && piece(kit.sel);
  const foe = s && here.find((p) => p.side !== s.side);
  const would = s && !mine.length && hex !== s.hex && wouldBe(phase(), kit.sel, hex, foe && foe.id);
  if (would) return whyNot(would, foe).then((html) => ctx.notice(html));
  const i = mine.findIndex((p) => p.id === kit.sel);
  kit.select(!mine.length ? null : i >= 0 && i + 1 < mine.length ? mine[i + 1].id : i >= 0 ? null : mine[0].id);
}

async function onHover(hex, ev, h) {
  ctx.hexInfo(hex ? ctx.board.describeHex(hex) : '');
  const s = kit.sel && piece(kit.sel);
  if (!hex || !s || !ctx.canAct() || hex === s.hex) {
    h.show(null);
    return h.hide();
  }
  const foe = kit.unitsAt(hex).find((p) => p.side !== s.side);
  const a = actions().find((x) => x.type === 'attack' && x.unit === kit.sel && foe && x.target === foe.id);
  if (a) {
    const p = await kit.preview(a);
    if (!h.live()) return;
    if (p.error) return h.tip(refusedHtml(`${esc(name(a.unit))} cannot attack ${esc(name(a.target))}`, p), ev, 'refused');
    h.show({ action: a, preview: p });
    h.tip(oddsHtml(a, p, name, 'jo-odds', 8), null, 'jo-tip');
    const [x, y] = ctx.board.screenOf ? ctx.board.screenOf(hex) || [0, 0] : [0, 0];
    ctx.tip.move({ clientX: x, clientY: y });
    return;
  }
  h.show(null);
  // Not listed: the rules' reason, for an enemy in the combat phase or a hex in the movement phase.
  const listed = actions().some((x) => x.unit === kit.sel && x.to === hex);
  const would = !listed && wouldBe(phase(), kit.sel, hex, foe && foe.id);
  if (!would || (phase() === 'combat' && !foe)) return h.hide();
  const html = await whyNot(would, foe);
  if (h.live()) h.tip(html, ev, 'refused');
}

/** Why the selected unit may not attack `foe` or move to the hex, in the rules' words. */
async function whyNot(a, foe) {
  const x = await kit.explain(a);
  const title = a.type === 'attack' ? `${esc(name(a.unit))} cannot attack ${esc(name(foe ? foe.id : a.target))}` : `${esc(name(a.unit))} cannot move to ${esc(a.to)}`;
  return refusedHtml(title, x);
}


function onView() {
  if (picking && !actions().some((a) => a.type === 'order' && a.order === picking)) picking = null;
}

/** A piece's name as the page writes it: its id without the side's prefix, in words. */
function name(id) {
  return nice(String(id ?? '').replace(/^[a-z]+-/, '').replace(/-/g, ' '));
}

function pieceHtml(id) {
  const p = piece(id);
  return `<b class="u" data-unit="${esc(id)}"><span class="side-chip" style="background:${p ? sideColour(p.side) : '#888'}"></span> ${esc(name(id))}</b>`;
}

const FACE = { infantry: 'infantry hit', cavalry: 'cavalry hit', artillery: 'artillery hit', flag: 'flag', letter: 'order letter', advantage: 'tactical advantage' };
const plural = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const hexes = (list) => (list || []).map(esc).join(' → ');

/** Each action in words (JO-CMD, JO-MOV, JO-CMB, JO-RET). */
function describeAction(a) {
  switch (a.type) {
    case 'activate':
      return `activates ${pieceHtml(a.unit)}`;
    case 'order':
      return `gives the order <b>${esc(nice(a.order))}</b>${a.unit ? ` to ${pieceHtml(a.unit)}` : ''}${a.hexes ? ` (${plural(a.hexes, 'hex', 'hexes')})` : ''}`;
    case 'end_command':
      return '<span class="muted">ends the command phase</span>';
    case 'move':
      return `${pieceHtml(a.unit)} moves to ${esc(a.to)}`;
    case 'exit':
      return `${pieceHtml(a.unit)} leaves the table`;
    case 'end_movement':
      return '<span class="muted">ends the movement phase</span>';
    case 'attack':
      return `${pieceHtml(a.unit)} <b>attacks</b> ${pieceHtml(a.target)}`;
    case 'end_turn':
      return '<span class="muted">ends the turn</span>';
    case 'retreat':
      return `${pieceHtml(a.unit)} retreats to ${esc(a.to)}`;
    default:
      return null;
  }
}

function describeEvent(e) {
  switch (e.type) {
    case 'turn_began':
      return { html: `Turn ${esc(Math.ceil(e.turn / 2))}: <span class="side-chip" style="background:${sideColour(e.side)}"></span> ${esc(ctx ? ctx.sideName(e.side) : e.side)} begins`, cls: 'phase-line' };
    case 'activated':
      return { html: `${pieceHtml(e.unit)} joins activation ${esc(e.group + 1)} ${ruleBadge(e.rule)}`, cls: '' };
    case 'ordered':
      return { html: `${esc(ctx ? ctx.sideName(e.side) : e.side)} spends ${plural(e.cost, 'token')} on ${esc(nice(e.order))}${e.unit ? ` for ${pieceHtml(e.unit)}` : ''}, ${esc(e.tokens)} left`, cls: '' };
    case 'moved':
      return { html: `${pieceHtml(e.unit)} ${hexes(e.path)} ${(e.rules || []).map(ruleBadge).join(' ')}`, cls: '' };
    case 'exited':
      return { html: `${pieceHtml(e.unit)} leaves the table`, cls: '' };
    case 'attacked': {
      const faces = (e.faces || []).map((f) => FACE[f] || nice(f)).join(', ');
      const bits = [plural(e.hits, 'hit'), plural(e.flags, 'flag')];
      if (e.ignored) bits.push(`${plural(e.ignored, 'flag')} ignored with support`);
      if (e.letters) bits.push(`${plural(e.letters, 'order token')} won`);
      return { html: `${pieceHtml(e.unit)} attacks ${pieceHtml(e.target)}: rolls ${esc(faces || 'nothing')}; <b>${esc(bits.join(', '))}</b> ${(e.rules || []).map(ruleBadge).join(' ')}`, cls: e.hits ? 'bad' : '' };
    }
    case 'lost':
      return { html: `${pieceHtml(e.unit)} loses ${plural(e.stands, 'stand')}, ${esc(e.left)} left ${ruleBadge(e.rule)}`, cls: 'bad' };
    // JO-MOV-21, JO-PAN-1: an elephant of a unit that lost a stand bolts where the die sends it.
    case 'panicked': {
      const where = e.toward ? `into ${esc(e.toward)}` : 'off the table';
      const harm = e.trampled ? `, trampling ${pieceHtml(e.trampled)}` : e.toward ? ', an empty hex: no harm done' : ': no harm done';
      return { html: `an elephant of ${pieceHtml(e.unit)} panics and bolts ${where}${harm} ${ruleBadge(e.rule)}`, cls: e.trampled ? 'bad' : '' };
    }
    case 'eliminated':
      return { html: `${pieceHtml(e.unit)} is <b>destroyed</b> ${ruleBadge(e.rule)}`, cls: 'bad' };
    case 'retreated':
      return { html: `${pieceHtml(e.unit)} retreats ${plural(e.hexes, 'hex', 'hexes')} to ${esc(e.to)} ${ruleBadge(e.rule)}`, cls: 'bad' };
    case 'took':
      return { html: `${esc(ctx ? ctx.sideName(e.side) : e.side)} takes <b>${esc(e.place)}</b>`, cls: '' };
    default:
      return undefined;
  }
}

export default kit.module({
  name: 'jomini',
  keysHelp: 'click an officer then units to activate · click a unit, then a lit hex · hover an enemy for odds · <kbd>Enter</kbd> ends the phase · <kbd>Esc</kbd> deselects ·',
  phases: ['command', 'movement', 'combat'],
  endAction,
  endLabel,
  describeAction,
  describeEvent,
  key(ev) {
    if (ev.key === 'Escape' && picking) {
      picking = null;
      kit.select(null);
      return true;
    }
    return false;
  },
  nice,
});
