// Who plays in this browser. The session is the HttpOnly `emara_token` cookie the server sets:
// the page never stores a token or a recovery code (not in localStorage, sessionStorage or
// document.cookie); who am I comes from GET /api/profiles/me. A new recovery code (after creating
// a profile, or after a recovery) is shown once, with copy and download, and then forgotten.
import { t } from "./i18n.js";
import { h, clear } from "./dom.js";
import { get, post, ApiError } from "./api.js";
import { showError, toast } from "./notices.js";
import { pushMenuItem, forgetPushOnSignOut } from "./push.js";
import { themeSwitch } from "./theme.js";
import { withSwitch } from "./switch.js";

let me = null; // {id, name} or null

// A hint, not a credential: "this browser signed in once", so that a first visit does not ask
// GET /api/profiles/me for a 401 (which the browser's console reports as an error).
const HINT = "emara.signed_in";

function setHint(on) {
  // the header's profile menu follows the change
  document.dispatchEvent(new CustomEvent("emara:profile"));
  try {
    if (on) localStorage.setItem(HINT, "1");
    else localStorage.removeItem(HINT);
  } catch {}
}

function hinted() {
  try {
    return localStorage.getItem(HINT) === "1";
  } catch {
    return true;
  }
}

export function profile() {
  return me;
}

// The server no longer knows this device's session (a socket said so): signed out here.
export function forgetProfile() {
  me = null;
  setHint(false);
}

// Asks the server who the cookie belongs to (null: nobody, or the cookie is gone). Without the
// hint that this browser signed in, only when `force`d (a page that needs a profile asks anyway:
// the cookie may have come another way).
export async function loadProfile({ force = false } = {}) {
  if (!hinted() && !force) {
    me = null;
    return me;
  }
  try {
    const p = await get("/api/profiles/me");
    me = { id: p.id, name: p.name, recovered_elsewhere: p.recovered_elsewhere || null, guide: p.guide || null, notices: p.notices || [] };
  } catch (e) {
    if (!(e instanceof ApiError) || e.code === "network") throw e;
    me = null;
  }
  setHint(!!me);
  return me;
}

// The profile to act as: the signed-in one when `name` is empty or its own, else a new profile.
export async function ensureProfile(name) {
  name = (name || "").trim();
  if (me && (!name || name === me.name)) return me;
  if (!name) throw new ApiError(0, "need_name", t("landing.need_name"));
  const created = await post("/api/profiles", { name });
  me = { id: created.id, name: created.name, guide: null };
  setHint(true);
  showRecoveryCode(me.name, created.recovery_code);
  return me;
}

// Spend the recovery code here. Where another profile is signed in, only if the person says
// "switch" (static/js/switch.js); staying resolves to null (that profile is loaded again).
export async function recover(code) {
  code = code.trim();
  const p = await withSwitch((switching) => post("/api/profiles/recover", switching ? { code, switch: true } : { code }));
  if (!p) {
    await loadProfile({ force: true });
    return null;
  }
  me = { id: p.id, name: p.name };
  setHint(true);
  // codes are one-time: a recovery hands out the next one, shown once like the first
  if (p.recovery_code) showRecoveryCode(me.name, p.recovery_code);
  return me;
}

// POST /api/profiles/signout (this browser) or …/signout-everywhere (every device of the profile).
// Everywhere: every other device's session ends; this one gets a fresh cookie and stays; `body`
// may ask to remove the passkeys and the address added since a time (signoutall.js).
export async function signOut(everywhere, body = {}) {
  await forgetPushOnSignOut();
  try {
    await post(everywhere ? "/api/profiles/signout-everywhere" : "/api/profiles/signout", everywhere ? body : {});
  } catch (e) {
    if (e instanceof ApiError && (e.status === 404 || e.status === 405)) throw new ApiError(e.status, "signout_unavailable", e.message);
    throw e;
  }
  if (everywhere) {
    toast(t("profile.signed_out_everywhere"));
    return;
  }
  me = null;
  setHint(false);
  hideRecoveryCode();
  toast(t("profile.signed_out"));
}

// ---------- the recovery code, shown once ----------

function hideRecoveryCode() {
  const box = document.getElementById("recovery");
  if (box) clear(box);
}

