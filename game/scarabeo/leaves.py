"""Rack-leave values: what the tiles kept after a play are worth for the next turns, in points.

A linear model over a few features of the leave, fitted by least squares on self-play games
(``tools/tune_scarabeo_leaves.py``; method and figures in docs/scarabeo-ai.md): the target is
what the player scored on their next turn plus (discounted) the value of the leave that turn
kept, above the average, given the tiles they kept. ``TUNED`` below is that script's output;
``value`` evaluates it.
"""

from __future__ import annotations

from typing import Iterable

from game.scarabeo.tiles import LETTERS, SCARAB, VOWELS

#: Shape features, after one count per tile kind: repeated vowels and repeated consonants (each
#: copy after the first), the third and later copies again, vowels beyond the consonants + 1
#: and consonants beyond the vowels + 1, a Q without a U, both scarabs kept.
SHAPES: tuple[str, ...] = ("vowel_dups", "consonant_dups", "triples", "more_vowels",
                           "more_consonants", "q_without_u", "two_scarabs")
#: Feature names, in the order of the weight vectors: one per tile kind, then the shapes.
FEATURES: tuple[str, ...] = tuple(LETTERS) + (SCARAB,) + SHAPES

#: Starting values before tuning (points), and what the ridge fit shrinks toward: scarabs are
#: worth most, awkward letters cost.
PRIOR: dict[str, float] = {
    **dict.fromkeys("AEIO", 1.0), "U": -2.5,
    **dict.fromkeys("CRST", 1.5), **dict.fromkeys("LMN", 1.0),
    **dict.fromkeys("BDFGP", -1.0), "V": -2.5, "H": -3.0, "Q": -7.0, "Z": -2.0,
    SCARAB: 25.0, "vowel_dups": -2.5, "consonant_dups": -2.5, "triples": 0.0,
    "more_vowels": -2.5, "more_consonants": -2.5, "q_without_u": -6.0, "two_scarabs": 0.0,
}

#: Fitted by tools/tune_scarabeo_leaves.py (temporal-difference target, gamma 0.8, 4 iterations,
#: ridge 5 toward PRIOR): 1 000 champion self-play games, 18 646 leaves: seeds 20000-20499
#: played with the previous (45-game) weights, 21000-21499 with the first fit of these features
#: and the board-danger term; R² 0.093 (0.092 on the held-out fifth), intercept 82.46.
TUNED: dict[str, float] | None = {
    "A": 6.79, "B": -7.26, "C": -4.18, "D": -1.11, "E": 1.46, "F": -9.32, "G": -5.66, "H": -8.33,
    "I": 7.6, "L": -0.46, "M": -4.08, "N": 1.97, "O": 0.81, "P": -7.49, "Q": -16.2, "R": 5.88,
    "S": -2.17, "T": -3.08, "U": -3.38, "V": -4.2, "Z": -7.88, "?": 16.32, "vowel_dups": -4.85,
    "consonant_dups": -5.16, "triples": -5.63, "more_vowels": -6.11, "more_consonants": -4.2,
    "q_without_u": -1.88, "two_scarabs": -0.78,
}

WEIGHTS: dict[str, float] = dict(TUNED if TUNED is not None else PRIOR)


def features(leave: Iterable[str]) -> dict[str, int]:
    """The feature counts of a leave (tiles: letters and ``?``); absent features are 0."""
    counts: dict[str, int] = {}
    for t in leave:
        counts[t] = counts.get(t, 0) + 1
    out = dict(counts)
    vowels = consonants = vowel_dups = consonant_dups = triples = 0
    for t, n in counts.items():
        if t == SCARAB:
            continue
        if t in VOWELS:
            vowels += n
            vowel_dups += n - 1
        else:
            consonants += n
            consonant_dups += n - 1
        triples += max(0, n - 2)
    shapes = {
        "vowel_dups": vowel_dups, "consonant_dups": consonant_dups, "triples": triples,
        "more_vowels": max(0, vowels - consonants - 1),
        "more_consonants": max(0, consonants - vowels - 1),
        "q_without_u": 1 if counts.get("Q") and not counts.get("U") else 0,
        "two_scarabs": 1 if counts.get(SCARAB, 0) >= 2 else 0,
    }
    out.update((k, v) for k, v in shapes.items() if v)
    return out


def value(leave: Iterable[str], weights: dict[str, float] | None = None) -> float:
    w = WEIGHTS if weights is None else weights
    return sum(w.get(k, 0.0) * n for k, n in features(leave).items())


def max_value(weights: dict[str, float] | None = None, size: int = 7) -> float:
    """An upper bound of ``value`` over leaves of at most ``size`` tiles (for pruning)."""
    w = WEIGHTS if weights is None else weights
    best_tile = max(0.0, *(w.get(t, 0.0) for t in (*LETTERS, SCARAB)))
    shape = sum(max(0.0, w.get(k, 0.0)) for k in SHAPES)
    return size * (best_tile + shape) + 1e-9
