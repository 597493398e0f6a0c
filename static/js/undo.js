// The Undo button: on your turn, when the server's view lists points of this turn to go back to
// (`view.turn.undo`, nearest first: [{to, moves}]), a button says what it takes back ("Take back
// 2 moves"), with a small list for the points further back; Ctrl+Z / Cmd+Z takes back to the
// nearest one. The undo is a move like any other ({"kind": "undo", "to": n}), sent through the
// table screen's send(); the server's answer brings the earlier view back. The engine's refusals
// (`undo_*`, inside an `illegal_move`) are read in the catalogue's words (`err.undo_*`).
import { t, has } from "./i18n.js";
import { h } from "./dom.js";

// The catalogue code of an undo the engine refused, from a socket error (else null).
export function undoRefusal(e) {
  const frame = (e && e.frame) || {};
  const code = frame.engine_code || (frame.error && frame.error.engine_code);
  return typeof code === "string" && code.startsWith("undo_") && has("err." + code) ? code : null;
}

function typing(target) {
  return !!target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName || ""));
}

export class UndoControl {
  constructor(ts) {
    this.ts = ts;
    this.open = false; // the list of points further back is shown
    this.onKey = (e) => this.key(e);
  }

  start() {
    document.addEventListener("keydown", this.onKey);
  }

  stop() {
    document.removeEventListener("keydown", this.onKey);
  }

  // The points this person may take back to now (none for a bot's seat or outside their turn).
  points() {
    const ts = this.ts;
    const v = ts.view;
    if (!v || !v.turn || ts.mySeat === null || !ts.isMyTurn() || ts.botPlaysMe()) return [];
    return Array.isArray(v.turn.undo) ? v.turn.undo.filter((p) => p && typeof p.to === "number") : [];
  }

  take(point) {
    if (!point || this.ts.sending) return;
    this.open = false;
    this.ts.send({ kind: "undo", to: point.to });
  }

  key(e) {
    if (!(e.ctrlKey || e.metaKey) || e.shiftKey || e.altKey || String(e.key).toLowerCase() !== "z") return;
    if (typing(e.target)) return;
    const points = this.points();
    if (!points.length) return;
    e.preventDefault();
    this.take(points[0]);
  }

  // After every render of the table: the bar beside the turn indicator (or nothing).
  afterRender() {
    const root = this.ts.root;
    root.querySelectorAll("[data-testid=undo-bar]").forEach((el) => el.remove());
    const points = this.points();
    if (!points.length) {
      this.open = false;
      return;
    }
    const [nearest, ...further] = points;
    const bar = h("div.undo-bar", { "data-testid": "undo-bar", role: "group", "aria-label": t("undo.label") },
      h("button.undo", {
        type: "button",
        "data-testid": "undo",
        "data-to": nearest.to,
        "aria-keyshortcuts": "Control+Z Meta+Z",
        title: t("undo.shortcut"),
        onclick: () => this.take(nearest),
      }, h("span", { "aria-hidden": "true" }, "↶ "), t("undo.button", { count: nearest.moves })),
      further.length
        ? h("button.link", {
            type: "button",
            "data-testid": "undo-more",
            "aria-expanded": this.open ? "true" : "false",
            onclick: () => {
              this.open = !this.open;
              this.afterRender();
            },
          }, t("undo.more"))
        : null,
      further.length && this.open
        ? h("ul.undo-menu", { "data-testid": "undo-menu" },
            further.map((p) => h("li", h("button.small", { type: "button", "data-testid": "undo-point", "data-to": p.to, onclick: () => this.take(p) },
              t("undo.button", { count: p.moves })))))
        : null);
    const status = root.querySelector(".status-bar");
    if (status) status.append(bar);
    else root.prepend(bar);
  }
}
