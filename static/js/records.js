// The solo record sheet (client route /records): best score per building start value, the
// campaign games in order and the campaign's progress at a glance. Data: GET /api/profiles/me/solo.

import { get } from "./api.js";
import { lang, t } from "./i18n.js";
import { h as el, s as svg } from "./dom.js";
import { importBox } from "./recordimport.js";

// The rows of the printed score table; any other start value played is added in order.
export const SHEET_ROWS = [40, 35, 30, 25, 20, 15];

// The rows of the high-score table: the printed start values plus any other value played,
// highest (easiest) first, each with the best score or null.
export function highScoreRows(highScores) {
  const starts = new Set(SHEET_ROWS);
  for (const key of Object.keys(highScores || {})) starts.add(Number(key));
  return [...starts]
    .sort((a, b) => b - a)
    .map((start) => ({ start, score: highScores?.[String(start)] ?? null }));
}

function formatDate(iso, lang) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleDateString(lang || undefined, { year: "numeric", month: "short", day: "numeric" });
}

// A small chart: one dot per campaign game at its start value (lower is better), filled when won.
function progressChart(history, nextStart, t) {
  const points = history.map((g) => g.building_start);
  const all = [...points, nextStart];
  const hi = Math.max(...all, 40);
  const lo = Math.min(...all, 15);
  const width = Math.max(240, 36 * (all.length + 1));
  const height = 140;
  const pad = 24;
  const x = (i) => pad + (i * (width - 2 * pad)) / Math.max(1, all.length - 1);
  const y = (v) => pad + ((hi - v) * (height - 2 * pad)) / Math.max(1, hi - lo);
  const chart = svg("svg", {
    viewBox: `0 0 ${width} ${height}`,
    class: "records-chart",
    style: { maxWidth: `${Math.round(width * 1.6)}px` },
    role: "img",
    "aria-label": t("records.chart_label"),
  });
  for (const v of [hi, lo]) {
    chart.append(svg("line", { x1: pad, x2: width - pad, y1: y(v), y2: y(v), class: "grid" }));
    const label = svg("text", { x: 2, y: y(v) + 4, class: "axis" });
    label.textContent = String(v);
    chart.append(label);
  }
  const path = all.map((v, i) => `${i ? "L" : "M"}${x(i)},${y(v)}`).join(" ");
  chart.append(svg("path", { d: path, class: "trail" }));
  history.forEach((g, i) => {
    const dot = svg("circle", {
      cx: x(i),
      cy: y(g.building_start),
      r: 6,
      class: g.won ? "dot won" : "dot lost",
    });
    const title = svg("title");
    title.textContent = `${g.building_start}: ${g.score} – ${g.victoria_score}`;
    dot.append(title);
    chart.append(dot);
  });
  const next = svg("circle", { cx: x(all.length - 1), cy: y(nextStart), r: 6, class: "dot next" });
  const nextTitle = svg("title");
  nextTitle.textContent = t("records.next_start", { start: nextStart });
  next.append(nextTitle);
  chart.append(next);
  return chart;
}

