// Route /solo: start a solo game against Victoria in high-score or campaign mode, or resume an
// unfinished one. Data: GET /api/profiles/me/solo; start: POST /api/solo.
import { get, post } from "./api.js";
import { has, t } from "./i18n.js";
import { h as el } from "./dom.js";
import { rulesLink } from "./ruleslink.js";

// Suggested building start values (hard … easy); any value may be entered.
const SUGGESTED = [15, 20, 25, 30, 35, 40];

// The building start value of the newest high-score game played (null: none yet): the box
// starts there, so the best score shown is the one just played for. `results` come oldest first.
export function lastHighScoreStart(results) {
  let last = null;
  for (const r of results || []) {
    if (r && r.mode === "high_score" && (!last || String(r.date) >= String(last.date))) last = r;
  }
  return last ? last.building_start : null;
}

// `go(tableId)` opens the table; the router passes its own.
export async function renderSolo(root, go) {
  root.replaceChildren(el("p", { text: t("app.loading") }));
  let data;
  try {
    data = await get("/api/profiles/me/solo");
  } catch (e) {
    root.replaceChildren(el("p", { class: "records-error", role: "alert", text: e.text || String(e) }));
    return;
  }
  const error = el("p", { class: "records-error", role: "alert", hidden: true });

  async function start(body, button) {
    button.disabled = true;
    error.hidden = true;
    try {
      const res = await post("/api/solo", body);
      go(res.table_id);
    } catch (e) {
      error.textContent = e.text || String(e);
      error.hidden = false;
      button.disabled = false;
    }
  }

  const open = data.open || [];
  const resume = open.length
    ? el(
        "section",
        { class: "solo-card solo-resume", "data-testid": "solo-resume" },
        el("h2", { text: t("solo.resume_title") }),
        el(
          "ul",
          {},
          open.map((g) =>
            el(
              "li",
              {},
              el("span", {
                text: t("solo.resume_item", {
                  mode: g.mode === "campaign" ? t("solo.campaign") : t("solo.highscore"),
                  start: g.building_start,
                }),
              }),
              " ",
              el("button", { type: "button", class: "btn", onclick: () => go(g.table_id), text: t("solo.resume") }),
            ),
          ),
        ),
      )
    : null;

  const campaignButton = el("button", {
    type: "submit",
    class: "btn primary",
    "data-testid": "solo-start-campaign",
    text: t("solo.start_campaign", { start: data.campaign.next_start }),
  });
  const campaign = el(
    "form",
    {
      class: "solo-card",
      onsubmit: (ev) => {
        ev.preventDefault();
        start({ mode: "campaign" }, campaignButton);
      },
    },
    el("h2", { text: t("solo.campaign") }),
    el("p", {
      text:
        data.rules && has("solo.campaign_rules")
        ? t("solo.campaign_rules", {
            first: data.rules.campaign_first_start,
            win: Math.abs(data.rules.campaign_win_step),
            loss: Math.abs(data.rules.campaign_loss_step),
          })
        : t("solo.campaign_text"),
    }),
    el("p", {
      class: "solo-next",
      text: t("solo.campaign_next", { start: data.campaign.next_start }),
    }),
    data.campaign.best_start === null
      ? null
      : el("p", {
          text:
            t("records.best_start_label") +
            ": " +
            t("records.best_result", { start: data.campaign.best_start, score: data.campaign.best_score }),
        }),
    campaignButton,
  );

  const input = el("input", {
    type: "number",
    id: "solo-building-start",
    name: "building_start",
    value: lastHighScoreStart(data.results) ?? 35,
    step: 1,
    required: true,
    list: "solo-start-values",
    "data-testid": "solo-building-start",
  });
  const datalist = el(
    "datalist",
    { id: "solo-start-values" },
    SUGGESTED.map((v) => el("option", { value: v })),
  );
  const best = el("p", { class: "solo-best", "aria-live": "polite" });
  const showBest = () => {
    const score = (data.high_scores || {})[String(Number(input.value))];
    best.textContent =
      score === undefined ? t("solo.no_best") : t("records.best", { start: input.value, score });
  };
  input.addEventListener("input", showBest);
  showBest();
  const highButton = el("button", {
    type: "submit",
    class: "btn primary",
    "data-testid": "solo-start-high-score",
    text: t("solo.start"),
  });
  const high = el(
    "form",
    {
      class: "solo-card",
      onsubmit: (ev) => {
        ev.preventDefault();
        start({ mode: "high_score", building_start: Number(input.value) }, highButton);
      },
    },
    el("h2", { text: t("solo.highscore") }),
    el("p", { text: t("solo.highscore_text") }),
    el("label", { for: "solo-building-start", text: t("landing.building_start") }),
    " ",
    input,
    datalist,
    el("p", { class: "hint", text: t("solo.start_hint") }),
    best,
    highButton,
  );

  root.replaceChildren(
    el(
      "div",
      { class: "solo" },
      el("h1", { text: t("solo.title") }),
      resume,
      error,
      el("div", { class: "solo-modes" }, high, campaign),
      el("p", {}, el("a", { href: "/records", "data-link": true, text: t("records.title") })),
      el("p", {}, rulesLink("solo", t("solo.rules_link"), { "data-testid": "solo-rules-link" })),
    ),
  );
}
