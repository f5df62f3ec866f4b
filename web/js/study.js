// "Study this position" on the game page (issue 19, item 4): a download of the scenario
// file that starts where the game stands (GET /api/games/{id}/position). The link shows
// when the game object says this seat may have it (`position`): a finished game, or a
// running one of which nothing is hidden from either seat, for its players. The server
// stays the judge; the file comes with the seat's token, so it is fetched, not linked.

import { esc } from './api.js';

let ctx = null;

const $ = (id) => document.getElementById(id);

/** The file name the server gives in Content-Disposition, or a plain one. */
function fileName(res, gameId) {
  const m = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') || '');
  return m ? m[1] : `${gameId}-position.toml`;
}

/** Fetches the position and hands it to the browser as a download. */
async function download(ev) {
  ev.preventDefault();
  if (!ctx) return;
  const headers = {};
  const token = ctx.token();
  if (token) headers.authorization = `Bearer ${token}`;
  try {
    const res = await fetch(`/api/games/${ctx.gameId}/position`, { headers });
    const text = await res.text();
    if (!res.ok) {
      let message = text;
      try {
        message = JSON.parse(text).error.message;
      } catch {
        // not JSON: the text as it came
      }
      ctx.notice(`The position is not available: ${esc(message)}`, 'refused');
      return;
    }
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = fileName(res, ctx.gameId);
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  } catch (e) {
    ctx.notice(`The position could not be fetched: ${esc(String(e))}`, 'refused');
  }
}

/** Binds the link: `{gameId, game: () => g, token: () => string|null, notice}`. */
export function initStudy(context) {
  ctx = context;
  const link = $('study');
  if (link) link.addEventListener('click', download);
  renderStudy();
}

/** Shows the link when the game object the page shows allows it. */
export function renderStudy() {
  const link = $('study');
  if (!link || !ctx) return;
  const g = ctx.game();
  link.hidden = !(g && g.position);
  if (link.previousElementSibling && link.previousElementSibling.classList.contains('study-sep')) {
    link.previousElementSibling.hidden = link.hidden;
  }
}
