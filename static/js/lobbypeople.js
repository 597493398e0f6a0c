// The lobby's "⋯" beside each other person's seat: report their name or block them; for the
// host, also hand them the host role or remove them from the table — each after a confirmation
// saying what it does. The host's acts answer the lobby, drawn at once (the socket's lobby frame
// follows for everyone). POST /api/tables/{id}/host, …/seats/{seat}/remove (docs/protocol.md).
import { t } from "./i18n.js";
import { h } from "./dom.js";
import { post } from "./api.js";
import { toast } from "./notices.js";
import { ask } from "./ask.js";
import { personMenu } from "./personmenu.js";
import { reportDialog, blockAtTable } from "./report.js";
import { blockDialog } from "./block.js";

const enc = encodeURIComponent;

// lobby: the Lobby (its id, invite, update(table)); hosting: the viewer is the host; invite:
// the code to send along (a viewer without a seat looks on with it), else null.
export function seatMenu(lobby, { seat, name, hosting, invite }) {
  const items = [];
  if (hosting) {
    items.push(
      { label: t("host.make"), testid: "make-host", act: () => handHost(lobby, seat, name) },
      { label: t("host.remove"), testid: "remove-person", danger: true, act: () => removePerson(lobby, seat, name) });
  }
  items.push(
    { label: t("report.name_item"), testid: "report-name", act: () => reportDialog({ tableId: lobby.id, invite, seat, name }) },
    { label: t("block.item"), testid: "block-person", danger: true,
      act: () => blockDialog(name, () => blockAtTable(lobby.id, invite, { seat })) });
  return personMenu({ key: `lobby:${lobby.id}:${seat}`, name, items, testid: "seat-menu" });
}

async function handHost(lobby, seat, name) {
  const tb = await ask({
    id: "host-dialog",
    title: t("host.make_title", { name }),
    confirm: t("host.make_confirm"),
    body: [h("p", t("host.make_what", { name }))],
    act: () => post(`/api/tables/${enc(lobby.id)}/host`, { seat }),
  });
  if (!tb) return;
  toast(t("host.made", { name }));
  lobby.update(tb);
}

async function removePerson(lobby, seat, name) {
  const tb = await ask({
    id: "remove-dialog",
    title: t("host.remove_title", { name }),
    confirm: t("host.remove_confirm"),
    danger: true,
    body: [h("p", t("host.remove_what", { name })), h("p.hint", t("host.remove_again"))],
    act: () => post(`/api/tables/${enc(lobby.id)}/seats/${seat}/remove`, {}),
  });
  if (!tb) return;
  toast(t("host.removed", { name }));
  lobby.update(tb);
}

// What a person the host removed sees instead of the table (their socket was told, or the
// table's read answered removed_from_table).
export function removedPanel(navigate) {
  return h("section.panel.removed-panel", { "data-testid": "removed" },
    h("h1", t("removed.title")),
    h("p", t("removed.what")),
    h("p.hint", t("removed.again")),
    h("button.primary", { type: "button", "data-testid": "removed-home", onclick: () => navigate("/") }, t("app.home")));
}
