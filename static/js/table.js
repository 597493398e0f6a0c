// The live table screen: holds the table's state (state.js) and its socket (socket.js), sends the
// chosen move as a `move` frame and waits for `accepted` (or shows the `error` in words), and
// draws itself through tabledraw.js (the board, players, controls and log renderers composed).
import { t } from "./i18n.js";
import { h, clear } from "./dom.js";
import { get, post, ApiError } from "./api.js";
import { showError } from "./notices.js";
import { BOT_GLYPH, SEAT_SYMBOLS, botTag } from "./pieces.js";
import { involves } from "./moves.js";
import { inviteFor, inviteUrl } from "./invites.js";
import { TableSocket, tableSocketUrl } from "./socket.js";
import { TableState } from "./state.js";
import { renderControls } from "./controls.js";
import { LOG_TAIL } from "./log.js";
import { PHONE_QUERY, isPhone, refreshBadge } from "./panels.js";
// since you looked + the Undo button: mounted here, drawn after each render (since.js, undo.js)
import { SinceMarks } from "./since.js";
import { UndoControl, undoRefusal } from "./undo.js";
import { ChatPanel } from "./chat.js"; // table chat and presence
import { RematchOffer } from "./rematch.js";
import { Tooltips } from "./tooltips.js";
import { setPageUnread } from "./waiting.js";
import { LogPin } from "./logpin.js";
import { Guide } from "./guide.js"; // the guided first game's hints
import { draw, markValue, setTitle } from "./tabledraw.js";

const enc = encodeURIComponent;

function uuid() {
  if (crypto.randomUUID) return crypto.randomUUID();
  return "m-" + Date.now().toString(36) + "-" + Math.random().toString(36).slice(2);
}

// A refused socket frame as the error the player reads (the catalogue's words for its code).
function asApiError(e) {
  if (e instanceof ApiError) return e;
  const status = e && e.code === "closed" ? 0 : 409;
  return new ApiError(status, undoRefusal(e) || (e && e.code) || "error", (e && e.message) || "", (e && e.frame) || {});
}

export class TableScreen {
  constructor(root, id, table, { navigate, signedOut = () => {} }) {
    this.root = root;
    this.id = id;
    this.state = new TableState(table);
    this.clock = (table && table.clock) || null; // pace.js: the server's clock, as last sent
    this.helpers = { navigate, inviteUrl };
    this.signedOut = signedOut; // the socket found no valid session: ask who this is
    this.filter = null; // "loc:castle" | "adv:baker" | "card:gold" ...
    this.picker = null; // {label, moves}
    this.sending = false;
    this.wsState = "offline";
    this.stopped = false;
    this.prevValues = null;
    this.values = new Map();
    this.wasMyTurn = false;
    this.sound = localStorage.getItem("emara.sound") === "1";
    this.notify = false;
    this.rematchOffer = new RematchOffer(this); // play again: the end screen's offer
    this.logPin = new LogPin(this); // the phone's log tab: at its newest lines
    this.seatAction = null; // the open confirm step: {seat, kind: "leave" | "hand", level}
    this.seatBusy = false;
    this.panel = "hand"; // the phone's open tab
    this.phone = isPhone();
    this.mq = typeof window.matchMedia === "function" ? window.matchMedia(PHONE_QUERY) : null;
    this.onLayout = () => {
      this.phone = isPhone();
      this.render();
    };
    this.socket = new TableSocket({
      url: tableSocketUrl(id, this.inviteCode()),
      since: () => (this.state.version >= 0 ? this.state.version : null),
      onFrame: (f) => this.onFrame(f),
      onState: (s) => this.setConn(s),
      deltas: true,
    });
    // Table chat and presence: one panel kept across re-renders, mounted beside the game.
    this.chat = new ChatPanel({
      tableId: id,
      socket: this.socket,
      mySeat: () => this.mySeat,
      nameOf: (seat) => this.nameOf(seat),
      seats: () => (this.table && this.table.seats) || [],
      invite: () => this.inviteCode(),
      spectatorChat: () => !!(this.table && this.table.options && this.table.options.spectator_chat),
      onUnread: () => {
        refreshBadge(this, "chat");
        this.setTitle();
      },
    });
    // on a tablet or desktop the chat is a column beside the game (kept across re-renders)
    this.slot = h("div.table-slot");
    this.layout = h("div.table-layout", { "data-testid": "table-layout" }, this.slot);
    this.onVisible = () => document.visibilityState === "visible" && this.resync();
    this.onOnline = () => this.socket.reconnectNow();
    this.since = new SinceMarks(this); // since you looked (since.js)
    this.undo = new UndoControl(this); // the Undo button and Ctrl+Z (undo.js)
    this.guide = new Guide(this); // a guided table: what to do next (guide.js)
    this.tips = new Tooltips(this); // every piece explains itself (tooltips.js)
  }

