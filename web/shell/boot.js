// First paint and start-up progress, before Python runs. Plain script, no modules, no network:
// it translates the static page from the inlined catalogue, applies the theme, and turns the
// runtime's own downloads into a real progress bar. Python takes over through window.scarabBoot.
(function () {
  "use strict";
  var root = document.documentElement;
  var data = {};
  try { data = JSON.parse(document.getElementById("boot-data").textContent || "{}"); } catch (e) { data = {}; }
  var messages = data.messages || {};
  var settings = {};
  try { settings = JSON.parse(localStorage.getItem("scarab:settings") || "{}") || {}; } catch (e) { settings = {}; }

  function preferredLanguage() {
    if (settings.language === "it" || settings.language === "en") return settings.language;
    var langs = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || "en"];
    for (var i = 0; i < langs.length; i++) {
      var l = String(langs[i]).toLowerCase();
      if (l.indexOf("it") === 0) return "it";
      if (l.indexOf("en") === 0) return "en";
    }
    return "en";
  }
  var lang = preferredLanguage();
  var theme = settings.theme === "dark" || settings.theme === "light" ? settings.theme
    : (window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light");
  root.lang = lang;
  root.dataset.theme = theme;

  function t(key, params) {
    var entry = messages[key];
    var text = entry ? (entry[lang] || entry.en || key) : key;
    if (params) for (var k in params) text = text.split("{" + k + "}").join(String(params[k]));
    return text;
  }
  function translate(scope) {
    var nodes = (scope || document).querySelectorAll("[data-i18n]");
    for (var i = 0; i < nodes.length; i++) nodes[i].textContent = t(nodes[i].getAttribute("data-i18n"));
    nodes = (scope || document).querySelectorAll("[data-i18n-aria-label]");
    for (i = 0; i < nodes.length; i++) nodes[i].setAttribute("aria-label", t(nodes[i].getAttribute("data-i18n-aria-label")));
  }
  translate();
  document.title = t("app.title");
  if (performance.mark) performance.mark("scarab:chooser-painted");

  // Progress: count the bytes of every same-origin download the runtime makes through fetch
  // (the wasm, the standard library, the lock file, the app archive) against the build's total.
  var bar = document.getElementById("boot-progress");
  var status = document.getElementById("boot-status");
  var total = data.bootBytes || 0;
  var loaded = 0;
  var stage = "downloading";
  function show() {
    if (stage !== "downloading") return;
    var pct = total ? Math.min(99, Math.floor(100 * loaded / total)) : 0;
    bar.value = pct;
    status.textContent = t("boot.downloading", { pct: pct });
  }
  function setStage(name) {
    stage = name;
    if (name === "starting") { bar.value = 99; status.textContent = t("boot.starting"); }
    if (name === "loading") { bar.removeAttribute("value"); status.textContent = t("boot.loading"); }
  }
  show();
  var realFetch = window.fetch.bind(window);
  window.fetch = function (input, init) {
    return realFetch(input, init).then(function (response) {
      var url = new URL(response.url || String(input), location.href);
      if (url.origin !== location.origin || !response.body || stage !== "downloading") return response;
      var reader = response.body.getReader();
      var counted = new ReadableStream({
        pull: function (controller) {
          return reader.read().then(function (step) {
            if (step.done) { controller.close(); return; }
            loaded += step.value.byteLength;
            show();
            controller.enqueue(step.value);
          });
        },
        cancel: function (reason) { return reader.cancel(reason); }
      });
      return new Response(counted, { status: response.status, statusText: response.statusText, headers: response.headers });
    });
  };
  window.addEventListener("py:progress", function (event) {
    if (event.detail === "Loaded interpreter") setStage("loading");
    else if (loaded >= total * 0.95) setStage("starting");
  });

  // Offline: register the service worker that pre-caches the site. A new version waits until the
  // player accepts the update; only that choice reloads the page (never the first install).
  var registerWorker = function () {};
  // In a frame on another site whose browser refuses it storage, merely reading
  // navigator.serviceWorker throws a SecurityError: the game must start all the same, uncached.
  var workers = null;
  try { workers = "serviceWorker" in navigator ? navigator.serviceWorker : null; } catch (e) { workers = null; }
  if (workers && location.protocol.indexOf("http") === 0) try {
    var updating = false;
    var offer = function (worker) {
      var banner = document.getElementById("update");
      banner.hidden = false;
      document.getElementById("update-reload").onclick = function () {
        updating = true;
        worker.postMessage("skip-waiting");
      };
    };
    navigator.serviceWorker.addEventListener("controllerchange", function () {
      if (updating) location.reload();
    });
    // Registered once the page is interactive: the first visit's pre-caching (15 MB) must not
    // compete with the runtime's own start-up.
    registerWorker = function () {
      navigator.serviceWorker.register("./sw.js").then(function (reg) {
        if (reg.waiting && navigator.serviceWorker.controller) offer(reg.waiting);
        reg.addEventListener("updatefound", function () {
          var worker = reg.installing;
          if (!worker) return;
          worker.addEventListener("statechange", function () {
            if (worker.state === "installed" && navigator.serviceWorker.controller) offer(worker);
          });
        });
        window.scarabBoot.checkForUpdate = function () { return reg.update(); };
      }).catch(function (err) { console.warn("offline cache unavailable: " + err); });
    };
  } catch (e) { registerWorker = function () {}; console.warn("offline cache unavailable: " + e); }

  // The full site (not embed.html) inside another site's page could be clicked through blindly
  // (clickjacking: a framing page once got a save deleted). Hosts should send frame-ancestors
  // 'none'; where they do not, the site refuses to run framed by a foreign page.
  var framed = false;
  if (document.body.getAttribute("data-embed") !== "1" && window.top !== window.self) {
    try { framed = window.top.location.origin !== location.origin; } catch (e) { framed = true; }
  }
  if (framed) {
    var main = document.getElementById("app");
    while (main.firstChild) main.removeChild(main.firstChild);
    var note = document.createElement("p");
    note.className = "framed";
    note.setAttribute("role", "alert");
    note.textContent = t("framed.body") + " ";
    var out = document.createElement("a");
    out.href = location.href;
    out.target = "_blank";
    out.rel = "noopener";
    out.textContent = t("framed.open");
    note.appendChild(out);
    main.appendChild(note);
  }

  // A frame with an opaque origin: a sandbox without allow-same-origin, which a sandboxed preview or
  // srcdoc host passes on to every frame inside it. From origin "null" each of the game's own files
  // is a cross-origin request the site's server does not answer for (so the engine's first module
  // never loads), and every storage throws: the game cannot start, and it says so at once instead of
  // waiting at 0 % for ever. The embed's start (embed_start.js) is only added where it can run.
  var sandboxed = false;
  try { sandboxed = String(window.origin) === "null" && location.protocol.indexOf("http") === 0; } catch (e) { sandboxed = false; }
  if (sandboxed) {
    stage = "failed";
    bar.hidden = true;
    var boot = document.getElementById("boot");
    boot.classList.add("failed", "sandboxed");
    boot.setAttribute("role", "alert");
    document.body.setAttribute("data-boot-failed", "sandboxed");
    status.textContent = t("embed.sandboxed") + " " + t("embed.sandboxed.host") + " ";
    var tab = document.createElement("a");
    tab.id = "boot-open";
    tab.href = location.href;
    tab.target = "_blank";
    tab.rel = "noopener";
    tab.textContent = t("framed.open");
    status.appendChild(tab);
  }

  // The phone's app bar: the navigation behind one menu button (it works before Python starts).
  var menu = document.getElementById("menu-button");
  if (menu) {
    var topbar = menu.parentNode;
    var gameBox = document.getElementById("bar-game");
    // In a game, the menu lists the game's own controls first: each a button that presses the one
    // in the game's toolbar (which on a phone sits in the closed drawer), so the view stays the only
    // place that knows what a control does and whether it is enabled right now.
    var fillGame = function () {
      if (!gameBox) return;
      while (gameBox.firstChild) gameBox.removeChild(gameBox.firstChild);
      var bar = document.querySelector("#app div.toolbar.row");
      var controls = bar ? bar.querySelectorAll("button, a.button") : [];
      var list = document.createElement("div");
      list.className = "bar-game-list";
      for (var i = 0; i < controls.length; i++) {
        (function (source) {
          var label = (source.getAttribute("aria-label") || source.textContent || "").trim();
          if (!label || source.hidden) return;
          var b = document.createElement("button");
          b.type = "button";
          b.className = "nav-button";
          b.textContent = label;
          b.disabled = !!source.disabled || source.getAttribute("aria-disabled") === "true";
          b.addEventListener("click", function () { source.click(); });
          list.appendChild(b);
        })(controls[i]);
      }
      gameBox.hidden = !list.firstChild;
      if (list.firstChild) {
        var title = document.createElement("p");
        title.className = "bar-game-title";
        title.id = "bar-game-title";
        title.textContent = t("nav.game");
        gameBox.appendChild(title);
        gameBox.appendChild(list);
      }
    };
    var setMenu = function (open) {
      if (open) fillGame();
      menu.setAttribute("aria-expanded", open ? "true" : "false");
      topbar.classList.toggle("menu-open", open);
    };
    menu.addEventListener("click", function () { setMenu(menu.getAttribute("aria-expanded") !== "true"); });
    topbar.addEventListener("click", function (event) {
      if (event.target.closest && event.target.closest("nav a, nav button")) setMenu(false);
    });
    document.addEventListener("keydown", function (event) {
      if (event.key === "Escape" && menu.getAttribute("aria-expanded") === "true") { setMenu(false); menu.focus(); }
    });
    window.addEventListener("hashchange", function () { setMenu(false); });
  }

  // Instant resume (web/platform/snapshot.py): a game route draws the game's stored snapshot at once, long
  // before Python starts, with its controls visibly waiting; Python replaces it when it is ready. A
  // snapshot is outside data: bounded, parsed in try/catch, drawn from a short list of tags, classes
  // and attributes, text through textContent only; anything odd and the page just waits as before.
  var SNAP_MAX = 120000, SNAP_NODES = 4000, SNAP_DEPTH = 14, SNAP_LIST = 50;
  var SNAP_TAGS = { div: 1, span: 1, p: 1, ul: 1, li: 1, b: 1, strong: 1, small: 1, h2: 1, section: 1 };
  var SNAP_ROLES = { img: 1, group: 1, list: 1, listitem: 1, note: 1 };
  var SNAP_GAMES = { scarabeo: 1, thot: 1, scarabya: 1 };
  var CLASS_OK = /^[A-Za-z0-9_* -]{0,160}$/;
  var has = function (o, k) { return typeof k === "string" && Object.prototype.hasOwnProperty.call(o, k); };
  var embedded = document.body.getAttribute("data-embed") === "1";
  var savePrefix = embedded ? "scarab:embed:save:" : "scarab:save:";
  var snapPrefix = embedded ? "scarab:embed:snap:" : "scarab:snap:";
  var appRoot = document.getElementById("app");
  var staticPage = appRoot ? Array.prototype.slice.call(appRoot.childNodes) : [];
  var snapshotShown = false;

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    return node;
  }
  function snapNode(spec, depth, budget) {
    if (!Array.isArray(spec) || !has(SNAP_TAGS, spec[0])) throw new Error("snapshot: unknown node");
    if (depth > SNAP_DEPTH || --budget.n < 0) throw new Error("snapshot: too large");
    var node = document.createElement(spec[0]);
    if (typeof spec[1] === "string" && spec[1] && CLASS_OK.test(spec[1])) node.className = spec[1];
    if (typeof spec[2] === "string" || typeof spec[2] === "number") node.textContent = String(spec[2]).slice(0, 300);
    if (Array.isArray(spec[3])) for (var i = 0; i < spec[3].length; i++) node.appendChild(snapNode(spec[3][i], depth + 1, budget));
    var attrs = spec[4];
    if (attrs && typeof attrs === "object" && !Array.isArray(attrs)) {
      if (has(SNAP_ROLES, attrs.role)) node.setAttribute("role", attrs.role);
      if (typeof attrs["aria-label"] === "string") node.setAttribute("aria-label", attrs["aria-label"].slice(0, 200));
      if (attrs["aria-hidden"] === "true") node.setAttribute("aria-hidden", "true");
      if (typeof attrs["--n"] === "string" && /^[0-9]{1,2}$/.test(attrs["--n"])) node.style.setProperty("--n", attrs["--n"]);
    }
    return node;
  }
  function readSnapshot(game, id) {
    if (!has(SNAP_GAMES, game) || !/^[A-Za-z0-9_-]{1,64}$/.test(id)) return null;
    try {
      if (localStorage.getItem(savePrefix + id) === null) return null; // a deleted game is never drawn
      var raw = localStorage.getItem(snapPrefix + id);
      if (typeof raw !== "string" || raw.length > SNAP_MAX) return null;
      var snap = JSON.parse(raw);
      if (!snap || typeof snap !== "object" || snap.v !== 1 || snap.game !== game || snap.id !== id) return null;
      return snap;
    } catch (e) { return null; }
  }
  function playRoute(hash) {
    var m = /^#\/([a-z]+)\/play\/([A-Za-z0-9_-]{1,64})$/.exec(hash || "");
    return m ? { game: m[1], id: m[2] } : null;
  }
  function showOnly(nodes) {
    while (appRoot.firstChild) appRoot.removeChild(appRoot.firstChild);
    for (var i = 0; i < nodes.length; i++) appRoot.appendChild(nodes[i]);
  }
  // Draw the snapshot of the game the address names (or of save `id`); false when there is none.
  function drawSnapshot(id) {
    var route = playRoute(location.hash);
    if (!appRoot || framed || !route || (id !== undefined && id !== null && String(id) !== route.id)) return false;
    var snap = readSnapshot(route.game, route.id);
    if (!snap) return false;
    var section;
    try {
      var budget = { n: SNAP_NODES };
      section = el("section", "snapshot" + (typeof snap.cls === "string" && CLASS_OK.test(snap.cls) ? " " + snap.cls : ""));
      section.setAttribute("data-snapshot", route.id);
      section.setAttribute("aria-busy", "true");
      section.appendChild(el("h1", "visually-hidden", String(snap.title || t("resume.picture")).slice(0, 80)));
      var wait = el("p", "snapshot-wait");
      wait.setAttribute("role", "status");
      var waitText = el("strong", "snapshot-wait-title", t("resume.starting"));
      wait.appendChild(el("span", "snapshot-spinner"));
      wait.appendChild(waitText);
      wait.appendChild(el("span", "snapshot-wait-note", " " + t("resume.note")));
      var busy = el("button", "primary snapshot-busy", t("resume.starting"));
      busy.type = "button";
      busy.setAttribute("aria-disabled", "true");
      if (snap.cover && typeof snap.cover === "object") {
        // pass-and-play: exactly the cover Python draws, nothing of the board or of any rack
        var cover = el("section", "cover");
        cover.appendChild(el("h2", "snapshot-cover-title", String(snap.cover.title || "").slice(0, 120)));
        cover.appendChild(el("p", "", String(snap.cover.body || "").slice(0, 300)));
        cover.appendChild(busy);
        section.appendChild(wait);
        section.appendChild(cover);
      } else {
        var layout = el("div", "game-layout");
        if (snap.head) layout.appendChild(snapNode(snap.head, 0, budget));
        if (snap.board) layout.appendChild(snapNode(snap.board, 0, budget));
        var hand = snap.hand ? snapNode(snap.hand, 0, budget) : el("div", "game-hand");
        hand.appendChild(busy);
        layout.appendChild(hand);
        section.appendChild(wait);
        section.appendChild(layout);
      }
      // A tap while the engine starts is refused out loud, never lost in silence.
      section.addEventListener("click", function (event) {
        event.preventDefault();
        waitText.textContent = t("resume.refused");
        wait.classList.remove("refused");
        void wait.offsetWidth;
        wait.classList.add("refused");
      });
    } catch (e) { return false; }
    showOnly([section]);
    snapshotShown = true;
    if (performance.mark) performance.mark("scarab:snapshot");
    return true;
  }
  // The chooser's Continue list before Python starts, from the snapshots of the latest games.
  function drawContinue() {
    if (!appRoot || framed || embedded) return;
    var found = [];
    try {
      for (var i = 0; i < localStorage.length && found.length < SNAP_LIST; i++) {
        var key = localStorage.key(i);
        if (!key || key.indexOf(snapPrefix) !== 0) continue;
        var id = key.slice(snapPrefix.length);
        var raw = localStorage.getItem(key);
        if (!raw || raw.length > SNAP_MAX || localStorage.getItem(savePrefix + id) === null) continue;
        try {
          var snap = JSON.parse(raw);
          if (snap && snap.v === 1 && snap.id === id && has(SNAP_GAMES, snap.game) && /^[A-Za-z0-9_-]{1,64}$/.test(id))
            found.push({ id: id, game: snap.game,
                         title: String(typeof snap.heading === "string" && snap.heading ? snap.heading : snap.title || id).slice(0, 80),
                         line: typeof snap.line === "string" ? snap.line.slice(0, 300) : "",
                         updated: typeof snap.updated === "number" ? snap.updated : 0 });
        } catch (e) { /* a damaged snapshot is left out; Python lists the save */ }
      }
    } catch (e) { return; }
    if (!found.length) return;
    found.sort(function (a, b) { return b.updated - a.updated; });
    var section = el("section", "continue snapshot-continue");
    section.setAttribute("aria-busy", "true");
    section.appendChild(el("h2", "", t("continue.title")));
    var list = el("ul", "saves");
    for (var j = 0; j < found.length; j++) {
      var item = el("li", "save");
      var link = el("a", "title", found[j].title);
      link.href = "#/" + found[j].game + "/play/" + found[j].id;
      item.appendChild(link);
      item.appendChild(el("span", "meta", t("game." + found[j].game + ".name")));
      // who plays, the scores and whose turn: the games told apart as Python's list does
      if (found[j].line) item.appendChild(el("span", "facts", found[j].line));
      list.appendChild(item);
    }
    section.appendChild(list);
    appRoot.appendChild(section);
    staticPage = Array.prototype.slice.call(appRoot.childNodes);
  }
  // A page asked for before Python is ready (a tap on "New game" during the start, issue 42): said at
  // once, in place of the chooser; Python draws that page as soon as it starts (it routes to the
  // address), so the tap is never lost, nor silent.
  function drawPending() {
    var section = el("section", "boot-pending");
    section.setAttribute("aria-busy", "true");
    var wait = el("p", "snapshot-wait");
    wait.setAttribute("role", "status");
    wait.appendChild(el("span", "snapshot-spinner"));
    wait.appendChild(el("strong", "snapshot-wait-title", t("boot.pending")));
    section.appendChild(wait);
    showOnly([section]);
    snapshotShown = true;
  }
  if (!framed && !drawSnapshot() && (location.hash === "" || location.hash === "#/")) drawContinue();
  window.addEventListener("hashchange", function () {
    if (stage === "ready" || stage === "failed" || framed || !appRoot) return; // Python draws from now on
    if (drawSnapshot()) return;
    if (location.hash !== "" && location.hash !== "#/") { drawPending(); return; }
    if (snapshotShown) { showOnly(staticPage); snapshotShown = false; }
  });

  window.scarabBoot = {
    framed: framed,
    lang: lang,
    theme: theme,
    t: t,
    translate: translate,
    drawSnapshot: drawSnapshot,
    ready: function () {
      stage = "ready";
      window.fetch = realFetch;
      document.getElementById("boot").hidden = true;
      document.body.dataset.ready = "1";
      if (performance.mark) performance.mark("scarab:interactive");
      setTimeout(registerWorker, 1000);
    },
    fail: function (message) {
      stage = "failed";
      bar.hidden = true;
      status.textContent = t("boot.failed", { error: message });
      document.getElementById("boot").classList.add("failed");
    }
  };

  // embed.html starts PyScript through embed_start.js, added here once the frame is known to have an
  // origin of its own (a static module script would be fetched, and refused, in a sandbox as well).
  if (embedded && !sandboxed) {
    var start = document.createElement("script");
    start.type = "module";
    start.src = "./web/shell/embed_start.js";
    document.body.appendChild(start);
  }
})();
