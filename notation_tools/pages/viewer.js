(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("viewer-data").textContent);
  var board = document.getElementById("board");
  var status = document.getElementById("status");
  var known = data.marks.map(function () { return {}; });
  var variant = 0, current = -1;

  function drawing(v, step) {
    var chain = [];
    while (step >= 0 && !known[v][step]) { chain.push(step); step = data.parents[step]; }
    var pieces = step >= 0 ? known[v][step] : [];
    for (var c = chain.length - 1; c >= 0; c--) {
      pieces = pieces.slice();
      var ops = data.frames[v][chain[c]];
      for (var i = ops.length - 1; i >= 0; i--) {
        var op = ops[i];
        Array.prototype.splice.apply(pieces, [op[0], op[1]].concat(op.slice(2)));
      }
      known[v][chain[c]] = pieces;
    }
    return pieces;
  }

  function show(step) {
    if (step < 0 || step >= data.parents.length) { return; }
    board.innerHTML = drawing(variant, step).map(function (n) {
      return data.pieces[n];
    }).join("");
    var old = document.querySelector(".move.current");
    if (old) { old.classList.remove("current"); }
    var span = document.querySelector('.move[data-step="' + step + '"]');
    if (span) {
      span.classList.add("current");
      if (span.scrollIntoView) { span.scrollIntoView({block: "nearest"}); }
    }
    current = step;
    status.textContent = data.messages[step] || data.labels[step];
    status.className = data.messages[step] ? "stop" : "";
  }

  function lineEnd(step) {
    while (data.next[step] >= 0) { step = data.next[step]; }
    return step;
  }

  var actions = {
    first: function () { show(0); },
    back: function () { if (data.parents[current] >= 0) { show(data.parents[current]); } },
    forward: function () { if (data.next[current] >= 0) { show(data.next[current]); } },
    last: function () { show(lineEnd(current)); }
  };
  Object.keys(actions).forEach(function (id) {
    document.getElementById(id).addEventListener("click", actions[id]);
  });
  var keys = {ArrowLeft: "back", ArrowRight: "forward", Home: "first", End: "last"};
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey || !keys[event.key]) { return; }
    event.preventDefault();
    actions[keys[event.key]]();
  });
  document.getElementById("moves").addEventListener("click", function (event) {
    var span = event.target.closest ? event.target.closest(".move[data-step]") : null;
    if (span) { show(parseInt(span.getAttribute("data-step"), 10)); }
  });
  var boxes = document.querySelectorAll("#options input");
  function chosenVariant() {
    var names = [];
    boxes.forEach(function (box) { if (box.checked) { names.push(box.name); } });
    names.sort();
    var wanted = names.join(",");
    for (var v = 0; v < data.marks.length; v++) {
      if (data.marks[v].join(",") === wanted) { return v; }
    }
    return 0;
  }
  boxes.forEach(function (box) {
    box.addEventListener("change", function () { variant = chosenVariant(); show(current); });
  });
  variant = chosenVariant();
  show(0);
}());
