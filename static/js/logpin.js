// On a phone the log is a tab and the page scrolls, not the list: opening the tab shows the newest
// lines, and the page stays there while the log (or anything above it) grows, until the reader
// scrolls up. On a desktop the list scrolls itself (table.js keeps it at its end).
const SLACK = 40; // px from the bottom that still count as "at the newest"

function atBottom() {
  const doc = document.documentElement;
  return window.scrollY + window.innerHeight >= doc.scrollHeight - SLACK;
}

function toBottom() {
  window.scrollTo(0, document.documentElement.scrollHeight);
}

export class LogPin {
  constructor(ts) {
    this.ts = ts;
    this.pinned = false;
    this.onScroll = () => {
      if (this.pinned && !atBottom()) this.pinned = false;
    };
    this.resize = typeof ResizeObserver === "function" ? new ResizeObserver(() => this.pinned && this.isLog() && toBottom()) : null;
  }

  isLog() {
    return this.ts.phone && this.ts.panel === "log";
  }

  start(root) {
    window.addEventListener("scroll", this.onScroll, { passive: true });
    if (this.resize) this.resize.observe(root);
  }

  stop() {
    window.removeEventListener("scroll", this.onScroll);
    if (this.resize) this.resize.disconnect();
  }

  // the log tab was opened (or shown again): to its newest lines
  opened() {
    this.pinned = this.isLog();
    if (this.pinned) toBottom();
  }
}
