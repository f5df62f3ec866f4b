// The board as SVG: terrain, elevation, hexside features on the edges, roads and tracks,
// labels, places, counters; highlights and overlays for the rulesets' panels; pan and zoom.
//
// Rulesets never draw the map; they hand the board a list of counters and highlights.

import { center, corners, direction, DIRS, distance, FLAT_NAMES, POINTY_NAMES, pts } from './hex.js';
import { esc, sideColour } from './api.js';
import { drawTerrain, terrainKey } from './terrain.js';
import { symbol } from './glyphs.js';

export { terrainColour } from './terrain.js';

const NS = 'http://www.w3.org/2000/svg';
/** Circumradius of a hex, in SVG units. */
export const S = 40;

// Features drawn on hexsides: rank (drawing order) and how.
const FEATURES = {
  stream: [0, { line: '#2f6fc4', w: 3.2 }], brook: [0, { line: '#2f6fc4', w: 3.2 }], creek: [0, { line: '#2f6fc4', w: 3.2 }],
  river: [0, { line: '#1e57ad', w: 7 }], major_river: [0, { line: '#123f8c', w: 10 }],
  slope: [1, { ticks: '#8a5a2c', w: 1.6, len: 6 }],
  double_slope: [1, { ticks: '#5c3510', w: 2.6, len: 10 }], steep_slope: [1, { ticks: '#5c3510', w: 2.6, len: 10 }], cliff: [1, { ticks: '#3a2408', w: 3, len: 11 }],
  fence: [2, { line: '#5a5a5a', w: 2, dash: '3 2' }], wall: [2, { line: '#6f6f6f', w: 4 }], hedge: [2, { line: '#3f7a2f', w: 4, dash: '2 1' }],
  ford: [3, { ford: true }],
  bridge: [4, { bridge: true }],
};

function el(name, attrs = {}, parent = null) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

export class Board {
  /**
   * @param {HTMLElement} host the element the SVG fills
   * @param {object} data the scenario's board (GET /api/scenarios/{id}/board)
   */
  constructor(host, data) {
    this.host = host;
    this.data = data;
    this.orientation = data.orientation || 'flat_top';
    this.dirNames = this.orientation === 'pointy_top' ? POINTY_NAMES : FLAT_NAMES;
    this.palette = (data.palette && data.palette.terrain) || {};
    this.hexes = new Map();
    this.byAxial = new Map();
    for (const h of data.hexes) {
      const [x, y] = center(h.q, h.r, S, this.orientation);
      const hex = { ...h, x, y };
      this.hexes.set(h.label, hex);
      this.byAxial.set(`${h.q},${h.r}`, hex);
    }
    this.onHexClick = () => {};
    this.onHexHover = () => {};
    this.onHexContext = () => {};
    this.build();
    this.zoomButtons();
    terrainKey(this);
  }

  /** The zoom buttons, in the corner of the board's frame beside the map. */
  zoomButtons() {
    const ctl = document.createElement('div');
    ctl.className = 'zoom-ctl';
    const button = (id, title, text, onclick) => {
      const b = document.createElement('button');
      Object.assign(b, { id, title, textContent: text, onclick });
      ctl.appendChild(b);
    };
    button('zoom-in', 'zoom in (+)', '+', () => this.zoom(1.25));
    button('zoom-out', 'zoom out (-)', '−', () => this.zoom(1 / 1.25));
    button('zoom-fit', 'whole map (0)', '⤢', () => this.fit());
    this.host.after(ctl);
  }

  // ---- geometry -------------------------------------------------------------------------

  hex(label) {
    return this.hexes.get(label);
  }

  /** The label of the neighbour of `label` in direction `d`, or null off the map. */
  neighbor(label, d) {
    const h = this.hexes.get(label);
    if (!h) return null;
    const n = this.byAxial.get(`${h.q + DIRS[d][0]},${h.r + DIRS[d][1]}`);
    return n ? n.label : null;
  }

  direction(from, to) {
    const a = this.hexes.get(from);
    const b = this.hexes.get(to);
    return a && b ? direction(a, b) : -1;
  }

