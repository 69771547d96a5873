"""Remote play in the page (Pyodide): the time of Scarabeo's setup and of one move's link, and the
main thread's long tasks meanwhile (issue 27: setup ≤ 3 s, a move's link ≤ 300 ms, no task over 200 ms).

    .venv/bin/python tools/bench_remote_page.py [--runs 3] [--moves 4]

Serves the built site on a free local port; in headless Chromium (the network blocked) two browser
contexts — two devices — play Scarabeo by links: Anna invites, Bruno accepts, the deal's links go
back and forth, then ``--moves`` turns, each the best play on the mover's own rack (picked in this
process with the move generator, laid with the keyboard): the link carries the tile proof and shares. The page notes each message's protocol time (``body[data-remote-log]``, written
by ``web/pages/remote.py``); a ``longtask`` PerformanceObserver records every task over 50 ms.

Prints, as the median of ``--runs`` runs: one device's setup (its protocol time over the start and
the deal's messages, the largest of the two devices), one move's link (making it; opening it on the
other device), the longest task, the tasks over 200 ms, the longest link seen; and the load average
before and after (figures from a loaded machine spread widely: compare only one run's). The longest
link of a whole game is ``python -m game remote bench``'s (CPython, same messages). A measurement,
not a test.
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
os.environ.setdefault("SCARAB_QUIET", "1")  # no request log from the server

import serve  # noqa: E402
from tools.bench_startup import ARGS, guard  # noqa: E402

OBSERVER = """() => { window.__longtasks = [];
  new PerformanceObserver(list => { for (const e of list.getEntries()) window.__longtasks.push([e.startTime, e.duration]); })
    .observe({type: "longtask", buffered: false}); }"""
GAME_PAGE = "**/#/scarabeo/remote/*"


def log(page: Any) -> list[dict[str, Any]]:
    return list(json.loads(page.evaluate("document.body.dataset.remoteLog || '[]'")))


def goto(page: Any, link: str) -> None:
    page.goto(link)
    page.wait_for_selector("body[data-ready='1']", timeout=120_000)
    page.wait_for_url(lambda url: "/remote/" in url, timeout=120_000)
    page.wait_for_selector("#remote-panel", timeout=120_000)


def pending(page: Any) -> str | None:
    box = page.locator("#remote-link")
    return str(box.input_value()) if box.count() else None


def play(page: Any, lex: Any, gen: Any) -> None:
    """The best play on this device's own rack (read from its own state), laid with the keyboard."""
    from game.remote.session import Device
    from tests.e2e.test_scarabeo import type_play

    save_id = page.url.rsplit("/", 1)[1]
    device = Device.from_json(json.loads(page.evaluate(f"localStorage.getItem('scarab:remote:{save_id}')")), lex)
    state = device.game.engine  # type: ignore[union-attr]
    plays = sorted((p for p in gen.plays(state.board, state.racks[device.seat], state.first_play) if not p[4]),
                   key=lambda p: (-p[0], p[1], p[2], p[3]))
    if plays:
        type_play(page, state, plays[0])
        page.click("#sc-play")
    else:
        page.click("#sc-pass")


def two_devices(browser: Any, base: str, route: str) -> tuple[list[Any], Any, Any]:
    """Two contexts (two devices): Anna on the invitation form at ``route``, Bruno on the site, booted."""
    contexts = [browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-GB",
                                    service_workers="block") for _ in range(2)]
    for ctx in contexts:
        ctx.route("**/*", guard)
    anna, bruno = (ctx.new_page() for ctx in contexts)
    anna.goto(base + route)
    anna.wait_for_selector("#remote-invite", timeout=120_000)
    bruno.goto(base + "#/")
    bruno.wait_for_selector("body[data-ready='1']", timeout=120_000)
    return contexts, anna, bruno


def one_run(browser: Any, base: str, moves: int, lex: Any, gen: Any) -> dict[str, Any]:
    contexts, anna, bruno = two_devices(browser, base, "#/scarabeo/remote")
    try:
        for page in (anna, bruno):
            page.evaluate(OBSERVER)
        anna.fill("#remote-name", "Anna")
        anna.click("#remote-invite")
        anna.wait_for_selector("#remote-link", timeout=120_000)
        invitation = pending(anna)
        assert invitation
        bruno.goto(invitation)
        bruno.wait_for_selector("#remote-invitation", timeout=120_000)
        bruno.fill("#remote-name", "Bruno")
        bruno.click("#remote-accept")
        bruno.wait_for_selector("#remote-link", timeout=120_000)
        link, sender, receiver = pending(bruno), bruno, anna
        longest = len(invitation)
        while link is not None:  # the start and the deal
            longest = max(longest, len(link))
            goto(receiver, link)
            sender, receiver = receiver, sender
            link = pending(sender)
        setup = max(sum(e["ms"] for e in log(p)) for p in (anna, bruno))
        marks = {id(p): len(log(p)) for p in (anna, bruno)}
        made: list[float] = []
        opened: list[float] = []
        for _ in range(moves):
            player = anna if anna.locator("#remote-status").inner_text() == "Your turn." else bruno
            other = bruno if player is anna else anna
            player.wait_for_selector("#sc-pass")
            play(player, lex, gen)
            player.wait_for_function(f"JSON.parse(document.body.dataset.remoteLog || '[]').length > {marks[id(player)]}")
            link = pending(player)
            assert link
            longest = max(longest, len(link))
            goto(other, link)
            made.append(log(player)[-1]["ms"])
            opened.append(log(other)[-1]["ms"])
            marks = {id(p): len(log(p)) for p in (anna, bruno)}
        tasks, in_protocol = [], []
        for p in (anna, bruno):
            spans = [(e["at"], e["at"] + e["ms"]) for e in log(p)]
            for start_ms, duration in p.evaluate("window.__longtasks"):
                tasks.append(float(duration))
                if any(start_ms < end and start_ms + duration > begin for begin, end in spans):
                    in_protocol.append(float(duration))
        sliced = all(e["sliced"] for p in (anna, bruno) for e in log(p))
        return {"setup_ms": setup, "move_link_ms": statistics.median(made), "move_open_ms": statistics.median(opened),
                "longest_task_ms": max(tasks, default=0.0), "tasks_over_200ms": sum(1 for d in tasks if d > 200),
                "longest_task_in_protocol_ms": max(in_protocol, default=0.0), "sliced": float(sliced),
                "longest_link_chars": longest}
    finally:
        for ctx in contexts:
            ctx.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--moves", type=int, default=4)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    import lexicon
    from game.scarabeo.movegen import MoveGenerator

    lex = lexicon.load()
    gen = MoveGenerator(lex)

    site = ROOT / "dist"
    server = serve.make_server("127.0.0.1", 0, site)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    load_before = os.getloadavg()
    runs = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=os.environ.get("SCARAB_CHROMIUM", "/usr/bin/chromium"), args=ARGS)
        try:
            for _ in range(args.runs):
                runs.append(one_run(browser, base, args.moves, lex, gen))
                print(json.dumps(runs[-1]), file=sys.stderr)
        finally:
            browser.close()
            server.shutdown()
    medians = {key: round(statistics.median(r[key] for r in runs), 1) for key in runs[0]}
    print(json.dumps({"runs": len(runs), "median": medians,
                      "targets": {"setup_ms": 3000, "move_link_ms": 300, "longest_task_ms": 200},
                      "load_average": {"before": [round(x, 2) for x in load_before],
                                       "after": [round(x, 2) for x in os.getloadavg()]}}, indent=1))


if __name__ == "__main__":
    main()
