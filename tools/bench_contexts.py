"""What a Pyodide boot costs the e2e suite in a new browser context and in a kept one (issue 25).

    .venv/bin/python tools/bench_contexts.py [--rounds 5] [--routes]

Each round loads the site until it is interactive (``body[data-ready='1']``, then 1 s for the lexicon
and the background compilation): once in a new context (a new renderer process: what every device,
first load and embed host of the suite cost before), once in a new page of a context kept as
tests/e2e/conftest.py ``WarmContexts`` keeps it (its anchor page holding Pyodide's compiled module,
Chromium started with ``--process-per-site``). Prints the medians of the core-seconds all of
Chromium's processes spent (from /proc), the ratio kept/new, and the load average before and after:
on a busy machine only the ratio within one run means anything.

``--routes``: instead, a boot in a page of a context whose every request goes through a Playwright
route (the suite's ``Guard``: local ones continued, the rest aborted) against one with no route
(Chromium started with ``--host-resolver-rules`` that resolve no name but the local ones), both
contexts warmed by one boot first, interleaved; the core-seconds include this Python process's own,
which answers each routed request. Playwright turns the HTTP cache off in a context with a route.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import serve  # noqa: E402
from tests.e2e.conftest import ANCHOR_HTML, ANCHOR_PATH, CHROMIUM_ARGS, Guard  # noqa: E402
from tools.bench_startup import cpu_since, tree_cpu  # noqa: E402


def boot(page: Any, url: str) -> float:
    """Core-seconds until the site is interactive in ``page`` (and a second more)."""
    before = tree_cpu()
    page.goto(url)
    page.wait_for_selector("body[data-ready='1']", timeout=120_000)
    time.sleep(1.0)
    return cpu_since(before)


def serve_site(dist: Path) -> str:
    """Serve the built site from a thread of this process; its address."""
    os.environ["SCARAB_QUIET"] = "1"
    server = serve.make_server("127.0.0.1", 0, dist.resolve())
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}/"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--dist", type=Path, default=ROOT / "dist")
    parser.add_argument("--routes", action="store_true", help="a routed context against one without routes")
    args = parser.parse_args(argv)
    if args.routes:
        return routes(args)
    from playwright.sync_api import sync_playwright

    url = serve_site(args.dist)
    before = os.getloadavg()[0]
    new: list[float] = []
    kept: list[float] = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=args.chromium, args=CHROMIUM_ARGS)
        warm = browser.new_context(service_workers="block")
        warm.route(f"{url}{ANCHOR_PATH}", lambda route: route.fulfill(content_type="text/html", body=ANCHOR_HTML))
        anchor = warm.new_page()
        anchor.goto(url + ANCHOR_PATH)
        anchor.wait_for_function("document.title === 'ready'", timeout=60_000)
        for i in range(args.rounds + 1):  # the kept context's first page compiles what the next reuse
            ctx = browser.new_context(service_workers="block")
            page = ctx.new_page()
            cold = boot(page, url)
            ctx.close()
            page = warm.new_page()
            again = boot(page, url)
            page.close()
            if i:
                new.append(cold)
                kept.append(again)
        browser.close()
    after = os.getloadavg()[0]
    a, b = statistics.median(new), statistics.median(kept)
    print(f"Pyodide boot, core-seconds of all Chromium's processes, median of {args.rounds} "
          f"(load average {before:.2f} before, {after:.2f} after)")
    print(f"  new context:            {a:.2f}   ({', '.join(f'{x:.2f}' for x in new)})")
    print(f"  page of a kept context: {b:.2f}   ({', '.join(f'{x:.2f}' for x in kept)})")
    print(f"  ratio kept/new = {b / a:.2f}")
    return 0


#: Chromium resolves no host name but the local ones: offline without a route
LOCAL_ONLY = "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1 , EXCLUDE localhost"


def routes(args: argparse.Namespace) -> int:
    from playwright.sync_api import sync_playwright

    url = serve_site(args.dist)
    before = os.getloadavg()[0]
    runs: dict[str, list[float]] = {"routed": [], "no route": []}

    def measured(page: Any) -> float:
        mine = time.process_time()
        return boot(page, url) + time.process_time() - mine

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=args.chromium, args=CHROMIUM_ARGS + [LOCAL_ONLY])
        contexts = {}
        for kind in runs:
            ctx = browser.new_context(service_workers="block")
            if kind == "routed":
                ctx.route("**/*", Guard().route)
            measured(ctx.new_page())  # the first page compiles what the next ones reuse (and stays)
            contexts[kind] = ctx
        for _ in range(args.rounds):
            for kind, ctx in contexts.items():
                page = ctx.new_page()
                runs[kind].append(measured(page))
                page.evaluate("localStorage.clear()")
                page.close()
        browser.close()
    after = os.getloadavg()[0]
    print(f"Pyodide boot in a page of a warm context, core-seconds of Chromium and this process, median of "
          f"{args.rounds} (load average {before:.2f} before, {after:.2f} after)")
    for kind, values in runs.items():
        print(f"  {kind + ':':10s} {statistics.median(values):.2f}   ({', '.join(f'{x:.2f}' for x in values)})")
    print(f"  ratio no route/routed = {statistics.median(runs['no route']) / statistics.median(runs['routed']):.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
