// "Report": a chat message or a seated person's name, to the server's operator, with a reason
// and optional words — and, in the same step, "also block them". What is reported is shown as
// text (a message quoted, never as markup). The report keeps it as it is now; only the operator
// sees who reported (said in the dialog). POST /api/tables/{id}/reports (docs/protocol.md).
import { t } from "./i18n.js";
import { h } from "./dom.js";
import { post } from "./api.js";
import { toast } from "./notices.js";
import { ask } from "./ask.js";

export const REASONS = ["spam", "harassment", "hate", "sexual", "other"];
const NOTE_MAX = 500;

function withInvite(path, invite) {
  return invite ? `${path}?invite=${encodeURIComponent(invite)}` : path;
}

// Block the writer of a message or the person at a seat of a table (subject: {message_id} or
// {seat}); the blocked person ({id, name, since}).
export function blockAtTable(tableId, invite, subject) {
  return post(withInvite(`/api/tables/${encodeURIComponent(tableId)}/blocks`, invite), subject);
}

// Resolves {reported: true, blocked} once sent, or null when the person cancelled.
// message: {id, name, text} for a message; else seat and name for a person's name.
export function reportDialog({ tableId, invite, message = null, seat = null, name }) {
  const subject = message ? { message_id: message.id } : { seat };
  const reasons = h("fieldset.report-reasons", h("legend", t("report.why")),
    // no reason chosen for the reporter: the form asks for one (required)
    REASONS.map((r, i) => h("label.check", { "data-testid": "report-reason" },
      h("input", { type: "radio", name: "reason", value: r, required: i === 0 }), " ", t(`report.reason.${r}`))));
  const note = h("textarea.report-note", { id: "report-note", name: "note", rows: "3", maxlength: String(NOTE_MAX), "data-testid": "report-note" });
  const alsoBlock = h("input", { type: "checkbox", id: "report-block", name: "block", "data-testid": "report-block" });
  const what = message
    ? h("blockquote.report-quote", { "data-testid": "report-quote" }, h("strong", message.name), h("span.report-text", message.text))
    : h("p.report-quote", { "data-testid": "report-quote" }, t("report.name_is", { name }));
  return ask({
    id: "report-dialog",
    title: message ? t("report.message_title") : t("report.name_title"),
    confirm: t("report.send"),
    body: [
      what,
      reasons,
      h("label", { for: "report-note" }, t("report.note")),
      note,
      h("p.check-row", h("label.check", { for: "report-block" }, alsoBlock, " ", t("report.also_block", { name }))),
      h("p.hint.report-privacy", t("report.privacy", { name })),
    ],
    act: async (form) => {
      const reason = form.querySelector("input[name=reason]:checked").value;
      const words = note.value.trim();
      await post(withInvite(`/api/tables/${encodeURIComponent(tableId)}/reports`, invite),
        { ...subject, reason, ...(words ? { note: words } : {}) });
      let blocked = false;
      if (alsoBlock.checked) {
        await blockAtTable(tableId, invite, subject);
        blocked = true;
      }
      toast(blocked ? t("report.sent_blocked", { name }) : t("report.sent"));
      return { reported: true, blocked };
    },
  });
}
