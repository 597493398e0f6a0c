// My profile (/profile): who I am here, my e-mail (email.js), my passkeys (passkeys.js) and the
// people I play with. Signed out: the "Who are you?" panel (signin.js), then the profile.
import { t } from "./i18n.js";
import { h, clear } from "./dom.js";
import { profile } from "./profile.js";
import { emailSection } from "./email.js";
import { passkeysSection } from "./passkeys.js";
import { peopleList } from "./people.js";
import { blockedList } from "./invitations.js";
import { blockDialog, blockById, blockedSection } from "./block.js";
import { devicesSection } from "./devices.js";
import { guideSection } from "./guide.js";
import { myDataSection } from "./mydata.js";
import { askWhoYouAre } from "./signin.js";

export function renderProfilePage(root, { link }) {
  const me = profile();
  clear(root);
  if (!me) {
    // signed out: "Who are you?" as on every page that needs a profile, then this page
    askWhoYouAre(root, {
      done: async () => {
        document.dispatchEvent(new Event("emara:profile"));
        renderProfilePage(root, { link });
      },
    });
    return;
  }
  // People I play with, each with "Block"; the people I blocked, each with "Unblock".
  const peopleBox = h("div");
  const blocked = blockedSection(() => showPeople());
  const blockButton = (p) => h("button.small.link", { type: "button", "data-testid": "profile-block-person", onclick: async () => {
    if (await blockDialog(p.name, () => blockById(p.id))) {
      showPeople();
      blocked.read();
    }
  } }, t("block.item"));
  const showPeople = () => clear(peopleBox).append(peopleList(null, undefined, blockButton));
  showPeople();
  root.append(
    h("section.panel.profile-page", { "data-testid": "profile-page" },
      h("h1", t("profile.page_title")),
      h("p", t("profile.signed_in_as", { name: me.name }))),
    guideSection(link),
    devicesSection(),
    emailSection(),
    passkeysSection(),
    h("section.panel.people-section", { "data-testid": "people-section", "aria-labelledby": "people-title" },
      h("h2", { id: "people-title" }, t("people.title")), h("p.muted", t("people.what")), peopleBox),
    blocked.el,
    blockedList(),
    myDataSection(me, root, link)
  );
}
