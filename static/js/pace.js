// Pace: the words for a table's pace (live with or without a chess clock, or turn-based with a
// deadline per move), the pace picker of the new-table form, and the clocks of the table screen.
//
// The server owns time. A clock (`clock` in the lobby, game, snapshot and update payloads) gives,
// for each seat whose time runs, the instant its time runs out (`deadline`, UTC); the page only
// counts down to that instant between two payloads, and every payload replaces the clock. The
// page never decides that time ran out: the server hands the seat to a bot and says so.
import { t } from "./i18n.js";
import { h } from "./dom.js";
import { post } from "./api.js";
import { showError } from "./notices.js";
import { SEAT_SYMBOLS } from "./pieces.js";

// The choices of the new-table form; `null` is the server's default (live, no clock).
export const PACE_CHOICES = [
  ["live:none", null],
  ["live:10+20", { mode: "live", clock: "10+20" }],
  ["live:20+30", { mode: "live", clock: "20+30" }],
  ["turn:1", { mode: "turn", hours: 1 }],
  ["turn:12", { mode: "turn", hours: 12 }],
  ["turn:24", { mode: "turn", hours: 24 }],
  ["turn:72", { mode: "turn", hours: 72 }],
];

// The pace in words: "Live, no clock", "Live, clock 10+20", "Turn-based, 24 hours per move".
export function describePace(pace) {
  if (pace && pace.mode === "turn") return t("pace.turn", { count: Number(pace.hours) || 24 });
  const clock = pace && pace.clock;
  if (!clock || clock === "none") return t("pace.live_none");
  const [min, inc] = String(clock).split("+");
  return t("pace.live_clock", { min, inc });
}

// The pace a clock payload belongs to (its preset is "10+20" or "24h").
function paceOfClock(clock) {
  if (clock.mode === "turn") return { mode: "turn", hours: Math.round(Number(clock.window) / 3600) };
  return { mode: "live", clock: clock.preset };
}

export function paceSelect(attrs = {}) {
  return h("select", attrs, PACE_CHOICES.map(([value, pace]) => h("option", { value }, describePace(pace))));
}

export function paceFromChoice(value) {
  const found = PACE_CHOICES.find(([v]) => v === value);
  return found ? found[1] : null;
}

// Seconds as the clock shows them: "4:07", "1:02:09", "2 days 3:05".
export function formatLeft(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  const two = (n) => String(n).padStart(2, "0");
  const d = Math.floor(s / 86400);
  const hh = Math.floor((s % 86400) / 3600);
  const mm = Math.floor((s % 3600) / 60);
  if (d > 0) return `${t("pace.days", { count: d })} ${hh}:${two(mm)}`;
  if (hh > 0) return `${hh}:${two(mm)}:${two(s % 60)}`;
  return `${mm}:${two(s % 60)}`;
}

// This device's clock may be off: the offset to the server's, estimated from an answer's `Date`
// header (whole seconds, so only an offset beyond 2 s is taken; below it the device's clock is
// as good as the estimate).
let offset = 0;
export function noteServerDate(dateHeader, sentAt, receivedAt) {
  const server = Date.parse(dateHeader || "");
  if (Number.isNaN(server) || receivedAt - sentAt > 2000) return;
  const estimate = server + 500 - (sentAt + receivedAt) / 2;
  offset = Math.abs(estimate) > 2000 ? estimate : 0;
}

// The seconds left until a server instant, now.
export function secondsUntil(iso) {
  return (Date.parse(iso) - (Date.now() + offset)) / 1000;
}

// A countdown to the server's instant: every element made here is refreshed by one ticker.
export function countdown(iso, attrs = {}) {
  const el = h("span.countdown", { ...attrs, "data-deadline": iso });
  paint(el);
  tick();
  return el;
}

