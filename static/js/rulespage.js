// Route /rules: the rules reference of Crown of Emara, one section per question a player asks.
// Every number comes from the engine's components data (rulesdata.js): the catalogue texts
// (rules.*) carry {placeholders}, and each number is put in as an element that names its data
// path (data-rule="advisors.A.3.cost.stone"), so a corrected components.json corrects the page.
// The pictures are the table's own pieces: chips, a councilor pawn, a rondel, huts, cards,
// advisors and title stacks, drawn with the same classes (the building blocks: rulesparts.js).
import { t } from "./i18n.js";
import { h, clear } from "./dom.js";
import { LOCATION_SYMBOL, chip } from "./pieces.js";
import { loadComponents } from "./rulesdata.js";
import { useData, num, chipN, chipsAt, rich, p, li, word, section, sub, pawn, rondel, card, legend } from "./rulesparts.js";

// The sections in the order of the table of contents (their ids are the public anchors).
export const SECTIONS = [
  "setup", "turn", "locations", "market", "deliveries", "favor-tokens", "titles", "craftsmen",
  "advisors", "events", "round-end", "scoring", "solo", "variants",
];

let D = null; // the components data of the page being built

// ---------- sections ----------

function intro() {
  return h("div.rules-intro",
    p("rules.intro", { min: num("effects.players.min"), max: num("effects.players.max"), rounds: num("effects.rounds") }),
    p("rules.intro_score"),
    legend());
}

function setup() {
  return section("setup", t("rules.setup.title"),
    h("ul",
      li("rules.setup.rondels", { n: num("town.length") }),
      li("rules.setup.markers"),
      li("rules.setup.advisors", { per: num("effects.advisors_per_town_location"), a: num("advisors.A.length"), b: num("advisors.B.length") }),
      li("rules.setup.favor", { n: num("favor_tokens.tokens.length") }),
      li("rules.setup.nobility", { titles: num("nobility.titles.length"), cards: num("nobility.titles.0.cards.length") }),
      li("rules.setup.events", { n: num("events.cards.length") }),
      li("rules.setup.player", { craftsmen: num("craftsman_cp.values.length"), cards: num("action_cards.length"), hand: num("effects.hand_size") }),
      li("rules.setup.start", { n: num("effects.setup_resource") })));
}

const CARD_TEXT = {
  take_wood: () => rich("rules.card.take", { res: word("wood") }),
  take_stone: () => rich("rules.card.take", { res: word("stone") }),
  take_cloth: () => rich("rules.card.take", { res: word("cloth") }),
  take_grain: () => rich("rules.card.take", { res: word("grain") }),
  take_ring: () => rich("rules.card.take_ring"),
  gold: () => rich("rules.card.gold", { r1: num("effects.gold_card.1.@key"), g1: chipN("gold", "effects.gold_card.1"), r3: num("effects.gold_card.3.@key"), g3: chipN("gold", "effects.gold_card.3") }),
  move1: () => rich("rules.card.move1"),
  hire_discount: () => rich("rules.card.hire_discount", { n: num("effects.hire_discount") }),
  town_action: () => rich("rules.card.town_action"),
};

// The table's name of a card; the two whose names hold a number get it from the data (or say it).
function cardName(c) {
  if (c === "hire_discount") return rich("rules.cardname.hire_discount", { n: num("effects.hire_discount") });
  if (c === "move1") return t("rules.cardname.move1");
  return t("card." + c);
}

function turn() {
  const slots = D.slots.map((_, i) => num("slots." + i));
  return section("turn", t("rules.turn.title"),
    p("rules.turn.slots", { n: num("slots.length"), a: slots[0], b: slots[1], c: slots[2], hand: num("effects.hand_size") }),
    h("ol.rules-steps",
      li("rules.turn.step_card"),
      h("li", pawn(0), " ", rich("rules.turn.step_move")),
      li("rules.turn.step_action"),
      li("rules.turn.step_bonus"),
      li("rules.turn.step_advisor"),
      li("rules.turn.step_end")),
    p("rules.turn.gold_wild"),
    h("h3", t("rules.turn.cards")),
    h("ul.rules-cards", D.action_cards.map((c) => card(cardName(c), (CARD_TEXT[c] || (() => t("cardtext." + c)))(), { "data-card": c }))));
}