export function showRecoveryCode(name, code) {
  const box = document.getElementById("recovery");
  if (!box || !code) return;
  const copy = h("button", { type: "button", "data-testid": "recovery-copy" }, t("recovery.copy"));
  copy.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(code);
      copy.textContent = t("recovery.copied");
    } catch {
      toast(t("recovery.copy_failed"));
    }
  });
  const download = h("button", { type: "button", "data-testid": "recovery-download" }, t("recovery.download"));
  download.addEventListener("click", () => {
    const blob = new Blob([t("recovery.file", { name, code }) + "\n"], { type: "text/plain" });
    const url = URL.createObjectURL(blob);
    const a = h("a", { href: url, download: "emara-recovery-code.txt" });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  });
  const done = h("button.primary", { type: "button", "data-testid": "recovery-done", onclick: hideRecoveryCode }, t("recovery.done"));
  clear(box).append(
    h("section.panel.recovery-panel", { "data-testid": "recovery-panel", role: "region", "aria-label": t("recovery.title") },
      h("h2", t("recovery.title")),
      h("p", t("recovery.text", { name })),
      h("p", h("code.recovery-code", { "data-testid": "recovery-code" }, code)),
      h("p", h("strong", t("recovery.once"))),
      h("div.row", copy, download, done))
  );
}

// ---------- the header's profile menu ----------

// The open menu closes with Escape (focus back on its summary) and with a click or tap anywhere
// outside it, so it never stays over the score table or the Take back button.
function closeMenus(except) {
  let closed = null;
  for (const d of document.querySelectorAll("details.profile-menu[open]")) {
    if (d === except) continue;
    d.open = false;
    closed = d;
  }
  return closed;
}

document.addEventListener("keydown", (e) => {
  if (e.key !== "Escape") return;
  const closed = closeMenus(null);
  if (!closed) return;
  const summary = closed.querySelector("summary");
  if (summary && closed.contains(document.activeElement)) summary.focus();
});
document.addEventListener("click", (e) => closeMenus(e.target.closest ? e.target.closest("details.profile-menu") : null));

// `after()` runs once the profile changed (the router shows the page again).
export function profileMenu(after) {
  if (me) {
    const out = (everywhere) => async () => {
      try {
        if (everywhere) {
          // a dialog: what was added, and whether to remove it too (signoutall.js)
          const { signOutEverywhereDialog } = await import("./signoutall.js");
          if (await signOutEverywhereDialog()) after();
          return;
        }
        await signOut(everywhere);
        after();
      } catch (e) {
        showError(e);
      }
    };
    return h("details.profile-menu", { "data-testid": "profile-menu" },
      h("summary", { "aria-label": t("profile.menu") }, "☺ ", h("span", { "data-testid": "profile-name" }, me.name)),
      h("div.menu",
        h("p.muted", t("profile.signed_in_as", { name: me.name })),
        h("a.button", { href: "/profile", "data-link": "", "data-testid": "profile-page-link" }, t("profile.page_title")),
        h("a.button", { href: "/history", "data-link": "", "data-testid": "history-link" }, t("history.title")),
        pushMenuItem(),
        themeSwitch(),
        h("button", { type: "button", "data-testid": "sign-out", onclick: out(false) }, t("profile.sign_out")),
        h("button", { type: "button", "data-testid": "sign-out-everywhere", onclick: out(true) }, t("profile.sign_out_everywhere"))));
  }
  const input = h("input", { id: "recover-input", "data-testid": "recover-input", type: "text", autocomplete: "off", spellcheck: "false" });
  const go = async () => {
    try {
      const p = await recover(input.value);
      input.value = "";
      if (p) toast(t("profile.recovered", { name: p.name }));
      after();
    } catch (e) {
      showError(e);
    }
  };
  input.addEventListener("keydown", (e) => e.key === "Enter" && go());
  return h("details.profile-menu", { "data-testid": "profile-menu" },
    h("summary", t("profile.recover")),
    h("div.menu",
      h("label", { for: "recover-input" }, t("profile.recover_label")), input,
      h("button", { type: "button", "data-testid": "recover-go", onclick: go }, t("profile.recover_go")),
      h("a", { href: "/email/signin", "data-link": "", "data-testid": "email-signin-link" }, t("email.signin.menu")),
      themeSwitch()));
}

// The name field of the landing page, the lobby's join box and the solo/records sign-in.
export function nameField(onEnter) {
  const input = h("input", {
    id: "name-input",
    "data-testid": "name-input",
    type: "text",
    maxlength: "40",
    autocomplete: "nickname",
    placeholder: t("landing.name_placeholder"),
    value: me ? me.name : "",
    onkeydown: (e) => e.key === "Enter" && onEnter && onEnter(),
  });
  return h("div.field", h("label", { for: "name-input" }, t("landing.you")), input);
}

export function currentName() {
  const el = document.getElementById("name-input");
  return el ? el.value : "";
}
