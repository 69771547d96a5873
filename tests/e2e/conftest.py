"""End-to-end harness: one server and one Chromium per session, the network blocked in every test.

Every test gets a fresh browser context whose requests are all routed through ``guard``: only this
machine's server (and blob:/data: URLs) may be reached; anything else is aborted, recorded, and fails
the test. Console errors and uncaught page errors fail the test too.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

import pytest

ROOT = Path(__file__).resolve().parents[2]
SHOTS = Path(__file__).resolve().parent / "screenshots"
CHROMIUM = os.environ.get("SCARAB_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run", "--disable-quic"]
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


@pytest.fixture
def guard() -> Guard:
    return Guard()


@pytest.fixture
def context_factory(browser: Any, guard: Guard, request: Any) -> Iterator[Any]:
    if "own_server" in request.fixturenames:
        # set up first, so that it stops after the pages close: a page still loading from a stopped
        # server logs "Failed to load resource", which the console guard would count
        request.getfixturevalue("own_server")
    contexts: list[Any] = []

    def make(width: int = 1280, height: int = 800, locale: str = "en-GB", **kw: Any) -> Any:
        # Service workers are off unless a test asks for them: the offline cache copies the whole
        # site (15 MB) on a first visit, which only the offline tests need.
        kw.setdefault("service_workers", "block")
        ctx = browser.new_context(viewport={"width": width, "height": height}, locale=locale, **kw)
        ctx.route("**/*", guard.route)
        contexts.append(ctx)
        return ctx

    yield make
    for ctx in contexts:
        ctx.close()
    assert guard.blocked == [], f"the page tried to reach the network: {guard.blocked}"
    assert guard.errors == [], f"console errors: {guard.errors}"


def watch(page: Any, guard: Guard) -> Any:
    def on_console(msg: Any) -> None:
        if msg.type == "error":
            guard.errors.append(msg.text)

    page.on("console", on_console)
    page.on("pageerror", lambda err: guard.errors.append(f"pageerror: {err}"))
    return page


@pytest.fixture
def page(context_factory: Any, guard: Guard) -> Any:
    return watch(context_factory().new_page(), guard)


@pytest.fixture
def open_site(server: str, guard: Guard) -> Any:
    """Navigate a page to a route and wait until Python has taken over."""

    def go(page: Any, route: str = "") -> Any:
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
