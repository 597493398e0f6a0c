// Protecting oneself from the table chat: a "⚑" on each message of someone else reports it (the
// dialog can also block its writer), and the "⋯" beside each other person in the chat's list of
// seats reports their name or blocks them. After a block the chat is read again: the server
// leaves the blocked person's messages out from then on, here and at every table.
import { t } from "./i18n.js";
import { h } from "./dom.js";
import { profile } from "./profile.js";
import { personMenu } from "./personmenu.js";
import { reportDialog, blockAtTable } from "./report.js";
import { blockDialog } from "./block.js";

// The "⋯" of a seat in the chat's list (a person's seat other than mine), or null.
export function seatActions(panel, seat, name) {
  if (!profile()) return null;
  const invite = panel.invite();
  return personMenu({
    key: `chat:${panel.tableId}:${seat}`,
    name,
    testid: "chat-person-menu",
    items: [
      { label: t("report.name_item"), testid: "report-name", act: () => reportDialog({ tableId: panel.tableId, invite, seat, name }) },
      { label: t("block.item"), testid: "block-person", danger: true, act: async () => {
        const out = await blockDialog(name, () => blockAtTable(panel.tableId, invite, { seat }));
        if (out) panel.reload();
      } },
    ],
  });
}

// The "⚑" of a stored message of someone else, or null.
export function reportButton(panel, m) {
  if (!profile() || typeof m.id !== "number" || m.state !== "sent") return null;
  const me = panel.mySeat();
  if (typeof me === "number" && m.seat === me) return null;
  return h("button.small.chat-report", {
    type: "button",
    "data-testid": "chat-report",
    "aria-label": t("report.message_item", { name: m.name }),
    title: t("report.message_item", { name: m.name }),
    onclick: async () => {
      const out = await reportDialog({ tableId: panel.tableId, invite: panel.invite(), message: m, name: m.name });
      if (out && out.blocked) panel.reload();
    },
  }, h("span", { "aria-hidden": "true" }, "⚑"));
}
