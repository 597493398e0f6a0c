// Entry point: routing, the profile, landing, lobby, solo and records screens.
import { t, setLang, initialLang, languages } from "/js/i18n.js";
import { h, clear } from "/js/dom.js";
import { api, get, post, del, ApiError } from "/js/api.js";
import { GameScreen } from "/js/game.js";
import { showError, setTurnBadge, SEAT_SYMBOLS, BOT_GLYPH, botLevelLabel, botLevelSelect } from "/js/ui.js";

const main = () => document.getElementById("main");
let screen = null; // the live screen object (has stop())

// ---------- profile ----------

export function profile() {
  try {
    return JSON.parse(localStorage.getItem("emara.profile") || "null");
  } catch {
    return null;
  }
}

function saveProfile(p) {
  localStorage.setItem("emara.profile", JSON.stringify({ id: p.id, name: p.name }));
  if (p.token) localStorage.setItem("emara.token", p.token);
  if (p.recovery_code) localStorage.setItem("emara.recovery", p.recovery_code);
}

async function ensureProfile(name) {
  const p = profile();
  name = (name || "").trim();
  if (p && (!name || name === p.name)) {
    try {
      const me = await get("/api/profiles/me");
      saveProfile({ ...me, token: null });
      return me;
    } catch (e) {
      if (!(e instanceof ApiError) || (e.status !== 401 && e.status !== 403 && e.status !== 404)) throw e;
      name = name || p.name;
    }
  }
  if (!name) throw new ApiError(0, "need_name", t("landing.need_name"));
  const created = await post("/api/profiles", { name });
  saveProfile(created);
  return created;
}

function nameField(onEnter) {
  const p = profile();
  const input = h("input", {
    id: "name-input",
    "data-testid": "name-input",
    type: "text",
    maxlength: "40",
    autocomplete: "nickname",
    placeholder: t("landing.name_placeholder"),
    value: p ? p.name : "",
    onkeydown: (e) => e.key === "Enter" && onEnter && onEnter(),
  });
  return h("div.field", h("label", { for: "name-input" }, t("landing.you")), input);
}

function currentName() {
  const el = document.getElementById("name-input");
  return el ? el.value : "";
}

// ---------- routing ----------

export function navigate(path) {
  history.pushState({}, "", path);
  route();
}

function link(path, text, attrs = {}) {
  return h("a", { href: path, ...attrs, onclick: (e) => { if (e.button === 0 && !e.metaKey && !e.ctrlKey) { e.preventDefault(); navigate(path); } } }, text);
}

async function route() {
  if (screen && screen.stop) screen.stop();
  screen = null;
  setTurnBadge(false);
  document.title = t("table.title");
  const path = location.pathname;
  const m = path.match(/^\/t\/([^/]+)\/?$/);
  renderHeader();
  try {
    if (path === "/" || path === "/index.html") await landing();
    else if (m) await tablePage(decodeURIComponent(m[1]), new URLSearchParams(location.search).get("invite"));
    else if (path === "/solo") await soloPage();
    else if (path === "/records") await recordsPage();
    else clear(main()).append(h("section.panel", h("p", t("err.page_not_found")), link("/", t("app.home"))));
  } catch (e) {
    showError(e);
  }
}

function renderHeader() {
  const hdr = clear(document.getElementById("top"));
  const sel = h(
    "select",
    { "aria-label": t("app.language"), onchange: async (e) => { await setLang(e.target.value); route(); } },
    languages().map((code) => h("option", { value: code, selected: code === document.documentElement.lang }, code.toUpperCase()))
  );
  hdr.append(
    link("/", h("span.brand", h("span.crown", { "aria-hidden": "true" }, "♛"), " ", t("app.title")), { class: "brand-link" }),
    h("nav", link("/records", t("app.records")), " ", link("/solo", t("landing.solo")), " ", sel)
  );
}

// ---------- landing ----------

