// Analysis after the game, in the replay viewer (/r/{id}): the strong bot's estimate of every
// player's expected final score at every position (POST/GET /api/replays/{id}/analysis).
//
// Mounted into the viewer's empty `section.replay-analysis`: a button asks for the analysis; while
// the server works, a progress bar (the page asks again every few seconds, less often the longer it
// takes, and stops when the viewer is gone); then an SVG chart over the game, one line per player
// (colour and dash pattern), the viewer's position marked, a click on the chart moves the viewer
// there; the chart's text alternative names where each line starts, ends and peaks. Below it each
// player's costliest moves against the bot's choice (swings, measured well above their noise) and,
// apart, what chance did to them (luck: cards and tokens drawn, events and advisors turned up), in
// words, each a button that moves the viewer to that move.
import { t } from "./i18n.js";
import { h, s, clear } from "./dom.js";
import { get, post } from "./api.js";
import { showError } from "./notices.js";
import { SEAT_SYMBOLS } from "./pieces.js";
import { itemText } from "./since.js";
import { describeEvent, stableKey } from "./moves.js";

const enc = encodeURIComponent;
// Events that add nothing to a move's words (the table log's quiet ones).
const QUIET = new Set(["turn_started", "turn_ended", "visit_closed", "card_action_taken", "cards_drawn", "advisor_revealed", "marker_advanced", "statue_passed", "deck_reshuffled", "favor_drawn", "favor_discarded"]);
const POLL_FIRST_MS = 2000;
const POLL_MAX_MS = 15000;
// The chart's drawing box (the SVG scales to its width).
const W = 600;
const H = 220;
const PAD = { left: 34, right: 8, top: 10, bottom: 22 };

// A move in words without the mover's name: its summary items, else its events, else its kind.
export function moveText(entry, nameOf) {
  const items = (entry.summary || []).flatMap((sm) => (sm.items || []).map(itemText)).filter(Boolean);
  if (items.length) return items.join(", ");
  const events = (entry.events || []).filter((e) => !QUIET.has(e.type)).map((e) => describeEvent(e, nameOf)).filter(Boolean);
  if (events.length) return events.join(" · ");
  const kind = entry.move && entry.move.kind;
  return kind === "end_turn" ? t("analysis.end_turn") : kind === "end_visit" ? t("analysis.end_visit") : t("analysis.other_move");
}

function rounded(n) {
  return Math.round(Math.abs(n) * 10) / 10;
}

function points(n) {
  return rounded(n).toLocaleString(document.documentElement.lang || undefined);
}

// A measure's noise (its standard error) after its value: " (± 0.6)", nothing when it is 0.
function noiseText(se) {
  return se > 0 ? ` (± ${points(se)})` : "";
}

// One swing as a sentence: "Move 57: Ada's move cost about 6 points of expected final score
// (± 1) against the bot's choice. Played: hired Steward. The bot preferred: delivered bread."
export function swingText(seat, sw, nameOf) {
  const name = nameOf(seat);
  const cost = typeof sw.cost === "number" ? sw.cost : -sw.change;
  const head = t("analysis.swing_down", { n: sw.position, count: rounded(cost), name, points: points(cost), noise: noiseText(sw.noise || 0) });
  // The same card on another slot reads the same in words: then the slots are said too.
  const a = sw.played.move || {}, b = (sw.preferred && sw.preferred.move) || {};
  const slots = a.kind === "play_card" && b.kind === "play_card" && a.card === b.card && a.slot !== b.slot;
  const onSlot = (move) => (slots ? " " + t("analysis.on_slot", { n: move.slot }) : "");
  const played = t("analysis.played", { what: moveText(sw.played, nameOf) + onSlot(a) });
  let preferred = null;
  if (sw.preferred && stableKey(sw.preferred.move) === stableKey(sw.played.move)) preferred = t("analysis.agreed");
  else if (sw.preferred) preferred = t("analysis.preferred", { what: moveText(sw.preferred, nameOf) + onSlot(b) });
  return [head, played, preferred].filter(Boolean).join(" ");
}

