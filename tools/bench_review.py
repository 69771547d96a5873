"""The review's analysis of a whole 2-player game of each kind, in CPython and in Chromium (issue 19).

    /tmp/with-browser .venv/bin/python tools/bench_review.py [--game thot …] [--runs N] [--no-browser]

The games are fixed, made here by seeded self-play to their end: Scarabeo 40 moves (beginner against
casual, seed 6), Thot 90 moves on the 10×10 board (greedy, seed 3), Scarabya classic 24 placements
(the solver's greedy level, seed 3). CPython runs each game's ``analyse_steps`` to the end ``--runs``
times (medians of the wall and CPU seconds, each run's load average beside it); Thot's also runs its
baseline, each position searched alone as the computer plays it (``fresh=True``: the analysis before
issue 26), as many times, alternating, and prints the ratio of the medians. The
browser opens the same record as a save in the built site (a copy of dist/, served here), opens
``#/<game>/review/<id>``, where the analysis starts by itself (issue 26), and waits for the end. It
reports the page's own figures (``body[data-analysis-ms]``; ``data-analysis-first-ms``: how soon the
first move is on the chart; ``data-analysis-longest-ms``: the longest stretch between two slices) and
the main thread's long tasks from the analysis's start (``data-analysis-start``) to its end
(``PerformanceObserver`` ``longtask``: each task over 50 ms, counted, the longest; the chart and the
list drawn move by move count in them), against the targets (Scarabeo ≤ 30 s,
Thot ≤ 15 s (issue 26), Scarabya ≤ 10 s, no task over 200 ms). dist/ must be built.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import serve  # noqa: E402
from game.core import GameRecord, Rng  # noqa: E402
from game.core.analysis import Analysis, Progress, run  # noqa: E402
from tools.bench_startup import ARGS, guard  # noqa: E402
from web.platform import review_model  # noqa: E402
from web.platform.review_model import Scope  # noqa: E402

GAMES = ("scarabeo", "thot", "scarabya")
#: Seconds in the browser the issue asks for; no main-thread task longer than LONGEST_MS.
TARGETS = {"scarabeo": 30.0, "thot": 15.0, "scarabya": 10.0}
LONGEST_MS = 200
SEATS = [{"name": "Ada"}, {"name": "Bea"}]
#: Long tasks of the page (start, duration), collected from its start; the bench counts those from
#: the analysis's start.
OBSERVER = """
window.__longtasks = [];
try {
  new PerformanceObserver(list => { for (const e of list.getEntries()) window.__longtasks.push([e.startTime, e.duration]); })
    .observe({type: "longtask", buffered: true});
} catch (e) { window.__longtasks = null; }
"""


def lexicon_words() -> Any:
    import lexicon

    return lexicon.load()


def record_of(game: str, lex: Any = None) -> GameRecord:
    """The fixed whole game of ``game``, to its end."""
    if game == "scarabeo":
        from game.scarabeo import ai
        from game.scarabeo.game import ScarabeoState

        sc = ScarabeoState.from_options({"players": 2}, 6, word_list=lex)
        levels = ("beginner", "casual")
        while not sc.is_over():
            sc.push(ai.choose(sc, levels[sc.to_move()], lex))
        return GameRecord.of(sc, seats=SEATS, game_id="bench-scarabeo")
    if game == "thot":
        from game.thot import match
        from game.thot.state import ThotState

        th = ThotState.from_options({}, 3)
        rng = Rng(3)
        while not th.is_over():
            th.push(match.choose(th, "greedy", rng))
        return GameRecord.of(th, seats=SEATS, game_id="bench-thot")
    from game.scarabya import solver
    from web.platform import engines

    sy = engines.factory("scarabya")({"players": 2}, 3)
    while not sy.is_over():
        sy.push(solver.choose(sy, 2, seed=len(sy.history())))
    return GameRecord.of(sy, seats=SEATS, game_id="bench-scarabya")


def cpython(record: GameRecord, lex: Any, fresh: bool = False) -> dict[str, Any]:
    """Wall and CPU seconds of the whole analysis, and the longest stretch between two yields;
    ``fresh``: Thot's baseline (each position searched alone, as the computer plays)."""
    if fresh:
        from game.thot import analysis as thot

        steps = thot.analyse_steps(record, finished=True, fresh=True)
    else:
        steps = review_model.analyse_steps(record, Scope(True, None), Progress(), lex)
    wall, cpu = time.perf_counter(), time.process_time()
    longest, last = 0.0, time.perf_counter()
    while True:
        try:
            next(steps)
        except StopIteration as stop:
            result: Analysis = stop.value
            break
        now = time.perf_counter()
        longest, last = max(longest, now - last), now
    return {"moves": len(record.moves), "wall_s": round(time.perf_counter() - wall, 2),
            "cpu_s": round(time.process_time() - cpu, 2), "longest_slice_ms": round(longest * 1000, 1),
            "analysed": sum(1 for m in result.moves if m.analysed),
            "load_average": round(os.getloadavg()[0], 2)}


