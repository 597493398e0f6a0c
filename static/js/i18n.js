// The one message catalogue in use. `t(key, params)` formats a message; unknown keys fall back to
// English, then to a readable form of the key's last part (ids from the server we don't know yet).
import en from "/i18n/en.js";

const LANGS = ["en", "cs", "de"];
let current = en;
let currentLang = "en";

export function languages() {
  return LANGS;
}

export function lang() {
  return currentLang;
}

export async function setLang(code) {
  if (!LANGS.includes(code)) code = "en";
  if (code === "en") {
    current = en;
  } else {
    try {
      const mod = await import(`/i18n/${code}.js`);
      current = { ...en, ...mod.default };
    } catch {
      current = en;
      code = "en";
    }
  }
  currentLang = code;
  document.documentElement.lang = code;
  try {
    localStorage.setItem("emara.lang", code);
  } catch {}
}

export function initialLang() {
  let stored = null;
  try {
    stored = localStorage.getItem("emara.lang");
  } catch {}
  if (stored && LANGS.includes(stored)) return stored;
  const nav = (navigator.language || "en").slice(0, 2);
  return LANGS.includes(nav) ? nav : "en";
}

export function has(key) {
  return key in current || key in en;
}

export function humanize(id) {
  const s = String(id).split(".").pop().replace(/_/g, " ");
  return s.charAt(0).toUpperCase() + s.slice(1);
}

export function t(key, params = {}) {
  let s = current[key];
  if (s === undefined) s = en[key];
  if (s === undefined) return humanize(key);
  return s.replace(/\{(\w+)\}/g, (_, k) => (params[k] === undefined || params[k] === null ? "" : String(params[k])));
}
