"""Start-up benchmark: this site vs a bare PyScript+Pyodide page, side by side in one run.

    .venv/bin/python tools/bench_startup.py [--runs 5]

Both pages are served from one local server and use the same vendored runtime. For each, it measures
(median over runs, loads interleaved so both see the same machine state):
- first contentful paint (the site's HTML chooser; the bare page's first text),
- interactive: when Python has run (the site: the shell has taken over; the bare page: it printed its line),
cold (fresh profile, everything downloaded) and warm (a persistent profile, loaded before; for the site,
served by its service worker).
It prints the figures and the ratio site/bare. Targets: interactive ≤ 1.15× bare; chooser ≤ 300 ms.
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
    server = serve.make_server("127.0.0.1", 0, site)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/"
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
            for _ in range(args.runs):
                for name, url in pages.items():
                    results.setdefault(("warm", name), []).append(measure(warm[name][1], url))
            for ctx, _page in warm.values():
                ctx.close()
    finally:
        server.shutdown()
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
    if LEXICON_LOADS:
        print(f"lexicon in the page, median of {len(LEXICON_LOADS)}: fetch "
              f"{statistics.median(f for f, _ in LEXICON_LOADS):.1f} ms, load (bytes → automaton) "
              f"{statistics.median(p for _, p in LEXICON_LOADS):.1f} ms, max load "
              f"{max(p for _, p in LEXICON_LOADS):.1f} ms (target ≤ 150)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
