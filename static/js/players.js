// The players: the score track (CP and BP of every seat, SVG), each player's board with the bot
// tools under it, and the final scores with the rematch.
import { t } from "./i18n.js";
import { h, s } from "./dom.js";
import { BOT_GLYPH, GOODS, RESOURCES, SEAT_SYMBOLS, botLevelLabel, botLevelSelect, botTag, chip, costText, seatToken } from "./pieces.js";
import { scoreRows } from "./scorebar.js";
import { leftoverText, tracksOf, victoriaTracks } from "./tracks.js";
import { SoloNext } from "./soloend.js";
import { breakdownChart } from "./breakdown.js";
import { replayLine } from "./publicreplay.js";


export function renderScoreTrack(ts) {
  const rows = scoreRows(ts); // the final tracks once the game is over
  const maxVal = Math.max(60, ...rows.map((r) => Math.max(r.cp || 0, r.bp || 0))) + 10;
  const W = 400, L = 70, rowH = 30;
  const H = rows.length * rowH + 22;
  const x = (val) => L + ((W - L - 12) * val) / maxVal;
  const svg = s("svg", { viewBox: `0 0 ${W} ${H}`, class: "score-svg", role: "img", "aria-label": t("table.score_track") });
  for (let tick = 0; tick <= maxVal; tick += 10) {
    svg.append(s("line", { x1: x(tick), x2: x(tick), y1: 4, y2: H - 16, class: "tick" }));
    svg.append(s("text", { x: x(tick), y: H - 4, class: "tick-label" }, String(tick)));
  }
  rows.forEach((r, i) => {
    const y = 16 + i * rowH;
    // a bot of its own goes by its level's word here, the name being "Bot · …"
    const short = r.bot && !ts.hasPlayer(r.seat) ? t("bot.word." + r.bot) : r.name;
    const label = r.bot ? `${SEAT_SYMBOLS[r.seat]} ${BOT_GLYPH} ${short.slice(0, 7)}` : `${r.seat === "v" ? "♕" : SEAT_SYMBOLS[r.seat]} ${r.name.slice(0, 9)}`;
    svg.append(s("text", { x: 4, y: y + 4, class: "track-name" + (r.bot ? " bot" : "") }, label,
      r.bot ? s("title", {}, `${r.name} — ${t("bot.played_by", { level: botLevelLabel(r.bot) })}`) : null));
    svg.append(s("line", { x1: L, x2: W - 12, y1: y, y2: y, class: "track-line" }));
    const lowerIsCp = r.bp === null || r.cp <= r.bp;
    const cls = r.seat === "v" ? "seatv" : "seat" + r.seat;
    // CP: circle, BP: square — the lower gets a star and a thick ring
    const keyOf = (track) => (r.seat === "v" ? "victoria:cp" : `player:${r.seat}:${track}`);
    const cp = s("g", { class: `track-marker cp ${cls}${lowerIsCp ? " lower" : ""}`, "data-key": keyOf("cp") });
    cp.append(s("circle", { cx: x(r.cp), cy: y, r: lowerIsCp ? 10 : 8 }));
    cp.append(s("text", { x: x(r.cp), y: y + 4 }, t("table.cp_mark")));
    cp.append(s("title", {}, `${r.name}: ${r.cp} ${t("table.cp")}${lowerIsCp ? " ★ " + t("table.lower") : ""}`));
    svg.append(cp);
    if (r.bp !== null) {
      const bp = s("g", { class: `track-marker bp ${cls}${!lowerIsCp ? " lower" : ""}`, "data-key": keyOf("bp") });
      const sz = !lowerIsCp ? 19 : 15;
      bp.append(s("rect", { x: x(r.bp) - sz / 2, y: y - sz / 2, width: sz, height: sz, rx: 2 }));
      bp.append(s("text", { x: x(r.bp), y: y + 4 }, t("table.bp_mark")));
      bp.append(s("title", {}, `${r.name}: ${r.bp} ${t("table.bp")}${!lowerIsCp ? " ★ " + t("table.lower") : ""}`));
      svg.append(bp);
      const low = lowerIsCp ? r.cp : r.bp;
      svg.append(s("text", { x: x(low), y: y - 12, class: "star" }, "★"));
    }
  });
  const legend = h("ul.track-legend", rows.map((r) =>
    ts.mark(h("li",
      r.seat === "v" ? "♕ " : seatToken(r.seat), " ",
      r.seat === "v" ? h("strong", r.name) : ts.nameWithBot(r.seat), " ",
      chip("cp", r.cp), r.bp !== null ? chip("bp", r.bp) : null,
      r.bp !== null ? h("span.score", " = ", h("strong", String(r.score)), " ★", r.cp <= r.bp ? t("table.cp") : t("table.bp")) : null,
      leftoverText(r.leftover) ? h("span.leftover-moved", { "data-testid": "leftover-moved" }, leftoverText(r.leftover)) : null
    ), `track.${r.seat}`, [r.cp, r.bp])
  ));
  return h("section.panel.score-track", { "data-testid": "score-track" }, h("h2", t("table.score_track")), svg, legend, h("p.hint", t("table.score_track_hint")));
}

