"""The other side's move, always: the square the priest left, the priest's slide from it, and a
zoomed board frame brought to where the play is.

Everything here is derived from the engine's history, never from page memory, so the square left
is the same after a reload or a take-back of a later move. The slide itself is CSS (``thot.css``:
260 ms, none under ``prefers-reduced-motion``); this module only says from where.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pyscript import document, window

from web.games.thot.context import local

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


# --- the zoomed frame follows the play -------------------------------------------------------------
#: The square the frame centres on when it cannot show all: a drop square with the keyboard's focus
#: (after a scarab is chosen the focus goes to the first one), the square chosen in a half-made move
#: (a turn, the ankh being taken), else the priest.
KEEP = ("#thot-board .mark-drop:focus", "#thot-board [aria-selected='true']", "#thot-board .priest")
#: The squares the frame shows all of when they fit: the marked ones.
MARKED = "#thot-board .mark-legal, #thot-board .mark-turn, #thot-board .mark-stop, #thot-board .mark-drop"


def follow_later(page: PlayPage) -> None:
    """After the page has drawn the board: bring the priest and its targets into the frame."""
    from pyscript.ffi import create_proxy

    def run(*_a: object) -> None:
        proxy.destroy()
        if not page.closed:
            follow()

    proxy = create_proxy(run)
    window.requestAnimationFrame(proxy)


def _span(spans: list[tuple[float, float]], room: float, now: float, most: float) -> float:
    """A scroll offset along one axis for squares given as (start, end), the first the one to keep:
    all of them in view when they fit in ``room``; else the first in view with as many of the others
    as fit beside it (ties: as near to centring the first as can be). ``now`` is kept while it shows
    as much, so the frame does not move for nothing."""
    lo, hi = min(a for a, _ in spans), max(b for _, b in spans)
    keep_lo, keep_hi = spans[0]

    def shown(at: float) -> int:
        return sum(1 for a, b in spans if at - 0.5 <= a and b <= at + room + 0.5)

    if hi - lo <= room:
        if now <= lo and hi <= now + room:
            return now
        return max(0.0, min((lo + hi - room) / 2, most))
    low, high = max(0.0, keep_hi - room), min(most, keep_lo)  # offsets that keep the first in view
    if high < low:
        low = high = max(0.0, min((keep_lo + keep_hi - room) / 2, most))
    centre = max(low, min((keep_lo + keep_hi - room) / 2, high))
    options = {centre, *(max(low, min(x, high)) for a, b in spans for x in (a, b - room))}
    best = max(shown(x) for x in options)
    if low <= now <= high and shown(now) >= best:
        return now
    return min((x for x in options if shown(x) == best), key=lambda x: abs(x - centre))


def follow() -> None:
    """Scroll the board's frame (``#thot-frame``, scrolling only where the squares would be under
    40 px: phones) so the priest and the squares marked for the move are in view: the whole span of
    them when it fits, else the priest (or the square chosen in a half-made move: the turn, the ankh
    being taken) with as many of them as fit beside it. A frame that does not scroll is left alone."""
    frame = document.getElementById("thot-frame")
    if not frame:
        return
    room_x, room_y = float(frame.clientWidth), float(frame.clientHeight)
    most_x = float(frame.scrollWidth) - room_x
    most_y = float(frame.scrollHeight) - room_y
    if most_x <= 1 and most_y <= 1:
        return
    keep = next((node for node in (document.querySelector(sel) for sel in KEEP) if node), None)
    if keep is None:
        return
    cells = [keep, *document.querySelectorAll(MARKED)]
    # sticky coordinates cover the first row and column of the frame: keep squares clear of them
    head = document.querySelector("#thot-board .thot-head")
    rownum = document.querySelector("#thot-board .thot-rownum")
    pad_y = float(head.offsetHeight) if head else 0.0
    pad_x = float(rownum.offsetWidth) if rownum else 0.0
    base = frame.getBoundingClientRect()
    boxes = []
    for cell in cells:
        b = cell.getBoundingClientRect()
        boxes.append((b.left - base.left + frame.scrollLeft - pad_x, b.right - base.left + frame.scrollLeft,
                      b.top - base.top + frame.scrollTop - pad_y, b.bottom - base.top + frame.scrollTop))
    frame.scrollLeft = _span([(b[0], b[1]) for b in boxes], room_x, float(frame.scrollLeft), most_x)
    frame.scrollTop = _span([(b[2], b[3]) for b in boxes], room_y, float(frame.scrollTop), most_y)
