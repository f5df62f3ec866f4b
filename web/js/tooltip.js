// The tooltip beside the pointer (the page's #tooltip), kept on the screen: the game
// page and the replay viewer show the panels' tips with it.

const box = () => document.getElementById('tooltip');

export const tip = {
  show(html, ev, cls = '') {
    const t = box();
    t.className = `tooltip ${cls}`;
    t.innerHTML = html;
    t.hidden = false;
    if (ev) tip.move(ev);
  },
  move(ev) {
    const t = box();
    if (t.hidden || !ev) return;
    const w = t.offsetWidth;
    const h = t.offsetHeight;
    let x = ev.clientX + 18;
    let y = ev.clientY + 16;
    if (x + w > innerWidth - 6) x = ev.clientX - w - 14;
    if (y + h > innerHeight - 6) y = innerHeight - h - 6;
    t.style.left = `${x}px`;
    t.style.top = `${y}px`;
  },
  hide() {
    box().hidden = true;
  },
};
