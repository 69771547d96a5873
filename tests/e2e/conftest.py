"""End-to-end harness: one server and one Chromium per session, the network blocked in every test.

Every request of every page is routed through ``guard``: only this machine's server (and blob:/data:
URLs) may be reached; anything else is aborted, recorded, and fails the test. Console errors and
uncaught page errors fail the test too.

Booting Pyodide is most of an e2e test's time (3 s on a quiet machine, far more under load), so the
``page`` fixture (and ``booted(...)`` for another size, language or touch screen) hands out a page
that booted once and serves test after test: a test's first ``open_site`` starts the app afresh on
its route in that page, and after the test the page is reset — the app's views unmounted and its
listeners gone, localStorage, sessionStorage, IndexedDB and the caches emptied, language, theme,
viewport and media emulation back to the defaults — and checked: everything outside the app's own
view must equal a freshly booted page, and storage must stay empty. A page that fails the check, that
a test left on another document or with a stored language or theme, is loaded again; the page of a
failed test is dropped. Errors and blocked requests count against the test holding the page (the
reset runs in its teardown). Tests about a first load (first paint, instant resume, offline, embeds,
a clock installed before the page loads, storage refused, several devices) keep a context of their
own: ``fresh_page`` or ``context_factory`` — most of them one that served a test before, emptied in
between, whose renderer process has Pyodide compiled already (``WarmContexts``).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import warnings
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

import pytest

from tests.conftest import BOOTS_IN, E2E_STATS

ROOT = Path(__file__).resolve().parents[2]
SHOTS = Path(__file__).resolve().parent / "screenshots"
CHROMIUM = os.environ.get("SCARAB_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run", "--disable-quic",
                 # the pages of one site in one context share a renderer process (see WarmContexts)
                 "--process-per-site"]
LOCAL = ("http://127.0.0.1:", "http://localhost:", "blob:", "data:")
SIZES = {"phone": (360, 740), "tablet": (768, 1024), "desktop": (1280, 800)}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="session")
def server(built_site: Path) -> Iterator[str]:
    port = free_port()
    env = {**os.environ, "SCARAB_QUIET": "1"}
    proc = subprocess.Popen([sys.executable, str(ROOT / "serve.py"), "--no-setup", "--no-open", "--port", str(port)],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    url = f"http://127.0.0.1:{port}/"
    deadline = time.time() + 20
    while time.time() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                break
        except OSError:
            time.sleep(0.1)
    else:
        proc.kill()
        pytest.fail(f"serve.py did not start: {proc.stdout.read() if proc.stdout else ''}")
    yield url
    proc.terminate()
    proc.wait(timeout=10)


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        pytest.fail(f"Chromium not found at {CHROMIUM} (apt-get install chromium)")
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@dataclass
class Guard:
    blocked: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def route(self, route: Any) -> None:
        url = route.request.url
        if url.startswith(LOCAL):
            route.continue_()
        else:
            self.blocked.append(url)
            route.abort()


def booted_tab(browser: Any, server: str, width: int, height: int) -> Iterator[tuple[Any, Guard]]:
    """A page of the site booted in a context of a module's own at ``width``×``height``, with its
    guard; closed, and the guard checked, when the module is done (a module fixture yields from it)."""
    guard = Guard()
    ctx = browser.new_context(viewport={"width": width, "height": height}, locale="en-GB", service_workers="block")
    ctx.route("**/*", guard.route)
    page = watch(ctx.new_page(), guard)
    page.goto(server)
    page.wait_for_selector("body[data-ready='1']", timeout=60_000)
    yield page, guard
    ctx.close()
    assert guard.blocked == [] and guard.errors == [], (guard.blocked, guard.errors)


@pytest.fixture
def guard() -> Guard:
    return Guard()


@pytest.fixture
def context_factory(browser: Any, guard: Guard, request: Any, warm_contexts: "WarmContexts") -> Iterator[Any]:
    """``context_factory(width, height, locale, **kw)``: a browser context of the test's own — its own
    storage, its first load of the site a first visit. Most are contexts that served other tests
    before, emptied in between (see ``WarmContexts``); the rest are new."""
    if "own_server" in request.fixturenames:
        # set up first, so that it stops after the pages close: a page still loading from a stopped
        # server logs "Failed to load resource", which the console guard would count
        request.getfixturevalue("own_server")
    contexts: list[Any] = []
    borrowed: list[Warm] = []

    def make(width: int = 1280, height: int = 800, locale: str = "en-GB", **kw: Any) -> Any:
        # Service workers are off unless a test asks for them: the offline cache copies the whole
        # site (15 MB) on a first visit, which only the offline tests need.
        kw.setdefault("service_workers", "block")
        warm = warm_contexts.take(guard, width, height, locale, kw)
        if warm is not None:
            borrowed.append(warm)
            return Borrowed(warm)
        ctx = browser.new_context(viewport={"width": width, "height": height}, locale=locale, **kw)
        ctx.route("**/*", guard.route)
        contexts.append(ctx)
        return ctx

    yield make
    failed = getattr(request.node, "e2e_call_failed", True) or getattr(request.node, "e2e_setup_failed", False)
    for warm in borrowed:
        warm_contexts.give_back(warm, failed)
    for ctx in contexts:
        ctx.close()
    assert guard.blocked == [], f"the page tried to reach the network: {guard.blocked}"
    assert guard.errors == [], f"console errors: {guard.errors}"


# --- contexts of a test's own, kept warm ----------------------------------------------------------
#: Where a kept context's anchor page is (answered by the context's own route, never by the server).
ANCHOR_PATH = "__e2e_anchor.html"
#: The anchor: a page of the site's origin that compiles Pyodide's WebAssembly module and holds it. With
#: ``--process-per-site`` every page of the site in that context shares the anchor's renderer process,
#: so a new page's Pyodide finds the module compiled (and its hot functions optimised by the pages
#: before): ~3 core-seconds a boot instead of ~6 in a new context.
ANCHOR_HTML = """<!doctype html><meta charset="utf-8"><title>e2e anchor</title><script>
WebAssembly.compileStreaming(fetch('vendor/pyodide/pyodide.asm.wasm', {credentials: 'same-origin'}))
  .then(m => { window.pyodideModule = m; document.title = 'ready'; },
        e => { document.title = 'failed: ' + e; });
