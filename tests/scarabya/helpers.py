"""Building Scarabya positions for rule tests."""

from __future__ import annotations

from game.core import Rng
from game.scarabya import ScarabyaState
from game.scarabya.grid import SITE

#: Layout whose site is, row by row (rules.md boards unturned):
#:   ..S...S... / .R..S...R. / S..S..SS.S / ..SR.R..S. / .S.....S..
#:   ...S...S.. / SR....S..R / ..S.SS.SS. / .S.R..R... / ...S....S.
PLAIN = "1.0-2.0-3.0-4.0"
DECK = "IXLNPTUVWFYZ"


def mask(*names: str) -> int:
    out = 0
    for n in names:
        out |= 1 << SITE.parse_square(n)
    return out


def row_squares(row: int, first_col: int, count: int) -> list[str]:
    return [f"{chr(ord('A') + c)}{row}" for c in range(first_col, first_col + count)]


def with_open(open_names: list[str], deck: str = DECK, players: int = 1) -> ScarabyaState:
    """A game in round 1 whose every site has tiles everywhere except ``open_names`` and the rocks.

    Tests use it to set up a closing move directly; such a site is not reachable by play, so it is
    only used for the rules of a single placement.
    """
    state = ScarabyaState.new(players, PLAIN, deck)
    keep = mask(*open_names)
    for seat in range(players):
        state.covered[seat] = SITE.full & ~(state.rocks | keep)
    return state


def random_game(seed: int, players: int = 1, upto: int | None = None) -> ScarabyaState:
    """A game played by uniformly random legal moves (seeded)."""
    state = ScarabyaState.new(players, seed=seed)
    rng = Rng(seed + 1)
    while not state.is_over() and (upto is None or len(state.history()) < upto):
        state.push(rng.choice(state.legal_moves()))
    return state
