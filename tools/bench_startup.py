"""Start-up benchmark: this site vs a bare PyScript+Pyodide page, side by side in one run.

    .venv/bin/python tools/bench_startup.py [--runs 5]

Both pages are served from one local server and use the same vendored runtime. For each, it measures
(median over runs, loads interleaved so both see the same machine state):
- first contentful paint (the site's HTML chooser; the bare page's first text),
- interactive: when Python has run (the site: the shell has taken over; the bare page: it printed its line),
cold (fresh profile, everything downloaded) and warm (a persistent profile, loaded before; for the site,
served by its service worker).
It prints the figures and the ratio site/bare. Targets: interactive ≤ 1.15× bare; chooser ≤ 300 ms.

Returning player (warm profile, a saved Scarabeo game against the computer, opened at
``#/scarabeo/play/<id>``): when its board is drawn from the resume snapshot (web/boot.js, before Python)
and when the game accepts a move (Anna's rack enabled, drawn by Python with the lexicon loaded), against
the bare page's interactive time of the same runs (targets: board ≤ 300 ms; playable ≤ 1.3× bare).
First visit: the bytes the server sends until the site is interactive, with the build's gzip copies
(a browser that accepts gzip) and from a copy of the build without them.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import serve  # noqa: E402

BARE_HTML = """<!doctype html>
<html><head><meta charset="utf-8"><title>bare</title>
<script type="module" src="./vendor/pyscript/core.js"></script></head>
<body><p>bare PyScript page</p>
<script type="py" config="./bare.toml">
from pyscript import document, window
document.body.append("ready")
window.performance.mark("scarab:interactive")
document.body.dataset.ready = "1"
</script></body></html>
"""
BARE_TOML = 'interpreter = "./vendor/pyodide/pyodide.mjs"\n'
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run", "--disable-quic"]
LOCAL = ("http://127.0.0.1:", "http://localhost:", "blob:", "data:")


def guard(route: Any) -> None:
    if route.request.url.startswith(LOCAL):
        route.continue_()
    else:
        route.abort()


LEXICON_LOADS: list[tuple[float, float]] = []
#: Response body bytes sent, per server port (counted from Content-Length of GET responses).
SENT: dict[int, int] = {}
#: Records, in the page, when the Scarabeo rack first accepts a move (see the resume measure).
PLAYABLE_PROBE = """(() => { new MutationObserver((_r, obs) => {
    if (document.querySelector('#sc-rack .sc-tile:not([disabled])')) { window.__playable = performance.now(); obs.disconnect(); }
  }).observe(document, {childList: true, subtree: true}); })()"""


def count_bytes() -> None:
    original = serve.Handler.send_header

    def send_header(self: Any, keyword: str, value: str) -> None:
        if keyword == "Content-Length" and self.command == "GET":
            port = self.server.server_address[1]
            SENT[port] = SENT.get(port, 0) + int(value)
        original(self, keyword, value)

    serve.Handler.send_header = send_header  # type: ignore[method-assign]


def first_visit_bytes(browser: Any, url: str, port: int) -> int:
    """Bytes sent to a fresh profile until the site is interactive (before the lexicon and the worker)."""
    ctx = browser.new_context(service_workers="block")
    ctx.route("**/*", guard)
    page = ctx.new_page()
    before = SENT.get(port, 0)
    page.goto(url)
    page.wait_for_selector("body[data-ready='1']", timeout=120_000)
    sent = SENT.get(port, 0) - before
    ctx.close()
    return sent


def saved_scarabeo(page: Any, base: str) -> str:
    """A Scarabeo game against the computer, saved with Anna to move: its save id."""
    page.goto(base + "index.html#/scarabeo/new")
    page.wait_for_selector("#start", timeout=120_000)
    page.select_option("#players", "2")
    page.fill("#seat-0-name", "Anna")
    page.select_option("#seat-0-kind", "person")
    page.select_option("#seat-1-kind", "computer:1")
    page.fill("#seed", "4242")
    page.click("#start")
    page.wait_for_selector("#sc-rack .sc-tile:not([disabled])", timeout=120_000)
    return str(page.url.split("/play/")[1])


def measure_resume(page: Any, url: str) -> tuple[float, float]:
    """(board drawn from the snapshot, game accepting a move), ms from navigation start."""
    page.goto("about:blank")
    page.goto(url)
    page.wait_for_function("window.__playable", timeout=120_000)
    board = page.evaluate("(performance.getEntriesByName('scarab:snapshot')[0] || {startTime: NaN}).startTime")
    return float(board), float(page.evaluate("window.__playable"))


def measure(page: Any, url: str) -> tuple[float, float]:
    page.goto(url)
    page.wait_for_selector("body[data-ready='1']", timeout=120_000)
    fcp = page.evaluate("(performance.getEntriesByName('first-contentful-paint')[0] || {startTime: NaN}).startTime")
    ready = page.evaluate("performance.getEntriesByName('scarab:interactive')[0].startTime")
    if "index.html" in url:  # the site loads the lexicon in the background once interactive
        page.wait_for_function("window.scarabBoot.lexiconMs", timeout=120_000)
        fetch_ms, load_ms = page.evaluate("window.scarabBoot.lexiconMs").split(",")
        LEXICON_LOADS.append((float(fetch_ms), float(load_ms)))
    return float(fcp), float(ready)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    os.environ["SCARAB_QUIET"] = "1"
    serve.setup()
    work = Path(tempfile.mkdtemp(prefix="scarab-bench-"))
    site = work / "site"
    shutil.copytree(ROOT / "dist", site)
    (site / "bare.html").write_text(BARE_HTML)
    (site / "bare.toml").write_text(BARE_TOML)
    plain = work / "plain"  # the same build without its gzip copies: a host that does not compress
    shutil.copytree(site, plain, ignore=shutil.ignore_patterns("*.gz"))
    count_bytes()
    server = serve.make_server("127.0.0.1", 0, site)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    plain_server = serve.make_server("127.0.0.1", 0, plain)
    threading.Thread(target=plain_server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    plain_base = f"http://127.0.0.1:{plain_server.server_address[1]}/"
    transferred: dict[str, list[int]] = {"gzip": [], "plain": []}
    resume: list[tuple[float, float]] = []
    pages = {"bare": base + "bare.html", "site": base + "index.html"}
    results: dict[tuple[str, str], list[tuple[float, float]]] = {}
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=args.chromium, args=ARGS)
            for _ in range(args.runs):
                for name, url in pages.items():
                    ctx = browser.new_context()
                    ctx.route("**/*", guard)
                    results.setdefault(("cold", name), []).append(measure(ctx.new_page(), url))
                    ctx.close()
            for _ in range(min(args.runs, 3)):
                transferred["gzip"].append(first_visit_bytes(browser, base + "index.html", server.server_address[1]))
                transferred["plain"].append(first_visit_bytes(browser, plain_base + "index.html",
                                                              plain_server.server_address[1]))
            browser.close()
            warm = {}
            for name, url in pages.items():
                ctx = pw.chromium.launch_persistent_context(str(work / f"profile-{name}"),
                                                            executable_path=args.chromium, args=ARGS)
                ctx.route("**/*", guard)
                page = ctx.pages[0] if ctx.pages else ctx.new_page()
                measure(page, url)  # warms the HTTP cache and V8's code cache
                if name == "site":  # warm = served by the service worker, once it has cached the build
                    page.wait_for_function("navigator.serviceWorker.ready.then(r => !!r.active)", timeout=120_000)
                    measure(page, url)
                    page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=120_000)
                warm[name] = (ctx, page)
            site_page = warm["site"][1]
            game_url = base + "index.html#/scarabeo/play/" + saved_scarabeo(site_page, base)
            site_page.add_init_script(PLAYABLE_PROBE)
            for _ in range(args.runs):
                for name, url in pages.items():
                    results.setdefault(("warm", name), []).append(measure(warm[name][1], url))
                resume.append(measure_resume(site_page, game_url))
            for ctx, _page in warm.values():
                ctx.close()
    finally:
        server.shutdown()
        plain_server.shutdown()
        shutil.rmtree(work, ignore_errors=True)

    print(f"start-up, median of {args.runs} loads, headless Chromium, {os.cpu_count()} cores")
    print(f"{'':6} {'page':5} {'first paint ms':>15} {'interactive ms':>15}")
    ratios = {}
    for mode in ("cold", "warm"):
        med = {}
        for name in pages:
            runs = results[(mode, name)]
            med[name] = (statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs))
            print(f"{mode:6} {name:5} {med[name][0]:15.0f} {med[name][1]:15.0f}")
        ratios[mode] = med["site"][1] / med["bare"][1]
        print(f"{mode:6} interactive ratio site/bare = {ratios[mode]:.3f}  (target ≤ 1.15)"
              f"; chooser painted at {med['site'][0]:.0f} ms (target ≤ 300)")
    bare_warm = statistics.median(r[1] for r in results[("warm", "bare")])
    board = statistics.median(b for b, _ in resume)
    playable = statistics.median(p for _, p in resume)
    print(f"returning player, saved Scarabeo game (warm, median of {len(resume)}): board drawn {board:.0f} ms "
          f"(target ≤ 300), accepting a move {playable:.0f} ms = {playable / bare_warm:.2f}× the bare page's "
          f"{bare_warm:.0f} ms (target ≤ 1.3)")
    gz, raw = statistics.median(transferred["gzip"]), statistics.median(transferred["plain"])
    print(f"first visit until interactive: {gz / 1e6:.2f} MB sent with the gzip copies (target ≤ 4.5), "
          f"{raw / 1e6:.2f} MB without")
    if LEXICON_LOADS:
        print(f"lexicon in the page, median of {len(LEXICON_LOADS)}: fetch "
              f"{statistics.median(f for f, _ in LEXICON_LOADS):.1f} ms, load (bytes → automaton) "
              f"{statistics.median(p for _, p in LEXICON_LOADS):.1f} ms, max load "
              f"{max(p for _, p in LEXICON_LOADS):.1f} ms (target ≤ 150)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
