// The chat of a game (issue 16): the messages of its seats, live over the game's
// WebSocket (`&chat=true`), and a box to post with this browser's seat (its token, or the
// session of the account that holds it). Spectators read it unless the game says not.

import { esc, tokens, takeLinkToken } from './api.js';

const $ = (id) => document.getElementById(id);
const gameId = decodeURIComponent(location.pathname.split('/').filter(Boolean).pop() || '');
const host = $('chat');

function csrf() {
  const m = /(?:^|;\s*)csrf=([^;]+)/.exec(document.cookie);
  return m ? m[1] : '';
}

function token() {
  const link = takeLinkToken(gameId);
  return link || Object.values(tokens.of(gameId))[0] || null;
}

function headers(json) {
  const h = {};
  if (json) h['content-type'] = 'application/json';
  const t = token();
  if (t) h.authorization = `Bearer ${t}`;
  if (csrf()) h['x-csrf-token'] = csrf();
  return h;
}

const seen = new Set();

function show(m) {
  if (seen.has(m.id)) return;
  seen.add(m.id);
  const side = m.side_name || m.side;
  const who = m.name ? `${m.name} (${side})` : side;
  $('chat-log').insertAdjacentHTML(
    'beforeend',
    `<div class="chat-msg" data-side="${esc(m.side)}"><b>${esc(who)}</b>: ${esc(m.text)}</div>`,
  );
  $('chat-log').scrollTop = $('chat-log').scrollHeight;
}

async function load() {
  const res = await fetch(`/api/games/${gameId}/chat`, { headers: headers(false) });
  if (res.status === 403) {
    host.hidden = true;
    return false;
  }
  if (!res.ok) return true;
  const data = await res.json();
  for (const m of data.messages) show(m);
  return true;
}

function listen() {
  const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const t = token();
  const q = new URLSearchParams({ chat: 'true' });
  if (t) q.set('token', t);
  let backoff = 500;
  const open = () => {
    const socket = new WebSocket(`${proto}//${location.host}/api/games/${gameId}/ws?${q}`);
    socket.onopen = () => {
      backoff = 500;
      load();
    };
    socket.onmessage = (ev) => {
      try {
        const m = JSON.parse(ev.data);
        if (m && m.kind === 'chat') show(m.message);
      } catch {
        // Not JSON: nothing for the chat.
      }
    };
    socket.onclose = () => {
      setTimeout(open, backoff);
      backoff = Math.min(backoff * 2, 8000);
    };
  };
  open();
}

async function post(ev) {
  ev.preventDefault();
  const input = $('chat-text');
  const text = input.value.trim();
  if (!text) return;
  const res = await fetch(`/api/games/${gameId}/chat`, { method: 'POST', headers: headers(true), body: JSON.stringify({ text }) });
  const data = await res.json().catch(() => null);
  if (res.ok) {
    input.value = '';
    $('chat-error').textContent = '';
    show(data);
  } else {
    $('chat-error').textContent = (data && data.error && data.error.message) || `HTTP ${res.status}`;
  }
}

async function boot() {
  if (!host || !gameId) return;
  host.innerHTML = `<h3>Chat</h3><div class="chat-log" id="chat-log" aria-live="polite"></div>
    <form id="chat-form" class="chat-form"><input id="chat-text" maxlength="500" placeholder="a message to the other side" aria-label="chat message">
    <button type="submit" id="chat-send">Send</button></form><div class="chat-error" id="chat-error" role="alert"></div>`;
  $('chat-form').addEventListener('submit', post);
  if (await load()) listen();
}

boot();
