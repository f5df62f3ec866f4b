// Battle Cry's panel: the hand of command cards, the sections lit for a card, ordered
// units marked, moves to a lit hex, the battle dice's odds before the roll, and the
// retreat, embolden (ignore one flag), take-ground and fight-back decisions offered to the
// side that takes them.
//
// Legality comes from the listed actions, odds from `preview`, reasons from `explain`.

import { esc, nice, reasonsHtml, ruleBadge, sideColour } from './api.js';
import { panelKit } from './panel_kit.js';

let ctx = null;
let cardHover = null;
const kit = panelKit({ draw, click: onClick, hover: onHover, wantsReach, init: (c) => (ctx = c) });

const PHASES = ['command', 'orders', 'movement', 'battle'];
const END = { deal: 'Deal the cards', done_ordering: 'Done ordering', done_moving: 'Done moving', end_turn: 'End turn' };

const view = () => kit.view();
const actions = () => kit.actions();

function pending() {
  return view().pending || null;
}

function short(id) {
  return String(id).replace(/^[a-z]{1,2}-/, '');
}

function unitHtml(id) {
  const u = kit.unit(id);
  return `<b class="u" data-unit="${esc(id)}"><span class="side-chip" style="background:${u ? sideColour(u.side) : '#888'}"></span> ${esc(id)}</b>`;
}

function unitAt(hex) {
  const list = kit.unitsAt(hex);
  return list.find((p) => p.type !== 'general') || list[0] || null;
}

// ---- sections (BC-SEC-1): dividing lines through the centres of two printed columns ----

function sectionLines() {
  const d = view().dividers;
  const b = ctx.boardData;
  if (!d || !b) return null;
  const unshoved = b.shove === 'odd' ? 2 : 1;
  const xs = d.map((col) => {
    const h = b.hexes.find((x) => x.col === col && x.row === unshoved);
    return h ? ctx.board.hex(h.label).x : null;
  });
  return xs.every((x) => x != null) ? xs : null;
}

/** The hexes of a side's sections named in a card's orders ("1 in the left, 2 in the centre"). */
function sectionHexes(side, text) {
  const xs = sectionLines();
  if (!xs) return [];
  const named = new Set([...String(text).matchAll(/in the (left|centre|right)/g)].map((m) => m[1]));
  if (/any section|each general|order up to/.test(text)) return [];
  const north = (ctx.boardData.sides || []).find((s) => s.id === side)?.home_edge === 'north';
  const west = north ? 'right' : 'left';
  const east = north ? 'left' : 'right';
  const out = [];
  for (const h of ctx.board.hexes.values()) {
    const inWest = h.x <= xs[0] + 0.1;
    const inCentre = h.x >= xs[0] - 0.1 && h.x <= xs[1] + 0.1;
    const inEast = h.x >= xs[1] - 0.1;
    if ((named.has(west) && inWest) || (named.has('centre') && inCentre) || (named.has(east) && inEast)) out.push(h.label);
  }
  return out;
}

// ---- acting ---------------------------------------------------------------------------------

function find(pred) {
  return actions().find(pred);
}

function wantsReach(u) {
  // Only a unit with a listed move has hexes to reach; asking for any other is refused.
  return view().phase === 'movement' && ctx.canAct() && u.side === view().active && !pending() && actions().some((a) => a.type === 'move' && a.unit === u.id);
}