// What chance did in a move, in words: the chance events of its log entry.
const CHANCE = [["event_revealed", "analysis.luck_event"], ["cards_drawn", "analysis.luck_cards"], ["favor_drawn", "analysis.luck_favor"], ["advisor_revealed", "analysis.luck_advisor"], ["deck_reshuffled", "analysis.luck_cards"], ["favor_pile_reshuffled", "analysis.luck_favor"]];
export function chanceText(entry) {
  const types = new Set((entry.events || []).map((e) => e.type));
  const said = [...new Set(CHANCE.filter(([type]) => types.has(type)).map(([, key]) => key))].map((key) => t(key));
  return said.length ? said.join(t("analysis.luck_and")) : t("analysis.luck_chance");
}

// One luck step as a sentence: "Move 88: the cards drawn raised Ada's expected final score by 4
// (± 1). Nobody's choice."
export function luckText(seat, lk, nameOf) {
  return t(lk.change < 0 ? "analysis.luck_down" : "analysis.luck_up", { n: lk.position, name: nameOf(seat), what: chanceText(lk.played), points: points(lk.change), noise: noiseText(lk.noise || 0) });
}

export class AnalysisPanel {
  // viewer: {replayId, position, positions, goTo(n), nameOf(seat), replay: {players}}
  constructor(section, viewer) {
    this.section = section;
    this.viewer = viewer;
    this.data = null;
    this.timer = null;
    this.delay = POLL_FIRST_MS;
    this.asking = false;
    this.gone = false;
    this.mode = "expected"; // what the chart draws: expected score, or "cp" / "bp"
    this.onPosition = (e) => this.mark(e.detail && typeof e.detail.n === "number" ? e.detail.n : viewer.position);
    section.addEventListener("emara:replay-position", this.onPosition);
  }

  get url() {
    return `/api/replays/${enc(this.viewer.replayId)}/analysis`;
  }

  async start() {
    try {
      this.data = await get(this.url);
    } catch (e) {
      clear(this.section); // nothing to analyse here (or not ours to see): no panel
      return;
    }
    this.draw();
    this.schedule();
  }

  stop() {
    this.gone = true;
    clearTimeout(this.timer);
    this.section.removeEventListener("emara:replay-position", this.onPosition);
  }

  running() {
    return this.data && (this.data.status === "queued" || this.data.status === "running");
  }

  // Ask again while the server works: politely, less often as it goes on.
  schedule() {
    clearTimeout(this.timer);
    if (!this.running() || this.gone) return;
    this.timer = setTimeout(() => this.poll(), this.delay);
    this.delay = Math.min(POLL_MAX_MS, Math.round(this.delay * 1.5));
  }

  async poll() {
    if (this.gone || !this.section.isConnected) return this.stop();
    if (document.hidden) return this.schedule();
    try {
      this.data = await get(this.url);
      this.draw();
    } catch {
      // a failed look is tried again at the next one
    }
    this.schedule();
  }

  async ask() {
    if (this.asking) return;
    this.asking = true;
    this.draw();
    try {
      this.data = await post(this.url);
      this.delay = POLL_FIRST_MS;
    } catch (e) {
      showError(e);
    }
    this.asking = false;
    this.draw();
    this.schedule();
  }

  nameOf(seat) {
    return this.viewer.nameOf(seat);
  }

  draw() {
    const d = this.data;
    if (!d) return;
    this.marker = this.legend = this.scale = null;
    const title = h("h2", { id: "analysis-title" }, t("analysis.title"));
    const parts = [title];
    if (d.status === "none" || d.status === "failed") {
      parts.push(h("p", { "data-testid": "analysis-intro" }, t(d.status === "failed" ? "analysis.failed" : "analysis.intro")));
      parts.push(h("button", { type: "button", "data-testid": "analysis-request", disabled: this.asking, onclick: () => this.ask() }, t(d.status === "failed" ? "analysis.retry" : "analysis.request")));
    }
    if (this.running()) {
      const label = t("analysis.progress", { done: d.done, total: d.total });
      parts.push(h("div.analysis-progress", { "data-testid": "analysis-progress" },
        h("progress", { max: String(d.total), value: String(d.done), "aria-labelledby": "analysis-progress-label" }),
        h("span", { id: "analysis-progress-label", role: "status" }, t(d.status === "queued" ? "analysis.queued" : "analysis.running"), " ", label)));
    }
    if (d.positions.length > 1) parts.push(this.chart());
    if (d.status === "done") parts.push(this.swings());
    clear(this.section).append(h("div.analysis", { "data-testid": "analysis", "data-status": d.status, "aria-labelledby": "analysis-title", role: "region" }, parts));
    this.mark(this.viewer.position);
  }