function markerTable(kind, res) {
  const m = D.markers[kind];
  // the rows are the player counts ("2-3", "4"); the 2-player start exception is said in words
  // below the table, not as a row
  const sides = Object.keys(m).filter((k) => /^\d/.test(k) && Array.isArray(m[k])).sort();
  return h("table.rules-table.rules-markers",
    h("caption", rich("rules.markers.caption_" + kind, res ? { res: chip(res) } : {})),
    h("thead", h("tr", h("th", { scope: "col" }, t("rules.markers.players")), h("th", { scope: "col" }, t("rules.markers.values")), h("th", { scope: "col" }, t("rules.markers.board")))),
    h("tbody", sides.map((side) => h("tr",
      h("th", { scope: "row" }, num(`markers.${kind}.${side}.@key`)),
      h("td", m[side].map((_, i) => [i ? " → " : "", num(`markers.${kind}.${side}.${i}`)])),
      h("td", num(`markers.${kind}.board`))))));
}

function locations() {
  const cs = Object.keys(D.countryside);
  const countrysideSub = cs.map((id) => sub(id, [h("span.sym", { "aria-hidden": "true" }, LOCATION_SYMBOL[id], " "), t("loc." + id)],
    p("rules.loc.countryside", { res: chip(D.countryside[id]), word: word(D.countryside[id]) }),
    p("rules.loc.countryside_craftsmen", { res: word(D.countryside[id]) }),
    p("rules.loc.huts_link", { link: h("a", { href: "#craftsmen" }, t("rules.craftsmen.title")) })));
  const gift2 = D.markers.gift.two_player_advanced.map(word).join(", ");
  const don2 = D.markers.donation.two_player_advanced.map(word).join(", ");
  const townSub = D.town.filter((id) => id !== "market").map((id) => {
    const title = [h("span.sym", { "aria-hidden": "true" }, LOCATION_SYMBOL[id], " "), t("loc." + id)];
    if (id === "castle") return sub(id, title,
      h("ul", li("rules.loc.castle_gift", { ring: chipN("ring", "effects.castle_gift_ring") }), li("rules.loc.castle_book", { bp: chipN("bp", "castle_book_bp") })),
      markerTable("gift"), p("rules.loc.two_player_gift", { list: gift2 }));
    if (id === "cathedral") return sub(id, title,
      p("rules.loc.cathedral", { book: chipN("book", "effects.donation_book"), draw: num("effects.favor_draw"), keep: num("effects.favor_keep") }),
      markerTable("donation"), p("rules.loc.two_player_donation", { list: don2 }));
    if (id === "construction_site") return sub(id, title,
      p("rules.loc.construction_site", { link: h("a", { href: "#deliveries" }, t("rules.deliveries.title")) }));
    return sub(id, title);
  });
  return section("locations", t("rules.locations.title"),
    p("rules.locations.intro", { n: num("town.length") }),
    h("div.rules-rondels", rondel("countryside", cs), rondel("town", D.town)),
    p("rules.locations.visit"),
    h("p.rules-group", t("table.rondel_countryside")), countrysideSub,
    h("p.rules-group", t("table.rondel_town")), townSub);
}

function market() {
  const books = Object.keys(D.market_books_cp);
  return section("market", [h("span.sym", { "aria-hidden": "true" }, LOCATION_SYMBOL.market, " "), t("loc.market")],
    p("rules.market.intro"),
    h("ul", li("rules.market.gold", { r: num("effects.market_gold.resources"), g: chipN("gold", "effects.market_gold.gold") }), li("rules.market.books")),
    h("table.rules-table",
      h("caption", t("rules.market.caption")),
      h("thead", h("tr", h("th", { scope: "col" }, t("rules.market.books_col")), h("th", { scope: "col" }, t("rules.market.cp_col")))),
      h("tbody", books.map((k) => h("tr", h("th", { scope: "row" }, chip("book"), " ", num(`market_books_cp.${k}.@key`)), h("td", chipN("cp", `market_books_cp.${k}`)))))));
}

