// The score page: each score line's button shows its spaces on the map.
"use strict";
document.querySelectorAll(".score-line[data-show]").forEach(function (b) {
  b.addEventListener("click", function () {
    var board = document.getElementById("score-board");
    board.className = "board show-" + b.dataset.show;
    document.querySelectorAll(".score-line[data-show]").forEach(function (o) { o.setAttribute("aria-pressed", String(o === b)); });
  });
});

// The Giant Troll Ravage's choice: the space its select names is crossed on the map.
(function () {
  var troll = document.getElementById("troll-space");
  if (!troll) return;
  function mark() {
    document.querySelectorAll("#score-board .cell.chosen").forEach(function (c) { c.classList.remove("chosen"); });
    var cell = document.querySelector('#score-board .cell[data-i="' + troll.value + '"]');
    if (cell) cell.classList.add("chosen");
  }
  // The select sits under the map: the cross of a space chosen there, when it is above the
  // screen's top, scrolls into view just under it (what the player chose is what they see).
  function show() {
    var cell = document.querySelector("#score-board .cell.chosen");
    var top = cell ? cell.getBoundingClientRect().top : 0;
    if (top < 0) window.scrollBy(0, top - 8);
  }
  troll.addEventListener("change", function () { mark(); show(); });
  mark();
})();
