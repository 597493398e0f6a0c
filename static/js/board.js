// The board: the status bar (round, event, whose turn), the two rondels (SVG), the locations with
// their huts, markers and advisors, and the supply (B advisors, nobility titles, favor tokens).
// Clicking a location, advisor or title filters the choices to the moves that involve it.
import { t } from "./i18n.js";
import { h, s } from "./dom.js";
import { ADVISOR_INFO, BOT_GLYPH, COUNTRYSIDE, LOCATION_SYMBOL, RESOURCES, SEAT_SYMBOLS, botLevelLabel, chip, costChips, seatToken } from "./pieces.js";

export function renderStatus(ts) {
  const v = ts.view;
  const ev = v.event;
  let turnText;
  let cls = "";
  if (v.phase === "finished") {
    turnText = t("end.title");
    cls = "over";
  }
  else if (ts.isMyTurn() && ts.botPlaysMe()) {
    turnText = t("bot.plays_your_turn", { level: botLevelLabel(ts.botLevelOf(ts.mySeat)) });
    cls = "bot";
  } else if (ts.isMyTurn()) {
    turnText = v.me && v.me.decision ? t("table.your_decision") : t("table.your_turn");
    cls = "mine";
  } else if (v.turn && v.phase === "turns") turnText = t("table.turn_of", { name: ts.who(v.turn.seat), n: v.turn.number });
  else turnText = t("table.waiting_for", { names: (v.to_act || []).map((x) => ts.who(x)).join(", ") });
  const sound = h("label.toggle", h("input", { type: "checkbox", checked: ts.sound, onchange: (e) => {
    ts.sound = e.target.checked;
    localStorage.setItem("emara.sound", ts.sound ? "1" : "0");
  } }), h("span", { "aria-hidden": "true" }, " ♪ "), h("span.tool-text", t("table.sound")));
  // a notice from this tab while it is open (push notifications, for a closed page, are the
  // profile menu's: push.js); the words say which. Not at a solo table: it is always your turn.
  const notify = "Notification" in window && !ts.solo ? h("label.toggle", { title: t("table.notify_hint"), "data-testid": "tab-notify" }, h("input", { type: "checkbox", checked: !!ts.notify, onchange: async (e) => {
    ts.notify = e.target.checked;
    if (ts.notify && Notification.permission === "default") { try { await Notification.requestPermission(); } catch {} }
  } }), h("span", { "aria-hidden": "true" }, " ✉ "), h("span.tool-text", t("table.notify"))) : null;
  // On a phone the event's text folds away under its name (one tap, or Enter, opens it).
  const evOpen = ts.phone ? !!ts.eventOpen : true;
  return h("header.status-bar",
    h("div.round", ts.mark(h("strong", { "data-key": "round" }, v.round ? t("table.round", { round: v.round }) : t("table.setup")), "round", v.round)),
    ev
      ? h("details.event-card", { "data-testid": "event", open: evOpen, "data-key": "event", ontoggle: (e) => { if (ts.phone) ts.eventOpen = e.target.open; } },
          h("summary", { "data-explain": "event:" + ev.id }, h("span.label", t("table.event"), " · ", t("timing." + ev.timing)), " ",
            ts.mark(h("strong", t("event." + ev.id)), "event", ev.id)),
          h("span.event-text", t("eventtext." + ev.id)))
      : h("div.event-card", { "data-key": "event_top" }, h("span.muted", v.event_top ? `${t("table.event_next")}: ${t("event." + v.event_top.id)}` : "")),
    h("div.turn", { class: cls, "data-testid": "turn-indicator", "data-key": "turn:seat", role: "status", "aria-live": "polite" }, h("span", { "aria-hidden": "true" }, cls === "mine" ? "★ " : cls === "over" ? "♛ " : cls === "bot" ? BOT_GLYPH + " " : "… "), turnText),
    h("div.tools", sound, notify, h("span", { id: "conn", class: "conn " + ts.wsState }, t(ts.wsState === "live" ? "table.connected" : "table.reconnecting")))
  );
}

