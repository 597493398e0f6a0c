// The end screen's replay line: the link to the replay viewer (/r/{id}) and, for the host of a
// table of friends, whether anyone with the link may watch it (the table option public_replay,
// PUT /api/tables/{id}/public_replay; off unless the host chose it).
import { t } from "./i18n.js";
import { h } from "./dom.js";
import { api } from "./api.js";
import { showError } from "./notices.js";

export function replayLine(ts) {
  if (!ts.id) return null;
  const link = h("a.button.small", { href: `/r/${encodeURIComponent(ts.id)}`, "data-link": "", "data-testid": "replay-link" }, t("replay.open"));
  const table = ts.state && ts.state.table;
  const solo = !!(ts.view && ts.view.outcome && ts.view.outcome.victoria);
  if (!table || solo || !ts.isHost()) return h("p.final-replay", link);
  const box = h("input", {
    type: "checkbox", checked: !!(table.options && table.options.public_replay), "data-testid": "public-replay-toggle",
    onchange: async () => {
      box.disabled = true;
      try {
        const out = await api("PUT", `/api/tables/${encodeURIComponent(ts.id)}/public_replay`, { public_replay: box.checked });
        table.options = { ...(table.options || {}), public_replay: out.public_replay };
        box.checked = out.public_replay;
      } catch (e) {
        box.checked = !box.checked;
        showError(e);
      }
      box.disabled = false;
    },
  });
  return h("p.final-replay", link, " ", h("label.final-public", box, " ", t("landing.public_replay")));
}
