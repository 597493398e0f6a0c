// Presence: a dot per person's seat — a filled ring (◉) when a socket of theirs is open now, on
// any server, a dotted one (◌) when away (shapes unlike the seat symbols ● ▲ ■ ◆), with the words ("here", "away since 21:04") so it is never told
// by colour alone. Fed by the lobby's seats (present, last_seen) and `presence` frames.
import { t, lang } from "./i18n.js";
import { h } from "./dom.js";

// seat -> {present, last_seen}, from a lobby's seat list or a presence frame's
export function presenceMap(seats, into = new Map()) {
  for (const s of seats || []) {
    if (s && typeof s.seat === "number" && "present" in s) into.set(s.seat, { present: !!s.present, last_seen: s.last_seen || null });
  }
  return into;
}

export function presenceText(p) {
  if (!p) return "";
  if (p.present) return t("presence.here");
  if (!p.last_seen) return t("presence.away");
  const at = new Date(p.last_seen);
  const sameDay = at.toDateString() === new Date().toDateString();
  // in the page's language ("23:35" in German and Czech, "11:35 PM" in English)
  const locale = lang() || undefined;
  const time = new Intl.DateTimeFormat(locale, { hour: "2-digit", minute: "2-digit" }).format(at);
  const when = sameDay ? time : `${new Intl.DateTimeFormat(locale, { dateStyle: "short" }).format(at)} ${time}`;
  return t("presence.away_since", { time: when });
}

export function presenceDot(p, seat) {
  if (!p) return null;
  const state = p.present ? "present" : "away";
  return h("span.presence", { class: state, "data-testid": "presence", "data-seat": seat, "data-state": state, title: presenceText(p) },
    h("span.presence-dot", { "aria-hidden": "true" }, p.present ? "◉" : "◌"),
    h("span.presence-text", presenceText(p)));
}
