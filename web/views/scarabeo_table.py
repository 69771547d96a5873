"""What stays on the table between two visits to a Scarabeo game, and who may challenge a play.

Pure Python (no DOM), so the page's rules are tested in CPython (``tests/web/test_scarabeo_table.py``).

**The table** is saved with the game as record meta ``table`` (``web.session.LOCAL_META``: kept on this
device, never put in a shared link)::

    {"move": 12, "seat": 1,
     "clock": {"active": true, "carry_in": 25.0, "used": 40.2, "paused": false},  # Hourglass.saved()
     "tentative": {"rack": "ACEIO?RT", "placed": [["H8", "C"], ["H9", "a"]], "swaps": ["C3"]}}

Both parts belong to one position: they are used again only when the game still has ``move`` moves,
the same player to move and (for the tiles) the same rack; anything else, or anything damaged, is
dropped and the turn starts afresh. Tiles laid are lowercase for a scarab standing for that letter,
as in the engine's ``play_from_placements``.

**The challenge window**: in challenge mode, when a play is pending and the seat to move is a
computer, the computer decides at once only if it would challenge (its lexicon refuses a word) or if
no person other than the player who made the play sits at the table; otherwise the people get the
challenge panel and the computer waits for their decision (``!challenge N`` or ``!accept``).
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from game.core import IllegalMove
from game.scarabeo.board import parse_square, square_name
from game.scarabeo.game import ScarabeoState
from game.scarabeo.rules import apply_swaps
from game.scarabeo.tiles import LETTERS, SCARAB, sort_rack


# --- the table ------------------------------------------------------------------------------------
def table(state: ScarabeoState, clock: Mapping[str, Any] | None, placed: Mapping[int, str] | None = None,
          order: Sequence[int] = (), swaps: Sequence[int] = ()) -> dict[str, Any]:
    """The table to save now: the position it belongs to, the hourglass's turn (``clock``, from
    ``Hourglass.saved()``, or None) and the tiles laid but not played (``placed`` {square: tile},
    laid in ``order``, with the board scarabs taken in ``swaps``)."""
    out: dict[str, Any] = {"move": len(state.history())}
    if state.is_over():
        return out
    seat = state.to_move()
    out["seat"] = seat
    if clock is not None:
        out["clock"] = dict(clock)
    if placed or swaps:
        placed = placed or {}
        squares = [sq for sq in order if sq in placed] + sorted(sq for sq in placed if sq not in order)
        out["tentative"] = {"rack": sort_rack(state.racks[seat]),
                            "placed": [[square_name(sq), placed[sq]] for sq in squares],
                            "swaps": [square_name(sq) for sq in swaps]}
    return out


def _for_this_position(state: ScarabeoState, saved: Any) -> bool:
    return (isinstance(saved, Mapping) and not state.is_over() and saved.get("move") == len(state.history())
            and saved.get("seat") == state.to_move() and not isinstance(saved.get("move"), bool))


def saved_clock(state: ScarabeoState, saved: Any) -> Mapping[str, Any] | None:
    """The hourglass turn saved for this very position, for ``attach_clock`` (which checks it), or None."""
    if not _for_this_position(state, saved):
        return None
    clock = saved.get("clock")
    return clock if isinstance(clock, Mapping) else None


def saved_tentative(state: ScarabeoState, saved: Any) -> tuple[dict[int, str], list[int], list[int]] | None:
    """The tiles laid but not played for this position and rack: (placed {square: tile}, the order
    they were laid, swaps), or None when there are none or they no longer fit (another move, another
    rack, a square now taken, a tile not on the rack, damaged data)."""
    if not _for_this_position(state, saved):
        return None
    data = saved.get("tentative")
    p = state.pending
    if not isinstance(data, Mapping) or (p is not None and p.kind == "vote"):
        return None
    seat = state.to_move()
    raw_placed, raw_swaps = data.get("placed"), data.get("swaps", [])
    if data.get("rack") != sort_rack(state.racks[seat]) or not isinstance(raw_placed, list) \
            or not isinstance(raw_swaps, list):
        return None
    try:
        swaps = [parse_square(str(name)) for name in raw_swaps]
        board, rack = state.board[:], list(state.racks[seat])
        apply_swaps(board, rack, swaps)
        placed: dict[int, str] = {}
        order: list[int] = []
        for item in raw_placed:
            if not isinstance(item, list) or len(item) != 2 or not all(isinstance(x, str) for x in item):
                return None
            sq, ch = parse_square(item[0]), item[1]
            if len(ch) != 1 or ch.upper() not in LETTERS or board[sq] or sq in placed:
                return None
            tile = SCARAB if ch.islower() else ch
            if tile not in rack:
                return None
            rack.remove(tile)
            placed[sq] = ch
            order.append(sq)
    except (IllegalMove, ValueError):
        return None
    if not placed and not swaps:
        return None
    return placed, order, swaps


# --- the challenge window --------------------------------------------------------------------------
def challengers(state: ScarabeoState, seats: Sequence[Any]) -> list[int]:
    """The people who may challenge the pending play: every person but the player who made it."""
    p = state.pending
    if p is None or p.kind != "challenge" or state.is_over():
        return []
    return [s for s, seat in enumerate(seats) if not seat.computer and s != p.player]


def computer_waits(state: ScarabeoState, seats: Sequence[Any], computer_would_challenge: bool) -> bool:
    """The computer to move holds back while the people decide on the pending play: it would not
    challenge it itself, and a person other than the one who made the play sits at the table."""
    if state.is_over() or not seats[state.to_move()].computer or computer_would_challenge:
        return False
    return bool(challengers(state, seats))
