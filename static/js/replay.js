// The replay viewer (client route /r/{replay_id}): a finished game stepped through position by
// position, drawn by the table's own renderers (board.js, players.js, scorebar.js) from the
// position the server replays (GET /api/replays/{id}/positions/{n}?eyes=…), with the whole log
// in words beside it (GET /api/replays/{id}): the current move highlighted, every move a button
// that jumps to it. Steps: the slider, first/prev/next/last, ← → Home End. The URL keeps the
// position (/r/{id}?at=57, or #57), so a position can be linked.
//
// Another module may mount under the board (section.replay-analysis) and move the viewer with
// `currentReplay().goTo(n)`; every move of the viewer dispatches `emara:replay-position`
// ({detail: {n, positions}}) on that section.
import { t } from "./i18n.js";
import { h, clear } from "./dom.js";
import { get, ApiError } from "./api.js";
import { showError } from "./notices.js";
import { SEAT_SYMBOLS, botTag, seatName } from "./pieces.js";
import { describeEvent } from "./moves.js";
import { summaryText } from "./since.js";
import { renderStatus, renderRondels, renderLocations, renderSupply } from "./board.js";
import { renderScoreTrack, renderPlayers } from "./players.js";
import { renderScoreBar } from "./scorebar.js";
import { breakdownChart } from "./breakdown.js";
import { PHONE_QUERY, isPhone } from "./panels.js";

const enc = encodeURIComponent;
// The least time between two positions asked of the server (ms): 20 a second, within the
// server's replay read limit (EMARA_RATE_REPLAY_READ) while a person scrubs.
const STEP_MS = 50;
// Events that add nothing to a move's line when its summary is empty (log.js's quiet ones).
const QUIET = new Set(["turn_started", "turn_ended", "visit_closed", "card_action_taken", "cards_drawn", "advisor_revealed", "marker_advanced", "statue_passed", "deck_reshuffled", "favor_drawn", "favor_discarded"]);

let current = null;

// The viewer on screen (null when none): {goTo(n), position, positions, replayId}.
export function currentReplay() {
  return current;
}

