// The guided first game ("Learn by playing"): the way in (landing, header, profile page, the /learn
// route that opens a guided table) and, at a guided table, the hint panel. The server says what to
// do next (GET /api/tables/{id}/hint: step, words, the suggested move, the screen elements to point
// at); this module words it, marks those elements and keeps the panel clear of the one to click.
// Nothing here knows the rules: the hint is computed from the seat's view on the server.
import { t } from "./i18n.js";
import { h, clear } from "./dom.js";
import { get, post, api, ApiError } from "./api.js";
import { showError } from "./notices.js";
import { profile } from "./profile.js";
import { choiceKey, stableKey } from "./moves.js";
import { rulesLink } from "./ruleslink.js";

const enc = encodeURIComponent;
const OFF = (id) => "emara.guide.off." + id; // this table's hints were skipped or closed here

// ---------- the way in ----------

// The person got past the guided game (finished or skipped): it is offered less prominently.
export function guideSeen() {
  const me = profile();
  return !!(me && me.guide);
}

// "Learn by playing": a link to /learn (which opens a new guided game).
export function learnLink(link, attrs = {}) {
  return link("/learn", t("guide.learn"), { "data-testid": "learn-by-playing", ...attrs });
}

// The header's way in, for someone who has not been through the guided game yet.
export function learnNav(link) {
  return guideSeen() ? null : learnLink(link, { class: "learn-nav" });
}

// The landing's offer: a call to action for a newcomer, a quiet line for everyone else.
export function learnOffer(link) {
  if (!guideSeen()) {
    return h("section.panel.learn-offer", { "data-testid": "learn-offer", "data-prominent": "1" },
      h("h2", t("guide.offer_title")),
      h("p", t("guide.offer_text")),
      learnLink(link, { class: "button primary" }));
  }
  return h("p.learn-again", { "data-testid": "learn-offer", "data-prominent": "0" }, t("guide.again_text"), " ", learnLink(link));
}

// The /learn route: a new guided table (the person in seat 0, two bots), then its page. The
// address is replaced, so Back does not open another one.
export async function learnPage(root, { go }) {
  clear(root).append(h("p.muted", { "data-testid": "learn-starting" }, t("guide.starting")));
  const tbl = await post("/api/tutorial");
  go(`/t/${enc(tbl.id)}`);
}

// The profile page's section: where the person stands, and a new guided game.
export function guideSection(link) {
  const me = profile();
  const state = me && me.guide ? t("guide.state_" + me.guide) : t("guide.state_new");
  return h("section.panel.guide-section", { "data-testid": "guide-section", "aria-labelledby": "guide-title" },
    h("h2", { id: "guide-title" }, t("guide.offer_title")),
    h("p", { "data-testid": "guide-state" }, state),
    learnLink(link, { class: "button" }));
}

async function record(status) {
  try {
    const out = await api("PUT", "/api/profiles/me/guide", { status });
    const me = profile();
    if (me) me.guide = out.guide;
  } catch (e) {
    if (!(e instanceof ApiError) || e.status !== 401) showError(e);
  }
}

// ---------- at a guided table ----------

const WORDS = {
  card: (v) => t("card." + v),
  location: (v) => (v ? t("loc." + v) : ""),
  councilor: (v) => t("councilor." + v),
  advisor: (v) => t("adv." + v),
  title: (v) => t("title." + v),
  event: (v) => t("event." + v),
};

export class Guide {
  constructor(ts) {
    this.ts = ts;
    this.hint = null; // the last hint the server sent
    this.asked = null; // the game version the last request was made at
    this.busy = false;
    this.shown = null; // "version:step" of the hint last scrolled to
    this.panel = null;
    this.observer = null;
    this.frame = 0;
    this.onScroll = () => this.schedule();
  }

  active() {
    const ts = this.ts;
    const tb = ts.table;
    return !!(tb && tb.options && tb.options.guided && typeof ts.mySeat === "number" && !localStorage.getItem(OFF(ts.id)));
  }

  start() {
    // every redraw of the table (a render, or the controls' payment picker) repaints the marks
    this.observer = new MutationObserver(() => this.schedule());
    this.observer.observe(this.ts.root, { childList: true, subtree: true });
    window.addEventListener("scroll", this.onScroll, { passive: true });
    window.addEventListener("resize", this.onScroll);
  }

