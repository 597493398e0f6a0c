// The live table: renders the view and the legal moves, sends the chosen move, stays in sync.
import { t } from "/js/i18n.js";
import { h, s, clear } from "/js/dom.js";
import { get, post, ApiError } from "/js/api.js";
import { showError, toast, setTurnBadge, chip, costChips, costText, SEAT_SYMBOLS, SYMBOL, BOT_GLYPH, botTag, botLevelLabel, botLevelSelect } from "/js/ui.js";
import { ADVISOR_INFO, LOCATION_SYMBOL, COUNTRYSIDE, RESOURCES, GOODS } from "/js/components.js";
import { describeMove, describeEvent, choiceKey, groupOf, GROUP_ORDER, involves, destination, stableKey } from "/js/moves.js";

const enc = encodeURIComponent;

function uuid() {
  if (crypto.randomUUID) return crypto.randomUUID();
  return "m-" + Date.now().toString(36) + "-" + Math.random().toString(36).slice(2);
}

export class GameScreen {
  constructor(root, id, table, helpers) {
    this.root = root;
    this.id = id;
    this.table = table;
    this.helpers = helpers;
    this.version = -1;
    this.view = null;
    this.legal = [];
    this.log = [];
    this.filter = null; // "loc:castle" | "adv:baker" | "card:gold" ...
    this.picker = null; // {label, moves}
    this.sending = false;
    this.ws = null;
    this.wsState = "offline";
    this.backoff = 500;
    this.stopped = false;
    this.prevValues = null;
    this.wasMyTurn = false;
    this.sound = localStorage.getItem("emara.sound") === "1";
    this.rematch = null;
    // Who holds each seat: {seat, name, bot_level} from the game frames, plus host/you from the
    // lobby frames the socket sends after every seat change (a bot taking or leaving a seat).
    this.seats = new Map();
    this.setSeats(table && table.seats);
    this.seatAction = null; // the open confirm step: {seat, kind: "leave" | "hand", level}
    this.seatBusy = false;
    this.onVisible = () => document.visibilityState === "visible" && this.resync();
    this.onOnline = () => {
      this.reconnectNow();
      this.resync();
    };
    this.lastFrameAt = Date.now();
  }

  // ---------- life cycle ----------

  async start() {
    clear(this.root).append(h("p.muted", t("app.loading")));
    document.addEventListener("visibilitychange", this.onVisible);
    window.addEventListener("online", this.onOnline);
    await this.fetchGame();
    this.connect();
  }

  stop() {
    this.stopped = true;
    document.removeEventListener("visibilitychange", this.onVisible);
    window.removeEventListener("online", this.onOnline);
    clearTimeout(this.reconnectTimer);
    clearInterval(this.pingTimer);
    if (this.ws) {
      this.ws.onclose = null;
      try { this.ws.close(); } catch {}
    }
  }

  async fetchGame() {
    try {
      const g = await get(`/api/tables/${enc(this.id)}/game${this.inviteQuery()}`);
      this.apply(g, true);
    } catch (e) {
      if (this.view === null) {
        clear(this.root);
      }
      showError(e);
    }
  }

  async refreshTable() {
    try {
      this.table = await get(`/api/tables/${enc(this.id)}${this.inviteQuery()}`);
      this.setSeats(this.table && this.table.seats);
      this.render();
    } catch {}
  }

  setSeats(list) {
    if (!Array.isArray(list)) return;
    list.forEach((x, i) => {
      if (!x) return;
      const seat = typeof x.seat === "number" ? x.seat : i;
      this.seats.set(seat, { ...(this.seats.get(seat) || {}), ...x, seat });
    });
  }

  // A lobby answer or frame: the table with its seats as they are now.
  takeTable(tb) {
    if (!tb) return;
    this.table = tb;
    this.setSeats(tb.seats);
    if (this.seatAction) {
      const a = this.seatAction;
      if (this.botLevelOf(a.seat)) this.seatAction = null;
    }
    this.render();
  }

  resync() {
    if (!this.stopped) this.fetchGame();
  }

  // spectators (no seat) see the table through its invite code
  inviteQuery() {
    if (this.table && typeof this.table.my_seat === "number") return "";
    const code = this.helpers.inviteFor ? this.helpers.inviteFor(this.id) : null;
    return code ? `?invite=${enc(code)}` : "";
  }

  // ---------- WebSocket ----------

