// "Who are you?": the one panel a signed-out visitor meets on any page that needs a profile (a
// table or invite link, solo, records, My games). On a table link it first says which table it
// is and what can be done there (tabledoor.js): a free seat to take, or — full, running, over —
// to watch, or "this is my seat — sign back in". New here: a name, and (on an invite link) the
// seat at once; a name already seated at the table leads to the ways back in instead of a second
// profile. Played before: a code from another device, the recovery code, a passkey, or a
// sign-in link by e-mail. Then straight back to the page that asked. Every refusal shows its words.
import { t } from "./i18n.js";
import { h, clear } from "./dom.js";
import { post, ApiError } from "./api.js";
import { showError } from "./notices.js";
import { ensureProfile, recover, nameField, currentName } from "./profile.js";
import { addThisDevice, isDeviceCode } from "./devices.js";
import { passkeySignInButton } from "./passkeys.js";
import { readDoor, doorBox, seatOfName } from "./tabledoor.js";

const busy = (btn, on) => {
  btn.disabled = on;
  btn.setAttribute("aria-busy", on ? "true" : "false");
};

// The words of an error, for a box of the panel (showError's toast goes away; these stay).
const words = (e) => (e instanceof ApiError ? e.text : t("err.generic", { message: e && e.message ? e.message : String(e) }));

// root: where the panel goes; invite: the table's invite code when the page is a table link
// (the new profile takes a seat with it); done(): show the page again, now signed in.
export async function askWhoYouAre(root, { tableId = null, invite = null, done }) {
  const door = tableId ? await readDoor(tableId, invite) : null;
  if (door && door.error) showError(door.error);
  const preview = door && door.preview ? door.preview : null;
  const kind = preview ? preview.door : null; // open, full, running, finished, closed
  const missing = !!(door && door.missing); // the link opens no table: most likely one's own
  const canJoin = !!(tableId && invite) && !missing && (!preview || kind === "open");
  const canWatch = !preview || (kind !== "open" && kind !== "closed" && preview.spectators);
  const backFirst = missing || (preview && kind !== "open");

  const back = backWay(done, backFirst ? t("whoami.door.mine") : t("whoami.back"));
  const note = h("div.whoami-note", { "data-testid": "whoami-note", tabindex: "-1" });
  const showNote = (...children) => {
    clear(note).append(...children);
    note.focus();
  };

  // The name's way: take a seat (open table, invite link), watch (full, running, over), or
  // just go on (no table, or one this link does not open).
  const label = canJoin ? t("whoami.new_join") : preview ? t("whoami.door.watch_go") : t("whoami.new_go");
  const go = h("button.primary", { type: "button", "data-testid": canJoin ? "join-table" : "whoami-new-go" }, label);
  const enter = async (anotherPerson) => {
    const name = currentName();
    const seat = seatOfName(preview, name);
    if (seat !== null && !anotherPerson) {
      showNote(nameSeated(name, seat, canJoin && preview.free_seats > 0, () => enter(true), back));
      return;
    }
    busy(go, true);
    try {
      await ensureProfile(name);
    } catch (e) {
      showError(e);
      busy(go, false);
      return;
    }
    if (canJoin) {
      try {
        const body = anotherPerson ? { invite_code: invite, another_person: true } : { invite_code: invite };
        await post(`/api/tables/${encodeURIComponent(tableId)}/join`, body);
      } catch (e) {
        // Signed in now, but not seated: the refusal stays in words until the person goes on.
        busy(go, false);
        showNote(h("div.whoami-refused", { role: "alert", "data-testid": "whoami-refused" },
          h("p", words(e)),
          h("button", { type: "button", "data-testid": "whoami-go-on", onclick: () => done() }, t("whoami.door.go_on"))));
        return;
      }
    }
    try {
      await done();
    } catch (e) {
      showError(e);
      busy(go, false);
    }
  };
  go.addEventListener("click", () => enter(false));

  const newTitle = canJoin || !preview ? t("whoami.new") : t("whoami.door.watch");
  const newWay = h("div.whoami-way", { "data-testid": "whoami-new" },
    h("h2", newTitle),
    canWatch || canJoin ? [nameField(() => go.click()), go] : h("p", t(kind === "closed" ? "whoami.door.closed_new" : "whoami.door.can_not_watch")),
    note);
  // Where the table has no seat for a newcomer, "this is my seat" comes first.
  const ways = backFirst ? [back, newWay] : [newWay, back];
  const panel = h("section.panel.whoami", { "data-testid": "whoami", "aria-labelledby": "whoami-title" },
    h("h1", { id: "whoami-title" }, t("whoami.title")),
    door ? doorBox(door, invite) : null,
    h("div.whoami-ways", ways));
  clear(root).append(panel);
  const first = document.getElementById(ways[0] === back ? "whoami-code" : "name-input");
  if (first) first.focus();
  return panel;
}

// "Bea already has seat 2 here": is it you? the ways back in; not you? another name (or, with
// a free seat, a seat as someone else of that name).
function nameSeated(name, seat, free, asAnother, back) {
  const toBack = h("button", { type: "button", "data-testid": "whoami-to-back", onclick: () => {
    back.scrollIntoView({ block: "start" });
    const code = document.getElementById("whoami-code");
    if (code) code.focus();
  } }, t("whoami.seated.to_back"));
  return h("div.whoami-seated", { role: "alert", "data-testid": "whoami-name-seated" },
    h("p", h("strong", t("whoami.seated.title", { name, seat: seat + 1 }))),
    h("p", t("whoami.seated.is_you")),
    h("ul.whoami-seated-ways",
      h("li", t("whoami.seated.device")),
      h("li", t("whoami.seated.code")),
      h("li", t("whoami.seated.passkey_email"))),
    h("p", toBack),
    h("p", t("whoami.seated.not_you")),
    free ? h("p", h("button", { type: "button", "data-testid": "whoami-another", onclick: asAnother }, t("whoami.seated.another", { name }))) : null);
}

// The way back in: a code from another device or the recovery code, a passkey, an e-mail link.
function backWay(done, title) {
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
  return h("div.whoami-way", { "data-testid": "whoami-back" },
    h("h2", title),
    codeForm,
    h("p.muted", t("whoami.device_hint")),
    passkeySignInButton(done),
    h("p", h("a", { href: "/email/signin", "data-testid": "whoami-email" }, t("whoami.email"))));
}