</script>"""
#: (anchor.evaluate) What the site's origin holds after the clean-up: all of it must be empty.
LEFT_OVER = """async () => ({
  local: localStorage.length, session: sessionStorage.length,
  databases: indexedDB.databases ? (await indexedDB.databases()).length : 0,
  caches: window.caches ? (await caches.keys()).length : 0,
  workers: navigator.serviceWorker ? (await navigator.serviceWorker.getRegistrations()).length : 0,
  cookies: document.cookie.length,
})"""
#: Options a kept context may be asked for, beside its size and locale (the rest get a new context).
KEPT_OPTIONS = {"service_workers", "storage_state", "has_touch", "is_mobile"}


@dataclass
class Warm:
    """A context kept between tests: its anchor page, the test holding it now and what it did."""

    key: tuple[Any, ...]
    context: Any
    guard: Guard
    anchor: Any = None
    cdp: Any = None
    #: origins the test's pages asked for (their storage is emptied when the context is given back)
    origins: set[str] = field(default_factory=set)
    #: why the context cannot serve another test ("" if it can): something a test added that stays
    tainted: str = ""
    uses: int = 0

    def route(self, route: Any) -> None:
        url = route.request.url
        if url.startswith(LOCAL[:2]):
            self.origins.add("/".join(url.split("/", 3)[:3]))
        self.guard.route(route)


class Borrowed:
    """What a test gets for a kept context: the context itself, but for its anchor page (not among
    ``pages``) and for what would stay in it after the test (an init script, a clock, a route, an
    event handler, permissions…), which marks it to be closed instead of kept."""

    STAYS = {"add_init_script", "clock", "expose_binding", "expose_function", "grant_permissions", "set_offline",
             "set_geolocation", "set_extra_http_headers", "add_cookies", "route", "route_from_har",
             "route_web_socket", "unroute", "unroute_all", "on", "once", "set_default_timeout",
             "set_default_navigation_timeout", "tracing", "request", "remove_listener"}

    def __init__(self, warm: Warm) -> None:
        object.__setattr__(self, "_warm", warm)

    def __getattr__(self, name: str) -> Any:
        warm: Warm = object.__getattribute__(self, "_warm")
        if name in self.STAYS:
            warm.tainted = name
        if name == "pages":
            return [p for p in warm.context.pages if p is not warm.anchor]
        if name == "close":
            warm.tainted = "closed by the test"
        return getattr(warm.context, name)


class WarmContexts:
    """Contexts for the tests that need one of their own, kept between them (issue 25).

    A new context is a new renderer process that compiles Pyodide's WebAssembly and JavaScript afresh:
    ~6 core-seconds a boot, against ~3 for a page in a process that did it before. So a context given
    back is kept — its pages closed, every origin its pages used emptied (``Storage.clearDataForOrigin``:
    local and session storage, IndexedDB, caches, service workers, cookies), its HTTP cache cleared,
    and checked empty — with its anchor page, and handed to the next test that asks for the same size,
    locale and options. A context a test added something to that would stay (``Borrowed.STAYS``), or
    whose test failed, is closed. What a test sees is a first visit in a browser of its own, as before;
    only the compiled code is warm. ``SCARAB_E2E_NEW_CONTEXTS=1`` makes a new context every time (to
    compare)."""

    #: idle contexts kept per kind (a live game takes three phones at once)
    KEEP = 3
    #: a context serves this many tests, then a new one is made
    MAX_USES = 30

    def __init__(self, browser: Any, server: str) -> None:
        self.browser, self.server = browser, server.rstrip("/")
        self.idle: dict[tuple[Any, ...], list[Warm]] = {}

    def take(self, guard: Guard, width: int, height: int, locale: str, kw: dict[str, Any]) -> Warm | None:
        """A kept context for these options (None: they need a new context of the test's own)."""
        if os.environ.get("SCARAB_E2E_NEW_CONTEXTS") or not set(kw) <= KEPT_OPTIONS or kw.get("service_workers") != "block":
            return None
        state = kw.get("storage_state")
        if state is not None and (state.get("cookies") or
                                  any(o.get("origin") != self.server for o in state.get("origins", []))):
            return None
        options = {k: v for k, v in kw.items() if k != "storage_state"}
        key = (width, height, locale, tuple(sorted(options.items())))
        waiting = self.idle.get(key, [])
        if waiting:
            warm = waiting.pop()
            warm.guard = guard
            STATS["contexts of a test's own: kept ones reused"] += 1
        else:
            warm = self.make(key, guard, width, height, locale, options)
        warm.uses += 1
        if state is not None:
            for origin in state.get("origins", []):
                warm.anchor.evaluate("items => { for (const it of items) localStorage.setItem(it.name, it.value); }",
                                     origin.get("localStorage", []))
        return warm

    def make(self, key: tuple[Any, ...], guard: Guard, width: int, height: int, locale: str,
             options: dict[str, Any]) -> Warm:
        ctx = self.browser.new_context(viewport={"width": width, "height": height}, locale=locale, **options)
        warm = Warm(key, ctx, guard)
        ctx.route("**/*", warm.route)
        ctx.route(f"{self.server}/{ANCHOR_PATH}",
                  lambda route: route.fulfill(status=200, content_type="text/html", body=ANCHOR_HTML))
        warm.anchor = ctx.new_page()
        warm.anchor.goto(f"{self.server}/{ANCHOR_PATH}")
        warm.anchor.wait_for_function("document.title !== 'e2e anchor'", timeout=60_000)
        if warm.anchor.title() != "ready":
            raise RuntimeError(f"the anchor page did not compile Pyodide: {warm.anchor.title()}")
        warm.cdp = ctx.new_cdp_session(warm.anchor)
        STATS["contexts of a test's own: kept ones made"] += 1
        return warm

    def give_back(self, warm: Warm, failed: bool) -> None:
        why = warm.tainted or ("the test failed" if failed else "") or (
            "served its tests" if warm.uses >= self.MAX_USES else "")
        if not why:
            try:
                self.empty(warm)
            except Exception as err:  # not kept as it is: the test's own result stands
                why = f"could not be emptied ({err!r})"
        waiting = self.idle.setdefault(warm.key, [])
        if why or len(waiting) >= self.KEEP:
            STATS[f"contexts of a test's own: closed ({why.split(' (')[0] or 'enough kept'})"] += 1
            try:
                warm.context.close()
            except Exception:
                pass
            return
        waiting.append(warm)

    def empty(self, warm: Warm) -> None:
        """Close the test's pages and empty every origin they used, then check that nothing is left."""
        for page in warm.context.pages:
            if page is not warm.anchor:
                page.close()
        if warm.anchor.is_closed() or warm.anchor.title() != "ready":
            raise RuntimeError("the anchor page is gone")
        for origin in sorted(warm.origins | {self.server}):
            warm.cdp.send("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "all"})
        warm.origins.clear()
        warm.cdp.send("Network.clearBrowserCache")
        warm.context.clear_cookies()
        left = warm.anchor.evaluate(LEFT_OVER)
        if any(left.values()):
            raise RuntimeError(f"storage left after the clean-up: {left}")

    def close(self) -> None:
        for waiting in self.idle.values():
            for warm in waiting:
                try:
                    warm.context.close()
                except Exception:
                    pass
        self.idle.clear()


@pytest.fixture(scope="session")
def warm_contexts(browser: Any, server: str) -> Iterator[WarmContexts]:
    kept = WarmContexts(browser, server)
    yield kept
    kept.close()


def watch(page: Any, guard: Guard) -> Any:
    def on_console(msg: Any) -> None:
        if msg.type == "error":
            guard.errors.append(msg.text)

    page.on("console", on_console)
    page.on("pageerror", lambda err: guard.errors.append(f"pageerror: {err}"))
    count_loads(page)
    return page


# --- counting boots ----------------------------------------------------------------------------------
#: What the session's pages did: site documents loaded (each one boots Pyodide), shared pages.
STATS = E2E_STATS  # summed over xdist's workers and printed by tests/conftest.py


def is_site_document(url: str) -> bool:
    """A page of the site (index or embed), not a test's own host page or about:blank."""
    if not url.startswith(LOCAL[:2]):
        return False
    path = url.split("#")[0].split("?")[0]
    return not path.endswith(".html") or path.endswith(("/index.html", "/embed.html"))


def count_boot() -> None:
    STATS["site documents loaded (Pyodide boots)"] += 1
    # pytest names the test being set up, run or torn down: a boot counts against its file
    current = os.environ.get("PYTEST_CURRENT_TEST", "?").split("::")[0]
    STATS[BOOTS_IN + current] += 1


def count_loads(page: Any) -> None:
    """Count the site documents a page loads, in its main frame and in its frames (embeds)."""
    frames: set[int] = set()

    def on_load(p: Any) -> None:
        if is_site_document(p.url):
            count_boot()

    def on_frame(frame: Any) -> None:
        # a frame's first document is counted once; its hash changes are no new document
        if frame.parent_frame is not None and id(frame) not in frames and is_site_document(frame.url):
            frames.add(id(frame))
            count_boot()

    page.on("domcontentloaded", on_load)
    page.on("framenavigated", on_frame)


# --- shared booted pages -----------------------------------------------------------------------------
#: Run in the page's Python: stop the running app (its views unmounted, its listeners and timers
#: gone), or start a new one on the page's current address, as index.html's own script does. The app's
#: module is read from that script, so the harness follows the app wherever it moves.
APP_CONTROL = r"""
import gc, importlib, re
from pyscript import document, window

def _e2e_app_module():
    script = document.querySelector('script[type="py"]')
    found = re.search(r"from\s+([\w.]+)\s+import\s+start", str(script.textContent))
    if found is None:
        raise RuntimeError("the page's Python script does not say where start() is")
    return importlib.import_module(found.group(1))

def _e2e_stop():
    module = _e2e_app_module()
    apps = [o for o in gc.get_referrers(module.App) if isinstance(o, module.App)]
    if not apps:
        raise RuntimeError("no running app found")
    for app in apps:
        unmount, app.unmount = app.unmount, None
        if unmount is not None:
            unmount()
        app.scope.close()
        app.shell_scope.close()
        timer, app._toast_timer = app._toast_timer, None
        if timer is not None:
            window.clearTimeout(timer)
    return len(apps)
"""

#: (page.evaluate) Run Python in the page through PyScript's own handle on the interpreter.
RUN_PYTHON = """async (code) => {
  const src = document.querySelector('script[type=module][src*="pyscript/core"]').src;
  const { whenDefined } = await import(src);
  const late = new Promise((_, no) => setTimeout(() => no(new Error("PyScript's interpreter did not answer")), 20000));
  const py = await Promise.race([whenDefined('py'), late]);
  return py.interpreter.runPython(code);
}"""

#: (page.evaluate) Everything outside the app's own view (which the app redraws from storage): the
#: shell, dialogs, the toast, the document's attributes and title, and what a test may leave in the
#: page's globals. Equal to the freshly booted page's after a reset, or the page is loaded again.
SIGNATURE = """() => {
  const doc = document.documentElement.cloneNode(true);
  doc.querySelector('#app').replaceChildren();
  doc.querySelector('#boot').remove();
  const globals = Object.keys(window).filter(k => k.startsWith('__')).sort();
  const patched = ['now'].filter(k => Object.prototype.hasOwnProperty.call(performance, k));
  return JSON.stringify([doc.outerHTML, document.title, globals, patched, scrollX, scrollY]);
}"""

#: (page.evaluate) After the app is stopped: storage emptied, the shell back as boot.js left it.
CLEAN = """async ({lang, url, attrs}) => {
  await new Promise(ok => setTimeout(ok, 30));  // a computer turn in progress sees its page closed
  // what the app put in <body> beside the page a fresh boot has (the live region of a game page)
  const key = el => [el.tagName, el.id || el.className].join('|');
  for (const el of [...document.body.children]) if (!attrs.children.includes(key(el))) el.remove();
  for (const [el, keep] of [[document.documentElement, attrs.html], [document.body, attrs.body]])
    for (const name of el.getAttributeNames()) if (!keep.includes(name)) el.removeAttribute(name);
  for (const d of document.querySelectorAll('dialog')) { if (d.open) d.close(); d.remove(); }
  document.getElementById('wordcheck-open')?.remove();  // the app adds it again when it starts
  localStorage.clear();
  sessionStorage.clear();
  if (indexedDB.databases) for (const db of await indexedDB.databases()) indexedDB.deleteDatabase(db.name);
  if (window.caches) for (const key of await caches.keys()) await caches.delete(key);
  const toast = document.getElementById('toast');
  toast.textContent = ''; toast.className = 'toast'; toast.hidden = true;
  const menu = document.getElementById('menu-button');
  menu.setAttribute('aria-expanded', 'false');
  menu.parentNode.classList.remove('menu-open');
  const bar = document.getElementById('bar-game');
  bar.replaceChildren(); bar.hidden = true;
  const boot = window.scarabBoot;
  boot.lang = lang;
  document.documentElement.lang = lang;
  document.documentElement.dataset.theme = boot.theme;
  boot.translate();
  document.title = boot.t('app.title');
  document.getElementById('app').replaceChildren();
  if (document.activeElement && document.activeElement !== document.body) document.activeElement.blur();
  getSelection().removeAllRanges();
  history.replaceState(null, '', url);
  scrollTo(0, 0);
}"""

#: (page.evaluate) The attributes of a freshly booted page's <html> and <body>, and the elements in its
#: body (the app adds others: figures for the benchmarks such as data-daily-ms, a game's live region).
ATTRIBUTES = """() => ({html: document.documentElement.getAttributeNames(), body: document.body.getAttributeNames(),
  children: [...document.body.children].map(el => [el.tagName, el.id || el.className].join('|'))})"""

#: (page.evaluate) Is this page the site, booted, with boot.js's language and theme the defaults?
STATE = """(probe) => ({
  site: !!window.scarabBoot && document.body.dataset.ready === '1' && document.body.dataset.embed !== '1',
  bootLang: window.scarabBoot ? window.scarabBoot.t(probe) : null,
  theme: window.scarabBoot ? window.scarabBoot.theme : null,
  stored: localStorage.length + sessionStorage.length,
})"""

#: A message whose two languages differ: what boot.js translated the static page with.
LANG_PROBE = "nav.settings"


@dataclass
class Shared:
    """One booted page of the pool, and the test using it now."""

    key: tuple[Any, ...]
    context: Any
    page: Any
    guard: Guard
    lang: str = ""
    boot_text: str = ""
    theme: str = ""
    baseline: str = ""
    attributes: dict[str, list[str]] = field(default_factory=dict)
    uses: int = 0
    #: the test has not opened a route yet: its first ``open_site`` starts the app on that route
    fresh: bool = False


class Pool:
    """Booted pages, one per (locale, touch, mobile), reused test after test with a reset between."""

    #: Pages kept at once (a booted Pyodide page holds a few hundred MB).
    KEEP = 3
    #: A page serves this many tests, then a new one boots (whatever leaks in a long-lived page stays small).
    MAX_USES = 40

    def __init__(self, browser: Any, server: str) -> None:
        self.browser, self.server = browser, server
        self.idle: OrderedDict[tuple[Any, ...], Shared] = OrderedDict()
        self.by_page: dict[int, Shared] = {}

    # --- handing out and taking back ------------------------------------------------------------------
    def take(self, guard: Guard, width: int, height: int, locale: str, has_touch: bool, is_mobile: bool) -> Shared:
        key = (locale, has_touch, is_mobile)
        shared = self.idle.pop(key, None)
        if shared is None:
            while len(self.idle) >= self.KEEP:
                self.drop(self.idle.popitem(last=False)[1])
            shared = self.boot(key, guard)
        else:
            STATS["tests on a page booted before"] += 1
        shared.guard = guard
        shared.uses += 1
        shared.fresh = True
        shared.page.set_viewport_size({"width": width, "height": height})
        self.by_page[id(shared.page)] = shared
        return shared

    def give_back(self, shared: Shared, failed: bool) -> None:
        """After a test (its errors still counted against it): reset the page for the next one."""
        self.by_page.pop(id(shared.page), None)
        if failed or shared.page.is_closed() or shared.uses >= self.MAX_USES:
            self.drop(shared)
            return
        try:
            self.reset(shared)
        except Exception as err:  # the page is not reused as it is; the test's own result stands
            warnings.warn(f"e2e: a shared page could not be reset ({err!r}); a new one will boot")
            self.drop(shared)
            return
        if shared.key in self.idle:  # a test held two pages of one kind: keep one
            self.drop(shared)
            return
        self.idle[shared.key] = shared

    def drop(self, shared: Shared) -> None:
        try:
            shared.context.close()
        except Exception:
            pass

    def close(self) -> None:
        while self.idle:
            self.drop(self.idle.popitem()[1])

    def shared(self, page: Any) -> Shared | None:
        return self.by_page.get(id(page))

    # --- booting, starting, resetting ---------------------------------------------------------------
    def boot(self, key: tuple[Any, ...], guard: Guard) -> Shared:
        locale, has_touch, is_mobile = key
        ctx = self.browser.new_context(viewport={"width": 1280, "height": 800}, locale=locale, has_touch=has_touch,
                                       is_mobile=is_mobile, service_workers="block")
        shared = Shared(key, ctx, None, guard)
        # The guard of whichever test holds the page now: errors and blocked requests count against it.
        ctx.route("**/*", lambda route: shared.guard.route(route))
        page = ctx.new_page()
        page.on("console", lambda msg: shared.guard.errors.append(msg.text) if msg.type == "error" else None)
        page.on("pageerror", lambda err: shared.guard.errors.append(f"pageerror: {err}"))
        count_loads(page)
        shared.page = page
        STATS["shared pages booted"] += 1
        self.load(shared)
        shared.lang = page.evaluate("window.scarabBoot.lang")
        shared.theme = page.evaluate("window.scarabBoot.theme")
        shared.boot_text = page.evaluate("p => window.scarabBoot.t(p)", LANG_PROBE)
        shared.baseline = page.evaluate(SIGNATURE)
        shared.attributes = page.evaluate(ATTRIBUTES)
        return shared

    def load(self, shared: Shared) -> None:
        """Load the site's home page afresh (storage is empty: a first visit)."""
        shared.page.goto(self.server)
        shared.page.wait_for_selector("body[data-ready='1']", timeout=60_000)

    def python(self, page: Any, code: str) -> Any:
        return page.evaluate(RUN_PYTHON, APP_CONTROL + code)

    def start(self, shared: Shared, route: str) -> None:
        """Start the app afresh on ``route`` in the booted page, as a first visit to that address would."""
        page = shared.page
        self.python(page, "_e2e_stop()")
        # the app's button in the top bar goes with it (the new app adds its own)
        page.evaluate("url => { document.getElementById('wordcheck-open')?.remove(); history.replaceState(null, '', url); }",
                      self.server + route)
        self.python(page, "_e2e_app_module().start()")
        page.wait_for_selector("body[data-ready='1']", timeout=60_000)

    def reset(self, shared: Shared) -> None:
        page = shared.page
        page.unroute_all(behavior="ignoreErrors")
        page.emulate_media(media="null", color_scheme="light", reduced_motion="no-preference", forced_colors="none")
        page.mouse.move(0, 0)
        state = page.evaluate(STATE, LANG_PROBE) if page.url.startswith(self.server) else {"site": False}
        if not state["site"] or state["bootLang"] != shared.boot_text or state["theme"] != shared.theme:
            # another document, or one booted with a stored language or theme: load it afresh
            self.reload(shared, "left on another document or booted with other settings")
            return
        self.python(page, "_e2e_stop()")
        page.evaluate(CLEAN, {"lang": shared.lang, "url": self.server, "attrs": shared.attributes})
        self.python(page, "_e2e_app_module().start()")
        signature = page.evaluate(SIGNATURE)
        stored = page.evaluate("localStorage.length + sessionStorage.length")
        if signature != shared.baseline or stored:
            self.reload(shared, "the page differed from a fresh one after the reset"
                        if signature != shared.baseline else "storage written after the reset")
            return
        STATS["shared pages reset in place"] += 1

    def reload(self, shared: Shared, why: str) -> None:
        page = shared.page
        if not page.url.startswith(self.server):
            raise RuntimeError(f"the page is on {page.url.split('#')[0]}")
        page.evaluate("() => { localStorage.clear(); sessionStorage.clear(); }")
        self.load(shared)
        if page.evaluate(STATE, LANG_PROBE)["stored"]:
            raise RuntimeError("storage was not empty after loading the page again")
        shared.baseline = page.evaluate(SIGNATURE)
        STATS[f"shared pages loaded again: {why}"] += 1


@pytest.fixture(scope="session")
def pool(browser: Any, server: str) -> Iterator[Pool]:
    shared = Pool(browser, server)
    yield shared
    shared.close()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: Any, call: Any) -> Iterator[None]:
    outcome = yield
    report = outcome.get_result()
    setattr(item, f"e2e_{report.when}_failed", report.failed)


@pytest.fixture
def booted(pool: Pool, guard: Guard, request: Any) -> Iterator[Any]:
    """``booted(width, height, locale=, has_touch=, is_mobile=)``: a shared booted page at that size;
    the test's first ``open_site`` starts the app on its route (no Pyodide boot)."""
    taken: list[Shared] = []

    def take(width: int = 1280, height: int = 800, locale: str = "en-GB", has_touch: bool = False,
             is_mobile: bool = False) -> Any:
        shared = pool.take(guard, width, height, locale, has_touch, is_mobile)
        taken.append(shared)
        return shared.page

    yield take
    failed = getattr(request.node, "e2e_call_failed", True) or getattr(request.node, "e2e_setup_failed", False)
    for shared in taken:
        pool.give_back(shared, failed)
    assert guard.blocked == [], f"the page tried to reach the network: {guard.blocked}"
    assert guard.errors == [], f"console errors: {guard.errors}"


@pytest.fixture(scope="session")
def device_pools(browser: Any, server: str) -> Iterator[list[Pool]]:
    """One pool per device (up to four: Scarabeo's table): each keeps one booted page in a context of
    its own, booted when first taken."""
    pools = [Pool(browser, server) for _ in range(4)]
    yield pools
    for one in pools:
        one.close()


@pytest.fixture
def devices(device_pools: list[Pool], guard: Guard, request: Any) -> Iterator[Any]:
    """``devices(n)``: n booted pages (desktop size, English), each in a context of its own — n
    devices with their own storage — reused test after test with the pool's reset between, for tests
    of several devices that are not about a first load. Navigate them with ``page.goto``."""
    taken: list[tuple[Pool, Shared]] = []

    def take(n: int) -> list[Any]:
        start = len(taken)
        if start + n > len(device_pools):
            raise ValueError(f"at most {len(device_pools)} devices")
        for one in device_pools[start:start + n]:
            taken.append((one, one.take(guard, 1280, 800, "en-GB", False, False)))
        return [shared.page for _one, shared in taken[start:]]

    yield take
    failed = getattr(request.node, "e2e_call_failed", True) or getattr(request.node, "e2e_setup_failed", False)
    for one, shared in taken:
        one.give_back(shared, failed)
    assert guard.blocked == [], f"the page tried to reach the network: {guard.blocked}"
    assert guard.errors == [], f"console errors: {guard.errors}"


@pytest.fixture
def page(booted: Any) -> Any:
    """A shared booted page (desktop size, English)."""
    return booted()


@pytest.fixture
def fresh_page(context_factory: Any, guard: Guard) -> Any:
    """A page in a context of its own: for the tests of a first load."""
    return watch(context_factory().new_page(), guard)


@pytest.fixture
def open_site(server: str, guard: Guard, pool: Pool) -> Any:
    """Open a route and wait until Python has taken over. In a shared page, the test's first route is
    a fresh start of the app on that address (Pyodide already booted); later ones are navigations."""

    def go(page: Any, route: str = "") -> Any:
        shared = pool.shared(page)
        if shared is not None and shared.fresh:
            shared.fresh = False
            try:
                pool.start(shared, route)
                return page
            except Exception as err:  # storage is empty (reset): a full load is a first visit too
                warnings.warn(f"e2e: the app could not be restarted in a shared page ({err!r}); loading it")
                STATS["shared pages loaded: the app could not be restarted"] += 1
                page.goto("about:blank")
        page.goto(server + route)
        page.wait_for_selector("body[data-ready='1']", timeout=60_000)
        return page

    return go


@pytest.fixture
def own_server(built_site: Path) -> Iterator[Any]:
    """Serve a copy of the built site from a server the test may stop (offline tests) or change."""
    import shutil
    import tempfile
    import threading

    sys.path.insert(0, str(ROOT))
    import serve

    started: list[Any] = []
    tmp = Path(tempfile.mkdtemp(prefix="scarab-site-"))

    def start(sub_path: str = "", port: int = 0) -> str:
        target = tmp / sub_path.strip("/") if sub_path else tmp / "site"
        if not target.exists():
            shutil.copytree(built_site, target, copy_function=os.link)
        root = tmp if sub_path else target
        server = serve.make_server("127.0.0.1", port, root)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        started.append(server)
        return f"http://127.0.0.1:{server.server_address[1]}/{sub_path.strip('/') + '/' if sub_path else ''}"

    def stop() -> None:
        while started:
            server = started.pop()
            server.shutdown()
            server.server_close()

    start.stop = stop  # type: ignore[attr-defined]
    start.root = tmp  # type: ignore[attr-defined]
    yield start
    stop()
    shutil.rmtree(tmp, ignore_errors=True)


@pytest.fixture(scope="session")
def lex(built_site: Path) -> Any:
    """The Italian lexicon (built by the session's set-up), for tests that compute Scarabeo plays."""
    import lexicon

    return lexicon.load()


@pytest.fixture(scope="session")
def gen(lex: Any) -> Any:
    """Scarabeo's move generator over the lexicon (tests pick real plays with it)."""
    from game.scarabeo.movegen import MoveGenerator

    return MoveGenerator(lex)


def shot(page: Any, name: str, full_page: bool = True) -> Path:
    """Save a screenshot (the whole page, or with ``full_page=False`` what the viewport shows)."""
    SHOTS.mkdir(exist_ok=True)
    path = SHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=full_page)
    return path
