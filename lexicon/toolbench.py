"""``python -m lexicon bench-tools``: the word tools timed on the real lexicon, with a baseline.

Each query runs ``runs`` times; the figures are the best and the median in milliseconds (the best
is the machine's speed, the median what a busy machine gives). The target is the issue's: every
answer for an 8-tile rack with two scarabs within 100 ms in CPython. In the same run, as a
baseline: the lexicon's ``contains`` rate (the figure docs/lexicon.md gives for this machine), and
for ``best`` the move generator's whole enumeration of the same rack on the empty board (what
``best_plays`` would cost without its bound). The load average before and after says how busy
the machine was.
"""

from __future__ import annotations

import itertools
import os
import platform
import statistics
import time
from functools import partial
from typing import Any, Callable

from .automaton import Lexicon
from .tools import anagrams, below_masks, best_plays, pattern

#: 8-tile racks with two scarabs: the worst case of the issue's target. AEIOR??S spells the most
#: words of the racks tried (11,050); SCARAB?? makes the 180-point SCARABEI; QZHUVB?? few words.
RACKS = ("AEIOR??S", "SCARAB??", "ESTRAN??", "QZHUVB??")
PATTERNS: tuple[tuple[str, int | None], ...] = (
    ("C?SA", None), ("*ARE", None), ("*ARE", 6), ("????????", None), ("SCARAB*", None), ("*ZIONE", None),
    ("Q*", 5), ("*Z*Z*Z*", None), ("*QQQ", None),
)
TARGET_MS = 100.0


def _loadavg() -> list[float]:
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:  # not on every platform
        return []


def _time(fn: Callable[[], object], runs: int) -> dict[str, float]:
    """Wall-clock time (best and median of the runs) and the process's CPU time (best): on a busy
    machine the wall clock also counts the time the process waited for a core."""
    times = []
    cpu = []
    for _ in range(runs):
        t, c = time.perf_counter(), time.process_time()
        fn()
        cpu.append((time.process_time() - c) * 1000)
        times.append((time.perf_counter() - t) * 1000)
    return {"best_ms": round(min(times), 1), "median_ms": round(statistics.median(times), 1),
            "cpu_best_ms": round(min(cpu), 1)}


def run_tool_bench(lex: Lexicon, runs: int = 5, baseline: bool = True) -> dict[str, Any]:
    before = _loadavg()
    out: dict[str, Any] = {
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, "
                   f"{platform.python_implementation()} {platform.python_version()}",
        "runs": runs,
    }
    # The machine's speed now: the lexicon's look-ups (docs/lexicon.md has earlier figures).
    words = list(itertools.islice(lex.words(), 0, 97 * 10_000, 97))
    queries = words + [w[:-1] + ("Z" if w[-1] != "Z" else "A") for w in words]
    best = float("inf")
    for _ in range(3):
        t = time.perf_counter()
        for w in queries:
            lex.contains(w)
        best = min(best, time.perf_counter() - t)
    out["baseline_contains_per_second"] = int(len(queries) / best)
    # The pattern search's table (the letters below each node), made once per lexicon: set-up, not
    # an answer's time, like the page's lexicon load.
    t = time.perf_counter()
    below_masks(lex, cached=False)
    out["pattern_setup_ms"] = round((time.perf_counter() - t) * 1000, 1)
    out["anagram"] = {rack: {"words": len(anagrams(lex, rack)), **_time(partial(anagrams, lex, rack), runs)}
                      for rack in RACKS}
    out["pattern"] = {p + (f" --length {n}" if n else ""): {
        "words_shown": len(pattern(lex, p, n)[0]), **_time(partial(pattern, lex, p, n), runs)}
        for p, n in PATTERNS}
    out["best"] = {rack: {"top": best_plays(lex, rack, 1)[0].to_json(), **_time(partial(best_plays, lex, rack), runs)}
                   for rack in RACKS}
    if baseline:
        from game.scarabeo.board import new_board
        from game.scarabeo.movegen import MoveGenerator

        t = time.perf_counter()
        gen = MoveGenerator(lex)
        setup = (time.perf_counter() - t) * 1000
        base: dict[str, Any] = {"generator_setup_ms": round(setup, 1)}
        for rack in RACKS:
            t = time.perf_counter()
            plays = gen.plays(new_board(), list(rack), first_play=True, swaps=False)
            base[rack] = {"plays": len(plays), "top_score": max(p[0] for p in plays),
                          "ms": round((time.perf_counter() - t) * 1000, 1)}
        out["baseline_movegen_empty_board"] = base
    worst = max(v["best_ms"] for section in ("anagram", "best") for v in out[section].values())
    out["targets"] = {"anagram and best <= 100 ms (best of runs, 8 tiles, 2 scarabs)": worst <= TARGET_MS}
    out["loadavg"] = {"before": before, "after": _loadavg()}
    return out
