// Passkeys (WebAuthn), for those who want them: the profile page's section (add one, list,
// remove) and "Sign in with a passkey" for the "Who are you?" panel. The server's options come
// as JSON with binary values in base64url; the browser's answers go back the same way
// (webauthn.js). Adding and removing one need a recent proof: "Confirm it's you" (stepup.js).
import { t, lang } from "./i18n.js";
import { h, clear } from "./dom.js";
import { get, post, del, ApiError } from "./api.js";
import { showError, toast } from "./notices.js";
import { loadProfile } from "./profile.js";
import { passkeysSupported, passkeysBlocked, creationOptions, requestOptions, credentialJSON, cancelled } from "./webauthn.js";
import { withProof, quiet } from "./stepup.js";

export { passkeysSupported };

// ---------- the calls ----------

export async function addPasskey(name) {
  const options = await withProof(() => post("/api/passkeys/register/options", {}));
  const cred = await navigator.credentials.create({ publicKey: creationOptions(options) });
  const body = { credential: credentialJSON(cred) };
  if (name) body.name = name;
  return withProof(() => post("/api/passkeys/register", body));
}

// Sign this device in with a passkey the browser or a phone holds; null when the person
// cancelled. The session is the cookie the server sets.
export async function signInWithPasskey() {
  const options = await post("/api/passkeys/signin/options", {});
  let cred;
  try {
    cred = await navigator.credentials.get({ publicKey: requestOptions(options) });
  } catch (e) {
    if (cancelled(e)) return null;
    throw e;
  }
  const who = await post("/api/passkeys/signin", { credential: credentialJSON(cred) });
  try { localStorage.setItem("emara.signed_in", "1"); } catch {}
  await loadProfile();
  return who;
}

// ---------- "Sign in with a passkey" (the "Who are you?" panel) ----------

export function passkeySignInButton(done) {
  if (!passkeysSupported()) return null;
  const blocked = passkeysBlockedNote();
  if (blocked) return h("div.whoami-passkey", blocked);
  const btn = h("button", { type: "button", "data-testid": "whoami-passkey" }, t("passkeys.signin"));
  btn.addEventListener("click", async () => {
    btn.disabled = true;
    btn.setAttribute("aria-busy", "true");
    try {
      if (await signInWithPasskey()) {
        await done();
        return;
      }
    } catch (e) {
      showError(e);
    }
    btn.disabled = false;
    btn.setAttribute("aria-busy", "false");
  });
  return h("p.whoami-passkey", btn);
}

// ---------- where passkeys cannot work ----------

// Why not here, in words, and on this computer's IP address the same page on localhost.
export function passkeysBlockedNote() {
  const why = passkeysBlocked();
  if (!why) return null;
  const note = h("p.note.passkeys-blocked", { "data-testid": "passkeys-blocked" },
    t(why.reason === "ip" ? "passkeys.on_ip" : "passkeys.insecure", { host: why.host }));
  if (why.local) {
    note.append(" ",
      h("a", { href: why.local, "data-testid": "passkeys-localhost" }, t("passkeys.open_localhost", { url: new URL(why.local).origin })),
      " ", t("passkeys.sign_in_there"));
  }
  return note;
}

// ---------- the profile page's section ----------

export function passkeysSection() {
  const box = h("section.panel.passkeys-section", { "data-testid": "passkeys-section", "aria-labelledby": "passkeys-title" },
    h("h2", { id: "passkeys-title" }, t("passkeys.title")), h("p.muted", t("app.loading")));
  load(box);
  return box;
}

async function load(box) {
  try {
    show(box, (await get("/api/passkeys")).passkeys);
  } catch (e) {
    showError(e);
  }
}

function when(iso) {
  try {
    return new Intl.DateTimeFormat(lang(), { dateStyle: "medium" }).format(new Date(iso));
  } catch {
    return iso;
  }
}

function show(box, keys) {
  clear(box).append(h("h2", { id: "passkeys-title" }, t("passkeys.title")), h("p.muted", t("passkeys.what")));
  const blocked = passkeysSupported() ? passkeysBlockedNote() : null;
  if (!passkeysSupported()) box.append(h("p.note", { "data-testid": "passkeys-unsupported" }, t("passkeys.unsupported")));
  else if (blocked) box.append(blocked);
  if (keys.length === 0) {
    box.append(h("p", { "data-testid": "passkeys-none" }, t("passkeys.none")));
  } else {
    box.append(h("ul.passkeys-list", { "data-testid": "passkeys-list" }, keys.map((k) => row(box, k))));
  }
  if (passkeysSupported() && !blocked) box.append(addForm(box));
}

function row(box, k) {
  const remove = h("button", { type: "button", "data-testid": "passkey-remove", "aria-label": t("passkeys.remove_named", { name: k.name }) }, t("passkeys.remove"));
  remove.addEventListener("click", async () => {
    remove.disabled = true;
    try {
      await withProof(() => del(`/api/passkeys/${encodeURIComponent(k.id)}`));
      toast(t("passkeys.removed"));
      await load(box);
    } catch (e) {
      if (!quiet(e)) showError(e);
      remove.disabled = false;
    }
  });
  const used = k.last_used_at ? t("passkeys.last_used", { date: when(k.last_used_at) }) : t("passkeys.never_used");
  return h("li.passkey", { "data-testid": "passkey" },
    h("span.passkey-name", k.name),
    h("span.muted", t("passkeys.added", { date: when(k.created_at) }), " · ", used),
    remove);
}

function addForm(box) {
  const name = h("input", { id: "passkey-name", "data-testid": "passkey-name", type: "text", maxlength: "60", autocomplete: "off", placeholder: t("passkeys.name_hint") });
  const go = h("button.primary", { type: "submit", "data-testid": "passkey-add" }, t("passkeys.add"));
  const form = h("form.passkey-form", h("label", { for: "passkey-name" }, t("passkeys.name")), h("div.row", name, go));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    go.disabled = true;
    try {
      await addPasskey(name.value.trim());
      toast(t("passkeys.added_toast"));
      await load(box);
    } catch (err) {
      if (!cancelled(err) && !quiet(err)) showError(err instanceof ApiError ? err : new ApiError(0, "passkey_failed", String(err)));
      go.disabled = false;
    }
  });
  return form;
}
