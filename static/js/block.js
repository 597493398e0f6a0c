// "Block": after saying what it does, a person is blocked — they cannot invite you or find you
// among the people they play with, and their chat is hidden from you at every table (the server
// leaves it out). They are not told. The profile page lists the people blocked, each with
// "Unblock". POST /api/tables/{id}/blocks (at a table) or /api/me/blocks (by profile id).
import { t } from "./i18n.js";
import { h, clear } from "./dom.js";
import { get, post, del } from "./api.js";
import { showError, toast } from "./notices.js";
import { ask } from "./ask.js";

// Resolves the blocked person, or null when the person cancelled. `call()` makes the block.
export function blockDialog(name, call) {
  return ask({
    id: "block-dialog",
    title: t("block.title", { name }),
    confirm: t("block.confirm"),
    danger: true,
    body: [
      h("ul.block-what", h("li", t("block.what_chat")), h("li", t("block.what_invite")), h("li", t("block.what_table"))),
      h("p.hint", t("block.not_told", { name })),
    ],
    act: async () => {
      const out = await call();
      toast(t("block.done", { name }));
      return out;
    },
  });
}

export function blockById(profileId) {
  return post("/api/me/blocks", { profile_id: profileId });
}

// The people I blocked, each with "Unblock" (the profile page). `changed()`: after a change.
export function blockedSection(changed = () => {}) {
  const list = h("ul.people-list", { "data-testid": "blocked-people" });
  const box = h("section.panel.blocked-people-section", { "data-testid": "blocked-people-section", "aria-labelledby": "blocked-people-title" },
    h("h2", { id: "blocked-people-title" }, t("block.list_title")), h("p.muted", t("block.list_what")), list);
  const read = async () => {
    let blocked = [];
    try {
      blocked = (await get("/api/me/blocks")).blocked || [];
    } catch (e) {
      showError(e);
      return;
    }
    clear(list);
    if (!blocked.length) list.append(h("li.muted", { "data-testid": "blocked-empty" }, t("block.list_empty")));
    for (const p of blocked) {
      list.append(h("li.person", { "data-testid": "block-listed", "data-name": p.name },
        h("span.person-name", p.name), " ",
        h("button.small", { type: "button", "data-testid": "unblock-person", onclick: async (e) => {
          e.currentTarget.disabled = true;
          try {
            await del(`/api/me/blocks/${encodeURIComponent(p.id)}`);
            toast(t("block.lifted", { name: p.name }));
          } catch (err) {
            showError(err);
          }
          await read();
          changed();
        } }, t("block.unblock"))));
    }
  };
  read();
  return { el: box, read };
}
