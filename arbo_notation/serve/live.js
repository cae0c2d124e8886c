// arbo serve: the replayer kept up to date as the record is played. This runs before the
// replayer's script and starts once the page is read. Server-sent events: a dropped connection is
// resumed by the browser with the last event's id, and the server answers with the state it has
// now, so no turn is missed. Each event holds the whole public game.
(function () {
  "use strict";

  var asked = location.hash; // a turn asked for in the link; else the page follows the last turn

  function hand(data, follow) {
    document.dispatchEvent(new CustomEvent("arbo:data", { detail: { data: data, follow: follow } }));
  }

  function start() {
    var badge = document.createElement("span");
    badge.id = "live";
    badge.className = "live";
    badge.textContent = "connecting";
    badge.setAttribute("role", "status");
    var head = document.querySelector(".page-head");
    if (head) head.appendChild(badge);

    function show(state) {
      badge.textContent = state;
      badge.setAttribute("data-state", state); // live.css colours it
    }

    if (!asked) hand(JSON.parse(document.getElementById("arbo-data").textContent), true);

    var name = location.pathname.split("/").pop();
    var source = new EventSource("/events/" + name);
    source.addEventListener("game", function (event) {
      hand(JSON.parse(event.data), false);
      document.body.setAttribute("data-live", event.lastEventId);
      show("live");
    });
    source.addEventListener("open", function () {
      show("live");
    });
    source.addEventListener("error", function () {
      show("reconnecting");
    });
  }

  document.addEventListener("DOMContentLoaded", start);
})();
