// The live table drawn: the status, clocks, last move, end screen, score bar and panels composed
// into one page, drawn in place over the last one (morph.js: only what changed is restyled and
// painted), with the keyboard focus, the log's scroll and the changed values' flash kept across
// draws, and the turn told in the tab's title, a sound and a notice.
import { t } from "./i18n.js";
import { h, clear } from "./dom.js";
import { morph } from "./morph.js";
import { setTurnBadge } from "./notices.js";
import { stableKey } from "./moves.js";
import { renderStatus } from "./board.js";
import { renderFinal } from "./players.js";
import { renderControls } from "./controls.js";
import { renderLastMove } from "./log.js";
import { renderScoreBar } from "./scorebar.js";
import { renderPanels } from "./panels.js";
import { focusKey, restoreFocus } from "./focus.js";
import { renderClocks } from "./pace.js";
import { setPageUnread } from "./waiting.js";
import { rulesLink } from "./ruleslink.js";

// The table screen `ts` (table.js) drawn from its state.
export function draw(ts) {
  const v = ts.view;
  if (!v || ts.stopped) return;
  document.body.dataset.version = String(ts.version);
  ts.values = new Map();
  const scrollLog = document.getElementById("log-list");
  const logAtBottom = !scrollLog || scrollLog.scrollTop + scrollLog.clientHeight >= scrollLog.scrollHeight - 20;
  const active = document.activeElement;
  const hadFocus = active && ts.root.contains(active) ? focusKey(active) : null;
  const inControls = !!(active && active.closest && active.closest("#controls"));
  if (ts.layout.parentNode !== ts.root) clear(ts.root).append(ts.layout);
  const phone = ts.phone;
  const game = h("div.game", { class: phone ? "tabbed" : "", "data-testid": "game", "data-phase": v.phase, "data-layout": phone ? "tabs" : "all" });
  game.append(h("h1.sr", t("table.title")), renderStatus(ts));
  const clocks = renderClocks(ts);
  if (clocks) game.append(clocks);
  const last = renderLastMove(ts);
  if (last) game.append(last);
  if (v.outcome) game.append(renderFinal(ts));
  game.append(renderScoreBar(ts));
  game.append(h("p.rules-at-table", rulesLink("turn", null, { target: "_blank", "data-testid": "table-rules-link" })));
  for (const el of renderPanels(ts, phone).flat()) if (el) game.append(el);
  const shown = ts.slot.firstElementChild;
  if (shown && shown.classList.contains("game")) morph(shown, game);
  else clear(ts.slot).append(game);
  // the chat: in its tab on a phone (built above), else the column beside the game
  ts.layout.classList.toggle("solo", ts.solo);
  if (ts.solo) ts.chat.el.remove(); // nobody to talk to at a solo table
  else if (!phone && ts.chat.el.parentNode !== ts.layout) ts.layout.append(ts.chat.el);
  renderControls(ts);
  restoreFocus(ts.root, hadFocus, inControls);
  flashChanges(ts);
  turnSignal(ts);
  ts.undo.afterRender(); // since you looked + Undo: drawn over the fresh page
  ts.since.afterRender();
  ts.tips.afterRender();
  // the phone's log tab back at its newest lines once all of the above is in the page (its
  // ResizeObserver waits for a frame, which a page in the background may not get for a while)
  ts.logPin.afterRender();
  // last: reading the log's height lays the page out, once, with every change above made
  const list = document.getElementById("log-list");
  if (list && logAtBottom) list.scrollTop = list.scrollHeight;
}

// Record a value for change highlighting.
export function markValue(ts, el, key, value) {
  el.dataset.k = key;
  ts.values.set(key, stableKey(value));
  return el;
}

function flashChanges(ts) {
  const prev = ts.prevValues;
  ts.prevValues = ts.values;
  if (!prev) return;
  for (const [k, val] of ts.values) {
    if (prev.has(k) && prev.get(k) !== val) {
      const el = ts.root.querySelector(`[data-k="${CSS.escape(k)}"]`);
      if (el) {
        el.classList.add("flash");
        setTimeout(() => el.classList.remove("flash"), 2400);
      }
    }
  }
}

function turnSignal(ts) {
  const mine = ts.isMyTurn() && ts.legal.length > 0 && !ts.botPlaysMe();
  setTitle(ts, mine);
  setTurnBadge(mine);
  if (mine && !ts.wasMyTurn) {
    if (ts.sound) beep();
    if (document.hidden && ts.notify && "Notification" in window && Notification.permission === "granted") {
      try { new Notification(t("table.your_turn"), { body: t("app.title"), icon: "/favicon-turn.svg" }); } catch {}
    }
  }
  ts.wasMyTurn = mine;
}

// The tab's title: whose turn it is; the chat messages that arrived out of sight add to the
// count in front of it ("(2) Crown of Emara", laid over by waiting.js with the tables waiting).
export function setTitle(ts, mine) {
  const named = ts.table && ts.table.name ? ts.table.name + " — " : ""; // the host's name for it
  document.title = named + (mine ? t("table.title_turn") : t("table.title"));
  setPageUnread(ts.chat.unread);
}

function beep() {
  try {
    const ctx = new (window.AudioContext || window.webkitAudioContext)();
    const o = ctx.createOscillator();
    const g = ctx.createGain();
    o.frequency.value = 660;
    g.gain.value = 0.08;
    o.connect(g).connect(ctx.destination);
    o.start();
    o.stop(ctx.currentTime + 0.18);
  } catch {}
}