function deliveries() {
  const wood = Object.keys(D.wood_bp);
  return section("deliveries", t("rules.deliveries.title"),
    p("rules.deliveries.intro"),
    h("ul",
      li("rules.deliveries.stone", { bp: chipN("bp", "stone_bp") }),
      li("rules.deliveries.bread", { max: num("effects.deliver_bread_max") }),
      li("rules.deliveries.wood", { w1: chipN("wood", `wood_bp.${wood[0]}.@key`), bp1: chipN("bp", `wood_bp.${wood[0]}`), w3: chipN("wood", `wood_bp.${wood[1]}.@key`), bp3: chipN("bp", `wood_bp.${wood[1]}`) })),
    markerTable("stone"), markerTable("bread"),
    p("rules.deliveries.two_player"));
}

function favorTokens() {
  const tokens = D.favor_tokens.tokens;
  return section("favor-tokens", t("rules.favor.title"),
    p("rules.favor.intro", { n: num("favor_tokens.tokens.length"), draw: num("effects.favor_draw"), keep: num("effects.favor_keep") }),
    p("rules.favor.cash"),
    p("rules.favor.same_visit"),
    h("table.rules-table",
      h("caption", t("rules.favor.caption")),
      h("thead", h("tr", h("th", { scope: "col" }, t("rules.favor.location_col")), h("th", { scope: "col" }, t("rules.favor.reward_col")))),
      h("tbody", D.town.map((loc) => h("tr", h("th", { scope: "row" }, t("loc." + loc)),
        h("td.rules-chips", tokens.map((tok, i) => (tok.location === loc ? chipsAt(`favor_tokens.tokens.${i}.reward`) : null))))))));
}

function titles() {
  return section("titles", t("rules.titles.title"),
    p("rules.titles.intro"),
    p("rules.titles.stacks", { n: num("nobility.titles.0.cards.length") }),
    h("div.nobility.rules-nobility", D.nobility.titles.map((ti, i) => h("div.title-stack",
      h("strong", "♔ ", t("title." + ti.id)),
      h("span.adv-meta", chipsAt(`nobility.titles.${i}.cost`)),
      h("span.rules-cards-cp", t("rules.titles.cards"), " ", ti.cards.map((_, j) => [j ? ", " : "", num(`nobility.titles.${i}.cards.${j}`)]))))),
    p("rules.titles.event"));
}

function craftsmen() {
  return section("craftsmen", t("rules.craftsmen.title"),
    p("rules.craftsmen.intro", { n: num("craftsman_cp.values.length") }),
    p("rules.craftsmen.cp", { list: D.craftsman_cp.values.map((_, i) => [i ? ", " : "", chipN("cp", "craftsman_cp.values." + i)]) }),
    p("rules.craftsmen.limit", { max: num("max_own_craftsmen_per_location") }),
    h("div.rules-huts", Object.keys(D.countryside).map((loc) => h("div.rules-hutbox",
      h("h3", h("span.sym", { "aria-hidden": "true" }, LOCATION_SYMBOL[loc], " "), t("loc." + loc)),
      h("ul.huts", { "aria-label": t("table.huts") }, D.huts[loc].map((_, i) => h("li.free", h("span.rules-hut", { "aria-hidden": "true" }, "⌂"), " ", chipsAt(`huts.${loc}.${i}`))))))));
}