  distance(from, to) {
    const a = this.hexes.get(from);
    const b = this.hexes.get(to);
    return a && b ? distance(a, b) : Infinity;
  }

  /** The two corners of hex `a` on its side toward `b`. */
  edge(a, b) {
    const ha = this.hexes.get(a);
    const hb = this.hexes.get(b);
    if (!ha || !hb) return null;
    const cs = corners(ha.x, ha.y, S, this.orientation);
    cs.sort((p, q) => Math.hypot(p[0] - hb.x, p[1] - hb.y) - Math.hypot(q[0] - hb.x, q[1] - hb.y));
    return [cs[0], cs[1]];
  }

  // ---- drawing the map ----------------------------------------------------------------------

  build() {
    this.host.innerHTML = '';
    const svg = el('svg', { class: 'board-svg', xmlns: NS, role: 'img', 'aria-label': `map of ${this.data.title || ''}` });
    this.svg = svg;
    this.host.appendChild(svg);
    this.defs(svg);
    const root = el('g', { class: 'viewport' }, svg);
    this.root = root;
    const layer = (id) => el('g', { class: `layer layer-${id}` }, root);
    this.terrainLayer = layer('terrain');
    this.elevLayer = layer('elevation');
    this.gridLayer = layer('grid');
    this.waterLayer = layer('hexsides');
    this.pathLayer = layer('paths');
    this.crossLayer = layer('crossings');
    this.labelLayer = layer('labels');
    this.placeLayer = layer('places');
    this.highlightLayer = layer('highlights');
    this.trailLayer = layer('trail');
    this.unitLayer = layer('units');
    this.hitLayer = layer('hit');
    this.overlay = layer('overlay');
    this.hintLayer = layer('hints');
    this.hoverRing = el('polygon', { class: 'hover-ring', points: '' }, this.overlay);
    this.drawTerrain();
    this.drawHexsides();
    this.drawPaths();
    this.drawLabels();
    this.drawPlaces();
    this.drawHits();
    this.fit();
    this.interact();
  }

  defs(svg) {
    const d = el('defs', {}, svg);
    d.innerHTML = `
      <marker id="arrow-red" viewBox="0 0 10 10" refX="6" refY="5" markerWidth="4" markerHeight="4" orient="auto-start-reverse">
        <path d="M0 0L10 5L0 10z" fill="#c8201c"/></marker>
      <marker id="arrow-path" viewBox="0 0 10 10" refX="6" refY="5" markerWidth="4" markerHeight="4" orient="auto">
        <path d="M0 0L10 5L0 10z" fill="#1b4d8c"/></marker>
      <filter id="counter-shadow" x="-20%" y="-20%" width="150%" height="150%">
        <feDropShadow dx="1.2" dy="1.6" stdDeviation="0.9" flood-color="#000" flood-opacity="0.45"/></filter>`;
  }

  drawTerrain() {
    drawTerrain(this, S);
  }

