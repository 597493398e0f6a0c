// "Sign out on every other device", as one step: the dialog lists the passkeys and the e-mail
// address with when each was added, and offers to remove, in the same step, those added since a
// time (by default since the newest device signed in, or since the notice that led here). Removing
// asks "confirm it's you" when the server wants a recent proof.
import { t, lang } from "./i18n.js";
import { h, clear } from "./dom.js";
import { get } from "./api.js";
import { showError } from "./notices.js";
import { signOut } from "./profile.js";
import { withProof, quiet } from "./stepup.js";

const pad = (n) => String(n).padStart(2, "0");

// An instant as a datetime-local value (this browser's time zone), to the second.
function localValue(iso) {
  const d = new Date(iso);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

function when(iso) {
  try {
    return new Intl.DateTimeFormat(lang() || undefined, { dateStyle: "medium", timeStyle: "short" }).format(new Date(iso));
  } catch {
    return iso;
  }
}

// Resolves true once every other device is signed out, false when the person cancelled.
// `since`: the time to offer (an ISO string), else the server's default.
export async function signOutEverywhereDialog({ since = null } = {}) {
  let ways;
  try {
    ways = await get("/api/profiles/me/ways-in");
  } catch (e) {
    showError(e);
    return false;
  }
  const items = [
    ...ways.passkeys.map((p) => ({ kind: "passkey", label: p.name, at: p.added_at })),
    ...(ways.address ? [{ kind: "address", label: ways.address.address, at: ways.address.added_at }] : []),
  ];
  const start = since || ways.default_since;
  return new Promise((resolve) => {
    const remove = h("input", { type: "checkbox", id: "signout-all-remove", "data-testid": "signout-all-remove" });
    const from = h("input", { type: "datetime-local", step: "1", id: "signout-all-since", "data-testid": "signout-all-since", "aria-label": t("signout_all.since"), value: start ? localValue(start) : "" });
    const list = h("ul.ways-in", { "data-testid": "signout-all-list" });
    const cutoff = () => (from.value ? new Date(from.value) : null);
    const paint = () => {
      const at = cutoff();
      clear(list);
      for (const it of items) {
        const gone = remove.checked && at && new Date(it.at) >= at;
        list.append(h("li.way-in", { "data-testid": "signout-all-item", "data-removed": gone ? "1" : "0" },
          h("span.way-in-name", it.label),
          h("span.muted", " — ", t(it.kind === "passkey" ? "signout_all.passkey_added" : "signout_all.address_added", { date: when(it.at) })),
          gone ? h("strong.way-in-gone", " ", t("signout_all.will_go")) : null));
      }
    };
    // Checked by default when something was added since the offered time.
    remove.checked = !!start && items.some((it) => new Date(it.at) >= new Date(start));
    remove.addEventListener("change", paint);
    from.addEventListener("input", paint);
    paint();
    const message = h("p.stepup-error", { role: "alert", "data-testid": "signout-all-error" });
    const go = h("button.primary", { type: "button", "data-testid": "signout-all-go" }, t("profile.sign_out_everywhere"));
    const cancel = h("button", { type: "button", "data-testid": "signout-all-cancel" }, t("stepup.cancel"));
    const dialog = h("dialog.signout-all", { "data-testid": "signout-all-dialog", "aria-labelledby": "signout-all-title" },
      h("h2", { id: "signout-all-title" }, t("profile.sign_out_everywhere")),
      h("p", t("signout_all.what")),
      items.length
        ? [h("h3", t("signout_all.ways_in")), list,
           h("p.signout-all-choice", h("label.check", { for: "signout-all-remove" }, remove, " ", t("signout_all.remove")), " ", from)]
        : null,
      message,
      h("div.row.stepup-actions", go, cancel));
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
      const at = cutoff();
      if (remove.checked && (!at || isNaN(at.getTime()))) {
        message.textContent = t("signout_all.need_time");
        return;
      }
      const body = remove.checked ? { remove_added_since: at.toISOString() } : {};
      go.disabled = cancel.disabled = true;
      try {
        await withProof(() => signOut(true, body));
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
    go.focus();
  });
}
