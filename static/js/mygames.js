// My games (client route /games): every table I sit at, as GET /api/me/tables lists them — where
// it is my turn first (with the time I have left), then the games waiting for others, the tables
// not started yet, and finished games last with my result (the newest twenty; older ones a page
// at a time on request). It follows the waiting.js feed, so it changes as soon as something
// happens at one of the tables.
import { t } from "./i18n.js";
import { h, clear } from "./dom.js";
import { BOT_GLYPH, SEAT_SYMBOLS } from "./pieces.js";
import { countdown, describePace, formatLeft } from "./pace.js";
import { onMyTables, refresh } from "./waiting.js";
import { invitationsBox } from "./invitations.js";
import { get } from "./api.js";

const GROUPS = ["your_turn", "playing", "lobby", "finished"];
const PAGE = 20; // older finished games read per click (GET /api/me/tables/finished)

// `link(path, text, attrs)` makes an in-app link. Returns the screen (its stop() ends listening).
export function renderMyGames(root, { link, navigate }) {
  const box = h("div.mygames-groups", h("p.muted", t("app.loading")));
  const invitations = invitationsBox({ navigate }); // invitations waiting for my answer
  clear(root).append(h("section.panel.mygames", { "data-testid": "my-games" }, h("h1", t("mygames.title")), invitations.el, box));
  // The first answer comes from the waiting.js feed (and is replaced on every change); older
  // finished games are read here, page by page, and kept below it.
  const older = { tables: [], next: undefined, loading: false, failed: false };
  let latest = null;
  const redraw = () => latest && show(box, latest, link, older, more);
  async function more() {
    const after = older.next !== undefined ? older.next : latest && latest.finished_next;
    if (!after || older.loading) return;
    older.loading = true;
    older.failed = false;
    redraw();
    try {
      const page = await get(`/api/me/tables/finished?after=${encodeURIComponent(after)}&limit=${PAGE}`);
      older.tables = older.tables.concat(page.tables || []);
      older.next = page.next;
    } catch {
      older.failed = true;
    }
    older.loading = false;
    redraw();
  }
  const stop = onMyTables((answer) => { latest = answer; redraw(); });
  refresh();
  return { stop: () => (stop(), invitations.stop()) };
}

function show(box, answer, link, older, more) {
  const first = Array.isArray(answer.tables) ? answer.tables : [];
  const known = new Set(first.map((x) => x.id));
  const tables = first.concat(older.tables.filter((x) => !known.has(x.id)));
  const next = older.next !== undefined ? older.next : answer.finished_next;
  clear(box);
  if (!tables.length) {
    box.append(h("p.muted", { "data-testid": "my-games-empty" }, t("mygames.empty"), " "), link("/", t("mygames.new_table"), { class: "button small" }));
    return;
  }
  for (const group of GROUPS) {
    const rows = tables.filter((x) => x.group === group);
    if (!rows.length) continue;
    const section = h("section.mygames-group", { "data-testid": "my-games-group", "data-group": group },
      h("h2", t("mygames.group." + group, { count: rows.length })),
      h("ul.table-list", rows.map((x) => row(x, link))));
    if (group === "finished") section.append(h("p.mygames-history", link("/history", t("history.link"), { "data-testid": "history-link-games" })));
    if (group === "finished" && next) {
      section.append(h("p.mygames-more",
        h("button.small", { type: "button", "data-testid": "my-games-more", disabled: older.loading, onclick: more }, older.loading ? t("app.loading") : t("mygames.more_finished")),
        older.failed ? h("span.muted", { role: "status" }, " ", t("mygames.more_failed")) : null));
    }
    box.append(section);
  }
}

function row(x, link) {
  const names = (x.names || []).map((n, i) =>
    h("span.mg-name", { class: i === x.my_seat ? "me" : null }, SEAT_SYMBOLS[i] || "", " ", n === null || n === undefined ? "—" : n));
  const words = [];
  for (let i = 0; i < names.length; i++) words.push(i ? ", " : null, names[i]);
  const path = `/t/${encodeURIComponent(x.id)}`;
  const go = x.group === "finished" ? t("mygames.view_result") : x.my_turn ? t("mygames.play") : t("mygames.open");
  return h("li.mygames-row", { "data-testid": "my-game", "data-table": x.id, "data-group": x.group, class: x.my_turn ? "my-turn" : null },
    x.name ? h("strong.mg-title", { "data-testid": "my-game-name" }, x.name) : null,
    h("span.mg-names", words),
    h("span.muted.mg-pace", describePace(x.pace)),
    x.my_seat_bot ? h("span.tag.bot", { "data-testid": "my-game-bot" }, BOT_GLYPH, " ", t("mygames.bot_plays")) : null,
    timeLeft(x),
    x.result ? result(x.result) : null,
    link(path, go, { class: x.my_turn ? "button small primary" : "button small", "data-testid": "my-game-open" }),
    x.group === "finished" ? link(`/r/${encodeURIComponent(x.id)}`, t("replay.open"), { class: "button small", "data-testid": "replay-link" }) : null);
}

// The time I have left: ticking while my clock runs, else the bank as the server left it.
function timeLeft(x) {
  if (x.group === "finished") return null;
  if (x.paused) return h("span.tag.paused", { "data-testid": "my-game-paused" }, "‖ ", t("pace.paused"));
  if (x.my_turn && x.my_deadline) return h("span.mg-time", "◷ ", t("mygames.time_left"), " ", countdown(x.my_deadline, { "data-testid": "my-game-time" }));
  if (x.my_turn) return h("span.tag.acting", t("mygames.your_turn"));
  if (typeof x.my_bank === "number" && x.pace && x.pace.mode === "live") return h("span.muted.mg-time", "◷ ", formatLeft(x.my_bank));
  return null;
}

function result(r) {
  let text;
  if (r.won === true) text = t("mygames.solo_won");
  else if (r.won === false) text = t("mygames.solo_lost");
  else text = t("mygames.place", { place: r.place, of: r.of });
  if (typeof r.score === "number") text += " · " + t("mygames.points", { count: r.score });
  return h("span.mg-result", { "data-testid": "my-game-result", class: r.place === 1 ? "first" : null }, text);
}
