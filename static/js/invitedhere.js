// A table I am invited to but not seated at (the link of an invitation e-mail): the table is not
// mine to look at yet, so the page offers the invitation itself — accept (seated at once, then
// the table opens) or decline. It needs no invite code: the invitation is found among mine
// (GET /api/me/invitations), so the link works for the invited person once signed in, and for
// nobody else.
import { t } from "./i18n.js";
import { h } from "./dom.js";
import { get } from "./api.js";
import { showError } from "./notices.js";
import { describePace } from "./pace.js";
import { answerInvitation } from "./invitations.js";

// The panel for my invitation to table `id`, or null when I have none.
export async function invitationHere(id, { navigate, link }) {
  let mine;
  try {
    mine = (await get("/api/me/invitations")).invitations || [];
  } catch {
    return null;
  }
  const x = mine.find((i) => i.table_id === id);
  if (!x) return null;
  const who = x.inviter_name || "?";
  const what = x.kind === "rematch" ? t("invite.rematch", { name: who }) : t("invite.invite", { name: who });
  const names = (x.names || []).filter((n) => n !== null && n !== undefined).join(", ");
  const said = h("p", { role: "status", "data-testid": "invitation-here-said" });
  const buttons = h("p.row.invite-actions",
    h("button.primary", { type: "button", "data-testid": "invitation-here-accept", onclick: () => answer(true) }, "✓ ", t("invite.accept")),
    h("button", { type: "button", "data-testid": "invitation-here-decline", onclick: () => answer(false) }, "✕ ", t("invite.decline")));
  async function answer(yes) {
    buttons.querySelectorAll("button").forEach((b) => (b.disabled = true));
    try {
      await answerInvitation(x.id, yes);
    } catch (err) {
      showError(err);
      buttons.querySelectorAll("button").forEach((b) => (b.disabled = false));
      return;
    }
    if (yes) {
      navigate(`/t/${encodeURIComponent(id)}`);
      return;
    }
    buttons.remove();
    said.textContent = t("invite.declined");
    said.after(link("/games", t("mygames.link"), { class: "button" }));
  }
  return h("section.panel.lobby", { "data-testid": "invitation-here", "aria-labelledby": "invitation-here-title" },
    h("h1", { id: "invitation-here-title" }, x.table_name || what),
    x.table_name ? h("p", what) : null,
    names ? h("p.muted", t("invite.here_people", { names })) : null,
    h("p.muted", describePace(x.pace)),
    buttons, said);
}
