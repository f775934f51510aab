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
  troll.addEventListener("change", mark);
  mark();
})();
