// A link or code that signs this browser in (add a device, an e-mail sign-in link, a recovery
// code) while another profile is signed in here: the server refuses with 409
// signed_in_as_other, naming both, and spends nothing. This asks the person — "You are signed in
// as X. This link signs in as Y." — and sends the request again with `switch: true` only on
// "Switch to Y". The names are shown as text.
import { t } from "./i18n.js";
import { h } from "./dom.js";
import { ApiError } from "./api.js";

// send(switching): the request, with `switch: true` when `switching`. Resolves to its answer,
// or to null when the person chose to stay as the profile signed in here.
export async function withSwitch(send) {
  try {
    return await send(false);
  } catch (e) {
    if (!(e instanceof ApiError) || e.code !== "signed_in_as_other") throw e;
    const here = String(e.detail.signed_in_as || "");
    const there = String(e.detail.link_profile || "");
    if (!(await askSwitch(here, there))) return null;
    return send(true);
  }
}

// The question, as a modal dialog: resolves true for "Switch to {there}", false for "Stay as
// {here}" (also Escape).
export function askSwitch(here, there) {
  return new Promise((resolve) => {
    const go = h("button.primary", { type: "button", "data-testid": "switch-go" }, t("switch.go", { name: there }));
    const stay = h("button", { type: "button", "data-testid": "switch-stay" }, t("switch.stay", { name: here }));
    const dialog = h("dialog.switch-dialog", { "data-testid": "switch-dialog", "aria-labelledby": "switch-title", "aria-describedby": "switch-text" },
      h("h2", { id: "switch-title" }, t("switch.question", { name: there })),
      h("div", { id: "switch-text" },
        h("p", { "data-testid": "switch-here" }, t("switch.signed_in_as", { name: here })),
        h("p", { "data-testid": "switch-there" }, t("switch.link_is", { name: there })),
        here === there ? h("p.muted", { "data-testid": "switch-same-name" }, t("switch.same_name")) : null),
      h("div.row", stay, go));
    let answered = false;
    const answer = (yes) => {
      if (answered) return;
      answered = true;
      if (dialog.open) dialog.close();
      dialog.remove();
      resolve(yes);
    };
    go.addEventListener("click", () => answer(true));
    stay.addEventListener("click", () => answer(false));
    dialog.addEventListener("cancel", (e) => {
      e.preventDefault();
      answer(false);
    });
    document.body.append(dialog);
    dialog.showModal();
    stay.focus(); // the safe answer is the one Enter gives
  });
}
