// On a phone the log is a tab and the page scrolls, not the list: opening the tab shows the newest
// lines, and the page stays there while the log (or anything above it) grows or is drawn again,
// until the reader scrolls (wheel, touch or a scrolling key). On a desktop the list scrolls itself
// (table.js keeps it at its end).
const SCROLL_KEYS = new Set(["ArrowUp", "ArrowDown", "PageUp", "PageDown", "Home", "End", " "]);

function toBottom() {
  window.scrollTo(0, document.documentElement.scrollHeight);
}

export class LogPin {
  constructor(ts) {
    this.ts = ts;
    this.pinned = false;
    this.release = (e) => {
      if (e.type !== "keydown" || SCROLL_KEYS.has(e.key)) this.pinned = false;
    };
    this.resize = typeof ResizeObserver === "function" ? new ResizeObserver(() => this.pinned && this.isLog() && toBottom()) : null;
  }

  isLog() {
    return this.ts.phone && this.ts.panel === "log";
  }

  start(root) {
    for (const type of ["wheel", "touchmove", "keydown"]) window.addEventListener(type, this.release, { passive: true });
    if (this.resize) this.resize.observe(root);
  }

  stop() {
    for (const type of ["wheel", "touchmove", "keydown"]) window.removeEventListener(type, this.release);
    if (this.resize) this.resize.disconnect();
  }

  // the log tab was opened (or shown again): to its newest lines
  opened() {
    this.pinned = this.isLog();
    if (this.pinned) toBottom();
  }

  // the table was drawn again: still at the newest lines if the reader left them there
  afterRender() {
    if (this.pinned && this.isLog()) toBottom();
  }
}
