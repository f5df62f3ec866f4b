// The HTTP API (docs/HTTP-API.md) and the tokens this browser holds.
//
// The server sends each seat a view plus the actions it may take; the client only renders
// the view and sends back one of the listed actions.

/** An error answer: `{"error": {"rule", "message", "reasons"}}` with its status. */
export class ApiError extends Error {
  constructor(status, body) {
    const e = (body && body.error) || {};
    super(e.message || `HTTP ${status}`);
    this.status = status;
    this.rule = e.rule || String(status);
    this.reasons = e.reasons && e.reasons.length ? e.reasons : [{ rule: this.rule, message: this.message }];
  }
}

/**
 * Keeps a game's `seed` as its exact digits: a seed is 64 bits, more than a JavaScript
 * number holds exactly (where the browser gives the source text of a value).
 */
const exactSeed = (key, value, context) =>
  key === 'seed' && typeof value === 'number' && context?.source ? context.source : value;

async function call(method, path, { body, token, reviver } = {}) {
  const headers = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  // Logged in (issue 16): a state-changing request made with the session cookie echoes
  // the readable `csrf` cookie, or the server refuses it.
  const csrf = /(?:^|;\s*)csrf=([^;]+)/.exec(document.cookie);
  if (csrf && method !== 'GET') headers['x-csrf-token'] = csrf[1];
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  let data = null;
  try {
    data = text ? JSON.parse(text, reviver) : null;
  } catch {
    data = { error: { rule: String(res.status), message: text.slice(0, 200) } };
  }
  if (!res.ok) throw new ApiError(res.status, data);
  return data;
}

export const api = {
  scenarios: () => call('GET', '/api/scenarios'),
  board: (id) => call('GET', `/api/scenarios/${encodeURIComponent(id)}/board`),
  games: () => call('GET', '/api/games'),
  /** A page of games, newest activity first: `{games, next}`, `next` the cursor of the page after. */
  async gamesPage({ cursor, limit } = {}) {
    const q = new URLSearchParams();
    if (limit) q.set('limit', String(limit));
    if (cursor) q.set('cursor', cursor);
    const qs = q.toString();
    const res = await fetch(`/api/games${qs ? `?${qs}` : ''}`);
    const data = await res.json().catch(() => null);
    if (!res.ok) throw new ApiError(res.status, data);
    return { games: data, next: res.headers.get('x-next-cursor') };
  },
  /** A new game; `hotseat` gives every seat one token, for one person at one screen. */
  create: (scenario, seats, seed, levels, hotseat = false) => {
    const body = { scenario, seats };
    if (hotseat) body.hotseat = true;
    if (seed != null) body.seed = seed;
    if (levels && Object.keys(levels).length) body.levels = levels;
    return call('POST', '/api/games', { body });
  },
  // `query`: the lean forms' (`?since=K&legal=compact`, lean.js), or none for the full object.
  game: (id, token, query = '') => call('GET', `/api/games/${id}${query}`, { token }),
  act: (id, action, expect, token, query = '') => call('POST', `/api/games/${id}/actions${query}`, { body: { action, expect }, token }),
  undo: (id, expect, token) => call('POST', `/api/games/${id}/undo`, { body: { expect }, token }),
  explain: (id, action, token, n) => call('POST', `/api/games/${id}/explain`, { body: { action, n }, token }),
  preview: (id, action, token, n) => call('POST', `/api/games/${id}/preview`, { body: { action, n }, token }),
  // A legal action that rolls no dice answers an empty distribution, not a 400.
  previewIfRolls: (id, action, token, n) => call('POST', `/api/games/${id}/preview`, { body: { action, empty_if_no_dice: true, n }, token }),
  reachable: (id, unit, token) =>
    call('GET', `/api/games/${id}/reachable?unit=${encodeURIComponent(unit)}`, { token }),
  hint: (id, token) => call('POST', `/api/games/${id}/hint`, { body: {}, token }),
  replay: (id, token) => call('GET', `/api/games/${id}/replay`, { token, reviver: exactSeed }),
  socketUrl(id, token, extra = '') {
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const params = [token ? `token=${encodeURIComponent(token)}` : '', extra].filter(Boolean).join('&');
    const q = params ? `?${params}` : '';
    return `${proto}//${location.host}/api/games/${id}/ws${q}`;
  },
};