  drawHexsides() {
    const list = [...(this.data.hexsides || [])];
    const items = [];
    for (const side of list) {
      for (const f of side.features || []) {
        const [rank, style] = FEATURES[f] || [2, { line: '#222', w: 3, dash: '6 2 1 2' }];
        items.push({ rank, style, side, f });
      }
    }
    items.sort((a, b) => a.rank - b.rank);
    for (const { rank, style, side, f } of items) {
      const e = this.edge(side.a, side.b);
      if (!e) continue;
      const [[x1, y1], [x2, y2]] = e;
      const layer = rank >= 3 ? this.crossLayer : this.waterLayer;
      const g = el('g', { class: `hexside feature-${f}`, 'data-a': side.a, 'data-b': side.b }, layer);
      el('title', {}, g).textContent = `${f.replace(/_/g, ' ')} between ${side.a} and ${side.b}`;
      if (style.line) {
        el('line', { x1, y1, x2, y2, stroke: style.line, 'stroke-width': style.w, 'stroke-linecap': 'round', 'stroke-dasharray': style.dash }, g);
      } else if (style.ticks) {
        // Ticks point down the slope, toward the lower hex.
        const ha = this.hexes.get(side.a);
        const hb = this.hexes.get(side.b);
        const low = (ha.elevation || 0) < (hb.elevation || 0) ? ha : hb;
        const mx = (x1 + x2) / 2;
        const my = (y1 + y2) / 2;
        const len = Math.hypot(low.x - mx, low.y - my) || 1;
        const nx = (low.x - mx) / len;
        const ny = (low.y - my) / len;
        let d = `M${x1},${y1}L${x2},${y2}`;
        for (const t of [0.2, 0.4, 0.6, 0.8]) {
          const px = x1 + (x2 - x1) * t;
          const py = y1 + (y2 - y1) * t;
          d += `M${px},${py}l${nx * style.len},${ny * style.len}`;
        }
        el('path', { d, stroke: style.ticks, 'stroke-width': style.w, fill: 'none' }, g);
      } else if (style.ford) {
        el('line', { x1, y1, x2, y2, stroke: '#e8d49a', 'stroke-width': 5, 'stroke-dasharray': '4 3' }, g);
      } else if (style.bridge) {
        const mx = (x1 + x2) / 2;
        const my = (y1 + y2) / 2;
        const ang = (Math.atan2(y2 - y1, x2 - x1) * 180) / Math.PI;
        const bg = el('g', { transform: `translate(${mx} ${my}) rotate(${ang})` }, g);
        el('rect', { x: -6, y: -15, width: 12, height: 30, fill: '#d9cdb5', stroke: '#6b421c', 'stroke-width': 1.2 }, bg);
        el('path', { d: 'M-6 -15v30M6 -15v30', stroke: '#6b421c', 'stroke-width': 2.4 }, bg);
      }
    }
  }

  drawPaths() {
    for (const p of this.data.paths || []) {
      const c = (p.hexes || []).map((l) => this.hexes.get(l)).filter(Boolean).map((h) => [h.x, h.y]);
      if (c.length < 2) continue;
      const g = el('g', { class: `path path-${p.kind}` }, this.pathLayer);
      if (p.name) el('title', {}, g).textContent = `${p.name} (${p.kind})`;
      const d = pts(c);
      if (p.kind === 'road' || p.kind === 'highway' || p.kind === 'pike') {
        el('polyline', { points: d, fill: 'none', stroke: '#6d4a27', 'stroke-width': 7, 'stroke-linecap': 'round', 'stroke-linejoin': 'round' }, g);
        el('polyline', { points: d, fill: 'none', stroke: '#e8d7ae', 'stroke-width': 3.4, 'stroke-linecap': 'round', 'stroke-linejoin': 'round' }, g);
      } else if (p.kind === 'railway' || p.kind === 'railroad') {
        el('polyline', { points: d, fill: 'none', stroke: '#333', 'stroke-width': 3, 'stroke-dasharray': '2 2' }, g);
      } else {
        el('polyline', { points: d, fill: 'none', stroke: '#7a5230', 'stroke-width': 2.6, 'stroke-dasharray': '6 4', 'stroke-linecap': 'round', 'stroke-linejoin': 'round' }, g);
      }
    }
  }

  drawLabels() {
    for (const h of this.hexes.values()) {
      const t = el('text', { x: h.x, y: h.y - 0.66 * S, class: 'hex-label' }, this.labelLayer);
      t.textContent = h.label;
    }
  }

