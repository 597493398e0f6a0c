// "Who are you?": the one panel a signed-out visitor meets on any page that needs a profile (a
// table or invite link, solo, records, My games). New here: a name, and (on an invite link) the
// seat at once. Played before: the recovery code, a passkey, or a sign-in link by e-mail. Then
// straight back to the page that asked.
import { t } from "/js/i18n.js";
import { h, clear } from "/js/dom.js";
import { post, ApiError } from "/js/api.js";
import { showError } from "/js/notices.js";
import { ensureProfile, recover, nameField, currentName } from "/js/profile.js";
import { addThisDevice, isDeviceCode } from "/js/devices.js";
import { passkeySignInButton } from "/js/passkeys.js";

// root: where the panel goes; invite: the table's invite code when the page is a table link
// (the new profile takes a seat with it); done(): show the page again, now signed in.
export function askWhoYouAre(root, { tableId = null, invite = null, done }) {
  const busy = (btn, on) => {
    btn.disabled = on;
    btn.setAttribute("aria-busy", on ? "true" : "false");
  };
  // On a table link the button is the table's "take a seat" (the same test id as the lobby's).
  const joinGo = h("button.primary", { type: "button", "data-testid": tableId && invite ? "join-table" : "whoami-new-go" },
    tableId && invite ? t("whoami.new_join") : t("whoami.new_go"));
  joinGo.addEventListener("click", async () => {
    busy(joinGo, true);
    try {
      await ensureProfile(currentName());
      if (tableId && invite) {
        try {
          await post(`/api/tables/${encodeURIComponent(tableId)}/join`, { invite_code: invite });
        } catch (e) {
          // A full or started table: the page shows it as it is (to look on, or to wait).
          if (!(e instanceof ApiError) || e.status >= 500 || e.code === "network") throw e;
        }
      }
      await done();
    } catch (e) {
      showError(e);
      busy(joinGo, false);
    }
  });
  const code = h("input", { id: "whoami-code", "data-testid": "whoami-code", type: "text", autocomplete: "off", spellcheck: "false", maxlength: "40", placeholder: "0425-78E2-E28A-0451" });
  const codeGo = h("button", { type: "submit", "data-testid": "whoami-code-go" }, t("whoami.code_go"));
  const codeForm = h("form.whoami-code", h("label", { for: "whoami-code" }, t("whoami.code_label")), h("div.row", code, codeGo));
  codeForm.addEventListener("submit", async (e) => {
    e.preventDefault();
    busy(codeGo, true);
    try {
      // A device code (shown by a device signed in already) or the recovery code.
      if (isDeviceCode(code.value)) await addThisDevice(code.value);
      else await recover(code.value);
      await done();
    } catch (err) {
      showError(err);
      busy(codeGo, false);
    }
  });
  const panel = h("section.panel.whoami", { "data-testid": "whoami", "aria-labelledby": "whoami-title" },
    h("h1", { id: "whoami-title" }, t("whoami.title")),
    h("div.whoami-ways",
      h("div.whoami-way", { "data-testid": "whoami-new" },
        h("h2", t("whoami.new")),
        nameField(() => joinGo.click()),
        joinGo),
      h("div.whoami-way", { "data-testid": "whoami-back" },
        h("h2", t("whoami.back")),
        codeForm,
        passkeySignInButton(done),
        h("p", h("a", { href: "/email/signin", "data-testid": "whoami-email" }, t("whoami.email"))))));
  clear(root).append(panel);
  const first = document.getElementById("name-input");
  if (first) first.focus();
  return panel;
}