async function landing() {
  const root = clear(main());
  const seatsSel = h("select", { id: "seats", "data-testid": "seats" }, [1, 2, 3, 4].map((n) => h("option", { value: n, selected: n === 2 }, String(n))));
  const startSel = h("select", { id: "start-player", "data-testid": "start-player" });
  const fillStart = () => {
    clear(startSel).append(h("option", { value: "random" }, t("landing.start_random")));
    for (let i = 0; i < Number(seatsSel.value); i++) startSel.append(h("option", { value: i }, t("landing.seat_n", { n: i + 1 })));
  };
  seatsSel.addEventListener("change", fillStart);
  fillStart();
  const bstart = h("input", { id: "building-start", "data-testid": "building-start", type: "number", min: "0", max: "80", placeholder: "35" });
  const check = (id) => h("input", { id, type: "checkbox", "data-testid": id });
  const rl = check("random-locations"), fs = check("full-selection"), sp = check("spectators");
  sp.checked = true;

  const create = async (btn) => {
    btn.disabled = true;
    try {
      await ensureProfile(currentName());
      const options = {
        random_locations: rl.checked,
        full_selection: fs.checked,
        spectators: sp.checked,
        start_player: startSel.value === "random" ? "random" : Number(startSel.value),
      };
      if (bstart.value !== "") options.building_start = Number(bstart.value);
      const tbl = await post("/api/tables", { seats: Number(seatsSel.value), options });
      rememberInvite(tbl.id, tbl.invite_code);
      navigate(`/t/${encodeURIComponent(tbl.id)}`);
    } catch (e) {
      showError(e);
    } finally {
      btn.disabled = false;
    }
  };
  const createBtn = h("button.primary", { "data-testid": "create-table", type: "button", onclick: (e) => create(e.currentTarget) }, "✚ ", t("landing.create"));

  const joinInput = h("input", { id: "join-link", "data-testid": "join-link", type: "url", placeholder: t("landing.join_placeholder") });
  const openJoin = () => {
    try {
      const u = new URL(joinInput.value.trim(), location.origin);
      if (!/^\/t\/[^/]+\/?$/.test(u.pathname)) throw new Error();
      navigate(u.pathname + u.search);
    } catch {
      showError(new ApiError(0, "bad_link", t("landing.join_bad")));
    }
  };

  const tablesBox = h("div.tables", h("p.muted", t("app.loading")));
  root.append(
    h("section.hero", h("h1", h("span.crown", { "aria-hidden": "true" }, "♛ "), t("app.title")), h("p.tagline", t("app.tagline"))),
    h(
      "div.landing-grid",
      h("section.panel", h("h2", t("landing.welcome")), nameField(), profile() ? h("p.muted", t("landing.playing_as", { name: profile().name })) : null),
      h(
        "section.panel",
        h("h2", t("landing.new_table")),
        h("div.form-grid",
          h("label", { for: "seats" }, t("landing.seats")), seatsSel,
          h("label", { for: "start-player" }, t("landing.start_player")), startSel,
          h("label", { for: "building-start" }, t("landing.building_start")), bstart
        ),
        h("p.hint", t("landing.building_start_hint")),
        h("div.checks",
          h("label", rl, " ", t("landing.random_locations")),
          h("label", fs, " ", t("landing.full_selection")),
          h("label", sp, " ", t("landing.spectators"))
        ),
        createBtn
      ),
      h("section.panel", h("h2", t("landing.join")), h("div.row", joinInput, h("button", { type: "button", "data-testid": "join-open", onclick: openJoin }, t("landing.join_open")))),
      h("section.panel", h("h2", t("landing.solo")), h("p", t("landing.solo_text")), link("/solo", t("landing.solo_open"), { class: "button", "data-testid": "solo-open" })),
      h("section.panel.wide", h("h2", t("landing.my_tables")), tablesBox)
    )
  );
  if (!profile()) {
    clear(tablesBox).append(h("p.muted", t("landing.no_tables")));
    document.getElementById("name-input").focus();
    return;
  }
  try {
    const res = await get("/api/tables");
    const list = Array.isArray(res) ? res : res.tables || [];
    clear(tablesBox);
    if (!list.length) tablesBox.append(h("p.muted", t("landing.no_tables")));
    const ul = h("ul.table-list");
    for (const tb of list) {
      const status = tb.status === "finished" ? t("landing.finished") : tb.status === "lobby" || tb.status === "open" ? t("landing.lobby") : t("landing.running");
      const names = (tb.seats || []).map((s) => seatName(s) || "—").join(", ");
      ul.append(h("li", h("span.status-" + (tb.status || "running"), status), " ", h("span", names), " ",
        link(`/t/${encodeURIComponent(tb.id)}`, tb.status === "finished" ? t("landing.view_result") : t("landing.continue"), { class: "button small" })));
    }
    if (list.length) tablesBox.append(ul);
  } catch (e) {
    clear(tablesBox).append(h("p.muted", e instanceof ApiError ? e.text : String(e)));
  }
}