  // ---------- the chart ----------

  // What the chart draws: each player's expected final score (the analysis), or their CP or BP
  // as the game went (the replay's tracks): [{position, value: (seat) => number}].
  series() {
    if (this.mode === "cp" || this.mode === "bp") {
      const track = this.mode;
      return (this.viewer.replay.tracks || []).map((row, position) => ({
        position, value: (seat) => Number((row.find((p) => p.seat === seat && !p.victoria) || {})[track] || 0),
      }));
    }
    return this.data.positions.map((p) => ({ position: p.position, value: (seat) => p.expected[seat] }));
  }

  // Expected score, CP or BP: one group of radio buttons above the chart.
  modes() {
    const choices = [["expected", "analysis.show_expected"], ["cp", "table.cp"], ["bp", "table.bp"]];
    return h("fieldset.analysis-modes", { "data-testid": "analysis-modes" },
      h("legend", t("analysis.show")),
      choices.map(([mode, key]) => h("label", h("input", {
        type: "radio", name: "analysis-mode", value: mode, checked: this.mode === mode,
        "data-testid": "analysis-mode-" + mode,
        onchange: () => { this.mode = mode; this.draw(); },
      }), " ", t(key))));
  }

  chart() {
    const d = this.data;
    const rows = this.series();
    const players = (this.viewer.replay.players || []).map((p) => p.seat);
    const last = Math.max(1, d.total - 1);
    let lo = Infinity, hi = -Infinity;
    for (const p of rows) for (const seat of players) { const v = p.value(seat); lo = Math.min(lo, v); hi = Math.max(hi, v); }
    lo = Math.floor(lo / 5) * 5;
    hi = Math.max(lo + 5, Math.ceil(hi / 5) * 5);
    const x = (n) => PAD.left + (n / last) * (W - PAD.left - PAD.right);
    const y = (v) => PAD.top + (1 - (v - lo) / (hi - lo)) * (H - PAD.top - PAD.bottom);
    this.scale = { x, last };
    const grid = [];
    const step = hi - lo > 40 ? 20 : hi - lo > 20 ? 10 : 5;
    for (let v = lo; v <= hi; v += step) {
      grid.push(s("line", { class: "analysis-grid", x1: PAD.left, x2: W - PAD.right, y1: y(v), y2: y(v) }));
      grid.push(s("text", { class: "analysis-axis", x: PAD.left - 4, y: y(v) + 4, "text-anchor": "end" }, String(v)));
    }
    grid.push(s("text", { class: "analysis-axis", x: PAD.left, y: H - 6 }, "0"));
    grid.push(s("text", { class: "analysis-axis", x: W - PAD.right, y: H - 6, "text-anchor": "end" }, String(last)));
    const lines = players.map((seat) => s("polyline", {
      class: `analysis-line seat${seat}`, "data-seat": String(seat), fill: "none",
      points: rows.map((p) => `${x(p.position).toFixed(1)},${y(p.value(seat)).toFixed(1)}`).join(" "),
    }));
    this.marker = s("line", { class: "analysis-marker", y1: PAD.top, y2: H - PAD.bottom, x1: x(0), x2: x(0) });
    const svg = s("svg", { class: "analysis-chart",
      viewBox: `0 0 ${W} ${H}`, role: "img", "aria-labelledby": "analysis-chart-title analysis-chart-desc", "data-testid": "analysis-chart",
      onclick: (e) => this.clickChart(e, svg),
    }, s("title", { id: "analysis-chart-title" }, t(this.mode === "expected" ? "analysis.chart_title" : "analysis.chart_title_track", { track: t(this.mode === "cp" ? "table.cp" : "table.bp") })), grid, lines, this.marker);
    this.legend = h("ul.analysis-legend", { "data-testid": "analysis-legend" });
    const desc = h("p.analysis-desc.sr", { id: "analysis-chart-desc" }, this.description(players));
    return h("figure.analysis-figure", this.modes(), svg, desc, this.legend);
  }

  // The text alternative: each player's line in words.
  description(players) {
    const pos = this.series();
    const first = pos[0], lastPos = pos[pos.length - 1];
    return players.map((seat) => {
      let peak = first;
      for (const p of pos) if (p.value(seat) > peak.value(seat)) peak = p;
      return t("analysis.chart_line", { name: this.nameOf(seat), from: points(first.value(seat)), to: points(lastPos.value(seat)), at: lastPos.position, peak: points(peak.value(seat)), peak_at: peak.position });
    }).join(" ");
  }

