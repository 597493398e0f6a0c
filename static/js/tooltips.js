// Every piece on the board explains itself: hover (mouse), long-press (touch, ~500 ms, without
// the piece's tap action) or keyboard focus shows what it does, what it costs now and, for the
// moves one may make with it, what each would give. The words come from the server's
// GET /api/tables/{id}/explain (the engine's notes and promises, fetched once per version on
// demand); nothing here computes a rule. Pieces carry `data-explain="<element id>"`; legal-move
// buttons carry `data-move` (their move) and are explained by that move's promise. Labels of the
// page itself (the score table's CP, BP, ▼) carry `data-tip="<catalogue key>"`: their words need
// no server, and a tap (or a click) shows them too.
// Only a real pointer move opens a tooltip by hovering: a redraw under a resting pointer puts a
// new element under it (the browser says "pointerover"), and that explains nothing.
import { t } from "./i18n.js";
import { h, clear } from "./dom.js";
import { get } from "./api.js";
import { effectText, noteText } from "./explaintext.js";
import { choiceKey, describeMove, stableKey } from "./moves.js";

export const LONG_PRESS_MS = 500;
const MOVE_SLOP = 10; // px a finger may wander during a long press
const MARGIN = 8; // px kept free at the screen's edges
const GAP = 10; // px between the piece and its tooltip
const MAX_MOVES = 4; // moves listed under one piece
const TIP_ID = "explain-tip";
const SELECTOR = "[data-explain], [data-move], [data-tip]";

export class Tooltips {
  constructor(ts) {
    this.ts = ts;
    this.data = null; // {version, answer}
    this.loading = null; // {version, promise}
    this.anchor = null;
    this.how = null; // "mouse" | "touch" | "focus"
    this.press = null; // {timer, x, y, el}
    this.swallowClick = false;
    this.keyNav = false; // the last thing the person did was Tab or an arrow key
    this.moved = false; // the mouse moved since the page was last drawn (or scrolled)
    this.at = null; // where the mouse was last seen: {x, y}
    this.tip = h("div.explain-tip", { id: TIP_ID, role: "tooltip", hidden: true, "data-testid": "explain-tip" });
    this.handlers = {
      pointerover: (e) => { if (e.pointerType === "mouse" && this.moved) this.enter(e.target, "mouse"); },
      pointermove: (e) => {
        if (e.pointerType !== "mouse") return;
        const at = this.at;
        if (at && at.x === e.clientX && at.y === e.clientY) return; // not a move
        this.at = { x: e.clientX, y: e.clientY };
        this.moved = true;
        this.enter(e.target, "mouse");
      },
      pointerout: (e) => { if (e.pointerType === "mouse" && this.how === "mouse" && !this.within(e.relatedTarget)) this.hide(); },
      focusin: (e) => this.focused(e.target),
      focusout: (e) => { if (this.how === "focus" && !this.within(e.relatedTarget)) this.hide(); },
      touchstart: (e) => this.touchStart(e),
      touchmove: (e) => this.touchMove(e),
      touchend: (e) => this.touchEnd(e),
      touchcancel: () => this.cancelPress(),
      contextmenu: (e) => { if (this.swallowClick || this.press) e.preventDefault(); },
      click: (e) => this.click(e),
      keydown: (e) => {
        if (e.key === "Escape") {
          if (!this.tip.hidden) { e.stopPropagation(); this.hide(); }
          return;
        }
        // focus that Tab or an arrow key moved explains; focus put back after a redraw does not
        this.keyNav = e.key === "Tab" || e.key.startsWith("Arrow");
      },
      // a touch or click anywhere else puts the tooltip away
      pointerdown: (e) => {
        this.keyNav = false;
        if (this.anchor && !this.within(e.target)) this.hide();
      },
      scroll: (e) => {
        this.moved = false; // what scrolled under a resting pointer was not pointed at
        // a list beside the piece scrolling (the log kept at its newest line) moves nothing
        if (!this.anchor || !this.movedBy(e.target)) return;
        if (this.how === "mouse") this.hide(); // the piece left the resting pointer
        else this.place(); // focus, touch and tap stay on their piece: the tooltip follows it
      },
    };
  }

  start(root) {
    this.root = root;
    const hd = this.handlers;
    for (const name of ["pointerover", "pointermove", "pointerout", "focusin", "focusout", "contextmenu"]) root.addEventListener(name, hd[name]);
    root.addEventListener("touchstart", hd.touchstart, { passive: true });
    root.addEventListener("touchmove", hd.touchmove, { passive: true });
    root.addEventListener("touchend", hd.touchend, { passive: false });
    root.addEventListener("touchcancel", hd.touchcancel);
    document.addEventListener("click", hd.click, true);
    document.addEventListener("keydown", hd.keydown, true);
    document.addEventListener("pointerdown", hd.pointerdown, true);
    window.addEventListener("scroll", hd.scroll, true);
    document.body.append(this.tip);
  }

