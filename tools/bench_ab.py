"""Two builds of the site side by side, their loads interleaved (issue 25: what a build option costs or saves).

    /work/notes/with-browser .venv/bin/python tools/bench_ab.py DIR_A DIR_B [--rounds 8]

Each build is served by its own ``serve.py`` server; each round loads A then B in headless Chromium: a cold
load in a fresh context (service workers blocked, so the HTTP cache is empty) until the page is interactive
and its lexicon loaded, then a reload in the same process (HTTP cache warm). Prints, per build, the
medians of the CPU all of Chromium's processes spent (core-seconds, from /proc, as tools/bench_startup.py)
and of the ``scarab:interactive`` mark, and the load average before and after: on a busy machine only
the ratio within one run means anything.
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
from tools.bench_startup import ARGS, cpu_since, tree_cpu  # noqa: E402


def load(page: Any, url: str) -> float:
    page.goto(url)
    page.wait_for_selector("body[data-ready='1']", timeout=120_000)
    page.wait_for_function("window.scarabBoot.lexiconMs", timeout=120_000)
    return float(page.evaluate("performance.getEntriesByName('scarab:interactive')[0].startTime"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("builds", type=Path, nargs=2)
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    os.environ["SCARAB_QUIET"] = "1"
    urls = {}
    for folder in args.builds:
        server = serve.make_server("127.0.0.1", 0, folder.resolve())
        threading.Thread(target=server.serve_forever, daemon=True).start()
        urls[str(folder)] = f"http://127.0.0.1:{server.server_address[1]}/index.html"
    before = os.getloadavg()[0]
    results: dict[str, list[tuple[float, float, float, float]]] = {name: [] for name in urls}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=args.chromium, args=ARGS)
        for _ in range(args.rounds):
            for name, url in urls.items():
                context = browser.new_context(service_workers="block")
                page = context.new_page()
                start = tree_cpu()
                cold = load(page, url)
                time.sleep(1.5)  # what the load left running (the lexicon's fetch, timers) is counted too
                cold_cpu = cpu_since(start)
                page.goto("about:blank")
                start = tree_cpu()
                warm = load(page, url)
                time.sleep(1.5)
                warm_cpu = cpu_since(start)
                context.close()
                results[name].append((cold_cpu, cold, warm_cpu, warm))
        browser.close()
    print(f"{args.rounds} rounds, load average {before:.2f} before, {os.getloadavg()[0]:.2f} after (medians)")
    for name, rows in results.items():
        print(f"{name}: cold load {statistics.median(r[0] for r in rows):.2f} core-s, interactive "
              f"{statistics.median(r[1] for r in rows):,.0f} ms; reload {statistics.median(r[2] for r in rows):.2f} "
              f"core-s, interactive {statistics.median(r[3] for r in rows):,.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
