// The tracks every score display shows: during play the players' own tracks; once the game is
// over the final ones from the engine's outcome (leftover goods counted), with what the leftover
// goods added. Read from the server's view, never worked out here.
import { t } from "./i18n.js";

// {cp, bp, score, leftover} of a seat: leftover is the outcome's {points, to_cp, to_bp}, or null
// while the game is on.
export function tracksOf(v, seat) {
  const done = v.outcome && (v.outcome.players || []).find((p) => p.seat === seat);
  if (done) return { cp: done.cp, bp: done.bp, score: done.score, leftover: done.leftover || null };
  const p = (v.players_state || []).find((x) => x.seat === seat) || {};
  return { cp: p.cp, bp: p.bp, score: p.score ?? Math.min(p.cp, p.bp), leftover: null };
}

// Victoria's CP and score (solo), from the outcome once the game is over.
export function victoriaTracks(v) {
  if (!v.victoria) return null;
  const done = v.outcome && v.outcome.victoria;
  return done ? { cp: done.cp, score: done.score, rank: done.rank } : { cp: v.victoria.cp, score: v.victoria.cp, rank: null };
}

// "leftover goods: +3 CP, +2 BP" (only the tracks they moved), or null when they moved none.
export function leftoverText(leftover) {
  if (!leftover || !leftover.points) return null;
  const parts = [];
  if (leftover.to_cp) parts.push(`+${leftover.to_cp} ${t("table.cp")}`);
  if (leftover.to_bp) parts.push(`+${leftover.to_bp} ${t("table.bp")}`);
  return t("end.leftover_moved", { moved: parts.join(", ") });
}