export function renderRondels(ts) {
  const v = ts.view;
  const targets = ts.legalInvolving();
  const keys = Object.keys(v.rondels || {});
  const wrap = h("div.rondels", { "data-key": "rondels" });
  keys.forEach((key) => {
    const order = v.rondels[key];
    const W = 260, C = 130, R = 82;
    const svg = s("svg", { viewBox: `0 0 ${W} ${W}`, class: "rondel", role: "group", "aria-label": t(key === "countryside" ? "table.rondel_countryside" : key === "town" ? "table.rondel_town" : "table.rondel_" + key) });
    svg.append(s("circle", { cx: C, cy: C, r: R + 30, class: "rondel-bg" }));
    svg.append(s("circle", { cx: C, cy: C, r: R, class: "rondel-ring" }));
    // clockwise arrows between the nodes
    for (let i = 0; i < order.length; i++) {
      const a = ((i + 0.5) / order.length) * 2 * Math.PI - Math.PI / 2;
      svg.append(s("text", { x: C + R * Math.cos(a), y: C + R * Math.sin(a) + 5, class: "rondel-arrow", transform: `rotate(${(a * 180) / Math.PI + 90} ${C + R * Math.cos(a)} ${C + R * Math.sin(a)})`, "aria-hidden": "true" }, "➤"));
    }
    svg.append(s("text", { x: C, y: C + 5, class: "rondel-title" }, t(key === "countryside" ? "table.rondel_countryside" : key === "town" ? "table.rondel_town" : "table.rondel_" + key)));
    order.forEach((locId, i) => {
      const a = (i / order.length) * 2 * Math.PI - Math.PI / 2;
      const x = C + R * Math.cos(a), y = C + R * Math.sin(a);
      const legal = targets.has("loc:" + locId);
      const here = (v.councilors || []).map((c, seat) => (c && c[key] === locId ? seat : null)).filter((x) => x !== null);
      const g = s("g", {
        class: "loc-node" + (legal ? " legal-target" : "") + (ts.filter === "loc:" + locId ? " selected" : ""),
        tabindex: "0",
        role: "button",
        "data-location": locId,
        "data-explain": "location:" + locId,
        "aria-pressed": ts.filter === "loc:" + locId ? "true" : "false",
        "aria-label": locationLabel(ts, locId, here, legal),
        onclick: () => ts.setFilter("loc:" + locId),
        onkeydown: (e) => (e.key === "Enter" || e.key === " ") && (e.preventDefault(), ts.setFilter("loc:" + locId)),
      });
      g.append(s("circle", { cx: x, cy: y, r: 30, class: "node loc-" + locId }));
      g.append(s("text", { x, y: y - 6, class: "node-sym" }, LOCATION_SYMBOL[locId] || "?"));
      g.append(nodeLabel(t("loc." + locId), x, y));
      // councilors standing here: colour and shape
      here.forEach((seat, j) => {
        const px = x + (j - (here.length - 1) / 2) * 18;
        const py = y + (y < C ? -38 : 40);
        const pawn = s("g", { class: "pawn seat" + seat, "data-key": `councilor:${seat}:${key}` });
        pawn.append(s("circle", { cx: px, cy: py, r: 9 }));
        pawn.append(s("text", { x: px, y: py + 4 }, SEAT_SYMBOLS[seat]));
        pawn.append(s("title", {}, `${ts.nameOf(seat)} — ${t("loc." + locId)}`));
        g.append(pawn);
      });
      ts.values.set(`pawns.${key}.${locId}`, here.join(","));
      g.dataset.k = `pawns.${key}.${locId}`;
      svg.append(g);
    });
    wrap.append(svg);
  });
  return wrap;
}