export function renderPlayers(ts) {
  const v = ts.view;
  const box = h("section.players", h("h2.sr", t("table.players")));
  for (const p of v.players_state || []) {
    const seat = p.seat;
    const acting = (v.to_act || []).includes(seat) && v.phase !== "finished";
    const k = (x) => `p${seat}.${x}`;
    const slots = h("div.slots", [1, 2, 3].map((n) => {
      const c = p.slots && p.slots[String(n)];
      return ts.mark(h("div.slot", { class: c ? "filled" : "empty", "data-key": `player:${seat}:slot:${n}` }, h("span.slot-n", String(n)), c ? h("span", t("card." + c)) : h("span.muted", t("table.slot_empty"))), k("slot" + n), c);
    }));
    const item = (r, n) => {
      const el = chip(r, n || 0, { dim: true });
      el.dataset.key = `player:${seat}:${r}`;
      return ts.mark(el, k(r), n);
    };
    const res = h("div.goods", RESOURCES.map((r) => item(r, p.resources[r])));
    const goods = h("div.goods", GOODS.map((r) => item(r, p.goods[r])));
    const advisors = (p.advisors || []).length
      ? h("div.owned", (p.advisors || []).map((a) => h("span.pill", { title: t("advtext." + a), "data-key": `player:${seat}:advisor:${a}` }, t("adv." + a))))
      : null;
    const titles = (p.titles || []).length
      ? h("div.owned", p.titles.map((ti) => h("span.pill.title", { "data-key": `player:${seat}:title:${ti.id}` }, "♔ ", t("title." + ti.id), " ", chip("cp", ti.cp))))
      : null;
    const favors = (p.favor_tokens || []).length
      ? h("div.owned", p.favor_tokens.map((f) => h("span.pill.favor", { "data-key": `player:${seat}:favor:${f.id}`, "data-explain": `token:${f.id}`, tabindex: "0" }, h("span", { "aria-hidden": "true" }, "✉ "), t("loc." + f.location), ": ", costText(f.reward))))
      : null;
    const tr = tracksOf(v, seat); // the final tracks once the game is over
    const cpLower = tr.cp <= tr.bp, bpLower = tr.bp <= tr.cp;
    const track = (kind, n, lower) => ts.mark(h("span.track-val", { class: lower ? "lower" : "", "data-key": `player:${seat}:${kind}` },
      chip(kind, n), lower ? h("span.low-mark", { "aria-hidden": "true" }, "▼") : null, lower ? h("span.sr", " " + t("table.lower")) : null), k(kind), n);
    box.append(
      h("article.player", { class: "seat" + seat + (acting ? " acting" : "") + (seat === ts.mySeat ? " me" : "") + (ts.botLevelOf(seat) ? " bot" : ""), "data-testid": "player-board", "data-seat": seat, "data-bot-level": ts.botLevelOf(seat) },
        h("header",
          seatToken(seat), " ",
          ts.nameWithBot(seat), seat === ts.mySeat ? h("span.tag", t("table.you")) : null,
          v.statue === seat ? h("span.tag.statue", { "data-key": "statue" }, t("table.statue")) : null,
          acting ? h("span.tag.acting", h("span", { "aria-hidden": "true" }, "▶"), h("span.sr", t("a11y.acting"))) : null,
          h("span.spacer"),
          track("cp", tr.cp, cpLower), track("bp", tr.bp, bpLower),
          h("span.score-pill", { title: t("table.score"), "data-key": `player:${seat}:score`, "data-testid": "player-score" }, h("span", { "aria-hidden": "true" }, "★ "), h("span.sr", t("table.score") + " "), String(tr.score))
        ),
        leftoverText(tr.leftover) ? h("p.leftover-moved", leftoverText(tr.leftover)) : null,
        slots,
        h("div.row-wrap", res, goods),
        h("div.meta",
          ts.mark(h("span", { "data-key": `player:${seat}:craftsmen_left` }, "⚒ ", t("table.craftsmen_left", { n: p.craftsmen_left })), k("craftsmen"), p.craftsmen_left), " · ",
          h("span.muted", { "data-key": `player:${seat}:deck_size` }, h("span", { "data-key": `player:${seat}:hand_size` }, t("table.cards", { hand: p.hand_size, deck: p.deck_size })))),
        titles, advisors, favors,
        seatTools(ts, seat)
      )
    );
  }
  if (v.victoria) {
    box.append(h("article.player.victoria", h("header", "♕ ", h("strong", t("table.victoria")), h("span.spacer"), h("span", { "data-key": "victoria:cp" }, chip("cp", victoriaTracks(v).cp))),
      (v.victoria.titles || []).length ? h("div.owned", { "data-key": "victoria:titles" }, v.victoria.titles.map((ti) => h("span.pill.title", "♔ ", t("title." + ti.id), " ", chip("cp", ti.cp)))) : null));
  }
  return box;
}