async function onClick(hex) {
  ctx.tip.hide();
  const p = pending();
  // A retreat, where the defender chooses the hex.
  const ret = find((a) => a.type === 'retreat' && a.to === hex);
  if (ret) return ctx.act(ret);
  if (p && p.kind === 'retreat' && ctx.canAct()) {
    const x = await ctx.explain({ type: 'retreat', unit: p.unit, to: hex });
    return ctx.notice(`<b>${esc(p.unit)} cannot retreat to ${esc(hex)}</b>${reasonsHtml(x.reasons)}`);
  }
  const here = unitAt(hex);
  const s = kit.unit(kit.sel);
  if (s && view().phase === 'movement') {
    const mv = find((a) => a.type === 'move' && a.unit === kit.sel && a.to === hex);
    if (mv) return ctx.act(mv).then(() => kit.select(null));
  }
  if (s && here && here.side !== s.side) {
    const b = find((a) => a.type === 'battle' && a.unit === kit.sel && a.target === here.id);
    if (b) {
      const res = await ctx.act(b);
      if (!res.error) announce(res.events || []);
      return;
    }
    if (ctx.canAct() && view().phase === 'battle') {
      const x = await ctx.explain({ type: 'battle', unit: kit.sel, target: here.id });
      return ctx.notice(`<b>${esc(kit.sel)} cannot battle ${esc(here.id)}</b>${reasonsHtml(x.reasons)}`);
    }
  }
  if (here) {
    const list = kit.unitsAt(hex);
    // Orders: the unit in the hex, or the general with it when only the general may be ordered.
    // The unit before its general: ordering the general alone would spend the order on him.
    const units = [...list].sort((x, y) => Number(x.type === 'general') - Number(y.type === 'general'));
    const ord = units.map((x) => find((a) => a.type === 'order' && a.unit === x.id)).find(Boolean);
    if (ord && view().phase === 'orders') {
      await ctx.act(ord);
      return;
    }
    if (ctx.canAct() && view().phase === 'orders' && here.side === view().active && !here.ordered) {
      const x = await ctx.explain({ type: 'order', unit: here.id });
      ctx.notice(`<b>${esc(here.id)} cannot be ordered</b>${reasonsHtml(x.reasons)}`);
    }
    // A first click picks the piece that can act (a general attached to a unit may move
    // alone); a click on the selected piece goes to the next one in the hex, or deselects.
    const i = list.findIndex((x) => x.id === kit.sel);
    if (i >= 0) return kit.select(list.length > 1 ? list[(i + 1) % list.length].id : null);
    const acting = list.find((x) => actions().some((a) => a.unit === x.id && a.type !== 'order'));
    return kit.select((acting || here).id);
  }
  if (s && view().phase === 'movement' && ctx.canAct() && s.ordered) {
    const x = await ctx.explain({ type: 'move', unit: kit.sel, to: hex });
    return ctx.notice(`<b>${esc(kit.sel)} cannot move to ${esc(hex)}</b>${reasonsHtml(x.reasons)}`);
  }
  kit.select(null);
}

function announce(events) {
  const b = events.find((e) => e.type === 'battled');
  if (!b) return;
  ctx.notice(`<b>${esc(b.unit)} battles ${esc(b.target)}</b>: ${faces(b.faces)} → ${b.hits} hit${b.hits === 1 ? '' : 's'}, ${b.flags} flag${b.flags === 1 ? '' : 's'}`, 'info', 8000);
}

const FACE = { infantry: 'INF', cavalry: 'CAV', artillery: 'ART', sabers: '⚔', flag: '⚑' };
function faces(list) {
  return (list || []).map((f) => `<span class="die" title="${esc(f)}">${FACE[f] || esc(f)}</span>`).join('');
}

async function onHover(hex, ev, h) {
  const list = hex ? kit.unitsAt(hex) : [];
  ctx.hexInfo(hex ? ctx.board.describeHex(hex) + list.map((p) => ` · ${unitHtml(p.id)} ${esc(p.type)}${p.type !== 'general' ? ` (${p.figures})` : ''}`).join('') : '');
  if (!hex) {
    h.hide();
    return h.show(null);
  }
  const s = kit.unit(kit.sel);
  const here = unitAt(hex);
  if (s && here && here.side !== s.side && ctx.canAct() && view().phase === 'battle') {
    const a = find((x) => x.type === 'battle' && x.unit === kit.sel && x.target === here.id) || { type: 'battle', unit: kit.sel, target: here.id };
    const legal = actions().includes(a);
    const [p, x] = await Promise.all([legal ? kit.preview(a) : null, kit.explain(a)]);
    if (!h.live()) return;
    if (!legal || !p || p.error) {
      h.show(null);
      return h.tip(`<b>${esc(kit.sel)} cannot battle ${esc(here.id)}</b>${reasonsHtml(x.reasons || (x.error && x.error.reasons))}`, null, 'refused');
    }
    h.show({ action: a, preview: p, target: here.id });
    return h.tip(diceTip(p, x), null);
  }
  h.show(null);
  // Judged against the reachable hexes of this view and selection, once they are in.
  await kit.reachLoaded();
  if (!h.live()) return;
  const r = kit.reach.get(hex);
  if (s && r) return h.tip(`<b>${esc(hex)}</b>: ${r.path.length} hex${r.path.length > 1 ? 'es' : ''}${r.stop ? ' · must stop' : ''}<div class="muted">click to move</div>`, ev);
  if (s && ctx.canAct() && view().phase === 'movement' && s.ordered && !s.moved && !here && hex !== s.hex) {
    const x = await kit.explain({ type: 'move', unit: kit.sel, to: hex });
    if (!h.live()) return;
    return h.tip(`<b>${esc(kit.sel)} cannot move to ${esc(hex)}</b>${reasonsHtml(x.reasons || (x.error && x.error.reasons))}`, null, 'refused');
  }
  if (list.length) return h.tip(list.map((p) => `<b>${esc(p.id)}</b> <span class="muted">${esc(ctx.sideName(p.side))} ${esc(p.type)}</span>${p.type !== 'general' ? ` · ${p.figures} figures` : ''}${p.attached ? ` · with ${esc(p.attached)}` : ''}${p.ordered ? ' · <b>ordered</b>' : ''}`).join('<br>'), ev);
  h.hide();
}