export function rememberInvite(id, code) {
  if (!code) return;
  try {
    const all = JSON.parse(localStorage.getItem("emara.invites") || "{}");
    all[id] = code;
    localStorage.setItem("emara.invites", JSON.stringify(all));
  } catch {}
}

export function inviteFor(id) {
  try {
    return JSON.parse(localStorage.getItem("emara.invites") || "{}")[id] || null;
  } catch {
    return null;
  }
}

export function inviteUrl(id, code) {
  return `${location.origin}/t/${encodeURIComponent(id)}?invite=${encodeURIComponent(code)}`;
}

// ---------- table: lobby or game ----------

export function seatName(seat) {
  if (!seat) return null;
  if (seat.name) return seat.name;
  if (seat.bot_level !== undefined && seat.bot_level !== null) return t("lobby.bot_named", { level: botLevelLabel(seat.bot_level) });
  return seat.profile_name || (seat.profile && seat.profile.name) || (seat.bot ? t("lobby.bot") : null);
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

function tableUrl(id, invite) {
  return `/api/tables/${encodeURIComponent(id)}` + (invite ? `?invite=${encodeURIComponent(invite)}` : "");
}

async function tablePage(id, invite) {
  if (invite) rememberInvite(id, invite);
  invite = invite || inviteFor(id);
  let table;
  try {
    table = await get(tableUrl(id, invite));
  } catch (e) {
    if (e instanceof ApiError && (e.status === 401 || e.status === 403) && invite) table = null;
    else if (e instanceof ApiError && e.status === 404) {
      clear(main()).append(h("section.panel.lobby", h("h1", t("lobby.title", { id })),
        h("p", { "data-testid": "table-missing" }, invite ? t("err.bad_invite") : t("lobby.no_invite")), link("/", t("app.home"), { class: "button" })));
      showError(e);
      return;
    } else throw e;
  }
  if (lobbyStarted(table)) {
    screen = new GameScreen(main(), id, table, { navigate, profile, inviteUrl, rememberInvite, inviteFor, seatName, mySeatIn });
    await screen.start();
    return;
  }
  screen = new Lobby(id, invite, table);
  await screen.start();
}

const lobbyStarted = (tb) => !!(tb && tb.status && tb.status !== "lobby" && tb.status !== "open" && tb.status !== "waiting");

// The lobby listens on the table's socket: the server sends a `lobby` frame on hello and after
// every change (a seat taken or left, a bot, the start). Where no socket can be had (no profile
// yet, a table closed to spectators, the network gone) it reads the table over HTTP each time it
// tries the socket again.
class Lobby {
  constructor(id, invite, table) {
    this.id = id;
    this.invite = invite || inviteFor(id);
    this.table = table;
    this.ws = null;
    this.backoff = 500;
    this.timer = null;
    this.stopped = false;
    this.botChoice = {}; // seat -> the level picked for "Add a bot" (kept across re-renders)
    this.busy = false;
  }
  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    const ws = this.ws;
    this.ws = null;
    if (ws) try { ws.close(); } catch {}
  }
  async start() {
    this.render();
    this.connect();
  }
  connect() {
    if (this.stopped) return;
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const query = this.invite ? `?invite=${encodeURIComponent(this.invite)}` : "";
    let ws;
    try {
      ws = new WebSocket(`${proto}//${location.host}/ws/tables/${encodeURIComponent(this.id)}${query}`);
    } catch {
      this.retry();
      return;
    }
    this.ws = ws;
    ws.onopen = () => ws.send(JSON.stringify({ type: "hello", since: null }));
    ws.onmessage = (ev) => {
      let f;
      try {
        f = JSON.parse(ev.data);
      } catch {
        return;
      }
      if (f.type === "lobby" && f.table) {
        this.backoff = 500;
        this.update(f.table);
      } else if (f.type === "ping" && ws.readyState === 1) ws.send(JSON.stringify({ type: "pong" }));
    };
    ws.onerror = () => {};
    ws.onclose = () => {
      if (this.ws !== ws) return; // replaced (reconnect) or stopped
      this.ws = null;
      this.retry();
    };
  }
  retry() {
    if (this.stopped) return;
    this.poll();
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.connect(), this.backoff);
    this.backoff = Math.min(this.backoff * 2, 10000);
  }
  reconnect() {
    // The profile changed (the visitor just joined): a new socket carries it.
    const ws = this.ws;
    this.ws = null;
    if (ws) try { ws.close(); } catch {}
    this.backoff = 500;
    this.connect();
  }
  update(tb) {
    if (this.stopped) return;
    const changed = JSON.stringify(tb) !== JSON.stringify(this.table);
    this.table = tb;
    if (lobbyStarted(tb)) {
      this.stop();
      route();
      return;
    }
    if (changed) this.render();
  }
  async poll() {
    try {
      const tb = await get(tableUrl(this.id, this.invite));
      this.update(tb);
    } catch (e) {
      if (!(e instanceof ApiError) || e.code === "network") this.setNote(t("err.network"));
    }
  }
  setNote(text) {
    const n = document.getElementById("lobby-note");
    if (n) n.textContent = text;
  }
  render() {
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
          (s && s.host) || (s && s.host === undefined && i === 0) ? h("span.tag", t("lobby.host")) : null,
          hosting ? this.botTools(i, name, bot) : null
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
        )
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
    const go = async (btn) => {
      btn.disabled = true;
      try {
        await ensureProfile(currentName());
        await post(`/api/tables/${encodeURIComponent(this.id)}/join`, { invite_code: this.invite });
        this.update(await get(tableUrl(this.id, this.invite)));
        this.reconnect();
      } catch (e) {
        showError(e);
      } finally {
        btn.disabled = false;
      }
    };
    const btn = h("button.primary", { type: "button", "data-testid": "join-table", onclick: (e) => go(e.currentTarget) }, "✚ ", t("lobby.join"));
    return h("div.join-box", nameField(() => btn.click()), btn);
  }
  async startGame(btn) {
    btn.disabled = true;
    try {
      await post(`/api/tables/${encodeURIComponent(this.id)}/start`, {});
      if (!this.stopped) {
        // (the socket's lobby frame may have said so first)
        this.stop();
        route();
      }
    } catch (e) {
      showError(e);
      btn.disabled = false;
    }
  }
  async leave() {
    try {
      await post(`/api/tables/${encodeURIComponent(this.id)}/leave`, {});
      navigate("/");
    } catch (e) {
      showError(e);
    }
  }
}


