// arbo serve's recorder for a phone: what `arbo record` asks, checked by the server as it is
// typed. The token is in the address's fragment (never sent in a URL, never in a log) and goes
// with every request in a header. An entry waiting for its answer is kept in the browser's
// storage with its id and the record it was typed on, and sent again after a reload: the server
// takes it once at most.
(function () {
  "use strict";

  var params = {};
  location.hash.replace(/^#/, "").split("&").forEach(function (part) {
    var pair = part.split("=");
    if (pair[0]) params[decodeURIComponent(pair[0])] = decodeURIComponent(pair.slice(1).join("=") || "");
  });
  var token = params.t || "";
  var ui = { name: params.g || "", state: null, sending: false, timer: null };
  var PENDING = "arbo-pending-entry";

  function $(id) { return document.getElementById(id); }

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

  function say(text, kind) {
    var message = $("message");
    message.textContent = text;
    message.className = kind || "";
  }

  function newId() {
    var bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }

  function call(method, path, body) {
    var options = { method: method, headers: { "X-Arbo-Token": token }, cache: "no-store" };
    if (body !== undefined) {
      options.headers["Content-Type"] = "application/json";
      options.body = JSON.stringify(body);
    }
    return fetch(path, options).then(function (response) {
      return response.json().catch(function () { return {}; }).then(function (data) {
        if (!response.ok && !data.status) throw new Error(data.message || response.status + " " + response.statusText);
        return data;
      });
    });
  }

  function api(kind) {
    return "/api/" + kind + "/" + encodeURIComponent(ui.name);
  }

  function showState(state) {
    if (!state) return;
    ui.state = state;
    $("prompt").textContent = state.prompt;
    $("hand").textContent = state.seat ? state.seat + "'s hand: " + (state.hand.join(" ") || "not known yet") : "";
    var turns = clear($("turns"));
    state.turns.slice(-8).concat(state.reveals).forEach(function (line) { turns.appendChild(el("li", null, line)); });
    $("entry").disabled = state.done;
    $("send").disabled = state.done;
    if (state.prefill && !$("entry").value) $("entry").value = state.prefill;
    complete();
  }

  function loadState() {
    if (!ui.name) return Promise.resolve();
    return call("GET", api("state")).then(function (data) {
      if (data.status && data.status !== "ok") throw new Error(data.message);
      showState(data.state);
    }).catch(function (error) { say(String(error.message || error), "refused"); });
  }

  function complete() {
    if (!ui.name || !ui.state) return;
    var typed = $("entry").value;
    call("GET", api("complete") + "?text=" + encodeURIComponent(typed)).then(function (data) {
      if (typed !== $("entry").value) return; // typed on since
      var list = clear($("choices"));
      (data.choices || []).forEach(function (choice) {
        var button = el("button", null, choice.trim());
        button.type = "button";
        button.addEventListener("click", function () {
          $("entry").value = typed.slice(0, data.start) + choice;
          $("entry").focus();
          complete();
        });
        list.appendChild(el("li")).appendChild(button);
      });
      var hint = data.problem || data.hint || "";
      $("hint").textContent = hint;
    }).catch(function () {});
  }

  function send(entry) {
    if (ui.sending || !ui.state) return;
    var pending = { name: ui.name, id: newId(), base: ui.state.base, entry: entry };
    localStorage.setItem(PENDING, JSON.stringify(pending));
    deliver(pending);
  }

  function deliver(pending) {
    ui.sending = true;
    say("sending…");
    call("POST", "/api/entry/" + encodeURIComponent(pending.name), { id: pending.id, base: pending.base, entry: pending.entry })
      .then(function (answer) {
        localStorage.removeItem(PENDING);
        ui.sending = false;
        if (answer.status === "ok") {
          say("ok: " + pending.entry, "ok");
          $("entry").value = "";
        } else {
          say(answer.message, "refused");
        }
        showState(answer.state);
      })
      .catch(function (error) {
        ui.sending = false; // kept in storage: sent again on the next load or tap
        say("not sent (" + (error.message || error) + "): tap Record again", "refused");
      });
  }

  function chooseGame(name) {
    ui.name = name;
    ui.state = null;
    history.replaceState(null, "", "#t=" + encodeURIComponent(token) + "&g=" + encodeURIComponent(name));
    loadState();
  }

  function start() {
    if (!token) {
      say("this page needs the link with its token that arbo serve printed", "refused");
      return;
    }
    listGames().then(function () {
      var waiting = localStorage.getItem(PENDING);
      return loadState().then(function () {
        if (waiting) {
          var pending = JSON.parse(waiting);
          ui.name = pending.name;
          $("game").value = pending.name;
          deliver(pending);
        }
      });
    }).catch(function (error) { say(String(error.message || error), "refused"); });
  }

  function listGames() {
    return call("GET", "/api/games").then(function (data) {
      if (data.status === "refused") throw new Error(data.message);
      var select = clear($("game"));
      (data.games || []).forEach(function (name) {
        var option = el("option", null, name);
        option.value = name;
        select.appendChild(option);
      });
      if (!ui.name || (data.games || []).indexOf(ui.name) < 0) ui.name = (data.games || [])[0] || "";
      select.value = ui.name;
      $("new").hidden = !data["new"];
      $("new-note").hidden = !!data["new"];
      if (!data.games || !data.games.length) $("new").open = !!data["new"];
    });
  }

  function seats() {
    var select = $("new-seat");
    var chosen = select.value;
    while (select.options.length > 1) select.remove(1);
    $("new-players").value.split(",").forEach(function (name) {
      name = name.trim();
      if (!name) return;
      var option = el("option", null, name);
      option.value = name;
      select.appendChild(option);
    });
    select.value = chosen;
    if (select.value !== chosen) select.value = "";
  }

  function startGame() {
    if (ui.sending) return;
    ui.sending = true;
    say("starting…");
    call("POST", "/api/new", {
      name: $("new-name").value, players: $("new-players").value, species: $("new-species").value,
      seat: $("new-seat").value, event: $("new-event").value
    }).then(function (answer) {
      ui.sending = false;
      if (answer.status !== "ok") { say(answer.message, "refused"); return; }
      say("started: " + answer.state.name, "ok");
      $("new").open = false;
      ["new-name", "new-players", "new-species", "new-event"].forEach(function (id) { $(id).value = ""; });
      seats();
      ui.name = answer.state.name;
      return listGames().then(function () { chooseGame(answer.state.name); });
    }).catch(function (error) {
      ui.sending = false;
      say("not started (" + (error.message || error) + ")", "refused");
    });
  }

  var typing = null;
  $("entry").addEventListener("input", function () {
    clearTimeout(typing);
    typing = setTimeout(complete, 120);
  });
  $("form").addEventListener("submit", function (event) {
    event.preventDefault();
    var entry = $("entry").value.trim();
    if (entry) send(entry);
  });
  $("send").addEventListener("click", function (event) {
    event.preventDefault();
    var entry = $("entry").value.trim();
    if (entry) send(entry);
  });
  $("undo").addEventListener("click", function () { send("undo"); });
  $("new-players").addEventListener("input", seats);
  $("new-form").addEventListener("submit", function (event) {
    event.preventDefault();
    startGame();
  });
  $("game").addEventListener("change", function (event) { chooseGame(event.target.value); });
  // another writer (a terminal, another phone) may move the record on: look again now and then
  setInterval(function () { if (!ui.sending && document.visibilityState === "visible") loadState(); }, 5000);
  start();
})();
