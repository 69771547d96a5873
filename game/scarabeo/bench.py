"""``python -m game scarabeo bench`` — time the hot paths and print the figures as JSON."""

from __future__ import annotations

import hashlib
import json
import platform
import subprocess
import time
from pathlib import Path
from typing import Any, Callable

from game.core import Rng
from game.scarabeo.game import ScarabeoState
from game.scarabeo.moves import Play
from game.scarabeo.randomplay import random_move, random_placement_play
from game.scarabeo.rules import resolve_play
from game.scarabeo.scoring import play_score, score_play


def _mid_game(seed: int) -> ScarabeoState:
    state = ScarabeoState.new(2, seed)
    rng = Rng(seed)
    for _ in range(16):
        if state.is_over():
            break
        state.push(random_move(state, rng))
    return state


def _best(fn: Callable[[], None], repeat: int = 3) -> float:
    """Best of ``repeat`` timings: the least disturbed by other work on the machine."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def run_bench(n: int = 2000) -> dict[str, Any]:
    """Micro figures are the best of 3 runs of ``n`` calls; random games run once."""
    n = max(10, n)
    rng = Rng(7)
    state = _mid_game(3)
    plays: list[Play] = []
    while len(plays) < 50:
        p = random_placement_play(state, rng)
        if p is not None and not p.swaps:
            plays.append(p)
    placements = [resolve_play(state.board, p) for p in plays]
    board = state.board
    text = state.position()

    def score_all() -> None:
        for i in range(n):
            score_play(board, placements[i % len(placements)])

    def fast_all() -> None:
        for i in range(n):
            play_score(board, placements[i % len(placements)])

    def push_pop_all() -> None:
        for i in range(n):
            state.push(plays[i % len(plays)])
            state.pop()

    def positions_all() -> None:
        for _ in range(n // 10):
            ScarabeoState.from_position(text).position()

    t_score = _best(score_all) / n
    t_fast = _best(fast_all) / n
    t_push = _best(push_pop_all) / n
    t_pos = _best(positions_all) / (n // 10)

    games = max(1, n // 400)
    moves = 0
    digest = hashlib.sha256()
    t0 = time.perf_counter()
    for g in range(games):
        s = ScarabeoState.new(2 + g % 3, g)
        grng = Rng(g)
        while not s.is_over():
            s.push(random_move(s, grng))
            moves += 1
        digest.update(s.position().encode())
    t_games = time.perf_counter() - t0
    return {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "score_play_us": round(t_score * 1e6, 1),
        "play_score_us": round(t_fast * 1e6, 1),
        "push_pop_play_us": round(t_push * 1e6, 1),
        "position_roundtrip_us": round(t_pos * 1e6, 1),
        "random_games": games,
        "random_game_moves": moves,
        "random_game_ms_per_move": round(t_games * 1e3 / max(1, moves), 2),
        "iterations": n,
        # The same seeds give the same games on every Python: compare across interpreters.
        "games_digest": digest.hexdigest()[:16],
    }


def run_selfplay(games: int, players: int, seed: int) -> dict[str, Any]:
    """Random legal games (every word accepted) to the end, checking the invariants after every
    move: all 130 tiles somewhere, racks of at most 8, turn totals adding up, positions and
    records round-tripping."""
    from collections import Counter

    from game.scarabeo import record
    from game.scarabeo.tiles import RACK_SIZE, full_set

    full = Counter(full_set())
    reasons: Counter[str] = Counter()
    failures: list[str] = []
    moves = 0
    totals: list[int] = []
    t0 = time.perf_counter()
    for g in range(games):
        s = ScarabeoState.new(players, seed + g)
        rng = Rng(seed + g)
        while not s.is_over() and len(s.history()) < 2000:
            s.push(random_move(s, rng))
            moves += 1
            if Counter(s.tiles_everywhere()) != full:
                failures.append(f"game {seed + g}: tiles not conserved at move {len(s.history())}")
            if any(len(r) > RACK_SIZE for r in s.racks):
                failures.append(f"game {seed + g}: a rack over 8 at move {len(s.history())}")
        out = s.outcome()
        if out is None:
            failures.append(f"game {seed + g}: did not end")
            continue
        reasons[out.reason] += 1
        totals.extend(out.scores)
        text = s.position()
        if ScarabeoState.from_position(text).position() != text:
            failures.append(f"game {seed + g}: position does not round-trip")
        if record.from_text(record.to_text(s)).scores != s.scores:
            failures.append(f"game {seed + g}: text record does not replay")
    elapsed = time.perf_counter() - t0
    return {
        "games": games,
        "players": players,
        "moves": moves,
        "ends": dict(reasons),
        "mean_final_score": round(sum(totals) / max(1, len(totals)), 1),
        "ms_per_move": round(elapsed * 1e3 / max(1, moves), 3),
        "failures": failures,
    }


def run_pyodide_bench(n: int) -> dict[str, Any]:
    """The same bench inside Pyodide under Node (``node_modules/pyodide``), as the browser runs it."""
    script = Path(__file__).resolve().parent / "pyodide_bench.mjs"
    try:
        proc = subprocess.run(["node", str(script), str(n)], capture_output=True, text=True,
                              check=False, timeout=600)
    except (OSError, subprocess.TimeoutExpired) as err:
        return {"error": f"cannot run node: {err}"}
    if proc.returncode != 0:
        return {"error": proc.stderr.strip()[-500:]}
    result: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    return result
