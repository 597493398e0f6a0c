// E-mail, opt-in: the profile page's e-mail section (add an address, confirmed by a link; game
// notifications on or off; remove: adding, changing and removing ask "confirm it's you" when the
// server wants a recent proof), and the pages the e-mailed links land on. A link's one-time
// token rides in the URL's fragment (#…), which the browser never sends to the server; the page
// takes it out of the address bar at once and POSTs it only when the person presses the button
// (a mail scanner that opens links does not spend it).
import { t, lang } from "./i18n.js";
import { h, clear } from "./dom.js";
import { get, post, api, ApiError } from "./api.js";
import { showError, toast } from "./notices.js";
import { loadProfile } from "./profile.js";
import { withSwitch } from "./switch.js";
import { withProof, quiet } from "./stepup.js";

const LANGS = ["cs", "de", "en"];

// ---------- the profile page's section ----------

export function emailSection() {
  const box = h("section.panel.email-section", { "data-testid": "email-section", "aria-labelledby": "email-title" },
    h("h2", { id: "email-title" }, t("email.title")), h("p.muted", t("app.loading")));
  load(box);
  return box;
}

async function load(box) {
  try {
    show(box, await get("/api/email"));
  } catch (e) {
    showError(e);
  }
}

function show(box, st) {
  const title = h("h2", { id: "email-title" }, t("email.title"));
  clear(box).append(title);
  if (!st.enabled) {
    box.dataset.state = "off";
    box.append(h("p", { "data-testid": "email-off" }, t("email.off")));
    return;
  }
  box.dataset.state = st.address ? "confirmed" : st.pending ? "pending" : "none";
  box.append(h("p.muted", t("email.what")));
  if (st.address) {
    const notify = h("input", { type: "checkbox", "data-testid": "email-notify", checked: st.notify });
    notify.addEventListener("change", async () => {
      notify.disabled = true;
      try {
        show(box, await api("PATCH", "/api/email", { notify: notify.checked }));
        toast(t(notify.checked ? "email.notify_on" : "email.notify_off"));
      } catch (e) {
        showError(e);
        notify.disabled = false;
      }
    });
    const which = h("select", { id: "email-lang", "data-testid": "email-lang", "aria-label": t("email.lang") },
      LANGS.map((code) => h("option", { value: code, selected: code === st.lang }, t("email.lang." + code))));
    which.addEventListener("change", async () => {
      try {
        show(box, await api("PATCH", "/api/email", { lang: which.value }));
      } catch (e) {
        showError(e);
      }
    });
    const remove = h("button", { type: "button", "data-testid": "email-remove" }, t("email.remove"));
    remove.addEventListener("click", async () => {
      try {
        show(box, await withProof(() => api("DELETE", "/api/email")));
      } catch (e) {
        if (!quiet(e)) showError(e);
      }
    });
    box.append(
      h("p", t("email.confirmed"), " ", h("strong", { "data-testid": "email-address" }, st.address)),
      h("p", h("label.check", notify, " ", t("email.notify"))),
      h("p.row", h("label", { for: "email-lang" }, t("email.lang")), which),
      h("p", remove)
    );
  }
  if (st.pending && st.pending !== st.address) {
    box.append(h("p.note", { "data-testid": "email-pending" }, t("email.pending", { address: st.pending })));
  }
  box.append(addForm(box, st));
}

function addForm(box, st) {
  const input = h("input", { id: "email-input", "data-testid": "email-input", type: "email", autocomplete: "email", maxlength: "254", spellcheck: "false" });
  const send = h("button.primary", { type: "submit", "data-testid": "email-send" }, t("email.send"));
  const form = h("form.email-form", { "aria-label": t("email.title") },
    h("label", { for: "email-input" }, st.address ? t("email.change") : t("email.add")),
    h("div.row", input, send));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    send.disabled = true;
    try {
      const address = input.value;
      show(box, await withProof(() => post("/api/email", { address, lang: lang() })));
      toast(t("email.sent"));
    } catch (err) {
      if (!quiet(err)) showError(err);
      send.disabled = false;
    }
  });
  return form;
}

// ---------- the pages links land on: /email/confirm, /email/signin, /email/unsubscribe ----------

function takeToken() {
  const token = decodeURIComponent((location.hash || "").slice(1));
  if (location.hash) history.replaceState(history.state, "", location.pathname);
  return token;
}

export async function linkPage(root, kind, { navigate, link }) {
  const token = takeToken();
  if (kind === "signin" && !token) return signInRequest(root, { link });
  const panel = h("section.panel.email-link", { "data-testid": "email-link-page", "data-kind": kind });
  clear(root).append(panel);
  if (!token) {
    panel.append(h("h1", t(`email.${kind}.title`)), h("p", t("email.link_missing")), link("/", t("app.home"), { class: "button" }));
    return;
  }
  const go = h("button.primary", { type: "button", "data-testid": "email-link-go" }, t(`email.${kind}.go`));
  const result = h("p", { "data-testid": "email-link-result", "aria-live": "polite" });
  go.addEventListener("click", async () => {
    go.disabled = true;
    try {
      const path = { confirm: "/api/email/confirm", signin: "/api/email/signin", unsubscribe: "/api/email/unsubscribe" }[kind];
      // A sign-in link where another profile is signed in: asked first (static/js/switch.js).
      const answer = kind === "signin"
        ? await withSwitch((switching) => post(path, switching ? { token, switch: true } : { token }))
        : await post(path, { token });
      if (answer === null) { // stayed as the profile signed in here: the link still works
        const still = await loadProfile({ force: true });
        result.textContent = t("switch.stayed", { name: still ? still.name : "" });
        go.disabled = false;
        return;
      }
      go.remove();
      if (kind === "signin") {
        try { localStorage.setItem("emara.signed_in", "1"); } catch {}
        await loadProfile();
        result.textContent = t("email.signin.done", { name: answer.name });
        panel.append(link("/games", t("mygames.title"), { class: "button primary", "data-testid": "email-signed-in" }));
      } else {
        result.textContent = t(`email.${kind}.done`);
        panel.append(link("/", t("app.home"), { class: "button" }));
      }
    } catch (e) {
      result.textContent = e instanceof ApiError && e.code === "bad_email_link" ? t("email.link_bad") : e instanceof ApiError ? e.text : String(e);
      result.classList.add("bad");
    }
  });
  panel.append(h("h1", t(`email.${kind}.title`)), h("p", t(`email.${kind}.text`)), go, result);
}

// A signed-out device asks for a sign-in link (the answer is the same whether or not the address
// is known).
function signInRequest(root, { link }) {
  const input = h("input", { id: "signin-email", "data-testid": "signin-email", type: "email", autocomplete: "email", maxlength: "254", spellcheck: "false" });
  const send = h("button.primary", { type: "submit", "data-testid": "signin-send" }, t("email.signin.send"));
  const note = h("p", { "data-testid": "signin-note", "aria-live": "polite" });
  const form = h("form.email-form", h("label", { for: "signin-email" }, t("email.address")), h("div.row", input, send));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    send.disabled = true;
    try {
      await post("/api/email/signin-link", { address: input.value, lang: lang() });
      note.textContent = t("email.signin.check");
    } catch (err) {
      showError(err);
    } finally {
      send.disabled = false;
    }
  });
  clear(root).append(h("section.panel.email-link", { "data-testid": "email-signin-request" },
    h("h1", t("email.signin.title")), h("p", t("email.signin.ask")), form, note, link("/", t("app.home"))));
}
