// The live match log (/matches/<id>/live): each coach logs their side on a phone.
//
// Reads: the public GET /api/v1/matches/<id>/log, polled every few seconds with
// If-None-Match (304 while nothing changed). Writes: the page's form posts, in order, from
// a queue kept in IndexedDB, so an event logged without signal waits on the phone (across
// a reload or the phone going to sleep) and is sent when the connection returns. Each
// event carries an id made here: a retry after a lost answer is stored once.
(function () {
  "use strict";
  var root = document.querySelector("[data-live]");
  var dataNode = document.getElementById("live-data");
  if (!root || !dataNode || !window.fetch) return;
  var data = JSON.parse(dataNode.textContent);
  var POLL_MS = 3000;
  var log = null; // the last log the server gave
  var etag = null;
  var queue = []; // events waiting to be sent: {id, seq, match_id, body}
  var sending = false;
  var online = navigator.onLine !== false;
  var side = data.may_log.length ? data.may_log[0] : null;
  var clockKey = "live-clock-" + data.match_id;
  var clock = loadClock();

  function text(name, values) {
    var pattern = root.getAttribute("data-text-" + name) || "";
    return pattern.replace(/\{(\w+)\}/g, function (whole, key) {
      return values && key in values ? String(values[key]) : whole;
    });
  }

  function $(selector) { return root.querySelector(selector); }
  function all(selector) { return Array.prototype.slice.call(root.querySelectorAll(selector)); }

  function newId() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    var bytes = new Uint8Array(16);
    (window.crypto || window.msCrypto).getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }

  // -- the half and turn each side is at (kept on the phone)

  function loadClock() {
    try {
      var saved = JSON.parse(localStorage.getItem(clockKey) || "null");
      if (saved && saved.home && saved.away) return saved;
    } catch (e) { /* private mode: start afresh */ }
    return { home: { half: 1, turn: 1 }, away: { half: 1, turn: 1 } };
  }

  function saveClock() {
    try { localStorage.setItem(clockKey, JSON.stringify(clock)); } catch (e) { /* ignore */ }
  }

  // -- the queue, in IndexedDB

  var dbPromise = new Promise(function (resolve) {
    if (!window.indexedDB) return resolve(null);
    var request = indexedDB.open("league-live-log", 1);
    request.onupgradeneeded = function () {
      request.result.createObjectStore("queue", { keyPath: "id" });
    };
    request.onsuccess = function () { resolve(request.result); };
    request.onerror = function () { resolve(null); };
  });

  function store(mode, action) {
    return dbPromise.then(function (db) {
      if (!db) return null;
      return new Promise(function (resolve, reject) {
        var tx = db.transaction("queue", mode);
        var result = action(tx.objectStore("queue"));
        tx.oncomplete = function () { resolve(result && result.result); };
        tx.onerror = function () { reject(tx.error); };
      });
    });
  }

  function loadQueue() {
    return store("readonly", function (s) { return s.getAll(); }).then(function (items) {
      queue = (items || []).filter(function (item) { return item.match_id === data.match_id; });
      queue.sort(function (a, b) { return a.seq - b.seq; });
    });
  }

  function enqueue(body) {
    var item = { id: body.id, seq: Date.now() + Math.random(), match_id: data.match_id, body: body };
    queue.push(item);
    // Shown as waiting once it is kept on the phone: a reload right after the tap finds it.
    return store("readwrite", function (s) { return s.put(item); }).then(function () {
      render();
      return flush();
    });
  }

  function dequeue(item) {
    queue = queue.filter(function (other) { return other.id !== item.id; });
    return store("readwrite", function (s) { return s.delete(item.id); });
  }

  // -- talking to the server

  function csrf() {
    var field = root.querySelector("[data-csrf] input[name=csrf_token]");
    return field ? field.value : "";
  }

  function refreshCsrf() {
    // A page kept from before (offline) may hold an expired token: take a fresh one.
    return fetch(location.pathname, { cache: "no-store", credentials: "same-origin" })
      .then(function (response) { return response.text(); })
      .then(function (html) {
        var found = /name="csrf_token"[^>]*value="([^"]+)"/.exec(html);
        var field = root.querySelector("[data-csrf] input[name=csrf_token]");
        if (found && field) field.value = found[1];
      });
  }

  function post(url, fields) {
    var body = new URLSearchParams();
    Object.keys(fields).forEach(function (key) {
      if (fields[key] !== null && fields[key] !== undefined) body.append(key, fields[key]);
    });
    body.append("csrf_token", csrf());
    return fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { Accept: "application/json", "X-CSRFToken": csrf() },
      body: body,
    });
  }

  function flush() {
    if (sending || !queue.length) return Promise.resolve();
    sending = true;
    var item = queue[0];
    return post(data.post_url, item.body)
      .then(function (response) {
        if (response.status === 400) {
          // Most likely an expired CSRF token: a fresh one, then the same event again.
          return refreshCsrf().then(function () { return post(data.post_url, item.body); });
        }
        return response;
      })
      .then(function (response) {
        setOnline(true);
        if (response.ok || (response.status >= 400 && response.status < 500)) {
          if (!response.ok) {
            response.json().then(function (body) { say(body.error ? body.error.message : ""); }, function () {});
          }
          return dequeue(item).then(function () { sending = false; poll(true); return flush(); });
        }
        throw new Error("server " + response.status);
      })
      .catch(function () {
        sending = false;
        setOnline(false);
        render();
      });
  }

  function poll(force) {
    var headers = { Accept: "application/json" };
    if (etag && !force) headers["If-None-Match"] = etag;
    return fetch(data.log_url, { headers: headers, cache: "no-store", credentials: "same-origin" })
      .then(function (response) {
        setOnline(true);
        if (response.status === 304) return;
        if (!response.ok) return;
        etag = response.headers.get("ETag");
        return response.json().then(function (body) { log = body; render(); });
      })
      .catch(function () { setOnline(false); });
  }

  function setOnline(value) {
    if (online === value) return;
    online = value;
    if (online) flush();
    render();
  }

  function act(url, fields) {
    return post(url, fields || {}).then(function (response) {
      if (!response.ok) {
        return response.json().then(function (body) { say(body.error ? body.error.message : ""); }, function () {});
      }
      return poll(true);
    }, function () { setOnline(false); });
  }

  function eventUrl(eventId, action) {
    return data.event_url.replace(/\/0\/delete$/, "/" + eventId + "/" + action);
  }

  // -- logging

  function send(kind, fields) {
    var at = clock[side];
    var body = { id: newId(), side: side, kind: kind, half: at.half, turn: at.turn };
    Object.keys(fields || {}).forEach(function (key) { body[key] = fields[key]; });
    closePicker();
    return enqueue(body);
  }

  function playerButton(player, onPick) {
    var button = document.createElement("button");
    button.type = "button";
    button.className = "chip player-chip";
    button.setAttribute("data-player", player.id);
    button.textContent = "#" + player.number + " " + player.name;
    button.addEventListener("click", function () { onPick(player); });
    return button;
  }

  function openPicker(title, choices) {
    var picker = $("[data-picker]");
    $("[data-picker-title]").textContent = title;
    var box = $("[data-choices]");
    box.textContent = "";
    choices.forEach(function (choice) { box.appendChild(choice); });
    picker.hidden = false;
    $("[data-kinds]").hidden = true;
  }

  function closePicker() {
    var picker = $("[data-picker]");
    if (picker) picker.hidden = true;
    var kinds = $("[data-kinds]");
    if (kinds) kinds.hidden = false;
  }

  function choiceButton(label, value, onPick) {
    var button = document.createElement("button");
    button.type = "button";
    button.className = "chip";
    button.setAttribute("data-choice", value === null ? "" : value);
    button.textContent = label;
    button.addEventListener("click", function () { onPick(value); });
    return button;
  }

  function pickInjury(done) {
    if (!data.table_dice) return done({});
    var choices = [choiceButton(text("server-rolls"), null, function () { done({}); })];
    data.injuries.forEach(function (injury) {
      choices.push(choiceButton(injury.label, injury.code, function (code) {
        if (code !== "lasting_injury") return done({ injury: code });
        openPicker(text("pick-lasting"), data.characteristics.map(function (c) {
          return choiceButton(c.label, c.code, function (lasting) { done({ injury: code, lasting: lasting }); });
        }));
      }));
    });
    openPicker(text("pick-injury"), choices);
  }

  function other(s) { return s === "home" ? "away" : "home"; }

  function startKind(kind) {
    if (!side) return;
    if (kind === "concession") {
      if (window.confirm(text("concede", { team: data.sides[side].name }))) send(kind, {});
      return;
    }
    var players = data.sides[side].players.filter(function (p) {
      return kind !== "mvp" || p.status !== "star";
    });
    openPicker(text("pick-player"), players.map(function (player) {
      return playerButton(player, function () {
        if (kind === "cas") {
          openPicker(text("pick-victim"), data.sides[other(side)].players.map(function (victim) {
            return playerButton(victim, function () {
              pickInjury(function (injury) {
                send(kind, Object.assign({ player_id: player.id, victim_id: victim.id }, injury));
              });
            });
          }));
        } else if (kind === "injury") {
          pickInjury(function (injury) { send(kind, Object.assign({ player_id: player.id }, injury)); });
        } else {
          send(kind, { player_id: player.id });
        }
      });
    }));
  }

  // -- drawing

  function playerName(id) {
    var found = null;
    ["home", "away"].forEach(function (s) {
      data.sides[s].players.forEach(function (p) { if (p.id === id) found = p; });
    });
    return found ? "#" + found.number + " " + found.name : id ? "#?" : "";
  }

  function kindLabel(kind) {
    var found = data.kinds.filter(function (k) { return k.kind === kind; })[0];
    return found ? found.label : kind;
  }

  function injuryLabel(code) {
    var found = data.injuries.filter(function (i) { return i.code === code; })[0];
    return found ? found.label : code;
  }

  function timelineItem(event, pending) {
    var li = document.createElement("li");
    li.className = "live-event live-" + event.side + (event.disputed ? " disputed" : "") + (pending ? " pending" : "");
    li.setAttribute("data-event", pending ? "pending" : event.id);
    var when = document.createElement("span");
    when.className = "live-when muted";
    when.textContent = text("half", { half: event.half }) + " " + text("turn", { turn: event.turn });
    li.appendChild(when);
    var what = document.createElement("span");
    what.className = "live-what";
    var words = data.sides[event.side].name + " · " + kindLabel(event.kind);
    if (event.player_id) words += " · " + playerName(event.player_id);
    if (event.victim_id) words += " → " + playerName(event.victim_id);
    if (event.injury) words += " (" + injuryLabel(event.injury) + (event.lasting ? " " + event.lasting.toUpperCase() : "") + ")";
    what.textContent = words;
    li.appendChild(what);
    if (pending) {
      li.appendChild(tag(text("pending")));
      return li;
    }
    if (event.disputed) li.appendChild(tag(text("disputed")));
    if (log && log.state === "open") {
      if (event.side !== side && data.may_log.length && !event.disputed && (data.commissioner || data.may_log.indexOf(event.side) < 0)) {
        li.appendChild(actionButton(text("dispute"), function () { act(eventUrl(event.id, "dispute")); }));
      }
      if (event.by === data.user_id || data.commissioner) {
        if (event.disputed || data.commissioner) {
          li.appendChild(actionButton(text("delete"), function () { act(eventUrl(event.id, "delete")); }));
        }
      }
      if (event.disputed && data.commissioner) {
        li.appendChild(actionButton(text("keep"), function () { act(eventUrl(event.id, "keep")); }));
      }
    }
    return li;
  }

  function tag(words) {
    var span = document.createElement("span");
    span.className = "tag";
    span.textContent = words;
    return span;
  }

  function actionButton(label, onClick) {
    var button = document.createElement("button");
    button.type = "button";
    button.className = "link-button";
    button.textContent = label;
    button.addEventListener("click", onClick);
    return button;
  }

  function byMatchOrder(a, b) {
    return a.half - b.half || a.turn - b.turn || 0;
  }

  function say(words) {
    var status = $("[data-live-status]");
    if (status && words) status.textContent = words;
  }

  function render() {
    var events = log ? log.events.slice() : [];
    var pending = queue.map(function (item) { return item.body; });
    var timeline = $("[data-timeline]");
    timeline.textContent = "";
    events.concat(pending.map(function (p) { return Object.assign({ pending: true }, p); }))
      .sort(byMatchOrder)
      .forEach(function (event) { timeline.appendChild(timelineItem(event, event.pending)); });

    ["home", "away"].forEach(function (s) {
      var score = events.concat(pending).filter(function (e) { return e.side === s && e.kind === "td"; }).length;
      $("[data-score=" + s + "]").textContent = score;
      var at = s === side ? clock[s] : lastOf(events.concat(pending), s);
      $("[data-clock=" + s + "]").textContent = at ? text("half", { half: at.half }) + " " + text("turn", { turn: at.turn }) : "";
      var confirmed = log && log.confirmed[s];
      $("[data-confirmed=" + s + "]").hidden = !confirmed;
    });

    var status = [];
    if (queue.length) status.push(queue.length === 1 ? text("waiting-one") : text("waiting", { count: queue.length }));
    if (!online) status.push(text("offline"));
    if (log && log.state === "final") status.push(text("final"));
    else if (log && log.state === "confirmed") status.push(text("both-confirmed"));
    $("[data-live-status]").textContent = status.join(" ") || (online ? text("online") : "");
    root.setAttribute("data-waiting", String(queue.length));
    root.setAttribute("data-state", log ? log.state : "");

    var controls = $("[data-live-controls]");
    var closed = log && log.state === "final";
    if (controls) controls.hidden = closed;
    all("[data-half]").forEach(function (b) {
      b.classList.toggle("active", side && Number(b.getAttribute("data-half")) === clock[side].half);
    });
    var turn = $("[data-turn]");
    if (turn && side) turn.textContent = clock[side].turn;
    all("[data-pick-side]").forEach(function (b) { b.classList.toggle("active", b.getAttribute("data-pick-side") === side); });
    var finalise = $("[data-finalise]");
    if (finalise) finalise.hidden = !(data.commissioner && log && log.state === "confirmed");
    var confirm = $("[data-confirm]");
    if (confirm) confirm.hidden = closed || (log && side && log.confirmed[side]);
    var undo = $("[data-undo]");
    if (undo) undo.hidden = closed;
  }

  function lastOf(events, s) {
    var mine = events.filter(function (e) { return e.side === s; }).sort(byMatchOrder);
    return mine[mine.length - 1];
  }

  function undo() {
    var mine = queue.filter(function (item) { return item.body.side === side; });
    if (mine.length) {
      dequeue(mine[mine.length - 1]).then(render);
      return;
    }
    if (!log) return;
    var own = log.events.filter(function (e) { return e.by === data.user_id; });
    own.sort(function (a, b) { return a.id - b.id; });
    var last = own[own.length - 1];
    if (last) act(eventUrl(last.id, "delete"));
  }

  // -- wiring

  function wire() {
    var kinds = $("[data-kinds]");
    if (kinds) {
      data.kinds.forEach(function (k) {
        var button = document.createElement("button");
        button.type = "button";
        button.className = "kind kind-" + k.kind;
        button.setAttribute("data-kind", k.kind);
        button.textContent = k.label;
        button.addEventListener("click", function () { startKind(k.kind); });
        kinds.appendChild(button);
      });
    }
    if (data.may_log.length > 1) {
      var pick = $("[data-sidepick]");
      if (pick) pick.hidden = false;
    }
    all("[data-pick-side]").forEach(function (b) {
      b.addEventListener("click", function () { side = b.getAttribute("data-pick-side"); render(); });
    });
    all("[data-half]").forEach(function (b) {
      b.addEventListener("click", function () {
        clock[side].half = Number(b.getAttribute("data-half"));
        clock[side].turn = 1;
        saveClock();
        render();
      });
    });
    all("[data-turn-step]").forEach(function (b) {
      b.addEventListener("click", function () {
        var next = clock[side].turn + Number(b.getAttribute("data-turn-step"));
        clock[side].turn = Math.min(data.turns_per_half, Math.max(1, next));
        saveClock();
        render();
      });
    });
    var cancel = $("[data-picker-cancel]");
    if (cancel) cancel.addEventListener("click", closePicker);
    var undoButton = $("[data-undo]");
    if (undoButton) undoButton.addEventListener("click", undo);
    var confirm = $("[data-confirm]");
    if (confirm) confirm.addEventListener("click", function () { act(data.confirm_url, { side: side }); });
    var finalise = $("[data-finalise]");
    if (finalise) finalise.addEventListener("click", function () {
      act(data.finalise_url).then(function () { location.href = location.pathname.replace(/\/live$/, ""); });
    });
    window.addEventListener("online", function () { setOnline(true); flush(); });
    window.addEventListener("offline", function () { setOnline(false); });
    document.addEventListener("visibilitychange", function () {
      if (!document.hidden) { poll(); flush(); }
    });
  }

  function tick() {
    if (!document.hidden) {
      poll();
      flush();
    }
    window.setTimeout(tick, POLL_MS);
  }

  // The service worker keeps what the page needs to open without signal; the page fills
  // its cache once at the start (its first load did not go through the worker).
  if ("serviceWorker" in navigator && data.worker_url) {
    navigator.serviceWorker.register(data.worker_url, { scope: data.worker_scope }).catch(function () {});
    if (window.caches && navigator.onLine !== false) {
      var kept = [location.pathname];
      Array.prototype.forEach.call(document.querySelectorAll("link[rel=stylesheet], link[rel=manifest], script[src]"), function (node) {
        var url = new URL(node.href || node.src, location.href);
        if (url.origin === location.origin) kept.push(url.pathname);
      });
      caches.open(data.cache_name).then(function (cache) { return cache.addAll(kept); }).catch(function () {});
    }
  }

  wire();
  render();
  loadQueue().then(function () { render(); tick(); });
})();
