"""Start-up benchmark: this site vs a bare PyScript+Pyodide page, side by side in one run.

    .venv/bin/python tools/bench_startup.py [--runs 5] [--dist DIR] [--first-visit]

Both pages are served from one local server and use the same vendored runtime. For each, it measures
(median over runs, loads interleaved so both see the same machine state):
- first contentful paint (the site's HTML chooser; the bare page's first text),
- interactive: when Python has run (the site: the shell has taken over; the bare page: it printed its line),
cold (fresh profile, everything downloaded) and warm (a persistent profile, loaded before; for the site,
served by its service worker).
It prints the figures and the ratio site/bare. Targets: interactive ≤ 1.15× bare; chooser ≤ 300 ms.

Returning player (warm profile, a saved Scarabeo game against the computer, opened at
``#/scarabeo/play/<id>``): when its board is drawn from the resume snapshot (web/shell/boot.js, before Python)
and when the game accepts a move (Anna's rack enabled, drawn by Python with the lexicon loaded), against
the bare page's interactive time of the same runs (targets: board ≤ 300 ms; playable ≤ 1.3× bare).
First visit: the bytes the server sends until the site is interactive, with the build's brotli and gzip
copies (a browser that accepts both), from a copy of the build with the gzip copies only, and from one
without any (a host that does not compress). ``--first-visit`` measures only that, once each, and names
the data files the page asked for by then (none: the lexicon comes after, the word panel's files when a
panel opens).
CPU per cold load: the core-seconds all of Chromium's processes spend from navigation until the page
is interactive (and, for the site, its lexicon loaded), site and bare page (Linux: read from /proc).
This is what each Pyodide boot of an e2e test costs the suite; the load average is printed beside it.
Main-thread long tasks (a ``PerformanceObserver`` for ``longtask`` installed before the page's scripts)
until the page is interactive: count, count over 200 ms, the longest; for the site and the bare page,
cold and warm, and for the returning player until the game accepts a move.
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
#: Main-thread tasks over 50 ms, recorded from before the page's first script.
LONGTASK_PROBE = """(() => { window.__longtasks = [];
  try { new PerformanceObserver((list) => { for (const e of list.getEntries())
    window.__longtasks.push([e.startTime, e.duration]); }).observe({type: 'longtask', buffered: true}); } catch (e) {} })()"""
#: (count, count over 200 ms, longest ms) of the long tasks, per (mode, page).
LONGTASKS: dict[tuple[str, str], list[tuple[int, int, float]]] = {}
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


def long_tasks(page: Any, until: float) -> tuple[int, int, float]:
    """(count, over 200 ms, longest) of the page's long tasks that started before ``until`` ms."""
    tasks = [d for start, d in page.evaluate("window.__longtasks || []") if start < until]
    return len(tasks), sum(1 for d in tasks if d > 200), max(tasks, default=0.0)


def first_visit_bytes(browser: Any, url: str, port: int, data: list[str] | None = None) -> int:
    """Bytes sent to a fresh profile until the site is interactive (before the lexicon and the worker);
    ``data``: given, the data files (``data/…``) the page asked for by then are added to it."""
    ctx = browser.new_context(service_workers="block")  # Chromium sends "gzip, deflate, br, zstd"
    ctx.route("**/*", guard)
    page = ctx.new_page()
    if data is not None:
        page.on("request", lambda r: data.append(r.url.split(f":{port}/", 1)[-1]) if "/data/" in r.url else None)
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
    playable = float(page.evaluate("window.__playable"))
    LONGTASKS.setdefault(("warm", "resume"), []).append(long_tasks(page, playable))
    return float(board), playable


def tree_cpu() -> dict[int, float]:
    """CPU seconds (user + system) of each process descended from this one (Chromium's among them)."""
    children: dict[int, list[tuple[int, float]]] = {}
    tick = os.sysconf("SC_CLK_TCK")
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:  # gone meanwhile
            continue
        children.setdefault(int(fields[1]), []).append((int(entry), (int(fields[11]) + int(fields[12])) / tick))
    found: dict[int, float] = {}
    todo = [os.getpid()]
    while todo:
        for pid, seconds in children.get(todo.pop(), []):
            found[pid] = seconds
            todo.append(pid)
    return found


def cpu_since(before: dict[int, float]) -> float:
    """Core-seconds spent since ``before`` by the processes alive now (one that ended is left out)."""
    return sum(seconds - before.get(pid, 0.0) for pid, seconds in tree_cpu().items())


#: Core-seconds per cold load, per page.
CPU: dict[str, list[float]] = {}


