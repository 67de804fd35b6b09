// The live match log's service worker (scope /matches/): the log page, its script and
// styles, and the last log read stay on the phone, so the page opens again without
// signal (its events wait in IndexedDB, see live-log.js). Network first: a phone with
// signal always gets the current page and log; the copies serve only when it has none.
"use strict";
var CACHE = "league-live-log-v1";

function kept(url) {
  return (
    /\/matches\/\d+\/live$/.test(url.pathname) ||
    /\/matches\/\d+\/live\/manifest\.webmanifest$/.test(url.pathname) ||
    /^\/api\/v1\/matches\/\d+\/log$/.test(url.pathname) ||
    /^\/static\/(js\/live-log\.js|css\/(site|live)\.css|js\/site\.js|img\/live-)/.test(url.pathname)
  );
}

self.addEventListener("install", function () { self.skipWaiting(); });
self.addEventListener("activate", function (event) { event.waitUntil(self.clients.claim()); });

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin || !kept(url)) return;
  event.respondWith(
    fetch(request).then(function (response) {
      if (response.status === 200) {
        var copy = response.clone();
        caches.open(CACHE).then(function (cache) { cache.put(url.pathname, copy); });
      }
      return response;
    }).catch(function () {
      return caches.open(CACHE).then(function (cache) {
        return cache.match(url.pathname).then(function (found) {
          return found || new Response("", { status: 503, statusText: "Offline" });
        });
      });
    })
  );
});
