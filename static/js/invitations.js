// Invitations waiting for my answer (a rematch, or a host inviting me to a table), at the top of
// My games: accept (seated at once, then the table opens), decline, or take no more invitations
// from that person (their waiting ones are declined; the profile page lists them to allow again,
// blockedList below). It reads
// GET /api/me/invitations whenever the My games feed says something changed (waiting.js), so an
// invitation appears as soon as it is made.
import { t } from "./i18n.js";
import { h, clear } from "./dom.js";
import { get, post, del } from "./api.js";
import { showError } from "./notices.js";
import { describePace } from "./pace.js";
import { onMyTables } from "./waiting.js";

export function answerInvitation(id, yes) {
  return post(`/api/invitations/${encodeURIComponent(id)}/${yes ? "accept" : "decline"}`, {});
}

export function blockInviter(id) {
  return post(`/api/invitations/${encodeURIComponent(id)}/block`, {});
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
  const act = (yes, block = false) => async (e) => {
    const buttons = e.currentTarget.parentElement.querySelectorAll("button");
    buttons.forEach((b) => (b.disabled = true));
    try {
      await (block ? blockInviter(x.id) : answerInvitation(x.id, yes));
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
      h("button.small", { type: "button", "data-testid": "invitation-decline", onclick: act(false) }, "✕ ", t("invite.decline")),
      h("button.small.link", { type: "button", "data-testid": "invitation-block", title: t("invite.block_confirm", { name: x.inviter_name || "?" }), onclick: act(false, true) },
        t("invite.block", { name: x.inviter_name || "?" }))));
}

// The people I take no invitations from, each with "allow again" (the profile page).
export function blockedList() {
  const box = h("section.panel.blocked-section", { "data-testid": "blocked-section", hidden: true, "aria-labelledby": "blocked-title" });
  const read = async () => {
    let blocked = [];
    try {
      blocked = (await get("/api/me/invitation-blocks")).blocked || [];
    } catch {
      return;
    }
    clear(box);
    box.hidden = blocked.length === 0;
    if (!blocked.length) return;
    box.append(h("h2", { id: "blocked-title" }, t("invite.blocked_title")), h("p.muted", t("invite.blocked_what")),
      h("ul.people-list", blocked.map((p) => h("li", { "data-testid": "blocked-person" },
        h("span.person-name", p.name), " ",
        h("button.small", { type: "button", "data-testid": "invitation-unblock", onclick: async (e) => {
          e.currentTarget.disabled = true;
          try {
            await del(`/api/me/invitation-blocks/${encodeURIComponent(p.id)}`);
          } catch (err) {
            showError(err);
          }
          read();
        } }, t("invite.unblock"))))));
  };
  read();
  return box;
}
