// The table chat: the messages (always as text), an input that stays in view on a phone, send
// with a sent / failed state per message (a failed one can be sent again with the same msg_id:
// the server never stores it twice), and per seat a mute toggle (stored on the server for the
// profile; muted seats' messages are hidden here, client-side) next to its presence dot.
// Reporting and blocking (chatsafety.js): a "⚑" on others' messages, a "⋯" beside each other
// person; the messages of a person one blocked the server leaves out.
//
// Unread: a message of someone else (not muted) that arrives while the chat is out of sight (the
// page hidden, the chat scrolled away or in a phone tab not open) counts in `unread`, shown in
// the chat's heading; the table page shows it on the phone's Chat tab and in the tab's title
// (onUnread). It clears as soon as the chat is in sight on a visible page.
//
// new ChatPanel({tableId, socket, mySeat(), nameOf(seat), seats(), invite(), spectatorChat(), onUnread(n)}) —
// `el` is mounted once by the table page and kept across its re-renders; feed it frames with
// onFrame(f); stop() when the page goes.
import { t, has } from "./i18n.js";
import { h, clear } from "./dom.js";
import { get, post, del } from "./api.js";
import { SEAT_SYMBOLS } from "./pieces.js";
import { presenceMap, presenceDot } from "./presence.js";
import { seatActions, reportButton } from "./chatsafety.js";

const MAX_CHARS = 500;
const PAGE = 50; // earlier messages read per click (GET /api/tables/{id}/chat?before=)

function newId() {
  return crypto.randomUUID ? crypto.randomUUID() : String(Date.now()) + Math.random().toString(16).slice(2);
}

export class ChatPanel {
  constructor({ tableId, socket, mySeat, nameOf, seats, invite, spectatorChat, onUnread }) {
    Object.assign(this, { tableId, socket, mySeat, nameOf, seats, invite, spectatorChat });
    this.onUnread = onUnread || (() => {});
    this.unread = 0; // messages of others that arrived out of sight
    this.inView = false; // some of the list is on screen (IntersectionObserver)
    this.hadHistory = false;
    this.messages = []; // {id, seat, name, text, at, msg_id, state: "sent" | "sending" | "failed", error}
    this.more = false; // older messages remain on the server
    this.loadingEarlier = false;
    this.muted = new Set();
    this.presence = new Map();
    // focusable: a list that scrolls must be scrollable from the keyboard too
    this.list = h("ol.chat-list", { "data-testid": "chat-list", "aria-live": "polite", tabindex: "0", "aria-label": t("chat.title") });
    this.who = h("ul.chat-seats", { "data-testid": "chat-seats" });
    this.input = h("textarea.chat-input", { "data-testid": "chat-input", rows: "1", maxlength: String(MAX_CHARS), "aria-label": t("chat.placeholder"), placeholder: t("chat.placeholder") });
    this.input.addEventListener("keydown", (e) => {
      if (e.key === "Enter" && !e.shiftKey) { e.preventDefault(); this.submit(); }
    });
    this.input.addEventListener("focus", () => setTimeout(() => this.input.scrollIntoView({ block: "nearest" }), 300));
    const form = (this.form = h("form.chat-form", { "data-testid": "chat-form" }, this.input,
      h("button", { type: "submit", "data-testid": "chat-send" }, t("chat.send"))));
    form.addEventListener("submit", (e) => { e.preventDefault(); this.submit(); });
    this.earlier = h("button.small.chat-earlier", { type: "button", "data-testid": "chat-earlier", hidden: true, onclick: () => this.loadEarlier() }, t("chat.earlier"));
    this.earlierError = h("p.chat-state.chat-earlier-error", { "data-testid": "chat-earlier-error", role: "status", hidden: true }, t("chat.earlier_failed"));
    this.badge = h("span.chat-unread", { "data-testid": "chat-unread", hidden: true });
    this.el = h("section.chat", { "data-testid": "chat", "aria-label": t("chat.title") },
      h("h2", t("chat.title"), " ", this.badge), this.who, this.earlier, this.earlierError, this.list, form);
    this.onVisibility = () => this.checkSeen();
    document.addEventListener("visibilitychange", this.onVisibility);
    this.input.addEventListener("focus", () => this.markRead());
    if (typeof IntersectionObserver === "function") {
      this.observer = new IntersectionObserver((entries) => {
        for (const e of entries) this.inView = e.isIntersecting;
        this.checkSeen();
      });
      this.observer.observe(this.list);
    } else this.inView = true;
  }

