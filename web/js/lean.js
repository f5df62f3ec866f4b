// The lean game object (issue 17): the page asks for the log's new entries only
// (`since`) and for the legal actions grouped (`legal=compact`), and puts the object
// back together here, so that the panels read `g.actions` and `g.log` as they always did.

/** How many of the log's last entries the page keeps, as a full object carries. */
export const LOG_TAIL = 30;

/** The actions of compact groups, in order (docs/HTTP-API.md, "Lean game objects"). */
export function expand(groups) {
  const out = [];
  for (const grp of groups || []) {
    if ('action' in grp) out.push(grp.action);
    else if (grp.vary != null) for (const v of grp.values || []) out.push({ ...grp.common, [grp.vary]: v });
    else out.push({ ...grp.common });
  }
  return out;
}

/**
 * The query of a request for a game object, made holding `held` (the object the page
 * holds for the same seat, or null): only the entries after it, and the legal actions
 * grouped.
 */
export function leanQuery(held) {
  const q = new URLSearchParams({ legal: 'compact' });
  if (held && typeof held.n === 'number') {
    q.set('since', String(held.n));
    q.set('undos', String(held.undos || 0));
  }
  return `?${q}`;
}

/** The WebSocket's query: pushes of what changed, the legal actions grouped. */
export const SOCKET_QUERY = 'delta=true&legal=compact';

/**
 * The full object from a lean one, `next`, and the object the page holds, `held`: the
 * legal actions expanded into `actions`, and the log put together from the entries
 * held up to `log_from` and the new ones, its last LOG_TAIL kept. An object that is
 * already whole comes back as it is. `gap` is set when the page holds less of the log
 * than the object starts from: then ask again without `since`.
 */
export function whole(next, held) {
  if (!next || typeof next !== 'object' || typeof next.n !== 'number') return next;
  const out = { ...next };
  if (Array.isArray(next.legal)) {
    out.actions = expand(next.legal);
    delete out.legal;
  } else if (!Array.isArray(out.actions)) {
    out.actions = [];
  }
  if (typeof next.log_from === 'number') {
    const from = next.log_from;
    const fresh = next.log || [];
    const kept = ((held && held.log) || []).filter((e) => e.n <= from);
    // Entry `from` is the last one the new entries need before them.
    const holds = kept.length > 0 && kept[kept.length - 1].n === from;
    if (from > 0 && fresh.length < LOG_TAIL && !holds) out.gap = true;
    out.log = kept.concat(fresh).slice(-LOG_TAIL);
    delete out.log_from;
  }
  return out;
}
