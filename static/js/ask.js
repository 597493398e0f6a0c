// A modal question with one act: a title, what it will do, an optional form, and the act's
// button beside Cancel. The act runs on confirm (its error, in words, stays in the dialog so the
// person can try again or cancel); the dialog closes once it succeeded. Escape cancels. As the
// other dialogs of the page (stepup.js, signoutall.js): showModal, removed when closed.
//
// ask({id, title, body, confirm, act, danger}) resolves what `act()` returned, or null when
// the person cancelled. `id` names the dialog's test ids (id, id-confirm, id-cancel, id-error).
import { t } from "./i18n.js";
import { h } from "./dom.js";

export function ask({ id, title, body = [], confirm, act, danger = false }) {
  return new Promise((resolve) => {
    const message = h("p.stepup-error", { role: "alert", "data-testid": `${id}-error` });
    const go = h("button", { type: "submit", class: danger ? "danger" : "primary", "data-testid": `${id}-confirm` }, confirm);
    const cancel = h("button", { type: "button", "data-testid": `${id}-cancel` }, t("stepup.cancel"));
    const form = h("form.ask-form", { method: "dialog" }, body, message, h("div.row.stepup-actions", go, cancel));
    const dialog = h("dialog.ask", { "data-testid": id, "aria-labelledby": `${id}-title` },
      h("h2", { id: `${id}-title` }, title), form);
    let done = false;
    const finish = (out) => {
      if (done) return;
      done = true;
      if (dialog.open) dialog.close();
      dialog.remove();
      resolve(out);
    };
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      message.textContent = "";
      go.disabled = cancel.disabled = true;
      try {
        finish(await act(form));
      } catch (err) {
        message.textContent = (err && err.text) || String(err);
        go.disabled = cancel.disabled = false;
      }
    });
    cancel.addEventListener("click", () => finish(null));
    dialog.addEventListener("cancel", () => finish(null)); // Escape
    document.body.append(dialog);
    dialog.showModal();
    const first = dialog.querySelector("input, textarea, select");
    (first || go).focus();
  });
}
