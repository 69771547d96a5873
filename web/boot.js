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

  // The phone's app bar: the navigation behind one menu button (it works before Python starts).
  var menu = document.getElementById("menu-button");
  if (menu) {
    var topbar = menu.parentNode;
    var setMenu = function (open) {
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

  window.scarabBoot = {
    framed: framed,
    lang: lang,
    theme: theme,
    t: t,
    translate: translate,
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
})();
