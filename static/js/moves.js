// Words for moves and events, and the grouping of legal moves into choices.
// Nothing here decides legality: it only arranges the moves the server listed.
import { t, has, humanize } from "./i18n.js";
import { costText } from "./pieces.js";
import { VISIT_KINDS, DECISION_KINDS, BONUS_KINDS } from "./pieces.js";

const COUNTRYSIDE_RES = { forest: "wood", grain_field: "grain", quarry: "stone", weaving_mill: "cloth" };

export function stableKey(obj) {
  if (Array.isArray(obj)) return "[" + obj.map(stableKey).join(",") + "]";
  if (obj && typeof obj === "object")
    return "{" + Object.keys(obj).sort().map((k) => JSON.stringify(k) + ":" + stableKey(obj[k])).join(",") + "}";
  return JSON.stringify(obj);
}

// Moves that differ only in `pay` form one choice with a payment picker.
export function choiceKey(move) {
  const { pay, ...rest } = move;
  return stableKey(rest);
}

export function groupOf(move) {
  const k = move.kind;
  if (DECISION_KINDS.includes(k)) return k === "choose_resource" || k === "place_councilor" ? "setup" : "decision";
  if (k === "play_card") return "play_card";
  if (k === "card_action") return "card_action";
  if (k === "move") return "move";
  if (VISIT_KINDS.includes(k)) return "visit";
  if (BONUS_KINDS.includes(k)) return "bonus";
  if (k === "use_advisor") return "advisor";
  if (k === "end_turn") return "end_turn";
  return "other";
}

export const GROUP_ORDER = ["setup", "decision", "card_action", "move", "visit", "bonus", "advisor", "other"];

export function destination(view, seat, councilor, steps) {
  const order = view.rondels && view.rondels[councilor];
  const here = view.councilors && view.councilors[seat] && view.councilors[seat][councilor];
  if (!order || !here || !steps) return null;
  const i = order.indexOf(here);
  if (i < 0) return null;
  return order[(i + steps) % order.length];
}

const loc = (x) => (x ? t("loc." + x) : "");
const res = (x) => (x ? t("res." + x) : "");
const adv = (x) => (x ? t("adv." + x) : "");
const card = (x) => (x ? t("card." + x) : "");
const councilorName = (c) => t("councilor." + c);

function rewardText(reward) {
  return costText(reward);
}

function favorToken(view, seat, id) {
  const me = view.me || {};
  if (me.decision && me.decision.tokens) {
    const tok = me.decision.tokens.find((x) => x.id === id);
    if (tok) return tok;
  }
  const p = (view.players_state || [])[seat];
  return p && (p.favor_tokens || []).find((x) => x.id === id);
}

export function nextTitle(view, seat) {
  const p = (view.players_state || [])[seat];
  const have = new Set(((p && p.titles) || []).map((x) => x.id));
  return (view.nobility || []).find((n) => !have.has(n.id)) || null;
}

// A sentence for a move, without its payment (the picker shows that).
export function describeMove(m, view, withPay = false) {
  const seat = view.me ? view.me.seat : 0;
  const turn = view.turn || {};
  let text;
  switch (m.kind) {
    case "play_card":
      text = t("move.play_card", { card: card(m.card), slot: m.slot });
      break;
    case "move": {
      const dest = destination(view, seat, m.councilor, turn.slot);
      text = dest
        ? t("move.move", { councilor: councilorName(m.councilor), steps: turn.slot, dest: loc(dest) })
        : t("move.move_nodest", { councilor: councilorName(m.councilor), steps: turn.slot || "" });
      break;
    }
    case "card_action": {
      const c = turn.card;
      if (c && c.startsWith("take_")) text = t("move.take", { what: "1 " + res(c.slice(5)) });
      else if (c === "gold") {
        const n = Object.values(m.pay || {}).reduce((a, b) => a + b, 0) >= 3 ? 2 : 1;
        text = t("move.gold", { pay: costText(m.pay), n });
        withPay = false;
      } else if (c === "move1") text = t("move.move1", { councilor: councilorName(m.councilor), dest: loc(destination(view, seat, m.councilor, 1)) });
      else if (c === "hire_discount")
        text = m.hire === "advisor"
          ? t("move.hire_discount_advisor", { advisor: adv(m.advisor) })
          : t("move.hire_discount_craftsman", { location: loc(m.location), hut: (m.hut ?? 0) + 1 });
      else if (c === "town_action") text = t("move.town_action", { location: loc(m.location) });
      else text = t("group.card_action");
      break;
    }
    case "raise_title": {
      const nt = nextTitle(view, seat);
      text = t("move.raise_title", { title: nt ? t("title." + nt.id) : "" }) + (nt ? ` (${costText(nt.cost)})` : "");
      break;
    }
    case "hire_craftsman":
      text = t("move.hire_craftsman", { location: loc(m.location), hut: (m.hut ?? 0) + 1 });
      break;
    case "hire_advisor":
      text = t("move.hire_advisor", { advisor: adv(m.advisor) });
      break;
    case "use_advisor":
      if (m.advisor === "baker") text = t("move.use_advisor_baker", { bread: m.bread });
      else if (m.advisor === "merchant") text = t("move.use_advisor_merchant", { take: res(m.take) });
      else if (m.advisor === "chamberlain") text = t("move.use_advisor_chamberlain", { give: res(m.give) });
      else text = t("move.use_advisor", { advisor: adv(m.advisor) }) + " — " + t("advtext." + m.advisor);
      break;
    case "harvest": {
      const extra = (m.extra || []).map((x) => t("extra." + x));
      text = extra.length ? t("move.harvest_extra", { extra: extra.join(", ") }) : t("move.harvest");
      break;
    }
    case "castle_gift":
    case "cathedral_donation":
      text = t("move." + m.kind, { resource: res(m.resource) });
      break;
    case "deliver_bread":
    case "deliver_wood":
    case "market_books":
      text = t("move." + m.kind, { count: m.count });
      break;
    case "cash_favor": {
      const tok = favorToken(view, seat, m.token);
      text = t("move.cash_favor", { reward: tok ? rewardText(tok.reward) : "#" + m.token });
      break;
    }
    case "keep_favor": {
      const tok = favorToken(view, seat, m.token);
      text = t("move.keep_favor", { reward: tok ? rewardText(tok.reward) : "#" + m.token, location: tok ? loc(tok.location) : "" });
      break;
    }
    case "end_visit":
      text = t("move.end_visit", { location: loc(turn.visit && turn.visit.location) });
      break;
    case "event_option":
      text = t("move.event_option", { option: t("opt." + m.option) });
      break;
    case "choose_resource":
      text = t("move.choose_resource", { resource: res(m.resource) });
      break;
    case "place_councilor":
      text = t("move.place_councilor", { location: loc(m.location) });
      break;
    default:
      text = has("move." + m.kind) ? t("move." + m.kind) : humanize(m.kind);
  }
  if (withPay && m.pay) text += " — " + t("move.pay", { pay: costText(m.pay) });
  return text;
}