// ---------- solo and records ----------

async function needProfile(then) {
  if (profile()) {
    try {
      await ensureProfile("");
      return then();
    } catch (e) {
      if (!(e instanceof ApiError) || e.code === "network") throw e;
    }
  }
  const root = clear(main());
  const go = async (btn) => {
    btn.disabled = true;
    try {
      await ensureProfile(currentName());
      await then();
    } catch (e) {
      showError(e);
      btn.disabled = false;
    }
  };
  const btn = h("button.primary", { type: "button", onclick: (e) => go(e.currentTarget) }, t("solo.continue"));
  root.append(h("section.panel", h("p", t("solo.need_name")), nameField(() => btn.click()), btn));
}

async function soloPage() {
  await needProfile(async () => {
    const { renderSolo } = await import("/js/solo.js");
    await renderSolo(clear(main()), (id) => navigate(`/t/${encodeURIComponent(id)}`));
  });
}

async function recordsPage() {
  await needProfile(async () => {
    const { renderRecords } = await import("/js/records.js");
    await renderRecords(clear(main()));
  });
}

// ---------- boot ----------

async function boot() {
  await setLang(initialLang());
  window.addEventListener("popstate", route);
  document.addEventListener("click", (e) => {
    const a = e.target.closest && e.target.closest("a[data-link]");
    if (a && e.button === 0 && !e.metaKey && !e.ctrlKey && a.origin === location.origin) {
      e.preventDefault();
      navigate(a.pathname + a.search);
    }
  });
  await route();
}

boot();
