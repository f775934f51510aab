// The app without the network (loaded on every page, before table.js).
//
// - Registers the service worker (/sw.js, see static/js/sw.js), which keeps
//   the files and pages the host's dealer needs.
// - On the offline page, lists the host pages this phone has kept.
// - On the host's table page, fetches the whole deal once: the panel after
//   every number of reveals, rendered by the server. When the network is
//   gone, it takes Reveal and Undo over from table.js (the "referee:tap"
//   event), shows the next panel from the deal with an "Offline" mark, and
//   queues the tap in localStorage, so a reload keeps it. When the network is
//   back, it sends the queue oldest first, each tap saying how many reveals
//   it saw, as the page would have; the server refuses a stale one (409).
//   Then it stops, drops the rest of the queue and shows where the table
//   stands, with a sentence: a card is never skipped or revealed twice.
(function () {
  "use strict";
  var script = document.currentScript;
  if ("serviceWorker" in navigator && script && script.dataset.sw) {
    navigator.serviceWorker.register(script.dataset.sw).catch(function () {
      /* no worker (plain http on a network address): the pages work as before, online */
    });
  }

  var DEALS = "referee-deals"; // the service worker leaves this cache alone
  var DEALS_KEPT = 6; // as many as the host pages sw.js keeps
  var RETRY_MS = 3000;
  var WAIT_MS = 8000;

  // fetch, failing after WAIT_MS: a network that neither answers nor fails counts as gone.
  function fetchSoon(url, options) {
    var timeout = window.AbortSignal && AbortSignal.timeout;
    return fetch(url, Object.assign({ signal: timeout ? AbortSignal.timeout(WAIT_MS) : undefined }, options));
  }

  document.addEventListener("DOMContentLoaded", function () {
    listKeptTables();
    hostDealer();
  });

  // The offline page: links to the host pages the service worker kept.
  function listKeptTables() {
    var list = document.getElementById("kept-tables");
    var item = document.getElementById("kept-table");
    if (!list || !item || !window.caches) return;
    // Back online (said the browser, which may be wrong): reload once the server answers.
    window.addEventListener("online", function () {
      fetchSoon(script.dataset.sw, { method: "HEAD", cache: "no-store" })
        .then(function (r) { if (r.ok) location.reload(); }, function () { /* not yet */ });
    });
    var shape = new RegExp(list.dataset.hostPage.split("*").map(function (part) {
      return part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    }).join("([^/]+)") + "$");
    caches.keys().then(function (names) {
      return Promise.all(names.filter(function (n) { return n.indexOf("referee-") === 0 && n !== DEALS; })
        .map(function (name) { return caches.open(name).then(function (c) { return c.keys(); }); }));
    }).then(function (lists) {
      var seen = {};
      lists.forEach(function (requests) {
        requests.forEach(function (request) {
          var match = shape.exec(new URL(request.url).pathname);
          if (!match || seen[request.url]) return;
          seen[request.url] = true;
          var entry = item.content.cloneNode(true);
          entry.querySelector("a").href = request.url;
          entry.querySelector(".join-code").textContent = decodeURIComponent(match[1]);
          list.appendChild(entry);
        });
      });
      if (list.children.length) list.hidden = false;
    });
  }

  function hostDealer() {
    var root = document.getElementById("table");
    if (!root || root.dataset.mode !== "host" || !root.dataset.dealUrl) return;
    var KEY = "referee-offline:" + root.dataset.code;
    var dealUrl = root.dataset.dealUrl;
    var deal = null; // {code, taps, total, csrf, panels}
    var record = load(); // {taps: shown last, queue: [{act, seen, sent}]}
    var offline = false; // dealing from the deal, the server out of reach
    var sending = false;
    var retry = 0;

    function panel() { return document.getElementById("panel"); }
    function shown() { return parseInt(panel().dataset.taps, 10); }
    function after(entry) { return entry.act === "reveal" ? entry.seen + 1 : entry.seen - 1; }

    function load() {
      try {
        var kept = JSON.parse(localStorage.getItem(KEY));
        if (kept && Array.isArray(kept.queue)) return kept;
      } catch (e) { /* nothing kept, or unreadable: start afresh */ }
      return { taps: null, queue: [] };
    }
    function save() {
      try { localStorage.setItem(KEY, JSON.stringify(record)); } catch (e) { /* storage full or refused */ }
    }

    // The page as it stands: held (table.js leaves the panel alone) while
    // offline or while taps wait to be sent, and the mark showing it.
    function mark() {
      var held = offline || record.queue.length > 0;
      if (held) root.setAttribute("data-offline", offline ? "offline" : "sending");
      else root.removeAttribute("data-offline");
      var badge = panel().querySelector(".offline-mark");
      if (badge) badge.hidden = !held;
      // This phone deals from its own deal: its card is the latest, whatever the stream says.
      var reconnecting = document.getElementById("reconnecting");
      if (held && reconnecting) reconnecting.hidden = true;
      var dock = document.getElementById("dock");
      if (dock) document.body.style.setProperty("--dock", dock.offsetHeight + "px");
    }

    // The panel after n reveals, from the deal, swapped in by table.js as it
    // swaps in the server's (the invitation folded, the new card in view).
    function show(n, message) {
      root.dispatchEvent(new CustomEvent("referee:panel", { detail: { html: deal.panels[n], message: message } }));
      mark();
    }

    // A tap made without the server: shown at once, sent later. A tap and its
    // opposite cancel out while neither has been sent.
    function take(act, seen, sent) {
      var next = act === "reveal" ? seen + 1 : seen - 1;
      if (next < 0 || next > deal.total) return;
      var queue = record.queue;
      var last = queue[queue.length - 1];
      if (last && !last.sent && last.act !== act && last.seen === next) queue.pop();
      else queue.push({ act: act, seen: seen, sent: sent });
      record.taps = next;
      save();
      show(next);
      if (!offline) send();
    }

    function goOffline() {
      offline = true;
      sending = false;
      mark();
      window.clearTimeout(retry);
      retry = window.setTimeout(reconnect, RETRY_MS);
    }

    function fetchDeal() {
      return fetchSoon(dealUrl, { headers: { Accept: "application/json" }, cache: "no-store" })
        .then(function (r) { return r.ok ? r.json() : Promise.reject(r); });
    }
    function keepDeal(fresh) {
      if (!window.caches) return;
      var body = JSON.stringify(fresh);
      caches.open(DEALS).then(function (cache) {
        return cache.put(dealUrl, new Response(body, { headers: { "Content-Type": "application/json" } }))
          .then(function () { return cache.keys(); })
          .then(function (requests) {
            requests.slice(0, Math.max(0, requests.length - DEALS_KEPT)).forEach(function (r) { cache.delete(r); });
          });
      }).catch(function () { /* no room: the deal stays in this page only */ });
    }
    function keptDeal() {
      if (!window.caches) return Promise.resolve(null);
      return caches.open(DEALS)
        .then(function (cache) { return cache.match(dealUrl); })
        .then(function (r) { return r ? r.json() : null; })
        .catch(function () { return null; });
    }

    // The network is back, maybe: the deal afresh (its form token is this
    // session's, even if the browser was closed meanwhile), then the queue.
    function reconnect() {
      window.clearTimeout(retry);
      if (sending) return;
      sending = true;
      fetchDeal().then(function (fresh) {
        deal = fresh;
        keepDeal(fresh);
        offline = false;
        sending = false;
        if (!record.queue.length) record.taps = fresh.taps;
        send();
      }, failed);
    }

    // A request that did not get through: the network is gone (try again
    // soon), or the server answered that it never will (the table expired,
    // the link is not the host's): then the queued taps are dropped, with its sentence.
    function failed(answer) {
      if (!(answer instanceof Response) || answer.status >= 500) return goOffline();
      return answer.json().catch(function () { return {}; }).then(function (body) {
        record.queue = [];
        save();
        sending = false;
        offline = false;
        mark();
        var box = panel().querySelector(".message");
        if (box) { box.textContent = body.error || root.dataset.offlineConflict; box.hidden = false; }
      });
    }

    function post(entry) {
      var form = panel().querySelector('form[data-act="' + entry.act + '"]');
      var body = new FormData(form);
      body.set("csrf_token", deal.csrf);
      body.set("taps", String(entry.seen));
      return fetchSoon(form.action, { method: "POST", body: body, headers: { Accept: "application/json" } });
    }

    // Sends the oldest queued tap, then the next, until none is left.
    function send() {
      if (sending || offline) return;
      var entry = record.queue[0];
      if (!entry) return settled(record.taps, "");
      var uncertain = entry.sent; // sent before, its answer lost: the server may have it already
      entry.sent = true;
      save();
      sending = true;
      post(entry).then(function (r) {
        if (r.ok) return done(entry);
        if (r.status === 409) return refused(entry, uncertain, root.dataset.offlineConflict);
        if (r.status >= 500) return goOffline();
        return r.json().catch(function () { return {}; }).then(function (answer) {
          return refused(entry, false, answer.error || root.dataset.offlineConflict);
        });
      }).catch(goOffline);
    }

    function done(entry) {
      if (record.queue[0] === entry) record.queue.shift();
      save();
      sending = false;
      send();
    }

    // The server would not take a queued tap: where does the table stand?
    // If it stands where this tap would have put it and the tap had been sent
    // before, its answer was lost: it counts as done. Otherwise the table moved
    // on without this phone: the rest of the queue is dropped, never forced.
    function refused(entry, uncertain, sentence) {
      return fetchSoon(root.dataset.stateUrl, { headers: { Accept: "application/json" }, cache: "no-store" })
        .then(function (r) { return r.ok ? r.json() : Promise.reject(r); })
        .then(function (state) {
          if (uncertain && state.taps === after(entry)) return done(entry);
          record.queue = [];
          save();
          settled(state.taps, sentence);
        }, failed);
    }

    // Back in step with the server, at n reveals.
    function settled(n, message) {
      sending = false;
      offline = false;
      record.taps = n;
      save();
      if (n >= 0 && n <= deal.total) show(n, message);
      mark();
    }

    // Taps table.js cannot send: the network is gone, the tap just failed on
    // the way, or earlier taps still wait (order matters).
    document.addEventListener("referee:tap", function (event) {
      if (!deal) return;
      var failed = Boolean(event.detail && event.detail.failed);
      var held = offline || record.queue.length > 0;
      if (!failed && !held && navigator.onLine !== false) return;
      event.preventDefault();
      var form = event.target;
      if (failed || navigator.onLine === false) {
        offline = true;
        window.clearTimeout(retry);
        retry = window.setTimeout(reconnect, RETRY_MS);
      }
      take(form.dataset.act, parseInt(form.elements.taps.value, 10), failed);
    });

    window.addEventListener("offline", function () { if (deal) goOffline(); });
    window.addEventListener("online", function () { if (deal && offline) reconnect(); });

    // Where this phone stands, kept whenever the panel changes, so a reload
    // offline (the page then comes from the service worker, as it was when
    // last loaded) shows the last card this phone showed.
    new MutationObserver(function () {
      if (!offline && !record.queue.length) { record.taps = shown(); save(); }
    }).observe(root, { childList: true });

    fetchDeal().then(function (fresh) {
      deal = fresh;
      keepDeal(fresh);
      if (record.queue.length) {
        show(record.taps);
        send();
      } else {
        record.taps = fresh.taps;
        save();
      }
    }, function () {
      return keptDeal().then(function (kept) {
        if (!kept) return; // this phone never loaded the deal: nothing to deal from
        deal = kept;
        var n = typeof record.taps === "number" && record.taps >= 0 && record.taps <= kept.total
          ? record.taps : shown();
        offline = true;
        show(n);
        goOffline();
      });
    });
  }
})();