export function renderLocations(ts) {
  const v = ts.view;
  const targets = ts.legalInvolving();
  const grid = h("div.locations");
  const all = [].concat(...Object.values(v.rondels || {}));
  for (const locId of all) {
    const cards = [];
    const here = (v.councilors || []).map((c, seat) => (c && Object.values(c).includes(locId) ? seat : null)).filter((x) => x !== null);
    const head = h("h3",
      h("button.loc-btn", {
        type: "button",
        "data-testid": "location-filter",
        "data-location": locId,
        "data-explain": "location:" + locId,
        "aria-pressed": ts.filter === "loc:" + locId ? "true" : "false",
        onclick: () => ts.setFilter("loc:" + locId),
      }, h("span.sym", { "aria-hidden": "true" }, LOCATION_SYMBOL[locId], " "), t("loc." + locId)), " ",
      here.map((seat) => seatToken(seat, t("a11y.councilor_of", { name: ts.nameOf(seat) })))
    );
    if (COUNTRYSIDE.includes(locId)) {
      const huts = (v.huts && v.huts[locId]) || [];
      const ul = h("ul.huts");
      huts.forEach((hut, i) => {
        const occ = hut.occupant;
        const legal = ts.legal.some((m) => (m.kind === "hire_craftsman" || (m.kind === "card_action" && m.hire === "craftsman")) && m.location === locId && m.hut === i);
        const li = h("li", { class: (occ !== null && occ !== undefined ? "occupied" : "free") + (legal ? " legal-target" : ""), tabindex: "0", "data-explain": `hut:${locId}:${i}` },
          h("span.hut-n", t("table.hut_n", { n: i + 1 })), " ", costChips(hut.cost), " ",
          occ !== null && occ !== undefined
            ? h("span.occupant", seatToken(occ), " ", ts.nameOf(occ))
            : h("span.muted", t("table.hut_free")));
        li.dataset.key = `hut:${locId}:${i}`;
        ul.append(ts.mark(li, `hut.${locId}.${i}`, occ));
      });
      cards.push(h("div.small-label", t("table.huts")), ul);
    } else {
      const mk = v.markers || {};
      const markerRow = (m, key, kind) => {
        const el = h("span.marker", { class: m.removed ? "removed" : "", "data-key": "marker:" + key.replace(".", ":"), "data-explain": "marker:" + key.replace(".", ":"), tabindex: "0" },
          kind ? chip(kind) : null, " ", h("strong", String(m.value)),
          m.removed ? h("span.muted", " (" + t("table.board_value") + ")") : h("span.muted", " · " + t("table.marker_steps", { n: m.steps_left })));
        return ts.mark(el, key, m);
      };
      if (locId === "castle") {
        cards.push(h("div.small-label", t("table.gift")), h("div.markers", RESOURCES.filter((r) => mk.gift && mk.gift[r]).map((r) => markerRow(mk.gift[r], "gift." + r, r))), h("div.small-label", t("table.castle_book")));
      } else if (locId === "cathedral") {
        cards.push(h("div.small-label", t("table.donation")), h("div.markers", RESOURCES.filter((r) => mk.donation && mk.donation[r]).map((r) => markerRow(mk.donation[r], "donation." + r, r))));
      } else if (locId === "construction_site") {
        cards.push(
          h("div.small-label", t("table.stone_marker")), mk.stone ? h("div.markers", markerRow(mk.stone, "stone", "stone")) : null,
          h("div.small-label", t("table.bread_marker")), mk.bread ? h("div.markers", markerRow(mk.bread, "bread", "bread")) : null,
          h("div.small-label", t("table.wood_delivery"))
        );
      } else if (locId === "market") {
        cards.push(h("div.small-label", t("table.market_gold")), h("div.small-label", t("table.market_books")));
      }
      const display = (v.advisors && v.advisors.display && v.advisors.display[locId]) || [];
      if (display.length) {
        cards.push(h("div.small-label", t("table.advisors")), h("div.advisor-list", display.map((a) => advisorCard(ts, a, targets, "display:" + locId + ":" + a))));
      }
    }
    const visit = v.turn && v.turn.visit && v.turn.visit.location === locId;
    grid.append(
      h("article.location", {
        class: (targets.has("loc:" + locId) ? "legal-target" : "") + (visit ? " visiting" : "") + (ts.filter === "loc:" + locId ? " selected" : ""),
        "data-location": locId,
        onclick: (e) => { if (!e.target.closest("button, .advisor")) ts.setFilter("loc:" + locId); },
      }, head, visit ? h("div.visit-flag", "⚑ ", t("table.visit", { location: t("loc." + locId) })) : null, cards)
    );
  }
  return grid;
}