  stop() {
    document.removeEventListener("visibilitychange", this.onVisibility);
    if (this.observer) this.observer.disconnect();
  }

  // The chat is in sight: on a visible page, some of its list on screen.
  seen() {
    return document.visibilityState === "visible" && this.inView && this.el.isConnected;
  }

  checkSeen() {
    if (this.seen()) this.markRead();
  }

  markRead() {
    if (!this.unread) return;
    this.unread = 0;
    this.showUnread();
  }

  // Messages of others that just arrived: news unless the chat is in sight (or their seat muted).
  arrived(msgs) {
    const me = this.mySeat();
    const news = msgs.filter((m) => !(typeof me === "number" && m.seat === me) && !(m.seat !== null && this.muted.has(m.seat)));
    if (!news.length) return;
    for (const m of news) m.fresh = true; // a brief highlight when drawn
    if (this.seen()) return;
    this.unread += news.length;
    this.showUnread();
  }

  showUnread() {
    this.badge.hidden = !this.unread;
    this.badge.textContent = this.unread ? t("chat.unread", { count: this.unread }) : "";
    this.onUnread(this.unread);
  }

  // One page of older messages, above the ones shown; the reader keeps their place.
  async loadEarlier() {
    const ids = this.messages.filter((m) => m.state === "sent" && typeof m.id === "number").map((m) => m.id);
    if (!ids.length || this.loadingEarlier) return;
    this.loadingEarlier = true;
    this.earlier.disabled = true;
    this.earlierError.hidden = true;
    const q = new URLSearchParams({ before: String(Math.min(...ids)), limit: String(PAGE) });
    if (this.invite()) q.set("invite", this.invite());
    try {
      const r = await get(`/api/tables/${encodeURIComponent(this.tableId)}/chat?${q}`);
      const known = new Set(this.messages.map((m) => m.id));
      const older = (r.messages || []).filter((m) => !known.has(m.id)).map((m) => ({ ...m, state: "sent" }));
      this.messages = older.concat(this.messages);
      this.more = !!r.more;
    } catch {
      this.earlierError.hidden = false;
    }
    this.loadingEarlier = false;
    this.earlier.disabled = false;
    const fromBottom = this.list.scrollHeight - this.list.scrollTop;
    this.render();
    this.list.scrollTop = this.list.scrollHeight - fromBottom;
  }

  onFrame(f) {
    if (f.type === "chat_history") {
      const pending = this.messages.filter((m) => m.state !== "sent");
      const known = Math.max(0, ...this.messages.map((m) => (typeof m.id === "number" ? m.id : 0)));
      this.messages = (f.messages || []).map((m) => ({ ...m, state: "sent" }));
      // after a reconnect: what was written meanwhile is news; the first history is not
      if (this.hadHistory) this.arrived(this.messages.filter((m) => m.id > known));
      this.hadHistory = true;
      for (const p of pending) if (!this.messages.some((m) => this.mine(m, p.msg_id))) this.messages.push(p);
      this.muted = new Set(f.muted || []);
      this.more = !!f.more;
    } else if (f.type === "chat") {
      const i = this.messages.findIndex((m) => this.mine(m, f.msg_id) || m.id === f.id);
      const msg = { ...f, state: "sent" };
      if (i >= 0) this.messages[i] = msg;
      else {
        this.messages.push(msg);
        this.arrived([msg]);
      }
    } else if (f.type === "presence") {
      presenceMap(f.seats, this.presence);
    } else if (f.type === "lobby" && f.table) {
      presenceMap(f.table.seats, this.presence);
    } else return;
    this.render();
  }

  mine(m, msgId) {
    return m.msg_id === msgId && (m.state !== "sent" || m.seat === this.mySeat());
  }

  async submit() {
    const text = this.input.value.trim();
    if (!text) return;
    const msg = { id: null, seat: this.mySeat(), name: t("chat.you"), text, at: null, msg_id: newId(), state: "sending" };
    this.messages.push(msg);
    this.input.value = "";
    this.render();
    await this.deliver(msg);
  }