function pct(p) {
  return `${(p * 100).toFixed(p < 0.1 && p > 0 ? 1 : 0)}%`;
}

function resultText(r) {
  if (r.eliminated) return `<b>eliminated</b>${r.hits ? ` (${r.hits} hit${r.hits > 1 ? 's' : ''})` : ''}`;
  const bits = [];
  if (r.hits) bits.push(`${r.hits} hit${r.hits > 1 ? 's' : ''}`);
  if (r.retreat) bits.push(`retreats ${r.retreat}`);
  else if (r.flags) bits.push(`${r.flags} flag${r.flags > 1 ? 's' : ''}, the general may ignore it`);
  return bits.join(', ') || 'no effect';
}

function diceTip(p, x) {
  const i = p.inputs || {};
  const rows = [...(p.outcomes || [])].sort((a, b) => b.p - a.p).slice(0, 8);
  return `<div class="odds">${esc(i.dice)} dice</div><div>${unitHtml(i.unit)} → ${unitHtml(i.target)} at ${esc(i.distance)} hex${i.distance === 1 ? '' : 'es'} · ${esc(i.figures)} figures</div>
    <table class="prob-table"><tbody>${rows.map((o) => `<tr><td>${resultText(o.result)}</td><td class="p"><span class="bar" style="width:${Math.max(2, o.p * 60).toFixed(0)}px"></span> ${pct(o.p)}</td></tr>`).join('')}</tbody></table>
    ${reasonsHtml((x && x.reasons) || p.reasons)}<div class="muted">click to battle · ${esc(p.roll)}</div>`;
}

// ---- drawing --------------------------------------------------------------------------------

function draw() {
  drawBoard();
  panel();
}