export function advisorCard(ts, id, targets, dataKey) {
  const v = ts.view;
  const info = ADVISOR_INFO[id] || {};
  const cost = (v.advisors && v.advisors.costs && v.advisors.costs[id]) || {};
  const legal = targets.has("adv:" + id);
  return h("button.advisor", {
    type: "button",
    class: (legal ? "legal-target" : "") + (ts.filter === "adv:" + id ? " selected" : ""),
    "data-explain": "advisor:" + id,
    "aria-pressed": ts.filter === "adv:" + id ? "true" : "false",
    "data-key": dataKey || null,
    onclick: () => ts.setFilter("adv:" + id),
  },
    h("span.adv-name", t("adv." + id)),
    h("span.adv-meta", costChips(cost), " → ", info.cp ? chip("cp", "+" + info.cp) : null, info.bp ? chip("bp", "+" + info.bp) : null),
    h("span.adv-text", t("advtext." + id))
  );
}

export function renderSupply(ts) {
  const v = ts.view;
  const targets = ts.legalInvolving();
  const adv = v.advisors || {};
  const nob = h("div.nobility", (v.nobility || []).map((n) =>
    ts.mark(h("button.title-stack", { type: "button", "data-key": "nobility:" + n.id, "data-explain": "title:" + n.id, "aria-pressed": ts.filter === "title:" + n.id ? "true" : "false", class: (targets.has("title:" + n.id) ? "legal-target" : "") + (ts.filter === "title:" + n.id ? " selected" : ""), onclick: () => ts.setFilter("title:" + n.id) },
      h("strong", "♔ ", t("title." + n.id)),
      h("span", costChips(n.cost)),
      h("span", n.top !== null && n.top !== undefined ? chip("cp", n.top) : h("span.muted", t("table.nothing"))),
      h("span.muted", t("table.b_left", { n: n.left }))), "nob." + n.id, n)
  ));
  return h("div.supply",
    h("div.supply-box", { "data-key": "advisors:b_stack" }, h("h3", t("table.b_stack"), " ", h("span.muted", t("table.b_left", { n: adv.b_left ?? 0 }))),
      adv.b_top ? advisorCard(ts, adv.b_top, targets) : h("p.muted", t("table.nothing"))),
    h("div.supply-box", h("h3", t("table.nobility")), nob),
    h("div.supply-box.small",
      ts.mark(h("p", { "data-key": "favor:pile", "data-explain": "favor:pile", tabindex: "0" }, h("span", { "aria-hidden": "true" }, "✉ "), t("table.favor_pile", { pile: (v.favor || {}).pile ?? 0, discard: (v.favor || {}).discard ?? 0 })), "favor", v.favor),
      v.event_top ? h("p", { "data-key": "event_top" }, h("span.muted", t("table.event_next") + ": "), t("event." + v.event_top.id), " ", h("span.muted", { "data-key": "events_left" }, t("table.events_left", { n: v.events_left }))) : null)
  );
}

// A location's name for screen readers: the place, who stands there, whether you can act there.
function locationLabel(ts, locId, here, legal) {
  const parts = [t("loc." + locId)];
  if (here.length) parts.push(t("a11y.councilors_here", { names: here.map((seat) => `${SEAT_SYMBOLS[seat]} ${ts.nameOf(seat)}`).join(", ") }));
  if (legal) parts.push(t("a11y.can_act_here"));
  return parts.join(" — ");
}

