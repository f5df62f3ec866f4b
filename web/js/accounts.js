// Play by web in the lobby (issue 16): sign up and log in, open a challenge, join one,
// and the games of my account (my turn first). The HTTP API is in docs/HTTP-API.md.

import { esc, tokens } from './api.js';
import { rulesetTitle } from './rulesets.js';

const $ = (id) => document.getElementById(id);
const root = $('play-by-web');

function csrf() {
  const m = /(?:^|;\s*)csrf=([^;]+)/.exec(document.cookie);
  return m ? m[1] : '';
}

/** A call with the session: JSON in and out; throws `Error` with the server's message. */
async function call(method, path, body) {
  const headers = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && csrf()) headers['x-csrf-token'] = csrf();
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  const data = text ? JSON.parse(text) : null;
  if (!res.ok) {
    const e = new Error((data && data.error && data.error.message) || `HTTP ${res.status}`);
    e.status = res.status;
    throw e;
  }
  return data;
}

let me = null;
let scenarios = [];

function clock(seconds) {
  if (seconds == null) return '';
  const h = Math.floor(seconds / 3600);
  const d = Math.floor(h / 24);
  return d > 0 ? `${d} d ${h % 24} h left` : `${h} h ${Math.floor((seconds % 3600) / 60)} min left`;
}

function signInForm() {
  return `<h2>Your account</h2>
    <form id="acct-form" class="acct-form">
      <label>Name <input name="name" id="acct-name" autocomplete="username" required minlength="3" maxlength="20"></label>
      <label>Password <input name="password" id="acct-password" type="password" autocomplete="current-password" required minlength="8"></label>
      <button type="submit" class="primary" id="acct-login">Log in</button>
      <button type="button" id="acct-signup">Sign up</button>
    </form>
    <p class="acct-error" id="acct-error" role="alert"></p>`;
}

function challengeForm() {
  const options = scenarios
    .filter((s) => (s.sides || []).length === 2)
    .map((s) => `<option value="${esc(s.id)}">${esc(s.title)}</option>`)
    .join('');
  return `<form id="challenge-form" class="challenge-form">
      <label>Scenario <select name="scenario" id="ch-scenario">${options}</select></label>
      <label>as <select name="side" id="ch-side"></select></label>
      <label>hours a move <input name="hours" id="ch-hours" type="number" min="1" max="720" value="48"></label>
      <label>out of time: <select name="on_time" id="ch-on-time"><option value="lose">loses</option><option value="computer">the computer plays on</option></select></label>
      <label><input type="checkbox" name="rated" id="ch-rated" checked> rated</label>
      <button type="submit" class="primary" id="ch-open">Open a challenge</button>
    </form>`;
}

function sidesOf(id) {
  const s = scenarios.find((x) => x.id === id);
  return (s && s.sides) || [];
}

async function render() {
  if (!me) {
    root.innerHTML = signInForm();
    $('acct-form').addEventListener('submit', (ev) => {
      ev.preventDefault();
      enter('/api/session');
    });
    $('acct-signup').addEventListener('click', () => enter('/api/accounts'));
    await renderChallenges(root);
    await renderLeaderboards();
    const player = new URLSearchParams(location.search).get('player');
    if (player) await renderProfile(player);
    return;
  }
  root.innerHTML = `<h2>Your account</h2>
    <p class="acct-who">Logged in as <b id="acct-who">${esc(me)}</b> · <a href="/?player=${encodeURIComponent(me)}">profile</a> · <button type="button" id="acct-logout">Log out</button></p>
    <h2>My games</h2><ul class="games-list" id="my-games"><li class="empty">Loading…</li></ul>
    <h2>Open challenges</h2>${challengeForm()}<ul class="games-list" id="challenges"></ul>`;
  $('acct-logout').addEventListener('click', async () => {
    await call('DELETE', '/api/session');
    me = null;
    render();
  });
  const pick = () => {
    $('ch-side').innerHTML = sidesOf($('ch-scenario').value).map((x) => `<option value="${esc(x.id)}">${esc(x.name || x.id)}</option>`).join('');
  };
  $('ch-scenario').addEventListener('change', pick);
  pick();
  $('challenge-form').addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const hours = Number($('ch-hours').value);
    try {
      const res = await call('POST', '/api/challenges', {
        scenario: $('ch-scenario').value,
        side: $('ch-side').value,
        time_per_move_hours: hours > 0 ? hours : null,
        rated: $('ch-rated').checked,
        on_time: $('ch-on-time').value,
      });
      tokens.set(res.game, res.side, res.token);
      location.href = `/play/${res.game}`;
    } catch (e) {
      alert(e.message);
    }
  });
  await Promise.all([renderMine(), renderChallenges(root)]);
  await renderLeaderboards();
  const player = new URLSearchParams(location.search).get('player');
  if (player) await renderProfile(player);
}

