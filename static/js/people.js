// Play again, in the lobby: the host names the table and invites "people I play with" (the
// people they shared a table with: nobody else can be found) without sending a link; everyone at
// the table sees who is invited and how they answered. The profile page lists the same people.
import { t } from "./i18n.js";
import { h, clear } from "./dom.js";
import { get, post, api } from "./api.js";
import { showError } from "./notices.js";

const enc = encodeURIComponent;

// The people I play with; with `invite(person)`, each gets an Invite button.
// `here(person)`: already at the table or invited (no button). `more(person)`: a node more.
export function peopleList(invite, here = () => false, more = null) {
  const list = h("ul.people-list", { "data-testid": "people-list" }, h("li.muted", t("app.loading")));
  get("/api/me/people").then((answer) => {
    const people = answer.people || [];
    clear(list);
    if (!people.length) list.append(h("li.muted", { "data-testid": "people-empty" }, t("people.empty")));
    for (const p of people) {
      list.append(h("li.person", { "data-testid": "person", "data-name": p.name },
        h("span.person-name", p.name), " ", h("span.muted", t("people.tables", { count: p.tables })),
        invite && !here(p) ? h("button.small", { type: "button", "data-testid": "invite-person", onclick: (e) => invite(p, e.currentTarget) }, "✉ ", t("people.invite")) : null,
        more ? more(p) : null));
    }
  }, (e) => {
    clear(list);
    showError(e);
  });
  return list;
}

// Kept by the lobby across its re-renders: `el(table)` is the section to show under the seats.
export class LobbyExtras {
  constructor(tableId) {
    this.id = tableId;
    // The name form is one element for the lobby's life: a redraw (a lobby frame, an answer)
    // updates it in place, so the field being typed in is never swapped for a fresh one.
    this.nameBox = h("div.table-name-box");
    this.listBox = h("div");
    this.box = h("section.lobby-extras", { "data-testid": "lobby-extras" }, this.nameBox, this.listBox);
    this.form = null;
    this.invitations = [];
    this.version = null;
    this.editing = false;
    this.nameDraft = null; // the table name being typed, not saved yet
  }

  el(tb) {
    this.table = tb;
    const key = JSON.stringify([tb.seats, tb.name, tb.host]);
    if (key !== this.version) {
      // read once, then again only while someone has still to answer (the lobby frame brings
      // the seats; only an answer changes the list)
      if (this.version === null || this.waiting()) this.load();
      else this.draw();
      this.version = key;
    }
    return this.box;
  }

  waiting() {
    return this.invitations.some((i) => i.status === "pending");
  }

  // a lobby frame that changed nothing the lobby shows: an answer (a decline) may have
  heard() {
    if (this.table && this.waiting()) this.load();
  }

  async load() {
    try {
      const answer = await get(`/api/tables/${enc(this.id)}/invitations`);
      this.invitations = answer.invitations || [];
    } catch {
      this.invitations = [];
    }
    this.draw();
  }

  draw() {
    const tb = this.table;
    const host = !!(tb && tb.host);
    if (host) {
      const form = this.nameForm(tb);
      if (form.parentNode !== this.nameBox) this.nameBox.append(form);
    } else clear(this.nameBox);
    clear(this.listBox);
    if (this.invitations.length) {
      this.listBox.append(h("h2", t("people.invited")),
        h("ul.invited-list", { "data-testid": "invited-list" }, this.invitations.map((inv) =>
          h("li", { "data-testid": "invited", "data-status": inv.status, "data-name": inv.name },
            h("strong", inv.name), " — ", h("span.tag", { class: "inv-" + inv.status }, t("people.status." + inv.status)),
            host && inv.status === "pending" ? h("button.small.link", { type: "button", "data-testid": "withdraw", onclick: () => this.withdraw(inv) }, t("people.withdraw")) : null))));
    }
    if (host && tb.status === "lobby") {
      const seated = new Set();
      const pending = new Set(this.invitations.filter((i) => i.status === "pending").map((i) => i.name));
      for (const s of tb.seats || []) if (s && s.name) seated.add(s.name);
      this.listBox.append(h("h2", t("people.invite_title")), h("p.hint", t("people.invite_hint")),
        peopleList((p, btn) => this.invite(p, btn), (p) => seated.has(p.name) || pending.has(p.name)));
    }
  }

  nameForm(tb) {
    if (this.form) {
      // What the host is typing survives a redraw (a lobby frame may arrive mid-word); when
      // nothing is being typed, the field shows the table's name.
      if (this.nameDraft === null && document.activeElement !== this.form.input) this.form.input.value = tb.name || "";
      return this.form.el;
    }
    const input = h("input", { id: "table-name", "data-testid": "table-name", maxlength: "60", value: this.nameDraft ?? (tb.name || ""), placeholder: t("people.name_placeholder"),
      oninput: () => { this.nameDraft = input.value; } });
    const save = h("button.small", { type: "submit", "data-testid": "table-name-save" }, t("people.name_save"));
    const form = h("form.table-name-form", h("label", { for: "table-name" }, t("people.name_label")), h("div.row", input, save));
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      save.disabled = true;
      try {
        await api("PUT", `/api/tables/${enc(this.id)}/name`, { name: input.value });
        this.nameDraft = null; // saved: the table's name is the truth again
      } catch (err) {
        showError(err);
      } finally {
        save.disabled = false;
      }
    });
    this.form = { el: form, input };
    return form;
  }

  async invite(person, btn) {
    btn.disabled = true;
    try {
      const answer = await post(`/api/tables/${enc(this.id)}/invitations`, { profile_id: person.id });
      this.invitations = answer.invitations || [];
      this.draw();
    } catch (e) {
      showError(e);
      btn.disabled = false;
    }
  }

  async withdraw(inv) {
    try {
      const answer = await api("DELETE", `/api/tables/${enc(this.id)}/invitations/${inv.id}`);
      this.invitations = answer.invitations || [];
      this.draw();
    } catch (e) {
      showError(e);
    }
  }
}
