// One row of My devices: the person's own name for the device (or its browser's name), how it
// was added (first sign-in, device code, recovery code, e-mail link, passkey), when it was first
// and last used, "Rename" (a name of up to 40 characters, shown as text; empty forgets it) and
// "Sign out". Names and times never go into markup as HTML.
import { t, has } from "./i18n.js";
import { h, clear } from "./dom.js";
import { api } from "./api.js";
import { showError } from "./notices.js";

export const NAME_MAX = 40;

const howText = (how) => (has("devices.how." + how) ? t("devices.how." + how) : "");

// d: a device of GET /api/profiles/me/devices; when(iso): a time in words; refresh(): read the
// list again; signOut: the row's sign-out button.
export function deviceRow(d, { when, refresh, signOut }) {
  const row = h("li.device", { "data-testid": "device", "data-current": d.current ? "1" : "0", "data-how": d.how });
  const label = d.name || d.device;
  const rename = h("button.link", { type: "button", "data-testid": "device-rename", "aria-label": t("devices.rename_of", { device: label }) }, t("devices.rename"));
  const show = () => {
    clear(row).append(...[
      h("strong", { "data-testid": "device-name" }, label),
      d.name ? h("span.muted", { "data-testid": "device-browser" }, " (", d.device, ")") : null,
      d.current ? h("span.badge", " ", t("devices.this_one")) : null,
      h("span.muted.device-how", { "data-testid": "device-how" }, " — ", [howText(d.how), t("devices.first_last", { first: when(d.created_at), last: when(d.last_used_at) })].filter(Boolean).join(", ")),
      " ", rename, " ", signOut].filter((x) => x !== null));
  };
  rename.addEventListener("click", () => {
    const id = "device-name-" + d.id;
    const input = h("input", { id, type: "text", value: d.name || "", maxlength: String(NAME_MAX), autocomplete: "off", "data-testid": "device-name-input", "aria-describedby": id + "-hint" });
    const save = h("button.primary", { type: "submit", "data-testid": "device-name-save" }, t("devices.rename_save"));
    const cancel = h("button", { type: "button", "data-testid": "device-name-cancel" }, t("devices.rename_cancel"));
    const form = h("form.device-rename",
      h("label", { for: id }, t("devices.rename_label", { device: d.device })),
      h("div.row", input, save, cancel),
      h("p.hint", { id: id + "-hint" }, t("devices.rename_hint")));
    cancel.addEventListener("click", () => {
      show();
      rename.focus();
    });
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      save.disabled = true;
      try {
        await api("PUT", `/api/profiles/me/devices/${encodeURIComponent(d.id)}/name`, { name: input.value });
        await refresh();
      } catch (err) {
        showError(err);
        save.disabled = false;
      }
    });
    clear(row).append(form);
    input.focus();
    input.select();
  });
  show();
  return row;
}
