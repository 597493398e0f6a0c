// The service worker (static/sw.js: the installed app's cache, and push notifications) and the
// push opt-in of this device: "Turn on push notifications on this device" in the profile menu subscribes this
// browser's push service with the server's VAPID key (GET /api/push/key) and hands the
// subscription (its endpoint and keys, and the page's language) to POST /api/push/subscriptions; "Turn off …" removes it
// (DELETE /api/push/subscriptions) and unsubscribes. The subscription is the browser's; the page
// keeps only a flag that this device said yes.
import { t, lang } from "./i18n.js";
import { h } from "./dom.js";
import { bellIcon } from "./icons.js";
import { api, get, post, ApiError } from "./api.js";
import { showError, toast } from "./notices.js";

const FLAG = "emara.push";

export function registerWorker() {
  if (!("serviceWorker" in navigator)) return Promise.resolve(null);
  return navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch((e) => {
    console.warn("service worker not registered", e);
    return null;
  });
}

export function pushSupported() {
  return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

function flagged() {
  try {
    return localStorage.getItem(FLAG) === "1";
  } catch {
    return false;
  }
}

function setFlag(on) {
  try {
    if (on) localStorage.setItem(FLAG, "1");
    else localStorage.removeItem(FLAG);
  } catch {}
}

// The server's public key (base64url) as the bytes PushManager.subscribe takes.
function keyBytes(b64) {
  const s = (b64 + "===".slice((b64.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
  return Uint8Array.from(atob(s), (c) => c.charCodeAt(0));
}

// This device's subscription, if it has one (never waits for a worker that is not there).
async function subscription() {
  const reg = await navigator.serviceWorker.getRegistration("/");
  return { reg, sub: reg ? await reg.pushManager.getSubscription() : null };
}

export async function enablePush() {
  const permission = await Notification.requestPermission();
  if (permission !== "granted") throw new PushProblem("push.denied");
  const answer = await get("/api/push/key");
  const key = answer.key;
  if (!key) throw new PushProblem("push.unavailable");
  const reg = await navigator.serviceWorker.ready;
  let sub = await reg.pushManager.getSubscription();
  if (!sub) {
    try {
      sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) });
    } catch (e) {
      console.warn("push subscription refused", e);
      throw new PushProblem("push.unavailable");
    }
  }
  const json = sub.toJSON();
  await post("/api/push/subscriptions", { endpoint: json.endpoint, keys: json.keys, expirationTime: json.expirationTime ?? null, lang: lang() });
  setFlag(true);
}

export async function disablePush() {
  const { sub } = await subscription();
  if (sub) {
    await api("DELETE", "/api/push/subscriptions", { endpoint: sub.endpoint });
    await sub.unsubscribe();
  }
  setFlag(false);
}

// Before signing out: this device stops getting the signed-out profile's notifications (best
// effort: a failure here does not keep anyone signed in).
export async function forgetPushOnSignOut() {
  if (!flagged() || !pushSupported()) return;
  try {
    await disablePush();
  } catch (e) {
    console.warn("push subscription not removed", e);
  }
}

class PushProblem extends Error {
  constructor(key) {
    super(key);
    this.key = key;
  }
}

// The profile menu's entry: one button that says what a click does on this device.
export function pushMenuItem() {
  if (!pushSupported()) return h("p.muted.push-note", { "data-testid": "push-unsupported" }, t("push.unsupported"));
  let on = flagged();
  const btn = h("button", { type: "button", "data-testid": "push-toggle" });
  const label = () => {
    btn.replaceChildren(bellIcon(on), " ", on ? t("push.stop") : t("push.enable"));
    btn.dataset.on = on ? "1" : "0";
  };
  label();
  btn.addEventListener("click", async () => {
    btn.disabled = true;
    try {
      if (on) await disablePush();
      else await enablePush();
      on = !on;
      toast(t(on ? "push.enabled" : "push.stopped"));
    } catch (e) {
      if (e instanceof PushProblem) toast(t(e.key));
      else if (e instanceof ApiError) showError(e);
      else toast(t("push.unavailable"));
    } finally {
      btn.disabled = false;
      label();
    }
  });
  // the browser knows best: a subscription dropped elsewhere (site settings) shows here
  subscription().then(({ sub }) => {
    if (!!sub !== on && !btn.disabled) {
      on = !!sub;
      setFlag(on);
      label();
    }
  }, () => {});
  return btn;
}