  stop() {
    const hd = this.handlers;
    if (this.root) for (const name of ["pointerover", "pointermove", "pointerout", "focusin", "focusout", "contextmenu", "touchstart", "touchmove", "touchend", "touchcancel"]) this.root.removeEventListener(name, hd[name]);
    document.removeEventListener("click", hd.click, true);
    document.removeEventListener("keydown", hd.keydown, true);
    document.removeEventListener("pointerdown", hd.pointerdown, true);
    window.removeEventListener("scroll", hd.scroll, true);
    this.cancelPress();
    this.tip.remove();
  }

  // The page was drawn anew: the piece under the tooltip may be another element now.
  afterRender() {
    this.moved = false; // a hover needs a real move again
    if (!this.anchor) return;
    if (this.anchor.isConnected) return this.fill();
    const [attr, key] = this.anchor.dataset.explain ? ["data-explain", this.anchor.dataset.explain] : ["data-tip-id", this.anchor.dataset.tipId];
    const again = key ? this.root && this.root.querySelector(`[${attr}="${CSS.escape(key)}"]`) : null;
    if (again && this.how !== "focus") {
      this.anchor = again;
      this.fill();
    } else this.hide();
  }

  // Whether a scroll of `el` (the page, or a box that scrolls) moved the piece explained.
  movedBy(el) {
    if (!el || el === window || el === document || el === document.documentElement || el === document.body) return true;
    return typeof el.contains === "function" && el.contains(this.anchor);
  }

  within(el) {
    return !!(el && (this.tip.contains(el) || (this.anchor && this.anchor.contains(el))));
  }

  target(el) {
    return el && el.closest ? el.closest(SELECTOR) : null;
  }

  enter(el, how) {
    const target = this.target(el);
    if (target && target !== this.anchor) this.show(target, how);
  }

  focused(el) {
    const target = this.target(el);
    // keyboard focus only (a click focuses too: the hover or the long press explains then;
    // a redraw puts focus back: that explains nothing new)
    if (!target || target !== el || !this.keyNav || !el.matches(":focus-visible")) return;
    this.show(target, "focus");
  }

  // ---------- long press ----------

  touchStart(e) {
    this.swallowClick = false; // a new touch: the last long press is over
    const target = this.target(e.target);
    if (!target || e.touches.length !== 1) return;
    const p = e.touches[0];
    this.cancelPress();
    this.press = {
      x: p.clientX,
      y: p.clientY,
      el: target,
      timer: setTimeout(() => {
        this.press = null;
        this.swallowClick = true; // the tap that ends a long press is not the piece's tap
        this.show(target, "touch");
      }, LONG_PRESS_MS),
    };
  }

  touchMove(e) {
    if (!this.press) return;
    const p = e.touches[0];
    if (Math.hypot(p.clientX - this.press.x, p.clientY - this.press.y) > MOVE_SLOP) this.cancelPress();
  }

  touchEnd(e) {
    this.cancelPress();
    if (this.swallowClick && e.cancelable) e.preventDefault();
  }

  cancelPress() {
    if (this.press) clearTimeout(this.press.timer);
    this.press = null;
  }

  click(e) {
    const label = !this.swallowClick && e.target.closest ? e.target.closest("[data-tip]") : null;
    if (label && this.root && this.root.contains(label)) {
      // a label explains itself on a tap or a click; a second one puts it away
      if (this.anchor === label && this.how === "tap") this.hide();
      else this.show(label, "tap");
      return;
    }
    if (!this.swallowClick) return;
    this.swallowClick = false;
    if (this.tip.contains(e.target)) return;
    e.preventDefault();
    e.stopPropagation();
  }

  // ---------- the tooltip ----------

  async load() {
    const ts = this.ts;
    const version = ts.version;
    if (this.data && this.data.version === version) return this.data.answer;
    if (!this.loading || this.loading.version !== version) {
      const promise = get(`/api/tables/${encodeURIComponent(ts.id)}/explain${ts.inviteQuery()}`).then((answer) => {
        this.data = { version, answer };
        return answer;
      });
      this.loading = { version, promise };
      promise.catch(() => { if (this.loading && this.loading.promise === promise) this.loading = null; });
    }
    return this.loading.promise;
  }

  async show(el, how) {
    if (this.anchor && this.anchor !== el) this.detach();
    this.anchor = el;
    this.how = how;
    const ids = (el.getAttribute("aria-describedby") || "").split(/\s+/).filter(Boolean);
    if (!ids.includes(TIP_ID)) el.setAttribute("aria-describedby", [...ids, TIP_ID].join(" "));
    if (el.dataset.tip) return this.fill(); // the page's own words: nothing to load
    if (!this.data || this.data.version !== this.ts.version) {
      clear(this.tip).append(h("p.tip-main.muted", t("app.loading")));
      this.open();
    }
    try {
      await this.load();
    } catch {
      if (this.anchor === el) this.hide();
      return;
    }
    if (this.anchor === el) this.fill();
  }

