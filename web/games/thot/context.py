"""The page context every module of the Thot view shares, typed.

The view draws on a ``web.ui.context.PlayPage`` (or a still page that answers the same attributes: the
rules page's diagrams, the review's board). What the view itself remembers between redraws — the
board's roving focus, how many moves the priest's slide has shown, the computer's last search — is
one ``ThotLocal`` kept on the page, never loose attributes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from game.thot.state import ThotState

if TYPE_CHECKING:
    from web.ui.context import PlayPage


@dataclass
class ThotLocal:
    """The view's own memory on one page."""

    #: the square with the board's roving focus (None: the priest's)
    cursor: int | None = None
    #: the number of moves the board showed last time (None: not drawn yet, so no slide on opening)
    slid: int | None = None
    #: the computer's last search in this page: name, depth, nodes, ms
    search: dict[str, Any] | None = None
    #: the board's view tree on the page (``web.ui.mount.Mount``), drawn again when the focus moves
    board: Any = None


def local(page: PlayPage) -> ThotLocal:
    """The view's memory on ``page``, made on first use. ``vars``, not ``getattr``: the rules page's
    still page answers any attribute."""
    mine = vars(page).get("thot_local")
    if not isinstance(mine, ThotLocal):
        mine = ThotLocal()
        vars(page)["thot_local"] = mine  # kept where it is read: the page's own attributes
    return mine


def state_of(page: PlayPage) -> ThotState:
    """The engine state the page shows."""
    state = page.session.state
    assert isinstance(state, ThotState), state
    return state


def cell_text(value: Any) -> str:
    """A scarab's value as printed on the piece: always signed, with a true minus sign."""
    return f"+{value}" if value > 0 else f"\u2212{-value}"
