// Your-turn signals: when the seat this page plays becomes the one to act, the page title
// and the favicon say so at once; a short sound and a browser notification (when the tab
// is hidden) follow if the player switched them on. Both choices are kept in localStorage.

const KEY = 'grognard.signals';
const ICON_IDLE = 'data:image/svg+xml,' + encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><path d="M8 1l6 3.5v7L8 15l-6-3.5v-7z" fill="#6b7b89"/></svg>');
const ICON_TURN = 'data:image/svg+xml,' + encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><path d="M8 1l6 3.5v7L8 15l-6-3.5v-7z" fill="#d0a24a"/><circle cx="8" cy="8" r="3" fill="#c8201c"/></svg>');

let wasMyTurn = null;

/** The player's choices: `{sound, notify}`. */
export function choices() {
  try {
    return { sound: false, notify: false, ...JSON.parse(localStorage.getItem(KEY) || '{}') };
  } catch {
    return { sound: false, notify: false };
  }
}

export function choose(next) {
  localStorage.setItem(KEY, JSON.stringify({ ...choices(), ...next }));
}

function icon(href) {
  let link = document.querySelector('link[rel="icon"]');
  if (!link) {
    link = document.createElement('link');
    link.rel = 'icon';
    document.head.appendChild(link);
  }
  if (link.getAttribute('href') !== href) link.setAttribute('href', href);
}

function beep() {
  try {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    const audio = new Ctx();
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = 660;
    gain.gain.setValueAtTime(0.12, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.35);
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.35);
    osc.onended = () => audio.close();
  } catch {
    // no sound on this browser
  }
}

/**
 * Shows whether it is this page's turn: `myTurn` for the seat it plays, `title` the game's.
 * The sound and the notification come only on the change to this page's turn.
 */
export function signalTurn(myTurn, title, { hotseat = false } = {}) {
  document.title = myTurn ? `▶ Your turn · ${title} · grognard` : `${title} · grognard`;
  document.body.dataset.yourTurn = myTurn ? 'yes' : '';
  icon(myTurn ? ICON_TURN : ICON_IDLE);
  const changed = wasMyTurn === false && myTurn;
  wasMyTurn = myTurn;
  if (!changed || hotseat) return;
  const c = choices();
  if (c.sound) beep();
  if (c.notify && document.hidden && 'Notification' in window && Notification.permission === 'granted') {
    const n = new Notification('grognard: your turn', { body: title, tag: 'grognard-turn' });
    n.onclick = () => {
      window.focus();
      n.close();
    };
  }
}

/** Switches the notification on, asking the browser's permission first. */
export async function enableNotifications() {
  if (!('Notification' in window)) return false;
  const p = Notification.permission === 'default' ? await Notification.requestPermission() : Notification.permission;
  choose({ notify: p === 'granted' });
  return p === 'granted';
}
