// The game log (every event, in words) and the "last move" banner above the board. Each log line
// carries the version of its move (`data-version`): since.js marks the lines new since you looked.
// A taken-back turn reads as its event `moves_taken_back` ("Ada took back 2 moves").
//
// The page holds the newest moves of the log (GET …/game?log_tail=) and draws the newest
// LOG_TAIL of those it holds: the moves that arrive meanwhile are held too, but a long game's log
// drawn whole would be drawn again on every move. "Show older moves" draws the held ones a page
// at a time, then reads the earlier ones from the server (GET …/log?before=), so the whole game
// can be read back; the lines it showed stay while the game goes on.
import { t } from "./i18n.js";
import { h } from "./dom.js";
import { get } from "./api.js";
import { SEAT_SYMBOLS } from "./pieces.js";
import { describeEvent } from "./moves.js";
import { beganText, gameOverText } from "./logend.js";

export const LOG_TAIL = 100; // moves the page asks for with the game
const LOG_PAGE = 100; // older moves read per click (the server's page is at most 200)

// Events that say nothing a player needs in the banner.
const QUIET = new Set(["turn_started", "turn_ended", "visit_closed", "card_action_taken", "cards_drawn", "advisor_revealed", "marker_advanced", "statue_passed", "deck_reshuffled", "favor_drawn", "favor_discarded"]);

// Each player's whole last turn: the events of that seat from its latest `turn_started` to its
// `turn_ended` (the turn under way, once something happened in it). What happens between turns
// (a round ending, an event card's gifts) belongs to nobody's turn. The game's very first turn
// began as the game started, before the first move, so its `turn_started` is in no log entry:
// a card played while no turn is open begins that player's turn (every turn begins with a card).
// Most recent turn first.
export function lastTurns(log) {
  const last = new Map(); // seat -> {seat, version, events}
  let current = null;
  const close = () => {
    if (current && current.events.length) last.set(current.seat, current);
    current = null;
  };
  for (const en of log) {
    if (!en || !Array.isArray(en.events)) continue;
    for (const e of en.events) {
      if (e.type === "turn_started" && typeof e.seat === "number") {
        close();
        current = { seat: e.seat, version: en.version, events: [] };
      } else if (!current && e.type === "card_played" && typeof e.seat === "number") {
        current = { seat: e.seat, version: en.version, events: [e] };
      } else if (e.type === "turn_ended") {
        if (current && current.seat === e.seat) current.version = en.version;
        close();
      } else if (current && (e.seat === current.seat || e.seat === undefined) && !QUIET.has(e.type)) {
        current.events.push(e);
        current.version = en.version;
      }
    }
  }
  close();
  return [...last.values()].sort((a, b) => b.version - a.version);
}

// The banner: one line per player, in that player's colour, with everything their last turn did.
// A phone shows its first two lines; a button opens it whole (and closes it again).
export function renderLastMove(ts) {
  const turns = lastTurns(ts.log);
  if (!turns.length) return null;
  const name = (seat) => ts.nameOf(seat);
  const open = !!(ts.phone && ts.bannerOpen);
  const banner = h("div.last-move", { class: open ? "open" : "", "data-testid": "last-move", role: "status", "aria-live": "polite", id: "last-move" },
    turns.map((turn) => h("p.last-turn", { class: "seat" + turn.seat, "data-testid": "last-turn", "data-seat": turn.seat },
      h("span.seat-token", { class: "seat" + turn.seat, "aria-hidden": "true" }, SEAT_SYMBOLS[turn.seat] || ""), " ",
      h("span", turn.events.map((e) => describeEvent(e, name)).join(" · ")))));
  if (!ts.phone) return banner;
  const toggle = h("button.small.last-move-toggle", {
    type: "button", "data-testid": "last-move-toggle", "aria-expanded": open ? "true" : "false", "aria-controls": "last-move",
    onclick: () => {
      ts.bannerOpen = !open;
      ts.render();
    },
  }, t(open ? "log.banner_less" : "log.banner_more"));
  return h("div.last-move-wrap", banner, toggle);
}

