"""Scarabya — today's dig: a solo classic game on the day's layout and mission deck.

The answer is the best score the solver finds on that deck within a fixed amount of work (counted
in placements tried, not in time, so every device finds the same answer): a beam search that
knows the whole deck keeps the ``BEAM`` best partial digs after each round, each widened by its
``WIDTH`` best placements by the solver's level-3 value; a dig's rank is its exact score so far
plus the level-3 shaping terms of its last placement (scarabs covered, scarabs closing in).

It is the best found, not a proven optimum: twelve placements among a hundred or more each are
out of reach of an exhaustive search. Measured on 30 seeded decks (docs/daily.md) it beats the
top computer level playing the same deck (mean 48.0 against 41.8) at under a fifth of its cost,
so the top level's game is not also played.
"""

from __future__ import annotations

from typing import Any, Generator

from game.scarabya import solver
from game.scarabya.moves import DISCARD, Move, Place
from game.scarabya.state import ScarabyaState

#: Partial digs kept after each round, and placements tried from each (a beam of 24 × 8 found
#: +0.8 points on average for 1.6× the work; 6 × 5, −4.4 points for 0.4×).
BEAM = 16
WIDTH = 6


def new_game(seed: int) -> ScarabyaState:
    """The day's solo game (layout and deck dealt from the seed, as ``scarabya new`` does)."""
    return ScarabyaState.new(players=1, seed=seed)


def _replay(state: ScarabyaState, moves: list[Move]) -> None:
    for m in moves:
        state.push(m)


def _unwind(state: ScarabyaState, n: int) -> None:
    for _ in range(n):
        state.pop()


def _children(state: ScarabyaState) -> list[tuple[float, str, Move]]:
    """The next placements worth trying from a partial dig: (shaping terms, text, move), the
    ``WIDTH`` best by the level-3 value (ties by notation, so no order of discovery matters)."""
    placements = state.placements()
    tile = state.tile()
    if not placements or tile is None:
        return [(0.0, DISCARD.text(), DISCARD)]
    seat = 0
    scored = []
    for k, anchor, mask in placements:
        value, pts = solver.shaper_value(state.symbols, state.rocks, state.covered[seat],
                                         state.closed[seat], mask)
        move = Place(tile, k, anchor)
        scored.append((value, pts, move.text(), move))
    scored.sort(key=lambda x: (-x[0], x[2]))
    return [(value - pts, text, move) for value, pts, text, move in scored[:WIDTH]]


def beam_game(seed: int) -> Generator[None, None, tuple[int, list[str]]]:
    """The deck-aware beam search: (score, placements) of the best dig it keeps."""
    state = new_game(seed)
    beam: list[tuple[float, list[Move]]] = [(0.0, [])]
    while True:
        grown: list[tuple[float, str, list[Move]]] = []
        over = False
        for _, moves in beam:
            _replay(state, moves)
            if state.is_over():
                over = True
                _unwind(state, len(moves))
                break
            for shaping, _text, move in _children(state):
                state.push(move)
                line = moves + [move]
                grown.append((state.scores[0] + shaping, " ".join(m.text() for m in line), line))
                state.pop()
            _unwind(state, len(moves))
            yield
        if over:
            break
        grown.sort(key=lambda x: (-x[0], x[1]))
        beam = [(key, line) for key, _, line in grown[:BEAM]]
    best_score, best_line = -1, []
    for _, moves in beam:
        _replay(state, moves)
        score = state.scores[0]
        _unwind(state, len(moves))
        if score > best_score:
            best_score, best_line = score, moves
    return best_score, [m.text() for m in best_line]


def generate(seed: int) -> Generator[None, None, dict[str, Any]]:
    """The day's dig and its answer; yields after every partial dig widened."""
    state = new_game(seed)
    score, line = yield from beam_game(seed)
    return {
        "position": state.position(),
        "layout": state.layout.text(),
        "deck": state.deck,
        "best": {"score": score, "placements": line},
        "budget": {"beam": BEAM, "width": WIDTH},
        "seed": seed,
    }
