// The service worker: the installed app opens at once from its cache, and push messages ("your
// turn at …") become notifications that open the table.
//
// Caching: only the static client. The files (/js, /css, /i18n, icons, the HTML shell, and the
// /v/<version>/js and /v/<version>/css names the page loads them by) are served cache-first from a
// cache named after the build; the server writes BUILD below when it serves this file
// (app/web/build.py: a hash of static/ and its file list), so any change of a static file is a new
// worker with a new cache, and the old caches are deleted when it takes over.
// Everything else goes to the network untouched and is never stored: /api/* (every answer is
// personal or live), /ws/*, /sw.js itself, and any request that is not a same-origin GET.
const BUILD = { version: "dev", files: [] }; // replaced by the server

const PREFIX = "emara-static-";
const CACHE = PREFIX + BUILD.version;
const SHELL = "/";
const STATIC = /^\/(v\/[0-9a-f]+\/)?(js|css|i18n|icons)\/|^\/(favicon(-turn)?\.svg|manifest\.webmanifest)$/;

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(CACHE).then((cache) => cache.addAll([SHELL, ...BUILD.files])).then(() => self.skipWaiting())
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith(PREFIX) && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim())
  );
});

// A page of the client (a navigation to a path without a file extension): the cached shell.
function isPage(request, url) {
  return request.mode === "navigate" && !/\.[^/]*$/.test(url.pathname);
}

async function cacheFirst(request, key) {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(key, { ignoreSearch: true });
  if (hit) return hit;
  const res = await fetch(request);
  if (res.ok && res.type === "basic") await cache.put(key, res.clone());
  return res;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  const path = url.pathname;
  if (path.startsWith("/api/") || path.startsWith("/ws/") || path === "/api" || path === "/ws") return;
  if (isPage(request, url)) event.respondWith(cacheFirst(request, SHELL));
  else if (STATIC.test(path)) event.respondWith(cacheFirst(request, url.origin + path));
});

// ---------- push ----------

// A path of this site to open (anything else opens the start page).
function safePath(url) {
  return typeof url === "string" && url.startsWith("/") && !url.startsWith("//") ? url : "/games";
}

self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = { body: event.data ? event.data.text() : "" };
  }
  const title = typeof data.title === "string" && data.title ? data.title : "Crown of Emara";
  event.waitUntil(
    self.registration.showNotification(title, {
      body: typeof data.body === "string" ? data.body : "",
      icon: "/icons/icon-192.png",
      badge: "/icons/icon-192.png",
      tag: typeof data.tag === "string" ? data.tag : typeof data.table_id === "string" ? "table-" + data.table_id : undefined,
      data: { url: safePath(data.url) },
    })
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const path = safePath(event.notification.data && event.notification.data.url);
  event.waitUntil(
    (async () => {
      const target = new URL(path, self.location.origin).href;
      const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
      const same = windows.find((c) => c.url === target);
      if (same) return same.focus();
      const any = windows.find((c) => new URL(c.url).origin === self.location.origin);
      if (any && any.navigate) {
        const c = await any.navigate(target);
        return (c || any).focus();
      }
      return self.clients.openWindow(target);
    })()
  );
});
