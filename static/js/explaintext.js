// What the engine's explanations say, in words: a piece's note (a catalogue key and its values)
// and a move's promise ("+8 CP, −2 bread, bread marker 4 → 3"). The tooltips (tooltips.js) show
// them; nothing here computes a rule.
import { t } from "./i18n.js";
import { SYMBOL } from "./pieces.js";

// Identifiers in a note's values, named in words.
const NAMED = {
  location: (x) => t("loc." + x),
  resource: (x) => t("res." + x),
  advisor: (x) => t("adv." + x),
  title: (x) => t("title." + x),
  event: (x) => t("event." + x),
  card: (x) => t("card." + x),
  timing: (x) => t("timing." + x),
};

function amount(kind, n, signed) {
  const sign = signed ? (n > 0 ? "+" : "−") : "";
  return `${sign}${Math.abs(n)} ${SYMBOL[kind] || ""}${t("res." + kind)}`;
}

function items(counts, signed) {
  const parts = Object.entries(counts || {}).filter(([, n]) => n).map(([k, n]) => amount(k, n, signed));
  return parts.length ? parts.join(", ") : t("move.free");
}

export function noteText(note, nameOf) {
  const params = {};
  for (const [k, v] of Object.entries(note.params || {})) {
    if (v && typeof v === "object") params[k] = items(v, k === "gain");
    else if (k === "seat") params[k] = nameOf(v);
    else if (NAMED[k] && typeof v === "string") params[k] = NAMED[k](v);
    else params[k] = v;
  }
  return t(note.key, params);
}

function markerName(id) {
  const [kind, res] = id.split(".");
  return t("marker." + kind) + (res ? ` (${t("res." + res)})` : "");
}

// What a move's promise says, in words: "+8 CP, −2 bread, bread marker 4 → 3".
export function effectText(effect) {
  if (!effect.known) return t("explain.unknown");
  const parts = [];
  for (const [k, n] of Object.entries(effect.gains || {})) {
    if (k in SYMBOL) parts.push(amount(k, n, true));
    else parts.push(t("explain.piece." + k, { n: (n > 0 ? "+" : "−") + Math.abs(n), count: Math.abs(n) }));
  }
  for (const m of effect.markers || []) parts.push(t("explain.marker_step", { marker: markerName(m.marker), before: m.before, after: m.after }));
  for (const d of effect.blind_draws || []) parts.push(t("explain.draws_" + d));
  if (effect.ends_turn) parts.push(t("explain.ends_turn"));
  return parts.length ? parts.join(", ") : t("explain.nothing");
}