  drawPlaces() {
    for (const p of this.data.places || []) {
      const h = this.hexes.get(p.hex);
      if (!h) continue;
      const g = el('g', { class: 'place', 'data-hex': p.hex }, this.placeLayer);
      if (p.objective) {
        const star = [];
        const cx = h.x + 0.52 * S;
        const cy = h.y - 0.34 * S;
        for (let i = 0; i < 10; i++) {
          const r = i % 2 ? 0.09 * S : 0.21 * S;
          const a = (Math.PI / 5) * i - Math.PI / 2;
          star.push([cx + r * Math.cos(a), cy + r * Math.sin(a)]);
        }
        const fill = p.owner ? sideColour(p.owner) : '#f2c200';
        el('polygon', { points: pts(star), class: 'objective', fill, 'data-hex': p.hex }, g);
        if (p.value != null) {
          const v = el('text', { x: cx, y: cy + 0.4 * S, class: 'objective-value' }, g);
          v.textContent = p.value;
        }
      }
      const t = el('text', { x: h.x, y: h.y + 0.78 * S, class: 'place-name' }, g);
      t.textContent = p.name;
      el('title', {}, g).textContent = `${p.name}${p.objective ? `: objective${p.value != null ? `, worth ${p.value}` : ''}` : ''}${p.owner ? `, held by ${p.owner} at the start` : ''}`;
    }
  }

  /** Recolours objectives by who holds them now (`{hex: side}`). */
  setHolders(holders) {
    for (const star of this.placeLayer.querySelectorAll('.objective')) {
      const s = holders[star.dataset.hex];
      if (s) star.setAttribute('fill', sideColour(s));
    }
  }

  drawHits() {
    for (const h of this.hexes.values()) {
      el('polygon', { points: pts(corners(h.x, h.y, S, this.orientation)), class: 'hit', 'data-hex': h.label }, this.hitLayer);
    }
  }

  // ---- highlights, counters and overlays -----------------------------------------------------

  /**
   * Marks hexes: `items` is a list of `{hex, cls, text}`; `cls` picks the style
   * (reach, reach-stop, path, section-left, target, support, ...).
   */
  setHighlights(items) {
    this.highlightLayer.innerHTML = '';
    for (const it of items) {
      const h = this.hexes.get(it.hex);
      if (!h) continue;
      const g = el('g', { class: `hl ${it.cls || ''}`, 'data-hex': it.hex }, this.highlightLayer);
      el('polygon', { points: pts(corners(h.x, h.y, S * (it.inset || 0.94), this.orientation)) }, g);
      if (it.text != null) {
        const t = el('text', { x: h.x, y: h.y + 0.56 * S, class: 'hl-text' }, g);
        t.textContent = it.text;
      }
    }
  }

  /**
   * Draws the counters. Each: `{id, side, hex, kind, name, top, values, stripes, facing,
   * marks: {selected, spent, victorious, demoralised, ordered, support, target, dim},
   * small}`. Several counters in one hex are fanned out; small ones (generals attached
   * to a unit) sit on the unit's corner.
   */
  setUnits(units) {
    this.unitLayer.innerHTML = '';
    this.unitPos = new Map();
    const byHex = new Map();
    for (const u of units) {
      if (!u.hex || !this.hexes.has(u.hex)) continue;
      if (!byHex.has(u.hex)) byHex.set(u.hex, []);
      byHex.get(u.hex).push(u);
    }
    for (const [label, list] of byHex) {
      const h = this.hexes.get(label);
      const big = list.filter((u) => !u.small);
      const small = list.filter((u) => u.small);
      // Two or more counters side by side, smaller, so that each is seen whole.
      const shared = big.length > 1 ? 0.62 * S : 0.98 * S;
      big.forEach((u, i) => {
        const off = (i - (big.length - 1) / 2) * (big.length > 1 ? (1.3 * S) / big.length : 0);
        this.drawCounter(u, h.x + off, h.y + (big.length > 1 ? 0.04 * S : 0), shared);
      });
      small.forEach((u, i) => {
        const x = big.length ? h.x + 0.42 * S - i * 8 : h.x;
        const y = big.length ? h.y - 0.42 * S + i * 8 : h.y;
        this.drawCounter(u, x, y, big.length ? 0.56 * S : 0.8 * S);
      });
    }
  }

