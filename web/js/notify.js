// Notifications in the lobby (issue 16): once logged in, where this account is told that
// it is its turn, and whether it is reminded before its time per move runs out
// (`GET` and `PUT /api/me/notifications`). Every channel is off until its target is given.

const root = document.getElementById('play-by-web');

function csrf() {
  const m = /(?:^|;\s*)csrf=([^;]+)/.exec(document.cookie);
  return m ? m[1] : '';
}

function form(s) {
  const v = (x) => (x == null ? '' : String(x).replace(/"/g, '&quot;'));
  return `<h2>Notifications</h2>
    <form id="notify-form" class="notify-form" novalidate>
      <label>Email <input id="nf-email" type="email" placeholder="you@example.org" value="${v(s.email)}"></label>
      <label>Webhook (Discord, Slack) <input id="nf-webhook" type="url" placeholder="https://discord.com/api/webhooks/…" value="${v(s.webhook)}"></label>
      <label><input id="nf-turn" type="checkbox"${s.on_turn ? ' checked' : ''}> when it is my turn</label>
      <label><input id="nf-reminder" type="checkbox"${s.on_reminder ? ' checked' : ''}> a reminder before my time per move runs out</label>
      <button type="submit" id="nf-save">Save</button> <span class="notify-status" id="nf-status" role="status"></span>
    </form>`;
}

async function save(ev) {
  ev.preventDefault();
  const $ = (id) => document.getElementById(id);
  const body = {
    email: $('nf-email').value.trim() || null,
    webhook: $('nf-webhook').value.trim() || null,
    web_push: null,
    on_turn: $('nf-turn').checked,
    on_reminder: $('nf-reminder').checked,
  };
  const res = await fetch('/api/me/notifications', {
    method: 'PUT',
    headers: { 'content-type': 'application/json', 'x-csrf-token': csrf() },
    body: JSON.stringify(body),
  });
  const data = await res.json().catch(() => null);
  $('nf-status').textContent = res.ok ? 'Saved.' : (data && data.error && data.error.message) || `HTTP ${res.status}`;
}

async function mount() {
  if (!root || !document.getElementById('acct-who') || document.getElementById('notify')) return;
  const section = document.createElement('section');
  section.id = 'notify';
  root.querySelector('.acct-who').after(section);
  const res = await fetch('/api/me/notifications');
  if (!res.ok) {
    section.remove();
    return;
  }
  section.innerHTML = form(await res.json());
  section.querySelector('form').addEventListener('submit', save);
}

if (root) new MutationObserver(mount).observe(root, { childList: true });