// ---------- bots ----------
// Under a player's board: "Leave — a bot plays on" on one's own seat; for the host, "Let a bot
// play" on another player's seat. Both open a confirm step with the bot's level.
export function seatTools(ts, seat) {
  const v = ts.view;
  if (v.phase === "finished" || ts.status === "finished" || v.victoria || ts.mySeat === null) return null;
  if (ts.botLevelOf(seat)) return null;
  const own = seat === ts.mySeat;
  if (!own && !(ts.isHost() && ts.hasPlayer(seat))) return null;
  const kind = own ? "leave" : "hand";
  const a = ts.seatAction;
  if (!a || a.seat !== seat) {
    return h("div.seat-tools",
      own
        ? h("button.small", { type: "button", "data-testid": "leave-seat", "data-seat": seat, disabled: ts.seatBusy, onclick: () => ts.openSeatAction(seat, kind) }, "⇥ ", t("bot.leave"))
        : h("button.small", { type: "button", "data-testid": "hand-to-bot", "data-seat": seat, disabled: ts.seatBusy, onclick: () => ts.openSeatAction(seat, kind) }, BOT_GLYPH, " ", t("bot.hand_over")));
  }
  const idle = Number((ts.table && ts.table.options && ts.table.options.idle_seconds) ?? 120);
  const select = botLevelSelect(a.level, { "data-testid": "bot-level", "data-seat": seat, disabled: ts.seatBusy, onchange: (e) => ts.seatAction && (ts.seatAction.level = e.target.value) });
  return h("div.seat-tools.seat-confirm", { role: "group", "aria-label": own ? t("bot.leave") : t("bot.hand_over"), "data-testid": "seat-confirm", "data-seat": seat },
    h("p", own ? t("bot.leave_confirm") : t("bot.hand_confirm", { name: ts.nameOf(seat), seconds: idle })),
    h("label", t("bot.level_choice"), " ", select),
    h("div.row",
      h("button.primary.small", {
        type: "button",
        "data-testid": own ? "leave-confirm" : "hand-confirm",
        "data-seat": seat,
        disabled: ts.seatBusy,
        onclick: () => ts.seatAction && ts.seatToBot(seat, ts.seatAction.level),
      }, own ? t("bot.leave") : t("bot.hand_over")),
      h("button.link", { type: "button", "data-testid": "seat-cancel", onclick: () => { ts.seatAction = null; ts.render(); } }, t("table.cancel"))));
}

