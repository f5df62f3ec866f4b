// The terrain drawn for what it is: the fill from the engine's one palette (sent with the
// board, `palette.terrain`), then a mark that says what the hex is (trees in woods,
// buildings in a village or a town, contours on a hill, boulders, water, reeds), the
// elevation's shading, and a key to every terrain of the map. The marks and their
// drawings are those of `grognard show --svg` (crates/engine/src/palette.rs, `MARKS`;
// crates/engine/src/svg/terrain.rs, `DRAWINGS`): a terrain looks the same in both.

import { corners, pts } from './hex.js';

const NS = 'http://www.w3.org/2000/svg';

// The terrains drawn alike, by mark: palette.rs's `MARKS`, row for row.
export const MARKS = {
  plain: ['clear', 'open', 'plain', 'road'],
  rough: ['rough', 'broken'],
  rocks: ['rocky', 'rocky_ground', 'rock', 'rocks'],
  brush: ['coppice', 'brush', 'scrub'],
  orchard: ['orchard'],
  trees: ['woods', 'forest', 'wood'],
  palms: ['palm_grove'],
  village: ['village'],
  hamlet: ['hamlet', 'homestead', 'farm'],
  town: ['town', 'city', 'built_up'],
  marsh: ['marsh', 'swamp', 'bog'],
  hill: ['hill', 'hills'],
  mountain: ['mountain'],
  fort: ['fort', 'redoubt', 'entrenchment', 'fortification'],
  water: ['river', 'water', 'lake', 'sea', 'waterway', 'pond', 'large_river', 'major_river'],
  bridge: ['bridge'],
  ford: ['ford'],
  dunes: ['dune', 'dunes', 'sand', 'desert'],
  fields: ['field', 'fields', 'crops'],
  snow: ['snow'],
};

const MARK_OF = new Map(Object.entries(MARKS).flatMap(([m, names]) => names.map((n) => [n, m])));

/** The mark of a terrain, or null for a name the palette does not know. */
export function markOf(terrain) {
  return MARK_OF.get(terrain) || null;
}

/** The fill of a terrain from the board's palette; the fallback is for a terrain none names. */
export function terrainColour(t, palette = {}) {
  return palette[t] || '#d8d4c0';
}

