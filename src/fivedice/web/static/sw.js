// fivedice's service worker (served as /sw.js, so that its scope is the whole site).
//
// It keeps the static files (styles, scripts, icons) and one offline page, nothing else:
// games, rooms, the API and every page holding a token are always asked of the server and
// never stored (they change with every move, and a stored one could show a stale board or
// leak a seat's link). When a page cannot be reached at all (no network, no server), the
// offline page is shown instead of the browser's error; it says so and offers to try again.
"use strict";

const VERSION = "fivedice-v1";
const OFFLINE = "/offline";
const PRECACHED = [
  OFFLINE,
  "/static/app.css",
  "/static/app.js",
  "/static/alive.css",
  "/static/alive.js",
  "/seats.css",
  "/static/manifest.webmanifest",
  "/static/icons/icon-192.png",
  "/static/icons/icon-512.png",
];

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches.open(VERSION)
      .then(function (cache) { return cache.addAll(PRECACHED); })
      .then(function () { return self.skipWaiting(); })
  );
});

// Older versions' caches are dropped; the worker takes the open pages at once.
self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys()
      .then(function (names) {
        return Promise.all(names.filter(function (name) { return name !== VERSION; })
          .map(function (name) { return caches.delete(name); }));
      })
      .then(function () { return self.clients.claim(); })
  );
});

function isStatic(url) {
  return url.origin === self.location.origin &&
    (url.pathname.indexOf("/static/") === 0 || url.pathname === "/seats.css");
}

self.addEventListener("fetch", function (event) {
  const request = event.request;
  if (request.method !== "GET") return; // forms and moves: always the network
  const url = new URL(request.url);
  if (request.mode === "navigate") {
    // A page: the network, always; the offline page only when it cannot be reached.
    event.respondWith(
      fetch(request).catch(function () {
        return caches.match(OFFLINE).then(function (page) {
          return page || Response.error();
        });
      })
    );
    return;
  }
  if (!isStatic(url)) return; // the API, event streams, fragments: never from a cache
  // Static files: the network first (a new version is seen at once), the cache when it
  // fails; what the network gives is kept for the next time it fails.
  event.respondWith(
    fetch(request)
      .then(function (response) {
        if (response.ok) {
          const copy = response.clone();
          caches.open(VERSION).then(function (cache) { cache.put(request, copy); });
        }
        return response;
      })
      .catch(function () {
        return caches.match(request).then(function (kept) { return kept || Response.error(); });
      })
  );
});
