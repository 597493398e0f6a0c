// What the page tells the player outside the screens: errors in words, short notes, and the
// "your turn" favicon.
import { t } from "./i18n.js";
import { h } from "./dom.js";
import { ApiError } from "./api.js";

export function showError(e) {
  const box = document.getElementById("errors");
  if (!box) return;
  let text;
  if (e instanceof ApiError) text = e.code === "need_name" || e.code === "bad_link" ? e.message : e.text;
  else text = t("err.generic", { message: e && e.message ? e.message : String(e) });
  // The same words already on screen (a refusal that repeats): shown once.
  for (const shown of box.querySelectorAll(".error")) if (shown.dataset.text === text) return;
  const item = h("div.error", { role: "alert", "data-testid": "error", "data-text": text },
    h("span.icon", { "aria-hidden": "true" }, "⚠"),
    h("span.msg", text),
    h("button.link", { type: "button", onclick: () => item.remove(), "aria-label": t("err.dismiss") }, "✕")
  );
  box.append(item);
  setTimeout(() => item.remove(), 9000);
  if (!(e instanceof ApiError)) console.warn(e);
}

export function toast(text) {
  const box = document.getElementById("errors");
  if (!box) return;
  const item = h("div.toast", { role: "status" }, text);
  box.append(item);
  setTimeout(() => item.remove(), 3500);
}

let badge = null;
export function setTurnBadge(on) {
  if (badge === on) return;
  badge = on;
  const link = document.getElementById("favicon");
  if (link) link.href = on ? "/favicon-turn.svg" : "/favicon.svg";
}
