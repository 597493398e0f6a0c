// The log's first and last words: who began the game (the start player, at the top once the log
// reaches back to the first move), and, at "The game is over", who won and the final scores, with
// ties as the rules decide them (the outcome's ranks and tie-breaks; in solo Victoria keeps first
// place on a tie).
import { t, lang } from "./i18n.js";

const names = (list) => {
  try {
    return new Intl.ListFormat(lang() || "en", { type: "conjunction" }).format(list);
  } catch {
    return list.join(", ");
  }
};

export function beganText(seat, nameOf) {
  return t("log.began", { name: nameOf(seat) });
}

function result(outcome, nameOf) {
  const players = outcome.players || [];
  if (outcome.victoria) {
    const me = players[0];
    const params = { name: nameOf(me.seat), score: me.score, victoria: outcome.victoria.score };
    if (outcome.won) return t("log.over_solo_won", params);
    return t(me.score === outcome.victoria.score ? "log.over_solo_tie" : "log.over_solo_lost", params);
  }
  const first = players.filter((p) => p.rank === 1).sort((a, b) => a.seat - b.seat);
  if (!first.length) return "";
  if (first.length > 1) return t("log.over_shared", { names: names(first.map((p) => nameOf(p.seat))), score: first[0].score });
  const w = first[0];
  if (w.tiebreak && w.tiebreak !== "shared") return t("log.over_tiebreak", { name: nameOf(w.seat), score: w.score, why: t("end.tb." + w.tiebreak) });
  return t("log.over_winner", { name: nameOf(w.seat), score: w.score });
}

// The game_finished event's words: the result, then every player's score by rank (in solo
// Victoria too, in her place).
export function gameOverText(outcome, nameOf) {
  if (!outcome || !Array.isArray(outcome.players)) return t("ev.game_finished");
  const units = { cp_name: t("end.cp"), bp_name: t("end.bp") };
  const rows = outcome.players.map((p) => ({ rank: p.rank, order: p.seat, text: t("log.over_score", { name: nameOf(p.seat), score: p.score, cp: p.cp, bp: p.bp, ...units }) }));
  const v = outcome.victoria;
  if (v) rows.push({ rank: v.rank, order: 99, text: t("log.over_score_victoria", { score: v.score, cp: v.cp, ...units }) });
  rows.sort((a, b) => a.rank - b.rank || a.order - b.order);
  return t("log.over", { result: result(outcome, nameOf), scores: rows.map((r) => r.text).join("; ") });
}
