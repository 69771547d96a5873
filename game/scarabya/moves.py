"""Scarabya moves and their notation: ``L3@E5`` (tile, orientation 0-7, top-left of the shape's
bounding box) and ``-`` (discard the round's tile when it cannot be placed anywhere)."""

from __future__ import annotations

from dataclasses import dataclass

from game.core import NotationError
from game.scarabya.grid import SITE, Grid
from game.scarabya.sets import TILE_NAMES, TILES


@dataclass(frozen=True, order=True)
class Place:
    tile: str
    orientation: int
    anchor: int  # square index of the bounding box's top-left

    def text(self, grid: Grid = SITE) -> str:
        return f"{self.tile}{self.orientation}@{grid.name(self.anchor)}"


@dataclass(frozen=True, order=True)
class Discard:
    def text(self, grid: Grid = SITE) -> str:
        return "-"


Move = Place | Discard
DISCARD = Discard()


def parse_move(text: str) -> Move:
    raw = text.strip()
    if raw == "-":
        return DISCARD
    if not raw:
        raise NotationError("empty move; expected a placement like L3@E5 or - to discard", text)
    tile = raw[0].upper()
    # A dict lookup, not ``in TILE_NAMES``: "ﬁ".upper() is "FI", a substring of the names.
    if tile not in TILES:
        raise NotationError(f"{raw[0]!r} is not a tile (tiles are {TILE_NAMES})", text, 0)
    orientation, anchor = SITE.parse_placement(raw, text, 1, "tile letter", "L3@E5")
    return Place(tile, orientation, anchor)