  connect() {
    if (this.stopped) return;
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    let ws;
    try {
      ws = new WebSocket(`${proto}//${location.host}/ws/tables/${enc(this.id)}${this.inviteQuery()}`);
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    this.setConn("reconnecting");
    ws.onopen = () => {
      this.backoff = 500;
      this.setConn("live");
      ws.send(JSON.stringify({ type: "hello", since: this.version >= 0 ? this.version : null }));
      clearInterval(this.pingTimer);
      this.lastFrameAt = Date.now();
      this.pingTimer = setInterval(() => {
        // a socket that has said nothing for long is dead even if it looks open
        if (Date.now() - this.lastFrameAt > 60000) {
          try { ws.close(); } catch {}
          return;
        }
        if (ws.readyState === 1) ws.send(JSON.stringify({ type: "ping" }));
      }, 15000);
    };
    ws.onmessage = (ev) => {
      this.lastFrameAt = Date.now();
      let frame;
      try {
        frame = JSON.parse(ev.data);
      } catch {
        return;
      }
      this.onFrame(frame);
    };
    ws.onerror = () => {};
    ws.onclose = () => {
      clearInterval(this.pingTimer);
      if (this.ws === ws) this.ws = null;
      this.scheduleReconnect();
    };
  }

  scheduleReconnect() {
    if (this.stopped) return;
    this.setConn("reconnecting");
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = setTimeout(() => {
      this.connect();
      this.resync();
    }, this.backoff);
    this.backoff = Math.min(this.backoff * 2, 8000);
  }

  reconnectNow() {
    this.backoff = 300;
    if (!this.ws) this.scheduleReconnect();
  }

  onFrame(f) {
    const type = f.type;
    if (type === "error") {
      const err = f.error || f;
      showError(new ApiError(0, err.code || "error", err.message || ""));
      if ((err.code || "") === "stale_version") this.resync();
      return;
    }
    if (type === "ping") {
      if (this.ws && this.ws.readyState === 1) this.ws.send(JSON.stringify({ type: "pong" }));
      return;
    }
    if (type === "pong" || type === "welcome" || type === "accepted") return;
    if (f.view || f.legal_moves) {
      this.apply(f, type === "snapshot");
      return;
    }
    if (f.version !== undefined && f.version !== null && f.version > this.version) {
      // events without the view: fetch the fresh view
      this.resync();
      return;
    }
    if (type === "lobby" && f.table) this.takeTable(f.table);
    else if (type === "table" || type === "seats") this.refreshTable();
  }

  setConn(state) {
    this.wsState = state;
    const el = document.getElementById("conn");
    if (el) {
      el.textContent = t(state === "live" ? "table.connected" : state === "reconnecting" ? "table.reconnecting" : "table.offline");
      el.className = "conn " + state;
    }
  }

  // ---------- state ----------

  apply(g, full) {
    const version = g.version ?? (g.view && g.view.version);
    if (typeof version === "number" && version < this.version) return;
    if (typeof version === "number" && version === this.version && this.view) return;
    if (g.view) this.view = g.view;
    if (Array.isArray(g.seats)) this.setSeats(g.seats);
    if (g.legal_moves) this.legal = g.legal_moves;
    else if (g.view) this.legal = [];
    if (Array.isArray(g.log)) this.log = g.log;
    else if (Array.isArray(g.moves)) {
      const last = this.log.length ? this.log[this.log.length - 1].version ?? -1 : -1;
      this.log = this.log.concat(g.moves.filter((m) => (m.version ?? 0) > last));
    } else if (Array.isArray(g.events) && typeof version === "number" && version > this.version) this.log = this.log.concat(g.events.map((e) => ({ ...e, version })));
    else if (g.type === "snapshot" && typeof version === "number" && version !== this.version && this.version >= 0) setTimeout(() => this.fetchGame(), 0);
    if (g.status) this.status = g.status;
    if (typeof version === "number") this.version = version;
    this.picker = null;
    this.render();
  }

  get mySeat() {
    return this.view && this.view.me ? this.view.me.seat : null;
  }

  nameOf(seat) {
    const n = this.helpers.seatName(this.seats.get(seat));
    return n || t("landing.seat_n", { n: seat + 1 });
  }

  // The level of the bot playing the seat, or null when a person plays it.
  botLevelOf(seat) {
    const x = this.seats.get(seat);
    return x && x.bot_level ? x.bot_level : null;
  }

  // Whether a person holds the seat (a bot seated in the lobby has no name of its own).
  hasPlayer(seat) {
    const x = this.seats.get(seat);
    return !!(x && x.name);
  }

  botPlaysMe() {
    return this.mySeat !== null && !!this.botLevelOf(this.mySeat);
  }

  isHost() {
    return !!(this.table && this.table.host === true);
  }

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

  // ---------- moves ----------

  choose(moves, label) {
    if (moves.length === 1) this.send(moves[0]);
    else {
      this.picker = { label, moves };
      this.renderControls();
      const first = document.querySelector("[data-testid=pay-option]");
      if (first) first.focus();
    }
  }

  async send(move) {
    if (this.sending) return;
    this.sending = true;
    document.body.classList.add("sending");
    this.picker = null;
    const before = this.version;
    try {
      const res = await post(`/api/tables/${enc(this.id)}/moves`, { move, expected_version: this.version, move_id: uuid() });
      if (res && typeof res.version === "number" && res.version > this.version) {
        // the socket brings the new view; fetch it ourselves only if it is late
        if (this.wsState === "live") await this.waitVersion(res.version, 1500);
        if (this.version < res.version) await this.fetchGame();
      }
    } catch (e) {
      showError(e);
      if (e instanceof ApiError && (e.code === "stale_version" || e.status === 409 || e.code === "network")) await this.fetchGame();
      else this.render();
      if (e instanceof ApiError && e.status === 409) this.render();
    } finally {
      this.sending = false;
      document.body.classList.remove("sending");
    }
  }

  waitVersion(v, ms) {
    return new Promise((resolve) => {
      const started = Date.now();
      const tick = () => {
        if (this.version >= v || Date.now() - started > ms || this.stopped) resolve();
        else setTimeout(tick, 25);
      };
      tick();
    });
  }

  // ---------- rendering ----------

  render() {
    const v = this.view;
    if (!v) return;
    document.body.dataset.version = String(this.version);
    const values = new Map();
    this.values = values;
    const root = this.root;
    const scrollLog = document.getElementById("log-list");
    const logAtBottom = !scrollLog || scrollLog.scrollTop + scrollLog.clientHeight >= scrollLog.scrollHeight - 20;
    clear(root);
    const game = h("div.game", { "data-testid": "game", "data-phase": v.phase });
    game.append(this.renderStatus());
    const last = this.renderLastMove();
    if (last) game.append(last);
    if (v.outcome) game.append(this.renderFinal());
    game.append(
      h("section.board", { "aria-label": t("table.title") }, this.renderRondels(), this.renderLocations(), this.renderSupply()),
      h("aside.side", this.renderScoreTrack(), this.renderPlayers()),
      h("section.controls", { id: "controls" }),
      this.renderLog()
    );
    root.append(game);
    this.renderControls();
    const list = document.getElementById("log-list");
    if (list && logAtBottom) list.scrollTop = list.scrollHeight;
    this.flashChanges();
    this.turnSignal();
  }

  // record a value for change highlighting
  mark(el, key, value) {
    el.dataset.k = key;
    this.values.set(key, stableKey(value));
    return el;
  }

  flashChanges() {
    const prev = this.prevValues;
    this.prevValues = this.values;
    if (!prev) return;
    for (const [k, val] of this.values) {
      if (prev.has(k) && prev.get(k) !== val) {
        const el = this.root.querySelector(`[data-k="${CSS.escape(k)}"]`);
        if (el) {
          el.classList.add("flash");
          setTimeout(() => el.classList.remove("flash"), 2400);
        }
      }
    }
  }

  isMyTurn() {
    const v = this.view;
    return !!(v && this.mySeat !== null && (v.to_act || []).includes(this.mySeat) && v.phase !== "finished");
  }

  turnSignal() {
    const mine = this.isMyTurn() && this.legal.length > 0 && !this.botPlaysMe();
    document.title = mine ? t("table.title_turn") : t("table.title");
    setTurnBadge(mine);
    if (mine && !this.wasMyTurn) {
      if (this.sound) beep();
      if (document.hidden && this.notify && "Notification" in window && Notification.permission === "granted") {
        try { new Notification(t("table.your_turn"), { body: t("app.title"), icon: "/favicon-turn.svg" }); } catch {}
      }
    }
    this.wasMyTurn = mine;
  }

  renderStatus() {
    const v = this.view;
    const ev = v.event;
    let turnText;
    let cls = "";
    if (v.phase === "finished") {
      turnText = t("end.title");
      cls = "over";
    }
    else if (this.isMyTurn() && this.botPlaysMe()) {
      turnText = t("bot.plays_your_turn", { level: botLevelLabel(this.botLevelOf(this.mySeat)) });
      cls = "bot";
    } else if (this.isMyTurn()) {
      turnText = v.me && v.me.decision ? t("table.your_decision") : t("table.your_turn");
      cls = "mine";
    } else if (v.turn && v.phase === "turns") turnText = t("table.turn_of", { name: this.who(v.turn.seat), n: v.turn.number });
    else turnText = t("table.waiting_for", { names: (v.to_act || []).map((x) => this.who(x)).join(", ") });
    const sound = h("label.toggle", h("input", { type: "checkbox", checked: this.sound, onchange: (e) => {
      this.sound = e.target.checked;
      localStorage.setItem("emara.sound", this.sound ? "1" : "0");
    } }), " ♪ ", t("table.sound"));
    const notify = "Notification" in window ? h("label.toggle", h("input", { type: "checkbox", checked: !!this.notify, onchange: async (e) => {
      this.notify = e.target.checked;
      if (this.notify && Notification.permission === "default") { try { await Notification.requestPermission(); } catch {} }
    } }), " ✉ ", t("table.notify")) : null;
    return h("header.status-bar",
      h("div.round", this.mark(h("strong", v.round ? t("table.round", { round: v.round }) : t("table.setup")), "round", v.round)),
      ev
        ? h("div.event-card", { "data-testid": "event" },
            h("span.label", t("table.event"), " · ", t("timing." + ev.timing)), " ",
            this.mark(h("strong", t("event." + ev.id)), "event", ev.id), " — ",
            h("span", t("eventtext." + ev.id)))
        : h("div.event-card", h("span.muted", v.event_top ? `${t("table.event_next")}: ${t("event." + v.event_top.id)}` : "")),
      h("div.turn", { class: cls, "data-testid": "turn-indicator", role: "status", "aria-live": "polite" }, cls === "mine" ? "★ " : cls === "over" ? "♛ " : cls === "bot" ? BOT_GLYPH + " " : "… ", turnText),
      h("div.tools", sound, notify, h("span", { id: "conn", class: "conn " + this.wsState }, t(this.wsState === "live" ? "table.connected" : "table.reconnecting")))
    );
  }

  legalInvolving() {
    const set = new Set();
    for (const m of this.legal) for (const x of involves(m, this.view)) set.add(x);
    return set;
  }

  setFilter(f) {
    this.filter = this.filter === f ? null : f;
    this.picker = null;
    this.render();
    const c = document.getElementById("controls");
    if (c && this.filter && c.scrollIntoView) c.scrollIntoView({ block: "nearest", behavior: "smooth" });
  }

  renderRondels() {
    const v = this.view;
    const targets = this.legalInvolving();
    const keys = Object.keys(v.rondels || {});
    const wrap = h("div.rondels");
    keys.forEach((key) => {
      const order = v.rondels[key];
      const W = 260, C = 130, R = 82;
      const svg = s("svg", { viewBox: `0 0 ${W} ${W}`, class: "rondel", role: "group", "aria-label": t(key === "countryside" ? "table.rondel_countryside" : key === "town" ? "table.rondel_town" : "table.rondel_" + key) });
      svg.append(s("circle", { cx: C, cy: C, r: R + 30, class: "rondel-bg" }));
      svg.append(s("circle", { cx: C, cy: C, r: R, class: "rondel-ring" }));
      // clockwise arrows between the nodes
      for (let i = 0; i < order.length; i++) {
        const a = ((i + 0.5) / order.length) * 2 * Math.PI - Math.PI / 2;
        svg.append(s("text", { x: C + R * Math.cos(a), y: C + R * Math.sin(a) + 5, class: "rondel-arrow", transform: `rotate(${(a * 180) / Math.PI + 90} ${C + R * Math.cos(a)} ${C + R * Math.sin(a)})`, "aria-hidden": "true" }, "➤"));
      }
      svg.append(s("text", { x: C, y: C + 5, class: "rondel-title" }, t(key === "countryside" ? "table.rondel_countryside" : key === "town" ? "table.rondel_town" : "table.rondel_" + key)));
      order.forEach((locId, i) => {
        const a = (i / order.length) * 2 * Math.PI - Math.PI / 2;
        const x = C + R * Math.cos(a), y = C + R * Math.sin(a);
        const legal = targets.has("loc:" + locId);
        const g = s("g", {
          class: "loc-node" + (legal ? " legal-target" : "") + (this.filter === "loc:" + locId ? " selected" : ""),
          tabindex: "0",
          role: "button",
          "aria-label": t("loc." + locId),
          onclick: () => this.setFilter("loc:" + locId),
          onkeydown: (e) => (e.key === "Enter" || e.key === " ") && (e.preventDefault(), this.setFilter("loc:" + locId)),
        });
        g.append(s("circle", { cx: x, cy: y, r: 30, class: "node loc-" + locId }));
        g.append(s("text", { x, y: y - 4, class: "node-sym" }, LOCATION_SYMBOL[locId] || "?"));
        g.append(s("text", { x, y: y + 14, class: "node-label" }, shortLoc(locId)));
        // councilors standing here
        const here = (v.councilors || []).map((c, seat) => (c && c[key] === locId ? seat : null)).filter((x) => x !== null);
        here.forEach((seat, j) => {
          const px = x + (j - (here.length - 1) / 2) * 18;
          const py = y + (y < C ? -38 : 40);
          const pawn = s("g", { class: "pawn seat" + seat });
          pawn.append(s("circle", { cx: px, cy: py, r: 9 }));
          pawn.append(s("text", { x: px, y: py + 4 }, SEAT_SYMBOLS[seat]));
          pawn.append(s("title", {}, `${this.nameOf(seat)} — ${t("loc." + locId)}`));
          g.append(pawn);
        });
        this.values.set(`pawns.${key}.${locId}`, here.join(","));
        g.dataset.k = `pawns.${key}.${locId}`;
        svg.append(g);
      });
      wrap.append(svg);
    });
    return wrap;
  }

  renderLocations() {
    const v = this.view;
    const targets = this.legalInvolving();
    const grid = h("div.locations");
    const all = [].concat(...Object.values(v.rondels || {}));
    for (const locId of all) {
      const cards = [];
      const here = (v.councilors || []).map((c, seat) => (c && Object.values(c).includes(locId) ? seat : null)).filter((x) => x !== null);
      const head = h("h3",
        h("span.sym", { "aria-hidden": "true" }, LOCATION_SYMBOL[locId], " "), t("loc." + locId), " ",
        here.map((seat) => h("span.seat-token", { class: "seat" + seat, title: this.nameOf(seat) }, SEAT_SYMBOLS[seat]))
      );
      if (COUNTRYSIDE.includes(locId)) {
        const huts = (v.huts && v.huts[locId]) || [];
        const ul = h("ul.huts");
        huts.forEach((hut, i) => {
          const occ = hut.occupant;
          const legal = this.legal.some((m) => (m.kind === "hire_craftsman" || (m.kind === "card_action" && m.hire === "craftsman")) && m.location === locId && m.hut === i);
          const li = h("li", { class: (occ !== null && occ !== undefined ? "occupied" : "free") + (legal ? " legal-target" : "") },
            h("span.hut-n", t("table.hut_n", { n: i + 1 })), " ", costChips(hut.cost), " ",
            occ !== null && occ !== undefined
              ? h("span.occupant", h("span.seat-token", { class: "seat" + occ }, SEAT_SYMBOLS[occ]), " ", this.nameOf(occ))
              : h("span.muted", t("table.hut_free")));
          ul.append(this.mark(li, `hut.${locId}.${i}`, occ));
        });
        cards.push(h("div.small-label", t("table.huts")), ul);
      } else {
        const mk = v.markers || {};
        const markerRow = (m, key, kind) => {
          const el = h("span.marker", { class: m.removed ? "removed" : "" },
            kind ? chip(kind) : null, " ", h("strong", String(m.value)),
            m.removed ? h("span.muted", " (" + t("table.board_value") + ")") : h("span.muted", " · " + t("table.marker_steps", { n: m.steps_left })));
          return this.mark(el, key, m);
        };
        if (locId === "castle") {
          cards.push(h("div.small-label", t("table.gift")), h("div.markers", RESOURCES.filter((r) => mk.gift && mk.gift[r]).map((r) => markerRow(mk.gift[r], "gift." + r, r))), h("div.small-label", t("table.castle_book")));
        } else if (locId === "cathedral") {
          cards.push(h("div.small-label", t("table.donation")), h("div.markers", RESOURCES.filter((r) => mk.donation && mk.donation[r]).map((r) => markerRow(mk.donation[r], "donation." + r, r))));
        } else if (locId === "construction_site") {
          cards.push(
            h("div.small-label", t("table.stone_marker")), mk.stone ? h("div.markers", markerRow(mk.stone, "stone", "stone")) : null,
            h("div.small-label", t("table.bread_marker")), mk.bread ? h("div.markers", markerRow(mk.bread, "bread", "bread")) : null,
            h("div.small-label", t("table.wood_delivery"))
          );
        } else if (locId === "market") {
          cards.push(h("div.small-label", t("table.market_gold")), h("div.small-label", t("table.market_books")));
        }
        const display = (v.advisors && v.advisors.display && v.advisors.display[locId]) || [];
        if (display.length) {
          cards.push(h("div.small-label", t("table.advisors")), h("div.advisor-list", display.map((a) => this.advisorCard(a, targets))));
        }
      }
      const visit = v.turn && v.turn.visit && v.turn.visit.location === locId;
      grid.append(
        h("article.location", {
          class: (targets.has("loc:" + locId) ? "legal-target" : "") + (visit ? " visiting" : "") + (this.filter === "loc:" + locId ? " selected" : ""),
          "data-location": locId,
          onclick: (e) => { if (!e.target.closest("button, .advisor")) this.setFilter("loc:" + locId); },
        }, head, visit ? h("div.visit-flag", "⚑ ", t("table.visit", { location: t("loc." + locId) })) : null, cards)
      );
    }
    return grid;
  }

  advisorCard(id, targets) {
    const v = this.view;
    const info = ADVISOR_INFO[id] || {};
    const cost = (v.advisors && v.advisors.costs && v.advisors.costs[id]) || {};
    const legal = targets.has("adv:" + id);
    return h("button.advisor", {
      type: "button",
      class: (legal ? "legal-target" : "") + (this.filter === "adv:" + id ? " selected" : ""),
      title: t("advtext." + id),
      "aria-pressed": this.filter === "adv:" + id ? "true" : "false",
      onclick: () => this.setFilter("adv:" + id),
    },
      h("span.adv-name", t("adv." + id)),
      h("span.adv-meta", costChips(cost), " → ", info.cp ? chip("cp", "+" + info.cp) : null, info.bp ? chip("bp", "+" + info.bp) : null),
      h("span.adv-text", t("advtext." + id))
    );
  }

  renderSupply() {
    const v = this.view;
    const targets = this.legalInvolving();
    const adv = v.advisors || {};
    const nob = h("div.nobility", (v.nobility || []).map((n) =>
      this.mark(h("button.title-stack", { type: "button", class: (targets.has("title:" + n.id) ? "legal-target" : "") + (this.filter === "title:" + n.id ? " selected" : ""), onclick: () => this.setFilter("title:" + n.id) },
        h("strong", "♔ ", t("title." + n.id)),
        h("span", costChips(n.cost)),
        h("span", n.top !== null && n.top !== undefined ? chip("cp", n.top) : h("span.muted", t("table.nothing"))),
        h("span.muted", t("table.b_left", { n: n.left }))), "nob." + n.id, n)
    ));
    return h("div.supply",
      h("div.supply-box", h("h3", t("table.b_stack"), " ", h("span.muted", t("table.b_left", { n: adv.b_left ?? 0 }))),
        adv.b_top ? this.advisorCard(adv.b_top, targets) : h("p.muted", t("table.nothing"))),
      h("div.supply-box", h("h3", t("table.nobility")), nob),
      h("div.supply-box.small",
        this.mark(h("p", "✉ ", t("table.favor_pile", { pile: (v.favor || {}).pile ?? 0, discard: (v.favor || {}).discard ?? 0 })), "favor", v.favor),
        v.event_top ? h("p", h("span.muted", t("table.event_next") + ": "), t("event." + v.event_top.id), " ", h("span.muted", t("table.events_left", { n: v.events_left }))) : null)
    );
  }

  renderScoreTrack() {
    const v = this.view;
    const ps = v.players_state || [];
    const rows = ps.map((p) => ({ seat: p.seat, name: this.nameOf(p.seat), bot: this.botLevelOf(p.seat), cp: p.cp, bp: p.bp }));
    if (v.victoria) rows.push({ seat: "v", name: t("table.victoria"), cp: v.victoria.cp, bp: null });
    const maxVal = Math.max(60, ...rows.map((r) => Math.max(r.cp || 0, r.bp || 0))) + 10;
    const W = 400, L = 70, rowH = 30;
    const H = rows.length * rowH + 22;
    const x = (val) => L + ((W - L - 12) * val) / maxVal;
    const svg = s("svg", { viewBox: `0 0 ${W} ${H}`, class: "score-svg", role: "img", "aria-label": t("table.score_track") });
    for (let tick = 0; tick <= maxVal; tick += 10) {
      svg.append(s("line", { x1: x(tick), x2: x(tick), y1: 4, y2: H - 16, class: "tick" }));
      svg.append(s("text", { x: x(tick), y: H - 4, class: "tick-label" }, String(tick)));
    }
    rows.forEach((r, i) => {
      const y = 16 + i * rowH;
      // a bot of its own goes by its level's word here, the name being "Bot · …"
      const short = r.bot && !this.hasPlayer(r.seat) ? t("bot.word." + r.bot) : r.name;
      const label = r.bot ? `${SEAT_SYMBOLS[r.seat]} ${BOT_GLYPH} ${short.slice(0, 7)}` : `${r.seat === "v" ? "♕" : SEAT_SYMBOLS[r.seat]} ${r.name.slice(0, 9)}`;
      svg.append(s("text", { x: 4, y: y + 4, class: "track-name" + (r.bot ? " bot" : "") }, label,
        r.bot ? s("title", {}, `${r.name} — ${t("bot.played_by", { level: botLevelLabel(r.bot) })}`) : null));
      svg.append(s("line", { x1: L, x2: W - 12, y1: y, y2: y, class: "track-line" }));
      const lowerIsCp = r.bp === null || r.cp <= r.bp;
      const cls = r.seat === "v" ? "seatv" : "seat" + r.seat;
      // CP: circle, BP: square — the lower gets a star and a thick ring
      const cp = s("g", { class: `track-marker cp ${cls}${lowerIsCp ? " lower" : ""}` });
      cp.append(s("circle", { cx: x(r.cp), cy: y, r: lowerIsCp ? 10 : 8 }));
      cp.append(s("text", { x: x(r.cp), y: y + 4 }, "C"));
      cp.append(s("title", {}, `${r.name}: ${r.cp} ${t("table.cp")}${lowerIsCp ? " ★ " + t("table.lower") : ""}`));
      svg.append(cp);
      if (r.bp !== null) {
        const bp = s("g", { class: `track-marker bp ${cls}${!lowerIsCp ? " lower" : ""}` });
        const sz = !lowerIsCp ? 19 : 15;
        bp.append(s("rect", { x: x(r.bp) - sz / 2, y: y - sz / 2, width: sz, height: sz, rx: 2 }));
        bp.append(s("text", { x: x(r.bp), y: y + 4 }, "B"));
        bp.append(s("title", {}, `${r.name}: ${r.bp} ${t("table.bp")}${!lowerIsCp ? " ★ " + t("table.lower") : ""}`));
        svg.append(bp);
        const low = lowerIsCp ? r.cp : r.bp;
        svg.append(s("text", { x: x(low), y: y - 12, class: "star" }, "★"));
      }
    });
    const legend = h("ul.track-legend", rows.map((r) =>
      this.mark(h("li",
        r.seat === "v" ? "♕ " : h("span.seat-token", { class: "seat" + r.seat }, SEAT_SYMBOLS[r.seat]), " ",
        r.seat === "v" ? h("strong", r.name) : this.nameWithBot(r.seat), " ",
        chip("cp", r.cp), r.bp !== null ? chip("bp", r.bp) : null,
        r.bp !== null ? h("span.score", " = ", h("strong", String(Math.min(r.cp, r.bp))), " ★", r.cp <= r.bp ? t("table.cp") : t("table.bp")) : null
      ), `track.${r.seat}`, [r.cp, r.bp])
    ));
    return h("section.panel.score-track", { "data-testid": "score-track" }, h("h2", t("table.score_track")), svg, legend, h("p.hint", t("table.score_track_hint")));
  }

  renderPlayers() {
    const v = this.view;
    const box = h("section.players", h("h2.sr", t("table.players")));
    for (const p of v.players_state || []) {
      const seat = p.seat;
      const acting = (v.to_act || []).includes(seat) && v.phase !== "finished";
      const k = (x) => `p${seat}.${x}`;
      const slots = h("div.slots", [1, 2, 3].map((n) => {
        const c = p.slots && p.slots[String(n)];
        return this.mark(h("div.slot", { class: c ? "filled" : "empty" }, h("span.slot-n", String(n)), c ? h("span", t("card." + c)) : h("span.muted", t("table.slot_empty"))), k("slot" + n), c);
      }));
      const res = h("div.goods", RESOURCES.map((r) => this.mark(chip(r, p.resources[r] || 0, { dim: true }), k(r), p.resources[r])));
      const goods = h("div.goods", GOODS.map((r) => this.mark(chip(r, p.goods[r] || 0, { dim: true }), k(r), p.goods[r])));
      const advisors = (p.advisors || []).length
        ? h("div.owned", (p.advisors || []).map((a) => h("span.pill", { title: t("advtext." + a) }, t("adv." + a))))
        : null;
      const titles = (p.titles || []).length
        ? h("div.owned", p.titles.map((ti) => h("span.pill.title", "♔ ", t("title." + ti.id), " ", chip("cp", ti.cp))))
        : null;
      const favors = (p.favor_tokens || []).length
        ? h("div.owned", p.favor_tokens.map((f) => h("span.pill.favor", "✉ ", t("loc." + f.location), ": ", costText(f.reward))))
        : null;
      box.append(
        h("article.player", { class: "seat" + seat + (acting ? " acting" : "") + (seat === this.mySeat ? " me" : "") + (this.botLevelOf(seat) ? " bot" : ""), "data-testid": "player-board", "data-seat": seat, "data-bot-level": this.botLevelOf(seat) },
          h("header",
            h("span.seat-token", { class: "seat" + seat }, SEAT_SYMBOLS[seat]), " ",
            this.nameWithBot(seat), seat === this.mySeat ? h("span.tag", t("table.you")) : null,
            v.statue === seat ? h("span.tag.statue", t("table.statue")) : null,
            acting ? h("span.tag.acting", "▶") : null,
            h("span.spacer"),
            this.mark(h("span", chip("cp", p.cp)), k("cp"), p.cp), this.mark(h("span", chip("bp", p.bp)), k("bp"), p.bp),
            h("span.score-pill", { title: t("table.score") }, "★ ", String(p.score ?? Math.min(p.cp, p.bp)))
          ),
          slots,
          h("div.row-wrap", res, goods),
          h("div.meta",
            this.mark(h("span", "⚒ ", t("table.craftsmen_left", { n: p.craftsmen_left })), k("craftsmen"), p.craftsmen_left), " · ",
            h("span.muted", t("table.cards", { hand: p.hand_size, deck: p.deck_size }))),
          titles, advisors, favors,
          this.seatTools(seat)
        )
      );
    }
    if (v.victoria) {
      box.append(h("article.player.victoria", h("header", "♕ ", h("strong", t("table.victoria")), h("span.spacer"), chip("cp", v.victoria.cp)),
        (v.victoria.titles || []).length ? h("div.owned", v.victoria.titles.map((ti) => h("span.pill.title", "♔ ", t("title." + ti.id), " ", chip("cp", ti.cp)))) : null));
    }
    return box;
  }

  renderControls() {
    const box = document.getElementById("controls");
    if (!box) return;
    clear(box);
    const v = this.view;
    const me = v.me;
    const botLevel = this.botPlaysMe() ? this.botLevelOf(this.mySeat) : null;
    // hand with play_card choices
    if (me) {
      const hand = h("div.hand", { "data-testid": "hand" });
      // while a bot plays the seat, its moves are the bot's: the hand is shown, not played
      const playable = botLevel ? [] : this.legal.filter((m) => m.kind === "play_card");
      for (const c of me.hand || []) {
        const slots = playable.filter((m) => m.card === c);
        hand.append(
          h("div.card", { class: slots.length ? "playable" : "" },
            h("div.card-name", t("card." + c)),
            h("div.card-text", t("cardtext." + c)),
            slots.length
              ? h("div.card-slots", h("span.muted", t("table.play_on")), " ",
                  slots.sort((a, b) => a.slot - b.slot).map((m) =>
                    h("button.slot-btn", { type: "button", "data-testid": "legal-move", "data-kind": "play_card", "data-move": JSON.stringify(m), "aria-label": describeMove(m, v), title: describeMove(m, v), onclick: () => this.send(m) }, String(m.slot))))
              : null)
        );
      }
      if (!(me.hand || []).length) hand.append(h("p.muted", t("table.hand_empty")));
      box.append(h("div.hand-wrap", h("h2", t("table.hand")), hand));
    }
    // the rest of the legal moves, grouped
    const actions = h("div.actions", { "data-testid": "actions" });
    actions.append(h("h2", t("table.actions")));
    if (botLevel) {
      actions.append(
        h("div.bot-note", { "data-testid": "bot-playing" },
          h("p", h("span.bot-glyph", { "aria-hidden": "true" }, BOT_GLYPH, " "), t("bot.plays_your_seat", { level: botLevelLabel(botLevel) })),
          v.phase === "finished" || this.status === "finished"
            ? null
            : h("button.primary", { type: "button", "data-testid": "reclaim-seat", disabled: this.seatBusy, onclick: () => this.reclaim() }, "↩ ", t("bot.reclaim")))
      );
      box.append(actions);
      return;
    }
    if (this.picker) {
      actions.append(
        h("div.picker", { role: "dialog", "aria-label": t("table.choose_payment"), "data-testid": "pay-picker" },
          h("h3", t("table.choose_payment")),
          h("p", this.picker.label),
          h("div.pay-options", this.picker.moves.map((m) =>
            h("button.pay", { type: "button", "data-testid": "pay-option", "data-move": JSON.stringify(m), onclick: () => this.send(m) }, costChips(m.pay)))),
          h("button.link", { type: "button", onclick: () => { this.picker = null; this.renderControls(); } }, t("table.cancel")))
      );
      box.append(actions);
      return;
    }
    if (this.filter) {
      actions.append(h("p.filter", t("table.filter", { what: filterName(this.filter) }), " ",
        h("button.link", { type: "button", onclick: () => this.setFilter(this.filter) }, t("table.filter_clear"))));
    }
    const groups = new Map();
    let endTurn = null;
    for (const m of this.legal) {
      const g = groupOf(m);
      if (g === "play_card") continue;
      if (g === "end_turn") { endTurn = m; continue; }
      if (this.filter && !involves(m, v).has(this.filter) && g !== "decision") continue;
      if (!groups.has(g)) groups.set(g, new Map());
      const ck = choiceKey(m);
      const gm = groups.get(g);
      if (!gm.has(ck)) gm.set(ck, []);
      gm.get(ck).push(m);
    }
    let any = false;
    for (const g of GROUP_ORDER) {
      if (!groups.has(g)) continue;
      any = true;
      const title = g === "visit" && v.turn && v.turn.visit ? t("table.visit", { location: t("loc." + v.turn.visit.location) }) : t("group." + g);
      const list = h("div.choices");
      for (const [, moves] of groups.get(g)) {
        const label = describeMove(moves[0], v);
        const costs = moves.length === 1 && moves[0].pay ? h("span.btn-cost", costChips(moves[0].pay)) : moves.length > 1 ? h("span.btn-cost", "· ", t("table.choose_payment"), " ▸") : null;
        list.append(h("button.choice", {
          type: "button",
          class: "k-" + moves[0].kind,
          "data-testid": "legal-move",
          "data-kind": moves[0].kind,
          "data-choices": String(moves.length),
          "data-move": JSON.stringify(moves[0]),
          onclick: () => this.choose(moves, label),
        }, h("span", label), costs));
      }
      actions.append(h("div.group", { class: "g-" + g }, h("h3", title), list));
    }
    if (endTurn) {
      actions.append(h("button.end-turn.primary", { type: "button", "data-testid": "end-turn", "data-kind": "end_turn", "data-move": JSON.stringify(endTurn), onclick: () => this.send(endTurn) }, "⏎ ", t("table.end_turn")));
      any = true;
    }
    if (!any && this.legal.some((m) => m.kind === "play_card")) actions.append(h("p.hint", t("table.play_hint")));
    if (!any && !this.legal.some((m) => m.kind === "play_card")) {
      actions.append(h("p.muted", me ? (v.phase === "finished" ? t("end.title") : t("table.no_actions")) : t("table.spectating")));
    }
    box.append(actions);
  }

  // ---------- bots ----------

  // Under a player's board: "Leave — a bot plays on" on one's own seat; for the host, "Let a bot
  // play" on another player's seat. Both open a confirm step with the bot's level.
  seatTools(seat) {
    const v = this.view;
    if (v.phase === "finished" || this.status === "finished" || v.victoria || this.mySeat === null) return null;
    if (this.botLevelOf(seat)) return null;
    const own = seat === this.mySeat;
    if (!own && !(this.isHost() && this.hasPlayer(seat))) return null;
    const kind = own ? "leave" : "hand";
    const a = this.seatAction;
    if (!a || a.seat !== seat) {
      return h("div.seat-tools",
        own
          ? h("button.small", { type: "button", "data-testid": "leave-seat", "data-seat": seat, disabled: this.seatBusy, onclick: () => this.openSeatAction(seat, kind) }, "⇥ ", t("bot.leave"))
          : h("button.small", { type: "button", "data-testid": "hand-to-bot", "data-seat": seat, disabled: this.seatBusy, onclick: () => this.openSeatAction(seat, kind) }, BOT_GLYPH, " ", t("bot.hand_over")));
    }
    const idle = Number((this.table && this.table.options && this.table.options.idle_seconds) ?? 120);
    const select = botLevelSelect(a.level, { "data-testid": "bot-level", "data-seat": seat, disabled: this.seatBusy, onchange: (e) => (a.level = e.target.value) });
    return h("div.seat-tools.seat-confirm", { role: "group", "aria-label": own ? t("bot.leave") : t("bot.hand_over"), "data-testid": "seat-confirm", "data-seat": seat },
      h("p", own ? t("bot.leave_confirm") : t("bot.hand_confirm", { name: this.nameOf(seat), seconds: idle })),
      h("label", t("bot.level_choice"), " ", select),
      h("div.row",
        h("button.primary.small", {
          type: "button",
          "data-testid": own ? "leave-confirm" : "hand-confirm",
          "data-seat": seat,
          disabled: this.seatBusy,
          onclick: () => this.seatToBot(seat, select.value),
        }, own ? t("bot.leave") : t("bot.hand_over")),
        h("button.link", { type: "button", "data-testid": "seat-cancel", onclick: () => { this.seatAction = null; this.render(); } }, t("table.cancel"))));
  }

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

  // What the latest move did, in words, so nobody misses the other side's turn.
  renderLastMove() {
    const entry = this.log.length ? this.log[this.log.length - 1] : null;
    if (!entry || !Array.isArray(entry.events)) return null;
    // the whole latest turn (or decision) of the seat that moved last
    const entries = [];
    for (let i = this.log.length - 1; i >= 0 && entries.length < 12; i--) {
      const en = this.log[i];
      if (en.seat !== entry.seat || !Array.isArray(en.events)) break;
      entries.unshift(en);
      if (en.events.some((e) => e.type === "turn_started" && e.seat === entry.seat)) break;
    }
    const quiet = new Set(["turn_started", "turn_ended", "visit_closed", "card_action_taken", "cards_drawn", "advisor_revealed", "marker_advanced", "statue_passed", "deck_reshuffled", "favor_drawn", "favor_discarded"]);
    const events = entries.flatMap((en) => en.events).filter((e) => !quiet.has(e.type) && (e.seat === entry.seat || e.seat === undefined));
    const words = events.slice(-8).map((e) => describeEvent(e, (seat) => this.nameOf(seat)));
    if (!words.length) return null;
    return h("div.last-move", { "data-testid": "last-move", role: "status", "aria-live": "polite" },
      typeof entry.seat === "number" ? h("span.seat-token", { class: "seat" + entry.seat }, SEAT_SYMBOLS[entry.seat], " ") : null,
      h("span", words.join(" · ")));
  }

  renderLog() {
    const list = h("ol.log-list", { id: "log-list", "aria-live": "polite" });
    const entries = [];
    for (const entry of this.log) {
      if (Array.isArray(entry.events)) for (const e of entry.events) entries.push({ ...e, version: entry.version });
      else if (entry.type) entries.push(entry);
      else if (entry.move) entries.push({ type: "move_made", seat: entry.seat, ...entry.move });
    }
    const latest = entries.length ? entries[entries.length - 1].version : null;
    const recent = entries.slice(-250);
    for (const e of recent) {
      list.append(h("li", { class: (e.version !== undefined && e.version === latest ? "new " : "") + (e.type === "round_started" ? "round" : "") },
        e.seat !== undefined && e.seat !== null ? h("span.seat-token", { class: "seat" + e.seat }, SEAT_SYMBOLS[e.seat]) : null, " ",
        describeEvent(e, (seat) => this.nameOf(seat))));
    }
    if (!recent.length) list.append(h("li.muted", t("table.log_empty")));
    return h("section.log", h("h2", t("table.log")), list);
  }

  renderFinal() {
    const v = this.view;
    const o = v.outcome;
    const players = [...(o.players || [])].sort((a, b) => a.rank - b.rank || a.seat - b.seat);
    const table = h("table.final",
      h("thead", h("tr", ["end.rank", "end.player", "end.leftover", "end.split", "end.cp", "end.bp", "end.score", "end.tiebreak"].map((k) => h("th", { scope: "col" }, t(k))))),
      h("tbody", players.map((p) => {
        const cpLower = p.cp <= p.bp;
        return h("tr", { class: p.rank === 1 ? "winner" : "" },
          h("td", p.rank === 1 ? "♛ 1" : String(p.rank)),
          h("td", h("span.seat-token", { class: "seat" + p.seat }, SEAT_SYMBOLS[p.seat]), " ", this.nameOf(p.seat), this.botLevelOf(p.seat) ? botTag(this.botLevelOf(p.seat), { compact: !this.hasPlayer(p.seat) }) : null),
          h("td", String(p.leftover ? p.leftover.points : 0)),
          h("td", p.leftover ? `+${p.leftover.to_cp} / +${p.leftover.to_bp}` : "—"),
          h("td", { class: cpLower ? "lower" : "" }, String(p.cp), cpLower ? " ★" : ""),
          h("td", { class: !cpLower ? "lower" : "" }, String(p.bp), !cpLower ? " ★" : ""),
          h("td.score", h("strong", String(p.score))),
          h("td", t("end.tb." + (p.tiebreak || "none"))));
      }))
    );
    let headline;
    if (o.victoria) headline = o.won ? t("end.solo_won") : t("end.solo_lost");
    else if (players.length) headline = t("end.winner", { name: players.filter((p) => p.rank === 1).map((p) => this.nameOf(p.seat)).join(" & ") });
    const rematchBox = h("div.rematch");
    if (this.rematch) {
      const url = this.helpers.inviteUrl(this.rematch.id, this.rematch.invite_code);
      rematchBox.append(h("p", t("end.rematch_ready")), h("div.row", h("input.invite", { "data-testid": "invite-link", readonly: true, value: url, onfocus: (e) => e.target.select() }),
        h("button", { type: "button", onclick: () => this.helpers.navigate(`/t/${enc(this.rematch.id)}`) }, t("end.rematch_go"))));
    } else if (this.mySeat !== null) {
      rematchBox.append(h("button.primary", { type: "button", "data-testid": "rematch", onclick: (e) => this.doRematch(e.currentTarget) }, "↻ ", t("end.rematch")));
    }
    return h("section.panel.final-scores", { "data-testid": "final-scores" },
      h("h2", "♛ ", t("end.title")), headline ? h("p.headline", headline) : null,
      o.victoria ? h("p", t("end.victoria"), ": ", h("strong", String(o.victoria.score)), " (", chip("cp", o.victoria.cp), ")") : null,
      table, h("p.hint", t("end.lower_note")), rematchBox);
  }

  async doRematch(btn) {
    btn.disabled = true;
    try {
      const opts = { ...((this.table && this.table.options) || {}) };
      const seats = (this.view.players || 2);
      const res = await post("/api/tables", { seats, options: opts });
      this.helpers.rememberInvite(res.id, res.invite_code);
      this.rematch = res;
      this.render();
    } catch (e) {
      showError(e);
      btn.disabled = false;
    }
  }
}

function shortLoc(id) {
  const full = t("loc." + id);
  return full.length > 11 ? full.slice(0, 10) + "." : full;
}

function filterName(f) {
  const [kind, id] = f.split(":");
  if (kind === "loc") return t("loc." + id);
  if (kind === "adv") return t("adv." + id);
  if (kind === "card") return t("card." + id);
  if (kind === "title") return t("title." + id);
  return id;
}

function beep() {
  try {
    const ctx = new (window.AudioContext || window.webkitAudioContext)();
    const o = ctx.createOscillator();
    const g = ctx.createGain();
    o.frequency.value = 660;
    g.gain.value = 0.08;
    o.connect(g).connect(ctx.destination);
    o.start();
    o.stop(ctx.currentTime + 0.18);
  } catch {}
}
