// The lobby of a table: its seats (with the host's bot tools), options and invite link, "join"
// for a visitor with the invite code, "start" for the host. It listens on the table's socket: the
// server sends a `lobby` frame on hello and after every change (a seat taken or left, a bot, the
// start). Where no socket can be had (no profile yet, a table closed to spectators, the network
// gone) it reads the table over HTTP each time the socket tries again.
import { t } from "./i18n.js";
import { h, clear } from "./dom.js";
import { get, post, del, ApiError } from "./api.js";
import { showError } from "./notices.js";
import { BOT_GLYPH, SEAT_SYMBOLS, botLevelSelect, seatName } from "./pieces.js";
import { inviteFor, inviteUrl, rememberInvite } from "./invites.js";
import { profile, ensureProfile, nameField, currentName } from "./profile.js";
import { TableSocket, tableSocketUrl } from "./socket.js";
import { presenceDot, presenceMap } from "./presence.js"; // presence of each seat
import { describePace } from "./pace.js";
import { LobbyExtras } from "./people.js"; // play again: the table's name, invitations
import { seatMenu, removedPanel } from "./lobbypeople.js"; // report, block; the host's acts

const main = () => document.getElementById("main");

export function tableUrl(id, invite) {
  return `/api/tables/${encodeURIComponent(id)}` + (invite ? `?invite=${encodeURIComponent(invite)}` : "");
}

export function mySeatIn(table) {
  const p = profile();
  if (!p) return null;
  if (typeof table.my_seat === "number") return table.my_seat;
  if (typeof table.seat === "number") return table.seat;
  const seats = table.seats || [];
  for (let i = 0; i < seats.length; i++) {
    const s = seats[i];
    if (s && (s.profile_id === p.id || (s.profile && s.profile.id === p.id))) return typeof s.seat === "number" ? s.seat : i;
  }
  return null;
}

function isHost(table) {
  const p = profile();
  if (!p) return false;
  if (typeof table.host === "boolean") return table.host;
  if (table.is_host !== undefined) return !!table.is_host;
  const host = table.host_id ?? table.host_profile_id ?? (table.host && (table.host.id ?? table.host));
  if (host !== undefined && host !== null) return host === p.id;
  return mySeatIn(table) === 0;
}

export const lobbyStarted = (tb) => !!(tb && tb.status && tb.status !== "lobby" && tb.status !== "open" && tb.status !== "waiting");

