// Shared bits of UI: error banner, toasts, the "your turn" badge, symbols for goods.
import { t } from "/js/i18n.js";
import { h, clear } from "/js/dom.js";
import { ApiError } from "/js/api.js";

export const SEAT_SYMBOLS = ["●", "▲", "■", "◆"];

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

export function showError(e) {
  const box = document.getElementById("errors");
  if (!box) return;
  let text;
  if (e instanceof ApiError) text = e.code === "need_name" || e.code === "bad_link" ? e.message : e.text;
  else text = t("err.generic", { message: e && e.message ? e.message : String(e) });
  const item = h("div.error", { role: "alert", "data-testid": "error" },
    h("span.icon", { "aria-hidden": "true" }, "⚠"),
    h("span.msg", text),
    h("button.link", { type: "button", onclick: () => item.remove(), "aria-label": t("err.dismiss") }, "✕")
  );
  box.append(item);
  setTimeout(() => item.remove(), 9000);
  if (!(e instanceof ApiError)) console.warn(e);
}

export function toast(text) {
  const box = document.getElementById("errors");
  if (!box) return;
  const item = h("div.toast", { role: "status" }, text);
  box.append(item);
  setTimeout(() => item.remove(), 3500);
}

let badge = null;
export function setTurnBadge(on) {
  if (badge === on) return;
  badge = on;
  const link = document.getElementById("favicon");
  if (link) link.href = on ? "/favicon-turn.svg" : "/favicon.svg";
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
