// The "⋯" beside a person's name (a lobby seat, a chat seat): what one can do about them —
// report their name, block them, and for the host, remove them or hand them the host role. A
// disclosure (details/summary): it opens below the button, closes on a choice, on Escape, or
// when a click lands elsewhere. `key` keeps it open across a re-render of its list (the lobby
// and the chat redraw on every frame): the menu of the same key reopens where it was.
import { t } from "./i18n.js";
import { h } from "./dom.js";

const openKeys = new Set();
const shifts = new Map(); // key -> the sideways shift its list was last placed with

function closeOthers(except) {
  for (const d of document.querySelectorAll("details.person-menu[open]")) if (d !== except) d.open = false;
}

document.addEventListener("click", (e) => {
  if (!(e.target instanceof Element) || !e.target.closest("details.person-menu")) closeOthers(null);
});
document.addEventListener("keydown", (e) => {
  if (e.key !== "Escape") return;
  const open = document.querySelector("details.person-menu[open]");
  if (!open) return;
  open.open = false;
  const summary = open.querySelector("summary");
  if (summary) summary.focus();
});

// The open list, moved sideways (never down) to stay inside the box it opens in (the chat, the
// lobby's panel) and the screen: a name near the right edge opens it leftwards.
function place(key, menu, list) {
  list.style.left = "0px";
  const box = (menu.closest(".chat, .panel") || document.documentElement).getBoundingClientRect();
  const right = Math.min(document.documentElement.clientWidth, box.right) - 6;
  const left = Math.max(0, box.left) + 6;
  const r = list.getBoundingClientRect();
  let shift = 0;
  if (r.right > right) shift = right - r.right;
  if (r.left + shift < left) shift = left - r.left;
  list.style.left = `${shift}px`;
  list.dataset.placed = "1";
  shifts.set(key, shift);
}

// items: [{label, testid, act, danger}]; an item's act runs after the menu closed.
export function personMenu({ key, name, items, testid = "person-menu" }) {
  const list = h("ul.person-menu-list", { role: "list" });
  const menu = h("details.person-menu", { "data-testid": testid, "data-key": key },
    h("summary", { "aria-label": t("person.menu", { name }), title: t("person.menu", { name }) }, h("span", { "aria-hidden": "true" }, "⋯")),
    list);
  for (const it of items) {
    list.append(h("li", h("button.small", {
      type: "button",
      class: it.danger ? "danger-text" : "",
      "data-testid": it.testid,
      onclick: () => {
        menu.open = false;
        it.act();
      },
    }, it.label)));
  }
  // measured once laid out (a menu reopened by a redraw is not in the page yet)
  const placeSoon = () => requestAnimationFrame(() => menu.open && menu.isConnected && place(key, menu, list));
  if (openKeys.has(key)) {
    menu.open = true;
    list.style.left = `${shifts.get(key) || 0}px`; // where it was: no jump on a redraw
    list.dataset.placed = "1";
    placeSoon();
  }
  menu.addEventListener("toggle", () => {
    if (menu.open && !menu.isConnected) {
      // a redraw replaced this menu between the click that opened it and this event: the
      // menu drawn in its place opens instead (its own toggle places it)
      openKeys.clear();
      openKeys.add(key);
      const now = [...document.querySelectorAll("details.person-menu")].find((d) => d.dataset.key === key);
      if (now) now.open = true;
    } else if (menu.open) {
      delete list.dataset.placed;
      placeSoon();
      closeOthers(menu);
      openKeys.clear();
      openKeys.add(key);
    } else if (menu.isConnected) openKeys.delete(key);
  });
  return menu;
}