  fill() {
    const el = this.anchor;
    if (el && el.dataset.tip) {
      clear(this.tip).append(h("p.tip-main", t(el.dataset.tip)));
      return this.open();
    }
    const answer = this.data && this.data.answer;
    if (!el || !answer) return;
    const body = el.dataset.explain ? this.pieceBody(answer, el.dataset.explain) : this.moveBody(answer, el.dataset.move);
    if (!body.length) return this.hide();
    clear(this.tip).append(...body);
    this.open();
  }

  pieceBody(answer, id) {
    const note = answer.elements[id];
    if (!note) return [];
    const ts = this.ts;
    const out = [h("p.tip-main", noteText(note, (s) => ts.nameOf(s)))];
    if (note.detail) out.push(h("p.tip-detail", t(note.detail)));
    const seen = new Set();
    const lines = [];
    for (const i of note.moves || []) {
      const effect = answer.moves[i];
      if (!effect) continue;
      const key = choiceKey(effect.move);
      if (seen.has(key)) continue;
      seen.add(key);
      lines.push(h("li", h("strong", describeMove(effect.move, ts.view, true)), ": ", effectText(effect)));
    }
    if (lines.length) {
      out.push(h("p.tip-head", t("explain.you_can")));
      const more = lines.length - MAX_MOVES;
      out.push(h("ul.tip-moves", lines.slice(0, MAX_MOVES), more > 0 ? h("li.muted", t("explain.more", { n: more })) : null));
    }
    out.push(h("p.tip-foot", h("a.tip-rule", { href: "/rules#" + note.rule }, "§ ", t("explain.rules")), " ", h("span.muted.tip-esc", t("explain.close_hint"))));
    return out;
  }

  moveBody(answer, raw) {
    let move;
    try { move = JSON.parse(raw); } catch { return []; }
    const key = stableKey(move);
    const index = answer.moves.findIndex((e) => stableKey(e.move) === key);
    const effect = answer.moves[index];
    if (!effect) return [];
    const lead = this.leadsTo(answer, move, index);
    const name = h("strong", describeMove(move, this.ts.view, true));
    // a move that changes no supplies says where it leads instead of "no change"
    const quiet = lead.length && effectText(effect) === t("explain.nothing");
    return [h("p.tip-main", name, quiet ? null : [": ", effectText(effect)]), ...lead];
  }

  // What a move leads to, for a new player to decide: a card on a slot (how far a councilor
  // then moves, what the card does), a councilor's move (where it lands and what can be done
  // there: the engine's note of that location).
  leadsTo(answer, move, index) {
    const out = [];
    if (move.kind === "play_card") {
      out.push(h("p.tip-detail", t("explain.lead.slot", { n: move.slot })));
      out.push(h("p.tip-detail", t("explain.lead.card", { card: t("card." + move.card), text: t("cardtext." + move.card) })));
    }
    if ((move.kind === "move" || move.kind === "card_action") && move.councilor) {
      const id = Object.keys(answer.elements).find((k) => k.startsWith("location:") && (answer.elements[k].moves || []).includes(index));
      if (id) {
        const note = answer.elements[id];
        out.push(h("p.tip-detail", t("explain.lead.lands", { location: t("loc." + id.slice("location:".length)) })));
        out.push(h("p.tip-detail", noteText(note, (s) => this.ts.nameOf(s))));
      }
    }
    return out;
  }

  open() {
    this.tip.hidden = false;
    this.tip.dataset.how = this.how || "";
    this.place();
  }

  // Beside the piece, inside the screen: above a finger (so it does not cover the words), else
  // below the piece when there is room, else above; never past an edge.
  place() {
    const el = this.anchor;
    if (!el || this.tip.hidden) return;
    const vw = document.documentElement.clientWidth;
    const vh = window.innerHeight;
    const tip = this.tip;
    tip.style.maxWidth = `${Math.min(340, vw - 2 * MARGIN)}px`;
    tip.style.left = "0px";
    tip.style.top = "0px";
    const r = el.getBoundingClientRect();
    const w = tip.offsetWidth, ht = tip.offsetHeight;
    const above = r.top - GAP - ht;
    const below = r.bottom + GAP;
    const roomAbove = above >= MARGIN;
    const roomBelow = below + ht <= vh - MARGIN;
    let top;
    if (this.how === "touch" || this.how === "tap") top = roomAbove ? above : roomBelow ? below : MARGIN;
    else top = roomBelow ? below : roomAbove ? above : Math.max(MARGIN, vh - ht - MARGIN);
    const left = Math.min(Math.max(MARGIN, r.left + r.width / 2 - w / 2), vw - w - MARGIN);
    tip.style.left = `${Math.round(Math.max(MARGIN, left))}px`;
    tip.style.top = `${Math.round(top)}px`;
    tip.dataset.side = top < r.top ? "above" : "below";
  }

  detach() {
    const el = this.anchor;
    if (!el) return;
    const ids = (el.getAttribute("aria-describedby") || "").split(/\s+/).filter((x) => x && x !== TIP_ID);
    if (ids.length) el.setAttribute("aria-describedby", ids.join(" "));
    else el.removeAttribute("aria-describedby");
  }

  hide() {
    this.detach();
    this.anchor = null;
    this.how = null;
    this.tip.hidden = true;
  }
}
