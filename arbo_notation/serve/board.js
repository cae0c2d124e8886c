// arbo serve's multiboard: a line per table, its running score, kept up to date by server-sent
// events. Everything from a record goes in as text (textContent), never as markup.
(function () {
  "use strict";

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function draw(data) {
    var list = document.getElementById("tables");
    while (list.firstChild) list.removeChild(list.firstChild);
    if (!data.tables.length) list.appendChild(el("li", "empty", "No record here yet."));
    data.tables.forEach(function (table) {
      var item = el("li", "table");
      item.setAttribute("data-name", table.name);
      var link = el("a");
      link.href = "/game/" + encodeURIComponent(table.name);
      link.appendChild(el("h2", null, table.title));
      if (table.about) link.appendChild(el("div", "about", table.about));
      if (table.status === "unreadable") {
        link.appendChild(el("div", "state", table.name + ": " + table.message));
      } else {
        var scores = el("table", "scores");
        table.scores.forEach(function (pair) {
          var row = el("tr", pair[0] === table.toMove ? "to-move" : null);
          row.appendChild(el("td", "player", pair[0]));
          row.appendChild(el("td", "points", pair[1]));
          scores.appendChild(row);
        });
        link.appendChild(scores);
        var state = table.status === "finished" ? (table.verdict || "finished")
          : table.status === "over" ? "the deck is empty: hands being revealed"
          : "turn " + (table.turns + 1) + ", " + table.toMove + " to play, deck " + table.deck;
        link.appendChild(el("div", "state", state));
        if (table.last) link.appendChild(el("div", "last", table.last));
      }
      item.appendChild(link);
      list.appendChild(item);
    });
  }

  draw(JSON.parse(document.getElementById("board-data").textContent));
  var badge = document.getElementById("live");
  var source = new EventSource("/events");
  source.addEventListener("board", function (event) {
    draw(JSON.parse(event.data));
    document.body.setAttribute("data-live", event.lastEventId);
    badge.textContent = "live";
    badge.setAttribute("data-state", "live");
  });
  source.addEventListener("error", function () {
    badge.textContent = "reconnecting";
    badge.setAttribute("data-state", "reconnecting");
  });
})();