export class Lobby {
  // `route()` shows the page again (the game once it started), `navigate(path)` goes elsewhere.
  constructor(id, invite, table, { route, navigate, signedOut = () => {} }) {
    this.route = route;
    this.signedOut = signedOut;
    this.navigate = navigate;
    this.id = id;
    this.invite = invite || inviteFor(id);
    this.table = table;
    this.stopped = false;
    this.socket = new TableSocket({
      url: () => tableSocketUrl(id, this.invite),
      onFrame: (f) => {
        if (f.type === "lobby" && f.table) this.update(f.table);
        else if (f.type === "presence") this.presenceChanged(f); // presence: who is here now
        else if (f.type === "error" && (f.error || f).code === "removed_from_table") this.removed();
      },
      // a socket refused or lost: read the table over HTTP each time it tries again
      onState: (state) => {
        if (state === "signed_out") this.signedOut();
        else if (state === "reconnecting" || state === "refused") this.poll();
      },
    });
    this.botChoice = {}; // seat -> the level picked for "Add a bot" (kept across re-renders)
    this.busy = false;
    this.extras = new LobbyExtras(id);
  }
  stop() {
    this.stopped = true;
    this.socket.stop();
  }
  async start() {
    this.render();
    this.socket.start();
  }
  reconnect() {
    // The profile changed (the visitor just joined): a new socket carries it.
    this.socket.reconnectNow();
  }
  update(tb) {
    if (this.stopped) return;
    const changed = JSON.stringify(tb) !== JSON.stringify(this.table);
    this.table = tb;
    if (lobbyStarted(tb)) {
      this.stop();
      this.route();
      return;
    }
    if (changed) this.render();
    else this.extras.heard(); // an answer to an invitation changes no seat
  }
  // A `presence` frame updates the seats' present / last_seen.
  presenceChanged(f) {
    if (this.stopped || !this.table) return;
    const here = presenceMap(f.seats);
    const seats = (this.table.seats || []).map((s) => (s && here.has(s.seat) ? { ...s, ...here.get(s.seat) } : s));
    this.update({ ...this.table, seats });
  }
  async poll() {
    try {
      const tb = await get(tableUrl(this.id, this.invite));
      this.update(tb);
    } catch (e) {
      if (e instanceof ApiError && e.code === "removed_from_table") this.removed();
      else if (!(e instanceof ApiError) || e.code === "network") this.setNote(t("err.network"));
    }
  }
  // The host removed this person: the table is gone for them (until invited again).
  removed() {
    if (this.stopped) return;
    this.stop();
    clear(main()).append(removedPanel(this.navigate));
  }
  setNote(text) {
    const n = document.getElementById("lobby-note");
    if (n) n.textContent = text;
  }
  render() {
    // A redraw rebuilds the lobby around the extras' box; a field focused in it (the table's
    // name being typed) keeps its focus and caret.
    const active = document.activeElement;
    const keep = active && this.extras.box.contains(active) ? active : null;
    const caret = keep && typeof keep.selectionStart === "number" ? [keep.selectionStart, keep.selectionEnd] : null;
    this.draw();
    if (keep && keep.isConnected && document.activeElement !== keep) {
      keep.focus();
      if (caret) keep.setSelectionRange(caret[0], caret[1]);
    }
  }
  draw() {
    const root = clear(main());
    const tb = this.table;
    if (!tb) {
      root.append(h("section.panel.lobby", h("h1", t("lobby.title", { id: this.id })), this.joinBox()));
      return;
    }
    if (tb.invite_code) rememberInvite(this.id, tb.invite_code), (this.invite = tb.invite_code);
    const mine = mySeatIn(tb);
    const seats = tb.seats || [];
    const nSeats = tb.seat_count || tb.seats_count || seats.length;
    const isTaken = (s) => !!(s && (s.taken || seatName(s)));
    const taken = seats.filter(isTaken).length;
    const hosting = mine !== null && isHost(tb);
    const seatList = h("ol.seat-list");
    for (let i = 0; i < nSeats; i++) {
      const s = seats.find((x) => x && x.seat === i) || seats[i];
      const name = isTaken(s) ? seatName(s) || t("lobby.bot") : null;
      const bot = s && s.bot_level ? s.bot_level : null;
      seatList.append(
        h("li", { class: (name ? "taken" : "open") + (bot ? " bot" : ""), "data-testid": "lobby-seat", "data-seat": i, "data-bot-level": bot },
          h("span.seat-token", { class: "seat" + i, "aria-hidden": "true" }, SEAT_SYMBOLS[i]),
          " ",
          name ? h("strong", bot ? h("span.bot-glyph", { "aria-hidden": "true" }, BOT_GLYPH, " ") : null, name) : h("span.muted", t("lobby.open_seat")),
          mine === i ? h("span.tag", t("lobby.you")) : null,
          s && s.name && "present" in s ? presenceDot(s, i) : null, // presence (also of a person a bot stands in for)
          (s && s.host) || (s && s.host === undefined && i === 0) ? h("span.tag", t("lobby.host")) : null,
          hosting ? this.botTools(i, name, bot) : null,
          s && s.name && !bot && mine !== i && profile() ? seatMenu(this, { seat: i, name: s.name, hosting, invite: mine === null ? this.invite : null }) : null
        )
      );
    }
    const opts = tb.options || {};
    const yn = (v) => (v ? t("opt.yes") : t("opt.no"));
    const optList = h("dl.options",
      h("dt", t("opt.building_start")), h("dd", opts.building_start ?? t("opt.building_start_auto")),
      h("dt", t("opt.random_locations")), h("dd", yn(opts.random_locations)),
      h("dt", t("opt.full_selection")), h("dd", yn(opts.full_selection)),
      h("dt", t("opt.spectators")), h("dd", yn(opts.spectators)),
      h("dt", t("opt.spectator_chat")), h("dd", yn(opts.spectator_chat)),
      h("dt", t("opt.undo")), h("dd", yn(opts.undo !== false)),
      h("dt", t("opt.public_replay")), h("dd", { "data-testid": "lobby-public-replay" }, yn(opts.public_replay)),
      h("dt", t("pace.label")), h("dd", { "data-testid": "lobby-pace" }, describePace(opts.pace)),
      h("dt", t("opt.start_player")), h("dd", opts.start_player === "random" || opts.start_player == null ? t("landing.start_random") : t("landing.seat_n", { n: Number(opts.start_player) + 1 }))
    );
    let inviteBox = null;
    if (this.invite) {
      const url = inviteUrl(this.id, this.invite);
      const input = h("input.invite", { "data-testid": "invite-link", readonly: true, value: url, "aria-label": t("lobby.invite"), onfocus: (e) => e.target.select() });
      const copy = h("button", {
        type: "button",
        onclick: async (e) => {
          const b = e.currentTarget;
          try { await navigator.clipboard.writeText(url); } catch { input.select(); document.execCommand && document.execCommand("copy"); }
          b.textContent = t("lobby.copied");
          setTimeout(() => (b.textContent = t("lobby.copy")), 1500);
        },
      }, t("lobby.copy"));
      inviteBox = h("div", h("h2", t("lobby.invite")), h("div.row", input, copy), h("p.hint", t("lobby.invite_hint")));
    }
    let action;
    if (mine === null) action = this.joinBox(taken >= nSeats);
    else if (isHost(tb)) {
      const ready = taken >= nSeats;
      action = h("div",
        h("button.primary", { type: "button", "data-testid": "start-game", disabled: !ready, onclick: (e) => this.startGame(e.currentTarget) }, "▶ ", t("lobby.start")),
        ready ? null : h("p.hint", { id: "lobby-note" }, t("lobby.waiting", { taken, seats: nSeats }))
      );
    } else {
      action = h("div", h("p", { id: "lobby-note" }, t("lobby.waiting_host")), h("button", { type: "button", "data-testid": "leave-table", onclick: () => this.leave() }, t("lobby.leave")));
    }
    root.append(
      h("section.panel.lobby", { "data-testid": "lobby" },
        h("h1", t("lobby.title", { id: tb.name || this.id })),
        h("div.lobby-grid",
          h("div", h("h2", t("lobby.seats")), seatList, action),
          h("div", inviteBox, h("h2", t("lobby.options")), optList)
        ),
        mine !== null ? this.extras.el(tb) : null
      )
    );
  }
  // The host's controls on a seat: "Add a bot" (with its level) on an open seat; on a bot's seat,
  // its level and "Remove".
  botTools(seat, name, bot) {
    const path = `/api/tables/${encodeURIComponent(this.id)}/seats/${seat}/bot`;
    if (bot) {
      const level = botLevelSelect(bot, {
        "data-testid": "bot-level-change",
        "data-seat": seat,
        disabled: this.busy,
        onchange: (e) => this.seatCall(() => post(path, { level: e.target.value })),
      });
      const remove = h("button.small", { type: "button", "data-testid": "remove-bot", "data-seat": seat, disabled: this.busy, onclick: () => this.seatCall(() => del(path)) }, "✕ ", t("bot.remove"));
      return h("span.seat-tools", level, remove);
    }
    if (name) return null;
    const level = botLevelSelect(this.botChoice[seat] || "greedy", {
      "data-testid": "bot-level",
      "data-seat": seat,
      disabled: this.busy,
      onchange: (e) => (this.botChoice[seat] = e.target.value),
    });
    const add = h("button.small", {
      type: "button",
      "data-testid": "add-bot",
      "data-seat": seat,
      disabled: this.busy,
      onclick: () => this.seatCall(() => post(path, { level: level.value })),
    }, BOT_GLYPH, " ", t("bot.add"));
    return h("span.seat-tools", level, add);
  }
  async seatCall(call) {
    if (this.busy) return;
    this.busy = true;
    this.render();
    let tb = null;
    try {
      tb = await call();
    } catch (e) {
      showError(e);
    } finally {
      this.busy = false;
    }
    if (this.stopped) return;
    if (tb && tb.seats) this.table = tb;
    this.render();
  }
  joinBox(full) {
    if (full) return h("p", t("lobby.full"));
    if (!this.invite) return h("p", t("lobby.no_invite"));
    const go = async (btn, anotherPerson = false) => {
      btn.disabled = true;
      try {
        const me = await ensureProfile(currentName());
        const body = anotherPerson ? { invite_code: this.invite, another_person: true } : { invite_code: this.invite };
        try {
          await post(`/api/tables/${encodeURIComponent(this.id)}/join`, body);
        } catch (e) {
          // Someone of this name sits here already: said, and a seat only as someone else.
          // Kept across the lobby's renders until the person chooses.
          if (!(e instanceof ApiError) || e.code !== "name_seated") throw e;
          this.nameSeated = { text: e.text, name: me.name };
          this.render();
          return;
        }
        this.nameSeated = null;
        this.update(await get(tableUrl(this.id, this.invite)));
        this.reconnect();
      } catch (e) {
        showError(e);
      } finally {
        btn.disabled = false;
      }
    };
    const seatedNote = () => [
      h("p.whoami-refused", { role: "alert", "data-testid": "join-name-seated" }, this.nameSeated.text),
      h("button", { type: "button", "data-testid": "join-another", onclick: (ev) => go(ev.currentTarget, true) }, t("whoami.seated.another", { name: this.nameSeated.name })),
    ];
    const btn = h("button.primary", { type: "button", "data-testid": "join-table", onclick: (e) => go(e.currentTarget) }, "✚ ", t("lobby.join"));
    return h("div.join-box", this.nameSeated ? seatedNote() : null, nameField(() => btn.click()), btn);
  }
  async startGame(btn) {
    btn.disabled = true;
    try {
      await post(`/api/tables/${encodeURIComponent(this.id)}/start`, {});
      if (!this.stopped) {
        // (the socket's lobby frame may have said so first)
        this.stop();
        this.route();
      }
    } catch (e) {
      showError(e);
      btn.disabled = false;
    }
  }
  async leave() {
    try {
      await post(`/api/tables/${encodeURIComponent(this.id)}/leave`, {});
      this.navigate("/");
    } catch (e) {
      showError(e);
    }
  }
}
