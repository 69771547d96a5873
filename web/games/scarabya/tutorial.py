"""Scarabya's guided first game: a solo dig on a fixed deal, three steps checked by the engine.

The deal (seed 86, layout ``1.3-3.3-4.1-2.1``, mission deck ``ZVUXNITPWLYF``) was picked by searching
seeds with the engine: the Z fits C4–E6 without covering a scarab, then exactly one V placement
(``V0@A4``) shuts the scarab at C5 in a 2-square area, and then the U can shut the scarab at A3 in an
area of 3 squares (``U1@B1``, which also closes C2) or 4 squares (``U3@B1``). Every check reads the
engine's result of the move (its squares, the areas it closed), never the screen.
"""

from __future__ import annotations

from typing import Any

from web.platform.session import Seat
from web.platform.tutorial import Step, Tutorial

SEED = 86
OPTIONS = {"variant": "classic", "players": 1, "layout": "1.3-3.3-4.1-2.1", "deck": "ZVUXNITPWLYF"}

#: Step 1 asks for the Z on exactly these squares (any orientation giving them is the same placement).
FIRST_SQUARES = frozenset({"C4", "D4", "D5", "D6", "E6"})
#: Step 2: an area around this scarab; step 3: an area of 3 or more squares around this one.
SMALL_AREA_SCARAB = "C5"
BIG_AREA_SCARAB = "A3"


def placed_squares(state: Any) -> frozenset[str]:
    """The squares of the tile just placed, from the engine's view of the person's site."""
    tiles = state.view()["sites"][0]["tiles"]
    return frozenset(tiles[-1]["squares"]) if tiles else frozenset()


def first_tile(state: Any, _move: str, result: Any) -> bool:
    return isinstance(result, dict) and not result.get("discarded") and placed_squares(state) == FIRST_SQUARES


def closes_around(scarab: str, min_size: int) -> Any:
    def check(_state: Any, _move: str, result: Any) -> bool:
        if not isinstance(result, dict):
            return False
        return any(scarab in a["symbols"] and a["size"] >= min_size and a["points"] > 0 for a in result["areas"])

    return check


def suggest(moves: tuple[str, ...]) -> Any:
    return lambda _state: list(moves)


TUTORIAL = Tutorial(
    game="scarabya",
    options=OPTIONS,
    seed=SEED,
    seats=(Seat(name="Carter", computer=False, level=2),),
    steps=(
        Step("first", first_tile, suggest(("Z0@C4",))),
        Step("close", closes_around(SMALL_AREA_SCARAB, 1), suggest(("V0@A4",))),
        Step("three", closes_around(BIG_AREA_SCARAB, 3), suggest(("U1@B1", "U3@B1"))),
    ),
)
