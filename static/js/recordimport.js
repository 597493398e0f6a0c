// Import a game record (POST /api/records): a file picker on the records page and under a
// replay's download link. The file goes to the server as it is; the server replays it through
// the rules and keeps it as a replay of mine, which then opens (/r/{id}). Every refusal is said
// in words beside the picker (docs/records.md, "Importing a record").
import { t } from "./i18n.js";
import { h } from "./dom.js";
import { ApiError } from "./api.js";

const MAX_BYTES = 1024 * 1024; // the server's body limit for a record

// What a refusal means for the person who picked the file.
export function refusalWords(e) {
  if (!(e instanceof ApiError)) return t("err.generic", { message: e && e.message ? e.message : String(e) });
  const d = e.detail || {};
  switch (e.code) {
    case "bad_move": {
      const n = typeof d.move_index === "number" ? d.move_index + 1 : "?";
      if (d.reason === "undo_in_record") return t("records.import_err.undo", { n });
      return t("records.import_err.bad_move", { n });
    }
    case "record_too_long":
      return t("records.import_err.record_too_long", { limit: d.limit ?? "?" });
    case "malformed":
    case "unsupported_format":
    case "rules_mismatch":
    case "bad_record":
    case "record_unfinished":
    case "outcome_mismatch":
    case "body_too_large":
      return t(`records.import_err.${e.code}`);
    default:
      return e.text;
  }
}

async function send(text) {
  let res;
  try {
    res = await fetch("/api/records", { method: "POST", headers: { Accept: "application/json", "Content-Type": "application/json" }, credentials: "same-origin", body: text });
  } catch (e) {
    throw new ApiError(0, "network", String(e));
  }
  let data = null;
  try {
    data = await res.json();
  } catch {}
  if (!res.ok) {
    const err = (data && data.error) || {};
    throw new ApiError(res.status, err.code || "http_" + res.status, err.message || res.statusText, err);
  }
  return data;
}

// The picker; `open(replayId)` shows the imported replay.
export function importBox(open) {
  const said = h("p.import-said", { "data-testid": "record-import-said", role: "status" });
  // the browser's own picker says "Choose file" in the browser's language: a button in the page's
  // language stands for it (the input keeps the keyboard focus, the label shows it)
  const input = h("input.file-hidden", { type: "file", id: "record-import-file", accept: ".json,application/json", "data-testid": "record-import-file" });
  input.addEventListener("change", async () => {
    const file = input.files && input.files[0];
    if (!file) return;
    said.classList.remove("error-text");
    said.textContent = t("records.import_reading");
    input.disabled = true;
    try {
      if (file.size > MAX_BYTES) throw new ApiError(413, "body_too_large", "", {});
      const out = await send(await file.text());
      said.textContent = t("records.import_done");
      open(out.replay_id);
    } catch (e) {
      said.classList.add("error-text");
      said.textContent = refusalWords(e);
    } finally {
      input.disabled = false;
      input.value = "";
    }
  });
  return h("section.record-import", { "data-testid": "record-import", "aria-labelledby": "record-import-title" },
    h("h2", { id: "record-import-title" }, t("records.import_title")),
    h("p.muted", t("records.import_what")),
    h("p.row", input, h("label.button", { for: "record-import-file" }, t("records.import_pick"))),
    said);
}
