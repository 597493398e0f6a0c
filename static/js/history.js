// My history (client route /history): my finished games, newest first, with my score and place
// and a link to each replay (more a page at a time), the average score by player count, my
// scores against Victoria by start value, and a chart of every score over time (SVG) with the
// same numbers as a table for screen readers and keyboards. Data: GET /api/profiles/me/history.
// A game a bot played my seat in (part or all of it) is marked in the list, and the figures leave
// it out unless I tick "count games a bot played for me" (remembered on this device).
import { t } from "./i18n.js";
import { h, s, clear } from "./dom.js";
import { get } from "./api.js";
import { showError } from "./notices.js";
import { SEAT_SYMBOLS, seatName } from "./pieces.js";
import { replayLink } from "./replay.js";
import { PHONE_QUERY } from "./panels.js";

const PAGE = 20;
const WITH_BOTS = "emara.history.with_bots";

function withBots() {
  try {
    return localStorage.getItem(WITH_BOTS) === "1";
  } catch {
    return false;
  }
}

function rememberWithBots(on) {
  try {
    if (on) localStorage.setItem(WITH_BOTS, "1");
    else localStorage.removeItem(WITH_BOTS);
  } catch {
    // private mode: the choice lasts for this page
  }
}

function formatDate(iso) {
  const d = iso ? new Date(iso) : null;
  if (!d || Number.isNaN(d.getTime())) return "—";
  return d.toLocaleDateString(document.documentElement.lang || undefined, { year: "numeric", month: "short", day: "numeric" });
}

function playersWord(n) {
  return n === 1 ? t("history.solo") : t("history.n_players", { n });
}

export async function renderHistory(root, { link }, bots = withBots()) {
  if (!root.firstChild) root.append(h("p.muted", t("app.loading")));
  const q = bots ? "&with_bots=true" : "";
  let data;
  try {
    data = await get(`/api/profiles/me/history?limit=${PAGE}${q}`);
  } catch (e) {
    clear(root).append(h("section.panel.history", h("h1", t("history.title")), h("p.muted", t("history.failed"))));
    showError(e);
    return;
  }
  const games = data.games.slice();
  let next = data.next_offset;
  const list = h("tbody");
  const more = h("button.small", { type: "button", "data-testid": "history-more" });
  const addRows = (rows) => list.append(...rows.map((g) => gameRow(g, link)));
  addRows(games);
  more.addEventListener("click", async () => {
    if (next === null) return;
    more.disabled = true;
    try {
      const page = await get(`/api/profiles/me/history?limit=${PAGE}&offset=${next}${q}`);
      addRows(page.games);
      next = page.next_offset;
      if (next === null) more.remove();
    } catch (e) {
      showError(e);
    }
    more.disabled = false;
  });
  const section = h("section.panel.history", { "data-testid": "history" },
    h("h1", t("history.title")),
    h("p.muted", { "data-testid": "history-total" }, t("history.total", { count: data.total }), " · ", link("/games", t("mygames.title"))));
  if (!data.total) {
    section.append(h("p", { "data-testid": "history-empty" }, t("history.empty")), link("/", t("mygames.new_table"), { class: "button small" }));
    clear(root).append(section);
    return;
  }
  if (data.bot_games) {
    const box = h("input", { type: "checkbox", checked: bots, "data-testid": "history-with-bots",
      onchange: () => { rememberWithBots(box.checked); renderHistory(root, { link }, box.checked); } });
    section.append(h("div.history-bots", { "data-testid": "history-bots" },
      h("p", t(bots ? "history.bots_counted" : "history.bots_left_out", { count: data.bot_games })),
      h("label", box, " ", t("history.with_bots"))));
  }
  const counted = data.timeline.length > 0;
  section.append(
    counted ? h("div.history-summary",
      averages(data.by_players),
      data.victoria.length ? victoria(data.victoria) : null) : h("p", { "data-testid": "history-nothing-counted" }, t("history.nothing_counted")),
    counted ? chart(data.timeline) : null,
    h("section.history-games", { "aria-labelledby": "history-games-title" },
      h("h2", { id: "history-games-title" }, t("history.games")),
      h("div.history-table-wrap",
        h("table.history-table", { "data-testid": "history-games" },
          h("thead", h("tr", ["history.date", "history.players", "history.score", "history.rank", "history.replay"].map((k) => th(k, k === "history.score")))),
          list)),
      next !== null ? h("p", more) : null));
  more.textContent = t("history.more");
  clear(root).append(section);
}

function th(key, num) {
  return h("th", { scope: "col", class: num ? "num" : null }, t(key));
}

function gameRow(g, link) {
  const names = (g.seats || []).map((p, i) => [i ? ", " : null, h("span", { class: p.seat === g.my_seat ? "me" : null }, SEAT_SYMBOLS[p.seat] || "", " ", seatName(p) || t("landing.seat_n", { n: p.seat + 1 }))]);
  let place = t("mygames.place", { place: g.rank, of: g.of });
  if (g.won === true) place = t("mygames.solo_won");
  else if (g.won === false) place = t("mygames.solo_lost");
  return h("tr", { "data-testid": "history-game", "data-replay": g.replay_id, class: g.rank === 1 ? "first" : null },
    h("td", formatDate(g.finished_at)),
    h("td", g.name ? h("strong", g.name, " ") : null, h("span.muted", playersWord(g.players), g.building_start !== null ? " · " + t("history.start", { start: g.building_start }) : "", ": "), names,
      g.bot_played ? [" ", botMark(g)] : null),
    h("td.num", { "data-testid": "history-score" }, h("strong", String(g.score))),
    h("td", place),
    h("td", replayLink(link, g.replay_id)));
}

