"""Computers' moves in a row, shown one after another (issue 26), for every game's view.

With three or four at the table and a person among them, the computers' replies would land within a
second and only the last be seen. A view's ``computer_waits(page)`` asks ``waits``: a computer's move
is held back while another computer's move, just drawn, has not been on the board for ``PACE`` yet,
and the computer's turn is asked for again when it has. The view's ``render`` calls ``drawn`` so
the time counts from the move's first drawing. ``run`` tells which of the latest moves the
computers made in a row since the person's last, for the view to mark each (numbered in the order
played) until the person's turn. Everything but the drawing time is derived from the engine's
history, so the marks are the same after a reload.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from typing import Any, Sequence

#: Seconds a computer's move stays on the board, marked and said, before another computer's move
#: follows it: each is seen in turn.
PACE = 0.8


@dataclass
class Pace:
    """The page's memory of the pacing."""

    #: (moves, perf_counter time) of the board's first drawing after the latest move
    shown: tuple[int, float] | None = None
    #: the move count for which a computer's held-back turn is already asked for again
    paced: int | None = None


def pace_of(page: Any) -> Pace:
    """The pacing memory of ``page``, made on first use (kept in the page's own attributes: a still
    page that answers any attribute never hands out a stranger's)."""
    mine = vars(page).get("ui_pace")
    if not isinstance(mine, Pace):
        mine = Pace()
        vars(page)["ui_pace"] = mine
    return mine


def drawn(page: Any, moves: int) -> None:
    """The board was drawn with ``moves`` moves played: the first drawing of a move starts its time."""
    mine = pace_of(page)
    if mine.shown is None or mine.shown[0] != moves:
        mine.shown = (moves, time.perf_counter())


def run(state: Any, computers: Sequence[bool]) -> int:
    """How many of the latest moves the computers made in a row since a person's, when a person
    sits at the table (0 when the latest move is a person's, or when computers play alone)."""
    if all(computers):
        return 0
    replay = state.copy()
    n = 0
    while replay.history():
        replay.pop()
        if not computers[replay.to_move()]:
            break
        n += 1
    return n


def waits(page: Any, state: Any, computers: Sequence[bool], in_a_row: int | None = None) -> bool:
    """Hold a computer's move back while another computer's move, just drawn, has not been on the
    board for ``PACE`` yet; ``page.maybe_computer()`` is called again when it has. ``in_a_row``: the
    view's own count of the computers' latest moves in a row (else ``run``: a Scarabeo state has no
    ``copy``, and a dispute's decision is part of the play it decides)."""
    mine = pace_of(page)
    moves = len(state.history())
    if mine.shown is None or mine.shown[0] != moves:
        return False
    if (run(state, computers) if in_a_row is None else in_a_row) == 0:
        return False
    left = PACE - (time.perf_counter() - mine.shown[1])
    if left <= 0:
        return False
    if mine.paced != moves:  # one wake-up per move, however often the page asks
        mine.paced = moves

        async def later() -> None:
            await asyncio.sleep(left)
            if not page.closed and len(page.session.state.history()) == moves:
                page.maybe_computer()

        asyncio.ensure_future(later())
    return True
