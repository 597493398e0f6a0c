// The game log (every event, in words) and the "last move" line above the board. Each log line
// carries the version of its move (`data-version`): since.js marks the lines new since you looked.
// A taken-back turn reads as its event `moves_taken_back` ("Ada took back 2 moves").
import { t } from "/js/i18n.js";
import { h } from "/js/dom.js";
import { SEAT_SYMBOLS } from "/js/pieces.js";
import { describeEvent } from "/js/moves.js";

// What the latest move did, in words, so nobody misses the other side's turn.
export function renderLastMove(ts) {
  const entry = ts.log.length ? ts.log[ts.log.length - 1] : null;
  if (!entry || !Array.isArray(entry.events)) return null;
  // the whole latest turn (or decision) of the seat that moved last
  const entries = [];
  for (let i = ts.log.length - 1; i >= 0 && entries.length < 12; i--) {
    const en = ts.log[i];
    if (en.seat !== entry.seat || !Array.isArray(en.events)) break;
    entries.unshift(en);
    if (en.events.some((e) => e.type === "turn_started" && e.seat === entry.seat)) break;
  }
  const quiet = new Set(["turn_started", "turn_ended", "visit_closed", "card_action_taken", "cards_drawn", "advisor_revealed", "marker_advanced", "statue_passed", "deck_reshuffled", "favor_drawn", "favor_discarded"]);
  const events = entries.flatMap((en) => en.events).filter((e) => !quiet.has(e.type) && (e.seat === entry.seat || e.seat === undefined));
  const words = events.slice(-8).map((e) => describeEvent(e, (seat) => ts.nameOf(seat)));
  if (!words.length) return null;
  return h("div.last-move", { "data-testid": "last-move", role: "status", "aria-live": "polite" },
    typeof entry.seat === "number" ? h("span.seat-token", { class: "seat" + entry.seat }, SEAT_SYMBOLS[entry.seat], " ") : null,
    h("span", words.join(" · ")));
}

export function renderLog(ts) {
  // focusable: a long log scrolls, and keyboards must reach it
  const list = h("ol.log-list", { id: "log-list", "aria-live": "polite", tabindex: "0", "aria-label": t("table.log") });
  const entries = [];
  for (const entry of ts.log) {
    if (Array.isArray(entry.events)) for (const e of entry.events) entries.push({ ...e, version: entry.version });
    else if (entry.type) entries.push(entry);
    else if (entry.move) entries.push({ type: "move_made", seat: entry.seat, ...entry.move });
  }
  const latest = entries.length ? entries[entries.length - 1].version : null;
  const recent = entries.slice(-250);
  for (const e of recent) {
    list.append(h("li", { class: (e.version !== undefined && e.version === latest ? "new " : "") + (e.type === "round_started" ? "round" : ""), "data-version": e.version },
      e.seat !== undefined && e.seat !== null ? h("span.seat-token", { class: "seat" + e.seat }, SEAT_SYMBOLS[e.seat]) : null, " ",
      describeEvent(e, (seat) => ts.nameOf(seat))));
  }
  if (!recent.length) list.append(h("li.muted", t("table.log_empty")));
  return h("section.log", h("h2", t("table.log")), list);
}