def cpython_runs(game: str, record: GameRecord, lex: Any, runs: int) -> dict[str, Any]:
    """``runs`` analyses of ``record`` (and of Thot's baseline, alternating): the medians."""
    kinds = (False, True) if game == "thot" else (False,)
    each: dict[bool, list[dict[str, Any]]] = {k: [] for k in kinds}
    for _ in range(runs):
        for fresh in kinds:
            each[fresh].append(cpython(record, lex, fresh))
            print(f"cpython {game}{' baseline' if fresh else ''}: {json.dumps(each[fresh][-1])}", file=sys.stderr)

    def medians(rows: list[dict[str, Any]]) -> dict[str, Any]:
        return {"moves": rows[0]["moves"], "runs": len(rows),
                "wall_s": round(statistics.median(r["wall_s"] for r in rows), 2),
                "cpu_s": round(statistics.median(r["cpu_s"] for r in rows), 2),
                "longest_slice_ms": max(r["longest_slice_ms"] for r in rows),
                "load_averages": [r["load_average"] for r in rows]}
    out = medians(each[False])
    if game == "thot":
        base = medians(each[True])
        out["baseline"] = base
        out["cpu_ratio"] = round(out["cpu_s"] / base["cpu_s"], 2)
        out["wall_ratio"] = round(out["wall_s"] / base["wall_s"], 2)
    return out


def envelope(game: str, record: GameRecord) -> str:
    return json.dumps({"schema": 1, "id": f"bench-{game}", "game": game, "title": f"bench {game}",
                       "created": 1, "updated": 2, "revision": 1, "state": record.to_json()})


