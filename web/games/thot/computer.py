"""The computer's turn and the hint, run in slices so the page never freezes, and what the live
region says after a move.

``computer`` is a generator over ``Search.step(4 ms)``; ``web/pages/play.py`` runs it in 15 ms slices. The
search's time cap is the engine's browser budget (1 s) minus 0.1 s kept for the page's own work
between slices. Its depth line is saved with the reply (meta ``search``) so it survives a reload.
"""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING, Any, Generator

from pyscript import document

from game.thot.search import BROWSER_TIME_BUDGET, Search, hint_of, hint_search
from web.games.thot.context import local, state_of
from web.platform import events
from web.platform.i18n import signed
from web.ui import pace
from web.games.thot.input import person_to_move

if TYPE_CHECKING:
    from web.ui.context import PlayPage

#: Milliseconds of search between two yields to the page.
STEP_MS = 4.0
#: Seconds kept from the computer's time budget for the page's own work between slices.
PAGE_MARGIN = 0.1


def waits(page: PlayPage) -> bool:
    """Hold a computer's move back while another computer's, just drawn, is seen (``web.ui.pace``)."""
    assert page.session is not None
    return pace.waits(page, state_of(page), [seat.computer for seat in page.session.seats])


def computer(page: PlayPage, level: int) -> Generator[None, None, str]:
    state = state_of(page)
    assert page.session is not None
    # The engine's cap is for the search alone; the page's slicing takes a little of the second too.
    search = Search(state, level, time_budget=BROWSER_TIME_BUDGET - PAGE_MARGIN)
    started = time.perf_counter()
    while not search.step(STEP_MS):
        yield
    result = search.result()
    ms = round((time.perf_counter() - started) * 1000)
    seat = page.session.seats[state.to_move()]
    local(page).search = {"name": seat.name, "depth": result.depth, "nodes": result.nodes, "ms": ms}
    # saved with the reply (the autosave of the move that follows), for the depth line after a reload
    page.session.meta["search"] = {"seat": state.to_move(), "move": len(state.history()) + 1,
                                   "depth": result.depth, "nodes": result.nodes, "ms": ms}
    assert result.move is not None  # play.py asks only when the computer has a move
    return str(state.move_text(result.move))


def saved_search(page: PlayPage) -> dict[str, Any] | None:
    """The computer's last search as saved with the game (meta ``search``), so its depth line
    survives a reload; only while that move is still the last one. Outside data: checked."""
    session = page.session
    assert session is not None
    saved = getattr(session, "meta", {}).get("search")  # the rules page's still session has none
    state = state_of(page)
    if not isinstance(saved, dict) or saved.get("move") != len(state.history()):
        return None
    numbers = [saved.get(k) for k in ("seat", "depth", "nodes", "ms")]
    checked = [x for x in numbers if isinstance(x, int) and not isinstance(x, bool) and 0 <= x < 10**12]
    if len(checked) != len(numbers):
        return None
    seat, depth, nodes, ms = checked
    if seat >= len(session.seats):
        return None
    return {"name": session.seats[seat].name, "depth": depth, "nodes": nodes, "ms": ms}


async def hint(page: PlayPage) -> None:
    """The top level's move for the person to move, its squares marked on the board."""
    if not person_to_move(page) or page.selection.get("hinting") or not page.hint_taken():
        return  # (a game between devices counts the hint, or refuses it in words)
    state = state_of(page)
    moves_before = len(state.history())
    page.selection["hinting"] = True
    page.show_message(page.t("thot.hint.thinking"))
    button = document.getElementById("thot-hint")
    if button:
        button.disabled = True
    search = hint_search(state, time_budget=BROWSER_TIME_BUDGET - PAGE_MARGIN)
    while not search.step(STEP_MS * 3):
        await asyncio.sleep(0)
        if page.closed or len(state.history()) != moves_before:
            return
    page.selection.pop("hinting", None)
    found = hint_of(state, search.result())
    if found["move"] is None:
        return
    text = str(found["move"])
    what = page.t("thot.ankh") if found["take"] == "ankh" else signed(found["take"])
    gain = signed(found["gain"])
    page.selection["hint_move"] = text
    message = page.t("thot.hint.result", move=text, take=what, gain=gain, depth=found["depth"])
    page.message = (message, False)
    page.redraw()
    page.say(message)


def announce(page: PlayPage, move_text: str, result: Any) -> str:
    """What the live region says after a move, in words (``web.platform.events``): where the
    priest went, what it took, the scarab put back, the end."""
    assert page.session is not None
    if not isinstance(result, dict):
        return move_text
    return events.session_event(page.t, "thot", page.session, result).text
