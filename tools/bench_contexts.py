"""What a Pyodide boot costs the e2e suite in a new browser context and in a kept one (issue 25).

    /work/notes/with-browser .venv/bin/python tools/bench_contexts.py [--rounds 5]

Each round loads the site until it is interactive (``body[data-ready='1']``, then 1 s for the lexicon
and the background compilation): once in a new context (a new renderer process: what every device,
first load and embed host of the suite cost before), once in a new page of a context kept as
tests/e2e/conftest.py ``WarmContexts`` keeps it (its anchor page holding Pyodide's compiled module,
Chromium started with ``--process-per-site``). Prints the medians of the core-seconds all of
Chromium's processes spent (from /proc), the ratio kept/new, and the load average before and after:
on a busy machine only the ratio within one run means anything.
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
from tests.e2e.conftest import ANCHOR_HTML, ANCHOR_PATH, CHROMIUM_ARGS  # noqa: E402
from tools.bench_startup import cpu_since, tree_cpu  # noqa: E402


def boot(page: Any, url: str) -> float:
    """Core-seconds until the site is interactive in ``page`` (and a second more)."""
    before = tree_cpu()
    page.goto(url)
    page.wait_for_selector("body[data-ready='1']", timeout=120_000)
    time.sleep(1.0)
    return cpu_since(before)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--dist", type=Path, default=ROOT / "dist")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    os.environ["SCARAB_QUIET"] = "1"
    server = serve.make_server("127.0.0.1", 0, args.dist.resolve())
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/"
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


if __name__ == "__main__":
    raise SystemExit(main())
