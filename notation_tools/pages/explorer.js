// The opening explorer page (notation-tools explore --html): the tree of positions is the
// JSON in #explorer-data; a click on a move shows the position it leads to, "back" returns.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("explorer-data").textContent);
  var path = [data.root];
  var board = document.getElementById("board");
  var table = document.getElementById("next-moves");
  var trail = document.getElementById("trail");
  var status = document.getElementById("status");

  function cell(row, text, className) {
    var td = document.createElement("td");
    td.textContent = text === null || text === undefined ? "" : String(text);
    if (className) { td.className = className; }
    row.appendChild(td);
    return td;
  }

  function show() {
    var node = data.nodes[path[path.length - 1]];
    board.innerHTML = node.svg;
    status.textContent = node.games + " record(s) reach this position; " + node.side + " to move";
    trail.textContent = "";
    path.forEach(function (key, depth) {
      if (depth > 0) {
        var step = document.createElement("span");
        step.className = "move played";
        step.textContent = data.nodes[key].via;
        step.setAttribute("data-depth", String(depth));
        step.addEventListener("click", function () { path = path.slice(0, depth + 1); show(); });
        trail.appendChild(step);
        trail.appendChild(document.createTextNode(" "));
      }
    });
    document.getElementById("back").disabled = path.length < 2;
    var body = table.tBodies[0];
    body.textContent = "";
    node.moves.forEach(function (move) {
      var row = document.createElement("tr");
      var name = cell(row, move.move, "move");
      if (move.key !== null && data.nodes[String(move.key)]) {
        name.className = "move played";
        name.addEventListener("click", function () { path.push(String(move.key)); show(); });
      } else {
        name.className = "move unplayed";
        name.title = "not in this page (explore deeper from here with --moves)";
      }
      cell(row, move.games);
      cell(row, move.wins[0]);
      cell(row, move.draws);
      cell(row, move.wins[1]);
      cell(row, move.unfinished);
      cell(row, move.average_plies === null ? "" : move.average_plies.toFixed(1));
      cell(row, move.first_date);
      cell(row, move.last_date);
      cell(row, move.example.path + " #" + move.example.record);
      body.appendChild(row);
    });
    if (node.rest && node.rest.moves) {
      var more = document.createElement("tr");
      more.className = "rest";
      cell(more, node.rest.moves + " more moves (" + node.rest.games +
           " records) not listed: explore --top").colSpan = 10;
      body.appendChild(more);
    }
    if (!node.moves.length) {
      var empty = document.createElement("tr");
      cell(empty, "no move was played from here");
      body.appendChild(empty);
    }
  }

  document.getElementById("back").addEventListener("click", function () {
    if (path.length > 1) { path.pop(); show(); }
  });
  document.addEventListener("keydown", function (event) {
    if (event.key === "ArrowLeft" && path.length > 1) { path.pop(); show(); }
  });
  show();
}());
