// The message catalogues (static/i18n/{lang}.json) and t(key, params). A message is a text with
// {placeholders}, or, where a number changes the words, an object keyed by the plural categories
// of Intl.PluralRules for that language ("one", "few", "many", "other"), chosen by the `count`
// parameter (else `n`). Unknown keys fall back to English, then to a readable form of the key.

const LANGS = ["en", "cs", "de"];
let en = {};
let current = {};
let currentLang = "en";
let plurals = new Intl.PluralRules("en");

async function load(code) {
  const res = await fetch(`/i18n/${code}.json`, { credentials: "same-origin" });
  if (!res.ok) throw new Error(`catalogue ${code}: HTTP ${res.status}`);
  return res.json();
}

export function languages() {
  return LANGS;
}

export function lang() {
  return currentLang;
}

export async function setLang(code) {
  if (!LANGS.includes(code)) code = "en";
  if (!Object.keys(en).length) en = await load("en");
  let catalogue = en;
  if (code !== "en") {
    try {
      catalogue = { ...en, ...(await load(code)) };
    } catch {
      code = "en";
    }
  }
  current = catalogue;
  currentLang = code;
  plurals = new Intl.PluralRules(code);
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

function pick(message, params) {
  if (typeof message === "string") return message;
  const n = Number(params.count ?? params.n ?? 0);
  return message[plurals.select(n)] ?? message.other ?? "";
}

export function t(key, params = {}) {
  let s = current[key];
  if (s === undefined) s = en[key];
  if (s === undefined) return humanize(key);
  return pick(s, params).replace(/\{(\w+)\}/g, (_, k) => (params[k] === undefined || params[k] === null ? "" : String(params[k])));
}
