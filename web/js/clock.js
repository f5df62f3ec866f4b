// The clock of a game with a time per move (issue 16): the time left to the side to act,
// counted from the last action (`GET /api/games/{id}/settings`), shown on the game page
// and read again whenever the game moves on. The server enforces it: when it runs out the
// side loses on time, or the computer takes the seat if the challenge said so.

const $ = (id) => document.getElementById(id);
const gameId = decodeURIComponent(location.pathname.split('/').filter(Boolean).pop() || '');
const host = $('clock');

let deadline = null;
let side = null;
let onTime = 'lose';

function words(ms) {
  const minutes = Math.max(0, Math.floor(ms / 60000));
  const h = Math.floor(minutes / 60);
  const d = Math.floor(h / 24);
  return d > 0 ? `${d} d ${h % 24} h` : `${h} h ${minutes % 60} min`;
}

function tick() {
  if (!deadline) {
    host.hidden = true;
    return;
  }
  host.hidden = false;
  host.textContent = `Clock: ${words(deadline - Date.now())} left for ${side} to move${onTime === 'computer' ? ' (then the computer plays on)' : ''}`;
}

async function read() {
  const res = await fetch(`/api/games/${gameId}/settings`);
  if (!res.ok) return;
  const s = await res.json();
  deadline = s.deadline ? Date.parse(s.deadline) : null;
  side = s.to_act_name || s.to_act;
  onTime = s.on_time;
  tick();
}

if (host && gameId) {
  read();
  setInterval(tick, 30_000);
  // The game page sets `data-n` on the body at each change: the clock restarts with it.
  new MutationObserver(read).observe(document.body, { attributes: true, attributeFilter: ['data-n'] });
}
