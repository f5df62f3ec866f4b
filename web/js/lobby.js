// The lobby: every scenario of every ruleset, new games against the computer, hotseat or
// by invitation, and the games in progress.

import { api, esc, nice, sideColour, sideToAct, tokens } from './api.js';
import { rulesetBlurb, rulesetTitle } from './rulesets.js';

const $ = (id) => document.getElementById(id);

function chip(side) {
  return `<span class="side-chip" style="background:${sideColour(side)}"></span>`;
}

function scenarioCard(s) {
  const sides = s.sides || [];
  const options = sides.map((x) => `<option value="${esc(x.id)}">${esc(x.name || x.id)}</option>`).join('');
  return `<article class="scenario-card" data-scenario="${esc(s.id)}">
    <h4>${esc(s.title)}</h4>
    <div class="meta">${esc(rulesetTitle(s.ruleset))} · ${s.map ? `${s.map.cols}×${s.map.rows} hexes · ` : ''}${sides.map((x) => `${chip(x.id)} ${esc(x.name || x.id)}`).join(' vs ')}</div>
    <p>${esc(s.description || '')}</p>
    <form>
      <label>Play <select name="mode">
        <option value="ai">against the computer</option>
        <option value="hotseat">hotseat (both sides here)</option>
        <option value="invite">with a friend (invitation link)</option>
      </select></label>
      <label class="as">as <select name="side">${options}</select></label>
      <label class="level">computer <select name="level" aria-label="the computer's level">
        <option value="easy">easy</option>
        <option value="normal" selected>normal</option>
        <option value="hard">hard</option>
      </select></label>
      <button class="primary" type="submit">New game</button>
    </form>
    <div class="invite-slot"></div>
  </article>`;
}

async function create(card, s) {
  const form = card.querySelector('form');
  const mode = form.mode.value;
  const me = form.side.value;
  const seats = {};
  for (const x of s.sides) seats[x.id] = mode === 'hotseat' || x.id === me ? 'human' : mode === 'ai' ? 'ai' : 'human';
  const levels = {};
  for (const [side, kind] of Object.entries(seats)) if (kind === 'ai') levels[side] = form.level.value;
  const btn = form.querySelector('button');
  btn.disabled = true;
  try {
    const res = await api.create(s.id, seats, null, levels, mode === 'hotseat');
    const mineSides = mode === 'hotseat' ? Object.keys(seats) : [me];
    for (const side of mineSides) if (res.seats[side] && res.seats[side].token) tokens.set(res.id, side, res.seats[side].token);
    const myLink = res.seats[me].link || `/play/${res.id}?token=${res.seats[me].token}`;
    if (mode === 'invite') {
      const other = s.sides.find((x) => x.id !== me);
      const link = new URL(res.seats[other.id].link, location.href).href;
      card.querySelector('.invite-slot').innerHTML = `<div class="invite-box">
        Send this link to your opponent, who plays ${chip(other.id)} <b>${esc(other.name || other.id)}</b>:
        <input readonly value="${esc(link)}" class="invite-link" aria-label="invitation link">
        <button type="button" class="copy">Copy link</button> <a class="go" href="${esc(myLink)}"><button type="button" class="primary">Go to the board</button></a>
      </div>`;
      const input = card.querySelector('.invite-link');
      input.select();
      card.querySelector('.copy').onclick = async () => {
        input.select();
        try {
          await navigator.clipboard.writeText(link);
        } catch {
          document.execCommand('copy');
        }
        card.querySelector('.copy').textContent = 'Copied';
      };
      loadGames();
    } else {
      location.href = myLink;
    }
  } catch (e) {
    card.querySelector('.invite-slot').innerHTML = `<div class="invite-box">${esc(e.rule)}: ${esc(e.message)}</div>`;
  } finally {
    btn.disabled = false;
  }
}

// Each scenario's side names, by scenario id and side id, for the list of games.
const sideNames = new Map();

function sideName(scenario, side) {
  return (sideNames.get(scenario) || {})[side] || side;
}

async function loadScenarios() {
  const list = await api.scenarios();
  for (const s of list) sideNames.set(s.id, Object.fromEntries((s.sides || []).map((x) => [x.id, x.name || x.id])));
  if (shown.length) renderGames();
  const groups = new Map();
  for (const s of list) {
    if (!groups.has(s.ruleset)) groups.set(s.ruleset, []);
    groups.get(s.ruleset).push(s);
  }
  const host = $('scenarios');
  host.innerHTML = [...groups]
    .map(([rs, ss]) => `<section class="ruleset-group" data-ruleset="${esc(rs)}"><h3>${esc(rulesetTitle(rs))} <span class="rs-tag">${esc(rulesetBlurb(rs))}</span></h3>${ss.map(scenarioCard).join('')}</section>`)
    .join('') || '<p class="empty">No scenario.</p>';
  for (const s of list) {
    const card = host.querySelector(`[data-scenario="${CSS.escape(s.id)}"]`);
    const form = card.querySelector('form');
    const sync = () => {
      card.querySelector('.as').style.visibility = form.mode.value === 'hotseat' ? 'hidden' : 'visible';
      card.querySelector('.level').style.display = form.mode.value === 'ai' ? '' : 'none';
    };
    form.mode.addEventListener('change', sync);
    form.addEventListener('submit', (ev) => {
      ev.preventDefault();
      create(card, s);
    });
  }
}

