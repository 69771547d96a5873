"""Placement and scoring rules on site bitboards, shared by the state and the solver."""

from __future__ import annotations

from game.scarabya.grid import SITE
from game.scarabya.sets import CENTRE, TILES

#: Largest open area that scores (and can never change again: a pentomino cannot enter it).
MAX_AREA = 4

#: tile letter -> every in-bounds placement as (orientation, anchor, mask), distinct masks only
PLACEMENTS: dict[str, tuple[tuple[int, int, int], ...]] = {
    name: tuple((k, anchor, mask) for k in sorted(shape.placements) for anchor, mask in shape.placements[k])
    for name, shape in TILES.items()
}

_FULL = SITE.full
_NOT_FIRST = SITE.not_first_col
_NOT_LAST = SITE.not_last_col


def neighbours(mask: int) -> int:
    return ((mask << 1) & _NOT_FIRST) | ((mask >> 1) & _NOT_LAST) | ((mask << 10) & _FULL) | (mask >> 10)


def contact_zone(covered: int) -> int:
    """Squares a new tile must touch: the centre before any tile, else those next to a tile."""
    if not covered:
        return CENTRE
    return neighbours(covered) & ~covered


def legal_placements(tile: str, blocked: int, covered: int) -> list[tuple[int, int, int]]:
    """(orientation, anchor, mask) for every legal placement of ``tile``.

    ``blocked`` is rocks | covered. The first tile must touch the centre, later ones an earlier tile.
    """
    need = contact_zone(covered)
    return [p for p in PLACEMENTS[tile] if not (p[2] & blocked) and p[2] & need]


def can_place(tile: str, blocked: int, covered: int) -> bool:
    need = contact_zone(covered)
    for _, _, mask in PLACEMENTS[tile]:
        if not (mask & blocked) and mask & need:
            return True
    return False


def closed_areas(open_after: int, placed: int) -> list[int]:
    """The open areas of 1-4 squares that the tile ``placed`` has just closed, lowest square first.

    Only areas touching the new tile can have changed; an area already closed never touches it.
    """
    frontier = neighbours(placed) & open_after
    out: list[int] = []
    while frontier:
        comp = frontier & -frontier
        while True:
            grown = (comp | neighbours(comp)) & open_after
            if grown == comp:
                out.append(comp)
                break
            comp = grown
            if grown.bit_count() > MAX_AREA:
                break
        # a partial fill lies inside the same large area, so its squares need no fill of their own
        frontier &= ~comp
    out.sort(key=lambda m: m & -m)
    return out
