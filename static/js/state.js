// The table's client state: the view, the legal moves, the log and who holds each seat, as the
// last snapshot/update frame (or GET …/game answer) left them. Versions only go forward.
import { applyPatch, digest, docOf } from "./delta.js";
import { t } from "./i18n.js";
import { seatName } from "./pieces.js";

export class TableState {
  constructor(table) {
    this.table = table;
    this.version = -1;
    this.view = null;
    this.legal = [];
    this.log = [];
    this.logMore = false; // older moves remain on the server (log.js pages them)
    this.status = null;
    this.doc = null; // the game as the server rendered it at `version` (what a delta patches)
    // Who holds each seat: {seat, name, bot_level} from the game frames, plus host/you from the
    // lobby frames the socket sends after every seat change (a bot taking or leaving a seat).
    this.seats = new Map();
    this.setSeats(table && table.seats);
  }

  setSeats(list) {
    if (!Array.isArray(list)) return;
    list.forEach((x, i) => {
      if (!x) return;
      const seat = typeof x.seat === "number" ? x.seat : i;
      this.seats.set(seat, { ...(this.seats.get(seat) || {}), ...x, seat });
    });
  }

  // A lobby answer or frame: the table with its seats as they are now.
  takeTable(tb) {
    if (!tb) return;
    this.table = tb;
    this.setSeats(tb.seats);
  }

  // Takes a snapshot, an update or a GET …/game body. Returns {applied, needLog}: whether it
  // changed anything, and whether the log has a gap only a fresh GET …/game can fill (a snapshot
  // that jumped over versions carries no moves).
  apply(g) {
    const version = g.version ?? (g.view && g.view.version);
    if (typeof version === "number" && version < this.version) return { applied: false, needLog: false };
    if (typeof version === "number" && version === this.version && this.view) return { applied: false, needLog: false };
    let needLog = false;
    if (g.view) this.view = g.view;
    if (Array.isArray(g.seats)) this.setSeats(g.seats);
    if (g.legal_moves) this.legal = g.legal_moves;
    else if (g.view) this.legal = [];
    if (Array.isArray(g.log)) this.takeLog(g.log, !!g.log_more);
    else if (Array.isArray(g.moves)) {
      const last = this.log.length ? this.log[this.log.length - 1].version ?? -1 : -1;
      this.log = this.log.concat(g.moves.filter((m) => (m.version ?? 0) > last));
    } else if (Array.isArray(g.events) && typeof version === "number" && version > this.version) {
      this.log = this.log.concat(g.events.map((e) => ({ ...e, version })));
    } else if (g.type === "snapshot" && typeof version === "number" && version !== this.version && this.version >= 0) {
      needLog = true;
    }
    if (g.status) this.status = g.status;
    if (typeof version === "number") this.version = version;
    if (g.view) this.doc = docOf(g);
    return { applied: true, needLog };
  }

  // A `delta` frame: the game it leads to, as an update frame, or null when the page is out of
  // step (it lacks the version the patch applies to, or the patched copy fails the digest) and
  // needs a snapshot.
  patched(d) {
    if (typeof d.version === "number" && d.version <= this.version) return { type: "update", version: d.version };
    if (!this.doc || d.since !== this.version) return null;
    let doc;
    try {
      doc = applyPatch(this.doc, d.patch || []);
    } catch (e) {
      return null;
    }
    if (d.digest && digest(doc) !== d.digest) return null;
    return { ...doc, type: "update", version: d.version, since: d.since, seat: d.seat, moves: d.moves || [] };
  }

  // The newest moves of the log (GET …/game?log_tail=): older pages read before stay in front.
  takeLog(log, more) {
    const first = log.length ? log[0].version : Infinity;
    const older = this.log.filter((e) => typeof e.version === "number" && e.version < first);
    this.log = older.concat(log);
    if (!older.length) this.logMore = more;
  }

  // A page of older moves (GET …/log?before=), put in front of the ones held.
  addOlder(entries, more) {
    const first = this.log.length ? this.log[0].version : Infinity;
    this.log = entries.filter((e) => e.version < first).concat(this.log);
    this.logMore = more;
  }

  get mySeat() {
    return this.view && this.view.me ? this.view.me.seat : null;
  }

  get finished() {
    return !!this.view && (this.view.phase === "finished" || this.status === "finished");
  }

  nameOf(seat) {
    return seatName(this.seats.get(seat)) || t("landing.seat_n", { n: seat + 1 });
  }

  // The level of the bot playing the seat, or null when a person plays it.
  botLevelOf(seat) {
    const x = this.seats.get(seat);
    return x && x.bot_level ? x.bot_level : null;
  }

  // Whether a person holds the seat (a bot seated in the lobby has no name of its own).
  hasPlayer(seat) {
    const x = this.seats.get(seat);
    return !!(x && x.name);
  }

  botPlaysMe() {
    return this.mySeat !== null && !!this.botLevelOf(this.mySeat);
  }

  isHost() {
    return !!(this.table && this.table.host === true);
  }

  isMyTurn() {
    const v = this.view;
    return !!(v && this.mySeat !== null && (v.to_act || []).includes(this.mySeat) && v.phase !== "finished");
  }
}