// Builds the whole sheet for `data` (the GET /api/profiles/me/solo body).
export function renderSheet(data, t, lang) {
  const campaign = data.campaign;
  const history = campaign.history || [];

  const glance = el(
    "section",
    { class: "records-glance", "data-testid": "campaign-glance" },
    el("h2", { text: t("solo.campaign") }),
    el(
      "dl",
      {},
      el("dt", { text: t("records.next_start_label") }),
      el("dd", { "data-testid": "campaign-next", text: String(campaign.next_start) }),
      el("dt", { text: t("records.best_start_label") }),
      el("dd", {
        "data-testid": "campaign-best",
        text:
          campaign.best_start === null
            ? t("records.no_win_yet")
            : t("records.best_result", { start: campaign.best_start, score: campaign.best_score }),
      }),
      el("dt", { text: t("records.games_label") }),
      el("dd", {
        "data-testid": "campaign-count",
        text: t("records.games_count", {
          games: history.length,
          won: history.filter((g) => g.won).length,
        }),
      }),
    ),
    history.length ? progressChart(history, campaign.next_start, t) : null,
  );

  const highRows = highScoreRows(data.high_scores).map(({ start, score }) =>
    el(
      "tr",
      { "data-start": start },
      el("th", { scope: "row", text: String(start) }),
      el("td", { class: "num", text: score === null ? "" : String(score) }),
    ),
  );
  const highTable = el(
    "table",
    { class: "records-table", "data-testid": "high-scores" },
    el("caption", { text: t("records.high_caption") }),
    el(
      "thead",
      {},
      el(
        "tr",
        {},
        el("th", { scope: "col", text: t("records.start") }),
        el("th", { scope: "col", text: t("records.best_score") }),
      ),
    ),
    el("tbody", {}, highRows),
  );

  const campaignRows = history.map((g, i) =>
    el(
      "tr",
      { class: g.won ? "won" : "lost" },
      el("td", { class: "num", text: String(i + 1) }),
      el("td", { class: "num", text: String(g.building_start) }),
      el("td", { text: formatDate(g.date, lang) }),
      el("td", { class: "num", text: String(g.score) }),
      el("td", { class: "num", text: String(g.victoria_score) }),
      el("td", { text: g.won ? t("records.won") : t("records.lost") }),
    ),
  );
  const campaignTable = el(
    "table",
    { class: "records-table", "data-testid": "campaign-history" },
    el("caption", { text: t("records.campaign_caption") }),
    el(
      "thead",
      {},
      el(
        "tr",
        {},
        ...["records.game_no", "records.start", "records.date", "records.score", "records.victoria", "records.result"].map(
          (key) => el("th", { scope: "col", text: t(key) }),
        ),
      ),
    ),
    el(
      "tbody",
      {},
      campaignRows.length
        ? campaignRows
        : el("tr", {}, el("td", { colspan: 6, class: "empty", text: t("records.no_campaign") })),
    ),
  );

  const results = data.results || [];
  // each cell names its column (data-label): on a phone the rows are drawn as cards
  const resultRows = results.map((g) =>
    el(
      "tr",
      { class: g.won ? "won" : "lost" },
      el("td", { "data-label": t("records.date"), text: formatDate(g.date, lang) }),
      el("td", { "data-label": t("records.mode"), text: g.mode === "campaign" ? t("solo.campaign") : t("solo.highscore") }),
      el("td", { class: "num", "data-label": t("records.start"), text: String(g.building_start) }),
      el("td", { class: "num", "data-label": t("records.cp"), text: String(g.cp) }),
      el("td", { class: "num", "data-label": t("records.bp"), text: String(g.bp) }),
      el("td", { class: "num", "data-label": t("records.score"), text: String(g.score) }),
      el("td", { class: "num", "data-label": t("records.victoria"), text: String(g.victoria_score) }),
      el("td", { "data-label": t("records.result"), text: g.won ? t("records.won") : t("records.lost") }),
    ),
  );
  const resultTable = el(
    "table",
    { class: "records-table wide", "data-testid": "solo-results" },
    el("caption", { text: t("records.all_caption") }),
    el(
      "thead",
      {},
      el(
        "tr",
        {},
        ...[
          "records.date",
          "records.mode",
          "records.start",
          "records.cp",
          "records.bp",
          "records.score",
          "records.victoria",
          "records.result",
        ].map((key) => el("th", { scope: "col", text: t(key) })),
      ),
    ),
    el(
      "tbody",
      {},
      resultRows.length
        ? resultRows
        : el("tr", {}, el("td", { colspan: 8, class: "empty", text: t("records.none") })),
    ),
  );

  return el(
    "div",
    { class: "records" },
    el("h1", { text: t("records.title") }),
    glance,
    el("div", { class: "records-sheet" }, highTable, campaignTable),
    resultTable,
  );
}

// Route /records: fetch the sheet and draw it into `root`, with the import of a game record
// (the imported replay opens through `open`).
export async function renderRecords(root, open = (id) => location.assign(`/r/${encodeURIComponent(id)}`)) {
  root.replaceChildren(el("p", { class: "records-loading", text: t("app.loading") }));
  try {
    const data = await get("/api/profiles/me/solo");
    const sheet = renderSheet(data, t, lang());
    sheet.append(importBox(open));
    root.replaceChildren(sheet);
  } catch (e) {
    root.replaceChildren(el("p", { class: "records-error", role: "alert", text: e.text || String(e) }), importBox(open));
  }
}