/** The board alone: hovering a card lights its sections without redrawing the hand. */
function drawBoard() {
  const v = view();
  const acts = actions();
  const active = new Set(acts.map((a) => a.unit).filter(Boolean));
  const info = kit.info;
  const onHex = new Map();
  for (const p of kit.units()) if (p.hex) onHex.set(p.hex, (onHex.get(p.hex) || 0) + (p.type === 'general' ? 0 : 1));
  kit.setCounters((p) => ({
    kind: p.type,
    top: short(p.id),
    values: p.type === 'general' ? '' : String(p.figures),
    small: p.type === 'general' && onHex.get(p.hex) > 0,
    tip: `${p.id}: ${p.side} ${p.type}${p.type !== 'general' ? `, ${p.figures} figures` : ''}${p.attached ? `, with ${p.attached}` : ''}${p.ordered ? ', ordered' : ''}`,
    marks: {
      selected: p.id === kit.sel,
      ordered: p.ordered,
      target: info && info.target === p.id,
      spent: p.ordered && p.moved && p.battled,
    },
  }));
  const hl = [];
  if (cardHover) for (const h of sectionHexes(v.active, cardHover)) hl.push({ hex: h, cls: 'section-on', inset: 1 });
  const p = pending();
  for (const a of acts) {
    if (a.type === 'retreat') hl.push({ hex: a.to, cls: 'reach' });
    if (a.type === 'order' && !kit.sel) hl.push({ hex: kit.unit(a.unit)?.hex, cls: 'movable', inset: 0.86 });
  }
  if (kit.sel) {
    for (const r of kit.reach.values()) hl.push({ hex: r.hex, cls: r.stop ? 'reach-stop' : 'reach', text: r.path.length });
    for (const a of acts) if (a.type === 'battle' && a.unit === kit.sel) hl.push({ hex: kit.unit(a.target)?.hex, cls: info && info.target === a.target ? 'target' : 'attackable' });
  } else if (v.phase === 'movement' || v.phase === 'battle') {
    for (const id of active) hl.push({ hex: kit.unit(id)?.hex, cls: 'movable', inset: 0.86 });
  }
  if (p && p.kind === 'take_ground' && p.to) hl.push({ hex: p.to, cls: 'route' });
  kit.setHighlights(hl);
  ctx.board.clearOverlay();
  const xs = sectionLines();
  if (xs) {
    const b = ctx.board.bounds();
    for (const x of xs) {
      const l = document.createElementNS('http://www.w3.org/2000/svg', 'line');
      Object.entries({ x1: x, x2: x, y1: b.y + 4, y2: b.y + b.h - 4, class: 'section-divider', stroke: '#8c2a22', 'stroke-width': 2.5, 'stroke-dasharray': '10 6', opacity: 0.7 }).forEach(([k, val]) => l.setAttribute(k, val));
      ctx.board.overlay.insertBefore(l, ctx.board.overlay.firstChild);
    }
  }
  if (info && info.action && info.action.type === 'battle') {
    const a = kit.unit(info.action.unit);
    const t = kit.unit(info.action.target);
    if (a && t) ctx.board.arrow(a.hex, t.hex, 'arrow-red', { shrink: 0.5, start: 0.5 });
  }
}

function plural(n, word) {
  return `${n} ${word}${n === 1 ? '' : word.endsWith('x') ? 'es' : 's'}`;
}

/** BC-GEN-5, BC-GEN-6: the attacked side may ignore one of the flags rolled against it. */
function emboldenHtml(p, acts, mine) {
  const rule = p.alone ? 'BC-GEN-6' : 'BC-GEN-5';
  const piece = kit.unit(p.unit);
  const who = p.alone
    ? `${unitHtml(p.unit)}, a general alone, was attacked by ${unitHtml(p.battler)}`
    : piece && piece.type === 'general'
      ? `${unitHtml(p.unit)}, whose unit was eliminated by ${unitHtml(p.battler)}, makes its retreat moves ${ruleBadge('BC-RET-8')}`
      : `${unitHtml(p.unit)}, with its general, was attacked by ${unitHtml(p.battler)}`;
  const why = p.alone ? 'A general alone may ignore one retreat flag' : 'Embolden: a unit with an attached general may ignore one retreat flag';
  const ignore = acts.find((a) => a.type === 'ignore_flag');
  const take = acts.find((a) => a.type === 'decline');
  const chooser = esc(ctx.sideName(kit.g.to_act && kit.g.to_act.side));
  return `${who}: ${plural(p.flags, 'flag')} rolled from ${esc(p.from)}.
    <div>${ruleBadge(rule)} ${why}: it retreats ${plural(p.flags - 1, 'hex')} instead of ${plural(p.flags, 'hex')}.</div>
    ${
      mine && (ignore || take)
        ? `<div class="bc-choices" style="margin-top:6px">${ignore ? `<button id="bc-ignore-flag" class="primary">Ignore one flag</button>` : ''}${take ? `<button id="bc-take-flags">Take every flag</button>` : ''}</div>`
        : `<div class="muted">${chooser} chooses.</div>`
    }`;
}

// The printed title of every card a hand has shown, by id (a card never seen is named from its id).
const titles = new Map();

function cardTitle(id) {
  return titles.get(id) || nice(id);
}

