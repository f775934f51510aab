// Keeps a table page current. The server pushes each reveal over an event
// stream (EventSource, /t/<code>/events): a follower or TV is sent the new
// panel itself, the host the number of taps. While the stream is down, or
// where EventSource is missing, the page polls the table's state once a second
// (the server answers 304 while nothing changed) and fetches the new panel.
// When neither answers, a "reconnecting" mark says the card may be stale.
// On the host page, Reveal and Undo are sent without leaving the page.
(function () {
  "use strict";
  var root = document.getElementById("table");
  if (!root) return;
  // The photo page's link to the side switch (for the host) opens it.
  var sideSwitch = document.getElementById("change-side");
  if (sideSwitch && window.location.hash === "#change-side") sideSwitch.open = true;
  var pollMs = parseInt(root.dataset.pollMs, 10) || 1000;
  var busy = false;
  var streaming = false; // the stream is open: no need to poll
  var polling = false; // the polling loop is running
  var STREAM_WAIT_MS = 5000; // a stream not open by then (a buffering proxy?): poll meanwhile
  var RESTREAM_MS = 30000; // after the server refused a stream, poll this long before trying again
  var CHECK_MS = 30000; // while streaming, ask once in a while whether the stream missed a reveal
  var stream = null; // the EventSource, while the page has one

  function panel() { return document.getElementById("panel"); }
  function taps() { return parseInt(panel().dataset.taps, 10); }

  // The host's dock is fixed to the bottom of the screen: the page ends above it.
  function fitDock() {
    var dock = document.getElementById("dock");
    if (dock) document.body.style.setProperty("--dock", dock.offsetHeight + "px");
    return dock;
  }

  // A new card whose title is off screen (above the top, or below the dock) is
  // brought into view, with the ruins strip above it (which ruins revealed it,
  // and whether they still wait); one already in view stays where it is.
  function showNewCard() {
    var turn = panel().querySelector(".turn");
    var card = turn && turn.querySelector(".card");
    if (!card) return;
    var dock = fitDock();
    var bottom = window.innerHeight - (dock ? dock.offsetHeight : 0);
    var top = card.getBoundingClientRect().top;
    var strip = turn.querySelector(".ruins-strip");
    var stripTop = strip ? strip.getBoundingClientRect().top : top;
    if (stripTop < 0 || top + 48 > bottom) turn.scrollIntoView({ block: "start", behavior: "smooth" });
  }

  // Once cards are out, the invitation folds and goes to the page's foot, where
  // the page puts it from the first card on: the card is what the host sees
  // first, and a latecomer is still invited from there.
  function inviteAside() {
    var invite = document.querySelector("details.invite");
    if (!invite || taps() === 0) return;
    invite.open = false;
    if (invite.parentElement.lastElementChild !== invite) invite.parentElement.appendChild(invite);
  }

  function showMessage(text) {
    var box = panel().querySelector(".message");
    if (!box) return;
    box.textContent = text;
    box.hidden = !text;
  }

  // Swap in a panel (the HTML of #panel, from the stream or the panel URL).
  function showPanel(html, message) {
    var holder = document.createElement("div");
    holder.innerHTML = html;
    var fresh = holder.querySelector("#panel");
    var before = taps();
    // The host switched the table's map side: the page's own lines (the side
    // named under the panel, the sheets' links) are the old side's, so the
    // whole page is loaded again, once.
    if (fresh && fresh.dataset.mapSide !== panel().dataset.mapSide) return window.location.reload();
    if (fresh) panel().replaceWith(fresh);
    inviteAside();
    if (message) showMessage(message);
    // A new card: the set-up's notes ("Table ... is ready", a side switched)
    // have been read, and would push every card after it down the screen.
    if (taps() > before) {
      document.querySelectorAll(".flash").forEach(function (note) { note.remove(); });
    }
    fitDock();
    if (taps() > before) showNewCard();
  }

  function refresh(message) {
    if (root.hasAttribute("data-offline")) return Promise.resolve(); // offline.js holds the panel
    return fetch(root.dataset.panelUrl, { headers: { Accept: "text/html" }, cache: "no-store" })
      .then(function (r) { return r.ok ? r.text() : Promise.reject(r); })
      .then(function (html) { showPanel(html, message); });
  }

  // The mark that the page has lost the server (shown) or has it again (hidden).
  function connected(yes) {
    var mark = document.getElementById("reconnecting");
    // The host's phone dealing offline (offline.js) shows the latest card: no mark.
    if (mark) mark.hidden = yes || root.hasAttribute("data-offline");
  }

  // --- Server push -----------------------------------------------------------
  function streamUrl() {
    var url = root.dataset.eventsUrl;
    return url + (url.indexOf("?") < 0 ? "?" : "&") + "taps=" + taps();
  }

  function startStream() {
    if (!window.EventSource || !root.dataset.eventsUrl) return startPolling();
    var source = new EventSource(streamUrl());
    stream = source;
    window.setTimeout(function () { if (!streaming) startPolling(); }, STREAM_WAIT_MS);
    source.onopen = function () {
      streaming = true;
      connected(true);
    };
    // A follower or TV: the new panel itself.
    source.addEventListener("panel", function (event) {
      if (!busy && parseInt(event.lastEventId, 10) !== taps()) showPanel(event.data);
    });
    // The host: how many taps; the host's own panel is fetched.
    source.addEventListener("taps", function (event) {
      if (!busy && parseInt(event.data, 10) !== taps()) refresh();
    });
    source.onerror = function () {
      streaming = false; // polling takes over until the stream is open again
      startPolling();
      if (source.readyState === EventSource.CLOSED) {
        // The server refused the stream (an error status): the browser gives
        // up on it, so the page polls and tries a new stream later.
        stream = null;
        window.setTimeout(startStream, RESTREAM_MS);
      }
    };
  }

  function restartStream() {
    if (stream) stream.close();
    streaming = false;
    startPolling();
    startStream();
  }

  // A stream can die without a word (a phone moving from Wi-Fi to mobile data
  // keeps a dead connection open), so now and then the page asks the state
  // itself; if the server does not answer, or the stream has still not brought
  // a reveal two seconds later, the page opens a new stream (polling covers
  // the gap).
  function checkStream() {
    if (!streaming || busy || document.hidden) return;
    fetch(root.dataset.stateUrl, { headers: { Accept: "application/json" }, cache: "no-cache" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (state) {
        if (!state || state.taps === taps()) return;
        window.setTimeout(function () {
          if (streaming && taps() !== state.taps) restartStream();
        }, 2000);
      })
      .catch(function () { if (streaming) restartStream(); });
  }

  // --- Polling, the fallback ---------------------------------------------------
  function startPolling() {
    if (polling) return;
    polling = true;
    schedule();
  }

  function poll() {
    if (streaming) { polling = false; return; } // the stream is back: it takes over
    if (busy || document.hidden) return schedule();
    fetch(root.dataset.stateUrl, { headers: { Accept: "application/json" }, cache: "no-cache" })
      .then(function (r) {
        if (r.status >= 500) return Promise.reject(r); // a proxy with no server behind it
        connected(true);
        return r.ok ? r.json() : null;
      })
      .then(function (state) {
        if (state && state.taps !== taps() && !busy) return refresh();
      })
      .catch(function () { if (!streaming) connected(false); /* try again next time */ })
      .then(schedule, schedule);
  }

  function schedule() { window.setTimeout(poll, pollMs); }

  // --- The game's end -------------------------------------------------------------
  // Once winter has ended the panel (the TV's, a follower's, the host's) names
  // who is still to score it, then shows the standings (data-standings). Those
  // come with scores, not with a reveal, so neither the stream nor the polled
  // state (both follow the taps) brings them: the page asks for its panel
  // itself, often while a score is awaited, and now and then once they are
  // shown (a winter scored again changes them). Not while the host's phone
  // deals offline: refresh leaves offline.js's panel alone.
  // The host and the TV ask often. A hall's thousand followers ask seldom, each
  // at its own moment (every 3 s, a thousand phones would be 333 requests a
  // second), and at once when the phone is looked at again: a phone picked up
  // from the table shows where the game stands.
  var follower = root.dataset.mode !== "host" && root.dataset.mode !== "tv";
  var STANDINGS_WAITING_MS = follower ? 12000 : 3000;
  var STANDINGS_SETTLED_MS = follower ? 60000 : 30000;
  function askStandings() {
    var ask = panel().dataset.standings && !busy && !document.hidden;
    return ask ? refresh().catch(function () {}) : Promise.resolve();
  }
  function watchStandings() {
    var settled = panel().dataset.standings === "settled";
    var wait = settled ? STANDINGS_SETTLED_MS : STANDINGS_WAITING_MS;
    if (follower) wait *= 0.75 + Math.random() / 2;
    window.setTimeout(function () { askStandings().then(watchStandings); }, wait);
  }
  document.addEventListener("visibilitychange", function () { if (!document.hidden) askStandings(); });

  // offline.js shows the panel of its own deal through this page's own swap,
  // so that a card dealt offline comes into view as one from the server does.
  root.addEventListener("referee:panel", function (event) {
    showPanel(event.detail.html, event.detail.message);
  });

  // offline.js takes a tap over (cancelling this event) when the network is gone or earlier taps wait.
  function offlineTakes(form, failed) {
    var detail = { bubbles: true, cancelable: true, detail: { failed: failed } };
    return !form.dispatchEvent(new CustomEvent("referee:tap", detail));
  }

  // Host: send the form in the background; the server refuses a second tap with 409.
  root.addEventListener("submit", function (event) {
    var form = event.target.closest("form.act");
    if (!form) return;
    event.preventDefault();
    if (busy || offlineTakes(form, false)) return;
    busy = true;
    form.querySelectorAll("button").forEach(function (b) { b.disabled = true; });
    askFirst(form).then(function (go) {
      if (go) return send(form);
      form.querySelectorAll("button").forEach(function (b) { b.disabled = false; });
      busy = false;
    });
  });

  // At a season's end: whether to start the next season while sheets are still
  // unscored, asked of the server at the tap (phones score meanwhile). With no
  // answer (a slow or lost connection) the tap goes ahead, as it would without a page script.
  function askFirst(form) {
    if (!form.dataset.askUrl) return Promise.resolve(true);
    return fetch(form.dataset.askUrl, {
      headers: { Accept: "application/json" },
      cache: "no-store",
      signal: window.AbortSignal && AbortSignal.timeout ? AbortSignal.timeout(4000) : undefined,
    })
      .then(function (r) { return r.ok ? r.json() : {}; })
      .then(function (body) { return !body.ask || window.confirm(body.ask); }, function () { return true; });
  }

  function send(form) {
    return fetch(form.action, {
      method: "POST",
      body: new FormData(form),
      headers: { Accept: "application/json" },
      signal: window.AbortSignal && AbortSignal.timeout ? AbortSignal.timeout(8000) : undefined,
    })
      .then(function (r) {
        return r.json().catch(function () { return {}; }).then(function (body) {
          return refresh(r.ok ? "" : body.error || root.dataset.textFailed);
        });
      })
      .catch(function () {
        if (offlineTakes(form, true)) return;
        form.querySelectorAll("button").forEach(function (b) { b.disabled = false; });
        showMessage(root.dataset.textOffline);
      })
      .then(function () { busy = false; });
  }

  // The invitation opened at the page's foot unfolds below the host's dock:
  // it comes up the screen, its code and QR code above the dock.
  var invite = document.querySelector("details.invite");
  if (invite) {
    invite.addEventListener("toggle", function () {
      if (invite.open && taps() > 0) invite.scrollIntoView({ block: "start", behavior: "smooth" });
    });
  }

  fitDock();
  window.addEventListener("resize", fitDock);
  startStream();
  window.setInterval(checkStream, CHECK_MS);
  watchStandings();
})();
