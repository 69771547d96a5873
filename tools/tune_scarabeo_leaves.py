"""Fit the Scarabeo rack-leave values (game/scarabeo/leaves.py) by self-play.

    .venv/bin/python tools/tune_scarabeo_leaves.py --games 15 --seed 10000 --save s0.json
    (… --seed 10015 --save s1.json, --seed 10030 --save s2.json, in parallel)
    .venv/bin/python tools/tune_scarabeo_leaves.py --fit s0.json s1.json s2.json

Method: the given level (champion: equity with the current leave weights) plays both seats of
seeded 2-player games. After each play that leaves the bag with at least 8 tiles, the leave's
features (one count per tile kind, duplicates, vowel/consonant imbalance, Q without U) are
recorded with the points the same player scores on their next turn. A ridge least-squares fit
``next score ≈ b + Σ w_f × feature_f`` (of the deviation from ``leaves.PRIOR``) gives w: what
each kind of kept tile adds to the next turn's score above the average. Prints JSON: the
weights (ready for ``TUNED``), the intercept, the sample count and R². Games are deterministic,
so runs over seed ranges can be split, saved (``--save``) and fitted together (``--fit``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import lexicon  # noqa: E402
from game.scarabeo import ai, leaves  # noqa: E402
from game.scarabeo.game import ScarabeoState  # noqa: E402
from game.scarabeo.moves import Play  # noqa: E402
from game.scarabeo.rules import apply_swaps, resolve_play  # noqa: E402


def solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (the matrix is small and well conditioned)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for col in range(n):
        piv = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[piv] = m[piv], m[col]
        p = m[col][col]
        for r in range(n):
            if r != col and m[r][col]:
                f = m[r][col] / p
                for c in range(col, n + 1):
                    m[r][c] -= f * m[col][c]
    return [m[i][n] / m[i][i] for i in range(n)]


def collect(games: int, seed: int, level: str) -> list[tuple[dict[str, int], int]]:
    lex = lexicon.load()
    samples: list[tuple[dict[str, int], int]] = []
    for g in range(games):
        state = ScarabeoState.new(2, seed + g, word_list=lex)
        waiting: dict[int, dict[str, int]] = {}
        while not state.is_over():
            player = state.turn
            move = ai.choose(state, level)
            left = leave_of(state, move) if isinstance(move, Play) else None
            result = state.push(move)
            if player in waiting:
                samples.append((waiting.pop(player), result.score))
            if left is not None and len(state.bag) >= 8:
                waiting[player] = leaves.features(left)
        print(f"game {g + 1}/{games}: {state.scores} ({len(samples)} samples)", file=sys.stderr,
              flush=True)
    return samples


def leave_of(state: ScarabeoState, play: Play) -> list[str]:
    """The tiles the player keeps after ``play`` (swaps first: letter out, scarab in)."""
    board = state.board[:]
    rack = state.racks[state.turn][:]
    apply_swaps(board, rack, play.swaps)
    for _, ch in resolve_play(board, play):
        rack.remove("?" if ch.islower() else ch)
    return rack


def fit(samples: list[tuple[dict[str, int], int]], ridge: float) -> dict[str, object]:
    """Ridge regression of the next-turn score on the leave features, shrunk toward the prior
    (``leaves.PRIOR``): the fit is of the deviation from the prior, so a tile kind seen rarely
    keeps about its prior value instead of a noisy one."""
    names = list(leaves.FEATURES)
    prior = [leaves.PRIOR.get(n, 0.0) for n in names]
    k = len(names) + 1
    xtx = [[0.0] * k for _ in range(k)]
    xty = [0.0] * k
    ys = []
    for feats, y0 in samples:
        x = [1.0] + [float(feats.get(n, 0)) for n in names]
        y = y0 - sum(prior[i] * x[i + 1] for i in range(len(names)))
        ys.append(y)
        for i in range(k):
            if x[i]:
                xty[i] += x[i] * y
                for j in range(k):
                    xtx[i][j] += x[i] * x[j]
    for i in range(1, k):
        xtx[i][i] += ridge
    w = solve(xtx, xty)
    for i in range(len(names)):
        w[i + 1] += prior[i]
    raw = [y for _, y in samples]
    mean = sum(raw) / len(raw)
    ss_tot = sum((y - mean) ** 2 for y in raw)
    ss_res = sum((y - w[0] - sum(w[i + 1] * f.get(n, 0) for i, n in enumerate(names))) ** 2
                 for f, y in samples)
    return {
        "weights": {n: round(w[i + 1], 2) for i, n in enumerate(names)},
        "intercept": round(w[0], 2),
        "samples": len(samples),
        "r2": round(1 - ss_res / ss_tot, 3) if ss_tot else 0.0,
        "mean_next_score": round(mean, 2),
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--level", default="champion")
    ap.add_argument("--ridge", type=float, default=20.0)
    ap.add_argument("--save", help="write the samples (JSON) to this file")
    ap.add_argument("--fit", nargs="+", metavar="FILE", help="fit saved samples, play no game")
    args = ap.parse_args()
    t0 = time.time()
    if args.fit:
        samples = []
        for name in args.fit:
            samples += [(f, y) for f, y in json.loads(Path(name).read_text())]
    else:
        samples = collect(args.games, args.seed, args.level)
    if args.save:
        Path(args.save).write_text(json.dumps(samples))
    out = fit(samples, args.ridge)
    out.update({"games": args.games, "seed": args.seed, "level": args.level,
                "seconds": round(time.time() - t0, 1)})
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
