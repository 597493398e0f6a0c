// The table's panels. On a phone (narrow screen) they become tabs a thumb switches between, with
// the score bar kept above them; on a tablet or desktop every panel is in view at once (no tabs).
// The list is data: a new panel (e.g. a chat) is one more entry in PANELS, or addPanel({...}).
// Each entry: {id, icon, label (i18n key), build(ts, {phone}) -> Node | Node[],
// badge?(ts) -> {glyph, label} | null}. On a desktop the built elements are placed by the grid
// of app.css (a new panel brings its own grid-area there).
import { t } from "./i18n.js";
import { h } from "./dom.js";
import { renderRondels, renderLocations, renderSupply, renderFocus } from "./board.js";
import { renderScoreTrack, renderPlayers } from "./players.js";
import { renderLog } from "./log.js";

export const PHONE_QUERY = "(max-width: 700px)";

// The table's panels, in the order of the phone's tabs (and of the keyboard on a desktop).
export const PANELS = [
  {
    id: "hand", icon: "☛", label: "phone.tab_hand",
    // the controls are filled by controls.js; on a phone the part of the board they concern follows
    build: (ts, { phone }) => [h("section.controls", { id: "controls", tabindex: "-1", "aria-label": t("table.actions") }), phone ? renderFocus(ts) : null],
    badge: (ts) => (ts.isMyTurn() && ts.legal.length && !ts.botPlaysMe() ? { glyph: "★", label: t("table.your_turn") } : null),
  },
  {
    id: "board", icon: "♜", label: "phone.tab_board",
    build: (ts) => h("section.board", { "aria-label": t("phone.tab_board") }, renderRondels(ts), renderLocations(ts), renderSupply(ts)),
  },
  {
    id: "players", icon: "☺", label: "phone.tab_players",
    build: (ts) => h("aside.side", { "aria-label": t("table.players") }, renderScoreTrack(ts), renderPlayers(ts)),
  },
  { id: "log", icon: "▤", label: "phone.tab_log", build: (ts) => renderLog(ts) },
  // The chat (chat.js) is one element kept across re-renders: a tab of its own on a phone; on a
  // tablet or desktop it stays beside the game (table.js), so it is not built into the grid.
  // Its badge: the messages that arrived out of sight (chat.js `unread`).
  {
    id: "chat", icon: "✉", label: "phone.tab_chat",
    shown: (ts) => !ts.solo, // nobody to talk to at a solo table
    build: (ts, { phone }) => (phone && ts.chat ? ts.chat.el : null),
    badge: (ts) => (ts.chat && ts.chat.unread ? { glyph: String(ts.chat.unread), label: t("chat.unread", { count: ts.chat.unread }) } : null),
  },
];

export function addPanel(panel) {
  const at = PANELS.findIndex((p) => p.id === panel.id);
  if (at >= 0) PANELS[at] = panel;
  else PANELS.push(panel);
}

export function isPhone() {
  return typeof window.matchMedia === "function" && window.matchMedia(PHONE_QUERY).matches;
}

// Desktop and tablet: the panels' own elements, placed by the page's grid.
// Phone: a tab list (fixed at the bottom, in reach of a thumb) and one visible tab panel.
// A panel with `shown(ts)` false is left out at that table (the chat at a solo table).
const shownAt = (ts) => PANELS.filter((p) => !p.shown || p.shown(ts));

export function renderPanels(ts, phone) {
  const list = shownAt(ts);
  if (!phone) return list.map((p) => p.build(ts, { phone: false }));
  if (!list.some((p) => p.id === ts.panel)) ts.panel = list.length ? list[0].id : null;
  const tabs = list.map((p) => {
    const on = p.id === ts.panel;
    const badge = p.badge ? p.badge(ts) : null;
    return h("button.tab", {
      type: "button",
      role: "tab",
      id: "tab-" + p.id,
      "data-testid": "tab-" + p.id,
      "data-panel": p.id,
      "aria-selected": on ? "true" : "false",
      "aria-controls": "panel-" + p.id,
      tabindex: on ? "0" : "-1",
      onclick: () => ts.showPanel(p.id),
      onkeydown: (e) => onTabKey(e, ts),
    }, h("span.tab-icon", { "aria-hidden": "true" }, p.icon), h("span.tab-label", t(p.label)), badgeNodes(badge));
  });
  const panels = list.map((p) => h("div.tab-panel", {
    id: "panel-" + p.id,
    role: "tabpanel",
    "aria-labelledby": "tab-" + p.id,
    "data-testid": "panel-" + p.id,
    hidden: p.id !== ts.panel,
  }, p.build(ts, { phone: true })));
  const bar = h("nav.tabbar", { "aria-label": t("phone.panels") }, h("div.tabs", { role: "tablist", "aria-label": t("phone.panels") }, tabs));
  return [...panels, bar];
}

function badgeNodes(badge) {
  return badge ? [h("span.tab-badge", { "aria-hidden": "true", "data-testid": "tab-badge" }, badge.glyph), h("span.sr.tab-badge-sr", " — " + badge.label)] : [];
}

// Redraw one tab's badge in place (a chat message must not rebuild the page under the reader).
export function refreshBadge(ts, id) {
  const tab = document.getElementById("tab-" + id);
  const p = PANELS.find((x) => x.id === id);
  if (!tab || !p || !p.badge) return;
  tab.querySelectorAll(".tab-badge, .tab-badge-sr").forEach((el) => el.remove());
  tab.append(...badgeNodes(p.badge(ts)));
}

// Arrow keys, Home and End move between the tabs (the tab list is one stop for Tab).
function onTabKey(e, ts) {
  const ids = shownAt(ts).map((p) => p.id);
  const i = ids.indexOf(ts.panel);
  let next = null;
  if (e.key === "ArrowRight") next = ids[(i + 1) % ids.length];
  else if (e.key === "ArrowLeft") next = ids[(i - 1 + ids.length) % ids.length];
  else if (e.key === "Home") next = ids[0];
  else if (e.key === "End") next = ids[ids.length - 1];
  if (next === null) return;
  e.preventDefault();
  ts.showPanel(next);
  const tab = document.getElementById("tab-" + next);
  if (tab) tab.focus();
}