  // ---------- what the renderers read ----------

  get view() { return this.state.view; }
  // a solo table (against Victoria): nobody to talk to, nobody to be told of the turn
  get solo() {
    const seats = this.table && this.table.seats;
    return !!(this.view && this.view.victoria) || (Array.isArray(seats) && seats.length === 1);
  }
  get legal() { return this.state.legal; }
  get log() { return this.state.log; }
  get status() { return this.state.status; }
  get table() { return this.state.table; }
  get version() { return this.state.version; }
  get mySeat() { return this.state.mySeat; }
  nameOf(seat) { return this.state.nameOf(seat); }
  botLevelOf(seat) { return this.state.botLevelOf(seat); }
  hasPlayer(seat) { return this.state.hasPlayer(seat); }
  botPlaysMe() { return this.state.botPlaysMe(); }
  isHost() { return this.state.isHost(); }
  isMyTurn() { return this.state.isMyTurn(); }

  // Name plus, for a seat a bot plays, the bot marker and level (in words).
  nameWithBot(seat) {
    const level = this.botLevelOf(seat);
    return [h("strong", this.nameOf(seat)), level ? botTag(level, { compact: !this.hasPlayer(seat) }) : null];
  }

  who(seat) {
    const level = this.botLevelOf(seat);
    const bot = level && this.hasPlayer(seat) ? ` (${BOT_GLYPH} ${t("bot.tag", { level: t("bot.word." + level) })})` : "";
    return `${SEAT_SYMBOLS[seat] || ""} ${this.nameOf(seat)}${bot}`;
  }

  // What the legal moves touch ("loc:castle", "adv:baker" ...): asked by every board part of a
  // draw, worked out once per legal list and view.
  legalInvolving() {
    const memo = this.involvedMemo;
    if (memo && memo.legal === this.legal && memo.view === this.view) return memo.set;
    const set = new Set();
    for (const m of this.legal) for (const x of involves(m, this.view)) set.add(x);
    this.involvedMemo = { legal: this.legal, view: this.view, set };
    return set;
  }

  // ---------- life cycle ----------

  async start() {
    clear(this.root).append(h("p.muted", t("app.loading")));
    document.addEventListener("visibilitychange", this.onVisible);
    window.addEventListener("online", this.onOnline);
    this.since.start();
    this.undo.start();
    if (this.mq) this.mq.addEventListener("change", this.onLayout);
    this.logPin.start(this.root);
    this.guide.start();
    this.tips.start(this.root);
    await this.fetchGame();
    if (!this.chat.el.isConnected && !this.solo) this.root.after(this.chat.el); // no game to show: the chat below
    this.socket.start();
  }

  stop() {
    this.stopped = true;
    document.removeEventListener("visibilitychange", this.onVisible);
    window.removeEventListener("online", this.onOnline);
    this.since.stop();
    this.undo.stop();
    if (this.mq) this.mq.removeEventListener("change", this.onLayout);
    this.logPin.stop();
    this.guide.stop();
    this.tips.stop();
    this.socket.stop();
    this.chat.stop();
    setPageUnread(0);
    this.chat.el.remove(); // table chat and presence
  }

  // spectators (no seat) see the table through its invite code
  inviteCode() {
    if (this.state.table && typeof this.state.table.my_seat === "number") return null;
    return inviteFor(this.id);
  }

  inviteQuery() {
    const code = this.inviteCode();
    return code ? `?invite=${enc(code)}` : "";
  }

  async fetchGame() {
    try {
      const q = this.inviteQuery();
      this.apply(await get(`/api/tables/${enc(this.id)}/game${q}${q ? "&" : "?"}log_tail=${LOG_TAIL}`));
    } catch (e) {
      if (this.view === null) clear(this.root);
      showError(e);
    }
  }

  takeTable(tb) {
    if (!tb) return;
    this.state.takeTable(tb);
    if (tb.clock !== undefined) this.clock = tb.clock;
    if (this.seatAction && this.botLevelOf(this.seatAction.seat)) this.seatAction = null;
    this.render();
  }

  // Catch up: over the socket when it is up (hello with the last version seen), else over HTTP.
  resync() {
    if (this.stopped) return;
    if (!this.socket.send({ type: "hello", since: this.state.version >= 0 ? this.state.version : null, deltas: true })) this.fetchGame();
  }

