// Where each point came from: per player one stacked bar per track (CP, BP), its segments the
// sources the engine booked the points to (the view's `points`, docs/view.md), a legend of the
// sources shown, and every value as text for screen readers. The lower track — the score — is
// marked, so a new player sees which track decided. All bars share one scale.
//
// breakdownChart(players): players are [{seat, name, cp, bp, points: {cp: {...}, bp: {...}}}]
// (an outcome's players with their names: the end screen, a replay); returns one element.
import { t } from "./i18n.js";
import { h, s } from "./dom.js";

// The engine's order (app/rules/breakdown.py SOURCES).
export const SOURCES = ["start", "titles", "craftsmen", "advisors", "deliveries", "books", "favor", "events", "paid", "leftovers", "unrecorded"];
const TRACKS = ["cp", "bp"];

const trackName = (track) => t(track === "cp" ? "table.cp" : "table.bp");
const sourceName = (source) => t("breakdown.source." + source);

// {gross, net, parts: [[source, n], ...]} of one track: gross the sum of the sources above 0.
function trackParts(per) {
  const parts = SOURCES.map((src) => [src, Number((per || {})[src] || 0)]).filter(([, n]) => n !== 0);
  const gross = parts.reduce((a, [, n]) => a + Math.max(0, n), 0);
  const net = parts.reduce((a, [, n]) => a + n, 0);
  return { gross, net, parts };
}

// cut: on the higher track, where the lower one ends (the points past it did not count), else null.
function bar(track, per, scale, lower, cut) {
  const { gross, net, parts } = trackParts(per);
  const segs = [];
  let x = 0;
  for (const [src, n] of parts) {
    if (n <= 0) continue;
    segs.push(s("rect", { class: `bd-seg bd-s-${src}`, x, y: 0, width: n, height: 1 }, s("title", `${sourceName(src)}: ${n}`)));
    x += n;
  }
  if (gross > net) {
    segs.push(s("rect", { class: "bd-seg bd-s-paid", x: net, y: 0, width: gross - net, height: 1 },
      s("title", `${sourceName("paid")}: ${net - gross}`)));
  }
  if (cut !== null && cut < net) segs.push(s("line", { class: "bd-cut", x1: cut, x2: cut, y1: 0, y2: 1 }));
  const svg = s("svg", {
    class: "bd-bar", viewBox: `0 0 ${Math.max(scale, 1)} 1`, preserveAspectRatio: "none",
    "aria-hidden": "true", focusable: "false", "data-testid": "breakdown-bar", "data-track": track,
  }, segs);
  const words = parts.map(([src, n]) => `${sourceName(src)} ${n}`).join(", ") || t("breakdown.none");
  return h("div.bd-row", { class: lower ? "lower" : "" },
    h("span.bd-track", { "aria-hidden": "true" }, trackName(track), lower ? " ★" : ""),
    h("div.bd-track-bar", svg),
    h("span.bd-total", { "aria-hidden": "true", "data-testid": "breakdown-total", "data-track": track }, String(net)),
    h("span.sr", t("breakdown.sr_track", { track: trackName(track), total: net, parts: words }), lower ? " " + t("breakdown.sr_lower") : ""));
}

export function breakdownChart(players) {
  const shown = (players || []).filter((p) => p && p.points);
  const scale = Math.max(1, ...shown.flatMap((p) => TRACKS.map((tr) => trackParts(p.points[tr]).gross)));
  const used = SOURCES.filter((src) => shown.some((p) => TRACKS.some((tr) => Number((p.points[tr] || {})[src] || 0) !== 0)));
  const rows = shown.map((p) => {
    const cp = trackParts(p.points.cp).net;
    const bp = trackParts(p.points.bp).net;
    const lowerTrack = cp <= bp ? "cp" : "bp";
    return h("li.bd-player", { "data-testid": "breakdown-player", "data-seat": String(p.seat) },
      h("p.bd-name", p.name),
      TRACKS.map((tr) => bar(tr, p.points[tr], scale, tr === lowerTrack, tr === lowerTrack ? null : Math.min(cp, bp))),
      h("p.bd-lower.final-note", t("breakdown.lower", { track: trackName(lowerTrack), n: Math.min(cp, bp) })));
  });
  const legend = h("ul.bd-legend", { "aria-hidden": "true", "data-testid": "breakdown-legend" },
    used.map((src) => h("li", h("span.bd-swatch", { class: `bd-s-${src}` }), sourceName(src))));
  return h("section.bd-chart", { "data-testid": "breakdown" },
    h("h3", t("breakdown.title")),
    h("p.hint", t("breakdown.hint")),
    legend,
    h("ul.bd-players", rows));
}
