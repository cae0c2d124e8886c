// The replayer of an exported arbo page: shows the positions the engine computed (the data block),
// never computes a rule or a score itself. Everything from the record goes in as text (textContent).
(function () {
  "use strict";

  var DATA = JSON.parse(document.getElementById("arbo-data").textContent);
  var HIDDEN = "??";
  var MAX_DEPTH = 6;

  var ui = {
    game: null, // the game shown (one of DATA.games), null on the game list
    lines: {}, // the shown game's lines by key
    line: "", // the cursor: a line key and how many of its turns are played
    index: 0,
    view: null, // whose view: null for every hand the record knows
    scoring: false, // the scoring "as if the game ended here" asked for
    species: null, // the species whose paths the grids highlight (null: every scored path)
    knowledge: false, // the knowledge panel shown
    timer: null, // the autoplay's interval while it plays
  };

  // -- small helpers --------------------------------------------------------------------------

  function $(id) {
    return document.getElementById(id);
  }

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function clear(node) {
    while (node.firstChild) node.removeChild(node.firstChild);
    return node;
  }

  function plural(count, word) {
    return count + " " + word + (count === 1 ? "" : "s");
  }

  function cardParts(code) {
    var match = /^([A-Za-z]{1,3})([1-8])$/.exec(code);
    return match ? { species: match[1], value: match[2] } : null;
  }

  function speciesName(code) {
    var found = ui.game.species.filter(function (s) { return s.code === code; })[0];
    return found ? found.name : code;
  }

  function cardNode(code, extra) {
    var parts = code === HIDDEN ? null : cardParts(code);
    var node = el("span", "card" + (extra ? " " + extra : ""));
    if (!parts) {
      node.className += " hidden";
      node.textContent = HIDDEN;
      node.title = "a card not known in this view";
      return node;
    }
    node.className += " sp-" + parts.species;
    node.appendChild(el("span", "code", parts.species));
    node.appendChild(el("span", "value", parts.value));
    node.title = speciesName(parts.species) + " " + parts.value;
    return node;
  }

  // -- where the cursor is --------------------------------------------------------------------

  function currentLine() {
    return ui.lines[ui.line];
  }

  function position(line, index) {
    var target = ui.lines[line === undefined ? ui.line : line];
    return ui.game.positions[target.positions[index === undefined ? ui.index : index]];
  }

  function childKey(lineKey, turnIndex, number) {
    var part = turnIndex + "." + number;
    return lineKey ? lineKey + "/" + part : part;
  }

  function moveTo(lineKey, index) {
    var line = ui.lines[lineKey];
    if (!line || index < 0 || index > line.legal) return false;
    if (lineKey === ui.line && index === ui.index) return false;
    ui.line = lineKey;
    ui.index = index;
    ui.species = null;
    show();
    return true;
  }

  function next() {
    return ui.index < currentLine().legal && moveTo(ui.line, ui.index + 1);
  }

  function previous() {
    var line = currentLine();
    if (ui.index > line.first) return moveTo(ui.line, ui.index - 1);
    if (line.parent !== null) return moveTo(line.parent, line.branch[0]);
    return false;
  }

  function home() {
    return moveTo(ui.line, currentLine().first);
  }

  function end() {
    return moveTo(ui.line, currentLine().legal);
  }

  // -- autoplay: a turn every so often along the line, to its end ----------------------------

  function playing() {
    return ui.timer !== null;
  }

  function play() {
    if (playing() || !ui.game) return;
    if (ui.index >= currentLine().legal) home();
    ui.timer = setInterval(playStep, Number($("speed").value));
    drawPlay();
  }

  function pause() {
    if (!playing()) return;
    clearInterval(ui.timer);
    ui.timer = null;
    drawPlay();
  }

  function playStep() {
    if (!next() || ui.index >= currentLine().legal) pause();
  }

  function togglePlay() {
    if (playing()) pause();
    else play();
  }

  function changeSpeed() {
    if (!playing()) return;
    pause();
    play();
  }

  function drawPlay() {
    var button = $("play");
    button.textContent = playing() ? "Pause" : "Play";
    button.setAttribute("aria-pressed", playing() ? "true" : "false");
    button.title = playing() ? "Pause (p)" : "Play the game turn by turn (p)";
  }

  // A move asked for by hand stops the autoplay first.
  function byHand(action) {
    return function () {
      pause();
      return action.apply(null, arguments);
    };
  }

  function variationsHere() {
    return ui.index >= 1 ? currentLine().variations[ui.index - 1] || 0 : 0;
  }

  function enterVariation(number) {
    if (number < 0 || number >= variationsHere()) return false;
    var key = childKey(ui.line, ui.index - 1, number);
    var line = ui.lines[key];
    return !!line && moveTo(key, line.first);
  }

  function leaveVariation() {
    var line = currentLine();
    if (line.parent === null) return false;
    return moveTo(line.parent, line.branch[0] + 1);
  }

  function siblingCount() {
    var line = currentLine();
    if (line.parent === null) return 0;
    return ui.lines[line.parent].variations[line.branch[0]] || 0;
  }

  // The v key, as in the terminal replayer: enter the first variation of the turn; on a
  // variation's first turn, the next variation of the same turn; elsewhere leave the variation.
  function toggleVariation() {
    var line = currentLine();
    if (line.parent !== null && ui.index <= line.first) {
      var sibling = childKey(line.parent, line.branch[0], line.branch[1] + 1);
      if (line.branch[1] + 1 < siblingCount() && ui.lines[sibling]) return moveTo(sibling, ui.lines[sibling].first);
      if (!variationsHere()) return leaveVariation();
    }
    return enterVariation(0) || leaveVariation();
  }

  // The position after turn `number` as the current line (or the lines it branches from) played it.
  function gotoTurn(number, lineKey) {
    var key = lineKey === undefined ? ui.line : lineKey;
    for (;;) {
      var line = ui.lines[key];
      if (!line) return false;
      var index = number - line.start;
      if (index >= line.first && index <= line.legal) return moveTo(key, index) || true;
      if (index > line.legal || line.parent === null) return false;
      key = line.parent;
    }
  }

  // -- the URL fragment -----------------------------------------------------------------------

  function readFragment() {
    var params = {};
    location.hash.replace(/^#/, "").split("&").forEach(function (part) {
      var pair = part.split("=");
      if (pair.length === 2) {
        try {
          params[decodeURIComponent(pair[0])] = decodeURIComponent(pair[1]);
        } catch (error) {
          // a malformed escape: the parameter is ignored
        }
      }
    });
    return params;
  }

  function writeFragment() {
    var parts = [];
    if (DATA.games.length > 1 && ui.game) parts.push("game=" + ui.game.index);
    if (ui.game) {
      parts.push("turn=" + position().number);
      if (ui.line) parts.push("line=" + encodeURIComponent(ui.line));
    }
    var hash = parts.length ? "#" + parts.join("&") : "#";
    if (location.hash !== hash && !(hash === "#" && !location.hash)) history.replaceState(null, "", hash);
  }

  function openFromFragment() {
    var params = readFragment();
    var game = null;
    if (DATA.games.length === 1 && !DATA.failed.length) game = DATA.games[0];
    if (params.game !== undefined) {
      game = DATA.games.filter(function (g) { return String(g.index) === params.game; })[0] || game;
    }
    if (!game) {
      showGameList();
      return;
    }
    openGame(game, true);
    var number = /^\d+$/.test(params.turn || "") ? parseInt(params.turn, 10) : 0;
    var lineKey = params.line !== undefined && ui.lines[params.line] ? params.line : "";
    if (!gotoTurn(number, lineKey)) gotoTurn(0, "");
    show();
  }

  // -- the game list --------------------------------------------------------------------------

  function showGameList() {
    pause();
    ui.game = null;
    document.body.classList.add("listing");
    document.title = DATA.title;
    var list = clear($("game-list"));
    DATA.games.forEach(function (game) {
      var item = el("li");
      var button = el("button", "game-link");
      button.type = "button";
      button.appendChild(el("span", "game-number", "Game " + game.index));
      button.appendChild(el("span", "game-title", game.title));
      var about = game.header.map(function (pair) { return pair[1]; }).join(" · ");
      if (about) button.appendChild(el("span", "game-about", about));
      button.appendChild(el("span", "game-result", game.result));
      button.addEventListener("click", function () {
        openGame(game, false);
      });
      item.appendChild(button);
      list.appendChild(item);
    });
    DATA.failed.forEach(function (failed) {
      list.appendChild(el("li", "game-failed", "Game " + failed.index + " cannot be shown: " + failed.message));
    });
    writeFragment();
  }

  function openGame(game, quiet) {
    pause();
    ui.game = game;
    ui.lines = {};
    game.lines.forEach(function (line) {
      ui.lines[line.key] = line;
    });
    ui.line = "";
    ui.index = 0;
    ui.view = game.view;
    ui.scoring = false;
    ui.species = null;
    document.body.classList.remove("listing");
    document.title = game.title + " · arbo";
    buildGameFrame();
    if (!quiet) show();
  }

  // -- drawing a game -------------------------------------------------------------------------

  function buildGameFrame() {
    var game = ui.game;
    $("game-title").textContent = game.title;
    var about = clear($("game-about"));
    game.header.forEach(function (pair) {
      var item = el("span", "about-" + pair[0]);
      item.appendChild(el("span", "about-key", pair[0] + ": "));
      item.appendChild(el("span", "about-value", pair[1]));
      about.appendChild(item);
    });
    $("back-to-list").hidden = DATA.games.length + DATA.failed.length < 2;
    var select = clear($("view"));
    game.views.forEach(function (view) {
      var option = el("option", null, view === null ? "all hands" : view + "'s view");
      option.value = view === null ? "" : view;
      select.appendChild(option);
    });
    select.value = ui.view === null ? "" : ui.view;
    $("view-field").hidden = game.views.length < 2;
    buildMoveList();
    buildMarginGraph();
    drawFinal();
  }

  // The engine's expected margin per turn (from the record's {arbo: ...} notes), one line per
  // player over the turns they moved; a point jumps to its turn.
  var SVG = "http://www.w3.org/2000/svg";
  var LINE_COLOURS = ["#1b6ca8", "#c0392b", "#27864a", "#8e44ad"];
  // the class of each glyph's mark on the graph (page.css gives each its colour, as lichess does)
  var GLYPH_KINDS = { "?!": "inaccuracy", "?": "mistake", "??": "blunder" };

  function svgNode(tag, attributes) {
    var node = document.createElementNS(SVG, tag);
    Object.keys(attributes).forEach(function (name) { node.setAttribute(name, String(attributes[name])); });
    return node;
  }

  function buildMarginGraph() {
    var box = $("margin-box");
    var graph = clear($("margin-graph"));
    var points = ui.game.margins || [];
    box.hidden = points.length === 0;
    if (!points.length) return;
    var width = 320, height = 120, pad = 8;
    var last = Math.max.apply(null, points.map(function (p) { return p.index; }));
    var top = Math.max(1, Math.max.apply(null, points.map(function (p) { return Math.abs(p.value); })));
    function x(index) { return pad + (width - 2 * pad) * (index - 1) / Math.max(1, last - 1); }
    function y(value) { return height / 2 - (height / 2 - pad) * value / top; }
    var svg = svgNode("svg", { viewBox: "0 0 " + width + " " + height, role: "img",
      "aria-label": "expected final margin of each analysed turn" });
    svg.appendChild(svgNode("line", { x1: pad, x2: width - pad, y1: y(0), y2: y(0), "class": "zero" }));
    ui.game.players.forEach(function (player, seat) {
      var mine = points.filter(function (p) { return p.player === player; });
      if (mine.length > 1) {
        svg.appendChild(svgNode("polyline", { fill: "none", stroke: LINE_COLOURS[seat % 4], "stroke-width": 1.5,
          points: mine.map(function (p) { return x(p.index) + "," + y(p.value); }).join(" ") }));
      }
    });
    points.forEach(function (p) {
      var seat = ui.game.players.indexOf(p.player);
      var kind = GLYPH_KINDS[p.glyph] || "";
      // a flagged turn: a larger point ringed in its glyph's colour, the glyph written above it
      var dot = svgNode("circle", { cx: x(p.index), cy: y(p.value), r: p.glyph ? 4.5 : 3,
        fill: LINE_COLOURS[seat % 4], "class": "point" + (p.glyph ? " flagged " + kind : ""), "data-index": p.index });
      var title = svgNode("title", {});
      title.textContent = p.index + ". " + p.player + ": " + (p.value >= 0 ? "+" : "") + p.value.toFixed(1) +
        (p.glyph ? " " + p.glyph + ", better " + p.best + " (" + p.gain.toFixed(1) + " points)" :
          p.gain > 0 ? " (" + p.gain.toFixed(1) + " points lost)" : "");
      dot.appendChild(title);
      dot.addEventListener("click", byHand(function () { moveTo("", p.index); }));
      svg.appendChild(dot);
      if (p.glyph) {
        var above = y(p.value) > 14;
        var label = svgNode("text", { x: x(p.index), y: above ? y(p.value) - 7 : y(p.value) + 15,
          "text-anchor": "middle", "class": "glyph-mark " + kind, "data-index": p.index });
        label.textContent = p.glyph;
        svg.appendChild(label);
      }
    });
    graph.appendChild(svg);
    var table = clear($("accuracy"));
    var players = ui.game.accuracy || [];
    table.hidden = players.length === 0;
    players.forEach(function (a) {
      var row = el("li", "accuracy-row");
      row.appendChild(el("span", "accuracy-player", a.player + ": "));
      row.appendChild(el("strong", "accuracy-value", a.accuracy.toFixed(1) + "%"));
      row.appendChild(document.createTextNode(", " + a.mean_points_lost.toFixed(2) + " points lost a turn over " +
        a.turns + " turn" + (a.turns === 1 ? "" : "s") + " judged (?! " + a["?!"] + ", ? " + a["?"] + ", ?? " + a["??"] + ")"));
      table.appendChild(row);
    });
    $("accuracy-rule").textContent = players.length ? "Accuracy: " + ui.game.accuracyRule + "." : "";
  }

  function markMarginPoint() {
    var graph = $("margin-graph");
    if (!graph) return;
    Array.prototype.forEach.call(graph.querySelectorAll(".point"), function (dot) {
      var here = ui.line === "" && dot.getAttribute("data-index") === String(ui.index);
      dot.setAttribute("class", dot.getAttribute("class").replace(/ here/g, "") + (here ? " here" : ""));
    });
  }

  function buildMoveList() {
    var list = clear($("moves"));
    ui.game.rows.forEach(function (row, number) {
      var item = el("li", "move " + row.status + " d" + Math.min(row.depth, MAX_DEPTH));
      if (row.opens) item.className += " opens";
      var button = el("button", "move-button");
      button.type = "button";
      button.dataset.row = String(number);
      if (row.number === null) {
        button.appendChild(el("span", "move-text", "start of the game"));
      } else {
        button.appendChild(el("span", "move-number", row.number + "."));
        button.appendChild(el("span", "move-text", rowNotation(row)));
        row.glyphs.forEach(function (glyph) {
          var mark = el("span", "glyph", glyph);
          mark.title = ui.game.glyphs[glyph]; // the name of every glyph, NAGs too (data.py)
          button.appendChild(mark);
        });
        if (row.variations) button.appendChild(el("span", "branches", "+" + row.variations));
        if (row.status === "error") button.title = "this turn breaks the rules";
        if (row.status === "unreached") button.title = "not replayed: an earlier turn of its line breaks the rules";
      }
      button.addEventListener("click", function () {
        var target = ui.game.positions[row.position];
        pause();
        moveTo(target.line, target.index);
      });
      item.appendChild(button);
      list.appendChild(item);
    });
  }

  function rowNotation(row) {
    if (ui.view !== null && row.player !== ui.view && row.masked) return row.masked;
    return row.notation;
  }

  function turnNotation(turn) {
    if (ui.view !== null && turn.player !== ui.view && turn.masked) return turn.masked;
    return turn.notation;
  }

  function knownHere(at) {
    // What the chosen view knows at this position (the engine's knowledge model), if the data has it.
    return at.known ? at.known[ui.view === null ? "" : ui.view] || null : null;
  }

  function handHidden(at, player) {
    return ui.view !== null && player !== ui.view && !at.over;
  }

  function sheetShown(at) {
    if (at.sheet === null) return null;
    if (!at.over && ui.view !== null && ui.game.views[0] === null) {
      var hides = ui.game.players.some(function (player) { return handHidden(at, player); });
      if (hides) return null;
    }
    return ui.game.sheets[at.sheet];
  }

  function show() {
    if (!ui.game) return;
    var at = position();
    var sheet = at.over || ui.scoring ? sheetShown(at) : null;
    drawStatus(at);
    drawBoard($("board"), at, sheet, true);
    drawNotes(at);
    drawScoring(at);
    drawKnowledge(at);
    markMove(at);
    markMarginPoint();
    writeFragment();
  }

  function drawStatus(at) {
    var status;
    if (at.over) status = "After turn " + at.number + ": game over";
    else if (at.number === 0) status = "Start: " + at.toMove + " to play turn 1";
    else status = "After turn " + at.number + ": " + at.toMove + " to play turn " + (at.number + 1);
    $("status").textContent = status;
    $("deck").textContent = "Deck: " + plural(at.deck, "card");
    var line = currentLine();
    $("back").disabled = ui.index <= line.first && line.parent === null;
    $("start").disabled = ui.index === line.first;
    $("forward").disabled = ui.index >= line.legal;
    $("end").disabled = ui.index >= line.legal;
    $("score-here").setAttribute("aria-pressed", ui.scoring || at.over ? "true" : "false");
    $("score-here").disabled = at.over;
  }

  function highlighted(sheet, player) {
    var cells = {};
    if (!sheet) return cells;
    var scores = sheet.players.filter(function (p) { return p.name === player; })[0];
    if (!scores) return cells;
    Object.keys(scores.species).forEach(function (code) {
      if (ui.species !== null && code !== ui.species) return;
      scores.species[code].cells.forEach(function (cell, step) {
        cells[cell[0] + "," + cell[1]] = step + 1;
      });
    });
    return cells;
  }

  function drawBoard(board, at, sheet, live) {
    clear(board);
    ui.game.players.forEach(function (player, seat) {
      var data = at.players[seat];
      var section = el("section", "seat");
      if (at.toMove === player) section.className += " to-move";
      if (sheet && sheet.winners.indexOf(player) >= 0) section.className += " winner";
      var title = el("h3", "seat-title");
      title.appendChild(el("span", "seat-name", player));
      if (at.toMove === player) title.appendChild(el("span", "badge", "to play"));
      if (sheet && sheet.winners.indexOf(player) >= 0) title.appendChild(el("span", "badge win", "winner"));
      var trees = data.trees.length;
      title.appendChild(el("span", "seat-count", plural(trees, "tree")));
      section.appendChild(title);
      section.appendChild(gridNode(data, sheet ? highlighted(sheet, player) : null, live));
      var hand = el("div", "hand");
      hand.appendChild(el("span", "label", "Hand"));
      var cards = el("span", "cards");
      var known = knownHere(at);
      var hide = !known && handHidden(at, player);
      (known ? known.hands[seat] : data.hand).forEach(function (code) {
        cards.appendChild(cardNode(hide ? HIDDEN : code));
      });
      if (!data.hand.length) cards.appendChild(el("span", "empty", "(empty)"));
      hand.appendChild(cards);
      section.appendChild(hand);
      var pile = el("div", "pile");
      pile.appendChild(el("span", "label", "Discard"));
      var pileCards = el("span", "cards");
      data.pile.forEach(function (code, number) {
        pileCards.appendChild(cardNode(code, number === data.pile.length - 1 ? "top" : "under"));
      });
      if (!data.pile.length) pileCards.appendChild(el("span", "empty", "(empty)"));
      pile.appendChild(pileCards);
      section.appendChild(pile);
      board.appendChild(section);
    });
  }

  function gridNode(data, path, live) {
    var wrap = el("div", "grid-wrap");
    if (!data.trees.length) {
      wrap.appendChild(el("p", "empty", "no trees yet"));
      return wrap;
    }
    var xs = data.trees.map(function (t) { return t[0]; });
    var ys = data.trees.map(function (t) { return t[1]; });
    var minX = Math.min.apply(null, xs), maxX = Math.max.apply(null, xs);
    var minY = Math.min.apply(null, ys), maxY = Math.max.apply(null, ys);
    var cards = {};
    data.trees.forEach(function (t) {
      cards[t[0] + "," + t[1]] = t[2];
    });
    var table = el("table", "grid");
    var head = el("tr");
    head.appendChild(el("th", "corner", "y\\x"));
    for (var x = minX; x <= maxX; x++) head.appendChild(el("th", "x", x));
    table.appendChild(head);
    for (var y = maxY; y >= minY; y--) {
      var row = el("tr");
      row.appendChild(el("th", "y", y));
      for (var column = minX; column <= maxX; column++) {
        var key = column + "," + y;
        var cell = el("td", "cell");
        if (cards[key]) {
          var extra = [];
          if (data.marked && data.marked[0] === column && data.marked[1] === y && live) extra.push("marked");
          if (path) extra.push(path[key] ? "on-path" : "off-path");
          var card = cardNode(cards[key], extra.join(" "));
          card.title += " at " + key;
          cell.appendChild(card);
        }
        row.appendChild(cell);
      }
      table.appendChild(row);
    }
    wrap.appendChild(table);
    return wrap;
  }

  function paragraphs(parent, texts, className) {
    texts.forEach(function (text) {
      parent.appendChild(el("p", className, text));
    });
  }

  function drawNotes(at) {
    var notes = at.notes;
    var box = clear($("notes"));
    var heading = el("h2", "notes-heading");
    if (at.turn === null) {
      heading.textContent = ui.line ? "Variation" : "Start of the game";
    } else {
      heading.appendChild(el("span", "turn-number", "Turn " + at.number + ": "));
      heading.appendChild(el("span", "turn-text", turnNotation(at.turn)));
      at.turn.glyphs.forEach(function (glyph) {
        heading.appendChild(el("span", "glyph", " " + glyph + " (" + ui.game.glyphs[glyph] + ")"));
      });
    }
    box.appendChild(heading);
    if (notes.inVariation) {
      var where = el("div", "in-variation");
      where.appendChild(el("span", null, "In " + notes.inVariation + " "));
      var leave = el("button", "leave", "Leave variation");
      leave.type = "button";
      leave.addEventListener("click", byHand(leaveVariation));
      where.appendChild(leave);
      box.appendChild(where);
    }
    paragraphs(box, notes.variationBefore, "comment variation-comment");
    paragraphs(box, notes.before, "comment");
    paragraphs(box, notes.after, "comment");
    paragraphs(box, notes.variationAfter, "comment variation-comment");
    paragraphs(box, notes.problems, "problem");
    paragraphs(box, notes.warnings, "warning");
    if (notes.variations) {
      var choices = el("div", "variations");
      choices.appendChild(el("span", null, plural(notes.variations, "variation") + " instead of this turn: "));
      for (var number = 0; number < notes.variations; number++) {
        var button = el("button", "enter", "Variation " + (number + 1));
        button.type = "button";
        button.dataset.variation = String(number);
        button.addEventListener("click", byHand(function (event) {
          enterVariation(parseInt(event.currentTarget.dataset.variation, 10));
        }));
        choices.appendChild(button);
      }
      box.appendChild(choices);
    }
  }

  function drawScoring(at) {
    var panel = $("scoring");
    var asked = at.over || ui.scoring;
    panel.hidden = !asked;
    clear(panel);
    if (!asked) return;
    var sheet = sheetShown(at);
    panel.appendChild(el("h2", null, at.over ? "Scoring" : "Scoring as if the game ended after turn " + at.number));
    if (!sheet) {
      panel.appendChild(el("p", "unscored", at.unscored || "the hands are not all known in this view: switch to all hands to score here"));
      return;
    }
    panel.appendChild(sheetTable(sheet, true));
    panel.appendChild(el("p", "verdict", sheet.verdict));
    panel.appendChild(el("p", "hint", "Pick a species to see its paths on the grids; pick it again to see every path."));
  }

  var MARKS = { certain: "✓", possible: "?", impossible: "✗" };

  function drawKnowledge(at) {
    var panel = $("knowledge");
    var known = knownHere(at);
    panel.hidden = !ui.knowledge || !known;
    $("knowledge-toggle").setAttribute("aria-pressed", ui.knowledge ? "true" : "false");
    clear(panel);
    if (panel.hidden) return;
    panel.appendChild(el("h2", null, "What " + known.view + " knows"));
    panel.appendChild(el("p", "hint", "Deck: " + plural(known.deck, "card") + " · unseen: " +
      known.unseen.reduce(function (sum, entry) { return sum + entry[1].length; }, 0) +
      " (" + known.inHands + " in hands)"));
    var wrap = el("div", "table-wrap");
    var table = el("table", "sheet knowledge");
    var head = el("tr");
    head.appendChild(el("th", "species-head", "Species"));
    head.appendChild(el("th", null, "Unseen"));
    ui.game.players.forEach(function (player) {
      head.appendChild(el("th", "player-head", player));
    });
    var thead = el("thead");
    thead.appendChild(head);
    table.appendChild(thead);
    var body = el("tbody");
    known.rights.forEach(function (entry, number) {
      var code = entry[0];
      var row = el("tr", "species-row");
      var name = el("th", "species-name");
      name.appendChild(el("span", "chip sp-" + code, code));
      name.appendChild(el("span", null, " " + speciesName(code)));
      row.appendChild(name);
      row.appendChild(el("td", "unseen", known.unseen[number][1].join(" ") || "-"));
      entry[1].forEach(function (right) {
        var span = right[1] === right[2] ? String(right[1]) : right[1] + " to " + right[2];
        row.appendChild(el("td", "right-" + right[0], MARKS[right[0]] + " " + span));
      });
      body.appendChild(row);
    });
    table.appendChild(body);
    wrap.appendChild(table);
    panel.appendChild(wrap);
    panel.appendChild(el("p", "hint", "The right to score each species: ✓ certain, ? possible, ✗ impossible, with the range of the hand sum."));
  }

  function toggleKnowledge() {
    ui.knowledge = !ui.knowledge;
    show();
  }

  function sheetTable(sheet, live) {
    var wrap = el("div", "table-wrap");
    var table = el("table", "sheet");
    var head = el("tr");
    head.appendChild(el("th", "species-head", "Species"));
    sheet.players.forEach(function (player) {
      head.appendChild(el("th", "player-head", player.name));
    });
    var thead = el("thead");
    thead.appendChild(head);
    table.appendChild(thead);
    var body = el("tbody");
    sheet.species.forEach(function (code) {
      var row = el("tr", "species-row");
      if (live && ui.species === code) row.className += " picked";
      var name = el("th", "species-name");
      var chip = el("span", "chip sp-" + code, code);
      name.appendChild(chip);
      name.appendChild(el("span", null, " " + speciesName(code)));
      row.appendChild(name);
      sheet.players.forEach(function (player) {
        var score = player.species[code];
        var cell = el("td", score.rights ? "right" : "no-right");
        cell.dataset.name = player.name;
        var line = el("div", "score-line");
        line.appendChild(el("span", "hand-sum", "hand " + score.hand_sum));
        if (score.eight_cancelled_by) {
          line.appendChild(el("span", "cancelled",
            " (" + code + "8 counts 0: " + score.eight_cancelled_by + " holds " + code + "1)"));
        }
        line.appendChild(el("span", "right-mark", score.rights ? " ✓" : " ✗"));
        line.appendChild(el("span", "points", " " + score.points + " pts"));
        cell.appendChild(line);
        if (score.path.length) {
          var path = el("div", "path");
          score.path.forEach(function (card) {
            path.appendChild(cardNode(card, "small"));
          });
          cell.appendChild(path);
          var split = score.breakdown;
          cell.appendChild(el("div", "split", split.cards + " cards +" + split.same_species + " same +" +
            split.starts_with_1 + " start +" + split.ends_with_8 + " end"));
        } else if (score.rights) {
          cell.appendChild(el("div", "split", "no path"));
        }
        row.appendChild(cell);
      });
      if (live) {
        row.tabIndex = 0;
        row.addEventListener("click", function () {
          ui.species = ui.species === code ? null : code;
          show();
        });
      }
      body.appendChild(row);
    });
    table.appendChild(body);
    var foot = el("tfoot");
    var totals = el("tr", "totals");
    totals.appendChild(el("th", null, "Total"));
    sheet.players.forEach(function (player) {
      var cell = el("td", "total", player.total);
      cell.dataset.name = player.name;
      if (sheet.winners.indexOf(player.name) >= 0) cell.className += " winner";
      if (live) {
        cell.dataset.player = player.name;
        cell.dataset.total = String(player.total);
      }
      totals.appendChild(cell);
    });
    foot.appendChild(totals);
    var planted = el("tr", "planted");
    planted.appendChild(el("th", null, "Species planted"));
    sheet.players.forEach(function (player) {
      var count = el("td", null, player.species_planted);
      count.dataset.name = player.name;
      planted.appendChild(count);
    });
    foot.appendChild(planted);
    table.appendChild(foot);
    wrap.appendChild(table);
    return wrap;
  }

  function markMove(at) {
    var rows = ui.game.rows;
    var current = -1;
    rows.forEach(function (row, number) {
      if (row.position === ui.lines[ui.line].positions[ui.index] && row.status !== "unreached" && current < 0) current = number;
    });
    if (current < 0) current = 0;
    var buttons = $("moves").querySelectorAll("button.move-button");
    for (var i = 0; i < buttons.length; i++) {
      var on = i === current;
      buttons[i].classList.toggle("current", on);
      if (on) {
        buttons[i].setAttribute("aria-current", "step");
        scrollIntoList(buttons[i]);
      } else {
        buttons[i].removeAttribute("aria-current");
      }
    }
  }

  function scrollIntoList(button) {
    var list = $("moves-box");
    var top = button.offsetTop;
    if (top < list.scrollTop || top + button.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = Math.max(0, top - list.clientHeight / 2);
    }
  }

  // The final position and the scoring, for print.
  function drawFinal() {
    var game = ui.game;
    var at = game.positions[game.end];
    var box = $("final-board");
    var sheet = at.over && at.sheet !== null ? game.sheets[at.sheet] : null;
    $("final-title").textContent = "Final position (after turn " + at.number + ")";
    drawBoard(box, at, sheet, false);
    var scoring = clear($("final-scoring"));
    if (sheet) {
      scoring.appendChild(sheetTable(sheet, false));
      scoring.appendChild(el("p", "verdict", sheet.verdict));
    }
  }

  // -- wiring ---------------------------------------------------------------------------------

  function onKey(event) {
    if (!ui.game || event.altKey || event.ctrlKey || event.metaKey) return;
    var tag = event.target && event.target.tagName;
    if (tag === "SELECT" || tag === "INPUT" || tag === "TEXTAREA") return;
    var actions = {
      ArrowRight: byHand(next),
      ArrowLeft: byHand(previous),
      Home: byHand(home),
      End: byHand(end),
      v: byHand(toggleVariation),
      Escape: byHand(leaveVariation),
      s: toggleScoring,
      k: toggleKnowledge,
      p: togglePlay,
    };
    var action = actions[event.key];
    if (action) {
      event.preventDefault();
      action();
    }
  }

  function toggleScoring() {
    if (position().over) return;
    ui.scoring = !ui.scoring;
    ui.species = null;
    show();
  }

  function wire() {
    $("start").addEventListener("click", byHand(home));
    $("back").addEventListener("click", byHand(previous));
    $("forward").addEventListener("click", byHand(next));
    $("end").addEventListener("click", byHand(end));
    $("play").addEventListener("click", togglePlay);
    $("speed").addEventListener("change", changeSpeed);
    $("score-here").addEventListener("click", toggleScoring);
    $("knowledge-toggle").addEventListener("click", toggleKnowledge);
    $("view").addEventListener("change", function (event) {
      ui.view = event.target.value === "" ? null : event.target.value;
      buildMoveList();
      drawFinal();
      show();
    });
    $("back-to-list").addEventListener("click", showGameList);
    document.addEventListener("keydown", onKey);
    window.addEventListener("hashchange", openFromFragment);
  }

  // -- a live page ----------------------------------------------------------------------------

  // arbo serve hands the page its game's data again as the record grows (an "arbo:data" event on
  // the document): the cursor stays where it was, or follows the last turn when it stood there.
  function replaceData(data, follow) {
    var game = ui.game;
    var line = ui.line;
    var index = ui.index;
    var view = ui.view;
    follow = follow || !game || (line === "" && index === ui.lines[""].legal);
    DATA = data;
    var fresh = DATA.games.filter(function (g) { return game && g.index === game.index; })[0];
    if (!fresh && DATA.games.length === 1) fresh = DATA.games[0];
    if (!fresh) {
      showGameList();
      return;
    }
    openGame(fresh, true);
    if (fresh.views.indexOf(view) >= 0) {
      ui.view = view;
      $("view").value = view === null ? "" : view;
    }
    if (follow || !ui.lines[line] || index > ui.lines[line].legal) {
      line = "";
      index = ui.lines[""].legal;
    }
    ui.line = line;
    ui.index = index;
    show();
  }

  wire();
  document.addEventListener("arbo:data", function (event) {
    replaceData(event.detail.data, event.detail.follow);
  });
  openFromFragment();
  document.body.classList.add("ready");
})();