const ADV_TEXT = {
  master_of_coin: () => rich("rules.adv.at_once", { gain: chipsAt("effects.advisor_immediate.master_of_coin") }),
  archivist: () => rich("rules.adv.at_once", { gain: chipsAt("effects.advisor_immediate.archivist") }),
  goldsmith: () => rich("rules.adv.at_once", { gain: chipsAt("effects.advisor_immediate.goldsmith") }),
  carpenter: () => rich("rules.adv.at_once", { gain: chipsAt("effects.advisor_immediate.carpenter") }),
  baker: () => rich("rules.adv.baker", { pay1: chipsAt("effects.baker.1"), b1: chipN("bread", "effects.baker.1.@key"), pay2: chipsAt("effects.baker.2"), b2: chipN("bread", "effects.baker.2.@key") }),
  schoolmarm: () => rich("rules.adv.schoolmarm", { n: num("effects.schoolmarm.resources"), book: chipN("book", "effects.schoolmarm.book") }),
  bailiff: () => rich("rules.adv.bailiff", { ring: chipN("ring", "effects.bailiff.ring"), bp: chipN("bp", "effects.bailiff.bp") }),
  dressmaker: () => rich("rules.adv.dressmaker", { cloth: chipN("cloth", "effects.dressmaker.cloth"), cp: chipN("cp", "effects.dressmaker.cp") }),
  landlord: () => rich("rules.adv.landlord", { cloth: chipN("cloth", "effects.landlord.cloth"), cp: chipN("cp", "effects.landlord.cp"), bp: chipN("bp", "effects.landlord.bp") }),
  merchant: () => rich("rules.adv.merchant", { n: num("effects.merchant.resources") }),
  chamberlain: () => rich("rules.adv.chamberlain", { ring: chipN("ring", "effects.chamberlain.ring"), gold: chipN("gold", "effects.chamberlain.gold") }),
  scholar: () => rich("rules.adv.scholar"),
  mayoress: () => rich("rules.adv.mayoress", { cp: chipN("cp", "effects.mayoress_gift_cp", { signed: true }) }),
  steward: () => rich("rules.adv.steward"),
  abbess: () => rich("rules.adv.abbess", { book: chipN("book", "effects.abbess_donation_book", { signed: true }) }),
  toolmaker: () => rich("rules.adv.toolmaker", { bp: chipN("bp", "effects.toolmaker_bp", { signed: true }) }),
};

function advisorCard(path, adv, text) {
  const gain = adv.cp !== undefined ? chipN("cp", path + ".cp") : null;
  const bEffect = adv.effect ? chipsAt(path + ".effect") : null;
  return h("li.advisor.rules-advisor", { "data-advisor": adv.id },
    h("span.adv-name", t("adv." + adv.id)),
    h("span.adv-meta", chipsAt(path + ".cost"), " → ", gain, bEffect),
    text ? h("span.adv-text", text) : null);
}

function advisors() {
  const groups = ["immediate", "per_turn", "permanent"];
  return section("advisors", t("rules.advisors.title"),
    p("rules.advisors.intro"),
    p("rules.advisors.display", { per: num("effects.advisors_per_town_location"), a: num("advisors.A.length"), b: num("advisors.B.length") }),
    p("rules.advisors.not_action"),
    groups.map((g) => [h("h3", t("rules.advisors.kind_" + g)),
      h("ul.advisor-list.rules-advisors", D.advisors.A.map((a, i) => (a.kind === g ? advisorCard("advisors.A." + i, a, (ADV_TEXT[a.id] || (() => null))()) : null)))]),
    h("h3", t("rules.advisors.kind_b")),
    p("rules.advisors.b_intro"),
    h("ul.advisor-list.rules-advisors", D.advisors.B.map((b, i) => advisorCard("advisors.B." + i, b, null))));
}