function cardHtml(c, side, acts) {
  if (c.title) titles.set(c.card, c.title);
  const play = acts.find((a) => (a.type === 'play_card' || a.type === 'discard') && a.card === c.card);
  const verb = play ? (play.type === 'discard' ? 'discard' : 'play') : '';
  return `<button class="card ${play ? 'playable' : ''} ${view().played === c.card ? 'picked' : ''}" data-card="${esc(c.card)}" ${play ? '' : 'disabled'} title="${play ? `${verb} this card` : 'not now'}">
    <span class="c-section">${esc(sectionName(c.card))}</span>
    <span class="c-title">${esc(c.title)}</span>
    <span class="c-text">${esc(c.orders)}</span>
    ${verb ? `<span class="muted">click to ${verb}</span>` : ''}</button>`;
}

function sectionName(card) {
  const m = /(left|centre|center|right)/.exec(card);
  return m ? `${m[1]} section` : 'tactic';
}

function panel() {
  const v = view();
  const acts = actions();
  const seat = kit.g.seat;
  const parts = [];
  // Flags.
  const flags = Object.entries(v.flags || {})
    .map(([side, f]) => `<span class="side-chip" style="background:${sideColour(side)}"></span> ${esc(ctx.sideName(side))}: <b>${f.have}</b> / ${f.need} flags`)
    .join(' &nbsp; ');
  parts.push(`<section><h3>Battle<span class="sr-gap">: </span><span class="muted">deck ${esc(v.deck ?? '?')} · played ${esc(v.played || '—')}</span></h3><div style="font-size:12.5px">${flags}</div></section>`);
  // Decisions inside a battle: retreat, take ground, fight back.
  const p = pending();
  if (p) {
    const mine = ctx.canAct();
    let body = '';
    if (p.kind === 'retreat') {
      const opts = acts.filter((a) => a.type === 'retreat');
      body = `${unitHtml(p.unit)} must retreat ${p.hexes} hex${p.hexes > 1 ? 'es' : ''} ${ruleBadge('BC-RET-3')}. ${mine ? 'Choose where: click a lit hex or a button.' : `${esc(ctx.sideName(kit.g.to_act && kit.g.to_act.side))} chooses.`}
        <div class="bc-choices" style="margin-top:6px">${opts.map((a, i) => `<button data-act="${i}" data-kind="retreat">Retreat to ${esc(a.to)}</button>`).join('')}</div>`;
    } else if (p.kind === 'embolden') {
      body = emboldenHtml(p, acts, mine);
    } else if (p.kind === 'take_ground') {
      body = `${unitHtml(p.unit)} may take ground in ${esc(p.to)} ${ruleBadge('BC-GEN-7')}.<div class="bc-choices" style="margin-top:6px">${acts.map((a, i) => `<button data-act="${i}">${a.type === 'take_ground' ? 'Take ground' : 'Decline'}</button>`).join('')}</div>`;
    } else if (p.kind === 'fight_back') {
      body = `${unitHtml(p.unit)} may fight back against ${unitHtml(p.target)} ${ruleBadge('BC-CARD-8')}.<div class="bc-choices" style="margin-top:6px">${acts.map((a, i) => `<button data-act="${i}">${a.type === 'fight_back' ? 'Fight back' : 'Decline'}</button>`).join('')}</div>`;
    }
    parts.push(`<section class="retreat-box" data-pending="${esc(p.kind)}"><h3>${esc(nice(p.kind))}</h3>${body}</section>`);
  }
  // The hand of the seat we look as (a hand we may not see shows its count only).
  const hands = v.hands || {};
  for (const [side, h] of Object.entries(hands)) {
    if (h.cards) {
      parts.push(`<section class="hand-section" data-side="${esc(side)}"><h3>${esc(side === seat ? 'Your hand' : `${ctx.sideName(side)}'s hand`)}<span class="sr-gap">: </span><span class="muted">${h.count} cards</span></h3><div class="hand">${h.cards.map((c) => cardHtml(c, side, acts)).join('')}</div></section>`);
    }
  }
  const hidden = Object.entries(hands).filter(([, h]) => !h.cards).map(([side, h]) => `${esc(ctx.sideName(side))}: ${h.count} cards`).join(' · ');
  if (hidden) parts.push(`<section><div class="muted" style="font-size:12px">${hidden} (hidden)</div></section>`);
  const s = kit.unit(kit.sel);
  if (s) {
    parts.push(`<section><h3>Selected<span class="sr-gap">: </span><span class="muted">Esc to deselect</span></h3>${unitHtml(s.id)} <span class="muted">${esc(ctx.sideName(s.side))} ${esc(s.type)}${s.hex ? ` at ${esc(s.hex)}` : ''}</span><div>${s.type !== 'general' ? `${s.figures} figures` : 'general'}${s.attached ? ` · with ${unitHtml(s.attached)}` : ''}${s.ordered ? ' · <b>ordered</b>' : ''}${s.moved ? ' · moved' : ''}${s.battled ? ' · battled' : ''}</div></section>`);
  }
  if (kit.info && kit.info.preview) parts.push(`<section class="combat-panel"><h3>Battle<span class="sr-gap">: </span><span class="muted">before the dice</span></h3>${diceTip(kit.info.preview, null)}</section>`);
  ctx.panel.innerHTML = parts.join('');
  ctx.panel.querySelectorAll('.card[data-card]').forEach((b) => {
    b.onclick = () => {
      const a = acts.find((x) => (x.type === 'play_card' || x.type === 'discard') && x.card === b.dataset.card);
      if (a) ctx.act(a);
    };
    b.onmouseenter = () => {
      const c = Object.values(hands).flatMap((h) => h.cards || []).find((x) => x.card === b.dataset.card);
      cardHover = c ? c.orders : null;
      drawBoard();
    };
    b.onmouseleave = () => {
      cardHover = null;
      drawBoard();
    };
  });
  const decisionActs = p && p.kind === 'retreat' ? acts.filter((a) => a.type === 'retreat') : acts;
  ctx.panel.querySelectorAll('button[data-act]').forEach((b) => (b.onclick = () => ctx.act(decisionActs[+b.dataset.act])));
  const ignore = acts.find((a) => a.type === 'ignore_flag');
  const take = acts.find((a) => a.type === 'decline');
  ctx.panel.querySelector('#bc-ignore-flag')?.addEventListener('click', () => ctx.act(ignore));
  ctx.panel.querySelector('#bc-take-flags')?.addEventListener('click', () => ctx.act(take));
}

// ---- the log --------------------------------------------------------------------------------

/**
 * Whether a decline answered an embolden (BC-GEN-5, BC-GEN-6) rather than taking ground
 * or Fight Back: it follows a battle that rolled flags against a piece still on the map,
 * whose retreat is otherwise made, never declined.
 */
function emboldenDeclined(a, g) {
  const log = (g && g.log) || [];
  const i = log.findIndex((e) => e.action === a);
  const prev = i > 0 ? log[i - 1] : null;
  if (!prev || !['battle', 'fight_back'].includes(prev.action && prev.action.type)) return false;
  const b = (prev.events || []).find((e) => e.type === 'battled');
  return !!b && b.flags > 0 && !(prev.events || []).some((e) => e.type === 'eliminated' && e.unit === b.target);
}

function describeAction(a, events, g) {
  switch (a.type) {
    case 'deal':
      return '<span class="muted">deals the cards</span>';
    case 'play_card':
      return `plays <b>${esc(cardTitle(a.card))}</b>`;
    case 'discard':
      return `discards <b>${esc(cardTitle(a.card))}</b>`;
    case 'order':
      return `orders ${unitHtml(a.unit)}`;
    case 'done_ordering':
      return '<span class="muted">done ordering</span>';
    case 'move':
      return `${unitHtml(a.unit)} → ${esc(a.to)}`;
    case 'done_moving':
      return '<span class="muted">done moving</span>';
    case 'battle':
      return `${unitHtml(a.unit)} <b>battles</b> ${unitHtml(a.target)}`;
    case 'end_turn':
      return '<span class="muted">ends the turn</span>';
    case 'retreat':
      return `${unitHtml(a.unit)} retreats to ${esc(a.to)}`;
    case 'take_ground':
      return 'takes ground';
    case 'fight_back':
      return '<b>fights back</b>';
    case 'ignore_flag':
      return '<b>ignores one flag</b> thanks to the general';
    case 'decline':
      return emboldenDeclined(a, g) ? 'takes every flag <span class="muted">(ignores none)</span>' : '<span class="muted">declines</span>';
    default:
      return null;
  }
}

function describeEvent(e) {
  switch (e.type) {
    case 'turn_began':
      return { html: `Turn ${esc(e.turn)}: <span class="side-chip" style="background:${sideColour(e.side)}"></span> ${esc(ctx ? ctx.sideName(e.side) : e.side)}`, cls: 'phase-line' };
    case 'drew':
      return { html: `${esc(ctx.sideName(e.side))} draws ${e.card ? `<b>${esc(cardTitle(e.card))}</b>` : 'a card'} ${ruleBadge(e.rule)}`, cls: '' };
    case 'reshuffled':
      return { html: `the discards are shuffled into a new deck of ${esc(e.cards)}`, cls: '' };
    case 'card_played':
      return null;
    case 'discarded':
      return { html: `${esc(ctx.sideName(e.side))} discards <b>${esc(cardTitle(e.card))}</b> ${ruleBadge(e.rule)}`, cls: '' };
    case 'ordered':
      return null;
    case 'moved':
      return { html: `${esc(e.from)} → ${esc(e.to)}${e.general ? ` with ${unitHtml(e.general)}` : ''} ${(e.rules || []).map(ruleBadge).join(' ')}`, cls: '' };
    case 'attached':
      return { html: `${unitHtml(e.general)} attaches to ${unitHtml(e.unit)} ${ruleBadge(e.rule)}`, cls: '' };
    case 'battled':
      return { html: `${faces(e.faces)} → <b>${e.hits}</b> hit${e.hits === 1 ? '' : 's'}, ${e.flags} flag${e.flags === 1 ? '' : 's'} ${(e.rules || []).map(ruleBadge).join(' ')}`, cls: '' };
    case 'lost':
      return { html: `${unitHtml(e.unit)} loses ${e.figures} figure${e.figures === 1 ? '' : 's'}, ${e.left} left ${ruleBadge(e.rule)}`, cls: 'bad' };
    case 'eliminated':
      return { html: `${unitHtml(e.unit)} <b>eliminated</b>: ${esc(e.reason)} ${ruleBadge(e.rule)}`, cls: 'bad' };
    case 'flag_taken':
      return { html: `<span class="side-chip" style="background:${sideColour(e.side)}"></span> ${esc(ctx.sideName(e.side))} takes a flag: ${e.flags}`, cls: 'good' };
    case 'retreated':
      return { html: `${unitHtml(e.unit)} retreats ${esc(e.from)} → ${esc(e.to)}${e.general ? ` with ${unitHtml(e.general)}` : ''} ${ruleBadge(e.rule)}`, cls: 'bad' };
    case 'flag_ignored':
      return { html: `${unitHtml(e.unit)} ignores one flag: ${e.left ? `retreats ${plural(e.left, 'hex')}` : 'holds its ground'} ${ruleBadge(e.rule)}`, cls: 'good' };
    case 'took_ground':
      return { html: `${unitHtml(e.unit)} takes ground in ${esc(e.to)} with ${unitHtml(e.general)} ${ruleBadge('BC-GEN-7')}`, cls: 'good' };
    default:
      return undefined;
  }
}

function key(ev) {
  if (ev.key === 'Tab' || ev.key === 'n') {
    const ids = [...new Set(actions().map((a) => a.unit).filter(Boolean))].filter((id) => kit.unit(id)?.hex);
    return kit.next(ids, ev.shiftKey) || ev.key === 'Tab';
  }
  // Number keys play the cards of the hand in order.
  if (/^[1-9]$/.test(ev.key) && view().phase === 'command') {
    const cards = ctx.panel.querySelectorAll('.card.playable');
    const b = cards[+ev.key - 1];
    if (b) b.click();
    return !!b;
  }
  return false;
}

export default kit.module({
  name: 'battle_cry',
  keysHelp: '<kbd>1</kbd>–<kbd>9</kbd> play a card · <kbd>Tab</kbd> next unit · <kbd>Esc</kbd> deselect · <kbd>Enter</kbd> done ·',
  status(next) {
    const v = next.view || {};
    return { turn: v.turn, turns: v.turns, phases: PHASES, phase: v.phase === 'deal' ? null : v.phase, active: v.active };
  },
  endAction(next) {
    return (next.actions || []).find((a) => END[a.type]) || null;
  },
  endLabel(next) {
    const a = (next.actions || []).find((x) => END[x.type]);
    return a ? END[a.type] : 'End turn';
  },
  describeAction,
  describeEvent,
  key,
});
