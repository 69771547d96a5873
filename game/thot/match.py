"""Self-play matches and the benchmark (command-line tools, not used by the page).

A match plays ``games`` seeded two-player games between two players; each setup is played twice,
once from each seat, so neither player gets the luckier board. Players are a level number
(``1``, ``2``, ``3``), ``greedy`` (takes the highest value, ties at random) or ``random``.
Results depend only on the seed and the games' count, never on timing or on ``jobs``.
"""

from __future__ import annotations

import os
import time
from typing import Any, Callable

from game.core import Rng
from game.thot.search import (
    BROWSER_TIME_BUDGET,
    LEVELS,
    TOP_LEVEL,
    Search,
    best_move,
    greedy_move,
    random_move,
)
from game.thot.state import ThotState

#: How much slower Pyodide runs this code than CPython (the team's measured rule of thumb).
WASM_FACTOR = 1.7
PLAYERS = ("greedy", "random", *map(str, LEVELS))


def check_player(name: str) -> str:
    if name not in PLAYERS:
        raise ValueError(f"unknown player {name!r}; players are {', '.join(PLAYERS)}")
    return name


def choose(state: ThotState, player: str, rng: Rng) -> Any:
    if player == "greedy":
        return greedy_move(state, rng)
    if player == "random":
        return random_move(state, rng)
    res = best_move(state, int(player))
    assert res.move is not None
    return res.move


def play_game(args: tuple[int, str, str, int, dict[str, Any]]) -> dict[str, Any]:
    """Game ``index`` of a match: ``a`` sits in seat ``index % 2``; returns scores by player."""
    index, a, b, seed, options = args
    setup_seed = seed + index // 2
    state = ThotState.new(players=2, seed=setup_seed, **options)
    seat_a = index % 2
    players = [b, b]
    players[seat_a] = a
    rng = Rng(seed * 1_000_003 + index)
    moves = 0
    while not state.is_over():
        state.push(choose(state, players[state.mover], rng))
        moves += 1
    outcome = state.outcome()
    assert outcome is not None
    winners = outcome.winners
    result = "draw" if not winners else "a" if winners == (seat_a,) else "b"
    return {
        "index": index,
        "seed": setup_seed,
        "seat_a": seat_a,
        "result": result,
        "score_a": state.score[seat_a],
        "score_b": state.score[1 - seat_a],
        "moves": moves,
        "tiebreak": outcome.detail.get("tiebreak"),
    }


def selfplay(
    games: int,
    a: str,
    b: str,
    seed: int = 0,
    jobs: int = 1,
    progress: Callable[[dict[str, Any]], None] | None = None,
    **options: Any,
) -> dict[str, Any]:
    """Play the match; ``progress`` sees each game's result as it finishes (in any order)."""
    check_player(a)
    check_player(b)
    started = time.perf_counter()
    tasks = [(i, a, b, seed, options) for i in range(games)]
    results: list[dict[str, Any]] = []
    if jobs > 1 and games > 1:
        import multiprocessing

        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            for res in pool.imap_unordered(play_game, tasks, chunksize=1):
                results.append(res)
                if progress is not None:
                    progress(res)
    else:
        for task in tasks:
            results.append(play_game(task))
            if progress is not None:
                progress(results[-1])
    results.sort(key=lambda r: int(r["index"]))
    n = max(len(results), 1)
    wins_a = sum(r["result"] == "a" for r in results)
    wins_b = sum(r["result"] == "b" for r in results)
    draws = sum(r["result"] == "draw" for r in results)
    return {
        "games": len(results),
        "players": [a, b],
        "options": options,
        "seed": seed,
        "wins": {a if a != b else "a": wins_a, b if a != b else "b": wins_b, "draw": draws},
        "win_rate": {"a": wins_a / n, "b": wins_b / n, "draw": draws / n},
        "mean_score": {"a": sum(r["score_a"] for r in results) / n, "b": sum(r["score_b"] for r in results) / n},
        "mean_moves": sum(r["moves"] for r in results) / n,
        "seconds": round(time.perf_counter() - started, 2),
    }


def opening_bench(seeds: int = 5, short: bool = False) -> dict[str, Any]:
    """Time every level's opening move on fresh boards, as the page runs it (one-second cap).

    Wall time depends on the machine's load, so the CPU time of the search is reported too; the
    browser estimate is the CPU time times ``WASM_FACTOR``.
    """
    out: dict[str, Any] = {}
    for level in LEVELS:
        rows = []
        for s in range(seeds):
            state = ThotState.new(seed=s, short=short)
            search = Search(state, level, time_budget=BROWSER_TIME_BUDGET)
            cpu = time.process_time()
            # Slices of 15 ms, as the page drives it between repaints.
            while not search.step(15):
                pass
            cpu = time.process_time() - cpu
            res = search.result()
            rows.append((res.seconds, cpu, res.depth, res.nodes))
        cpu_max = max(r[1] for r in rows)
        out[LEVELS[level].name] = {
            "level": level,
            "seconds_max": round(max(r[0] for r in rows), 4),
            "cpu_seconds_max": round(cpu_max, 4),
            "cpu_seconds_mean": round(sum(r[1] for r in rows) / len(rows), 4),
            "browser_seconds_est": round(cpu_max * WASM_FACTOR, 3),
            "depth_min": min(r[2] for r in rows),
            "depth_max": max(r[2] for r in rows),
            "nodes_max": max(r[3] for r in rows),
            "nodes_per_cpu_second": round(sum(r[3] for r in rows) / max(sum(r[1] for r in rows), 1e-9)),
        }
    return out


def bench(
    games: int = 200,
    seed: int = 0,
    jobs: int = 2,
    match: bool = True,
    openings: int = 5,
    progress: Callable[[dict[str, Any]], None] | None = None,
) -> dict[str, Any]:
    import platform

    report: dict[str, Any] = {
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
        "load_average": [round(x, 2) for x in os.getloadavg()] if hasattr(os, "getloadavg") else None,
        "opening_10x10": opening_bench(openings),
        "opening_8x8": opening_bench(openings, short=True),
    }
    if match:
        top = str(TOP_LEVEL)
        report["top_vs_greedy"] = selfplay(games, top, "greedy", seed=seed, jobs=jobs, progress=progress)
        report["top_vs_middle"] = selfplay(games, top, "2", seed=seed, jobs=jobs, progress=progress)
    return report
