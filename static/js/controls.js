// The controls: the hand (cards with the slots they may be played on) and the other legal moves of
// the server's `legal_moves`, grouped into choices; a choice with several payments opens a picker.
// The chosen move goes to the table screen's send(), which sends it over the socket.
import { t } from "./i18n.js";
import { h, clear } from "./dom.js";
import { BOT_GLYPH, botLevelLabel, costChips } from "./pieces.js";
import { GROUP_ORDER, choiceKey, describeMove, groupOf, involves } from "./moves.js";

export function renderControls(ts) {
  const box = document.getElementById("controls");
  if (!box) return;
  clear(box);
  const v = ts.view;
  const me = v.me;
  const botLevel = ts.botPlaysMe() ? ts.botLevelOf(ts.mySeat) : null;
  // hand with play_card choices
  if (me) {
    const hand = h("ul.hand", { "data-testid": "hand", "data-key": "me:hand", "aria-label": t("table.hand") });
    // while a bot plays the seat, its moves are the bot's: the hand is shown, not played
    const playable = botLevel ? [] : ts.legal.filter((m) => m.kind === "play_card");
    for (const c of me.hand || []) {
      const slots = playable.filter((m) => m.card === c);
      hand.append(
        h("li.card", { class: slots.length ? "playable" : "", "data-testid": "card", "data-card": c },
          h("h3.card-name", { "data-explain": "card:" + c, tabindex: "0" }, t("card." + c)),
          h("div.card-text", t("cardtext." + c)),
          slots.length
            ? h("div.card-slots", h("span.muted", t("table.play_on")), " ",
                slots.sort((a, b) => a.slot - b.slot).map((m) =>
                  h("button.slot-btn", { type: "button", "data-testid": "legal-move", "data-kind": "play_card", "data-move": JSON.stringify(m), "aria-label": describeMove(m, v), title: describeMove(m, v), onclick: () => ts.send(m) }, String(m.slot))))
            : null)
      );
    }
    if (!(me.hand || []).length) hand.append(h("li.muted", t("table.hand_empty")));
    // my turn, but no card to play now: the hand folds to the cards' names on a phone, to leave
    // room for the moves
    const fold = !playable.length && ts.legal.length > 0;
    box.append(h("div.hand-wrap", { class: fold ? "idle" : "" }, h("h2", t("table.hand")), hand));
  }
  // the rest of the legal moves, grouped
  const actions = h("div.actions", { "data-testid": "actions" });
  actions.append(h("h2", t("table.actions")));
  if (botLevel) {
    actions.append(
      h("div.bot-note", { "data-testid": "bot-playing" },
        h("p", h("span.bot-glyph", { "aria-hidden": "true" }, BOT_GLYPH, " "), t("bot.plays_your_seat", { level: botLevelLabel(botLevel) })),
        v.phase === "finished" || ts.status === "finished"
          ? null
          : h("button.primary", { type: "button", "data-testid": "reclaim-seat", disabled: ts.seatBusy, onclick: () => ts.reclaim() }, "↩ ", t("bot.reclaim")))
    );
    box.append(actions);
    return;
  }
  if (ts.picker) {
    actions.append(
      h("div.picker", { role: "group", "aria-label": t("table.choose_payment"), "data-testid": "pay-picker", "data-key": "me:decision" },
        h("h3", t("table.choose_payment")),
        h("p", ts.picker.label),
        h("div.pay-options", ts.picker.moves.map((m) =>
          h("button.pay", { type: "button", "data-testid": "pay-option", "data-move": JSON.stringify(m), onclick: () => ts.send(m) }, costChips(m.pay)))),
        h("button.link", { type: "button", "data-testid": "pay-cancel", onclick: () => {
          ts.picker = null;
          renderControls(ts);
          const first = document.querySelector("#controls [data-testid=legal-move]");
          if (first) first.focus();
        } }, t("table.cancel")))
    );
    box.append(actions);
    return;
  }
  if (ts.filter) {
    actions.append(h("p.filter", t("table.filter", { what: filterName(ts.filter) }), " ",
      h("button.link", { type: "button", onclick: () => ts.setFilter(ts.filter) }, t("table.filter_clear"))));
  }
  const groups = new Map();
  let endTurn = null;
  for (const m of ts.legal) {
    const g = groupOf(m);
    if (g === "play_card") continue;
    if (g === "end_turn") { endTurn = m; continue; }
    if (ts.filter && !involves(m, v).has(ts.filter) && g !== "decision") continue;
    if (!groups.has(g)) groups.set(g, new Map());
    const ck = choiceKey(m);
    const gm = groups.get(g);
    if (!gm.has(ck)) gm.set(ck, []);
    gm.get(ck).push(m);
  }
  let any = false;
  for (const g of GROUP_ORDER) {
    if (!groups.has(g)) continue;
    any = true;
    const title = g === "visit" && v.turn && v.turn.visit ? t("table.visit", { location: t("loc." + v.turn.visit.location) }) : t("group." + g);
    const list = h("div.choices");
    for (const [, moves] of groups.get(g)) {
      const label = describeMove(moves[0], v);
      const costs = moves.length === 1 && moves[0].pay ? h("span.btn-cost", costChips(moves[0].pay)) : moves.length > 1 ? h("span.btn-cost", "· ", t("table.choose_payment"), " ▸") : null;
      list.append(h("button.choice", {
        type: "button",
        class: "k-" + moves[0].kind,
        "data-testid": "legal-move",
        "data-kind": moves[0].kind,
        "data-choices": String(moves.length),
        "data-move": JSON.stringify(moves[0]),
        onclick: () => ts.choose(moves, label),
      }, h("span", label), costs));
    }
    actions.append(h("div.group", { class: "g-" + g }, h("h3", title), list));
  }
  if (endTurn) {
    actions.append(h("button.end-turn.primary", { type: "button", "data-testid": "end-turn", "data-kind": "end_turn", "data-move": JSON.stringify(endTurn), onclick: () => ts.send(endTurn) }, "⏎ ", t("table.end_turn")));
    any = true;
  }
  if (!any && ts.legal.some((m) => m.kind === "play_card")) actions.append(h("p.hint", t("table.play_hint")));
  if (!any && !ts.legal.some((m) => m.kind === "play_card")) {
    actions.append(h("p.muted", me ? (v.phase === "finished" ? t("end.title") : t("table.no_actions")) : t("table.spectating")));
  }
  box.append(actions);
}

function filterName(f) {
  const [kind, id] = f.split(":");
  if (kind === "loc") return t("loc." + id);
  if (kind === "adv") return t("adv." + id);
  if (kind === "card") return t("card." + id);
  if (kind === "title") return t("title." + id);
  return id;
}
