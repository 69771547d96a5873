"""Move-generation benchmark over the fixed positions (``bench_positions.txt``), and the
seeded positions' maker. Pure computation (the caller reads the file), so the same code times
CPython on the command line and Pyodide in the browser (tools/bench_scarabeo_browser.py).
"""

from __future__ import annotations

import math
import platform
import statistics
import sys
import time
from typing import Any, Iterable

from game.core import Rng
from game.scarabeo.game import ScarabeoState
from game.scarabeo.movegen import MoveGenerator
from game.scarabeo.position import PositionData, format_position, parse_position
from game.scarabeo.tiles import RACK_SIZE, SCARAB, tile_of

CLASSES = (0, 1, 2)


def read_positions(text: str) -> list[str]:
    """Positions, one a line; blank lines and ``#`` comments skipped."""
    return [ln.strip() for ln in text.splitlines() if ln.strip() and not ln.startswith("#")]


def scarab_class(position: str) -> int:
    return parse_position(position).racks[0].count(SCARAB)


def time_generation(gen: MoveGenerator, positions: Iterable[str], repeat: int = 1) -> list[dict[str, Any]]:
    """Full generation (every play, scarab variants and swaps) for each position: the best of
    ``repeat`` runs, in ms, with the number of plays."""
    out = []
    for pos in positions:
        data = parse_position(pos)
        board = list(data.board)
        rack = list(data.racks[0])
        first = not any(board)
        best = cpu = float("inf")
        count = 0
        for _ in range(max(1, repeat)):
            t0 = time.perf_counter()
            c0 = time.process_time()
            plays = gen.plays(board, rack, first)
            cpu = min(cpu, time.process_time() - c0)
            best = min(best, time.perf_counter() - t0)
            count = len(plays)
        out.append({"scarabs": rack.count(SCARAB), "ms": best * 1000, "cpu_ms": cpu * 1000,
                    "plays": count})
    return out


def summarise(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Per rack class: positions, median and p95 ms, plays per second."""
    table: dict[str, Any] = {}
    for c in CLASSES:
        sel = [r for r in rows if r["scarabs"] == c]
        if not sel:
            continue
        ms = sorted(r["ms"] for r in sel)
        p95 = ms[max(0, math.ceil(0.95 * len(ms)) - 1)]  # nearest rank
        plays = sum(r["plays"] for r in sel)
        table[str(c)] = {
            "positions": len(sel),
            "median_ms": round(statistics.median(ms), 1),
            "p95_ms": round(p95, 1),
            "max_ms": round(ms[-1], 1),
            "mean_plays": round(plays / len(sel)),
            "plays_per_s": round(plays / (sum(ms) / 1000)),
        }
        if all("cpu_ms" in r for r in sel):
            # Process time: what the generator itself used, whatever else the machine ran.
            cpu = sorted(r["cpu_ms"] for r in sel)
            table[str(c)]["cpu_median_ms"] = round(statistics.median(cpu), 1)
            table[str(c)]["cpu_p95_ms"] = round(cpu[max(0, math.ceil(0.95 * len(cpu)) - 1)], 1)
            table[str(c)]["plays_per_cpu_s"] = round(plays / max(1e-9, sum(cpu) / 1000))
    return table


def run(gen: MoveGenerator, positions_text: str, repeat: int = 1) -> dict[str, Any]:
    positions = read_positions(positions_text)
    rows = time_generation(gen, positions, repeat)
    return {
        "python": platform.python_version(),
        "implementation": sys.implementation.name,
        "platform": sys.platform,
        "positions": len(positions),
        "repeat": repeat,
        "classes": summarise(rows),
        "rows": rows,
    }


def make_positions(lexicon: Any, count: int = 54, seed: int = 1) -> list[str]:
    """Seeded mid-game positions, a third each with 0, 1 and 2 scarabs on the rack to move.

    Each comes from a game of two greedy players (highest score now) stopped after 4-14 turns; the rack to move is then
    dealt again from the tiles the mover cannot see plus their own, with the class's scarabs
    (a position is skipped when the board holds too many scarabs for its class, or when no deal
    keeps the board's scarabs out of reach of a swap)."""
    from game.scarabeo import ai  # noqa: PLC0415 - the maker plays games

    out: list[str] = []
    g = 0
    while len(out) < count:
        cls = CLASSES[len(out) % len(CLASSES)]
        rng = Rng(seed * 7_919 + g)
        state = ScarabeoState.new(2, seed * 10_007 + g, word_list=lexicon)
        g += 1
        for _ in range(4 + rng.below(11)):
            if state.is_over():
                break
            state.push(ai.choose(state, "greedy"))
        if state.is_over() or state.pending is not None:
            continue
        on_board = sum(1 for c in state.board if c and c.islower())
        if on_board + cls > 2:
            continue
        me = state.turn
        pool = [t for t in state.bag + state.racks[me] + state.racks[1 - me] if t != SCARAB]
        # The class is the number of scarabs the mover can use: no board scarab whose letter
        # is on the rack (a swap would bring one more); swaps are covered by the tests.
        swappable = {c.upper() for c in state.board if c and c.islower()}
        for _ in range(20):
            rng.shuffle(pool)
            if not swappable & set(pool[:RACK_SIZE - cls]):
                break
        else:
            continue
        rack = [SCARAB] * cls + pool[:RACK_SIZE - cls]
        spare_scarabs = 2 - on_board - cls
        rest = pool[RACK_SIZE - cls:] + [SCARAB] * spare_scarabs
        rng.shuffle(rest)
        other = rest[:RACK_SIZE]
        data = PositionData(tuple(state.board), ("".join(rack), "".join(other)),
                            (state.scores[me], state.scores[1 - me]), state.idle)
        text = format_position(data)
        parse_position(text)  # the position must be valid
        assert sum(1 for c in data.board if c and tile_of(c) == SCARAB) + cls <= 2
        out.append(text)
    return out
