// Scarab's service worker: the whole built site, pre-cached on the first visit, so every game loads
// and plays with no network. The build writes VERSION and FILES (from the hashed manifest) below.
// A new version installs into its own cache beside the running one and waits: the page offers
// "reload to update", and only then does it take over and remove the old cache. An install that
// fails half-way (any file missing) never replaces the running version.
"use strict";
const VERSION = "__VERSION__";
const FILES = __FILES__;
const CACHE = "scarab-" + VERSION;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) =>
    cache.addAll(FILES.map((file) => new Request(file, { cache: "reload" })))));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k.startsWith("scarab-") && k !== CACHE).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

self.addEventListener("message", (event) => {
  if (event.data === "skip-waiting") self.skipWaiting();
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    let hit = await cache.match(request, { ignoreSearch: true });
    if (!hit && request.mode === "navigate" && url.pathname.endsWith("/")) {
      hit = await cache.match(new URL("index.html", url), { ignoreSearch: true });
    }
    return hit || fetch(request);
  })());
});
