// Entry point: the client routes (/, /t/{id}, /solo, /records, /rules), the header (language, profile
// menu) and start-up (catalogue, who am I, first page).
//
// The modules, one concern each:
//   router.js   routes, header, start-up          api.js      HTTP JSON, ApiError
//   profile.js  sign-in, recovery, sign-out       socket.js   the one reconnecting table socket
//   landing.js  the home page                     lobby.js    a table before its start
//   table.js    the live table screen             state.js    the table's client state
//   board.js    status bar, rondels, locations    players.js  score track, player boards, end
//   controls.js hand and legal moves              log.js      game log, last move
//   solo.js     solo launcher                     records.js  solo record sheet
//   moves.js    words for moves and events        pieces.js   symbols, chips, bot markers
//   i18n.js     catalogues and plurals            notices.js  errors, toasts, turn favicon
//   invites.js  invite codes seen                 dom.js      the one DOM helper (text only)
//   mygames.js  My games (/games)                 waiting.js  tables waiting for me, everywhere
//   pace.js     pace words, clocks                push.js     service worker, push opt-in
//   email.js    e-mail section, link pages        profilepage.js  my profile (/profile)
//   people.js   lobby: name, people to invite     invitations.js  My games' invitations
//   rematch.js  the end screen's rematch offer signin.js   "who are you?" for a signed-out visitor
//   invitedhere.js  an invitation's table before it is accepted
//   theme.js    light / dark / as the system
//   icons.js    inline SVG icons               logpin.js   the phone's log tab at its newest
//   rulespage.js the rules reference (/rules)  ruleslink.js rulesLink(anchor) for any screen
//   guide.js    the guided first game: /learn, hints at a guided table
//   replay.js   the replay viewer (/r/{id})    history.js  my finished games (/history)
import { t, setLang, initialLang, languages } from "./i18n.js";
import { h, clear } from "./dom.js";
import { get, ApiError } from "./api.js";
import { showError, setTurnBadge } from "./notices.js";
import { inviteFor, rememberInvite } from "./invites.js";
import { profile, loadProfile, forgetProfile, profileMenu } from "./profile.js";
import { landing } from "./landing.js";
import { Lobby, lobbyStarted, tableUrl } from "./lobby.js";
import { TableScreen } from "./table.js";
import { startWaiting, waitingBadge } from "./waiting.js";
import { registerWorker } from "./push.js";
import { askWhoYouAre } from "./signin.js";
import { learnNav, learnPage } from "./guide.js"; // the guided first game
import "./theme.js"; // the remembered light or dark choice, set before the first page

const main = () => document.getElementById("main");
let screen = null; // the live screen object (has stop())

export function navigate(path) {
  history.pushState({}, "", path);
  route();
}

export function link(path, text, attrs = {}) {
  return h("a", { href: path, ...attrs, onclick: (e) => { if (e.button === 0 && !e.metaKey && !e.ctrlKey) { e.preventDefault(); navigate(path); } } }, text);
}

export async function route() {
  if (screen && screen.stop) screen.stop();
  screen = null;
  setTurnBadge(false);
  document.title = t("table.title");
  const path = location.pathname;
  const m = path.match(/^\/t\/([^/]+)\/?$/);
  const r = path.match(/^\/r\/([^/]+)\/?$/);
  renderHeader();
  try {
    if (path === "/" || path === "/index.html") await landing({ link, navigate });
    else if (m) await tablePage(decodeURIComponent(m[1]), new URLSearchParams(location.search).get("invite"));
    else if (path === "/solo") await soloPage();
    else if (path === "/records") await recordsPage();
    else if (path === "/rules") await (await import("./rulespage.js")).renderRules(clear(main()));
    else if (path === "/games") await myGamesPage();
    else if (r) await replayPage(decodeURIComponent(r[1]));
    else if (path === "/history") await historyPage();
    else if (path === "/profile") await profilePage();
    else if (path === "/learn") await needProfile(() => learnPage(main(), { go: (to) => { history.replaceState({}, "", to); route(); } }));
    else if (path === "/add-device") await addDeviceRoute();
    else if (EMAIL_LINKS[path]) await emailLinkPage(EMAIL_LINKS[path]);
    else clear(main()).append(h("section.panel", h("p", t("err.page_not_found")), link("/", t("app.home"))));
  } catch (e) {
    showError(e);
  }
}

function renderHeader() {
  const hdr = clear(document.getElementById("top"));
  const sel = h(
    "select",
    { "aria-label": t("app.language"), "data-testid": "lang-select", onchange: async (e) => { await setLang(e.target.value); route(); } },
    languages().map((code) => h("option", { value: code, selected: code === document.documentElement.lang }, code.toUpperCase()))
  );
  hdr.append(
    link("/", h("span.brand", h("span.crown", { "aria-hidden": "true" }, "♛"), " ", t("app.title")), { class: "brand-link" }),
    h("nav", profile() ? link("/games", [t("mygames.link"), " ", waitingBadge()], { "data-testid": "my-games-link" }) : null, " ", link("/records", t("app.records")), " ", link("/solo", t("landing.solo")), " ", link("/rules", t("rules.link"), { "data-testid": "rules-link" }), " ", learnNav(link), " ", sel, " ", profileMenu(route))
  );
}

// ---------- a table: its lobby, or the game ----------

