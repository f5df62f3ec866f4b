// Resigning (issue 16): a "Resign" button for this browser's seat while the game goes on,
// with a confirmation; `POST /api/games/{id}/resign` with the seat's token or the
// session of the account that holds it. The game's end arrives over the WebSocket like
// any change, and the game page shows it.

import { tokens, takeLinkToken } from './api.js';

const $ = (id) => document.getElementById(id);
const gameId = decodeURIComponent(location.pathname.split('/').filter(Boolean).pop() || '');
const host = $('resign-host');

function csrf() {
  const m = /(?:^|;\s*)csrf=([^;]+)/.exec(document.cookie);
  return m ? m[1] : '';
}

function headers() {
  const h = {};
  const t = takeLinkToken(gameId) || Object.values(tokens.of(gameId))[0] || null;
  if (t) h.authorization = `Bearer ${t}`;
  if (csrf()) h['x-csrf-token'] = csrf();
  return h;
}

function show() {
  const { seat, over } = document.body.dataset;
  const seated = seat && seat !== 'spectator';
  host.hidden = !seated || over === 'yes';
  if (host.hidden) ask(false);
}

function ask(on) {
  $('resign').hidden = on;
  $('resign-confirm').hidden = !on;
}

async function resign() {
  const res = await fetch(`/api/games/${gameId}/resign`, { method: 'POST', headers: headers() });
  const data = await res.json().catch(() => null);
  if (res.ok) {
    ask(false);
    $('resign-error').textContent = '';
  } else {
    $('resign-error').textContent = (data && data.error && data.error.message) || `HTTP ${res.status}`;
  }
}

if (host && gameId) {
  host.innerHTML = `<button type="button" id="resign" title="give up this game: the other side wins">Resign</button>
    <span id="resign-confirm" hidden role="alertdialog" aria-label="confirm the resignation">Resign this game? The other side wins.
      <button type="button" class="danger" id="resign-yes">Yes, resign</button>
      <button type="button" id="resign-no">No, play on</button></span>
    <span class="resign-error" id="resign-error" role="alert"></span>`;
  $('resign').addEventListener('click', () => ask(true));
  $('resign-no').addEventListener('click', () => ask(false));
  $('resign-yes').addEventListener('click', resign);
  show();
  new MutationObserver(show).observe(document.body, { attributes: true, attributeFilter: ['data-seat', 'data-over'] });
}