  clickChart(e, svg) {
    const box = svg.getBoundingClientRect();
    if (!box.width || !this.scale) return;
    const fx = ((e.clientX - box.left) / box.width) * W;
    const n = Math.round(((fx - PAD.left) / (W - PAD.left - PAD.right)) * this.scale.last);
    this.viewer.goTo(Math.max(0, Math.min(this.scale.last, n)));
  }

  // The viewer's position on the chart, and each player's expected score there.
  mark(n) {
    if (!this.marker || !this.scale || !this.data) return;
    const px = this.scale.x(Math.min(n, this.scale.last));
    this.marker.setAttribute("x1", px);
    this.marker.setAttribute("x2", px);
    const here = this.series().find((p) => p.position === n);
    clear(this.legend).append(
      ...(this.viewer.replay.players || []).map((p) => h("li", { class: "seat" + p.seat, "data-seat": String(p.seat) },
        h("span.analysis-key", { class: "seat" + p.seat, "aria-hidden": "true" }),
        h("span.seat-token", { class: "seat" + p.seat, "aria-hidden": "true" }, SEAT_SYMBOLS[p.seat] || ""), " ",
        h("span", this.nameOf(p.seat)), here ? h("strong.analysis-value", " " + points(here.value(p.seat))) : null)),
      h("li.analysis-here", { "data-testid": "analysis-here" }, here ? t("analysis.at_position", { n }) : t("analysis.not_yet", { n })));
  }

  // ---------- the swings ----------

  swings() {
    const all = this.data.swings || [];
    const groups = all.filter((g) => g.swings.length);
    const lucky = all.filter((g) => (g.luck || []).length);
    const goTo = (n) => () => this.viewer.goTo(n);
    const nameOf = (seat) => this.nameOf(seat);
    const head = (seat) => h("h4", h("span.seat-token", { class: "seat" + seat, "aria-hidden": "true" }, SEAT_SYMBOLS[seat] || ""), " ", this.nameOf(seat));
    const costs = h("section.analysis-swings", { "aria-labelledby": "analysis-swings-title", "data-testid": "analysis-swings" },
      h("h3", { id: "analysis-swings-title" }, t("analysis.swings_title")),
      h("p.muted", t("analysis.swings_intro")),
      groups.length ? groups.map((g) => h("div.analysis-player", { class: "seat" + g.seat }, head(g.seat),
        h("ol.analysis-swing-list", g.swings.map((sw) => h("li",
          h("button.analysis-swing.down", {
            type: "button", "data-testid": "analysis-swing", "data-position": String(sw.position),
            onclick: goTo(sw.position),
          }, swingText(g.seat, sw, nameOf))))))) : h("p", { "data-testid": "analysis-no-swings" }, t("analysis.no_swings")));
    const luck = h("section.analysis-swings.analysis-luck", { "aria-labelledby": "analysis-luck-title", "data-testid": "analysis-luck" },
      h("h3", { id: "analysis-luck-title" }, t("analysis.luck_title")),
      h("p.muted", t("analysis.luck_intro")),
      lucky.length ? lucky.map((g) => h("div.analysis-player", { class: "seat" + g.seat }, head(g.seat),
        h("p", { "data-testid": "analysis-luck-total" }, t(g.luck_total < 0 ? "analysis.luck_total_down" : "analysis.luck_total_up", { name: this.nameOf(g.seat), count: rounded(g.luck_total), points: points(g.luck_total) })),
        h("ol.analysis-swing-list", g.luck.map((lk) => h("li",
          h("button.analysis-swing", {
            type: "button", "data-testid": "analysis-luck-step", "data-position": String(lk.position),
            class: lk.change < 0 ? "down" : "up",
            onclick: goTo(lk.position),
          }, luckText(g.seat, lk, nameOf))))))) : h("p", t("analysis.no_luck")));
    return h("div.analysis-findings", costs, luck);
  }
}

// Mount the panel into the viewer's analysis section; returns it (stop() when leaving).
export function mountAnalysis(section, viewer) {
  const panel = new AnalysisPanel(section, viewer);
  panel.start();
  return panel;
}
