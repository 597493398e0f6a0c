// The rules engine's component numbers (GET /api/rules/components), loaded once, and `at(data,
// path)`: the value at a dotted path ("advisors.A.3.cost.stone"). Two extra segments: `length`
// of a list or object ("favor_tokens.tokens.length") and `@key`, the last key itself
// ("market_books_cp.3.@key" is "3", a key printed as a number). tests/browser/test_rules_page.py
// resolves paths the same way.
import { get } from "./api.js";

let loading = null;

export function loadComponents() {
  if (!loading) loading = get("/api/rules/components").catch((e) => { loading = null; throw e; });
  return loading;
}

export function at(data, path) {
  const parts = String(path).split(".");
  let v = data;
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i];
    if (p === "@key" && i === parts.length - 1) {
      if (!(parts[i - 1] in Object(at(data, parts.slice(0, i - 1).join(".") || "")))) throw new Error("no rule at " + path);
      return parts[i - 1];
    }
    if (p === "length" && i === parts.length - 1 && v !== null && typeof v === "object") return Array.isArray(v) ? v.length : Object.keys(v).length;
    if (v === null || typeof v !== "object" || !(p in v)) throw new Error("no rule at " + path);
    v = v[p];
  }
  return v;
}
