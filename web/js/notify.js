// Notifications in the lobby (issue 16): once logged in, where this account is told that
// it is its turn, and whether it is reminded before its time per move runs out
// (`GET` and `PUT /api/me/notifications`). Every channel is off until its target is given.
// "Enable browser notifications" subscribes this browser through the service worker
// (`/sw.js`) with the server's VAPID key (`GET /api/push/key`) and saves the subscription.

const root = document.getElementById('play-by-web');
const $ = (id) => document.getElementById(id);

/** The saved `web_push` subscription: kept as it is when the form is saved. */
let subscription = null;

function csrf() {
  const m = /(?:^|;\s*)csrf=([^;]+)/.exec(document.cookie);
  return m ? m[1] : '';
}

const pushable = () => 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;

function form(s) {
  const v = (x) => (x == null ? '' : String(x).replace(/"/g, '&quot;'));
  return `<h2>Notifications</h2>
    <form id="notify-form" class="notify-form" novalidate>
      <label>Email <input id="nf-email" type="email" placeholder="you@example.org" value="${v(s.email)}"></label>
      <label>Webhook (Discord, Slack) <input id="nf-webhook" type="url" placeholder="https://discord.com/api/webhooks/…" value="${v(s.webhook)}"></label>
      <label><input id="nf-push" type="checkbox"${s.web_push ? ' checked' : ''}${pushable() ? '' : ' disabled'}> Enable browser notifications</label>
      <label><input id="nf-turn" type="checkbox"${s.on_turn ? ' checked' : ''}> when it is my turn</label>
      <label><input id="nf-reminder" type="checkbox"${s.on_reminder ? ' checked' : ''}> a reminder before my time per move runs out</label>
      <button type="submit" id="nf-save">Save</button> <span class="notify-status" id="nf-status" role="status"></span>
    </form>`;
}

async function put() {
  const body = {
    email: $('nf-email').value.trim() || null,
    webhook: $('nf-webhook').value.trim() || null,
    web_push: subscription,
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

/** The server's VAPID public key as the bytes `applicationServerKey` takes. */
function keyBytes(b64url) {
  const b64 = b64url.replace(/-/g, '+').replace(/_/g, '/');
  const raw = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}

async function togglePush() {
  const box = $('nf-push');
  try {
    const reg = await navigator.serviceWorker.register('/sw.js');
    if (box.checked) {
      if ((await Notification.requestPermission()) !== 'granted') throw new Error('the browser did not allow notifications');
      const { public_key: key } = await (await fetch('/api/push/key')).json();
      const sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) });
      subscription = sub.toJSON();
    } else {
      const sub = await reg.pushManager.getSubscription();
      if (sub) await sub.unsubscribe();
      subscription = null;
    }
    await put();
  } catch (e) {
    box.checked = !!subscription;
    $('nf-status').textContent = `Browser notifications: ${e.message}`;
  }
}

async function mount() {
  if (!root || !$('acct-who') || $('notify')) return;
  const section = document.createElement('section');
  section.id = 'notify';
  root.querySelector('.acct-who').after(section);
  const res = await fetch('/api/me/notifications');
  if (!res.ok) {
    section.remove();
    return;
  }
  const s = await res.json();
  subscription = s.web_push;
  section.innerHTML = form(s);
  section.querySelector('form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    put();
  });
  $('nf-push').addEventListener('change', togglePush);
}

if (root) new MutationObserver(mount).observe(root, { childList: true });
