// Keyboard focus across the table's re-renders (the DOM is rebuilt on every change).

// What identifies a control across a re-render.
export function focusKey(el) {
  if (!el || el === document.body) return null;
  if (el.id) return "#" + el.id;
  const d = el.dataset || {};
  return [el.tagName, el.getAttribute("data-testid"), d.move, d.panel, d.location, el.getAttribute("aria-label")].join("|");
}

// After a re-render the keyboard stays where it was: on the same control if it is still there,
// else (a move was made) on the first choice of the actions, else on the actions themselves.
export function restoreFocus(root, key, inControls) {
  if (!key) return;
  const all = root.querySelectorAll("button, [tabindex], input, select, a[href], summary");
  for (const el of all) {
    if (focusKey(el) === key && !el.closest("[hidden]")) {
      el.focus({ preventScroll: true });
      return;
    }
  }
  if (!inControls) return;
  const box = document.getElementById("controls");
  if (!box) return;
  const first = box.querySelector("[data-testid=legal-move], [data-testid=end-turn], [data-testid=pay-option]");
  (first || box).focus({ preventScroll: true });
}
