// My devices: the profile page's list of signed-in devices (each named, how it was added, rename
// or sign out any one: devicerow.js), "Add a device"
// (a short code, its link and a QR code, for 10 minutes, once), the page the link opens on the
// new device (/add-device#CODE), the notice a device gets when another one used the recovery
// code, and the security notices of passkeys added and address changes made on other devices
// ("not you? sign out everywhere", which offers to remove what was added since).
import { t, lang } from "./i18n.js";
import { h, clear } from "./dom.js";
import { get, post, del, ApiError } from "./api.js";
import { showError, toast } from "./notices.js";
import { loadProfile } from "./profile.js";
import { signOutEverywhereDialog } from "./signoutall.js";
import { withProof, quiet } from "./stepup.js";
import { withSwitch } from "./switch.js";
import { deviceRow } from "./devicerow.js";

const when = (iso) => {
  const at = new Date(iso);
  return at.toLocaleString(lang() || undefined, { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });
};

// A device code is 8 letters and digits (XXXX-XXXX); a recovery code is 16.
export function isDeviceCode(text) {
  return (text || "").replace(/[^0-9a-z]/gi, "").length === 8;
}

// Spend a device code on this device: it gets a session of its own. Where another profile is
// signed in, only if the person says "switch"; staying resolves to null (still signed in as
// that one, who is loaded).
export async function addThisDevice(code) {
  code = code.trim();
  const added = await withSwitch((switching) => post("/api/profiles/devices/add", switching ? { code, switch: true } : { code }));
  try { localStorage.setItem("emara.signed_in", "1"); } catch {}
  const me = await loadProfile({ force: true });
  return added ? me : null;
}

export function devicesSection() {
  const list = h("ul.device-list", { "data-testid": "device-list" });
  const shown = h("div.device-code", { "data-testid": "device-code-box", "aria-live": "polite" });
  const add = h("button", { type: "button", "data-testid": "add-device" }, t("devices.add"));
  add.addEventListener("click", async () => {
    add.disabled = true;
    try {
      const c = await withProof(() => post("/api/profiles/me/devices/code", {}));
      clear(shown).append(
        h("p", t("devices.code_how")),
        h("p.device-code-text", { "data-testid": "device-code" }, c.code),
        h("img.device-qr", { src: c.qr_svg, alt: t("devices.qr_alt"), width: "180", height: "180", "data-testid": "device-qr" }),
        h("p", h("input.device-link", { type: "text", readonly: "", value: c.link, "aria-label": t("devices.link"), "data-testid": "device-link" })),
        h("p.muted", t("devices.code_expires", { time: when(c.expires_at) })));
    } catch (e) {
      if (!quiet(e)) showError(e);
    } finally {
      add.disabled = false;
    }
  });
  const refresh = async () => {
    let out;
    try {
      out = await get("/api/profiles/me/devices");
    } catch (e) {
      showError(e);
      return;
    }
    clear(list);
    for (const d of out.devices) {
      const off = h("button.link", { type: "button", "data-testid": "device-sign-out" }, d.current ? t("devices.sign_out_here") : t("devices.sign_out"));
      off.addEventListener("click", async () => {
        off.disabled = true;
        try {
          await del(`/api/profiles/me/devices/${encodeURIComponent(d.id)}`);
          if (d.current) location.assign("/");
          else refresh();
        } catch (e) {
          showError(e);
          off.disabled = false;
        }
      });
      list.append(deviceRow(d, { when, refresh, signOut: off }));
    }
  };
  refresh();
  return h("section.panel.devices-section", { "data-testid": "devices-section", "aria-labelledby": "devices-title" },
    h("h2", { id: "devices-title" }, t("devices.title")), h("p.muted", t("devices.what")), list, add, shown);
}

