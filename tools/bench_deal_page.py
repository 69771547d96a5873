"""Scarabeo's deal set up in the page's Python (Pyodide in Chromium) and in this CPython, for 2 and 4
players: the time each device spends on its part of the setup (issue 36: with the shuffle proofs,
at most 3 s for 2 players and 6 s for 4 in the page).

    .venv/bin/python tools/bench_deal_page.py [--runs 3] [--players 2 4]

Serves the built site (``dist/``, as ``serve.py`` builds it) on a free local port, boots it in
headless Chromium (the network blocked), and runs in the page's interpreter the protocol's devices
of ``game.remote.bench.Table`` — invitation, answers, start, every seat's setup step (its mask,
shuffle and shuffle proof), every check of the others' steps, the shares and the start values —
timing every ``Device.open`` and every message a device writes, by device. The same code then runs
here in CPython, interleaved run by run, so the two are measured under the same load.

Prints the median over ``--runs`` of the busiest device's setup time (seconds), per player count,
in the page and in CPython, their ratio, the longest link, and the load average before and after.
The protocol's work in the page is the same Python; the real page also pauses it every 15 ms for
the browser (docs/remote.md "Slices"), which this leaves out. A measurement, not a test.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import threading
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("SCARAB_QUIET", "1")

import serve  # noqa: E402
from tools.bench_startup import ARGS, guard  # noqa: E402

#: The measurement, as Python source: the same text runs in the page and here.
CODE = """
import json, time
from game.remote import bench
from game.remote.session import Device
from game.scarabeo.words import AnyWord

def _setup_times(players):
    spent = {}
    original = Device.open
    def timed(self, text):
        started = time.perf_counter()
        try:
            return original(self, text)
        finally:
            spent[id(self)] = spent.get(id(self), 0.0) + time.perf_counter() - started
    Device.open = timed
    try:
        started = time.perf_counter()
        table = bench.Table("scarabeo", players, words=AnyWord())
        total = time.perf_counter() - started
    finally:
        Device.open = original
    # The inviter's own steps are written inside its opening of the answers; a joiner's inside
    # its opening of the start or of the step before its own: every device's work is in its opens.
    return json.dumps({"busiest_s": max(spent.values()), "devices_s": sorted(spent.values()),
                       "all_devices_s": total, "longest_link": max(len(t) for t in table.links)})
"""

RUN_PYTHON = """async (code) => {
  const src = document.querySelector('script[type=module][src*="pyscript/core"]').src;
  const { whenDefined } = await import(src);
  const py = await whenDefined('py');
  return py.interpreter.runPython(code);
}"""


def in_cpython(players: int) -> dict[str, Any]:
    scope: dict[str, Any] = {}
    exec(CODE, scope)  # noqa: S102 - our own constant source, run as the page runs it
    return dict(json.loads(scope["_setup_times"](players)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4])
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    server = serve.make_server("127.0.0.1", 0, ROOT / "dist")
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    load_before = os.getloadavg()
    page_runs: dict[int, list[dict[str, Any]]] = {n: [] for n in args.players}
    here_runs: dict[int, list[dict[str, Any]]] = {n: [] for n in args.players}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=os.environ.get("SCARAB_CHROMIUM", "/usr/bin/chromium"),
                                     args=ARGS)
        try:
            context = browser.new_context(service_workers="block")
            context.route("**/*", guard)
            page = context.new_page()
            page.goto(base + "#/")
            page.wait_for_selector("body[data-ready='1']", timeout=120_000)
            page.evaluate(RUN_PYTHON, CODE)
            for _ in range(args.runs):
                for n in args.players:
                    page_runs[n].append(json.loads(page.evaluate(RUN_PYTHON, f"_setup_times({n})")))
                    here_runs[n].append(in_cpython(n))
                    print(json.dumps({"players": n, "page": page_runs[n][-1], "cpython": here_runs[n][-1]}),
                          file=sys.stderr)
        finally:
            browser.close()
            server.shutdown()
    out: dict[str, Any] = {"runs": args.runs}
    for n in args.players:
        page_s = statistics.median(r["busiest_s"] for r in page_runs[n])
        here_s = statistics.median(r["busiest_s"] for r in here_runs[n])
        out[f"{n}_players"] = {"page_busiest_device_s": round(page_s, 2), "cpython_busiest_device_s": round(here_s, 2),
                               "page_over_cpython": round(page_s / here_s, 2),
                               "target_s": 3 if n == 2 else 6,
                               "longest_link_chars": max(r["longest_link"] for r in page_runs[n])}
    out["load_average"] = {"before": [round(x, 2) for x in load_before],
                           "after": [round(x, 2) for x in os.getloadavg()]}
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