// The position a URL asks for: ?at=57, else #57; null when none.
export function positionInUrl(loc = location) {
  const at = new URLSearchParams(loc.search).get("at");
  const raw = at !== null ? at : loc.hash.replace(/^#/, "");
  return /^\d{1,5}$/.test(raw) ? Number(raw) : null;
}

export function replayPath(id, n = null) {
  return `/r/${enc(id)}` + (n === null ? "" : `?at=${n}`);
}

// A link to a finished game's replay (the end screen, My games, the history).
export function replayLink(link, id, attrs = {}) {
  return link(replayPath(id), t("replay.open"), { class: "button small", "data-testid": "replay-link", ...attrs });
}

export class ReplayViewer {
  constructor(root, replayId, { link }) {
    this.root = root;
    this.replayId = replayId;
    this.link = link;
    this.replay = null; // GET /api/replays/{id}
    this.eyes = "all";
    this.position = 0;
    this.pos = null; // the position on screen
    this.cache = new Map(); // "eyes:n" -> position
    this.asked = 0; // the newest request: older answers are dropped
    this.lastFetch = -Infinity; // when a position was last asked of the server (performance.now)
    this.stopped = false;
    this.phone = isPhone();
    this.mq = typeof window.matchMedia === "function" ? window.matchMedia(PHONE_QUERY) : null;
    this.onLayout = () => { this.phone = isPhone(); this.draw(); };
    this.onKey = (e) => this.key(e);
    this.onPop = null;
    this.analysis = h("section.replay-analysis", { "data-testid": "replay-analysis", "aria-label": t("replay.analysis") });
  }

  get positions() { return this.replay ? this.replay.positions : 0; }

  async start() {
    current = this;
    clear(this.root).append(h("p.muted", t("app.loading")));
    document.addEventListener("keydown", this.onKey);
    if (this.mq) this.mq.addEventListener("change", this.onLayout);
    try {
      this.replay = await this.fetchAll();
    } catch (e) {
      // One message for one refusal: the page says it (no error toast besides).
      clear(this.root).append(h("section.panel", { "data-testid": "replay-missing" }, h("h1", t("replay.title")),
        h("p", { "data-testid": "replay-refusal" }, refusalText(e)), this.link("/games", t("mygames.title"), { class: "button" })));
      return;
    }
    document.title = t("replay.title") + " — " + t("app.title");
    this.build();
    const want = positionInUrl();
    await this.goTo(want === null ? 0 : want, { push: false });
  }

  // The replay comes in pages (offset, next_offset): one for a real game, more for a long one.
  async fetchAll() {
    const base = `/api/replays/${enc(this.replayId)}?eyes=all`;
    const first = await get(base);
    let next = first.next_offset;
    while (next !== null && next !== undefined) {
      const page = await get(`${base}&offset=${next}`);
      first.log = first.log.concat(page.log);
      first.tracks = first.tracks.concat(page.tracks);
      next = page.next_offset;
    }
    return first;
  }

  stop() {
    this.stopped = true;
    if (current === this) current = null;
    document.removeEventListener("keydown", this.onKey);
    if (this.mq) this.mq.removeEventListener("change", this.onLayout);
  }

  // ---------- what the table's renderers read (table.js's TableScreen, read-only) ----------

  get view() { return this.pos ? this.pos.view : null; }
  get legal() { return []; }
  get log() { return []; }
  get status() { return "finished"; }
  get table() { return null; }
  get version() { return this.position; }
  get mySeat() { return this.eyes === "all" ? null : Number(this.eyes); }
  get id() { return "replay:" + this.replayId; }
  get filter() { return null; }
  get wsState() { return "live"; }
  get state() { return { logMore: false }; }
  seat(seat) { return (this.replay.players || []).find((p) => p.seat === seat) || null; }
  nameOf(seat) { return seatName(this.seat(seat)) || t("landing.seat_n", { n: seat + 1 }); }
  botLevelOf(seat) { const p = this.seat(seat); return p && p.bot_level ? p.bot_level : null; }
  hasPlayer(seat) { const p = this.seat(seat); return !!(p && p.name); }
  botPlaysMe() { return false; }
  isHost() { return false; }
  isMyTurn() { return false; }
  legalInvolving() { return new Set(); }
  setFilter() {}
  mark(el) { return el; }
  render() { this.draw(); }
  nameWithBot(seat) {
    const level = this.botLevelOf(seat);
    return [h("strong", this.nameOf(seat)), level ? botTag(level, { compact: !this.hasPlayer(seat) }) : null];
  }
  who(seat) { return `${SEAT_SYMBOLS[seat] || ""} ${this.nameOf(seat)}`; }

  // ---------- moving ----------

  async goTo(n, { push = true } = {}) {
    if (!this.replay) return;
    n = Math.max(0, Math.min(this.positions - 1, Math.round(Number(n) || 0)));
    const ask = ++this.asked;
    this.position = n;
    this.updateControls();
    if (!this.cache.has(`${this.eyes}:${n}`)) {
      // Dragging the slider or holding an arrow key passes many positions a second: the server
      // is asked for the one the person stops at, at most one every STEP_MS, not every one passed.
      const wait = this.lastFetch + STEP_MS - performance.now();
      if (wait > 0) await new Promise((done) => setTimeout(done, wait));
      if (ask !== this.asked || this.stopped) return; // a newer step was asked for meanwhile
      this.lastFetch = performance.now();
    }
    let pos;
    try {
      pos = await this.fetchPosition(n, this.eyes);
    } catch (e) {
      showError(e);
      return;
    }
    if (ask !== this.asked || this.stopped) return; // a newer step was asked for meanwhile
    this.pos = pos;
    if (push) history.replaceState(history.state, "", replayPath(this.replayId, n));
    this.draw();
    this.analysis.dispatchEvent(new CustomEvent("emara:replay-position", { detail: { n, positions: this.positions }, bubbles: true }));
  }

  async fetchPosition(n, eyes) {
    const key = `${eyes}:${n}`;
    if (!this.cache.has(key)) {
      const p = get(`/api/replays/${enc(this.replayId)}/positions/${n}?eyes=${enc(eyes)}`);
      this.cache.set(key, p);
      p.catch(() => this.cache.delete(key));
    }
    return this.cache.get(key);
  }

  step(d) { return this.goTo(this.position + d); }

  key(e) {
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
    const tag = e.target && e.target.tagName;
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA" || (e.target && e.target.isContentEditable)) return;
    if (e.target && e.target.closest && e.target.closest("[role=tablist], details.profile-menu")) return;
    const to = { ArrowRight: this.position + 1, ArrowLeft: this.position - 1, Home: 0, End: this.positions - 1 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    this.goTo(to);
  }

  async setEyes(eyes) {
    this.eyes = eyes;
    await this.goTo(this.position);
  }

  // ---------- drawing ----------

  // The frame, built once: title, controls, the position's slot, the log.
  build() {
    const r = this.replay;
    const names = (r.players || []).map((p) => this.nameOf(p.seat)).join(", ");
    this.slider = h("input.replay-slider", {
      type: "range", min: "0", max: String(Math.max(0, r.positions - 1)), step: "1", value: "0",
      "aria-label": t("replay.slider"), "data-testid": "replay-slider",
      oninput: (e) => this.goTo(Number(e.target.value)),
    });
    const btn = (id, glyph, label, go) => h("button.replay-step", { type: "button", "data-testid": "replay-" + id, "aria-label": label, title: label, onclick: go }, h("span", { "aria-hidden": "true" }, glyph));
    this.buttons = {
      first: btn("first", "⇤", t("replay.first"), () => this.goTo(0)),
      prev: btn("prev", "◀", t("replay.prev"), () => this.step(-1)),
      next: btn("next", "▶", t("replay.next"), () => this.step(1)),
      last: btn("last", "⇥", t("replay.last"), () => this.goTo(this.positions - 1)),
    };
    this.counter = h("output.replay-counter", { "data-testid": "replay-position", "aria-live": "polite" });
    const eyes = h("select", { "data-testid": "replay-eyes", onchange: (e) => this.setEyes(e.target.value) },
      h("option", { value: "all", selected: this.eyes === "all" }, t("replay.eyes_all")),
      (r.players || []).map((p) => h("option", { value: String(p.seat), selected: this.eyes === String(p.seat) }, `${SEAT_SYMBOLS[p.seat]} ${this.nameOf(p.seat)}`)));
    const controls = h("div.replay-controls", { role: "group", "aria-label": t("replay.controls") },
      h("div.replay-buttons", this.buttons.first, this.buttons.prev, this.counter, this.buttons.next, this.buttons.last),
      this.slider,
      h("label.replay-eyes", t("replay.eyes"), " ", eyes),
      h("p.hint.replay-keys", t("replay.keys")));
    this.slot = h("div.replay-position", { "data-testid": "replay-board" });
    this.logList = h("ol.replay-log-list", { "data-testid": "replay-log" }, this.logItems());
    const log = h("section.replay-log", { "aria-labelledby": "replay-log-title" }, h("h2", { id: "replay-log-title" }, t("table.log")), this.logList);
    const finished = r.finished_at ? new Date(r.finished_at) : null;
    const head = h("header.replay-head",
      h("h1", t("replay.title"), r.name ? h("span.replay-name", " — ", r.name) : null),
      h("p.muted", names, finished && !Number.isNaN(finished.getTime()) ? " · " + finished.toLocaleDateString(document.documentElement.lang || undefined, { year: "numeric", month: "short", day: "numeric" }) : "", " · ",
        h("a", { href: `/api/tables/${enc(this.replayId)}/record`, download: `emara-${this.replayId}.json`, "data-testid": "replay-download" }, t("replay.download")),
        " · ", this.link("/records", t("records.import_link"), { "data-testid": "replay-import-link" })));
    clear(this.root).append(h("div.replay", { "data-testid": "replay" },
      head, controls,
      h("div.replay-main", h("div.replay-stage", this.slot, this.analysis), log)));
  }

  logItems() {
    const items = [h("li", { "data-position": "0" }, h("button.replay-move", { type: "button", onclick: () => this.goTo(0) }, h("span.replay-n", "0"), " ", t("replay.deal")))];
    for (const en of this.replay.log || []) {
      items.push(h("li", { "data-position": String(en.position), class: "seat" + en.seat },
        h("button.replay-move", { type: "button", onclick: () => this.goTo(en.position) },
          h("span.replay-n", String(en.position)), " ",
          h("span.seat-token", { class: "seat" + en.seat, "aria-hidden": "true" }, SEAT_SYMBOLS[en.seat] || ""), " ",
          moveWords(en, (seat) => this.nameOf(seat)))));
    }
    return items;
  }

  updateControls() {
    if (!this.slider) return;
    const n = this.position, last = this.positions - 1;
    this.slider.value = String(n);
    this.slider.setAttribute("aria-valuetext", t("replay.position", { n, of: last }));
    this.counter.textContent = t("replay.position", { n, of: last });
    this.buttons.first.disabled = this.buttons.prev.disabled = n <= 0;
    this.buttons.next.disabled = this.buttons.last.disabled = n >= last;
    for (const li of this.logList.querySelectorAll("li.current")) {
      li.classList.remove("current");
      li.firstChild.removeAttribute("aria-current");
    }
    const li = this.logList.querySelector(`li[data-position="${n}"]`);
    if (li) {
      li.classList.add("current");
      li.firstChild.setAttribute("aria-current", "step");
      const box = this.logList;
      // keep the current move in view inside the log's own scroll box (the page stays put)
      if (li.offsetTop < box.scrollTop || li.offsetTop + li.offsetHeight > box.scrollTop + box.clientHeight) {
        box.scrollTop = li.offsetTop - box.clientHeight / 2;
      }
    }
  }

  draw() {
    if (!this.pos || this.stopped || !this.slot) return;
    this.values = new Map();
    const status = renderStatus(this);
    const tools = status.querySelector(".tools"); // sound, notices, connection: a live table's
    if (tools) tools.remove();
    const move = this.pos.move;
    const said = move ? h("p.replay-said", { "data-testid": "replay-move" }, h("span.seat-token", { class: "seat" + move.seat, "aria-hidden": "true" }, SEAT_SYMBOLS[move.seat] || ""), " ", moveWords(move, (seat) => this.nameOf(seat))) : h("p.replay-said.muted", { "data-testid": "replay-move" }, t("replay.deal"));
    clear(this.slot).append(
      status, said,
      renderScoreBar(this),
      this.renderHands(),
      h("section.board", { "aria-label": t("phone.tab_board") }, renderRondels(this), renderLocations(this), renderSupply(this)),
      h("div.replay-side", renderScoreTrack(this), renderPlayers(this)),
      this.renderPoints());
    this.slot.dataset.position = String(this.position);
    this.slot.dataset.eyes = this.eyes;
  }

  // Where each player's points came from at this position: the final tracks (leftovers
  // counted) once the game is over, else the tracks so far (the view's public `points`).
  renderPoints() {
    const v = this.pos.view;
    const players = (v.outcome ? v.outcome.players : v.players_state || [])
      .map((p) => ({ seat: p.seat, cp: p.cp, bp: p.bp, points: p.points, name: this.nameOf(p.seat) }));
    return h("div.replay-points", { "data-testid": "replay-points" }, breakdownChart(players));
  }

  // The hands the chosen eyes see: everyone's (all open), or the one seat's own.
  renderHands() {
    const p = this.pos;
    const hands = p.hands ? p.hands : p.view.me ? [{ seat: this.mySeat, hand: p.view.me.hand || [] }] : [];
    if (!hands.length) return null;
    return h("section.replay-hands", { "data-testid": "replay-hands", "aria-labelledby": "replay-hands-title" },
      h("h2", { id: "replay-hands-title" }, p.hands ? t("replay.hands_all") : t("replay.hand_of", { name: this.nameOf(this.mySeat) })),
      h("ul.replay-hand-list", hands.map((x) => h("li", { "data-testid": "replay-hand", "data-seat": String(x.seat) },
        h("span.seat-token", { class: "seat" + x.seat, "aria-hidden": "true" }, SEAT_SYMBOLS[x.seat] || ""), " ",
        h("strong", this.nameOf(x.seat)), ": ",
        x.hand.length ? x.hand.map((c, i) => [i ? ", " : null, h("span.replay-card", { "data-card": c, title: t("cardtext." + c) }, t("card." + c))]) : h("span.muted", t("table.hand_empty"))))));
  }
}

// One move in words: the engine's summary of it, else its events (the table log's words).
function moveWords(entry, nameOf) {
  const said = (entry.summary || []).map((s) => summaryText(s, nameOf)).join(" ");
  if (said) return said;
  const words = (list) => list.map((e) => describeEvent(e, nameOf)).filter(Boolean);
  let events = words((entry.events || []).filter((e) => !QUIET.has(e.type)));
  if (!events.length) events = words((entry.events || []).filter((e) => e.type !== "turn_started"));
  return events.length ? events.join(" · ") : t("replay.move_quiet", { name: nameOf(entry.seat) });
}

export async function renderReplay(root, replayId, { link }) {
  const viewer = new ReplayViewer(root, replayId, { link });
  await viewer.start();
  return viewer;
}

// Why a replay cannot be shown, in words: not there or not mine (404, or an address that names
// no replay at all), else the refusal's own.
function refusalText(e) {
  if (e instanceof ApiError) return e.status === 404 || e.code === "malformed" ? t("replay.missing") : e.text;
  return t("err.generic", { message: e && e.message ? e.message : String(e) });
}