  drawCounter(u, x, y, size) {
    const m = u.marks || {};
    const cls = ['counter', `side-${u.side}`];
    for (const [k, v] of Object.entries(m)) if (v) cls.push(`is-${k}`);
    const g = el('g', { class: cls.join(' '), 'data-unit': u.id, 'data-hex': u.hex, transform: `translate(${x} ${y})` }, this.unitLayer);
    this.unitPos.set(u.id, [x, y]);
    el('title', {}, g).textContent = u.tip || u.name || u.id;
    const half = size / 2;
    const fill = sideColour(u.side);
    el('rect', { x: -half, y: -half, width: size, height: size, rx: 3.5, fill, class: 'counter-body', filter: 'url(#counter-shadow)' }, g);
    el('rect', { x: -half + 1.5, y: -half + 1.5, width: size - 3, height: size - 3, rx: 2.5, fill: 'none', stroke: 'rgba(255,255,255,0.35)', 'stroke-width': 1 }, g);
    const k = size / 40;
    // The unit-type symbol, NATO style, in a white box.
    const sym = el('g', { transform: `translate(0 ${-2 * k}) scale(${k})`, class: 'symbol' }, g);
    symbol(sym, u.kind, u.stripes);
    if (u.top) {
      const t = el('text', { x: 0, y: -half + 8.2 * k, class: 'counter-top', 'font-size': 6.6 * k }, g);
      t.textContent = u.top;
    }
    if (u.values) {
      const t = el('text', { x: 0, y: half - 3.2 * k, class: 'counter-values', 'font-size': 10.5 * k }, g);
      t.textContent = u.values;
    }
    if (u.badge) {
      el('circle', { cx: half - 5 * k, cy: -half + 5 * k, r: 5 * k, class: 'counter-badge' }, g);
      const t = el('text', { x: half - 5 * k, y: -half + 7.6 * k, class: 'counter-badge-text', 'font-size': 7 * k }, g);
      t.textContent = u.badge;
    }
    if (m.victorious) el('line', { x1: -half + 2, y1: 0, x2: half - 2, y2: 0, class: 'victorious-line' }, g);
    if (m.spent) el('rect', { x: -half, y: -half, width: size, height: size, rx: 3.5, class: 'spent-veil' }, g);
    if (m.demoralised) {
      const t = el('text', { x: -half + 4.5 * k, y: -half + 9 * k, class: 'demoralised-mark', 'font-size': 8 * k }, g);
      t.textContent = 'D';
    }
    if (u.facing != null && u.facing >= 0) {
      // The facing: a black wedge on the counter's edge toward the faced hexside.
      const off = this.orientation === 'pointy_top' ? 0 : -30;
      const a = ((60 * u.facing + off) * Math.PI) / 180;
      const r = half + 3;
      const tip = [Math.cos(a) * (r + 5), Math.sin(a) * (r + 5)];
      const l = [Math.cos(a - 0.35) * r, Math.sin(a - 0.35) * r];
      const rr = [Math.cos(a + 0.35) * r, Math.sin(a + 0.35) * r];
      el('polygon', { points: pts([tip, l, rr]), class: 'facing' }, g);
    }
    // Markers in the Morne Plaine manner: small squares, red for the selected unit and the
    // target, green for supports.
    if (m.selected || m.target) el('rect', { x: -half + 1, y: half - 8, width: 7, height: 7, class: 'mark-red' }, g);
    if (m.support) el('rect', { x: half - 8, y: half - 8, width: 7, height: 7, class: 'mark-green' }, g);
    if (m.ordered) el('rect', { x: -half - 2, y: -half - 2, width: size + 4, height: size + 4, rx: 5, class: 'ordered-ring' }, g);
    if (m.selected) el('rect', { x: -half - 3, y: -half - 3, width: size + 6, height: size + 6, rx: 6, class: 'selected-ring' }, g);
  }

  /** Clears the overlay (arrows, roses, paths) but keeps the hover ring. */
  clearOverlay() {
    for (const c of [...this.overlay.children]) if (c !== this.hoverRing) c.remove();
  }

