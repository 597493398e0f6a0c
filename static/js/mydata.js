// My data, on the profile page: download everything stored about me (one JSON file, a plain
// link: the browser saves what the server sends), and delete my profile — after a dialog that
// says what goes and what stays, and "confirm it's you" when the server wants a recent proof.
import { t } from "./i18n.js";
import { h, clear } from "./dom.js";
import { post } from "./api.js";
import { forgetProfile } from "./profile.js";
import { withProof, quiet } from "./stepup.js";

// Resolves true once the profile is deleted, false when the person cancelled.
function deleteDialog(name) {
  return new Promise((resolve) => {
    const message = h("p.stepup-error", { role: "alert", "data-testid": "delete-error" });
    const go = h("button.primary", { type: "button", "data-testid": "delete-go" }, t("mydata.delete_go"));
    const cancel = h("button", { type: "button", "data-testid": "delete-cancel" }, t("stepup.cancel"));
    const dialog = h("dialog.delete-profile", { "data-testid": "delete-dialog", "aria-labelledby": "delete-title", "aria-describedby": "delete-what" },
      h("h2", { id: "delete-title" }, t("mydata.delete_title", { name })),
      h("p", { id: "delete-what" }, t("mydata.delete_what")),
      h("ul",
        h("li", t("mydata.delete_erased")),
        h("li", t("mydata.delete_finished")),
        h("li", t("mydata.delete_running"))),
      h("p", h("strong", t("mydata.delete_final"))),
      message,
      h("div.row.stepup-actions", cancel, go));
    let done = false;
    const finish = (ok) => {
      if (done) return;
      done = true;
      if (dialog.open) dialog.close();
      dialog.remove();
      resolve(ok);
    };
    go.addEventListener("click", async () => {
      message.textContent = "";
      go.disabled = cancel.disabled = true;
      try {
        await withProof(() => post("/api/me/delete", { confirm: true }));
        finish(true);
      } catch (e) {
        if (!quiet(e)) message.textContent = e.text || String(e);
        go.disabled = cancel.disabled = false;
      }
    });
    cancel.addEventListener("click", () => finish(false));
    dialog.addEventListener("cancel", () => finish(false));
    document.body.append(dialog);
    dialog.showModal();
    cancel.focus(); // the safe choice first
  });
}

// `root`: the page, replaced by a farewell once the profile is gone; `link`: the router's links.
export function myDataSection(me, root, link) {
  const remove = h("button", { type: "button", "data-testid": "delete-profile" }, t("mydata.delete"));
  remove.addEventListener("click", async () => {
    if (!(await deleteDialog(me.name))) return;
    forgetProfile();
    clear(root);
    root.append(h("section.panel", { "data-testid": "profile-deleted", role: "status" },
      h("h1", t("mydata.deleted_title")), h("p", t("mydata.deleted")), link("/", t("app.home"), { class: "button" })));
  });
  return h("section.panel.mydata-section", { "data-testid": "mydata-section", "aria-labelledby": "mydata-title" },
    h("h2", { id: "mydata-title" }, t("mydata.title")),
    h("p.muted", t("mydata.download_what")),
    h("p", h("a.button", { href: "/api/me/data", download: "", "data-testid": "download-my-data" }, t("mydata.download"))),
    h("h3", t("mydata.delete")),
    h("p.muted", t("mydata.delete_intro")),
    h("p", remove));
}
