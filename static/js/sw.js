// The service worker. The server serves it as /sw.js (referee/web/offline.py)
// with one line before this code, self.REFEREE: the version, the files to
// keep, the offline page and the shape of a host page's address.
//
// What it keeps, in one cache per version:
// - the files the host's page needs and the offline page, from install on,
//   answered from the cache (a changed file changes the version, and the new
//   worker replaces the cache);
// - the host's pages, network first, kept each time one loads, so the host's
//   phone opens its table again without the network (offline.js then deals
//   from the deal it kept).
// Every other page goes to the network, and offline gets the offline page:
// a follower's card or a map sheet from the cache would show something old
// as current. Taps, the table's state, the panels and the deal never come
// from here: the page itself decides what to do without the network.
"use strict";

var CONFIG = self.REFEREE;
var PREFIX = "referee-";
var CACHE = PREFIX + CONFIG.version;
var DEALS = PREFIX + "deals"; // offline.js's own cache of deals, kept across versions
var HOST_PAGES_KEPT = 6;
var NETWORK_WAIT_MS = 4000; // a network that neither answers nor fails: the kept page after this

function absolute(url) { return new URL(url, self.location.href).href; }
function escape(text) { return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"); }

var KEPT = new Set(CONFIG.precache.map(absolute));
var FALLBACK = absolute(CONFIG.fallback);
var HOST_PAGE = new RegExp("^" + CONFIG.hostPage.split("*").map(escape).join("[^/]+") + "$");

function isHostPage(url) { return HOST_PAGE.test(new URL(url).pathname); }
function fromCache(url) { return caches.open(CACHE).then(function (c) { return c.match(url, { ignoreVary: true }); }); }

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches.open(CACHE)
      .then(function (cache) {
        return cache.addAll(CONFIG.precache.map(function (url) { return new Request(url, { cache: "reload" }); }));
      })
      .then(function () { return self.skipWaiting(); })
  );
});

// A new version drops the old caches, carrying the host pages over: fetched
// afresh (they name the new files), or as they were if the network is gone.
self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys()
      .then(function (names) {
        var old = names.filter(function (n) { return n.indexOf(PREFIX) === 0 && n !== CACHE && n !== DEALS; });
        return Promise.all(old.map(function (name) {
          return carryHostPages(name).then(function () { return caches.delete(name); });
        }));
      })
      .then(function () { return self.clients.claim(); })
      .then(keepOpenHostPages)
  );
});

// A host page opened before this worker started is not in the cache yet:
// it is fetched and kept now, while the network is there.
function keepOpenHostPages() {
  return self.clients.matchAll({ type: "window" }).then(function (windows) {
    return Promise.all(windows.filter(function (w) { return isHostPage(w.url); }).map(function (w) {
      return fromCache(w.url).then(function (kept) {
        if (kept) return;
        return fetch(w.url, { credentials: "same-origin", cache: "no-store" })
          .then(function (response) { if (response.ok) return keepHostPage(w.url, response); })
          .catch(function () { /* gone already: kept on its next load */ });
      });
    }));
  });
}

function carryHostPages(name) {
  return caches.open(name).then(function (old) {
    return old.keys().then(function (requests) {
      return Promise.all(requests.filter(function (r) { return isHostPage(r.url); }).map(function (request) {
        return fetch(request.url, { credentials: "same-origin", cache: "no-store" })
          .then(function (response) { if (!response.ok) throw response; return response; })
          .catch(function () { return old.match(request, { ignoreVary: true }); })
          .then(function (response) { if (response) return keepHostPage(request.url, response); });
      }));
    });
  });
}

// Keeps a host page, and only the last few tables' pages.
function keepHostPage(url, response) {
  return caches.open(CACHE).then(function (cache) {
    return cache.put(url, response).then(function () { return cache.keys(); }).then(function (requests) {
      var pages = requests.filter(function (r) { return isHostPage(r.url); });
      return Promise.all(pages.slice(0, Math.max(0, pages.length - HOST_PAGES_KEPT)).map(function (r) {
        return cache.delete(r);
      }));
    });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(isHostPage(request.url) ? hostPage(event) : page(request));
  } else if (KEPT.has(url.href)) {
    event.respondWith(fromCache(url.href).then(function (kept) { return kept || fetch(request); }));
  }
});

function offlinePage() {
  return fromCache(FALLBACK).then(function (kept) { return kept || Response.error(); });
}

// Any other page: the network, else a copy kept at install (the offline page itself), else the offline page.
function page(request) {
  return fetch(request).catch(function () {
    return fromCache(request.url).then(function (kept) { return kept || offlinePage(); });
  });
}

// A host page: the network's answer, kept for later; the kept copy when the
// network fails, answers with a server error, or keeps the phone waiting.
function hostPage(event) {
  var request = event.request;
  return new Promise(function (resolve) {
    var done = false;
    function answer(response) { if (!done && response) { done = true; resolve(response); } }
    function kept(otherwise) {
      return fromCache(request.url).then(function (copy) { answer(copy || otherwise); });
    }
    fetch(request)
      .then(function (response) {
        if (response.ok) {
          var copy = response.clone();
          event.waitUntil(keepHostPage(request.url, copy));
          return answer(response);
        }
        return response.status >= 500 ? kept(response) : answer(response);
      })
      .catch(function () { return offlinePage().then(kept); });
    setTimeout(function () { kept(null); }, NETWORK_WAIT_MS);
  });
}