// The drawing of each mark, centred on the hex for a hex of circumradius 40: the same
// drawings as the SVG of `grognard show --svg` (crates/engine/src/svg/terrain.rs).
export const DRAWINGS = {
  plain: '',
  rough: '<circle cx="-16" cy="-8" r="1.3" fill="#8f7a48"/><circle cx="-6" cy="-14" r="1.3" fill="#8f7a48"/><circle cx="8" cy="-10" r="1.3" fill="#8f7a48"/><circle cx="17" cy="-2" r="1.3" fill="#8f7a48"/><circle cx="-12" cy="4" r="1.3" fill="#8f7a48"/><circle cx="2" cy="0" r="1.3" fill="#8f7a48"/><circle cx="12" cy="10" r="1.3" fill="#8f7a48"/><circle cx="-4" cy="12" r="1.3" fill="#8f7a48"/><circle cx="-20" cy="8" r="1.3" fill="#8f7a48"/>',
  rocks: '<path d="M-17 -3l2 -6l5 -2l4 4l-1 4z" fill="#8d8578" stroke="#4e483f" stroke-width="0.8"/><path d="M1 -9l2 -6l5 -2l4 4l-1 4z" fill="#8d8578" stroke="#4e483f" stroke-width="0.8"/><path d="M7 7l2 -6l5 -2l4 4l-1 4z" fill="#8d8578" stroke="#4e483f" stroke-width="0.8"/><path d="M-9 11l2 -6l5 -2l4 4l-1 4z" fill="#8d8578" stroke="#4e483f" stroke-width="0.8"/><path d="M-23 11l2 -6l5 -2l4 4l-1 4z" fill="#8d8578" stroke="#4e483f" stroke-width="0.8"/>',
  brush: '<circle cx="-14" cy="-8" r="3.6" fill="#7f9f52" stroke="#5c7a38" stroke-width="0.6"/><circle cx="0" cy="-12" r="3.6" fill="#7f9f52" stroke="#5c7a38" stroke-width="0.6"/><circle cx="14" cy="-6" r="3.6" fill="#7f9f52" stroke="#5c7a38" stroke-width="0.6"/><circle cx="-8" cy="4" r="3.6" fill="#7f9f52" stroke="#5c7a38" stroke-width="0.6"/><circle cx="8" cy="6" r="3.6" fill="#7f9f52" stroke="#5c7a38" stroke-width="0.6"/><circle cx="-16" cy="12" r="3.6" fill="#7f9f52" stroke="#5c7a38" stroke-width="0.6"/><circle cx="16" cy="12" r="3.6" fill="#7f9f52" stroke="#5c7a38" stroke-width="0.6"/><circle cx="0" cy="16" r="3.6" fill="#7f9f52" stroke="#5c7a38" stroke-width="0.6"/>',
  orchard: '<circle cx="-11" cy="-11" r="3.4" fill="#6f9a4a" stroke="#4d7034" stroke-width="0.6"/><circle cx="-11" cy="0" r="3.4" fill="#6f9a4a" stroke="#4d7034" stroke-width="0.6"/><circle cx="-11" cy="11" r="3.4" fill="#6f9a4a" stroke="#4d7034" stroke-width="0.6"/><circle cx="0" cy="-11" r="3.4" fill="#6f9a4a" stroke="#4d7034" stroke-width="0.6"/><circle cx="0" cy="0" r="3.4" fill="#6f9a4a" stroke="#4d7034" stroke-width="0.6"/><circle cx="0" cy="11" r="3.4" fill="#6f9a4a" stroke="#4d7034" stroke-width="0.6"/><circle cx="11" cy="-11" r="3.4" fill="#6f9a4a" stroke="#4d7034" stroke-width="0.6"/><circle cx="11" cy="0" r="3.4" fill="#6f9a4a" stroke="#4d7034" stroke-width="0.6"/><circle cx="11" cy="11" r="3.4" fill="#6f9a4a" stroke="#4d7034" stroke-width="0.6"/>',
  trees: '<circle cx="-13" cy="-6" r="7.5" fill="#4f7d3a" stroke="#35572a" stroke-width="0.8"/><circle cx="-14.5" cy="-7.5" r="2.5" fill="#8fb86e"/><circle cx="1" cy="-12" r="7.5" fill="#4f7d3a" stroke="#35572a" stroke-width="0.8"/><circle cx="-0.5" cy="-13.5" r="2.5" fill="#8fb86e"/><circle cx="14" cy="-4" r="7.5" fill="#4f7d3a" stroke="#35572a" stroke-width="0.8"/><circle cx="12.5" cy="-5.5" r="2.5" fill="#8fb86e"/><circle cx="-6" cy="8" r="7.5" fill="#4f7d3a" stroke="#35572a" stroke-width="0.8"/><circle cx="-7.5" cy="6.5" r="2.5" fill="#8fb86e"/><circle cx="9" cy="9" r="7.5" fill="#4f7d3a" stroke="#35572a" stroke-width="0.8"/><circle cx="7.5" cy="7.5" r="2.5" fill="#8fb86e"/>',
  palms: '<path d="M-12 4v-10m0 0l-7 -3m7 3l7 -3m-7 3l-6 4m6 -4l6 4" stroke="#5f7f2a" stroke-width="1.6" fill="none" stroke-linecap="round"/><path d="M10 0v-10m0 0l-7 -3m7 3l7 -3m-7 3l-6 4m6 -4l6 4" stroke="#5f7f2a" stroke-width="1.6" fill="none" stroke-linecap="round"/><path d="M0 18v-10m0 0l-7 -3m7 3l7 -3m-7 3l-6 4m6 -4l6 4" stroke="#5f7f2a" stroke-width="1.6" fill="none" stroke-linecap="round"/>',
  village: '<rect x="-14" y="-11" width="8" height="6" transform="rotate(-12 -10 -8)" fill="#a0473a" stroke="#5b2a22" stroke-width="0.6"/><rect x="3" y="-13" width="8" height="6" transform="rotate(8 7 -10)" fill="#a0473a" stroke="#5b2a22" stroke-width="0.6"/><rect x="-8" y="3" width="8" height="6" transform="rotate(15 -4 6)" fill="#a0473a" stroke="#5b2a22" stroke-width="0.6"/><rect x="7" y="2" width="8" height="6" transform="rotate(-6 11 5)" fill="#a0473a" stroke="#5b2a22" stroke-width="0.6"/>',
  hamlet: '<rect x="-11" y="-7" width="8" height="6" transform="rotate(-10 -7 -4)" fill="#a0473a" stroke="#5b2a22" stroke-width="0.6"/><rect x="4" y="1" width="8" height="6" transform="rotate(12 8 4)" fill="#a0473a" stroke="#5b2a22" stroke-width="0.6"/>',
  town: '<rect x="-6" y="-6" width="12" height="12" fill="#8c8272" stroke="#4f473c" stroke-width="0.6"/><rect x="-19" y="-13" width="8" height="6" transform="rotate(0 -15 -10)" fill="#a0473a" stroke="#5b2a22" stroke-width="0.6"/><rect x="-5" y="-19" width="8" height="6" transform="rotate(0 -1 -16)" fill="#a0473a" stroke="#5b2a22" stroke-width="0.6"/><rect x="9" y="-14" width="8" height="6" transform="rotate(0 13 -11)" fill="#a0473a" stroke="#5b2a22" stroke-width="0.6"/><rect x="-21" y="1" width="8" height="6" transform="rotate(0 -17 4)" fill="#a0473a" stroke="#5b2a22" stroke-width="0.6"/><rect x="11" y="0" width="8" height="6" transform="rotate(0 15 3)" fill="#a0473a" stroke="#5b2a22" stroke-width="0.6"/><rect x="-13" y="12" width="8" height="6" transform="rotate(0 -9 15)" fill="#a0473a" stroke="#5b2a22" stroke-width="0.6"/><rect x="3" y="12" width="8" height="6" transform="rotate(0 7 15)" fill="#a0473a" stroke="#5b2a22" stroke-width="0.6"/>',
  fort: '<polygon points="0,-20 6,-8 19,-6 10,3 12,16 0,10 -12,16 -10,3 -19,-6 -6,-8" fill="#bfb49a" stroke="#5d5443" stroke-width="2"/>',
  hill: '<ellipse cx="0" cy="2" rx="27" ry="18" fill="#b08a52" fill-opacity="0.25" stroke="#8a6432" stroke-width="1.2"/><ellipse cx="0" cy="1" rx="16" ry="10" fill="#b08a52" fill-opacity="0.3" stroke="#8a6432" stroke-width="1.2"/><ellipse cx="0" cy="0" rx="6" ry="3.5" fill="none" stroke="#8a6432" stroke-width="1.2"/>',
  mountain: '<path d="M-24 12L-9 -14L6 12zM-2 12L12 -8L26 12z" fill="#8a7560" stroke="#4f4032" stroke-width="1"/><path d="M-13 -7L-9 -14L-5 -7zM9 -3L12 -8L15 -3z" fill="#f4f4f4"/>',
  water: '<path d="M-22 -7q5.5 -5 11 0t11 0t11 0t11 0M-22 5q5.5 -5 11 0t11 0t11 0t11 0" stroke="#3f78bf" stroke-width="1.4" fill="none"/>',
  ford: '<path d="M-22 -7q5.5 -5 11 0t11 0t11 0t11 0M-22 5q5.5 -5 11 0t11 0t11 0t11 0" stroke="#3f78bf" stroke-width="1.4" fill="none"/><path d="M-24 0h48" stroke="#e8d49a" stroke-width="7" stroke-dasharray="5 4"/>',
  bridge: '<path d="M-22 -7q5.5 -5 11 0t11 0t11 0t11 0M-22 5q5.5 -5 11 0t11 0t11 0t11 0" stroke="#3f78bf" stroke-width="1.4" fill="none"/><rect x="-24" y="-6" width="48" height="12" fill="#d9cdb5" stroke="#6b421c" stroke-width="1.4"/><path d="M-24 -6h48M-24 6h48" stroke="#6b421c" stroke-width="2.4"/>',
  marsh: '<path d="M-17 -4h10M-15 -4v-5M-12 -4v-7M-9 -4v-5" stroke="#3f7a66" stroke-width="1.1" fill="none"/><path d="M3 -8h10M5 -8v-5M8 -8v-7M11 -8v-5" stroke="#3f7a66" stroke-width="1.1" fill="none"/><path d="M-7 10h10M-5 10v-5M-2 10v-7M1 10v-5" stroke="#3f7a66" stroke-width="1.1" fill="none"/><path d="M9 8h10M11 8v-5M14 8v-7M17 8v-5" stroke="#3f7a66" stroke-width="1.1" fill="none"/>',
  dunes: '<path d="M-22 -6q6 -7 12 0M-2 -10q6 -7 12 0M-14 8q6 -7 12 0M6 12q6 -7 12 0" stroke="#b8974e" stroke-width="1.4" fill="none"/>',
  fields: '<path d="M-20 -12h40M-24 -6h48M-24 0h48M-24 6h48M-20 12h40" stroke="#c2ae4e" stroke-width="1.2" fill="none"/>',
  snow: '<path d="M-15 -8h6M-12 -11v6" stroke="#9aa8c4" stroke-width="1"/><path d="M3 -12h6M6 -15v6" stroke="#9aa8c4" stroke-width="1"/><path d="M11 2h6M14 -1v6" stroke="#9aa8c4" stroke-width="1"/><path d="M-7 6h6M-4 3v6" stroke="#9aa8c4" stroke-width="1"/><path d="M-19 10h6M-16 7v6" stroke="#9aa8c4" stroke-width="1"/><path d="M5 14h6M8 11v6" stroke="#9aa8c4" stroke-width="1"/>',
};

