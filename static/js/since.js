// "Since you looked": what changed at the table while this person was away, and the mark of what
// they have seen. The server keeps the mark per seat (a `seen` frame on the socket, or POST …/seen)
// and answers what changed after it (GET …/since: the changed board elements by key, a summary
// per other player, the new log versions): the page never guesses. Opening a table (or coming back to a hidden page that got
// updates) asks the server once, shows the summary in words and outlines every changed element
// (`[data-key]`, a changed player's board, the new log lines) until dismissed or until the
// person moves; the mark is posted once the current version was rendered on a visible page.
// During visible live play the newest log lines and the score track get a brief highlight.
// The chat has no versions: the server also counts the messages others wrote after the person last
// looked (`chat_count`, the newest in `chat`); the summary names how many and shows the last few.
import { t } from "./i18n.js";
import { h } from "./dom.js";
import { get, post } from "./api.js";
import { costText } from "./pieces.js";

const enc = encodeURIComponent;

// Catalogue names for the fields of a summary item.
const NAMES = {
  card: (x) => t("card." + x),
  location: (x) => t("loc." + x),
  to: (x) => t("loc." + x),
  from: (x) => t("loc." + x),
  advisor: (x) => t("adv." + x),
  title: (x) => t("title." + x),
  event: (x) => t("event." + x),
  councilor: (x) => t("councilor." + x),
  resource: (x) => t("res." + x),
};

function effectsText(item) {
  const parts = [];
  for (const [k, n] of Object.entries(item.paid || {})) if (n) parts.push("−" + costText({ [k]: n }));
  for (const [k, n] of Object.entries(item.gained || {})) if (n) parts.push("+" + costText({ [k]: n }));
  return parts.join(", ");
}

// One summary item in words (null for an item that adds nothing: a card's action without effects).
export function itemText(item) {
  const effects = effectsText(item);
  let text;
  if (item.kind === "visit_action") text = t("since.action." + item.action);
  else if (item.kind === "card_action" && !effects) return null;
  else {
    const params = {};
    for (const [k, v] of Object.entries(item)) params[k] = NAMES[k] && typeof v === "string" ? NAMES[k](v) : v;
    text = t("since.item." + item.kind, params);
  }
  return effects ? `${text} (${effects})` : text;
}

function signed(n) {
  return (n > 0 ? "+" : n < 0 ? "−" : "") + Math.abs(n);
}

// One player's summary in words: "Bo played Move 2, visited Market, hired Merchant: +2 CP".
export function summaryText(summary, nameOf) {
  const who = summary.victoria ? t("table.victoria") : nameOf(summary.seat);
  const items = (summary.items || []).map(itemText).filter(Boolean).join(", ");
  const points = [];
  if (summary.cp) points.push(`${signed(summary.cp)} ${t("table.cp")}`);
  if (summary.bp) points.push(`${signed(summary.bp)} ${t("table.bp")}`);
  const pts = points.join(", ");
  if (items && pts) return t("since.player_points", { who, items, points: pts });
  if (items) return t("since.player", { who, items });
  if (pts) return t("since.player_only_points", { who, points: pts });
  return t("since.player_quiet", { who });
}

// The chat's part of the summary: how many messages came, and the newest few (as text).
const CHAT_SHOWN = 3;
function chatLines(r) {
  if (!(r.chat_count > 0)) return null;
  const msgs = (r.chat || []).slice(-CHAT_SHOWN).map((m) =>
    h("li", { "data-testid": "since-chat-msg" }, h("strong", m.name), " ", m.text));
  return h("div.since-chat", { "data-testid": "since-chat" },
    h("p", t("since.chat", { count: r.chat_count })), msgs.length ? h("ul.since-list", msgs) : null);
}

export class SinceMarks {
  constructor(ts) {
    this.ts = ts;
    this.result = null; // the last /since answer worth showing
    this.asked = false; // /since asked since the table was opened
    this.loading = false;
    this.posted = -1; // the highest mark the server confirmed
    this.posting = false;
    this.postOnly = false; // the server's socket does not take `seen` frames: mark by request
    this.rendered = -1; // the version of the last render
    this.onVisibility = () => this.visibility();
  }

  start() {
    document.addEventListener("visibilitychange", this.onVisibility);
  }

  stop() {
    document.removeEventListener("visibilitychange", this.onVisibility);
  }

  get seated() {
    return this.ts.mySeat !== null && this.ts.mySeat !== undefined;
  }

  // After every render of the table (which rebuilds the page): ask once, mark, paint, flash.
  afterRender() {
    const ts = this.ts;
    const fresh = ts.version > this.rendered;
    const wasRendered = this.rendered >= 0;
    this.rendered = Math.max(this.rendered, ts.version);
    if (!this.seated) return;
    if (!this.asked) {
      this.asked = true;
      this.load();
      return;
    }
    if (this.result && this.movedSince(this.result.to_version)) this.result = null;
    this.paint();
    if (fresh && wasRendered && document.visibilityState === "visible") this.flash();
    this.markSeen();
  }

