// The end screen's "play again": any player asks for a rematch (the same options and name, the
// same people, each invited to their seat); everyone else sees the offer at once (the finished
// table's lobby frame names the rematch table) and accepts or declines here, or later in My games.
// One element kept across the table screen's re-renders; `el()` returns it up to date.
import { t } from "./i18n.js";
import { h, clear } from "./dom.js";
import { get, post } from "./api.js";
import { showError } from "./notices.js";
import { answerInvitation } from "./invitations.js";

const enc = encodeURIComponent;

export class RematchOffer {
  constructor(ts) {
    this.ts = ts;
    this.box = h("div.rematch", { "data-testid": "rematch-offer" });
    this.seen = undefined; // the rematch id drawn last
    this.answers = null; // invitations of the rematch table, as last read
    this.busy = false;
  }

  el() {
    const tb = this.ts.table || {};
    const id = tb.rematch_id || null;
    // a new rematch, or (at most once a second) news of the answers: the finished table's
    // lobby frame follows every answer, and each brings the screen here again
    const now = Date.now();
    if (id !== this.seen || (id && now - (this.read || 0) > 1000)) {
      if (id !== this.seen) this.answers = null;
      this.seen = id;
      this.read = now;
      if (id) this.load(id);
    }
    this.draw();
    return this.box;
  }

  // the rematch table's invitations changed (its lobby frame, or my own answer)
  async load(id) {
    try {
      this.answers = (await get(`/api/tables/${enc(id)}/invitations`)).invitations || [];
    } catch {
      this.answers = [];
    }
    this.draw();
  }

  draw() {
    const ts = this.ts;
    clear(this.box);
    if (ts.mySeat === null || ts.mySeat === undefined) return;
    const id = this.seen;
    if (!id) {
      this.box.append(h("button.primary", { type: "button", "data-testid": "rematch", disabled: this.busy, onclick: () => this.ask() }, "↻ ", t("end.rematch")));
      return;
    }
    const go = () => ts.helpers.navigate(`/t/${enc(id)}`);
    const answers = this.answers || [];
    const mine = answers.find((a) => a.you);
    if (mine && mine.status === "pending") {
      this.box.append(
        h("p", { "data-testid": "rematch-offered" }, t("end.rematch_offered", { name: this.asker() })),
        h("div.row",
          h("button.primary", { type: "button", "data-testid": "rematch-accept", disabled: this.busy, onclick: () => this.answer(mine, true) }, "✓ ", t("invite.accept")),
          h("button", { type: "button", "data-testid": "rematch-decline", disabled: this.busy, onclick: () => this.answer(mine, false) }, "✕ ", t("invite.decline"))));
    } else if (mine && mine.status === "declined") {
      this.box.append(h("p", { "data-testid": "rematch-declined" }, t("end.rematch_you_declined")));
    } else {
      this.box.append(h("p", t("end.rematch_ready_seats")), h("button.primary", { type: "button", "data-testid": "rematch-go", onclick: go }, t("end.rematch_go")));
    }
    if (answers.length) {
      this.box.append(h("ul.rematch-answers", { "data-testid": "rematch-answers" }, answers.map((a) =>
        h("li", { "data-status": a.status }, h("strong", a.name), " — ", t("people.status." + a.status)))));
    }
  }

  asker() {
    const answers = this.answers || [];
    return answers.length ? answers[0].inviter : "?";
  }

  async ask() {
    this.busy = true;
    this.draw();
    try {
      const answer = await post(`/api/tables/${enc(this.ts.id)}/rematch`, {});
      this.ts.helpers.navigate(`/t/${enc(answer.table_id)}`);
    } catch (e) {
      showError(e);
    } finally {
      this.busy = false;
      if (!this.ts.stopped) this.draw();
    }
  }

  async answer(invitation, yes) {
    this.busy = true;
    this.draw();
    try {
      await answerInvitation(invitation.id, yes);
      if (yes) {
        this.ts.helpers.navigate(`/t/${enc(this.seen)}`);
        return;
      }
      await this.load(this.seen);
    } catch (e) {
      showError(e);
    } finally {
      this.busy = false;
      if (!this.ts.stopped) this.draw();
    }
  }
}
