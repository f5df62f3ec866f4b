// The event log: each action with what followed, dice and rule IDs shown.
// The ruleset's panel words its own actions and events; anything it does not know is
// shown by the sentence the rules wrote for it (`text`), or, without one, written out
// plainly, so a new event never disappears from the log.

import { esc, ruleBadge, sideColour } from './api.js';

let sideNameOf = (id) => id;

/** How the page names a side (its scenario's name for it): the log's lines use it. */
export function setSideNames(fn) {
  sideNameOf = fn;
}

/** A side's colour chip and name. */
export function sideHtml(id) {
  return `<span class="side-chip" style="background:${sideColour(id)}"></span> ${esc(sideNameOf(id))}`;
}

/** A die as a small white square; forced results are dashed. */
export function die(roll) {
  return `<span class="die ${roll.forced ? 'forced' : ''}" title="d${roll.sides}${roll.forced ? ', forced' : ''}">${esc(roll.value)}</span>`;
}

/** Rule IDs quoted at the head of a roll's purpose ("MP-CMB-18: combat die, ...") as badges. */
export function purpose(text) {
  const m = /^([A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+):\s*(.*)$/.exec(text || '');
  return m ? `${ruleBadge(m[1])} ${esc(m[2])}` : esc(text || '');
}

export function plain(obj) {
  const { type, ...rest } = obj || {};
  const parts = Object.entries(rest).map(([k, v]) => `${k.replace(/_/g, ' ')} ${typeof v === 'object' ? JSON.stringify(v) : v}`);
  return `<b>${esc(String(type || '').replace(/_/g, ' '))}</b> ${esc(parts.join(', '))}`;
}

/** An action the panel does not word: ending a phase as every ruleset says it, else plainly. */
export function actionHtml(action) {
  return action && action.type === 'end_phase' ? '<span class="muted">ends the phase</span>' : plain(action);
}

/**
 * The line that opens a phase (a `phase_began` event): the turn, the side's colour and
 * name (as the panel's `ctx` names it), the phase, then `badges` when there are any.
 */
export function phaseLine(e, ctx, badges = '') {
  const side = ctx ? ctx.sideName(e.side) : e.side;
  return { html: `Turn ${esc(e.turn)}: <span class="side-chip" style="background:${sideColour(e.side)}"></span> ${esc(side)}, ${esc(e.phase)} phase${badges ? ` ${badges}` : ''}`, cls: 'phase-line' };
}

/** One event as `{html, cls}`, or null to leave it out. */
export function eventLine(ev, rules, g) {
  if (ev.type === 'roll') return { html: `rolls ${die(ev)} on a d${esc(ev.sides)} · ${purpose(ev.purpose)}`, cls: 'roll' };
  const d = rules && rules.describeEvent ? rules.describeEvent(ev, g) : undefined;
  if (d === null) return null;
  if (d) return typeof d === 'string' ? { html: d, cls: '' } : d;
  if (ev.text && ev.type !== 'game_over') return { html: `${esc(ev.text)}${ev.rule ? ` ${ruleBadge(ev.rule)}` : ''}`, cls: '' };
  if (ev.type === 'game_over') {
    const o = ev.outcome || {};
    return { html: `<b>Game over</b>: ${o.winner ? `victory to ${sideHtml(o.winner)}` : 'a draw'} · ${ruleBadge(o.rule)} ${esc(o.reason || '')}`, cls: 'phase-line' };
  }
  return { html: plain(ev) + (ev.rule ? ` ${ruleBadge(ev.rule)}` : ''), cls: '' };
}

export function entryHtml(e, rules, g) {
  const a = rules && rules.describeAction ? rules.describeAction(e.action, e.events || [], g) : null;
  const head = a != null ? a : actionHtml(e.action);
  const lines = [];
  for (const ev of e.events || []) {
    const l = eventLine(ev, rules, g);
    if (!l) continue;
    lines.push(`<div class="ev ${l.cls || ''}" data-type="${esc(ev.type)}">${l.html}</div>`);
  }
  return `<div class="entry" data-n="${esc(e.n)}" data-type="${esc(e.action && e.action.type)}"><span class="n">${esc(e.n)}</span><span class="act">${head}</span>${lines.join('')}</div>`;
}

export function renderLog(host, log, rules, g) {
  const stick = host.scrollTop + host.clientHeight >= host.scrollHeight - 30;
  host.innerHTML = log.length ? log.map((e) => entryHtml(e, rules, g)).join('') : '<div class="muted">No action yet.</div>';
  if (stick || true) host.scrollTop = host.scrollHeight;
}