// Which board things a move involves (for highlighting and filtering).
export function involves(m, view) {
  const seat = view.me ? view.me.seat : 0;
  const out = new Set();
  if (m.location) out.add("loc:" + m.location);
  if (m.advisor) out.add("adv:" + m.advisor);
  if (m.card) out.add("card:" + m.card);
  if (m.kind === "move" || (m.kind === "card_action" && m.councilor)) {
    const steps = m.kind === "move" ? view.turn && view.turn.slot : 1;
    const d = destination(view, seat, m.councilor, steps);
    if (d) out.add("loc:" + d);
  }
  if (VISIT_KINDS.includes(m.kind) && view.turn && view.turn.visit) out.add("loc:" + view.turn.visit.location);
  if (m.kind === "raise_title") {
    const nt = nextTitle(view, seat);
    if (nt) out.add("title:" + nt.id);
  }
  return out;
}

// ---------- events in words ----------

const FIELD_FMT = {
  card: card,
  location: loc,
  advisor: adv,
  resource: res,
  take: res,
  give: res,
  title: (x) => t("title." + x),
  event: (x) => t("event." + x),
  councilor: councilorName,
  option: (x) => t("opt." + x),
  why: (x) => (has("why." + x) ? t("why." + x) : humanize(x).toLowerCase()),
};

export function describeEvent(e, nameOf) {
  const who = e.seat !== undefined && e.seat !== null ? nameOf(e.seat) : t("log.someone");
  const params = { who };
  if (e.type === "marker_advanced") {
    params.marker = t("marker." + e.marker);
    params.resource_name = e.resource ? `(${t("res." + e.resource)})` : "";
    params.value = e.removed ? `${e.value} (${t("table.board_value")})` : e.value;
    return t("ev.marker_advanced", params);
  }
  if (e.type === "harvested") {
    return t("ev.harvested", { who, location: t("loc." + e.location), resource: e.resource, resource_name: t("res." + COUNTRYSIDE_RES[e.location]), bread: e.bread || 0 });
  }
  if (e.type === "councilor_moved") {
    return t("ev.councilor_moved", { who, councilor: t("councilor." + e.councilor), steps: e.steps, to: t("loc." + e.to) });
  }
  if ((e.type === "favor_kept" || e.type === "favor_cashed") && e.token && typeof e.token === "object") {
    return t("ev." + e.type, { who, token: `${t("loc." + e.token.location)} — ${costText(e.token.reward)}` });
  }
  if (e.type === "game_finished") return t("ev.game_finished");
  for (const [k, v] of Object.entries(e)) {
    if (k === "type" || k === "seat") continue;
    if (FIELD_FMT[k] && typeof v === "string") params[k] = FIELD_FMT[k](v);
    else if (v && typeof v === "object" && !Array.isArray(v)) params[k] = costText(v);
    else if (Array.isArray(v)) params[k] = v.map((x) => (typeof x === "object" ? costText(x.reward || x) : x)).join(", ");
    else params[k] = v;
  }
  const key = "ev." + e.type;
  if (has(key)) return t(key, params);
  const extras = Object.entries(params)
    .filter(([k]) => k !== "who" && k !== "private" && k !== "version" && k !== "to_seat")
    .map(([k, v]) => `${humanize(k).toLowerCase()} ${v}`)
    .join(", ");
  const what = humanize(e.type).toLowerCase() + (extras ? ` (${extras})` : "");
  return e.seat !== undefined && e.seat !== null ? t("log.generic", { who, what }) : humanize(what);
}