  /** A straight arrow from one hex toward another; `cls` styles it. */
  arrow(from, to, cls = 'arrow-red', opts = {}) {
    const a = this.hexes.get(from);
    const b = this.hexes.get(to);
    if (!a || !b) return null;
    const shrink = opts.shrink ?? 0.45;
    const dx = b.x - a.x;
    const dy = b.y - a.y;
    const len = Math.hypot(dx, dy);
    const s0 = (opts.start ?? 0.5) * S;
    const x1 = a.x + (dx / len) * s0;
    const y1 = a.y + (dy / len) * s0;
    const x2 = b.x - (dx / len) * shrink * S;
    const y2 = b.y - (dy / len) * shrink * S;
    const g = el('g', { class: `arrow ${cls}` }, this.overlay);
    el('line', { x1, y1, x2, y2, 'marker-end': cls === 'arrow-red' ? 'url(#arrow-red)' : 'url(#arrow-path)' }, g);
    if (opts.onClick) {
      g.classList.add('clickable');
      g.addEventListener('click', (ev) => {
        ev.stopPropagation();
        opts.onClick(ev);
      });
      g.addEventListener('pointerdown', (ev) => ev.stopPropagation());
    }
    if (opts.title) el('title', {}, g).textContent = opts.title;
    this.overlay.appendChild(this.hoverRing);
    return g;
  }

  /**
   * The computer's hint: for each item `{rank, hex, from, win, title}`, a numbered
   * marker on `hex` (with its win chance) and an arrow from `from` when given. An
   * empty list clears them. The markers take no clicks.
   */
  setHints(items) {
    this.hintLayer.innerHTML = '';
    for (const it of items || []) {
      const h = this.hexes.get(it.hex);
      if (!h) continue;
      const g = el('g', { class: 'hint-marker', 'data-rank': it.rank, 'data-hex': it.hex }, this.hintLayer);
      const f = it.from && it.from !== it.hex ? this.hexes.get(it.from) : null;
      if (f) {
        const dx = h.x - f.x;
        const dy = h.y - f.y;
        const len = Math.hypot(dx, dy) || 1;
        el('line', { class: 'hint-arrow', x1: f.x + (dx / len) * 0.3 * S, y1: f.y + (dy / len) * 0.3 * S,
          x2: h.x - (dx / len) * 0.42 * S, y2: h.y - (dy / len) * 0.42 * S, 'marker-end': 'url(#arrow-path)' }, g);
      }
      el('circle', { cx: h.x, cy: h.y - 0.38 * S, r: 0.26 * S, class: 'hint-disc' }, g);
      el('text', { x: h.x, y: h.y - 0.38 * S, class: 'hint-rank', 'text-anchor': 'middle', 'dominant-baseline': 'central' }, g).textContent = String(it.rank);
      if (it.win != null) {
        el('text', { x: h.x, y: h.y + 0.02 * S, class: 'hint-win', 'text-anchor': 'middle', 'dominant-baseline': 'central' }, g).textContent = `${Math.round(it.win * 100)}%`;
      }
      if (it.title) el('title', {}, g).textContent = it.title;
    }
  }

  /**
   * What the other side just did: for each item `{from, to}` a dashed arrow (a unit that
   * moved), `{hex}` a ring (a unit attacked or a hex bombarded). An empty list clears them.
   */
  setTrail(items) {
    this.trailLayer.innerHTML = '';
    for (const it of items || []) {
      const b = this.hexes.get(it.to || it.hex);
      if (!b) continue;
      const a = it.from ? this.hexes.get(it.from) : null;
      if (a && a !== b) {
        const dx = b.x - a.x;
        const dy = b.y - a.y;
        const len = Math.hypot(dx, dy) || 1;
        el('line', { class: 'trail-move', 'data-from': it.from, 'data-to': it.to, x1: a.x, y1: a.y, x2: b.x - (dx / len) * 0.3 * S, y2: b.y - (dy / len) * 0.3 * S, 'marker-end': 'url(#arrow-path)' }, this.trailLayer);
        el('polygon', { class: 'trail-from', points: pts(corners(a.x, a.y, S * 0.9, this.orientation)) }, this.trailLayer);
      } else if (!it.from) {
        el('polygon', { class: 'trail-hit', 'data-hex': it.hex, points: pts(corners(b.x, b.y, S * 0.92, this.orientation)) }, this.trailLayer);
      }
    }
  }