// Tokens by game and side, kept in this browser so that a hotseat game (one browser, both
// seats) acts with the token of the side to act, and a reload finds the game again.
const KEY = 'grognard.tokens';

function load() {
  try {
    return JSON.parse(localStorage.getItem(KEY)) || {};
  } catch {
    return {};
  }
}

export const tokens = {
  /** `{side: token}` for a game. */
  of(game) {
    return load()[game] || {};
  },
  set(game, side, token) {
    const all = load();
    all[game] = { ...(all[game] || {}), [side]: token };
    localStorage.setItem(KEY, JSON.stringify(all));
  },
  /** Every game this browser holds a seat in. */
  games() {
    return Object.keys(load());
  },
};

/**
 * The token a `/play/ID?token=...` or `/replay/ID?token=...` link carries, taken out of the
 * address bar (so that it is neither shown, bookmarked nor shared by accident) and kept in
 * this tab's sessionStorage, so that a reload still has it.
 */
export function takeLinkToken(game) {
  const key = `grognard.link.${game}`;
  const url = new URL(location.href);
  const fromUrl = url.searchParams.get('token');
  if (fromUrl) {
    try {
      sessionStorage.setItem(key, fromUrl);
    } catch {
      // Storage refused (a private window): the token lives as long as the page.
    }
    url.searchParams.delete('token');
    history.replaceState(history.state, '', url.pathname + url.search + url.hash);
    return fromUrl;
  }
  try {
    return sessionStorage.getItem(key);
  } catch {
    return null;
  }
}

/** The side whose decision it is: `to_act` is `{side, kind}` (or a bare side). */
export function sideToAct(g) {
  const t = g && g.to_act;
  if (!t) return null;
  return typeof t === 'string' ? t : t.side;
}

/** Text escaped for HTML. */
export function esc(s) {
  return String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
}

/** A rule ID as a badge. */
// The rules page of each ruleset's IDs (served from docs/rules/ by the server).
const RULE_PAGES = { MP: 'morne-plaine', BC: 'battle-cry', JO: 'jomini', SK: 'skirmish' };

/** A rule ID as a badge; a ruleset's rule links to its row in the rules page. */
export function ruleBadge(rule) {
  if (!rule) return '';
  const page = /^[A-Z]+-[A-Z0-9-]+$/.test(rule) && RULE_PAGES[rule.split('-')[0]];
  return page ? `<a class="rule" href="/rules/${page}#${esc(rule)}" target="_blank" rel="noopener" title="read rule ${esc(rule)}">${esc(rule)}</a>` : `<span class="rule">${esc(rule)}</span>`;
}

/** Reasons `[{rule, message}]` as HTML lines. */
export function reasonsHtml(reasons) {
  return (reasons || []).map((r) => `<div class="reason">${ruleBadge(r.rule)} ${esc(r.message)}</div>`).join('');
}

/** A side's display colour. */
export function sideColour(id) {
  const fixed = { orange: '#e07b24', blue: '#3f6fc6', red: '#c23b32', green: '#3f8f3f', grey: '#8c8c8c', gray: '#8c8c8c', union: '#3f5fa8', confederate: '#9a9a9a', axis: '#6f6f5a', allies: '#5a7a4a' };
  if (fixed[id]) return fixed[id];
  let h = 2166136261;
  for (const c of String(id)) h = Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0;
  return `hsl(${h % 360} 55% 45%)`;
}

/** Title case from a snake_case name. */
export function nice(s) {
  return String(s ?? '').replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());
}
