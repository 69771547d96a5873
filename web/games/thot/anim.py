"""The other side's move, always: the square the priest left, the priest's slide from it, and the
moves the computers made in a row since the person's last, each marked.

Everything here is derived from the engine's history, never from page memory, so the square left
is the same after a reload or a take-back of a later move. The slide itself is CSS (``thot.css``:
260 ms, none under ``prefers-reduced-motion``); this module only says from where.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from web.games.thot.context import local
from web.ui import pace

if TYPE_CHECKING:
    from game.thot.state import ThotState
    from web.ui.context import PlayPage

def last_path(state: ThotState) -> tuple[int, int | None, int] | None:
    """The last move's (square the priest left, turn square or None, destination), from the
    engine's history — so it is the same after a reload or a take-back of a later move."""
    history = state.history()
    if not history:
        return None
    before = state.copy()
    before.pop()
    return before.priest, history[-1].turn, history[-1].dest


def last_squares(state: ThotState) -> set[int]:
    history = state.history()
    return {history[-1].dest} if history else set()


def computer_run(state: ThotState, computers: list[bool]) -> list[int]:
    """Where each move the computers made in a row up to now ended, oldest first, when a person sits
    at the table (``web.ui.pace.run``): in a game of three or four, each of them stays marked
    (numbered) until the person's turn, not only the last. Else (a person's move last, or computers
    alone) the last move's square."""
    history = state.history()
    if not history:
        return []
    n = pace.run(state, computers)
    return [move.dest for move in history[-n:]] if n else [history[-1].dest]


def slide(page: PlayPage, state: ThotState, path: tuple[int, int | None, int] | None) -> str | None:
    """The priest slides from the square it left (via its turn) once per new move, not when the
    page first opens nor at every redraw: a ``style`` with the offsets in squares, or None."""
    moves = len(state.history())
    mine = local(page)
    seen = mine.slid
    mine.slid = moves
    if path is None or seen is None or seen == moves:
        return None
    size = state.size
    (fr, fc), (dr, dc) = divmod(path[0], size), divmod(path[2], size)
    vr, vc = divmod(path[1], size) if path[1] is not None else ((fr + dr) / 2, (fc + dc) / 2)
    return f"--fx: {fc - dc}; --fy: {fr - dr}; --vx: {vc - dc}; --vy: {vr - dr}"
