// The solo end screen's next step, from the player's record sheet (GET /api/profiles/me/solo),
// which the server wrote from the engine's outcome with the game's last move: after a campaign
// game "Next campaign game (42 BP)" (its start value the campaign's next), after a high-score game
// the rematch (rematch.js); and the best score kept at this game's start value.
// One element kept across the table screen's re-renders; `el()` returns it up to date.
import { t } from "./i18n.js";
import { h, clear } from "./dom.js";
import { get, post } from "./api.js";
import { showError } from "./notices.js";

const enc = encodeURIComponent;

export class SoloNext {
  constructor(ts) {
    this.ts = ts;
    this.box = h("div.solo-next-step", { "data-testid": "solo-next-step" });
    this.sheet = undefined; // undefined: not asked yet; null: not this player's game
    this.busy = false;
  }

  el() {
    if (this.sheet === undefined && this.ts.mySeat === 0) {
      this.sheet = null;
      this.load();
    }
    this.draw();
    return this.box;
  }

  async load() {
    try {
      this.sheet = await get("/api/profiles/me/solo");
    } catch {
      this.sheet = null;
    }
    if (!this.ts.stopped) this.draw();
  }

  result() {
    const results = (this.sheet && this.sheet.results) || [];
    return results.find((r) => r.table_id === this.ts.id) || null;
  }

  draw() {
    clear(this.box);
    const ts = this.ts;
    if (ts.mySeat !== 0) return;
    const r = this.result();
    if (!r) return; // the sheet is on its way
    const best = (this.sheet.high_scores || {})[String(r.building_start)];
    if (best !== undefined) this.box.append(h("p", { "data-testid": "solo-best" }, t("records.best", { start: r.building_start, score: best })));
    if (r.mode === "campaign") {
      const start = this.sheet.campaign.next_start;
      this.box.append(h("button.primary", { type: "button", "data-testid": "next-campaign", disabled: this.busy, onclick: () => this.next() }, "▶ ", t("end.next_campaign", { start })));
    } else if (ts.rematchOffer) {
      this.box.append(ts.rematchOffer.el());
    }
  }

  async next() {
    this.busy = true;
    this.draw();
    try {
      const answer = await post("/api/solo", { mode: "campaign" });
      this.ts.helpers.navigate(`/t/${enc(answer.table_id)}`);
    } catch (e) {
      showError(e);
    } finally {
      this.busy = false;
      if (!this.ts.stopped) this.draw();
    }
  }
}
