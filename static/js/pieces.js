// The game's pieces as the screen shows them: seat symbols, goods chips and costs, bot markers,
// seat names, and the printed numbers the view does not carry (display only; the server judges).
import { t } from "./i18n.js";
import { h } from "./dom.js";

export const SEAT_SYMBOLS = ["●", "▲", "■", "◆"];

// A seat's token: its colour AND its shape (never colour alone). With `label` the shape is
// hidden from screen readers and the label (a name) is read instead.
export function seatToken(seat, label) {
  const sym = SEAT_SYMBOLS[seat] || "?";
  if (!label) return h("span.seat-token", { class: "seat" + seat, "aria-hidden": "true" }, sym);
  return h("span.seat-token", { class: "seat" + seat }, h("span", { "aria-hidden": "true" }, sym), h("span.sr", " " + label));
}

export const SYMBOL = {
  wood: "♣", stone: "⬢", cloth: "≋", grain: "⚘",
  bread: "◓", book: "▤", ring: "◎", gold: "¤",
  cp: "☺", bp: "⌂",
};

// One chip per kind: symbol + number + the word for screen readers and tooltips.
export function chip(kind, n, opts = {}) {
  const word = t("res." + kind);
  return h("span.chip", { class: "k-" + kind + (n === 0 && opts.dim ? " zero" : ""), title: word, "data-k": opts.key || null },
    h("span.sym", { "aria-hidden": "true" }, SYMBOL[kind] || "?"),
    n === undefined || n === null ? null : h("span.n", String(n)),
    h("span.sr", " " + word)
  );
}

export function costChips(cost) {
  const parts = Object.entries(cost || {}).filter(([, n]) => n);
  if (!parts.length) return [h("span.muted", t("move.free"))];
  return parts.map(([k, n]) => chip(k, n));
}

export function costText(cost) {
  const parts = Object.entries(cost || {}).filter(([, n]) => n);
  if (!parts.length) return t("move.free");
  return parts.map(([k, n]) => `${n} ${SYMBOL[k] || ""}${t("res." + k)}`).join(" + ");
}

// Bots: three levels, each shown in words with the level's own name ("Medium (greedy)").
export const BOT_LEVELS = ["random", "greedy", "strong"];
export const BOT_GLYPH = "⚙";

export function botLevelLabel(level) {
  return t("bot.level", { word: t("bot.word." + level), level });
}

// The marker of a seat a bot plays: glyph and words, never colour alone. `compact` shows the
// glyph only (for a bot whose name already says it is a bot and its level).
export function botTag(level, opts = {}) {
  const label = botLevelLabel(level);
  return h("span.tag.bot", { "data-testid": "bot-marker", "data-level": level, title: t("bot.played_by", { level: label }) },
    h("span.bot-glyph", { "aria-hidden": "true" }, BOT_GLYPH),
    opts.compact ? h("span.sr", " " + t("bot.played_by", { level: label })) : " " + t("bot.tag", { level: label })
  );
}

export function botLevelSelect(value, attrs = {}) {
  return h("select.bot-level", { "aria-label": t("bot.level_choice"), ...attrs },
    BOT_LEVELS.map((l) => h("option", { value: l, selected: l === value }, botLevelLabel(l))));
}

// The name a seat goes by: its player's, else the bot's level in words.
export function seatName(seat) {
  if (!seat) return null;
  if (seat.name) return seat.name;
  if (seat.bot_level !== undefined && seat.bot_level !== null) return t("lobby.bot_named", { level: botLevelLabel(seat.bot_level) });
  return seat.profile_name || (seat.profile && seat.profile.name) || (seat.bot ? t("lobby.bot") : null);
}

export const ADVISOR_INFO = {
  master_of_coin: { kind: "immediate", cp: 6 },
  archivist: { kind: "immediate", cp: 2 },
  goldsmith: { kind: "immediate", cp: 5 },
  carpenter: { kind: "immediate", cp: 1 },
  baker: { kind: "per_turn", cp: 3 },
  schoolmarm: { kind: "per_turn", cp: 3 },
  bailiff: { kind: "per_turn", cp: 5 },
  dressmaker: { kind: "per_turn", cp: 5 },
  landlord: { kind: "per_turn", cp: 3 },
  merchant: { kind: "per_turn", cp: 2 },
  chamberlain: { kind: "permanent", cp: 6 },
  scholar: { kind: "permanent", cp: 3 },
  mayoress: { kind: "permanent", cp: 5 },
  steward: { kind: "permanent", cp: 5 },
  abbess: { kind: "permanent", cp: 2 },
  toolmaker: { kind: "permanent", cp: 2 },
  sir_christiaan: { kind: "b", cp: 8 },
  lady_marie: { kind: "b", cp: 8 },
  sir_carl: { kind: "b", cp: 10 },
  lady_frida: { kind: "b", cp: 12 },
  sir_gustave: { kind: "b", bp: 12 },
  sir_antoni: { kind: "b", bp: 12 },
};

export const LOCATION_SYMBOL = {
  forest: "♣", grain_field: "⚘", quarry: "⬢", weaving_mill: "≋",
  castle: "♜", cathedral: "✝", construction_site: "⚒", market: "⚖",
};

export const COUNTRYSIDE = ["forest", "grain_field", "quarry", "weaving_mill"];
export const TOWN = ["castle", "cathedral", "construction_site", "market"];
export const RESOURCES = ["wood", "stone", "cloth", "grain"];
export const GOODS = ["bread", "book", "ring", "gold"];
export const VISIT_KINDS = [
  "harvest", "castle_gift", "castle_book", "cathedral_donation", "deliver_stone", "deliver_bread",
  "deliver_wood", "market_gold", "market_books", "cash_favor", "end_visit",
];
export const DECISION_KINDS = ["keep_favor", "event_option", "decline", "choose_resource", "place_councilor"];
export const BONUS_KINDS = ["raise_title", "hire_craftsman", "hire_advisor"];
