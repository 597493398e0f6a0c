// The landing page (client route /): the name, a new table with its options, joining by link, the
// way to solo play and the list of one's tables.
import { t } from "./i18n.js";
import { h, clear } from "./dom.js";
import { get, post, ApiError } from "./api.js";
import { showError } from "./notices.js";
import { seatName } from "./pieces.js";
import { rememberInvite } from "./invites.js";
import { profile, ensureProfile, nameField, currentName } from "./profile.js";
import { paceSelect, paceFromChoice } from "./pace.js";
import { learnOffer } from "./guide.js";

const main = () => document.getElementById("main");

// `link(path, text, attrs)` makes an in-app link; `navigate(path)` goes there.
export async function landing({ link, navigate }) {
  const root = clear(main());
  const seatsSel = h("select", { id: "seats", "data-testid": "seats" }, [1, 2, 3, 4].map((n) => h("option", { value: n, selected: n === 2 }, String(n))));
  const startSel = h("select", { id: "start-player", "data-testid": "start-player" });
  const fillStart = () => {
    clear(startSel).append(h("option", { value: "random" }, t("landing.start_random")));
    for (let i = 0; i < Number(seatsSel.value); i++) startSel.append(h("option", { value: i }, t("landing.seat_n", { n: i + 1 })));
  };
  seatsSel.addEventListener("change", fillStart);
  fillStart();
  const bstart = h("input", { id: "building-start", "data-testid": "building-start", type: "number", min: "0", max: "80", placeholder: "35", "aria-describedby": "building-start-hint" });
  const paceSel = paceSelect({ id: "pace", "data-testid": "pace" });
  const check = (id) => h("input", { id, type: "checkbox", "data-testid": id });
  const rl = check("random-locations"), fs = check("full-selection"), sp = check("spectators");
  const sc = check("spectator-chat"), un = check("undo"), pr = check("public-replay");
  un.checked = true;
  sp.checked = true;

  const create = async (btn) => {
    btn.disabled = true;
    try {
      await ensureProfile(currentName());
      const options = {
        random_locations: rl.checked,
        full_selection: fs.checked,
        spectators: sp.checked,
        spectator_chat: sc.checked,
        undo: un.checked,
        public_replay: pr.checked,
        start_player: startSel.value === "random" ? "random" : Number(startSel.value),
      };
      if (bstart.value !== "") options.building_start = Number(bstart.value);
      const pace = paceFromChoice(paceSel.value);
      if (pace) options.pace = pace;
      const tbl = await post("/api/tables", { seats: Number(seatsSel.value), options });
      rememberInvite(tbl.id, tbl.invite_code);
      navigate(`/t/${encodeURIComponent(tbl.id)}`);
    } catch (e) {
      showError(e);
    } finally {
      btn.disabled = false;
    }
  };
  const createBtn = h("button.primary", { "data-testid": "create-table", type: "button", onclick: (e) => create(e.currentTarget) }, "✚ ", t("landing.create"));

  const joinInput = h("input", { id: "join-link", "data-testid": "join-link", type: "url", placeholder: t("landing.join_placeholder") });
  const openJoin = () => {
    try {
      const u = new URL(joinInput.value.trim(), location.origin);
      if (!/^\/t\/[^/]+\/?$/.test(u.pathname)) throw new Error();
      navigate(u.pathname + u.search);
    } catch {
      showError(new ApiError(0, "bad_link", t("landing.join_bad")));
    }
  };

  const tablesBox = h("div.tables", h("p.muted", t("app.loading")));
  root.append(
    h("section.hero", h("h1", h("span.crown", { "aria-hidden": "true" }, "♛ "), t("app.title")), h("p.tagline", t("app.tagline"))),
    learnOffer(link), // the guided first game: prominent until finished or skipped
    h(
      "div.landing-grid",
      h("section.panel", h("h2", t("landing.welcome")), nameField(() => saveName({ link, navigate })), profile() ? h("p.muted", t("landing.playing_as", { name: profile().name })) : null),
      h(
        "section.panel",
        h("h2", t("landing.new_table")),
        h("div.form-grid",
          h("label", { for: "seats" }, t("landing.seats")), seatsSel,
          h("label", { for: "start-player" }, t("landing.start_player")), startSel,
          h("label", { for: "building-start" }, t("landing.building_start")), bstart
        ),
        h("p.hint", { id: "building-start-hint", "data-testid": "building-start-hint" }, t("landing.building_start_hint")),
        h("div.field", h("label", { for: "pace" }, t("pace.label")), paceSel),
        h("div.checks",
          h("label", rl, " ", t("landing.random_locations")),
          h("label", fs, " ", t("landing.full_selection")),
          h("label", sp, " ", t("landing.spectators")),
          h("label", sc, " ", t("landing.spectator_chat")),
          h("label", un, " ", t("landing.undo")),
          h("label", pr, " ", t("landing.public_replay"))
        ),
        createBtn
      ),
      h("section.panel", h("h2", t("landing.join")), h("div.row", joinInput, h("button", { type: "button", "data-testid": "join-open", onclick: openJoin }, t("landing.join_open")))),
      h("section.panel", h("h2", t("landing.solo")), h("p", t("landing.solo_text")), link("/solo", t("landing.solo_open"), { class: "button", "data-testid": "solo-open" })),
      h("section.panel.wide", h("h2", t("landing.my_tables")), tablesBox)
    )
  );
  if (!profile()) {
    clear(tablesBox).append(h("p.muted", t("landing.no_tables")));
    document.getElementById("name-input").focus();
    return;
  }
  try {
    const res = await get("/api/tables");
    const list = Array.isArray(res) ? res : res.tables || [];
    clear(tablesBox);
    if (!list.length) tablesBox.append(h("p.muted", t("landing.no_tables")));
    const ul = h("ul.table-list");
    for (const tb of list) {
      const status = tb.status === "finished" ? t("landing.finished") : tb.status === "lobby" || tb.status === "open" ? t("landing.lobby") : t("landing.running");
      const names = (tb.seats || []).map((s) => seatName(s) || "—").join(", ");
      ul.append(h("li", h("span.status-" + (tb.status || "running"), status), " ", h("span", names), " ", whoseTurn(tb), " ",
        link(`/t/${encodeURIComponent(tb.id)}`, tb.status === "finished" ? t("landing.view_result") : t("landing.continue"), { class: "button small" })));
    }
    if (list.length) tablesBox.append(ul);
  } catch (e) {
    clear(tablesBox).append(h("p.muted", e instanceof ApiError ? e.text : String(e)));
  }
}

// Enter in "Your name": play under that name from now on (a new name is a new profile, as when
// creating a table), and the page says so.
async function saveName(nav) {
  try {
    await ensureProfile(currentName());
    await landing(nav);
    const btn = document.querySelector("[data-testid=create-table]");
    if (btn) btn.focus();
  } catch (e) {
    showError(e);
  }
}

// A running table of mine: "your turn", or whose turn it is.
function whoseTurn(tb) {
  if (tb.status !== "playing" || !Array.isArray(tb.to_act) || !tb.to_act.length) return null;
  if (tb.my_seat !== null && tb.my_seat !== undefined && tb.to_act.includes(tb.my_seat)) {
    return h("strong.turn-note.mine", { "data-testid": "my-table-turn" }, "★ ", t("landing.turn_yours"));
  }
  const names = tb.to_act.map((n) => seatName((tb.seats || [])[n]) || "—").join(", ");
  return h("span.turn-note", { "data-testid": "my-table-turn" }, t("landing.turn_of", { name: names }));
}