  /** A polyline through hex centres (a planned route). */
  route(labels, cls = 'route') {
    const c = labels.map((l) => this.hexes.get(l)).filter(Boolean).map((h) => [h.x, h.y]);
    if (c.length < 2) return;
    el('polyline', { points: pts(c), class: cls, 'marker-end': 'url(#arrow-path)' }, this.overlay);
  }

  /**
   * A movement rose on a hex: six buttons on the hexsides. `dirs[d]` is
   * `{state: 'move'|'charge'|'blocked', title}`; `onPick(d)` is called on a click.
   */
  rose(label, dirs, onPick) {
    const h = this.hexes.get(label);
    if (!h) return;
    const g = el('g', { class: 'rose', 'data-hex': label }, this.overlay);
    const off = this.orientation === 'pointy_top' ? 0 : -30;
    for (let d = 0; d < 6; d++) {
      const info = dirs[d] || { state: 'blocked' };
      const a = ((60 * d + off) * Math.PI) / 180;
      const r = 0.8 * S;
      const x = h.x + Math.cos(a) * r;
      const y = h.y + Math.sin(a) * r;
      const b = el('g', { class: `rose-btn rose-${info.state}`, 'data-dir': d, transform: `translate(${x} ${y}) rotate(${(a * 180) / Math.PI})` }, g);
      el('circle', { cx: 0, cy: 0, r: 8.5 }, b);
      el('path', { d: 'M-3.5 -4.5L4 0L-3.5 4.5z' }, b);
      el('title', {}, b).textContent = info.title || this.dirNames[d];
      b.addEventListener('pointerdown', (ev) => ev.stopPropagation());
      b.addEventListener('click', (ev) => {
        ev.stopPropagation();
        onPick(d);
      });
    }
    this.overlay.appendChild(this.hoverRing);
  }

  showHover(label) {
    const h = label && this.hexes.get(label);
    this.hoverRing.setAttribute('points', h ? pts(corners(h.x, h.y, S * 0.97, this.orientation)) : '');
  }

  // ---- pan and zoom ------------------------------------------------------------------------

  bounds() {
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    for (const h of this.hexes.values()) {
      x0 = Math.min(x0, h.x - S);
      y0 = Math.min(y0, h.y - S);
      x1 = Math.max(x1, h.x + S);
      y1 = Math.max(y1, h.y + S);
    }
    return { x: x0 - 10, y: y0 - 10, w: x1 - x0 + 20, h: y1 - y0 + 20 };
  }

  fit() {
    this.view = this.bounds();
    this.apply();
  }

  apply() {
    const v = this.view;
    this.svg.setAttribute('viewBox', `${v.x} ${v.y} ${v.w} ${v.h}`);
  }

  /** Zooms by `f` (>1 zooms in) around a point in SVG units (the centre by default). */
  zoom(f, cx, cy) {
    const v = this.view;
    const b = this.bounds();
    const nw = Math.min(Math.max(v.w / f, b.w / 8), b.w * 2.5);
    const k = nw / v.w;
    const px = cx ?? v.x + v.w / 2;
    const py = cy ?? v.y + v.h / 2;
    this.view = { x: px - (px - v.x) * k, y: py - (py - v.y) * k, w: v.w * k, h: v.h * k };
    this.apply();
  }

  pan(dx, dy) {
    this.view.x += dx;
    this.view.y += dy;
    this.apply();
  }

  /** Screen point to SVG units. */
  toSvg(clientX, clientY) {
    const p = this.svg.createSVGPoint();
    p.x = clientX;
    p.y = clientY;
    const m = this.root.getScreenCTM();
    if (!m) return [0, 0];
    const q = p.matrixTransform(m.inverse());
    return [q.x, q.y];
  }