def measure(page: Any, url: str, mode: str = "") -> tuple[float, float]:
    page.goto(url)
    page.wait_for_selector("body[data-ready='1']", timeout=120_000)
    fcp = page.evaluate("(performance.getEntriesByName('first-contentful-paint')[0] || {startTime: NaN}).startTime")
    ready = page.evaluate("performance.getEntriesByName('scarab:interactive')[0].startTime")
    if mode:
        LONGTASKS.setdefault((mode, "site" if "index.html" in url else "bare"), []).append(long_tasks(page, ready))
    if "index.html" in url:  # the site loads the lexicon in the background once interactive
        page.wait_for_function("window.scarabBoot.lexiconMs", timeout=120_000)
        fetch_ms, load_ms = page.evaluate("window.scarabBoot.lexiconMs").split(",")
        LEXICON_LOADS.append((float(fetch_ms), float(load_ms)))
    return float(fcp), float(ready)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--dist", type=Path, help="measure this build as it is (e.g. one made with --deflated-zips)")
    parser.add_argument("--first-visit", action="store_true",
                        help="only the first visit: the bytes sent until interactive (brotli, gzip, no copies) "
                             "and the data files the page asked for by then")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    os.environ["SCARAB_QUIET"] = "1"
    if args.dist is None:
        serve.setup()
    load_before = os.getloadavg()[0]
    work = Path(tempfile.mkdtemp(prefix="scarab-bench-"))
    site = work / "site"
    shutil.copytree(args.dist or ROOT / "dist", site)
    (site / "bare.html").write_text(BARE_HTML)
    (site / "bare.toml").write_text(BARE_TOML)
    gzip_only = work / "gzip"  # the same build without its brotli copies: a host that serves only gzip
    shutil.copytree(site, gzip_only, ignore=shutil.ignore_patterns("*.br"))
    plain = work / "plain"  # the same build without any copy: a host that does not compress
    shutil.copytree(site, plain, ignore=shutil.ignore_patterns("*.gz", "*.br"))
    count_bytes()
    servers = {}
    for name, folder in (("br", site), ("gzip", gzip_only), ("plain", plain)):
        servers[name] = serve.make_server("127.0.0.1", 0, folder)
        threading.Thread(target=servers[name].serve_forever, daemon=True).start()
    server = servers["br"]
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    transferred: dict[str, list[int]] = {name: [] for name in servers}
    resume: list[tuple[float, float]] = []
    pages = {"bare": base + "bare.html", "site": base + "index.html"}
    results: dict[tuple[str, str], list[tuple[float, float]]] = {}
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=args.chromium, args=ARGS)
            if args.first_visit:
                for name, running in servers.items():
                    port = running.server_address[1]
                    asked: list[str] = []
                    sent = first_visit_bytes(browser, f"http://127.0.0.1:{port}/index.html", port, asked)
                    print(f"first visit until interactive, {name}: {sent:,} bytes sent; data files asked for: "
                          f"{', '.join(asked) or 'none'}")
                browser.close()
                return 0
            for _ in range(args.runs):
                for name, url in pages.items():
                    ctx = browser.new_context()
                    ctx.route("**/*", guard)
                    ctx.add_init_script(LONGTASK_PROBE)
                    page = ctx.new_page()
                    before = tree_cpu() if sys.platform == "linux" else {}
                    results.setdefault(("cold", name), []).append(measure(page, url, "cold"))
                    if sys.platform == "linux":
                        CPU.setdefault(name, []).append(cpu_since(before))
                    ctx.close()
            for _ in range(min(args.runs, 3)):
                for name, running in servers.items():
                    port = running.server_address[1]
                    transferred[name].append(first_visit_bytes(browser, f"http://127.0.0.1:{port}/index.html", port))
            browser.close()
            warm = {}
            for name, url in pages.items():
                ctx = pw.chromium.launch_persistent_context(str(work / f"profile-{name}"),
                                                            executable_path=args.chromium, args=ARGS)
                ctx.route("**/*", guard)
                ctx.add_init_script(LONGTASK_PROBE)
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
                    results.setdefault(("warm", name), []).append(measure(warm[name][1], url, "warm"))
                resume.append(measure_resume(site_page, game_url))
            for ctx, _page in warm.values():
                ctx.close()
    finally:
        for running in servers.values():
            running.shutdown()
        shutil.rmtree(work, ignore_errors=True)

    print(f"start-up, median of {args.runs} loads, headless Chromium, {os.cpu_count()} cores, "
          f"load average {load_before:.2f} before, {os.getloadavg()[0]:.2f} after")
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
    if CPU:
        site_cpu, bare_cpu = statistics.median(CPU["site"]), statistics.median(CPU["bare"])
        print(f"CPU per cold load (all of Chromium's processes, core-seconds): site {site_cpu:.2f}, bare page "
              f"{bare_cpu:.2f}, ratio site/bare = {site_cpu / bare_cpu:.2f}")
    bare_warm = statistics.median(r[1] for r in results[("warm", "bare")])
    board = statistics.median(b for b, _ in resume)
    playable = statistics.median(p for _, p in resume)
    print(f"returning player, saved Scarabeo game (warm, median of {len(resume)}): board drawn {board:.0f} ms "
          f"(target ≤ 300), accepting a move {playable:.0f} ms = {playable / bare_warm:.2f}× the bare page's "
          f"{bare_warm:.0f} ms (target ≤ 1.3)")
    br, gz, raw = (statistics.median(transferred[name]) for name in ("br", "gzip", "plain"))
    print(f"first visit until interactive: {br / 1e6:.2f} MB sent with the brotli and gzip copies, "
          f"{gz / 1e6:.2f} MB with gzip only (target ≤ 4.5 with compression), {raw / 1e6:.2f} MB with none")
    print(f"main-thread long tasks until interactive (median count / median over 200 ms / longest of {args.runs}):")
    for (mode, name), tasks in sorted(LONGTASKS.items()):
        print(f"  {mode:5} {name:6}: {statistics.median(t[0] for t in tasks):.0f} / "
              f"{statistics.median(t[1] for t in tasks):.0f} / {max(t[2] for t in tasks):.0f} ms")
    if LEXICON_LOADS:
        print(f"lexicon in the page, median of {len(LEXICON_LOADS)}: fetch "
              f"{statistics.median(f for f, _ in LEXICON_LOADS):.1f} ms, load (bytes → automaton) "
              f"{statistics.median(p for _, p in LEXICON_LOADS):.1f} ms, max load "
              f"{max(p for _, p in LEXICON_LOADS):.1f} ms (target ≤ 150)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
