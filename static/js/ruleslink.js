// A link to one section of the rules reference (/rules#<anchor>), for any screen. The anchors are
// the section ids of rulespage.js: turn, locations, the location ids (forest … market),
// deliveries, favor-tokens, titles, craftsmen, advisors, events, round-end, scoring, solo, variants.
import { h } from "./dom.js";
import { t } from "./i18n.js";

export function rulesHref(anchor) {
  return anchor ? "/rules#" + encodeURIComponent(anchor) : "/rules";
}

// An <a> to the rules; `text` defaults to the word "Rules". In this tab it stays a client route
// (data-link); with `attrs.target` (a live table keeps its screen) it opens beside it.
export function rulesLink(anchor, text, attrs = {}) {
  const where = attrs.target ? { rel: "noopener" } : { "data-link": "" };
  return h("a.rules-link", { href: rulesHref(anchor), ...where, ...attrs }, text || t("rules.link"));
}