  // Out of step with the deltas (one missed, or a copy that fails its digest): a snapshot.
  resnap() {
    if (this.stopped) return;
    if (!this.socket.send({ type: "hello", since: null, deltas: true })) this.fetchGame();
  }

  // Every kind of frame the server sends (docs/frames.schema.json, "server"; a test holds them
  // equal): ping and pong are the socket's own, and a direct answer settles its request there.
  onFrame(f) {
    this.chat.onFrame(f); // table chat and presence: chat, chat_history, presence, lobby
    switch (f.type) {
      case "snapshot":
      case "update":
        this.apply(f);
        return;
      case "delta": {
        const g = this.state.patched(f);
        if (g) this.apply(g);
        else this.resnap();
        return;
      }
      case "lobby":
        if (f.table) this.takeTable(f.table);
        return;
      case "error":
        showError(asApiError(f.error || f));
        if ((f.code || (f.error && f.error.code)) === "stale_version") this.resync();
        return;
      case "welcome":
      case "accepted":
      case "chat":
      case "chat_history":
      case "chat_accepted":
      case "presence":
      case "seen_marked":
        return; // nothing more to do (the chat took its own above; since.js awaits its mark)
    }
  }

  apply(g) {
    const { applied, needLog } = this.state.apply(g);
    if (!applied) return;
    if (g.clock !== undefined) this.clock = g.clock;
    if (needLog) setTimeout(() => this.fetchGame(), 0);
    this.picker = null;
    this.render();
  }

  setConn(state) {
    if (state === "signed_out") {
      this.signedOut();
      return;
    }
    if (state === "refused") showError(new ApiError(403, "seat_lost", ""));
    this.wsState = state;
    const el = document.getElementById("conn");
    if (el) {
      el.textContent = t(state === "live" ? "table.connected" : "table.reconnecting");
      el.className = "conn " + state;
    }
  }

  // ---------- moves ----------

  choose(moves, label) {
    if (moves.length === 1) this.send(moves[0]);
    else {
      this.picker = { label, moves };
      renderControls(this);
      const first = document.querySelector("[data-testid=pay-option]");
      if (first) first.focus();
    }
  }

  // The one way a move leaves the page: a `move` frame on the table's socket. Resolves once the
  // server answered (`accepted`, before the `update` that brings the new view; or `error`).
  async send(move) {
    if (this.sending) return;
    this.sending = true;
    document.body.classList.add("sending");
    this.picker = null;
    try {
      await this.socket.request({ type: "move", move, expected_version: this.state.version, move_id: uuid() });
    } catch (e) {
      if (this.stopped) return;
      showError(asApiError(e));
      if (e && e.code === "stale_version") this.resync();
      this.render();
    } finally {
      this.sending = false;
      document.body.classList.remove("sending");
    }
  }

  setFilter(f) {
    this.filter = this.filter === f ? null : f;
    this.picker = null;
    if (this.phone && this.filter) this.panel = "hand";
    this.render();
    const c = document.getElementById("controls");
    if (c && this.filter && c.scrollIntoView) c.scrollIntoView({ block: "nearest", behavior: "smooth" });
  }

  // The phone's tabs: show one panel.
  showPanel(id) {
    if (this.panel === id) return;
    this.panel = id;
    this.render();
    const tab = document.getElementById("tab-" + id);
    if (tab) tab.focus({ preventScroll: true });
    this.logPin.opened();
  }

  // ---------- rendering (tabledraw.js) ----------

  render() { draw(this); }
  // record a value for change highlighting
  mark(el, key, value) { return markValue(this, el, key, value); }
  setTitle(mine = this.wasMyTurn) { setTitle(this, mine); }

  // ---------- seats and bots (HTTP: they are table settings, not moves) ----------

  openSeatAction(seat, kind) {
    this.seatAction = { seat, kind, level: "greedy" };
    this.render();
    const confirm = this.root.querySelector(`[data-testid=seat-confirm] select`);
    if (confirm) confirm.focus();
  }

  async seatCall(path, body) {
    if (this.seatBusy) return;
    this.seatBusy = true;
    this.render();
    try {
      const tb = await post(path, body);
      this.seatAction = null;
      this.seatBusy = false;
      this.takeTable(tb);
    } catch (e) {
      showError(e);
    } finally {
      if (this.seatBusy) {
        this.seatBusy = false;
        this.render();
      }
    }
  }

  seatToBot(seat, level) {
    return this.seatCall(`/api/tables/${enc(this.id)}/seats/${seat}/bot`, { level });
  }

  reclaim() {
    return this.seatCall(`/api/tables/${enc(this.id)}/seats/${this.mySeat}/reclaim`, {});
  }
}
