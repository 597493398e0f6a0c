// Small line icons drawn as inline SVG (no icon font: a missing font would show an empty box).
// Built with s(), so the Content-Security-Policy's no-inline-style rule holds; colour follows the
// text (currentColor). Decorative: hidden from assistive technology, the words say the rest.
import { s } from "./dom.js";

// A bell; `off` crosses it out.
export function bellIcon(off = false) {
  return s("svg", { class: "icon", viewBox: "0 0 24 24", width: "18", height: "18", "aria-hidden": "true", focusable: "false", "data-icon": off ? "bell-off" : "bell" },
    s("path", { d: "M6 16V11a6 6 0 0 1 12 0v5l2 2H4z", fill: "none", stroke: "currentColor", "stroke-width": "2", "stroke-linejoin": "round" }),
    s("path", { d: "M10 20a2 2 0 0 0 4 0", fill: "none", stroke: "currentColor", "stroke-width": "2", "stroke-linecap": "round" }),
    off ? s("path", { d: "M4 4l16 16", stroke: "currentColor", "stroke-width": "2", "stroke-linecap": "round" }) : null);
}