// The phone's "my hand & actions" panel: the part of the board the legal moves concern (the
// locations they involve, the one being visited, and where one's own councilors stand),
// compact, each a button that filters the moves.
export function renderFocus(ts) {
  const v = ts.view;
  const targets = ts.legalInvolving();
  const all = [].concat(...Object.values(v.rondels || {}));
  const visit = v.turn && v.turn.visit ? v.turn.visit.location : null;
  const mine = ts.mySeat !== null && v.councilors ? v.councilors[ts.mySeat] || {} : {};
  const minePlaces = Object.values(mine);
  const ids = all.filter((id) => targets.has("loc:" + id) || id === visit || minePlaces.includes(id));
  if (!ids.length) return null;
  const title = ts.legal.length ? t("phone.focus") : t("phone.focus_idle");
  return h("section.focus", { "data-testid": "focus", "aria-label": title },
    h("h2", title),
    h("ul.focus-list", ids.map((id) => {
      const here = (v.councilors || []).map((c, seat) => (c && Object.values(c).includes(id) ? seat : null)).filter((x) => x !== null);
      const free = COUNTRYSIDE.includes(id) ? ((v.huts && v.huts[id]) || []).filter((x) => x.occupant === null || x.occupant === undefined).length : null;
      return h("li", h("button.focus-loc", {
        type: "button",
        class: (id === visit ? "visiting " : "") + (ts.filter === "loc:" + id ? "selected" : ""),
        "data-location": id,
        "aria-pressed": ts.filter === "loc:" + id ? "true" : "false",
        onclick: () => ts.setFilter("loc:" + id),
      },
        h("span.sym", { "aria-hidden": "true" }, LOCATION_SYMBOL[id]), " ", h("strong", t("loc." + id)),
        minePlaces.includes(id) ? h("span.tag", t("table.you")) : null,
        here.map((seat) => seatToken(seat, t("a11y.councilor_of", { name: ts.nameOf(seat) }))),
        free !== null ? h("span.muted", " · ", t("phone.huts_free", { n: free })) : null,
        id === visit ? h("span.visit-flag", "⚑ ", t("phone.visiting")) : null));
    })));
}

// A location's whole name inside its node (r = 30): one line, or two split at the space nearest
// the middle when it is long ("Weaving / mill", "Construction / site"); a line wider than the
// node at its height is narrowed to fit (textLength), never cut. The node's accessible name is
// its aria-label (locationLabel), the same whole name.
const LABEL_PX = 10.5;
let measurer = null;

function textWidth(text) {
  try {
    measurer = measurer || document.createElement("canvas").getContext("2d");
    const family = getComputedStyle(document.body).fontFamily || "serif";
    measurer.font = `${LABEL_PX}px ${family}`;
    return measurer.measureText(text).width;
  } catch {
    return text.length * LABEL_PX * 0.55;
  }
}

function labelLines(name) {
  const words = name.split(" ");
  if (words.length < 2 || name.length <= 9) return [name];
  let best = null;
  for (let i = 1; i < words.length; i++) {
    const a = words.slice(0, i).join(" "), b = words.slice(i).join(" ");
    const worst = Math.max(textWidth(a), textWidth(b));
    if (!best || worst < best.worst) best = { worst, lines: [a, b] };
  }
  return best.lines;
}

function nodeLabel(name, x, y) {
  const lines = labelLines(name);
  // baselines below the symbol, and the width of the node there (its chord, a little beyond)
  const rows = lines.length === 1 ? [{ dy: 13, room: 56 }] : [{ dy: 9, room: 60 }, { dy: 19.5, room: 46 }];
  const text = s("text", { x, y, class: "node-label" });
  lines.forEach((line, i) => {
    const { dy, room } = rows[i];
    const fit = textWidth(line) > room ? { textLength: room, lengthAdjust: "spacingAndGlyphs" } : {};
    text.append(s("tspan", { x, y: y + dy, ...fit }, line));
  });
  return text;
}
