// The panel kit: what every ruleset's panel needs and none should write again. A panel
// builds one kit, keeps only what is its own (its drawing, prompts, clicks, keys and log
// lines) and exports `kit.module({...})` as the module game.js and replay.js load.
//
// The contract (docs/WEB-CLIENT.md says it at more length):
//
// - The game. `kit.g` is the game object last shown (GET /api/games/{id}), `kit.view()`
//   its view, `kit.phase()` the view's phase. `kit.actions()` is the listed actions when
//   this page may act and empty otherwise; `kit.actionsOf(id)` those naming a unit.
// - Lookups, built once per view: `kit.units()` (`view.pieces`, the full list where a view has one, else the envelope's `view.units`),
//   `kit.unit(id)`, `kit.unitsAt(hex)` (in view order, [] for an empty hex) and
//   `kit.unitAt(hex)` (the last of them, the counter drawn on top). `kit.setCounters(fn)`
//   draws a counter per unit on the map, `fn(unit)` giving what is the panel's own;
//   `kit.setHighlights(list)` lights hexes, passing over entries without one.
// - Selection. `kit.sel` is the selected unit's id or null; `kit.select(id)` selects (null
//   deselects): the hover answer and the tooltip go, the reachable hexes are asked for when
//   the panel wants them, the panel redraws. On a new view the selection stays while
//   `spec.keep(id)` holds (by default: the unit is still on the map); `spec.onView()` then
//   runs, before the drawing. Escape and a right click deselect; `kit.next(ids, back)`
//   cycles the selection through `ids` (Tab).
// - The reachable cache. When `spec.wantsReach(unit)` holds for the selected unit, the kit
//   asks GET .../reachable once per unit and view: `kit.reach` (hex -> {hex, cost, path,
//   stop}, empty until the answer), `kit.reachError` (its reasons when refused),
//   `kit.reachAnswered`, and `kit.reachLoaded()`, a promise settled once the answer for the
//   selection is in. Every new view (another `n` or seat) empties the cache. With
//   `spec.reachProbe(unit)`, a unit that no listed action moves is not asked about (the
//   server would refuse it): the probe action's explanation gives `kit.reachError`.
// - Guarded hover. The board's hover calls `spec.hover(hex, ev, h)` when the pointer enters a
//   hex (not on every move within it), when it moves again after a click or a selection,
//   and at once on a new view while the pointer stays. `h.live()` holds while the pointer
//   is on that hex with the same selection and view; `h.tip(html, ev, cls)`, `h.hide()` and
//   `h.show(info)` do nothing once it does not, so an answer that comes late is dropped,
//   never shown. `kit.info` is the hover answer the panel draws beside the board (`h.show`
//   sets it and redraws; a selection or a new view clears it). `kit.preview(action)` and
//   `kit.explain(action)` answer from a cache of this view, so the pointer going back and
//   forth asks the server once per action; a refusal comes back as `{error}`, never thrown.
//   `kit.hover` is the hex under the pointer.
// - The top bar. `kit.module({phases})` shows the view's turn, turns and phase among the
//   ruleset's phases; a panel with more to show gives its own `status(g)`.
// - The end-phase button. The module's `endAction(g)` (default: the listed `end_phase`),
//   `endLabel(g)` and `endReason(g)` feed `endButton(rules, g, canAct, sideName)`, which
//   game.js shows: the label, the action (null when disabled) and, when disabled, why.
//
// What the panel gives `panelKit(spec)`: `draw()` (required: board and sidebar from the kit's
// state), `click(hex, ev)`, `hover(hex, ev, h)`, and optionally `keep(id)`, `onView()`,
// `wantsReach(unit)`, `reachProbe(unit)`, `init(ctx)`.

import { nice, sideToAct } from './api.js';

export function panelKit(spec) {
  return new Kit(spec);
}

class Kit {
  constructor(spec) {
    this.spec = spec;
    this.ctx = null;
    this.g = null;
    this.sel = null;
    this.info = null;
    this.byId = new Map();
    this.byHex = new Map();
    this.list = [];
    this.shownKey = null;
    this.generation = 0; // one per view shown: an answer asked of an older one is dropped
    this.asked = new Map(); // `kind|action` -> promise of the answer, this view only
    this.reaches = new Map(); // unit -> promise of {map, error}, this view only
    this.reach = new Map();
    this.reachError = null;
    this.reachAnswered = false;
    this.reachWait = Promise.resolve();
    this.seq = 0; // bumped whenever a hover answer in flight stops being the one to show
    this.pointer = { hex: null, ev: null, asked: false };
  }

