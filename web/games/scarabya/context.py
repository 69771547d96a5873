"""What every module of the Scarabya view shares: the page it draws on (typed as ``web.ui.context.PlayPage``;
the review's still page and the rules page's diagrams pass look-alikes), the constants, and the small
typed records one render hands from module to module.

``page.selection`` (a dict owned by ``web.pages.play``, emptied after every move) keeps the view's input
state across redraws; its keys are listed in ``SELECTION`` so that every module reads the same names.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, NamedTuple

from game.core import IllegalMove, NotationError
from web.platform import events

if TYPE_CHECKING:
    from web.ui.context import PlayPage as Page
else:
    Page = Any

#: Solo results kept in this browser (top ten), outside the saves' key space.
BEST_KEY = "scarab:scarabya:best"
BEST_KEEP = 10
#: The hint's look-ahead stops after its first full sweep past this budget (the whole hint stays
#: under 200 ms in the browser; the figure of each hint is shown and kept in ``data-ms``).
HINT_BUDGET_MS = 60.0
RUINS_HINT_LEVEL = 3

#: ``page.selection`` keys: the ghost's ``anchor`` (col, row) and orientation ``k``; the last pointer's
#: kind ``pointer``, a finger's ``grip`` on the ghost and whether it ``dragged``, the (square, anchor,
#: orientation) a finger's first tap ``tapped`` the ghost to (a second tap there places); Ruins' ``piece`` (and
#: ``_ghost_piece``, the piece the ghost was last drawn as);
#: classic's shown ``site`` (reset to the mover's when ``_site_n`` moves on); what the latest move
#: ``scored`` / ``ruins_scored`` and ``said`` (each stamped with the move count ``n`` it belongs to);
#: the ``hint``.
SELECTION = ("anchor", "k", "pointer", "grip", "dragged", "tapped", "piece", "_ghost_piece", "site", "_site_n", "scored",
             "ruins_scored", "said", "hint")

Cells = tuple[tuple[int, int], ...]


class Square(NamedTuple):
    """One square as drawn: its CSS classes, its visible text, and what its accessible name adds."""

    css: str
    text: str
    desc: str


@dataclass
class Placing:
    """What a person may place on a board in this render: the ``piece`` held as the ghost, the engine's
    legal placements (``legal``: (piece, mask) → move text), ``describe(move)`` → (badge, sentence) for a
    fitting ghost, (Ruins) the ``pieces`` the person may pick with N / Shift+N, and ``spots``: each legal
    move text's (orientation, anchor square), where the ghost may start."""

    piece: str
    legal: dict[tuple[str, int], str]
    describe: Callable[[str], tuple[str, str]]
    pieces: list[str] = field(default_factory=list)
    spots: dict[str, tuple[int, int]] = field(default_factory=dict)


@dataclass
class Card:
    """The picture of the piece held (classic: the mission card; Ruins: the picked piece's button),
    redrawn in the ghost's orientation when it turns."""

    box: Any
    piece: str
    css: str
    label: str


def why_not(page: Page, text: str) -> str:
    """The engine's reason a placement is refused, in the player's language when we know its code
    ("" when it is legal): every "does not fit" says why. The Ruins' own words first where they
    differ (``scarabya.why.ruins.<code>``: a piece on the shared board, not a tile on a site)."""
    from game.scarabya.ruins import RuinsState

    state = page.session.state
    try:
        state.check(state.parse_move(text))
    except IllegalMove as err:
        keys = [f"scarabya.why.ruins.{err.code}"] if isinstance(state, RuinsState) else []
        key = next((k for k in [*keys, f"scarabya.why.{err.code}"] if page.t.has(k)), None)
        return str(page.t(key, move=text)) if key is not None else str(err)
    except NotationError as err:
        return str(err)
    return ""


def is_you(page: Page, seat: int | None) -> bool:
    """The seat is the reader (the daily's "You"): its texts take the catalogue's ``.you`` form."""
    return seat is not None and events.you_seat(page.t, page.session.seats) == seat


def seat_name(page: Page, seat: int) -> str:
    """A seat's name as shown: a computer by its level ("Computer (expert)", ``web.platform.events``)."""
    return events.seat_names(page.t, "scarabya", page.session.seats)[seat]


__all__ = ["BEST_KEEP", "BEST_KEY", "Card", "Cells", "HINT_BUDGET_MS", "Page", "Placing",
           "RUINS_HINT_LEVEL", "SELECTION", "Square", "is_you", "seat_name", "why_not"]
