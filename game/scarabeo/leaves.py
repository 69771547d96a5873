"""Rack-leave values: what the tiles kept after a play are worth for the next turns, in points.

A linear model over a few features of the leave, fitted by least squares on self-play games
(``tools/tune_scarabeo_leaves.py``; method and figures in docs/scarabeo-ai.md): the target is
how much the player scored on their next turn above the average next-turn score, given the
tiles they kept. ``TUNED`` below is that script's output; ``leave_value`` evaluates it.
"""

from __future__ import annotations

from typing import Iterable

from game.scarabeo.tiles import LETTERS, SCARAB, VOWELS

#: Feature names, in the order of the weight vectors: one per tile kind, then shape features.
FEATURES: tuple[str, ...] = tuple(LETTERS) + (SCARAB, "duplicates", "imbalance", "q_without_u")

#: Starting values before tuning (points): scarabs are worth most, awkward letters cost.
PRIOR: dict[str, float] = {
    **dict.fromkeys("AEIO", 1.0), "U": -2.5,
    **dict.fromkeys("CRST", 1.5), **dict.fromkeys("LMN", 1.0),
    **dict.fromkeys("BDFGP", -1.0), "V": -2.5, "H": -3.0, "Q": -7.0, "Z": -2.0,
    SCARAB: 25.0, "duplicates": -2.5, "imbalance": -2.5, "q_without_u": -6.0,
}

#: Fitted by tools/tune_scarabeo_leaves.py: 45 champion self-play games (seeds 10000-10044, with
#: the PRIOR weights), 887 leaves, ridge 20 toward PRIOR; R² 0.134, intercept 83.55
#: (mean next-turn score 75.5).
TUNED: dict[str, float] | None = {
    "A": 1.04, "B": -4.73, "C": -0.45, "D": 1.45, "E": 1.07, "F": -1.78, "G": -1.11, "H": 4.07,
    "I": 3.75, "L": 0.24, "M": -5.71, "N": -2.03, "O": -0.73, "P": -6.75, "Q": -3.38,
    "R": 4.27, "S": -1.09, "T": -2.51, "U": -4.15, "V": -5.93, "Z": 1.29, "?": 13.52,
    "duplicates": -5.1, "imbalance": -4.88, "q_without_u": -3.34,
}

WEIGHTS: dict[str, float] = dict(TUNED if TUNED is not None else PRIOR)


def features(leave: Iterable[str]) -> dict[str, int]:
    """The feature counts of a leave (tiles: letters and ``?``)."""
    counts: dict[str, int] = {}
    for t in leave:
        counts[t] = counts.get(t, 0) + 1
    out = dict(counts)
    out["duplicates"] = sum(n - 1 for t, n in counts.items() if n > 1 and t != SCARAB)
    vowels = sum(n for t, n in counts.items() if t in VOWELS)
    consonants = sum(n for t, n in counts.items() if t not in VOWELS and t != SCARAB)
    out["imbalance"] = max(0, abs(vowels - consonants) - 1)
    out["q_without_u"] = 1 if counts.get("Q") and not counts.get("U") else 0
    return out


def value(leave: Iterable[str], weights: dict[str, float] | None = None) -> float:
    w = WEIGHTS if weights is None else weights
    return sum(w.get(k, 0.0) * n for k, n in features(leave).items())


def max_value(weights: dict[str, float] | None = None, size: int = 7) -> float:
    """An upper bound of ``value`` over leaves of at most ``size`` tiles (for pruning)."""
    w = WEIGHTS if weights is None else weights
    best_tile = max(0.0, *(w.get(t, 0.0) for t in (*LETTERS, SCARAB)))
    shape = size * (max(0.0, w.get("duplicates", 0.0)) + max(0.0, w.get("imbalance", 0.0)))
    return size * best_tile + shape + max(0.0, w.get("q_without_u", 0.0)) + 1e-9
