// The score page: each score line's button shows its spaces on the map.
"use strict";
document.querySelectorAll(".score-line[data-show]").forEach(function (b) {
  b.addEventListener("click", function () {
    var board = document.getElementById("score-board");
    board.className = "board show-" + b.dataset.show;
    document.querySelectorAll(".score-line[data-show]").forEach(function (o) { o.setAttribute("aria-pressed", String(o === b)); });
  });
});
