// The score bar: every player's citizen points (CP), building points (BP) and score (the lower
// track) in one compact table that stays on screen, with whose turn it is. The lower track is
// marked by an underline and a ▼ (and the words "lower track" for screen readers), never by
// colour alone. A polite live region says in a short sentence whose points changed.
import { t } from "./i18n.js";
import { h } from "./dom.js";
import { BOT_GLYPH, seatToken } from "./pieces.js";
import { tracksOf, victoriaTracks } from "./tracks.js";

const LIVE_ID = "score-live";
let lastSaid = null; // {table, texts: Map(seat -> sentence)}

function liveRegion() {
  let el = document.getElementById(LIVE_ID);
  if (!el) {
    el = h("div.sr", { id: LIVE_ID, role: "status", "aria-live": "polite", "aria-atomic": "true", "data-testid": "score-live" });
    document.body.append(el);
  }
  return el;
}

// The rows the bar shows: the players in seat order, then Victoria (solo), CP only; after the
// end, the final tracks (tracks.js).
export function scoreRows(ts) {
  const v = ts.view;
  const rows = (v.players_state || []).map((p) => {
    const tr = tracksOf(v, p.seat);
    return { seat: p.seat, name: ts.nameOf(p.seat), bot: ts.botLevelOf(p.seat), cp: tr.cp, bp: tr.bp, score: tr.score, leftover: tr.leftover };
  });
  const vic = victoriaTracks(v);
  if (vic) rows.push({ seat: "v", name: t("table.victoria"), bot: null, cp: vic.cp, bp: null, score: vic.score, leftover: null });
  return rows;
}

function trackCell(row, track) {
  const val = row[track];
  if (val === null || val === undefined) return h("td.track", "—");
  const lower = row.bp !== null && (track === "cp" ? row.cp <= row.bp : row.bp <= row.cp);
  const key = row.seat === "v" ? "victoria:cp" : `player:${row.seat}:${track}`;
  return h("td.track", { class: lower ? "lower" : "", "data-key": key, "data-testid": "score-" + track },
    h("span.n", String(val)),
    lower ? h("span.low-mark", { "aria-hidden": "true", "data-tip": "table.tip_lower" }, "▼") : null,
    lower ? h("span.sr", " " + t("table.lower")) : null);
}

// Whose move it is: the seat whose turn it is, else the seats asked for a decision.
function actingSeats(v) {
  if (v.phase === "finished") return [];
  if (v.turn && v.phase === "turns") return [v.turn.seat];
  return v.to_act || [];
}

function sentence(row) {
  if (row.bp === null) return t("a11y.score_said_victoria", { name: row.name, cp: row.cp });
  return t("a11y.score_said", { name: row.name, cp: row.cp, bp: row.bp, score: row.score });
}

// Announce the players whose points changed since the last render of the same table.
function announce(ts, rows) {
  const texts = new Map(rows.map((r) => [String(r.seat), sentence(r)]));
  const prev = lastSaid && lastSaid.table === ts.id ? lastSaid.texts : null;
  lastSaid = { table: ts.id, texts };
  if (!prev) return;
  const changed = [...texts].filter(([k, s]) => prev.has(k) && prev.get(k) !== s).map(([, s]) => s);
  if (changed.length) liveRegion().textContent = changed.join(" ");
}

// A column's head explains itself (tooltips.js: hover, tap, keyboard focus): CP, BP, and the
// score as the lower of the two (the ▼).
function headCell(col, ...label) {
  return h("th", { scope: "col" },
    h("span.tip-label", { tabindex: "0", "data-tip": "table.tip_" + col, "data-tip-id": "score-head:" + col, "data-testid": "score-head-" + col }, ...label));
}

export function renderScoreBar(ts) {
  const v = ts.view;
  const rows = scoreRows(ts);
  const acting = actingSeats(v);
  liveRegion();
  announce(ts, rows);
  const body = rows.map((r) => {
    const now = acting.includes(r.seat);
    const cls = (now ? "now " : "") + (r.seat === ts.mySeat ? "me" : "");
    return h("tr", { class: cls, "data-seat": String(r.seat), "data-testid": "score-row", "aria-current": now ? "true" : null },
      h("th", { scope: "row" },
        h("span.turn-mark", { "aria-hidden": "true" }, now ? "▶" : ""),
        r.seat === "v" ? h("span.seat-token.seatv", { "aria-hidden": "true" }, "♕") : seatToken(r.seat),
        " ", h("span.pname", r.name),
        r.bot ? h("span.bot-glyph", { "aria-hidden": "true" }, " " + BOT_GLYPH) : null,
        now ? h("span.sr", " — " + t("a11y.their_turn")) : null),
      trackCell(r, "cp"),
      trackCell(r, "bp"),
      h("td.total", { "data-key": r.seat === "v" ? null : `player:${r.seat}:score`, "data-testid": "score-total" }, h("strong", String(r.score))));
  });
  return h("section.scorebar", { "data-testid": "scorebar", "aria-label": t("a11y.scorebar"), "data-key": "turn:seat" },
    h("table",
      h("caption.sr", t("a11y.scorebar_caption")),
      h("thead", h("tr",
        h("th", { scope: "col" }, h("span.sr", t("table.players"))),
        headCell("cp", t("table.cp")),
        headCell("bp", t("table.bp")),
        headCell("score", "= ", t("table.score")))),
      h("tbody", body)));
}
