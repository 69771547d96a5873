"""Main-thread long tasks while playing (issue 18: "no task over 200 ms on the main thread while playing").

    .venv/bin/python tools/bench_play.py [--games scarabeo,thot,scarabya] [--seconds 120] [--level top]

Builds the site, serves it on a free local port and, in headless Chromium (the network blocked),
plays one game of each kind (Scarabya classic and Ruins) computer against computer at the strongest level (or ``--level N``)
from the new-game form, seed 7, until the game ends or ``--seconds`` pass. A ``longtask``
PerformanceObserver, started before the game, records every main-thread task over 50 ms. Then a
person's moves: Thot against the computer, five moves made by clicks (each a redraw, then the
computer's reply). Prints per game the moves played, the tasks over 50 ms and over 200 ms, the
longest, and the load average before and after (figures from a loaded machine spread widely: compare
only figures from one run). A measurement, not a test: nothing here passes or fails.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import serve  # noqa: E402
from tools.bench_startup import ARGS, guard  # noqa: E402

OBSERVER = """window.__longtasks = [];
try {
  new PerformanceObserver(list => { for (const e of list.getEntries()) window.__longtasks.push(e.duration); })
    .observe({type: "longtask", buffered: true});
} catch (e) { window.__longtasks = null; }"""
#: the end of a game, per game
OVER = {"scarabeo": "#sc-result", "thot": "#thot-result", "scarabya": "#sy-end", "ruins": "#sy-end"}
#: moves made so far: the save's record (``scarab:save:<id>``)
MOVES = """() => { const id = location.hash.split('/').pop();
  try { const s = JSON.parse(localStorage.getItem('scarab:save:' + id) || 'null');
        const r = s && (s.state || s); return (r && r.moves) ? r.moves.length : null; } catch (e) { return null; } }"""


def pick_level(page: Any, seat: int, level: str) -> str:
    values = page.evaluate(f"[...document.querySelectorAll('#seat-{seat}-kind option')].map(o => o.value)")
    computers = [v for v in values if v.startswith("computer:")]
    choice = computers[-1] if level == "top" else f"computer:{level}"
    page.select_option(f"#seat-{seat}-kind", choice)
    return choice


def summary(tasks: list[float] | None) -> dict[str, Any]:
    if tasks is None:
        return {"over_50ms": None, "over_200ms": None, "longest_ms": None}
    return {"over_50ms": len(tasks), "over_200ms": sum(1 for d in tasks if d > 200),
            "longest_ms": round(max(tasks)) if tasks else 0}


def self_play(browser: Any, base: str, game: str, level: str, seconds: float, players: int = 2) -> dict[str, Any]:
    ctx = browser.new_context(viewport={"width": 1366, "height": 768}, locale="en-GB", service_workers="block")
    ctx.route("**/*", guard)
    page = ctx.new_page()
    try:
        page.goto(base + f"#/{'scarabya' if game == 'ruins' else game}/new")
        page.wait_for_selector("body[data-ready='1']", timeout=120_000)
        page.wait_for_selector("#start", timeout=60_000)
        if game == "ruins":  # Scarabya's Ruins variant
            page.check("#variant-ruins")
        page.select_option("#players", str(players))
        chosen = [pick_level(page, seat, level) for seat in range(players)]
        page.fill("#seed", "7")
        page.evaluate(OBSERVER)
        page.wait_for_timeout(200)
        page.evaluate("window.__longtasks && (window.__longtasks.length = 0)")
        started = time.perf_counter()
        page.click("#start")
        ended = False
        while time.perf_counter() - started < seconds:
            if page.locator(OVER[game]).count():
                ended = True
                break
            page.wait_for_timeout(500)
        elapsed = time.perf_counter() - started
        return {"game": game, "mode": f"{players} computers" if players > 2 else "computer vs computer", "levels": chosen, "moves": page.evaluate(MOVES),
                "ended": ended, "seconds": round(elapsed, 1), **summary(page.evaluate("window.__longtasks"))}
    finally:
        ctx.close()


def thot_person(browser: Any, base: str, level: str, moves: int = 5) -> dict[str, Any]:
    ctx = browser.new_context(viewport={"width": 1366, "height": 768}, locale="en-GB", service_workers="block")
    ctx.route("**/*", guard)
    page = ctx.new_page()
    try:
        page.goto(base + "#/thot/new")
        page.wait_for_selector("body[data-ready='1']", timeout=120_000)
        page.wait_for_selector("#start", timeout=60_000)
        page.select_option("#players", "2")
        chosen = pick_level(page, 1, level)
        page.fill("#seed", "7")
        page.evaluate(OBSERVER)
        page.click("#start")
        page.wait_for_selector("#thot-board .mark-legal", timeout=60_000)
        page.evaluate("window.__longtasks && (window.__longtasks.length = 0)")
        made = 0
        for _ in range(moves):
            if page.locator("#thot-result").count():
                break
            before = page.evaluate("document.querySelectorAll('#thot-log li:not(.muted)').length")
            page.locator("#thot-board .mark-legal").first.click()
            made += 1
            page.wait_for_function(f"document.querySelectorAll('#thot-log li:not(.muted)').length >= {before + 2}"
                                   " || document.getElementById('thot-result')", timeout=120_000)
            page.wait_for_timeout(100)
        return {"game": "thot", "mode": "a person's moves against the computer", "levels": [chosen],
                "moves": made, **summary(page.evaluate("window.__longtasks"))}
    finally:
        ctx.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default="scarabeo,thot,scarabya,ruins",
                        help="comma-separated; 'ruins' is Scarabya's Ruins variant")
    parser.add_argument("--seconds", type=float, default=120.0)
    parser.add_argument("--players", type=int, default=2, help="seats in the self-played games (Thot, Scarabya: up to 4)")
    parser.add_argument("--level", default="top", help="'top' (each game's strongest) or a level number")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    os.environ["SCARAB_QUIET"] = "1"
    serve.setup()
    server = serve.make_server("127.0.0.1", 0, ROOT / "dist")
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    load_before = os.getloadavg()[0]
    rows: list[dict[str, Any]] = []
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=args.chromium, args=ARGS)
            for game in [g.strip() for g in args.games.split(",") if g.strip()]:
                rows.append(self_play(browser, base, game, args.level, args.seconds, args.players))
                print(json.dumps(rows[-1]), file=sys.stderr)
            if "thot" in args.games:
                rows.append(thot_person(browser, base, args.level))
                print(json.dumps(rows[-1]), file=sys.stderr)
            browser.close()
    finally:
        server.shutdown()
    load_after = os.getloadavg()[0]
    if args.json:
        print(json.dumps({"load": [load_before, load_after], "rows": rows}, indent=1))
        return 0
    print(f"load average {load_before:.1f} before, {load_after:.1f} after; {os.cpu_count()} cores")
    print(f"{'game':9} {'mode':38} {'moves':>5} {'ended':>5} {'>50ms':>6} {'>200ms':>6} {'longest':>8}")
    for r in rows:
        print(f"{r['game']:9} {r['mode']:38} {r['moves'] if r['moves'] is not None else '?':>5} "
              f"{str(r.get('ended', '')):>5} {r['over_50ms']!s:>6} {r['over_200ms']!s:>6} {r['longest_ms']!s:>6} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