  /** Keeps a hex in view (after a move by the keyboard). */
  reveal(label) {
    const h = this.hexes.get(label);
    if (!h) return;
    const v = this.view;
    const m = S * 1.2;
    if (h.x < v.x + m || h.x > v.x + v.w - m || h.y < v.y + m || h.y > v.y + v.h - m) {
      this.view = { ...v, x: h.x - v.w / 2, y: h.y - v.h / 2 };
      this.apply();
    }
  }

  interact() {
    const svg = this.svg;
    let drag = null;
    svg.addEventListener('pointerdown', (ev) => {
      if (ev.button !== 0) return;
      drag = { x: ev.clientX, y: ev.clientY, moved: false, id: ev.pointerId };
    });
    svg.addEventListener('pointermove', (ev) => {
      if (drag && ev.buttons & 1) {
        const dx = ev.clientX - drag.x;
        const dy = ev.clientY - drag.y;
        if (!drag.moved && Math.hypot(dx, dy) > 5) {
          drag.moved = true;
          svg.setPointerCapture(drag.id);
          svg.classList.add('panning');
        }
        if (drag.moved) {
          const [ax, ay] = this.toSvg(drag.x, drag.y);
          const [bx, by] = this.toSvg(ev.clientX, ev.clientY);
          this.pan(ax - bx, ay - by);
          drag.x = ev.clientX;
          drag.y = ev.clientY;
          return;
        }
      }
      const label = this.labelAt(ev);
      if (label !== this.hovered) {
        this.hovered = label;
        this.showHover(label);
      }
      this.onHexHover(label, ev);
    });
    svg.addEventListener('pointerleave', () => {
      this.hovered = null;
      this.showHover(null);
      this.onHexHover(null, null);
    });
    svg.addEventListener('pointerup', (ev) => {
      const d = drag;
      drag = null;
      svg.classList.remove('panning');
      if (!d || d.moved) return;
      const label = this.labelAt(ev);
      if (label) this.onHexClick(label, ev);
    });
    svg.addEventListener('contextmenu', (ev) => {
      ev.preventDefault();
      this.onHexContext(this.labelAt(ev), ev);
    });
    svg.addEventListener(
      'wheel',
      (ev) => {
        ev.preventDefault();
        const [x, y] = this.toSvg(ev.clientX, ev.clientY);
        this.zoom(ev.deltaY < 0 ? 1.15 : 1 / 1.15, x, y);
      },
      { passive: false },
    );
  }

  labelAt(ev) {
    const t = document.elementFromPoint(ev.clientX, ev.clientY);
    if (t && t.dataset && t.dataset.hex && t.classList.contains('hit')) return t.dataset.hex;
    // Fall back on geometry (over the overlay, say): the nearest centre within a hex.
    const [x, y] = this.toSvg(ev.clientX, ev.clientY);
    let best = null;
    let bd = Infinity;
    for (const h of this.hexes.values()) {
      const d = Math.hypot(h.x - x, h.y - y);
      if (d < bd) {
        bd = d;
        best = h;
      }
    }
    return best && bd < S ? best.label : null;
  }

  /** The screen position of a hex's centre, for panels that point at it. */
  screenOf(label) {
    const h = this.hexes.get(label);
    const m = this.root.getScreenCTM();
    if (!h || !m) return null;
    const p = this.svg.createSVGPoint();
    p.x = h.x;
    p.y = h.y;
    const q = p.matrixTransform(m);
    return [q.x, q.y];
  }

  describeHex(label) {
    const h = this.hexes.get(label);
    if (!h) return '';
    const bits = [`<b>${esc(label)}</b> ${esc(String(h.terrain).replace(/_/g, ' '))}`];
    if (h.elevation) bits.push(`elevation ${h.elevation}`);
    const place = (this.data.places || []).find((p) => p.hex === label);
    if (place) bits.push(esc(place.name) + (place.objective ? ` ★${this.noteOf && this.noteOf(label) ? ` ${esc(this.noteOf(label))}` : ''}` : ''));
    return bits.join(' · ');
  }
}