function ago(t) {
  const d = new Date(typeof t === 'number' ? t * 1000 : t);
  if (isNaN(d)) return '';
  const s = (Date.now() - d) / 1000;
  if (s < 60) return 'just now';
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ago`;
  return d.toLocaleDateString();
}

// The games shown, a page at a time (newest activity first), and the cursor of the next page.
const PAGE = 50;
let shown = [];
let nextCursor = null;

/** Reloads the games shown: as many as are on screen, so that a refresh keeps the pages opened. */
async function loadGames() {
  const page = await api.gamesPage({ limit: Math.min(200, Math.max(PAGE, shown.length)) });
  shown = page.games;
  nextCursor = page.next;
  renderGames();
}

/** Appends the next page of games. */
async function moreGames() {
  if (!nextCursor) return;
  const page = await api.gamesPage({ cursor: nextCursor, limit: PAGE });
  const seen = new Set(shown.map((x) => x.id));
  shown = shown.concat(page.games.filter((x) => !seen.has(x.id)));
  nextCursor = page.next;
  renderGames();
}

function moreButton() {
  let more = $('more-games');
  if (!more) {
    more = document.createElement('button');
    more.id = 'more-games';
    more.type = 'button';
    more.textContent = 'More games';
    more.addEventListener('click', () => moreGames().catch(() => {}));
    $('games').after(more);
  }
  return more;
}

/** This browser's games first (those where it is to move before the others), then the rest, each in the server's order. */
function ordered(list) {
  const rank = (x) => {
    const held = tokens.of(x.id);
    if (!Object.keys(held).length) return 2;
    const toAct = sideToAct(x);
    return !x.outcome && toAct && held[toAct] ? 0 : 1;
  };
  return list.map((x, i) => [rank(x), i, x]).sort((a, b) => a[0] - b[0] || a[1] - b[1]).map(([, , x]) => x);
}

function renderGames() {
  const list = ordered(shown);
  const host = $('games');
  moreButton().hidden = !nextCursor;
  if (!list.length) {
    host.innerHTML = '<li class="empty">No game yet: start one.</li>';
    return;
  }
  host.innerHTML = list
    .map((x) => {
      const held = tokens.of(x.id);
      const sides = Object.keys(held);
      const toAct = sideToAct(x);
      const name = (side) => esc(sideName(x.scenario, side));
      const seats = Object.entries(x.seats || {}).map(([side, kind]) => `${chip(side)} ${name(side)}${kind === 'ai' ? ' (computer)' : ''}`).join(' vs ');
      const state = x.outcome ? `over: ${x.outcome.winner ? `victory to ${name(x.outcome.winner)}` : 'a draw'}` : toAct ? `${chip(toAct)} ${name(toAct)} to act${held[toAct] ? ' — <b>your move</b>' : ''}` : '';
      const token = held[toAct] || Object.values(held)[0];
      const play = `/play/${encodeURIComponent(x.id)}${token ? `?token=${encodeURIComponent(token)}` : ''}`;
      const main = x.outcome
        ? `<a href="/replay/${encodeURIComponent(x.id)}"><button>Replay</button></a>`
        : `<a href="${play}"><button class="${token ? 'primary' : ''}">${token ? 'Continue' : 'Watch'}</button></a>`;
      return `<li class="${sides.length ? 'mine' : ''}" data-game="${esc(x.id)}">
        <div class="g-main"><div class="g-title">${esc(x.title || x.scenario)}</div>
        <div class="g-sub">${esc(rulesetTitle(x.ruleset))} · ${seats} · ${esc(x.n)} actions · ${ago(x.created)}</div>
        <div class="g-sub">${state}${sides.length ? ` · you: ${sides.map(name).join(', ')}` : ''}</div></div>${main}</li>`;
    })
    .join('');
}

loadScenarios().catch((e) => ($('scenarios').innerHTML = `<p class="empty">The scenarios could not be loaded: ${esc(e.message)}</p>`));
loadGames().catch((e) => ($('games').innerHTML = `<li class="empty">The games could not be loaded: ${esc(e.message)}</li>`));
setInterval(() => loadGames().catch(() => {}), 10000);
