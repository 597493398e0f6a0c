// Invitations waiting for my answer (a rematch, or a host inviting me to a table), at the top of
// My games: accept (seated at once, then the table opens) or decline. It reads
// GET /api/me/invitations whenever the My games feed says something changed (waiting.js), so an
// invitation appears as soon as it is made.
import { t } from "/js/i18n.js";
import { h, clear } from "/js/dom.js";
import { get, post } from "/js/api.js";
import { showError } from "/js/notices.js";
import { describePace } from "/js/pace.js";
import { onMyTables } from "/js/waiting.js";

export function answerInvitation(id, yes) {
  return post(`/api/invitations/${encodeURIComponent(id)}/${yes ? "accept" : "decline"}`, {});
}

// The box and the way to stop following the feed.
export function invitationsBox({ navigate }) {
  const box = h("section.mygames-invitations", { "data-testid": "my-invitations", hidden: true, "aria-labelledby": "invitations-title" });
  let reading = false;
  const read = async () => {
    if (reading) return;
    reading = true;
    try {
      draw(box, (await get("/api/me/invitations")).invitations || [], navigate, read);
    } catch {
      // the list stays as it was; the next change reads again
    } finally {
      reading = false;
    }
  };
  const stop = onMyTables(read);
  read();
  return { el: box, stop };
}

function draw(box, invitations, navigate, again) {
  clear(box);
  box.hidden = invitations.length === 0;
  if (!invitations.length) return;
  box.append(h("h2", { id: "invitations-title" }, t("invite.title", { count: invitations.length })),
    h("ul.table-list", invitations.map((x) => row(x, navigate, again))));
}

function row(x, navigate, again) {
  const names = (x.names || []).map((n) => (n === null || n === undefined ? "—" : n)).join(", ");
  const what = x.kind === "rematch" ? t("invite.rematch", { name: x.inviter_name || "?" }) : t("invite.invite", { name: x.inviter_name || "?" });
  const act = (yes) => async (e) => {
    const buttons = e.currentTarget.parentElement.querySelectorAll("button");
    buttons.forEach((b) => (b.disabled = true));
    try {
      await answerInvitation(x.id, yes);
      if (yes) navigate(`/t/${encodeURIComponent(x.table_id)}`);
      else again();
    } catch (err) {
      showError(err);
      again();
    }
  };
  return h("li.mygames-row.invitation", { "data-testid": "my-invitation", "data-table": x.table_id, "data-kind": x.kind },
    h("span.mg-names", h("strong", x.table_name || what), x.table_name ? h("span.muted", " · ", what) : null),
    h("span.muted", names),
    h("span.muted.mg-pace", describePace(x.pace)),
    h("span.row.invite-actions",
      h("button.small.primary", { type: "button", "data-testid": "invitation-accept", onclick: act(true) }, "✓ ", t("invite.accept")),
      h("button.small", { type: "button", "data-testid": "invitation-decline", onclick: act(false) }, "✕ ", t("invite.decline"))));
}