  async deliver(msg) {
    msg.state = "sending";
    msg.error = null;
    this.render();
    try {
      const ok = await this.socket.request({ type: "chat", text: msg.text, msg_id: msg.msg_id });
      if (msg.state === "sending") { msg.state = "sent"; msg.id = ok.id; }
    } catch (e) {
      msg.state = "failed";
      const code = e && e.code;
      const key = "chat.error." + code;
      msg.error = code && has(key) ? t(key, { seconds: (e.frame && e.frame.retry_after) || 1 }) : t("chat.failed");
    }
    this.render();
  }

  // The newest page again (after a block: the server leaves the blocked person's messages out);
  // messages still being sent stay.
  async reload() {
    const q = new URLSearchParams({ limit: String(PAGE) });
    if (this.invite()) q.set("invite", this.invite());
    try {
      const r = await get(`/api/tables/${encodeURIComponent(this.tableId)}/chat?${q}`);
      const pending = this.messages.filter((m) => m.state !== "sent");
      this.messages = (r.messages || []).map((m) => ({ ...m, state: "sent" })).concat(pending);
      this.muted = new Set(r.muted || []);
      this.more = !!r.more;
    } catch {}
    this.render();
  }

  async toggleMute(seat) {
    const path = `/api/tables/${encodeURIComponent(this.tableId)}/mutes/${seat}` + (this.invite() ? `?invite=${encodeURIComponent(this.invite())}` : "");
    try {
      const r = this.muted.has(seat) ? await del(path) : await post(path);
      this.muted = new Set(r.muted || []);
    } catch {}
    this.render();
  }

  render() {
    const me = this.mySeat();
    // a spectator writes only where the host allows it (the server checks it too)
    this.form.hidden = typeof me !== "number" && !this.spectatorChat();
    clear(this.who);
    for (const s of this.seats()) {
      if (!s || !s.taken || s.bot_level && !s.name) continue;
      const muted = this.muted.has(s.seat);
      this.who.append(h("li", { "data-testid": "chat-seat", "data-seat": s.seat },
        h("span.seat-token", { class: "seat" + s.seat, "aria-hidden": "true" }, SEAT_SYMBOLS[s.seat] || ""),
        h("span.chat-name", this.nameOf(s.seat)),
        presenceDot(this.presence.get(s.seat), s.seat),
        s.seat === me ? null : h("button.small.chat-mute", {
          type: "button", "data-testid": "chat-mute", "data-seat": s.seat, "aria-pressed": muted ? "true" : "false",
          onclick: () => this.toggleMute(s.seat),
        }, muted ? t("chat.unmute") : t("chat.mute")),
        s.seat === me || !s.name ? null : seatActions(this, s.seat, this.nameOf(s.seat))));
    }
    this.earlier.hidden = !this.more;
    const atBottom = this.list.scrollTop + this.list.clientHeight >= this.list.scrollHeight - 20;
    clear(this.list);
    for (const m of this.messages) {
      if (m.seat !== null && m.seat !== me && this.muted.has(m.seat)) continue;
      const who = m.seat === null
        ? h("span.chat-who", `${m.name} (${t("chat.spectator")})`)
        : h("span.chat-who", h("span.seat-token", { class: "seat" + m.seat, "aria-hidden": "true" }, SEAT_SYMBOLS[m.seat] || ""), " ", m.name);
      this.list.append(h("li.chat-msg", { class: m.state + (m.fresh ? " fresh" : ""), "data-testid": "chat-msg", "data-seat": m.seat === null ? "" : m.seat, "data-state": m.state },
        who,
        h("span.chat-text", m.text),
        reportButton(this, m),
        m.state === "sending" ? h("span.chat-state", t("chat.sending")) : null,
        m.state === "failed" ? h("span.chat-state", m.error || t("chat.failed"), " ",
          h("button.small", { type: "button", "data-testid": "chat-retry", onclick: () => this.deliver(m) }, t("chat.retry"))) : null));
    }
    for (const m of this.messages) m.fresh = false; // highlighted once
    if (atBottom) this.list.scrollTop = this.list.scrollHeight;
  }
}