  // ---- the game and its lookups ---------------------------------------------------------------

  view() {
    return (this.g && this.g.view) || {};
  }

  phase() {
    return this.view().phase;
  }

  actions() {
    return this.ctx && this.g && this.ctx.canAct() ? this.g.actions || [] : [];
  }

  actionsOf(id) {
    return this.actions().filter((a) => a.unit === id);
  }

  units() {
    return this.list;
  }

  unit(id) {
    return this.byId.get(id);
  }

  unitsAt(hex) {
    return this.byHex.get(hex) || [];
  }

  unitAt(hex) {
    const here = this.unitsAt(hex);
    return here.length ? here[here.length - 1] : null;
  }

  /** Draws a counter for each unit on the map: `fn(unit)` gives all but its id, side and hex. */
  setCounters(fn) {
    this.ctx.board.setUnits(this.list.filter((u) => u.hex).map((u) => ({ id: u.id, side: u.side, hex: u.hex, ...fn(u) })));
  }

  /** Lights hexes (`{hex, cls, text, inset}`); entries with no hex (a unit off the map) are passed over. */
  setHighlights(list) {
    this.ctx.board.setHighlights(list.filter((h) => h.hex));
  }

  get hover() {
    return this.pointer.hex;
  }

  redraw() {
    if (this.ctx && this.g) this.spec.draw();
  }

  /** Takes a new game object: lookups, the caches of a new view, the selection kept or not. */
  update(next) {
    const key = next && next.n != null ? `${next.n}|${next.undos || 0}|${next.seat}` : null;
    const fresh = key === null || key !== this.shownKey;
    this.g = next;
    this.shownKey = key;
    const v = this.view();
    this.list = v.pieces || v.units || [];
    this.byId.clear();
    this.byHex.clear();
    for (const u of this.list) {
      this.byId.set(u.id, u);
      if (u.hex) {
        if (!this.byHex.has(u.hex)) this.byHex.set(u.hex, []);
        this.byHex.get(u.hex).push(u);
      }
    }
    if (fresh) {
      this.generation++;
      this.info = null;
      this.asked.clear();
      this.reaches.clear();
      this.reach = new Map();
      this.reachError = null;
      this.reachAnswered = false;
    }
    const kept = this.sel;
    if (this.sel && !(this.spec.keep ? this.spec.keep(this.sel) : this.unit(this.sel)?.hex)) this.sel = null;
    if (this.spec.onView) this.spec.onView();
    if (this.sel !== kept) {
      // Another selection: what the pointer showed was for the one before.
      this.info = null;
      this.seq++;
      this.pointer.asked = false;
    }
    this.loadReach();
    this.redraw();
    // What the pointer shows was asked of the view before: ask again of this one.
    if (fresh) this.ask();
  }

  // ---- selection ------------------------------------------------------------------------------

  select(id) {
    this.sel = id;
    this.info = null;
    this.seq++;
    this.pointer.asked = false;
    this.ctx.tip.hide();
    this.loadReach();
    this.redraw();
  }

  /** Selects the unit after the selected one in `ids` (before it, `back`), and shows it. */
  next(ids, back = false) {
    if (!ids.length) return false;
    const i = ids.indexOf(this.sel);
    this.select(ids[(i + (back ? ids.length - 1 : 1)) % ids.length]);
    const u = this.unit(this.sel);
    if (u && u.hex) this.ctx.board.reveal(u.hex);
    return true;
  }

  // ---- the reachable cache --------------------------------------------------------------------

  loadReach() {
    const id = this.sel;
    const u = id && this.unit(id);
    if (!u || !this.spec.wantsReach || !this.spec.wantsReach(u)) {
      this.setReach(null);
      this.reachWait = Promise.resolve();
      return;
    }
    if (!this.reaches.has(id)) {
      const probe = this.spec.reachProbe && !this.actions().some((a) => a.unit === id) ? this.spec.reachProbe(u) : null;
      const answer = probe
        ? this.explain(probe).then((x) => ({ map: new Map(), error: x.error ? x.error.reasons || [{ rule: x.error.rule, message: x.error.message }] : x.legal ? null : x.reasons }))
        : this.ctx.reachable(id).then(
            (list) => ({ map: new Map(list.map((r) => [r.hex, r])), error: null }),
            (e) => ({ map: new Map(), error: e.reasons || [{ rule: e.rule, message: e.message }] }),
          );
      this.reaches.set(id, answer);
    }
    const generation = this.generation;
    const answer = this.reaches.get(id);
    if (answer.done) {
      this.setReach(answer.done);
      this.reachWait = Promise.resolve();
      return;
    }
    this.setReach(null);
    this.reachWait = answer.then((r) => {
      answer.done = r;
      if (generation !== this.generation || this.sel !== id) return;
      this.setReach(r);
      this.redraw();
    });
  }