function eventEffect(id) {
  const e = D.effects.events[id] || {};
  const base = "effects.events." + id;
  if (e.gain) return p("rules.event.gain", { gain: chipsAt(base + ".gain") });
  if (e.options) {
    return [p("rules.event.options"), h("ul", Object.keys(e.options).map((o) => {
      const opt = e.options[o];
      const payKey = opt.pay ? "pay" : "spend";
      const reward = ["cp", "bp"].filter((k) => opt[k] !== undefined).map((k) => chipN(k, `${base}.options.${o}.${k}`));
      return li("rules.event.option_" + payKey, { cost: chipsAt(`${base}.options.${o}.${payKey}`), reward });
    }))];
  }
  const key = Object.keys(e)[0];
  if (!key) return null;
  return p("rules.event." + key, { n: num(`${base}.${key}`, { signed: key === "bp_modifier" }) });
}

function events() {
  const timings = ["reveal", "end_of_round", "round"];
  return section("events", t("rules.events.title"),
    p("rules.events.intro", { n: num("events.cards.length") }),
    p("rules.events.start"),
    timings.map((tm) => [h("h3", t("rules.events.timing_" + tm)),
      h("ul.rules-cards.rules-events", D.events.cards.map((ev, i) => (ev.timing !== tm ? null : h("li.card.rules-card", { "data-event": ev.id },
        h("h4.card-name", t("event." + ev.id)),
        h("div.card-text", eventEffect(ev.id)),
        h("div.rules-start", t("rules.events.start_line"), " ", t("loc." + ev.start[0]), " · ", t("loc." + ev.start[1]), " · ", chipN("bp", `events.cards.${i}.start.2`)),
        ev.solo_removed ? h("div.rules-solo-note", t("rules.events.solo_removed")) : null))))]));
}

function roundEnd() {
  return section("round-end", t("rules.round_end.title"),
    p("rules.round_end.intro", { rounds: num("effects.rounds") }),
    h("ol.rules-steps",
      li("rules.round_end.event"),
      li("rules.round_end.victoria"),
      li("rules.round_end.statue"),
      li("rules.round_end.slots"),
      li("rules.round_end.reshuffle", { round: num("effects.reshuffle_after_round"), cards: num("action_cards.length") }),
      li("rules.round_end.draw", { hand: num("effects.hand_size") })),
    p("rules.round_end.final", { rounds: num("effects.rounds") }));
}

function scoring() {
  const goods = ["ring", "gold", "favor_token", "book", "bread"];
  return section("scoring", t("rules.scoring.title"),
    p("rules.scoring.intro"),
    h("table.rules-table",
      h("caption", t("rules.scoring.caption")),
      h("thead", h("tr", h("th", { scope: "col" }, t("rules.scoring.item")), h("th", { scope: "col" }, t("rules.scoring.points")))),
      h("tbody",
        goods.map((g) => h("tr", h("th", { scope: "row" }, g === "favor_token" ? t("rules.scoring.favor_token") : [chip(g), " ", word(g)]), h("td", num("final_scoring." + g)))),
        h("tr", h("th", { scope: "row" }, rich("rules.scoring.resources", { n: num("final_scoring.resources_per_point") })), h("td", t("rules.scoring.one_point"))))),
    p("rules.scoring.split"),
    p("rules.scoring.final"),
    p("rules.scoring.modifiers"),
    h("h3", t("rules.scoring.ties_title")),
    h("ol.rules-steps", li("rules.scoring.tie1"), li("rules.scoring.tie2"), li("rules.scoring.tie3"), li("rules.scoring.tie4")));
}

