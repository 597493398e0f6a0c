// Light or dark colours. "auto" (the default) follows the system's prefers-color-scheme through
// the stylesheet's media query; "light" or "dark", chosen in the profile menu, is remembered in
// localStorage and set as <html data-theme>, which the stylesheet honours over the system's.
import { t } from "./i18n.js";
import { h } from "./dom.js";

const KEY = "emara.theme";
const CHOICES = ["auto", "light", "dark"];

export function theme() {
  try {
    const v = localStorage.getItem(KEY);
    return CHOICES.includes(v) ? v : "auto";
  } catch {
    return "auto";
  }
}

export function applyTheme(choice = theme()) {
  const root = document.documentElement;
  if (choice === "auto") delete root.dataset.theme;
  else root.dataset.theme = choice;
}

export function setTheme(choice) {
  if (!CHOICES.includes(choice)) return;
  try {
    if (choice === "auto") localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, choice);
  } catch {}
  applyTheme(choice);
}

// The profile menu's switch: a labelled select (Auto / Light / Dark).
export function themeSwitch() {
  const current = theme();
  const sel = h("select", { id: "theme-select", "data-testid": "theme-select", onchange: (e) => setTheme(e.target.value) },
    CHOICES.map((c) => h("option", { value: c, selected: c === current }, t("theme." + c))));
  return h("div.theme-switch", h("label", { for: "theme-select" }, t("theme.label")), " ", sel);
}

applyTheme();