// The end screen: one ranking (in solo the player and Victoria together, as the engine ranked
// them), each player's final tracks with what the leftover goods added, and the next step
// (a rematch, or in a campaign the next campaign game).
export function renderFinal(ts) {
  const v = ts.view;
  const o = v.outcome;
  const rows = (o.players || []).map((p) => ({ ...p, victoria: false }));
  if (o.victoria) rows.push({ seat: null, victoria: true, cp: o.victoria.cp, bp: null, score: o.victoria.score, rank: o.victoria.rank, leftover: null, tiebreak: null });
  rows.sort((a, b) => a.rank - b.rank || (a.victoria ? 1 : 0) - (b.victoria ? 1 : 0) || a.seat - b.seat);
  const nameCell = (p) => {
    if (p.victoria) return h("td.who", h("span.seat-token.seatv", { "aria-hidden": "true" }, "♕"), " ", h("strong", t("table.victoria")));
    const moved = leftoverText(p.leftover);
    return h("td.who",
      h("span.who-name", seatToken(p.seat), " ", ts.nameOf(p.seat), ts.botLevelOf(p.seat) ? botTag(ts.botLevelOf(p.seat), { compact: !ts.hasPlayer(p.seat) }) : null),
      moved ? h("span.final-note", { "data-testid": "final-leftover" }, moved) : null,
      p.tiebreak ? h("span.final-note", t("end.tiebreak_note", { why: t("end.tb." + p.tiebreak) })) : null);
  };
  const table = h("table.final",
    h("thead", h("tr", ["end.rank", "end.player", "end.cp", "end.bp", "end.score"].map((k) => h("th", { scope: "col" }, t(k))))),
    h("tbody", rows.map((p) => {
      const cpLower = p.bp === null || p.cp <= p.bp;
      return h("tr", { class: p.rank === 1 ? "winner" : "", "data-testid": "final-row", "data-seat": p.victoria ? "v" : String(p.seat) },
        h("td.rank", p.rank === 1 ? "♛ 1" : String(p.rank)),
        nameCell(p),
        h("td.num", { class: cpLower ? "lower" : "", "data-testid": "final-cp" }, String(p.cp), cpLower && p.bp !== null ? " ★" : ""),
        h("td.num", { class: !cpLower ? "lower" : "", "data-testid": "final-bp" }, p.bp === null ? "—" : String(p.bp), !cpLower ? " ★" : ""),
        h("td.score", { "data-testid": "final-score" }, h("strong", String(p.score))));
    }))
  );
  let headline;
  if (o.victoria) headline = o.won ? t("end.solo_won") : t("end.solo_lost");
  else if (rows.length) headline = t("end.winner", { name: rows.filter((p) => p.rank === 1).map((p) => ts.nameOf(p.seat)).join(" & ") });
  let next = null; // play again: the rematch (rematch.js), in solo the campaign's next game (soloend.js)
  if (o.victoria) {
    ts.soloNext = ts.soloNext || new SoloNext(ts);
    next = ts.soloNext.el();
  } else if (ts.rematchOffer) next = ts.rematchOffer.el();
  return h("section.panel.final-scores", { "data-testid": "final-scores", "data-key": "outcome" },
    h("h2", "♛ ", t("end.title")), headline ? h("p.headline", { "data-testid": "final-headline" }, headline) : null,
    h("div.final-wrap", table),
    h("p.hint", t("end.lower_note"), o.victoria ? " " + t("end.solo_rule") : ""),
    breakdownChart(rows.filter((p) => !p.victoria).map((p) => ({ ...p, name: ts.nameOf(p.seat) }))),
    replayLine(ts),
    next);
}
