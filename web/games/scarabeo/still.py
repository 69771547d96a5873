"""Scarabeo's still board, for the review and today's challenge (registered by the shell as the
game's ``still_grid``): the grid drawn by the view's square renderer with a board-only ``BoardCtx``,
ghost tiles on it, the whole board at rest at every size as the game page draws it (issue 26)."""

from __future__ import annotations

from typing import Any

from web.games.scarabeo.context import BoardCtx
from web.platform.session import Seat
from web.ui.dom import h
from web.ui.still import StillPage, strip


def placements_of(pairs: Any) -> dict[int, str]:
    """Scarabeo's ``[[square name, tile], …]`` (an analysis's, a puzzle play's) as ghost tiles."""
    from game.scarabeo.board import parse_square

    ghost: dict[int, str] = {}
    for pair in pairs:
        try:
            square, tile = pair
            ghost[parse_square(str(square))] = str(tile)
        except (TypeError, ValueError):
            continue
    return ghost


def still_grid(app: Any, ui: Any, state: Any, seats: list[Seat], ghost: dict[int, str]) -> Any:
    """Scarabeo's grid for ``state``, still, drawn by the view's square renderer with a board-only
    ``BoardCtx``; ``ghost`` tiles (square → tile) on it, else the last play outlined. The whole
    board in a square frame at every size, as the game page shows it at rest (``.sc-live``): a
    phone's review sees the whole 17×17, never a zoomed window of it."""
    last: set[int] = set()
    results = state.results()
    if not ghost and results and results[-1].breakdown is not None and state.board[results[-1].breakdown.words[0].start]:
        for w in results[-1].breakdown.words:
            last.update(x.square for x in w.letters if x.new)
    ctx = BoardCtx(board=state.board, ghost=ghost, last=last, formed=set())
    still = StillPage(app, state, seats)
    grid = ui.board_grid(still, ctx)
    still.view_scope.close()
    strip(grid)
    return h("div", {"class": "sc-board-wrap sc-live"}, grid)


def center_zoomed(figure: Any) -> None:
    """A zoomed Scarabeo frame inside ``figure`` (in the document) brought to its ghost tiles, else
    to the last play's: a zoomed frame opens at the corner, which may show neither. (The still board
    is whole at rest now, so there is nothing to bring unless a frame is zoomed.)"""
    wrap = figure.querySelector(".sc-board-wrap.zoomed") if figure else None
    if not wrap:
        return
    cells = list(wrap.querySelectorAll(".sc-sq.ghost")) or list(wrap.querySelectorAll(".sc-sq.last"))
    if not cells:
        return
    frame = wrap.getBoundingClientRect()
    boxes = [c.getBoundingClientRect() for c in cells]
    left, right = min(float(b.left) for b in boxes), max(float(b.right) for b in boxes)
    top, bottom = min(float(b.top) for b in boxes), max(float(b.bottom) for b in boxes)
    wrap.scrollLeft = max(0, float(wrap.scrollLeft) + (left + right) / 2 - float(frame.left) - float(wrap.clientWidth) / 2)
    wrap.scrollTop = max(0, float(wrap.scrollTop) + (top + bottom) / 2 - float(frame.top) - float(wrap.clientHeight) / 2)