function paint(el) {
  const left = secondsUntil(el.dataset.deadline);
  const text = formatLeft(left);
  if (el.textContent !== text) el.textContent = text;
  el.dataset.left = String(Math.max(0, Math.ceil(left)));
  el.classList.toggle("low", left < 60);
  el.classList.toggle("out", left <= 0);
}

let ticker = null;
function tick() {
  if (ticker !== null) return;
  ticker = setInterval(() => {
    const els = document.querySelectorAll("span.countdown[data-deadline]");
    if (!els.length) {
      clearInterval(ticker);
      ticker = null;
      return;
    }
    els.forEach(paint);
  }, 500);
}

// ---------- the table screen ----------

// The clocks strip of the table screen (null when the table plays without a clock). `ts` is the
// TableScreen: its `clock` (the last payload's), seats, the viewer's seat and host flag.
export function renderClocks(ts) {
  const clock = ts.clock;
  if (!clock || !Array.isArray(clock.seats)) return null;
  const finished = ts.status === "finished" || (ts.view && ts.view.phase === "finished");
  const list = h("ol.clock-seats");
  for (const c of clock.seats) {
    let time;
    if (c.timed_out && ts.botLevelOf(c.seat)) time = h("span.tag.timed-out", "⚠ ", t("pace.timed_out_tag"));
    else if (finished) time = null;
    else if (c.running && c.deadline) time = countdown(c.deadline, { "data-testid": "clock-time", "data-seat": c.seat });
    else if (clock.mode === "live") time = h("span.bank", { "data-testid": "clock-bank", "data-seat": c.seat }, formatLeft(c.bank));
    else time = null;
    list.append(
      h("li", { class: (c.running ? "running" : "") + (c.seat === ts.mySeat ? " mine" : ""), "data-testid": "clock-seat", "data-seat": c.seat },
        h("span.seat-token", { class: "seat" + c.seat, "aria-hidden": "true" }, SEAT_SYMBOLS[c.seat] || ""), " ",
        h("span.clock-name", ts.nameOf(c.seat)), " ", time)
    );
  }
  const strip = h("section.clocks", { "data-testid": "clocks", "data-mode": clock.mode, "data-paused": clock.paused ? "1" : null, "aria-label": t("pace.clocks") },
    h("span.clock-pace", "◷ ", describePace(paceOfClock(clock))),
    clock.paused ? h("span.tag.paused", { "data-testid": "clock-paused" }, "‖ ", t("pace.paused")) : null,
    list,
    !finished && clock.mode === "turn" && ts.isHost() ? vacationButton(ts, clock.paused) : null
  );
  const note = timeoutNotice(ts);
  return note ? h("div.pace", note, strip) : strip;
}

// "Your time ran out — a bot is playing your seat. Take it back."
function timeoutNotice(ts) {
  const clock = ts.clock;
  const mine = ts.mySeat;
  if (mine === null || !ts.botPlaysMe()) return null;
  const c = clock.seats.find((x) => x.seat === mine);
  if (!c || !c.timed_out || ts.status === "finished") return null;
  return h("div.timeout-note", { role: "alert", "data-testid": "timed-out" },
    h("span", t("pace.timed_out")), " ",
    h("button.primary", { type: "button", "data-testid": "timeout-reclaim", disabled: ts.seatBusy, onclick: () => ts.reclaim() }, "↩ ", t("pace.take_back")));
}

// The host's vacation: pause a turn-based table's clock, and start it again.
function vacationButton(ts, paused) {
  const go = async (btn) => {
    btn.disabled = true;
    try {
      ts.takeTable(await post(`/api/tables/${encodeURIComponent(ts.id)}/clock/${paused ? "resume" : "pause"}`, {}));
    } catch (e) {
      showError(e);
      btn.disabled = false;
    }
  };
  return h("button.small", { type: "button", "data-testid": paused ? "clock-resume" : "clock-pause", onclick: (e) => go(e.currentTarget) },
    paused ? "▶ " : "‖ ", t(paused ? "pace.resume" : "pace.pause"));
}