async function tablePage(id, invite) {
  if (invite) rememberInvite(id, invite);
  invite = invite || inviteFor(id);
  if (!(await knownProfile())) {
    // Signed out: ask once who this is (a new name takes the seat at once), then the table.
    askWhoYouAre(main(), { tableId: id, invite, done: signedIn });
    return;
  }
  let table;
  try {
    table = await get(tableUrl(id, invite));
  } catch (e) {
    if (e instanceof ApiError && e.code === "removed_from_table") {
      const { removedPanel } = await import("./lobbypeople.js"); // the host removed this person
      clear(main()).append(removedPanel(navigate));
      return;
    }
    if (e instanceof ApiError && (e.status === 401 || e.status === 403) && invite) table = null;
    else if (e instanceof ApiError && e.status === 404) {
      // not seated and no code, but invited (the link of an invitation e-mail): the invitation
      const { invitationHere } = await import("./invitedhere.js");
      const offer = await invitationHere(id, { navigate, link });
      if (offer) {
        clear(main()).append(offer);
        return;
      }
      clear(main()).append(h("section.panel.lobby", h("h1", t("lobby.title", { id })),
        h("p", { "data-testid": "table-missing" }, invite ? t("err.bad_invite") : t("lobby.no_invite")), link("/", t("app.home"), { class: "button" })));
      showError(e);
      return;
    } else throw e;
  }
  const signedOut = () => {
    if (screen && screen.stop) screen.stop();
    signedOutHere(id, invite);
  };
  screen = lobbyStarted(table) ? new TableScreen(main(), id, table, { navigate, signedOut }) : new Lobby(id, invite, table, { route, navigate, signedOut });
  await screen.start();
}

// ---------- solo and records: they need a profile ----------

async function needProfile(then) {
  if (await knownProfile()) return then();
  askWhoYouAre(main(), { done: signedIn });
}

// The signed-in profile (loaded at start-up, or by the sign-in that just happened).
async function knownProfile() {
  return profile();
}

// Back to the page that asked "who are you?", now signed in (the header shows the profile).
async function signedIn() {
  await route();
}

// A table's socket found this device signed out (elsewhere, or the session ended): forget the
// profile here and ask who this is, once; the socket stays closed until then.
export function signedOutHere(tableId, invite) {
  forgetProfile();
  renderHeader();
  askWhoYouAre(main(), { tableId, invite, done: signedIn });
}

async function soloPage() {
  await needProfile(async () => {
    const { renderSolo } = await import("./solo.js");
    await renderSolo(clear(main()), (id) => navigate(`/t/${encodeURIComponent(id)}`));
  });
}

async function recordsPage() {
  await needProfile(async () => {
    const { renderRecords } = await import("./records.js");
    await renderRecords(clear(main()), (id) => navigate(`/r/${encodeURIComponent(id)}`));
  });
}

async function myGamesPage() {
  document.title = t("mygames.title") + " — " + t("app.title");
  if (!(await knownProfile())) {
    askWhoYouAre(main(), { done: signedIn });
    return;
  }
  const { renderMyGames } = await import("./mygames.js");
  screen = renderMyGames(clear(main()), { link, navigate });
}

// ---------- replays and my history ----------

async function replayPage(id) {
  document.title = t("replay.title") + " — " + t("app.title");
  const { ReplayViewer } = await import("./replay.js");
  // a public replay needs no profile; a private one answers 404 to a stranger
  screen = new ReplayViewer(clear(main()), id, { link });
  await screen.start();
  if (!screen.replay) return;
  // the bot's analysis of the game, under the board (analysis.js)
  const viewer = screen;
  const { mountAnalysis } = await import("./analysis.js");
  if (screen === viewer && !viewer.stopped) viewer.analysisPanel = mountAnalysis(viewer.analysis, viewer);
}

async function historyPage() {
  document.title = t("history.title") + " — " + t("app.title");
  await needProfile(async () => {
    const { renderHistory } = await import("./history.js");
    await renderHistory(clear(main()), { link });
  });
}

// ---------- my profile and the pages e-mailed links land on ----------

const EMAIL_LINKS = { "/email/confirm": "confirm", "/email/signin": "signin", "/email/unsubscribe": "unsubscribe" };

async function profilePage() {
  document.title = t("profile.page_title") + " — " + t("app.title");
  const { renderProfilePage } = await import("./profilepage.js");
  renderProfilePage(main(), { link });
}

async function addDeviceRoute() {
  const { addDevicePage } = await import("./devices.js");
  addDevicePage(main(), { navigate });
}

async function emailLinkPage(kind) {
  const { linkPage } = await import("./email.js");
  await linkPage(main(), kind, { navigate, link });
  renderHeader();
}

// ---------- start-up ----------

async function boot() {
  await setLang(initialLang());
  try {
    await loadProfile();
    if (profile() && profile().recovered_elsewhere) (await import("./devices.js")).tellRecovery(profile());
    if (profile() && profile().notices && profile().notices.length) (await import("./devices.js")).tellNotices(profile());
  } catch (e) {
    showError(e);
  }
  window.addEventListener("popstate", route);
  startWaiting();
  registerWorker();
  document.addEventListener("emara:profile", renderHeader);
  // plain links marked data-link (solo.js, records.js) stay in the app
  document.addEventListener("click", (e) => {
    const a = e.target.closest && e.target.closest("a[data-link]");
    if (a && e.button === 0 && !e.metaKey && !e.ctrlKey && a.origin === location.origin) {
      e.preventDefault();
      navigate(a.pathname + a.search + a.hash);
    }
  });
  await route();
}

boot();
