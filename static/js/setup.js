// The setup form: choosing a game that does not come with the map side
// checked checks that game's first side, so that Heroes is not refused
// for side A, the default. Without this script the server says which sides
// the game comes with, beside the field.
(function () {
  "use strict";
  var sides = document.getElementById("map_side");
  var edition = document.getElementById("edition");
  if (!sides || !edition) return;
  var games = JSON.parse(sides.parentNode.getAttribute("data-games") || "{}");
  edition.addEventListener("change", function () {
    var game = edition.querySelector("input:checked");
    var side = sides.querySelector("input:checked");
    if (!game) return;
    var own = Array.prototype.filter.call(sides.querySelectorAll("input"), function (input) {
      return games[input.value] === game.value;
    });
    if (own.length && (!side || games[side.value] !== game.value)) own[0].checked = true;
  });
})();
