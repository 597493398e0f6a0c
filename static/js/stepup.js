// "Confirm it's you": adding or removing a passkey or the e-mail address (and removing them
// while signing out everywhere) needs a recent proof on this device. When the server answers
// 403 recent_proof_required, a dialog asks for the recovery code or one of the profile's
// passkeys, the server notes the proof, and the request goes again, once. Nothing the person
// typed stays in the page afterwards.
import { t } from "./i18n.js";
import { h } from "./dom.js";
import { post, ApiError } from "./api.js";
import { passkeysUsable, requestOptions, credentialJSON, cancelled } from "./webauthn.js";

export const PROOF_NEEDED = "recent_proof_required";

// Run `action`; when it needs a recent proof, ask for one and run it again. Cancelled: an
// ApiError "proof_cancelled" (callers show nothing for it, see `quiet`).
export async function withProof(action) {
  try {
    return await action();
  } catch (e) {
    if (!(e instanceof ApiError) || e.code !== PROOF_NEEDED) throw e;
  }
  if (!(await confirmItsYou())) throw new ApiError(0, "proof_cancelled", t("stepup.cancelled"));
  return action();
}

// A refusal the person chose (closed the dialog): nothing to show.
export function quiet(e) {
  return e instanceof ApiError && e.code === "proof_cancelled";
}

async function proveWithPasskey() {
  const options = await post("/api/passkeys/confirm/options", {});
  let cred;
  try {
    cred = await navigator.credentials.get({ publicKey: requestOptions(options) });
  } catch (e) {
    if (cancelled(e)) return false;
    throw e;
  }
  await post("/api/passkeys/confirm", { credential: credentialJSON(cred) });
  return true;
}

// The dialog; resolves true once this device proved itself, false when the person gave up.
export function confirmItsYou() {
  return new Promise((resolve) => {
    const message = h("p.stepup-error", { role: "alert", "data-testid": "stepup-error" });
    const code = h("input", { id: "stepup-code", "data-testid": "stepup-code", type: "text", autocomplete: "off", spellcheck: "false", maxlength: "64", placeholder: "XXXX-XXXX-XXXX-XXXX" });
    const go = h("button.primary", { type: "submit", "data-testid": "stepup-go" }, t("stepup.confirm"));
    const cancel = h("button", { type: "button", "data-testid": "stepup-cancel" }, t("stepup.cancel"));
    const form = h("form.stepup-form", { method: "dialog" },
      h("label", { for: "stepup-code" }, t("stepup.code_label")), h("div.row", code, go));
    const usePasskey = passkeysUsable()
      ? h("button", { type: "button", "data-testid": "stepup-passkey" }, t("stepup.use_passkey"))
      : null;
    const dialog = h("dialog.stepup", { "data-testid": "stepup-dialog", "aria-labelledby": "stepup-title" },
      h("h2", { id: "stepup-title" }, t("stepup.title")),
      h("p", t("stepup.why")),
      form,
      usePasskey ? h("p.stepup-or", t("stepup.or"), " ", usePasskey) : null,
      message,
      h("div.row.stepup-actions", cancel));
    let done = false;
    const finish = (ok) => {
      if (done) return;
      done = true;
      code.value = "";
      if (dialog.open) dialog.close();
      dialog.remove();
      resolve(ok);
    };
    const busy = async (work) => {
      message.textContent = "";
      for (const b of [go, cancel, usePasskey]) if (b) b.disabled = true;
      try {
        if (await work()) finish(true);
      } catch (e) {
        if (e instanceof ApiError && e.code === "bad_recovery_code") message.textContent = t("stepup.wrong_code");
        else message.textContent = e instanceof ApiError ? e.text : t("err.generic", { message: String(e) });
      } finally {
        for (const b of [go, cancel, usePasskey]) if (b) b.disabled = false;
      }
    };
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      const typed = code.value.trim();
      if (!typed) {
        message.textContent = t("stepup.need_code");
        return;
      }
      busy(async () => {
        await post("/api/profiles/me/confirm", { code: typed });
        return true;
      });
    });
    if (usePasskey) usePasskey.addEventListener("click", () => busy(proveWithPasskey));
    cancel.addEventListener("click", () => finish(false));
    dialog.addEventListener("cancel", () => finish(false)); // Escape
    document.body.append(dialog);
    dialog.showModal();
    code.focus();
  });
}