  setReach(r) {
    this.reach = r ? r.map : new Map();
    this.reachError = r ? r.error : null;
    this.reachAnswered = !!r;
  }

  reachLoaded() {
    return this.reachWait;
  }

  // ---- guarded hover ----------------------------------------------------------------------------

  /** The board's hover: the panel is asked once per hex entered. */
  hovered(hex, ev) {
    const p = this.pointer;
    p.ev = ev;
    if (hex === p.hex && p.asked) return;
    p.hex = hex;
    this.ask();
  }

  /** Asks the panel what the pointer's hex shows now; answers to earlier asks are dropped. */
  ask() {
    const seq = ++this.seq;
    const p = this.pointer;
    p.asked = true;
    if (!this.spec.hover || !this.ctx || !this.g) return;
    const live = () => seq === this.seq;
    const h = {
      hex: p.hex,
      live,
      tip: (html, ev, cls) => live() && this.ctx.tip.show(html, ev, cls),
      hide: () => live() && this.ctx.tip.hide(),
      show: (info) => {
        if (!live() || this.info === info) return;
        this.info = info;
        this.redraw();
      },
    };
    this.spec.hover(p.hex, p.ev, h);
  }

  clicked(hex, ev) {
    // After a click the next pointer move asks again, even within the same hex.
    this.pointer.asked = false;
    return this.spec.click && this.spec.click(hex, ev);
  }

  answer(kind, action) {
    const k = `${kind}|${JSON.stringify(action)}`;
    if (!this.asked.has(k)) {
      if (this.asked.size > 400) this.asked.clear();
      this.asked.set(k, this.ctx[kind](action).catch((e) => ({ error: e })));
    }
    return this.asked.get(k);
  }

  preview(action) {
    return this.answer('preview', action);
  }

  /** The preview of an action that may roll nothing: then an empty distribution. */
  previewIfRolls(action) {
    return this.answer('previewIfRolls', action);
  }

  explain(action) {
    return this.answer('explain', action);
  }

  // ---- the module -----------------------------------------------------------------------------

  /**
   * The panel's module: `own` adds its name, status, log lines, keys and end button. A
   * panel whose top bar shows only the turn and the phase names its `phases` (in turn
   * order) instead of a status.
   */
  module(own) {
    const kit = this;
    const status = (next) => {
      const v = next.view || {};
      return { turn: v.turn, turns: v.turns, phases: own.phases, phase: v.phase };
    };
    return {
      ...(own.phases ? { status } : {}),
      ...own,
      init(ctx) {
        kit.ctx = ctx;
        ctx.board.onHexHover = (hex, ev) => kit.hovered(hex, ev);
        ctx.board.onHexClick = (hex, ev) => kit.clicked(hex, ev);
        ctx.board.onHexContext = () => kit.select(null);
        if (kit.spec.init) kit.spec.init(ctx);
      },
      update(next) {
        kit.update(next);
      },
      key(ev) {
        if (own.key && own.key(ev)) return true;
        if (ev.key === 'Escape' && kit.sel) {
          kit.select(null);
          return true;
        }
        return false;
      },
    };
  }
}

/**
 * The end-phase button for a game: `{label, action, reason}`, with `action` null when the
 * button is disabled and `reason` then saying why.
 */
export function endButton(rules, g, canAct, sideName = (s) => s) {
  const label = (rules.endLabel && rules.endLabel(g)) || 'End phase';
  const listed = (g && g.actions) || [];
  const action = canAct ? (rules.endAction ? rules.endAction(g) : listed.find((a) => a.type === 'end_phase')) || null : null;
  if (action) return { label, action, reason: '' };
  let reason;
  if (!g) reason = 'The game is loading.';
  else if (g.outcome) reason = 'The game is over.';
  else if (!canAct) {
    const side = sideToAct(g);
    const kind = g.to_act && g.to_act.kind;
    reason = side ? `Waiting for ${sideName(side)}${kind ? ` (${nice(kind).toLowerCase()})` : ''}.` : 'Nobody is to act.';
  } else {
    const own = rules.endReason && rules.endReason(g);
    const kinds = [...new Set(listed.map((a) => nice(a.type).toLowerCase()))];
    reason = own || (kinds.length ? `Not yet: the rules want ${kinds.join(' or ')} first.` : 'Not yet: nothing is listed to end this phase.');
  }
  return { label, action: null, reason };
}