  stop() {
    if (this.observer) this.observer.disconnect();
    window.removeEventListener("scroll", this.onScroll);
    window.removeEventListener("resize", this.onScroll);
    cancelAnimationFrame(this.frame);
    this.unmark();
    if (this.panel) this.panel.remove();
    this.panel = null;
  }

  schedule() {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.paint();
    });
  }

  async fetch() {
    const ts = this.ts;
    if (this.busy || ts.version < 0) return;
    this.busy = true;
    this.asked = ts.version;
    try {
      this.hint = await get(`/api/tables/${enc(ts.id)}/hint`);
      if (this.hint.step === "done" && profile()) profile().guide = "finished";
    } catch (e) {
      if (e instanceof ApiError && (e.code === "not_guided" || e.status === 403 || e.status === 404)) this.hint = null;
      else {
        this.asked = null; // try again in a moment (or with the next change)
        setTimeout(() => this.schedule(), 2000);
      }
    } finally {
      this.busy = false;
    }
    this.paint();
  }

  // Fetch when the game moved on; draw the panel and the marks for the hint of this version.
  paint() {
    const ts = this.ts;
    if (!this.active()) {
      this.unmark();
      if (this.panel) this.panel.remove();
      return;
    }
    if (this.asked !== ts.version) this.fetch();
    const hint = this.hint;
    if (!hint) return;
    const ready = hint.version === ts.version;
    this.drawPanel(hint, ready);
    this.unmark();
    if (!ready) return;
    const primary = this.mark(hint);
    this.place(primary);
    const key = `${hint.version}:${hint.step}`;
    if (primary && this.shown !== key && !document.body.classList.contains("sending")) {
      this.shown = key; // once per hint: the person may scroll elsewhere afterwards
      if (visible(primary) && !inClear(primary, this.panel)) {
        const calm = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
        primary.scrollIntoView({ block: "center", behavior: calm ? "auto" : "smooth" });
      }
    }
  }

  unmark() {
    for (const el of document.querySelectorAll(".guide-target")) {
      el.classList.remove("guide-target");
      el.removeAttribute("data-guide-primary");
    }
  }

  // Mark the hint's targets; the element to click (the suggested move's button) is returned.
  mark(hint) {
    let primary = null;
    for (const target of hint.targets || []) {
      for (const el of this.resolve(target, hint)) {
        el.classList.add("guide-target");
        if ((target === "move" || target === "end-turn") && !primary && visible(el)) {
          primary = el;
          el.setAttribute("data-guide-primary", "1");
        }
      }
    }
    return primary;
  }

  resolve(target, hint) {
    const root = this.ts.root;
    const all = (sel) => [...root.querySelectorAll(sel)];
    if (target === "move") return hint.move ? this.moveButtons(hint.move) : [];
    if (target === "end-turn") return all("[data-testid=end-turn]");
    const [kind, ...rest] = target.split(":");
    const id = rest.join(":");
    if (kind === "card") return all(`#controls [data-card="${CSS.escape(id)}"]`);
    if (kind === "loc") return all(`[data-location="${CSS.escape(id)}"]`);
    if (kind === "advisor") return all("button.advisor[data-key]").filter((el) => el.dataset.key.endsWith(":" + id));
    return all(`[data-key="${CSS.escape(target)}"]`);
  }

  // The button of the suggested move; when the payment picker is open, its payment.
  moveButtons(move) {
    const controls = document.getElementById("controls");
    if (!controls) return [];
    const picker = controls.querySelector("[data-testid=pay-picker]");
    if (picker) {
      const options = [...picker.querySelectorAll("[data-testid=pay-option]")];
      const same = options.find((el) => stableKey(JSON.parse(el.dataset.move)) === stableKey(move));
      return same ? [same] : options.slice(0, 1);
    }
    const want = choiceKey(move);
    const found = [...controls.querySelectorAll("[data-move]")].filter((el) => {
      try {
        return choiceKey(JSON.parse(el.dataset.move)) === want;
      } catch {
        return false;
      }
    });
    return found.slice(0, 1);
  }

  text(hint) {
    const params = {};
    for (const [k, v] of Object.entries(hint.params || {})) {
      if (k === "seat") params.name = typeof v === "number" && v >= 0 ? this.ts.nameOf(v) : "";
      else params[k] = WORDS[k] ? WORDS[k](v) : v;
    }
    return t(hint.key, params);
  }

  drawPanel(hint, ready) {
    if (!this.panel) {
      this.panel = h("aside.guide-panel", { "data-testid": "guide", "aria-label": t("guide.title") });
      document.body.append(this.panel);
    }
    const p = this.panel;
    const sig = `${hint.version}:${hint.key}:${ready}:${this.ts.panel}:${document.documentElement.lang}`;
    p.dataset.step = hint.step;
    p.dataset.key = hint.key;
    p.dataset.version = String(hint.version);
    p.dataset.ready = ready ? "1" : "0";
    p.dataset.actionable = hint.move ? "1" : "0";
    if (p.dataset.sig === sig) return;
    p.dataset.sig = sig;
    const done = hint.step === "done";
    const actionable = !!hint.move;
    clear(p).append(
      h("div.guide-head",
        h("span.guide-badge", { "aria-hidden": "true" }, "✦"),
        h("h2.guide-title", t("guide.title"), " · ", h("span.guide-step", t("guide.step." + hint.step)))),
      h("p.guide-text", { "data-testid": "guide-text", role: "status" }, this.text(hint)),
      h("div.guide-actions",
        actionable ? h("button.small", { type: "button", "data-testid": "guide-show", onclick: () => this.showTarget() }, "☛ ", t("guide.show")) : null,
        // beside the table (a new tab), so the game stays where it is
        hint.rules ? rulesLink(hint.rules, t("guide.rules"), { target: "_blank", class: "guide-rules", "data-testid": "guide-rules" }) : null,
        h("span.spacer"),
        done
          ? h("button.small.primary", { type: "button", "data-testid": "guide-close", onclick: () => this.close("finished") }, t("guide.close"))
          : h("button.small.link", { type: "button", "data-testid": "guide-skip", onclick: () => this.close("dismissed") }, t("guide.skip")))
    );
  }

  // "Show me": to the tab that holds the element to click, scrolled into view and focused.
  showTarget() {
    const ts = this.ts;
    if (ts.phone && ts.panel !== "hand") ts.showPanel("hand");
    const el = document.querySelector("[data-guide-primary]");
    if (el) {
      el.scrollIntoView({ block: "center", behavior: "smooth" });
      el.focus({ preventScroll: true });
    }
  }

  // The panel sits at the bottom of the window (above the phone's tabs), or near the top while
  // the element to click would be under it — then below whatever of the page's own controls is
  // in sight up there (the header's language selector and profile menu, the round and "Your
  // turn" bar), never over them.
  place(primary) {
    const p = this.panel;
    if (!p) return;
    p.classList.remove("at-top");
    p.style.top = "";
    if (!primary || !visible(primary)) return;
    const a = p.getBoundingClientRect();
    const b = primary.getBoundingClientRect();
    if (!(a.top < b.bottom && b.top < a.bottom)) return;
    p.classList.add("at-top");
    p.style.top = `${Math.round(clearTop(p.getBoundingClientRect()))}px`;
  }

  async close(status) {
    localStorage.setItem(OFF(this.ts.id), "1");
    this.unmark();
    if (this.panel) this.panel.remove();
    this.panel = null;
    await record(status);
  }
}

