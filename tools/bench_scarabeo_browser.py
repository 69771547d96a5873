"""Scarabeo move generation in CPython and in Pyodide (headless Chromium), in one run.

    .venv/bin/python tools/bench_scarabeo_browser.py [--repeat 1] [--limit N]

It times full generation (every play, scarab variants, flying-scarab swaps) over the fixed
positions ``game/scarabeo/bench_positions.txt`` here in CPython, then serves a copy of dist/
(with the current Python sources packed again) and runs the same code
(``game.scarabeo.ai_bench.run``) in a small PyScript page that loads ``./data/it.dawg`` with
``window.fetch`` → ``Lexicon.from_bytes``. It prints per rack class (0, 1, 2 scarabs) the median
and p95 ms and plays per second in both, the browser/CPython ratio, and the WebAssembly memory
the generator added to the page. dist/ must be built (``serve.py --no-open`` or tools/build.py).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import lexicon  # noqa: E402
import serve  # noqa: E402
from game.scarabeo import ai_bench  # noqa: E402
from game.scarabeo.movegen import MoveGenerator  # noqa: E402
from tools import build  # noqa: E402
from tools.bench_startup import ARGS, guard  # noqa: E402

PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>scarabeo movegen bench</title>
<script type="module" src="./vendor/pyscript/core.js"></script></head>
<body><p>Scarabeo move-generation bench</p>
<script type="py" config="./pyscript.toml">
import json, time
from pyscript import document, window
import pyodide_js
from lexicon import Lexicon
from game.scarabeo import ai_bench
from game.scarabeo.movegen import MoveGenerator

def heap():
    return pyodide_js._module.HEAP8.length

resp = await window.fetch("./data/it.dawg")
lex = Lexicon.from_bytes((await resp.arrayBuffer()).to_bytes())
text = await (await window.fetch("./bench_positions.txt")).text()
limit = int(window.location.hash[1:] or "0")
repeat = int(window.location.search[8:] or "1") if window.location.search.startswith("?repeat=") else 1
lines = ai_bench.read_positions(text)
if limit:
    lines = lines[:limit]
before = heap()
t0 = time.perf_counter()
gen = MoveGenerator(lex)
setup_ms = (time.perf_counter() - t0) * 1000
result = ai_bench.run(gen, "\\n".join(lines), repeat)
result["generator_setup_ms"] = round(setup_ms, 1)
result["wasm_heap_before_mb"] = round(before / 2**20, 1)
result["wasm_heap_growth_mb"] = round((heap() - before) / 2**20, 1)
window.benchResult = json.dumps(result)
document.body.dataset.done = "1"
</script></body></html>
"""


def cpython(lines: list[str], repeat: int) -> dict[str, Any]:
    import tracemalloc

    lex = lexicon.load()
    t0 = time.perf_counter()
    gen = MoveGenerator(lex)
    setup = (time.perf_counter() - t0) * 1000
    result = ai_bench.run(gen, "\n".join(lines), repeat)
    result["generator_setup_ms"] = round(setup, 1)
    # Memory: the generator's tables, then the peak of generating the largest position.
    tracemalloc.start()
    gen2 = MoveGenerator(lex)
    tables = tracemalloc.get_traced_memory()[0]
    biggest = max(range(len(lines)), key=lambda i: result["rows"][i]["plays"])
    ai_bench.time_generation(gen2, [lines[biggest]])
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    result["tables_mb"] = round(tables / 2**20, 1)
    result["peak_generation_mb"] = round(peak / 2**20, 1)
    return result


def browser(lines_count: int, repeat: int, chromium: str) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    work = Path(tempfile.mkdtemp(prefix="scarabeo-bench-"))
    site = work / "site"
    shutil.copytree(ROOT / "dist", site)
    build.pack_python(site / "app.zip")  # the sources as they are now
    shutil.copy(ROOT / "game" / "scarabeo" / "bench_positions.txt", site / "bench_positions.txt")
    (site / "movegen-bench.html").write_text(PAGE, encoding="utf-8")
    server = serve.make_server("127.0.0.1", 0, site)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = (f"http://127.0.0.1:{server.server_address[1]}/movegen-bench.html?repeat={repeat}"
           f"#{lines_count}")
    try:
        with sync_playwright() as pw:
            b = pw.chromium.launch(executable_path=chromium, args=ARGS)
            ctx = b.new_context()
            ctx.route("**/*", guard)
            page = ctx.new_page()
            errors: list[str] = []
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.goto(url)
            try:
                page.wait_for_selector("body[data-done='1']", timeout=3_600_000)
            except Exception:
                raise RuntimeError("the page did not finish: " + " | ".join(errors[-5:])) from None
            data: dict[str, Any] = json.loads(page.evaluate("window.benchResult"))
            b.close()
    finally:
        server.shutdown()
        shutil.rmtree(work, ignore_errors=True)
    return data


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=1, help="best of R runs per position")
    ap.add_argument("--limit", type=int, default=0, help="only the first N positions")
    ap.add_argument("--chromium", default="/usr/bin/chromium")
    ap.add_argument("--json", action="store_true", help="print the raw figures as JSON too")
    args = ap.parse_args(argv)
    os.environ["SCARAB_QUIET"] = "1"
    text = (ROOT / "game" / "scarabeo" / "bench_positions.txt").read_text(encoding="utf-8")
    lines = ai_bench.read_positions(text)
    if args.limit:
        lines = lines[:args.limit]
    cp = cpython(lines, args.repeat)
    br = browser(len(lines), args.repeat, args.chromium)
    print(f"Scarabeo full move generation, {len(lines)} positions, best of {args.repeat}; "
          f"{os.cpu_count()} cores (shared); CPython {cp['python']}, Pyodide {br['python']}")
    print(f"{'scarabs':>7} {'n':>3} | {'CPython med':>11} {'p95':>7} {'plays/s':>8} | "
          f"{'browser med':>11} {'p95':>7} {'plays/s':>8} | {'ratio med':>9} {'p95':>5}")
    for c, row in cp["classes"].items():
        b = br["classes"].get(c)
        if b is None:
            continue
        print(f"{c:>7} {row['positions']:>3} | {row['median_ms']:>9.0f}ms {row['p95_ms']:>5.0f}ms "
              f"{row['plays_per_s']:>8} | {b['median_ms']:>9.0f}ms {b['p95_ms']:>5.0f}ms "
              f"{b['plays_per_s']:>8} | {b['median_ms'] / row['median_ms']:>9.2f} "
              f"{b['p95_ms'] / row['p95_ms']:>5.2f}")
    print("process time (CPU used by the generator, robust to a busy machine):")
    for name, d in (("CPython", cp), ("browser", br)):
        print(f"  {name:8} " + "; ".join(
            f"{c} scarabs median {row.get('cpu_median_ms')} ms p95 {row.get('cpu_p95_ms')} ms"
            for c, row in d["classes"].items()))
    print(f"generator set-up: CPython {cp['generator_setup_ms']} ms, browser "
          f"{br['generator_setup_ms']} ms")
    print(f"memory: CPython tables {cp['tables_mb']} MB, peak while generating the largest "
          f"position {cp['peak_generation_mb']} MB; browser WebAssembly heap grew "
          f"{br['wasm_heap_growth_mb']} MB (from {br['wasm_heap_before_mb']} MB)")
    if args.json:
        for d in (cp, br):
            d.pop("rows", None)
        print(json.dumps({"cpython": cp, "browser": br}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
