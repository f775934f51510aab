// Keeps a table page current: polls the table's state once a second (the
// server answers 304 while nothing changed) and swaps in the new panel; on the
// host page, Reveal and Undo are sent without leaving the page.
(function () {
  "use strict";
  var root = document.getElementById("table");
  if (!root) return;
  var pollMs = parseInt(root.dataset.pollMs, 10) || 1000;
  var busy = false;

  function panel() { return document.getElementById("panel"); }
  function taps() { return parseInt(panel().dataset.taps, 10); }

  // The host's dock is fixed to the bottom of the screen: the page ends above it.
  function fitDock() {
    var dock = document.getElementById("dock");
    if (dock) document.body.style.setProperty("--dock", dock.offsetHeight + "px");
    return dock;
  }

  // A new card whose title is off screen (above the top, or below the dock) is
  // brought into view; one already in view stays where it is.
  function showNewCard() {
    var card = panel().querySelector(".turn .card");
    if (!card) return;
    var dock = fitDock();
    var bottom = window.innerHeight - (dock ? dock.offsetHeight : 0);
    var top = card.getBoundingClientRect().top;
    if (top < 0 || top + 48 > bottom) card.scrollIntoView({ block: "start", behavior: "smooth" });
  }

  function showMessage(text) {
    var box = panel().querySelector(".message");
    if (!box) return;
    box.textContent = text;
    box.hidden = !text;
  }

  function refresh(message) {
    return fetch(root.dataset.panelUrl, { headers: { Accept: "text/html" }, cache: "no-store" })
      .then(function (r) { return r.ok ? r.text() : Promise.reject(r); })
      .then(function (html) {
        var holder = document.createElement("div");
        holder.innerHTML = html;
        var fresh = holder.querySelector("#panel");
        var before = taps();
        if (fresh) panel().replaceWith(fresh);
        // Once cards are out, fold the invitation away so the card is what the host sees.
        var invite = document.querySelector("details.invite");
        if (invite && taps() > 0) invite.open = false;
        if (message) showMessage(message);
        fitDock();
        if (taps() > before) showNewCard();
      });
  }

  function poll() {
    if (busy || document.hidden) return schedule();
    fetch(root.dataset.stateUrl, { headers: { Accept: "application/json" }, cache: "no-cache" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (state) {
        if (state && state.taps !== taps() && !busy) return refresh();
      })
      .catch(function () { /* offline for a moment: try again next time */ })
      .then(schedule, schedule);
  }

  function schedule() { window.setTimeout(poll, pollMs); }

  // Host: send the form in the background; the server refuses a second tap with 409.
  root.addEventListener("submit", function (event) {
    var form = event.target.closest("form.act");
    if (!form) return;
    event.preventDefault();
    if (busy) return;
    busy = true;
    form.querySelectorAll("button").forEach(function (b) { b.disabled = true; });
    fetch(form.action, {
      method: "POST",
      body: new FormData(form),
      headers: { Accept: "application/json" },
    })
      .then(function (r) {
        return r.json().catch(function () { return {}; }).then(function (body) {
          return refresh(r.ok ? "" : body.error || root.dataset.textFailed);
        });
      })
      .catch(function () {
        form.querySelectorAll("button").forEach(function (b) { b.disabled = false; });
        showMessage(root.dataset.textOffline);
      })
      .then(function () { busy = false; });
  });

  fitDock();
  window.addEventListener("resize", fitDock);
  schedule();
})();
