(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("viewer-data").textContent);
  // The data's numbers are written densely (page_notation.py, number_text.py): each is
  // zero or more "more" digits then one "last" digit; read as in number_text.read_numbers.
  var LAST_DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ!#$%&'()*+";
  var MORE_DIGITS = "abcdefghijklmnopqrstuvwxyz,-./:;=>?@[]^_`{|}~";
  function readNumber(reader) {
    var value = 0, digit;
    while ((digit = MORE_DIGITS.indexOf(reader.text.charAt(reader.at))) >= 0) {
      value = value * MORE_DIGITS.length + digit + 1;
      reader.at++;
    }
    return value * LAST_DIGITS.length + LAST_DIGITS.indexOf(reader.text.charAt(reader.at++));
  }
  function readNumbers(text) {
    var reader = {text: text, at: 0}, numbers = [];
    while (reader.at < text.length) { numbers.push(readNumber(reader)); }
    return numbers;
  }
  function unzigzag(code) { return code % 2 ? -(code + 1) / 2 : code / 2; }
  // A number of thousandths written as the drawings write numbers (piece_templates.py's
  // format_milli): integers only, so the digits are exactly Python's.
  function formatMilli(value) {
    var text = value < 0 ? "-" : "";
    value = Math.abs(value);
    var fraction = value % 1000;
    text += String((value - fraction) / 1000);
    return fraction ? text + "." + String(fraction + 1000).slice(1).replace(/0+$/, "") : text;
  }
  // A template is [kinds, text, place, text, ..., text]: for each place, x or y (an offset
  // from the use's x or y, a JSON number) or s (the use's next name); x and y are
  // thousandths (piece_templates.py's decode_use).
  function fromTemplate(template, x, y, names) {
    var origin = {x: x, y: y}, text = template[1], name = 0;
    for (var i = 0; i < template[0].length; i++) {
      var kind = template[0][i];
      text += (kind === "s" ? names[name++] :
               formatMilli(origin[kind] + Math.round(template[2 + 2 * i] * 1000))) +
          template[3 + 2 * i];
    }
    return text;
  }
  // The pieces: a head each and the texts (page_notation.py's read_pieces). Head 0: the
  // next text; 1 + 3d: a change of the piece d + 1 before it, keeping its first and last
  // characters as the next two numbers say, the next text between; 3d: a change of the
  // piece d before it in several places; 2 + 3t: template t at
  // the x and y that follow (milli_code: the difference from where the template's last use
  // was plus how far that use moved), filling its gaps with the next texts.
  function readPieces(texts, heads, templates) {
    var numbers = readNumbers(heads), pieces = [], next = 0, places = {};
    function milli(code) {
      return code % 2 ? unzigzag((code - 1) / 2) : unzigzag(code / 2) * 1000;
    }
    for (var i = 0; i < numbers.length;) {
      var rest = Math.floor(numbers[i] / 3), kind = numbers[i] % 3;
      if (kind === 0 && rest) {
        // A change in several places: kept, removed, inserted lengths for each.
        var changed = pieces[pieces.length - rest], inserted = texts[next++], made = "";
        for (var at = 0, end = 0, place = i + 2; place < i + 2 + 3 * numbers[i + 1]; place += 3) {
          made += changed.slice(end, end + numbers[place]) +
              inserted.slice(at, at + numbers[place + 2]);
          end += numbers[place] + numbers[place + 1];
          at += numbers[place + 2];
        }
        pieces.push(made + changed.slice(end));
        i += 2 + 3 * numbers[i + 1];
      } else if (kind === 0) {
        pieces.push(texts[next++]);
        i += 1;
      } else if (kind === 1) {
        var base = pieces[pieces.length - 1 - rest];
        pieces.push(base.slice(0, numbers[i + 1]) + texts[next++] +
                    base.slice(base.length - numbers[i + 2]));
        i += 3;
      } else {
        var template = templates[rest], gaps = template[0].split("s").length - 1;
        var last = places[rest] || [0, 0, 0, 0];
        var x = last[0] + last[2] + milli(numbers[i + 1]);
        var y = last[1] + last[3] + milli(numbers[i + 2]);
        places[rest] = [x, y, x - last[0], y - last[1]];
        pieces.push(fromTemplate(template, x, y, texts.slice(next, next + gaps)));
        next += gaps;
        i += 3;
      }
    }
    return pieces;
  }
  // Frames, one per step (page_notation.py's read_frames): each its number of edits, then
  // each edit: its distance from the end of the one before, how many it removes, how many
  // it adds, and each added number as zig-zag of its distance from one more than the number
  // read before it. A frame is returned as a list of edits [at, removed, ...added].
  function readFrames(text) {
    var numbers = readNumbers(text), frames = [], previous = -1;
    for (var i = 0; i < numbers.length;) {
      var frame = [];
      for (var count = numbers[i++], end = 0; count > 0; count--) {
        var edit = [end + numbers[i], numbers[i + 1]], added = numbers[i + 2];
        end = edit[0] + edit[1];
        for (i += 3; added > 0; added--) {
          previous += 1 + unzigzag(numbers[i++]);
          edit.push(previous);
        }
        frame.push(edit);
      }
      frames.push(frame);
    }
    return frames;
  }
  // A drawing shown alone (the game's key): its lines' pieces and their numbers, each the
  // zig-zag distance from one more than the number before it (page_notation.py's
  // read_drawing).
  function readDrawing(written) {
    var pieces = readPieces(written.texts, written.heads, written.templates), previous = -1;
    return readNumbers(written.lines).map(function (code) {
      previous += 1 + unzigzag(code);
      return pieces[previous];
    }).join("");
  }
  data.pieces = readPieces(data.piece_texts, data.piece_heads, data.templates);
  data.frames = readFrames(data.frames);
  data.layers = data.layers.map(readFrames);
  // A step's position string is whole (the first), or edits of its parent's cut into
  // tokens (the runs between "/", spaces and commas, and those), applied last first: each
  // edit its distance from the end of the one before, how many tokens it removes, the
  // length of the text it adds, and that text (page_notation.py's read_text_edits). A
  // parent always comes before its children.
  function readTextEdits(before, written) {
    var tokens = before.match(/[^\/ ,]+|[\/ ,]/g) || [], found = [], end = 0;
    var reader = {text: written, at: 0};
    while (reader.at < written.length) {
      var at = end + readNumber(reader), removed = readNumber(reader);
      var length = readNumber(reader), text = written.slice(reader.at, reader.at + length);
      found.push([at, removed].concat(text.match(/[^\/ ,]+|[\/ ,]/g) || []));
      end = at + removed;
      reader.at += length;
    }
    for (var f = found.length - 1; f >= 0; f--) {
      Array.prototype.splice.apply(tokens, found[f]);
    }
    return tokens.join("");
  }
  data.fens.forEach(function (written, step) {
    if (data.parents[step] >= 0) {
      data.fens[step] = readTextEdits(data.fens[data.parents[step]], written);
    }
  });
  var viewer = document.getElementById("viewer");
  var key = document.querySelector("details.legend");
  if (key && data.legend) { key.insertAdjacentHTML("beforeend", readDrawing(data.legend)); }
  var board = document.getElementById("board");
  var status = document.getElementById("status");
  var fen = document.getElementById("fen");
  // What each mark set's drawings are rebuilt from, per step once rebuilt: the plain
  // drawings' piece numbers (set 0), each other set's layers.
  var known = data.marks.map(function () { return {}; });
  var variant = 0, current = -1, flipped = false, timer = null;

  // A step's plain drawing is its parent's with the step's frame's edits made; its layer in
  // mark set v > 0 is its parent's layer in v with the step's layer frame's edits made (the
  // first step's from nothing); its drawing in v is its drawing in the set v's layers are
  // made over (layer_bases: the plain set, or one with an option fewer) with the layer's
  // edits made: a layer is, for each edit, its distance from the end of the one before, how
  // many pieces it removes, how many it adds and those (drawings.py's layer_numbers;
  // viewer.py's frame_numbers does the same).
  function edited(pieces, ops) {
    pieces = pieces.slice();
    for (var i = ops.length - 1; i >= 0; i--) {
      var op = ops[i];
      Array.prototype.splice.apply(pieces, [op[0], op[1]].concat(op.slice(2)));
    }
    return pieces;
  }

  function numbersOf(cache, frames, step) {
    // The numbers of step in one sequence of frames, rebuilt from the nearest known step.
    var chain = [];
    while (step >= 0 && !cache[step]) {
      chain.push(step);
      step = data.parents[step];
    }
    var numbers = step >= 0 ? cache[step] : [];
    for (var c = chain.length - 1; c >= 0; c--) {
      numbers = cache[chain[c]] = edited(numbers, frames[chain[c]]);
    }
    return numbers;
  }

  function layerEdits(layer) {
    var ops = [];
    for (var i = 0, end = 0; i < layer.length; i += 3 + layer[i + 2]) {
      var at = end + layer[i];
      ops.push([at, layer[i + 1]].concat(layer.slice(i + 3, i + 3 + layer[i + 2])));
      end = at + layer[i + 1];
    }
    return ops;
  }

  function drawing(v, step) {
    if (v === 0) { return numbersOf(known[0], data.frames, step); }
    return edited(drawing(data.layer_bases[v - 1], step),
                  layerEdits(numbersOf(known[v], data.layers[v - 1], step)));
  }

  // The main line's steps in order: step mainLine[n] is the position after ply n.
  var mainLine = [0];
  while (data.next[mainLine[mainLine.length - 1]] >= 0) {
    mainLine.push(data.next[mainLine[mainLine.length - 1]]);
  }

  function uprightText() {
    // The board turns half a circle when flipped; each text turns back about its centre.
    board.querySelectorAll("svg text").forEach(function (text) {
      var box = text.getBBox();
      var turn = "rotate(180 " + (box.x + box.width / 2) + " " + (box.y + box.height / 2) + ")";
      text.setAttribute("transform", turn + " " + (text.getAttribute("transform") || ""));
    });
  }

  function fitBoard() {
    // The board is as large as the screen's height allows, but never so small that its
    // smallest label is under 11 CSS px: then the board's frame scrolls instead.
    var svg = board.querySelector("svg");
    if (!svg || !svg.viewBox || !svg.viewBox.baseVal || !svg.viewBox.baseVal.width) { return; }
    var box = svg.viewBox.baseVal, smallest = Infinity;
    svg.querySelectorAll("text").forEach(function (text) {
      var size = parseFloat(text.getAttribute("font-size") || getComputedStyle(text).fontSize);
      if (size > 0 && size < smallest) { smallest = size; }
    });
    var minimum = smallest < Infinity ? box.width * 11 / smallest : 0;
    var controls = document.getElementById("controls").offsetHeight +
        document.getElementById("settings").offsetHeight + 24;
    var top = Math.max(board.getBoundingClientRect().top + window.scrollY, 0);
    var room = (window.innerHeight - Math.min(top, window.innerHeight / 3) - controls);
    var byHeight = room * box.width / box.height;
    board.style.setProperty("--board-min", Math.ceil(minimum) + "px");
    document.getElementById("board-panel").style.maxWidth =
        Math.max(Math.floor(byHeight), Math.ceil(minimum), 240) + "px";
    // A board kept large for its labels scrolls in its frame, so that the controls under
    // it stay on the first screen.
    document.getElementById("board-frame").style.maxHeight = Math.max(Math.floor(room), 240) + "px";
  }

  function label(step) {
    // A move's status line is [ply, side]: its text is the move list's.
    var given = data.labels[step];
    if (typeof given === "string") { return given; }
    var span = document.querySelector('.move[data-step="' + step + '"]');
    return "ply " + given[0] + ", " + data.sides[given[1]] + ": " + (span ? span.textContent : "");
  }

  function show(step) {
    if (step < 0 || step >= data.parents.length) { return; }
    board.innerHTML = drawing(variant, step).map(function (n) {
      return data.pieces[n];
    }).join("");
    if (flipped) { uprightText(); }
    var old = document.querySelector(".move.current");
    if (old) { old.classList.remove("current"); }
    var span = document.querySelector('.move[data-step="' + step + '"]');
    if (span) {
      span.classList.add("current");
      var list = document.getElementById("moves");
      var top = span.offsetTop - list.offsetTop;
      if (top < list.scrollTop || top > list.scrollTop + list.clientHeight - span.offsetHeight) {
        list.scrollTop = Math.max(top - list.clientHeight / 2, 0);
      }
    }
    current = step;
    status.textContent = data.messages[step] || label(step);
    status.className = data.messages[step] ? "stop" : "";
    fen.value = data.fens[step] || "";
    var ply = mainLine.indexOf(step);
    var hash = ply >= 0 ? "#ply=" + ply : "#step=" + step;
    if (window.location.hash !== hash && window.history && window.history.replaceState) {
      try { window.history.replaceState(null, "", hash); } catch (e) { /* file:// in a frame */ }
    }
  }

  function lineEnd(step) {
    while (data.next[step] >= 0) { step = data.next[step]; }
    return step;
  }

  function fromHash() {
    var match = /^#(ply|step)=(\d+)$/.exec(window.location.hash);
    if (!match) { return 0; }
    var n = parseInt(match[2], 10);
    if (match[1] === "ply") { return mainLine[Math.min(n, mainLine.length - 1)]; }
    return n < data.parents.length ? n : 0;
  }

  function stop() {
    if (timer !== null) { clearInterval(timer); timer = null; }
    var play = document.getElementById("play");
    play.classList.remove("on");
    play.textContent = "\u25b7";
  }

  var actions = {
    first: function () { stop(); show(0); },
    back: function () { stop(); if (data.parents[current] >= 0) { show(data.parents[current]); } },
    forward: function () { if (data.next[current] >= 0) { show(data.next[current]); } },
    last: function () { stop(); show(lineEnd(current)); },
    play: function () {
      if (timer !== null) { stop(); return; }
      if (data.next[current] < 0) { show(0); }
      document.getElementById("play").classList.add("on");
      document.getElementById("play").textContent = "\u275a\u275a";
      timer = setInterval(function () {
        if (data.next[current] < 0) { stop(); } else { show(data.next[current]); }
      }, parseInt(document.getElementById("speed").value, 10));
    },
    flip: function () {
      flipped = !flipped;
      board.classList.toggle("flipped", flipped);
      document.getElementById("flip").classList.toggle("on", flipped);
      show(current);
    },
    copy: function () {
      fen.select();
      if (navigator.clipboard && navigator.clipboard.writeText) {
        navigator.clipboard.writeText(fen.value).catch(function () {
          try { document.execCommand("copy"); } catch (e) { /* selected: copy by hand */ }
        });
      } else {
        try { document.execCommand("copy"); } catch (e) { /* selected: copy by hand */ }
      }
    }
  };
  Object.keys(actions).forEach(function (id) {
    document.getElementById(id).addEventListener("click", actions[id]);
  });
  document.getElementById("speed").addEventListener("change", function () {
    if (timer !== null) { stop(); actions.play(); }
  });
  var keys = {ArrowLeft: "back", ArrowRight: "forward", Home: "first", End: "last",
              " ": "play", f: "flip"};
  // Keys act only while the viewer has the focus, and not while a field of it is in use.
  viewer.addEventListener("keydown", function (event) {
    var tag = event.target.tagName, type = event.target.type;
    if (event.altKey || event.ctrlKey || event.metaKey || !keys[event.key] ||
        (tag === "INPUT" && type !== "checkbox") || tag === "SELECT" || tag === "TEXTAREA" ||
        (event.key === " " && (tag === "BUTTON" || tag === "INPUT"))) { return; }
    event.preventDefault();
    actions[keys[event.key]]();
  });
  // A played move of the main line with nothing beside it is written <i>text</i>, for a
  // page a fifth shorter in moves (viewer.py's _Builder.rows): its cell and its span are
  // made here, before the moves are numbered, as the other moves' cells are written.
  document.querySelectorAll("#moves .moverows > i").forEach(function (short) {
    var cell = document.createElement("div");
    var span = document.createElement("span");
    span.className = "move played";
    span.textContent = short.textContent;
    cell.appendChild(span);
    short.parentNode.replaceChild(cell, short);
  });
  // The played moves (and the move the replay stopped at) are the steps after the start,
  // in the list's order (viewer.py's _Builder._move_cell).
  document.querySelectorAll("#moves .move.played, #moves .move.stop").forEach(
    function (span, index) {
      span.setAttribute("data-step", String(index + 1));
      span.tabIndex = -1;
    });
  document.getElementById("moves").addEventListener("click", function (event) {
    var span = event.target.closest ? event.target.closest(".move[data-step]") : null;
    if (span) { stop(); show(parseInt(span.getAttribute("data-step"), 10)); }
  });
  var size = document.getElementById("size");
  function resize() { board.style.setProperty("--board-size", size.value + "%"); }
  try {
    var saved = window.localStorage.getItem("notation-tools-board-size");
    if (saved) { size.value = saved; }
  } catch (e) { /* no storage from file:// in some browsers */ }
  size.addEventListener("input", function () {
    resize();
    try { window.localStorage.setItem("notation-tools-board-size", size.value); } catch (e) { }
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
  window.addEventListener("hashchange", function () { show(fromHash()); });
  window.addEventListener("resize", fitBoard);
  variant = chosenVariant();
  resize();
  show(fromHash());
  fitBoard();
  if (viewer.focus) { viewer.focus({preventScroll: true}); }
}());