function el(name, attrs, parent) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

/** A mark's drawing at (x, y), scaled by `k` (1 for a hex of circumradius 40). */
function drawMark(parent, mark, x, y, k, attrs = {}) {
  const d = DRAWINGS[mark];
  if (!d) return null;
  const g = el('g', { class: 'mark', 'data-mark': mark, transform: `translate(${x} ${y}) scale(${k})`, ...attrs }, parent);
  g.innerHTML = d;
  return g;
}

/**
 * Draws every hex's terrain on the board: its fill, its mark, the elevation's shading and
 * number, and the grid. `board` gives `hexes`, `palette`, `orientation`, the hex size `S`
 * and its layers.
 */
export function drawTerrain(board, S) {
  for (const h of board.hexes.values()) {
    const p = pts(corners(h.x, h.y, S, board.orientation));
    const mark = markOf(h.terrain);
    el('polygon', { points: p, fill: terrainColour(h.terrain, board.palette), class: 'terrain', 'data-terrain': h.terrain, 'data-hex': h.label, 'data-mark': mark || '' }, board.terrainLayer);
    if (mark && DRAWINGS[mark]) drawMark(board.terrainLayer, mark, h.x, h.y, S / 40, { 'data-hex': h.label });
    if (h.elevation) {
      const up = h.elevation > 0;
      el('polygon', { points: p, fill: up ? '#7a4e1e' : '#1e4e7a', 'fill-opacity': Math.min(0.1 + 0.11 * Math.abs(h.elevation), 0.5).toFixed(2), class: 'elev' }, board.elevLayer);
      const t = el('text', { x: h.x - 0.62 * S, y: h.y + 0.1 * S, class: 'elev-label' }, board.elevLayer);
      t.textContent = h.elevation;
    }
    el('polygon', { points: p, class: 'grid' }, board.gridLayer);
  }
}

/**
 * The key to the map's terrain, beside the board: each terrain of this map with its fill
 * and mark, folded away until opened (`#terrain-key`).
 */
export function terrainKey(board) {
  const used = [...new Set([...board.hexes.values()].map((h) => h.terrain))].filter(Boolean).sort();
  const key = document.createElement('details');
  key.className = 'terrain-key';
  key.id = 'terrain-key';
  const rows = used
    .map((t) => {
      const mark = markOf(t);
      return `<li data-terrain="${t}" data-mark="${mark || ''}"><svg viewBox="-22 -20 44 40" width="30" height="26" aria-hidden="true"><polygon points="${pts(corners(0, 0, 20, board.orientation))}" fill="${terrainColour(t, board.palette)}" stroke="#8a8a7a" stroke-width="0.8"/><g transform="scale(0.5)">${DRAWINGS[mark] || ''}</g></svg>${t.replace(/_/g, ' ')}</li>`;
    })
    .join('');
  key.innerHTML = `<summary title="what each terrain of this map looks like">Key</summary><ul>${rows}</ul>`;
  board.host.after(key);
  return key;
}