async function renderMine() {
  const list = $('my-games');
  const games = await call('GET', '/api/me/games');
  const word = { my_turn: 'your turn', waiting: 'waiting', finished: 'finished' };
  list.innerHTML = games.length
    ? games
        .map(
          (g) => `<li class="${g.state === 'my_turn' ? 'mine' : ''}" data-game="${esc(g.id)}" data-state="${esc(g.state)}">
        <div class="g-main"><div class="g-title"><a href="${esc(g.link)}">${esc(g.title)}</a></div>
        <div class="g-sub">${esc(word[g.state] || g.state)} · you play ${esc(g.side)} against ${esc(g.opponent || 'an open seat')}${g.turn ? ` · ${esc(g.turn)}` : ''}${g.time_left_seconds != null ? ` · ${clock(g.time_left_seconds)}` : ''}</div></div></li>`,
        )
        .join('')
    : '<li class="empty">No games yet: open a challenge, or join one.</li>';
}

async function renderChallenges(host) {
  let list = $('challenges');
  if (!list) {
    host.insertAdjacentHTML('beforeend', '<h2>Open challenges</h2><ul class="games-list" id="challenges"></ul>');
    list = $('challenges');
  }
  const open = await call('GET', '/api/challenges');
  list.innerHTML = open.length
    ? open
        .map(
          (c) => `<li data-challenge="${esc(c.id)}"><div class="g-main"><div class="g-title">${esc(c.title)}</div>
        <div class="g-sub">${esc(c.creator)} plays ${esc(c.side)}; ${esc(c.open_side)} is open${c.time_per_move_hours ? ` · ${c.time_per_move_hours} h a move` : ''}${c.rated ? ' · rated' : ''}</div></div>
        ${me && me !== c.creator ? `<button type="button" class="primary join" data-id="${esc(c.id)}">Join</button>` : ''}</li>`,
        )
        .join('')
    : '<li class="empty">No open challenge.</li>';
  for (const b of list.querySelectorAll('button.join')) {
    b.addEventListener('click', async () => {
      try {
        const res = await call('POST', `/api/challenges/${b.dataset.id}/accept`);
        tokens.set(res.id, res.side, res.token);
        location.href = `/play/${res.id}`;
      } catch (e) {
        alert(e.message);
        render();
      }
    });
  }
}

/** The leaderboard of each ruleset with rated games, best first. */
async function renderLeaderboards() {
  const rulesets = [...new Set(scenarios.map((s) => s.ruleset))];
  const boards = await Promise.all(rulesets.map(async (r) => [r, await call('GET', `/api/ratings/${encodeURIComponent(r)}`)]));
  const rated = boards.filter(([, entries]) => entries.length);
  if (!rated.length) return;
  root.insertAdjacentHTML(
    'beforeend',
    `<h2>Ratings</h2>${rated
      .map(
        ([r, entries]) => `<table class="leaderboard" data-ruleset="${esc(r)}"><caption>${esc(rulesetTitle(r))}</caption>
        <tr><th>player</th><th>rating</th><th>deviation</th><th>games</th></tr>
        ${entries.map((e) => `<tr><td><a href="/?player=${encodeURIComponent(e.name)}">${esc(e.name)}</a></td><td>${Math.round(e.rating)}</td><td>${Math.round(e.deviation)}</td><td>${e.games}</td></tr>`).join('')}</table>`,
      )
      .join('')}`,
  );
}

/** A player's profile (`/?player=NAME`): ratings, and finished games with their replays. */
async function renderProfile(name) {
  let p;
  try {
    p = await call('GET', `/api/players/${encodeURIComponent(name)}`);
  } catch (e) {
    root.insertAdjacentHTML('afterbegin', `<p class="acct-error">${esc(e.message)}</p>`);
    return;
  }
  const word = { win: 'won', loss: 'lost', draw: 'drew' };
  root.insertAdjacentHTML(
    'afterbegin',
    `<section class="profile" id="profile"><h2>Player ${esc(p.name)}</h2>
    <p>${p.ratings.map((r) => `${esc(rulesetTitle(r.ruleset))}: <b>${Math.round(r.rating)}</b> ±${Math.round(r.deviation)} (${r.games} games)`).join(' · ') || 'No rated game yet.'}</p>
    <ul class="games-list">${p.games
      .map((g) => `<li><div class="g-main"><div class="g-title"><a href="${esc(g.replay)}">${esc(g.title)}</a></div>
      <div class="g-sub">${esc(word[g.result] || g.result)} as ${esc(g.side)}${g.opponent ? ` against ${esc(g.opponent)}` : ''}${g.rated ? ' · rated' : ''}</div></div></li>`)
      .join('') || '<li class="empty">No finished game.</li>'}</ul></section>`,
  );
}

async function enter(path) {
  const name = $('acct-name').value.trim();
  const password = $('acct-password').value;
  try {
    const res = await call('POST', path, { name, password });
    me = res.name;
    render();
  } catch (e) {
    $('acct-error').textContent = e.message;
  }
}

async function boot() {
  if (!root) return;
  scenarios = await call('GET', '/api/scenarios');
  try {
    me = (await call('GET', '/api/session')).name || null;
  } catch {
    me = null;
  }
  render();
}

boot();