// Older moves, above the ones the page holds; the reader keeps their place in the list.
async function showOlder(ts) {
  const st = ts.state;
  const shown = firstShown(ts);
  if (shown > 0) {
    // held but not drawn: draw a page more of them, no request
    const place = fromBottom();
    ts.logFrom = st.log[movesBack(st.log, shown, LOG_PAGE)].version;
    redrawAt(ts, place);
    return;
  }
  const first = st.log.find((e) => typeof e.version === "number");
  if (!first || ts.logLoading) return;
  const place = fromBottom();
  ts.logLoading = true;
  ts.logFailed = false;
  ts.render();
  const q = new URLSearchParams({ before: String(first.version), limit: String(LOG_PAGE) });
  if (ts.inviteCode()) q.set("invite", ts.inviteCode());
  let entries = null;
  try {
    const r = await get(`/api/tables/${encodeURIComponent(ts.id)}/log?${q}`);
    entries = r.entries || [];
    st.addOlder(entries, !!r.more);
  } catch {
    ts.logFailed = true;
  }
  ts.logLoading = false;
  if (entries && st.log.length) ts.logFrom = st.log[0].version; // every held line drawn
  redrawAt(ts, place);
}

// The reader's place in the log, from its bottom: the lines added above push the list down.
function fromBottom() {
  const list = document.getElementById("log-list");
  return list ? list.scrollHeight - list.scrollTop : 0;
}

function redrawAt(ts, place) {
  ts.render();
  const after = document.getElementById("log-list");
  if (after) after.scrollTop = after.scrollHeight - place;
}

// Where the drawn lines begin in the held log: at `ts.logFrom` (a version) once the reader asked
// for older lines, else at the newest LOG_TAIL moves.
function firstShown(ts) {
  const log = ts.log;
  if (typeof ts.logFrom === "number") {
    const i = log.findIndex((e) => typeof e.version === "number" && e.version >= ts.logFrom);
    return i < 0 ? log.length : i;
  }
  return movesBack(log, log.length, LOG_TAIL);
}

// The index where the `count` moves (versions) held before index `end` begin.
function movesBack(log, end, count) {
  let seen = 0;
  let last;
  let i = end;
  while (i > 0) {
    const v = log[i - 1].version;
    if (v !== last) {
      if (seen === count) break;
      seen += 1;
      last = v;
    }
    i -= 1;
  }
  return i;
}

export function renderLog(ts) {
  // focusable: a long log scrolls, and keyboards must reach it
  const list = h("ol.log-list", { id: "log-list", "aria-live": "polite", tabindex: "0", "aria-label": t("table.log") });
  const entries = [];
  const first = firstShown(ts);
  for (const entry of ts.log.slice(first)) {
    if (Array.isArray(entry.events)) for (const e of entry.events) entries.push({ ...e, version: entry.version });
    else if (entry.type) entries.push(entry);
    else if (entry.move) entries.push({ type: "move_made", seat: entry.seat, ...entry.move });
  }
  const latest = entries.length ? entries[entries.length - 1].version : null;
  const nameOf = (seat) => ts.nameOf(seat);
  // who began, at the top once the log reaches back to the game's start
  const start = ts.view && ts.view.options ? ts.view.options.start_player : null;
  if (!ts.state.logMore && first === 0 && typeof start === "number") {
    list.append(h("li.round.began", { "data-testid": "log-began" },
      h("span.seat-token", { class: "seat" + start }, SEAT_SYMBOLS[start]), " ", beganText(start, nameOf)));
  }
  for (const e of entries) {
    const over = e.type === "game_finished";
    list.append(h("li", { class: (e.version !== undefined && e.version === latest ? "new " : "") + (e.type === "round_started" || over ? "round" : ""), "data-version": e.version, "data-testid": over ? "log-over" : null },
      e.seat !== undefined && e.seat !== null ? h("span.seat-token", { class: "seat" + e.seat }, SEAT_SYMBOLS[e.seat]) : null, " ",
      over ? gameOverText(e.outcome, nameOf) : describeEvent(e, nameOf)));
  }
  if (!entries.length && typeof start !== "number") list.append(h("li.muted", t("table.log_empty")));
  const older = ts.state.logMore || first > 0
    ? h("button.small.log-older", { type: "button", "data-testid": "log-older", disabled: !!ts.logLoading, onclick: () => showOlder(ts) }, t("log.older"))
    : null;
  const failed = ts.logFailed ? h("p.muted", { "data-testid": "log-older-error", role: "status" }, t("log.older_failed")) : null;
  return h("section.log", h("h2", t("table.log")), older, failed, list);
}
