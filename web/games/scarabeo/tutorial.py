"""Scarabeo's guided first game: the person (Anna) against the beginner computer (Bruno) on a fixed
seed where Anna starts with C F G I O P T U (GUFO, FUGO … through the centre star).

Three steps, each checked on the engine's own turn result (``TurnResult.breakdown``), never on the
screen: the first word through the centre, a word over a premium square, and one play that forms two
words at once. The seed was searched with the move generator so that every step can be done from
whatever position the earlier steps lead to (see docs/scarabeo-learn.md). Lengthening a word
(CONTARE → SCONTARE) was tried as a step and left out: after some premium plays no lengthening exists.
"""

from __future__ import annotations

from typing import Any

from game.scarabeo.board import PREMIUMS
from game.scarabeo.moves import Play
from web.platform.session import Seat
from web.platform.tutorial import Step, Tutorial

SEED = 12
NAMES = ("Anna", "Bruno")


def _breakdown(result: Any) -> Any:
    """The breakdown of a play that went down (None for a pass, an exchange or a dispute)."""
    if result is None or not isinstance(result.move, Play) or result.pending:
        return None
    return result.breakdown


def first_word(_state: Any, _move: str, result: Any) -> bool:
    """The opening play (it covers I9 by the rules): its word score is doubled."""
    bd = _breakdown(result)
    return bd is not None and bd.first_play_doubled


def over_premium(_state: Any, _move: str, result: Any) -> bool:
    """A new tile on a 2L, 3L, 2P or 3P square."""
    bd = _breakdown(result)
    return bd is not None and any(x.new and PREMIUMS[x.square] not in ("", "*") for w in bd.words for x in w.letters)


def two_words(_state: Any, _move: str, result: Any) -> bool:
    """The play forms at least two words (the main word and a cross word, or a parallel play)."""
    bd = _breakdown(result)
    return bd is not None and len(bd.words) >= 2


TUTORIAL = Tutorial(
    game="scarabeo",
    options={"players": 2, "names": list(NAMES), "check_mode": "dictionary", "hourglass": False},
    seed=SEED,
    seats=(Seat(NAMES[0]), Seat(NAMES[1], computer=True, level=1)),
    steps=(
        Step("first", first_word),
        Step("premium", over_premium),
        Step("cross", two_words),
    ),
)
