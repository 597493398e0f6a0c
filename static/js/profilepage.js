// My profile (/profile): who I am here, my e-mail (email.js), my passkeys (passkeys.js) and the
// people I play with.
import { t } from "/js/i18n.js";
import { h, clear } from "/js/dom.js";
import { profile } from "/js/profile.js";
import { emailSection } from "/js/email.js";
import { passkeysSection } from "/js/passkeys.js";
import { peopleList } from "/js/people.js";
import { blockedList } from "/js/invitations.js";
import { devicesSection } from "/js/devices.js";
import { guideSection } from "/js/guide.js";
import { myDataSection } from "/js/mydata.js";

export function renderProfilePage(root, { link }) {
  const me = profile();
  clear(root);
  if (!me) {
    root.append(h("section.panel", h("p", { "data-testid": "profile-no-profile" }, t("mygames.no_profile")), link("/", t("app.home"), { class: "button" })));
    return;
  }
  root.append(
    h("section.panel.profile-page", { "data-testid": "profile-page" },
      h("h1", t("profile.page_title")),
      h("p", t("profile.signed_in_as", { name: me.name }))),
    guideSection(link),
    devicesSection(),
    emailSection(),
    passkeysSection(),
    h("section.panel.people-section", { "data-testid": "people-section", "aria-labelledby": "people-title" },
      h("h2", { id: "people-title" }, t("people.title")), h("p.muted", t("people.what")), peopleList(null)),
    blockedList(),
    myDataSection(me, root, link)
  );
}