function solo() {
  const rounds = Object.keys(D.solo.victoria_titles_by_round);
  const early = D.events.cards.find((e) => e.solo_removed);
  return section("solo", t("rules.solo.title"),
    p("rules.solo.intro"),
    p("rules.solo.setup", { four: num("markers.solo_sides.stone"), two: num("markers.solo_sides.gift"), event: early ? t("event." + early.id) : "" }),
    p("rules.solo.step", { from: num("effects.victoria_from_round"), to: num("effects.rounds") }),
    h("table.rules-table",
      h("caption", t("rules.solo.caption")),
      h("thead", h("tr", h("th", { scope: "col" }, t("rules.solo.round")), h("th", { scope: "col" }, t("rules.solo.title_col")))),
      h("tbody", rounds.map((r) => h("tr", h("th", { scope: "row" }, num(`solo.victoria_titles_by_round.${r}.@key`)), h("td", "♔ ", t("title." + D.solo.victoria_titles_by_round[r])))))),
    p("rules.solo.last"),
    h("h3", t("rules.solo.modes")),
    h("ul",
      li("rules.solo.high_score"),
      li("rules.solo.campaign", { first: chipN("bp", "solo.campaign_first_start"), win: num("solo.campaign_win_step", { signed: true }), loss: num("solo.campaign_loss_step", { signed: true }) }),
      li("rules.solo.result")),
    h("p", h("a", { href: "/solo", "data-link": "" }, t("rules.solo.play"))));
}

function variants() {
  return section("variants", t("rules.variants.title"),
    h("ul",
      li("rules.variants.random"),
      li("rules.variants.full", { n: num("action_cards.length"), round: num("effects.reshuffle_after_round") })));
}

// ---------- the page ----------

function toc() {
  const entries = [
    ["setup", t("rules.setup.title")], ["turn", t("rules.turn.title")], ["locations", t("rules.locations.title")],
  ];
  const locs = [...Object.keys(D.countryside), ...D.town.filter((x) => x !== "market")];
  const rest = [
    ["market", t("loc.market")], ["deliveries", t("rules.deliveries.title")], ["favor-tokens", t("rules.favor.title")],
    ["titles", t("rules.titles.title")], ["craftsmen", t("rules.craftsmen.title")], ["advisors", t("rules.advisors.title")],
    ["events", t("rules.events.title")], ["round-end", t("rules.round_end.title")], ["scoring", t("rules.scoring.title")],
    ["solo", t("rules.solo.title")], ["variants", t("rules.variants.title")],
  ];
  const a = (id, text) => h("a", { href: "#" + id }, text);
  return h("nav.rules-toc", { "aria-labelledby": "rules-toc-h" },
    h("h2", { id: "rules-toc-h" }, t("rules.toc")),
    h("ul",
      entries.map(([id, text]) => h("li", a(id, text), id === "locations" ? h("ul.rules-toc-sub", locs.map((l) => h("li", a(l, t("loc." + l))))) : null)),
      rest.map(([id, text]) => h("li", a(id, text)))));
}

// Scroll to a section and give it the focus (a deep link, or a contents link).
export function goTo(id, push) {
  const target = id && document.getElementById(id);
  if (!target) return false;
  if (push) history.pushState({}, "", "#" + id);
  target.scrollIntoView({ block: "start" });
  target.focus({ preventScroll: true });
  return true;
}

export async function renderRules(root) {
  document.title = t("rules.title") + " — " + t("app.title");
  clear(root).append(h("p", t("app.loading")));
  try {
    D = await loadComponents();
    useData(D);
  } catch (e) {
    clear(root).append(h("p.records-error", { role: "alert" }, e.text || String(e)));
    return;
  }
  const page = h("article.rules", { "data-testid": "rules-page", tabindex: "-1" },
    h("h1", t("rules.title")),
    intro(), toc(),
    setup(), turn(), locations(), market(), deliveries(), favorTokens(), titles(), craftsmen(), advisors(), events(), roundEnd(), scoring(), solo(), variants(),
    h("p.rules-top", h("a", { href: "#top-of-rules" }, t("rules.back_to_top"))));
  page.id = "top-of-rules";
  // Links within the page scroll and focus here (no new route: the page stays as it is).
  page.addEventListener("click", (e) => {
    const a = e.target.closest && e.target.closest('a[href^="#"]');
    if (a && e.button === 0 && !e.metaKey && !e.ctrlKey && goTo(decodeURIComponent(a.hash.slice(1)), true)) e.preventDefault();
  });
  clear(root).append(page);
  const hash = decodeURIComponent(location.hash.slice(1));
  if (hash) goTo(hash, false);
}