// "Bot": a bot played my seat in this game; the title says how much.
function botMark(g) {
  const said = g.bot_moves > 0 ? t("history.bot_moves", { bot: g.bot_moves, moves: g.my_moves }) : t("history.bot_held");
  return h("span.history-bot", { "data-testid": "history-bot-played" },
    h("span.history-bot-tag", t("history.bot_mark")), " ", h("span.history-bot-said", said));
}

function averages(rows) {
  return h("section.history-box", { "aria-labelledby": "history-avg-title" },
    h("h2", { id: "history-avg-title" }, t("history.by_players")),
    h("table.history-table", { "data-testid": "history-averages" },
      h("thead", h("tr", ["history.players", "history.games_n", "history.average", "history.best", "history.wins"].map((k, i) => th(k, i > 0)))),
      h("tbody", rows.map((r) => h("tr", { "data-players": String(r.players) },
        h("th", { scope: "row" }, playersWord(r.players)),
        h("td.num", String(r.games)),
        h("td.num", { "data-testid": "history-average" }, r.average_score.toLocaleString(document.documentElement.lang || undefined, { maximumFractionDigits: 1 })),
        h("td.num", String(r.best_score)),
        h("td.num", String(r.wins)))))));
}

function victoria(rows) {
  return h("section.history-box", { "aria-labelledby": "history-vic-title" },
    h("h2", { id: "history-vic-title" }, t("history.victoria")),
    h("p.hint", t("history.victoria_hint")),
    h("table.history-table", { "data-testid": "history-victoria" },
      h("thead", h("tr", ["history.start_value", "history.games_n", "history.won", "history.best", "history.average"].map((k, i) => th(k, i > 0)))),
      h("tbody", rows.map((r) => h("tr", { "data-start": String(r.building_start) },
        h("th", { scope: "row" }, String(r.building_start)),
        h("td.num", String(r.games)),
        h("td.num", String(r.won)),
        h("td.num", String(r.best_score)),
        h("td.num", r.average_score.toLocaleString(document.documentElement.lang || undefined, { maximumFractionDigits: 1 })))))));
}

// Every score in order: one dot per game (its shape by player count), a line through them. The
// picture is hidden from screen readers: the table in the <details> below says the same.
function chart(points) {
  const narrow = typeof window.matchMedia === "function" && window.matchMedia(PHONE_QUERY).matches;
  const W = narrow ? 360 : 640, H = narrow ? 200 : 220, L = 36, R = 12, T = 12, B = 28;
  const max = Math.max(10, ...points.map((p) => p.score));
  const top = Math.ceil(max / 10) * 10;
  const x = (i) => L + (points.length > 1 ? (i * (W - L - R)) / (points.length - 1) : (W - L - R) / 2);
  const y = (v) => T + ((top - v) * (H - T - B)) / top;
  const svg = s("svg", { viewBox: `0 0 ${W} ${H}`, class: "history-chart", "aria-hidden": "true", focusable: "false", "data-testid": "history-chart" });
  for (let v = 0; v <= top; v += top > 50 ? 20 : 10) {
    svg.append(s("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), class: "grid" }));
    svg.append(s("text", { x: L - 6, y: y(v) + 4, class: "axis", "text-anchor": "end" }, String(v)));
  }
  if (points.length > 1) svg.append(s("path", { d: points.map((p, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(p.score).toFixed(1)}`).join(" "), class: "trail" }));
  points.forEach((p, i) => {
    const cls = "dot p" + p.players + (p.rank === 1 ? " first" : "");
    const dot = p.players === 1
      ? s("rect", { x: x(i) - 5, y: y(p.score) - 5, width: 10, height: 10, class: cls })
      : s("circle", { cx: x(i), cy: y(p.score), r: 5.5, class: cls });
    svg.append(dot);
  });
  svg.append(s("text", { x: L, y: H - 6, class: "axis" }, formatDate(points[0] && points[0].finished_at)));
  svg.append(s("text", { x: W - R, y: H - 6, class: "axis", "text-anchor": "end" }, formatDate(points.length ? points[points.length - 1].finished_at : null)));
  const legend = h("p.hint.history-legend", h("span.legend-sq", { "aria-hidden": "true" }, "■"), " ", t("history.solo"), " · ", h("span.legend-dot", { "aria-hidden": "true" }, "●"), " ", t("history.multi"), " · ", t("history.first_filled"));
  const alt = h("details.history-alt",
    h("summary", t("history.chart_table")),
    h("table.history-table", { "data-testid": "history-chart-table" },
      h("caption.sr", t("history.chart_title")),
      h("thead", h("tr", ["history.date", "history.players", "history.score", "history.rank"].map((k, i) => th(k, i > 1)))),
      h("tbody", points.map((p) => h("tr", h("td", formatDate(p.finished_at)), h("td", playersWord(p.players)), h("td.num", String(p.score)), h("td.num", String(p.rank)))))));
  return h("section.history-box.history-chart-box", { "aria-labelledby": "history-chart-title" },
    h("h2", { id: "history-chart-title" }, t("history.chart_title")),
    h("p.sr", t("history.chart_said", { count: points.length, best: Math.max(...points.map((p) => p.score)), last: points.length ? points[points.length - 1].score : 0 })),
    svg, legend, alt);
}