// /add-device#CODE on the new device: one button signs it in beside the other.
export function addDevicePage(root, { navigate }) {
  const code = decodeURIComponent(location.hash.replace(/^#/, ""));
  history.replaceState(null, "", location.pathname); // the code leaves the address bar
  const result = h("p", { "data-testid": "add-device-result", "aria-live": "polite" });
  const input = h("input", { id: "add-device-code", "data-testid": "add-device-code", type: "text", value: code, autocomplete: "off", spellcheck: "false", maxlength: "20" });
  const go = h("button.primary", { type: "submit", "data-testid": "add-device-go" }, t("devices.add_here"));
  const form = h("form", h("label", { for: "add-device-code" }, t("devices.code_label")), h("div.row", input, go));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    go.disabled = true;
    try {
      const me = await addThisDevice(input.value);
      document.dispatchEvent(new Event("emara:profile"));
      if (!me) { // stayed as the profile signed in here: the code still works
        const still = await loadProfile({ force: true });
        result.textContent = t("switch.stayed", { name: still ? still.name : "" });
        go.disabled = false;
        return;
      }
      toast(t("devices.added", { name: me.name }));
      navigate("/games");
    } catch (err) {
      result.textContent = err instanceof ApiError ? err.text : String(err);
      go.disabled = false;
    }
  });
  clear(root).append(h("section.panel", { "data-testid": "add-device-page" }, h("h1", t("devices.add_title")), h("p", t("devices.add_text")), form, result));
}

// Another device used the recovery code since this one signed in: say so, once, until this
// device answers ("that was me", or sign out everywhere).
export function tellRecovery(me) {
  const box = document.getElementById("account-notice");
  if (!box || !me || !me.recovered_elsewhere || document.querySelector("[data-testid=recovery-notice]")) return;
  const r = me.recovered_elsewhere;
  const item = h("div.panel.recovery-notice", { role: "alert", "data-testid": "recovery-notice" });
  const mine = h("button", { type: "button", "data-testid": "recovery-was-me" }, t("devices.was_me"));
  const everywhere = h("button.primary", { type: "button", "data-testid": "recovery-sign-out-everywhere" }, t("profile.sign_out_everywhere"));
  mine.addEventListener("click", async () => {
    try {
      await post("/api/profiles/me/devices/acknowledge", {});
      item.remove();
    } catch (e) {
      showError(e);
    }
  });
  everywhere.addEventListener("click", async () => {
    if (await signOutEverywhereDialog({ since: r.at })) item.remove();
  });
  item.append(h("p.msg", t("devices.recovered", { device: r.device, time: when(r.at) })), h("div.row", mine, everywhere));
  box.append(item);
}

// Passkeys added and address changes made on another device since this one signed in (and last
// dismissed them): each said in words, with "that was me" (dismissed on this device) and "not
// you? sign out everywhere" (offering to remove what was added since the oldest of them).
export function tellNotices(me) {
  const box = document.getElementById("account-notice");
  const notices = (me && me.notices) || [];
  if (!box || !notices.length || document.querySelector("[data-testid=security-notice]")) return;
  const item = h("div.panel.recovery-notice.security-notice", { role: "alert", "data-testid": "security-notice" });
  const said = (n) => t("devices.notice." + n.kind, { detail: n.detail, device: n.device || t("devices.notice.unknown_device"), time: when(n.at) });
  const mine = h("button", { type: "button", "data-testid": "security-notice-was-me" }, t("devices.was_me"));
  const everywhere = h("button.primary", { type: "button", "data-testid": "security-notice-sign-out-everywhere" }, t("devices.notice.not_me"));
  mine.addEventListener("click", async () => {
    try {
      await post("/api/profiles/me/notices/dismiss", { through: Math.max(...notices.map((n) => n.id)) });
      item.remove();
    } catch (e) {
      showError(e);
    }
  });
  everywhere.addEventListener("click", async () => {
    const oldest = notices.reduce((a, n) => (new Date(n.at) < new Date(a) ? n.at : a), notices[0].at);
    if (await signOutEverywhereDialog({ since: oldest })) item.remove();
  });
  item.append(
    h("p.msg", h("strong", t("devices.notice.title"))),
    h("ul.notice-list", notices.map((n) => h("li", { "data-testid": "security-notice-item", "data-kind": n.kind }, said(n)))),
    h("div.row", mine, everywhere));
  box.append(item);
}