  // The person made a move after `version`: what they missed is behind them.
  movedSince(version) {
    return this.ts.log.some((e) => e && typeof e.version === "number" && e.version > version && e.seat === this.ts.mySeat && e.move);
  }

  async load() {
    this.loading = true;
    try {
      const r = await get(`/api/tables/${enc(this.ts.id)}/since`);
      // worth showing when someone else acted or wrote (one's own moves on another device are known)
      const worth = r && ((r.summary || []).length || r.chat_count > 0);
      this.result = worth ? r : null;
      if (r && typeof r.last_seen_version === "number") this.posted = Math.max(this.posted, r.last_seen_version);
    } catch (e) {
      // The summary is a courtesy: the table plays on without it.
      console.warn("since you looked:", e && e.message ? e.message : e);
    } finally {
      this.loading = false;
    }
    if (this.ts.stopped) return;
    this.paint();
    this.markSeen();
  }

  // Tell the server this person has seen the current version (page visible, version rendered):
  // a `seen` frame on the table's socket while it is open (no request of its own after every
  // move), else POST …/seen. A mark that failed is tried again at the next render or return.
  markSeen() {
    const ts = this.ts;
    if (!this.seated || this.loading || this.posting || ts.stopped) return;
    if (document.visibilityState !== "visible" || this.rendered < 0) return;
    const v = this.rendered;
    if (v <= this.posted) return;
    this.posting = true;
    const socket = ts.socket;
    const bySocket = !this.postOnly && socket && socket.live;
    const marked = bySocket
      ? socket.request({ type: "seen", version: v })
      : post(`/api/tables/${enc(ts.id)}/seen`, { version: v });
    marked
      .then((r) => {
        this.posted = Math.max(this.posted, r.last_seen_version ?? v);
        this.posting = false;
        if (this.rendered > this.posted) this.markSeen(); // rendered again meanwhile
      })
      .catch((e) => {
        this.posting = false;
        if (bySocket && e && e.code === "unknown_frame") {
          this.postOnly = true; // a server that does not take the frame: by request from now on
          this.markSeen();
          return;
        }
        console.warn("seen:", e && e.message ? e.message : e);
      });
  }

  // Back to a page that got updates while hidden: ask the server what changed (its mark is
  // still where this page last saw the table), then mark.
  visibility() {
    if (document.visibilityState !== "visible" || !this.seated || this.ts.stopped) return;
    if (this.rendered > this.posted && !this.loading) this.load();
    else this.markSeen();
  }

  dismiss() {
    this.result = null;
    this.ts.render();
  }

  paint() {
    const root = this.ts.root;
    root.querySelectorAll("[data-testid=since-summary]").forEach((el) => el.remove());
    const r = this.result;
    if (!r) return;
    const seats = new Set();
    for (const c of r.changes || []) {
      for (const el of root.querySelectorAll(`[data-key="${CSS.escape(c.key)}"]`)) el.classList.add("changed");
      if (typeof c.seat === "number") seats.add(c.seat);
    }
    for (const s of seats) {
      const board = root.querySelector(`[data-testid=player-board][data-seat="${s}"]`);
      if (board) board.classList.add("changed");
    }
    for (const v of r.new_log_versions || []) {
      for (const li of root.querySelectorAll(`#log-list li[data-version="${v}"]`)) li.classList.add("since-new");
    }
    const lines = (r.summary || []).map((x) =>
      h("li", { "data-testid": "since-player", "data-seat": x.seat ?? "victoria" }, summaryText(x, (seat) => this.ts.nameOf(seat))));
    const panel = h("section.panel.since-panel", { "data-testid": "since-summary", role: "status", "aria-live": "polite" },
      h("h2", t("since.title")),
      lines.length ? h("ul.since-list", lines) : null,
      chatLines(r),
      r.truncated ? h("p.muted", t("since.truncated", { count: (r.new_log_versions || []).length })) : null,
      (r.changes || []).length ? h("p.muted.since-hint", t("since.board_changed")) : null,
      h("button.small", { type: "button", "data-testid": "since-dismiss", onclick: () => this.dismiss() }, t("since.dismiss")));
    const board = root.querySelector("section.board");
    if (board) board.prepend(panel);
    else root.prepend(panel);
  }

  // Live play on a visible page: the newest log lines and the score track light up briefly.
  flash() {
    const root = this.ts.root;
    for (const el of root.querySelectorAll("#log-list li.new, [data-testid=score-track]")) el.classList.add("since-live");
  }
}