def browser(records: dict[str, GameRecord], chromium: str) -> dict[str, dict[str, Any]]:
    from playwright.sync_api import sync_playwright

    work = Path(tempfile.mkdtemp(prefix="scarab-review-bench-"))
    site = work / "site"
    shutil.copytree(ROOT / "dist", site)  # a copy: other builds may replace dist/ meanwhile
    os.environ["SCARAB_QUIET"] = "1"
    server = serve.make_server("127.0.0.1", 0, site)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    out: dict[str, dict[str, Any]] = {}

    try:
        with sync_playwright() as pw:
            b = pw.chromium.launch(executable_path=chromium, args=ARGS)
            for game, record in records.items():
                ctx = b.new_context(viewport={"width": 1280, "height": 800}, service_workers="block")
                ctx.route("**/*", guard)
                ctx.add_init_script(OBSERVER)
                page = ctx.new_page()
                errors: list[str] = []
                page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
                page.goto(base)
                page.wait_for_selector("body[data-ready='1']", timeout=120_000)
                page.evaluate("([k, v]) => localStorage.setItem(k, v)", [f"scarab:save:bench-{game}", envelope(game, record)])
                page.goto(base + f"#/{game}/review/bench-{game}")
                page.reload()
                try:
                    page.wait_for_selector(f"#review[data-total='{len(record.moves)}']", timeout=120_000)
                except Exception:
                    raise RuntimeError(f"{game}: the review did not open: {page.inner_text('main')[:300]!r} "
                                       f"{errors[-3:]}") from None
                t0 = time.perf_counter()  # the review is open: its analysis has started by itself
                page.wait_for_selector("#review[data-analysed='1']", timeout=600_000)
                wall = time.perf_counter() - t0
                tasks = page.evaluate("() => { const t0 = +document.body.dataset.analysisStart;"
                                      " return window.__longtasks && window.__longtasks"
                                      ".filter(e => e[0] >= t0).map(e => e[1]); }")
                done = page.locator("#review-moves .review-class").count()
                out[game] = {"moves": len(record.moves), "analysed": done,
                             "page_ms": int(page.get_attribute("body", "data-analysis-ms") or 0),
                             "first_ms": int(page.get_attribute("body", "data-analysis-first-ms") or 0),
                             "longest_slice_ms": int(page.get_attribute("body", "data-analysis-longest-ms") or 0),
                             "wall_s": round(wall, 2),
                             "longtasks": None if tasks is None else len(tasks),
                             "longtask_max_ms": None if not tasks else round(max(tasks)),
                             "errors": errors[-3:]}
                print(f"browser {game}: {json.dumps(out[game])}", file=sys.stderr)
                ctx.close()
            b.close()
    finally:
        server.shutdown()
        shutil.rmtree(work, ignore_errors=True)
    return out


def machine() -> dict[str, Any]:
    model = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {"cpu": model, "cores": os.cpu_count(), "python": platform.python_version(),
            "load_average": [round(x, 2) for x in os.getloadavg()], "date": time.strftime("%Y-%m-%d")}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", action="append", choices=GAMES, help="one game (repeatable; default all three)")
    ap.add_argument("--no-browser", action="store_true", help="CPython only")
    ap.add_argument("--runs", type=int, default=3, help="CPython runs per game (medians; default 3)")
    ap.add_argument("--chromium", default=os.environ.get("SCARAB_CHROMIUM", "/usr/bin/chromium"))
    args = ap.parse_args(argv)
    games = args.game or list(GAMES)
    lex = lexicon_words() if "scarabeo" in games else None
    records = {g: record_of(g, lex) for g in games}
    report: dict[str, Any] = {"machine_before": machine(), "cpython": {}, "browser": {}}
    for g in games:
        report["cpython"][g] = cpython_runs(g, records[g], lex, max(1, args.runs))
    if not args.no_browser:
        report["browser"] = browser(records, args.chromium)
    report["machine_after"] = machine()
    print(json.dumps(report, indent=1))
    print(f"CPython: medians of {max(1, args.runs)} runs; load average (1 min) "
          + "; ".join(f"{g} {report['cpython'][g]['load_averages']}" for g in games))
    print(f"{'game':9} {'moves':>5} {'CPython s':>9} {'CPU s':>6} {'vs before':>9} {'page s':>7} {'target':>6} "
          f"{'first ms':>8} {'slice ms':>8} {'long tasks':>10} {'max ms':>6}")
    for g in games:
        c, w = report["cpython"][g], report["browser"].get(g, {})
        page_s = w.get("page_ms", 0) / 1000 if w else None
        ok = "" if not w else ("ok" if page_s <= TARGETS[g] and (w["longtask_max_ms"] or 0) <= LONGEST_MS else "OVER")
        print(f"{g:9} {c['moves']:>5} {c['wall_s']:>9} {c['cpu_s']:>6} {c.get('cpu_ratio', '-'):>9} "
              f"{page_s if page_s is not None else '-':>7} "
              f"{TARGETS[g]:>6} {w.get('first_ms', '-'):>8} {w.get('longest_slice_ms', '-'):>8} {w.get('longtasks', '-'):>10} "
              f"{w.get('longtask_max_ms', '-') or '-':>6} {ok}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
