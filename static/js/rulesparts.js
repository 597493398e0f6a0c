// The rules reference's building blocks (rulespage.js): numbers from the components data, each
// inside an element that names its data path (data-rule="advisors.A.3.cost.stone"), catalogue
// texts with elements for their {placeholders}, sections, and the pictures drawn with the table's
// own pieces (a councilor pawn, a rondel, cards, the goods legend).
import { t } from "./i18n.js";
import { h, s } from "./dom.js";
import { SYMBOL, LOCATION_SYMBOL, SEAT_SYMBOLS, chip } from "./pieces.js";
import { at } from "./rulesdata.js";

let D = null; // the components data of the page being built

// The page's components data, once loaded (rulesdata.js).
export function useData(data) {
  D = data;
}

// ---------- numbers and texts ----------

// One number from the data, inside an element naming its path. `signed`: +2 / −1.
export function num(path, opts = {}) {
  const v = at(D, path);
  const text = opts.signed && typeof v === "number" ? (v > 0 ? "+" + v : v < 0 ? "−" + -v : String(v)) : String(v);
  return h("span.rule-n", { "data-rule": path, "data-rule-format": opts.signed ? "signed" : null }, text);
}

// A chip (the table's goods symbol) with a number from the data.
export function chipN(kind, path, opts) {
  const word = t("res." + kind);
  return h("span.chip", { class: "k-" + kind, title: word },
    h("span.sym", { "aria-hidden": "true" }, SYMBOL[kind] || "?"), num(path, opts), h("span.sr", " " + word));
}

// The chips of a cost or reward object at `path` ({wood: 1, cloth: 1}).
export function chipsAt(path) {
  const obj = at(D, path) || {};
  return Object.keys(obj).filter((k) => obj[k]).map((k) => chipN(k, path + "." + k));
}

// A catalogue text whose {placeholders} are elements (numbers, chips, names). `count` chooses a
// plural form where the message has them.
export function rich(key, vars = {}, count) {
  const params = {};
  const nodes = {};
  Object.entries(vars).forEach(([k, v], i) => {
    const mark = "\u0001" + i + "\u0002";
    params[k] = mark;
    nodes[mark] = v;
  });
  if (count !== undefined) params.count = count;
  const copy = (v) => (v instanceof Node ? v.cloneNode(true) : Array.isArray(v) ? v.map(copy) : v);
  return t(key, params).split(/(\u0001\d+\u0002)/).filter((p) => p !== "").map((p) => (p in nodes ? copy(nodes[p]) : p));
}

export const p = (key, vars, count) => h("p", rich(key, vars, count));
export const li = (key, vars, count) => h("li", rich(key, vars, count));
export const word = (kind) => t("res." + kind);

export function section(id, title, ...body) {
  return h("section.rules-section", { id, tabindex: "-1", "aria-labelledby": id + "-h" }, h("h2", { id: id + "-h" }, title), body);
}

export function sub(id, title, ...body) {
  return h("section.rules-sub", { id, tabindex: id ? "-1" : null, "aria-labelledby": id ? id + "-h" : null }, h("h3", { id: id ? id + "-h" : null }, title), body);
}

// ---------- pictures (the table's pieces) ----------

export function pawn(seat = 0) {
  return s("svg", { class: "rules-pawn", viewBox: "0 0 24 24", width: "26", height: "26", role: "img", "aria-label": t("rules.pic.councilor") },
    s("g", { class: "pawn seat" + seat }, s("circle", { cx: 12, cy: 12, r: 10 }), s("text", { x: 12, y: 16 }, SEAT_SYMBOLS[seat])));
}

export function rondel(kind, locs) {
  const W = 260, C = 130, R = 82;
  const label = t(kind === "countryside" ? "table.rondel_countryside" : "table.rondel_town");
  const svg = s("svg", { viewBox: `0 0 ${W} ${W}`, class: "rondel rules-rondel", role: "img", "aria-label": t("rules.pic.rondel", { rondel: label }) });
  svg.append(s("circle", { cx: C, cy: C, r: R + 30, class: "rondel-bg" }), s("circle", { cx: C, cy: C, r: R, class: "rondel-ring" }));
  locs.forEach((_, i) => {
    const a = ((i + 0.5) / locs.length) * 2 * Math.PI - Math.PI / 2;
    const x = C + R * Math.cos(a), y = C + R * Math.sin(a);
    svg.append(s("text", { x, y: y + 5, class: "rondel-arrow", transform: `rotate(${(a * 180) / Math.PI + 90} ${x} ${y})`, "aria-hidden": "true" }, "➤"));
  });
  svg.append(s("text", { x: C, y: C + 5, class: "rondel-title" }, label));
  locs.forEach((id, i) => {
    const a = (i / locs.length) * 2 * Math.PI - Math.PI / 2;
    const x = C + R * Math.cos(a), y = C + R * Math.sin(a);
    const g = s("g", { class: "loc-node" });
    g.append(s("circle", { cx: x, cy: y, r: 30, class: "node loc-" + id }), s("text", { x, y: y + 6, class: "node-sym" }, LOCATION_SYMBOL[id] || "?"));
    if (i === 0) {
      const py = y + (y < C ? -38 : 40);
      g.append(s("g", { class: "pawn seat0" }, s("circle", { cx: x, cy: py, r: 9 }), s("text", { x, y: py + 4 }, SEAT_SYMBOLS[0])));
    }
    svg.append(g);
  });
  return svg;
}

export function card(name, text, attrs = {}) {
  return h("li.card.rules-card", attrs, h("h4.card-name", name), h("div.card-text", text));
}

export function legend() {
  const kinds = ["wood", "stone", "cloth", "grain", "bread", "book", "ring", "gold", "cp", "bp"];
  return h("ul.rules-legend", { "aria-label": t("rules.legend") }, kinds.map((k) => h("li", chip(k), " ", word(k))), h("li", pawn(0), " ", t("rules.pic.councilor")));
}
