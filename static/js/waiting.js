// How many tables wait for me, on every page: "(2) Crown of Emara" in the title, the "your turn"
// favicon, and the count next to the header's "My games" link. It also feeds the My games page.
// A page may add its own unread things to the title's count (setPageUnread: the table page's
// chat messages that arrived out of sight), so the title carries one number.
//
// One EventSource per page on GET /api/me/events (same origin, so the CSP's connect-src 'self'
// covers it): each (re)connect reads GET /api/me/tables again, and so does each `tables` event
// (something changed at one of my tables) while the page shows the list (onMyTables); a page
// that shows only the count takes it from the event's `waiting`. The browser reconnects a
// dropped stream by itself; a refused one (closed for good) is opened again here, with a growing
// pause. Nothing runs without a profile.
import { get, ApiError } from "./api.js";
import { h } from "./dom.js";
import { profile } from "./profile.js";
import { noteServerDate } from "./pace.js";

const PREFIX = /^\(\d+\) /;
let count = 0;
let pageUnread = 0; // added to the title's count by the page (setPageUnread)
let latest = null; // the last GET /api/me/tables answer
let source = null;
let reopen = null;
let pause = 2000;
let reading = null;
let again = false;
const listeners = new Set();
let following = null; // the profile id the feed is for
let timed = false; // the server's clock was read once (pace.js)

export function waitingCount() {
  return count;
}

// `fn(answer)` on every new answer (now, when one is known). Returns the way to stop listening.
export function onMyTables(fn) {
  listeners.add(fn);
  if (latest) fn(latest);
  return () => listeners.delete(fn);
}

// The count for the header: a span kept up to date.
export function waitingBadge() {
  return h("span.waiting-count", { "data-testid": "waiting-count", "data-count": count, hidden: count === 0 }, String(count));
}

// Reads GET /api/me/tables now (one read at a time; a call during a read reads once more after).
export async function refresh() {
  if (!profile()) return;
  if (reading) {
    again = true;
    return reading;
  }
  reading = (async () => {
    do {
      again = false;
      try {
        const answer = timed ? await get("/api/me/tables") : await firstRead();
        latest = answer;
        setCount(answer.waiting || 0);
        for (const fn of listeners) fn(answer);
      } catch (e) {
        if (e instanceof ApiError && e.status === 401) stopFeed();
      }
    } while (again && profile());
  })();
  try {
    await reading;
  } finally {
    reading = null;
  }
}

// The first read of a page also sets the clocks' offset to the server (a fresh answer: its Date).
async function firstRead() {
  const sentAt = Date.now();
  const res = await fetch("/api/me/tables", { cache: "no-store", credentials: "same-origin", headers: { Accept: "application/json" } });
  if (res.status === 401) throw new ApiError(401, "unauthorized", "");
  if (!res.ok) throw new ApiError(res.status, "http_" + res.status, res.statusText);
  noteServerDate(res.headers.get("Date"), sentAt, Date.now());
  timed = true;
  return res.json();
}

function setCount(n) {
  count = n;
  for (const el of document.querySelectorAll("[data-testid=waiting-count]")) {
    el.textContent = String(n);
    el.dataset.count = String(n);
    el.hidden = n === 0;
  }
  applyTitle();
  applyIcon();
}

// ---------- title and favicon: the pages set their own, the count is laid over them ----------

// The page's own unread count (0 when it has none, or when it goes).
export function setPageUnread(n) {
  pageUnread = n > 0 ? n : 0;
  applyTitle();
}

function applyTitle() {
  const base = document.title.replace(PREFIX, "");
  const n = count + pageUnread;
  const want = n > 0 ? `(${n}) ${base}` : base;
  if (document.title !== want) document.title = want;
}

let ownIcon = "/favicon.svg"; // the favicon the page itself asked for
let laidIcon = null;
function applyIcon() {
  const link = document.getElementById("favicon");
  if (!link) return;
  const href = link.getAttribute("href");
  if (href !== laidIcon) ownIcon = href;
  const want = count > 0 ? "/favicon-turn.svg" : ownIcon;
  if (href !== want) {
    laidIcon = want;
    link.setAttribute("href", want);
  }
}

function watchHead() {
  const title = document.querySelector("title") || document.head.appendChild(h("title"));
  new MutationObserver(applyTitle).observe(title, { childList: true, characterData: true, subtree: true });
  const link = document.getElementById("favicon");
  if (link) new MutationObserver(applyIcon).observe(link, { attributes: true, attributeFilter: ["href"] });
}

// ---------- the event stream ----------

function openFeed() {
  if (source || !profile() || typeof EventSource === "undefined") return;
  clearTimeout(reopen);
  const es = new EventSource("/api/me/events");
  source = es;
  es.addEventListener("open", () => (pause = 2000));
  es.addEventListener("hello", refresh);
  es.addEventListener("tables", changed);
  es.addEventListener("error", () => {
    if (es.readyState !== EventSource.CLOSED || source !== es) return;
    source = null;
    reopen = setTimeout(openFeed, pause);
    pause = Math.min(pause * 2, 60000);
  });
}

// Something changed at one of my tables: the count comes with the event (read the list when the
// page shows it, when a read is under way and could answer an older count, or when the count
// did not come).
function changed(e) {
  let waiting = null;
  try {
    waiting = JSON.parse(e.data).waiting;
  } catch {
    waiting = null;
  }
  if (!Number.isInteger(waiting) || waiting < 0 || listeners.size > 0 || reading) {
    refresh();
    return;
  }
  latest = null; // the list was not read: whoever shows it next reads it
  setCount(waiting);
}

function stopFeed() {
  clearTimeout(reopen);
  if (source) source.close();
  source = null;
}

// Follows the signed-in profile: a feed while there is one, nothing (and no count) without.
function follow() {
  stopFeed();
  latest = null;
  setCount(0);
  if (profile()) {
    openFeed();
    refresh();
  }
}

export function startWaiting() {
  watchHead();
  document.addEventListener("emara:profile", () => {
    const id = profile() ? profile().id : null;
    if (id !== following) {
      following = id;
      follow();
    }
  });
  document.addEventListener("visibilitychange", () => document.visibilityState === "visible" && refresh());
  following = profile() ? profile().id : null;
  follow();
}