// What the panel must leave in sight when it moves up.
const KEEP_IN_SIGHT = ["[data-testid=lang-select]", "[data-testid=profile-menu] > summary", ".status-bar .round", "[data-testid=turn-indicator]"];
const GAP = 6; // px between those and the panel

// The lowest top edge that keeps the panel (at `box`'s left and right) off those controls.
function clearTop(box) {
  let top = 8;
  for (const sel of KEEP_IN_SIGHT) {
    for (const el of document.querySelectorAll(sel)) {
      if (!visible(el)) continue;
      const r = el.getBoundingClientRect();
      if (r.bottom <= 0 || r.top >= window.innerHeight / 2) continue; // out of sight, or low
      if (r.right <= box.left || r.left >= box.right) continue; // beside the panel
      top = Math.max(top, r.bottom + GAP);
    }
  }
  return top;
}

// The element is inside the window, above the phone's tab bar and not under the hint panel.
export function inClear(el, panel) {
  const r = el.getBoundingClientRect();
  const bar = document.querySelector(".tabbar");
  const floor = bar ? bar.getBoundingClientRect().top : window.innerHeight;
  if (r.top < 0 || r.bottom > floor) return false;
  if (!panel) return true;
  const p = panel.getBoundingClientRect();
  return r.bottom <= p.top || r.top >= p.bottom;
}

function visible(el) {
  if (!el || !el.isConnected || el.closest("[hidden]")) return false;
  const r = el.getBoundingClientRect();
  return r.width > 0 && r.height > 0;
}
