"""What each seat may know of a Game of Thot, and its public record (``game.core.view``).

Nothing in Thot is hidden: the pieces are poured face up and every collection lies open, so a
seat's view, a spectator's and the full state's are the same ``ThotState.view()`` (which carries
no seed). The seed only predicts the starting board, which everyone sees; the public record still
gives that board instead of the seed, so one rule holds for every game: no seed leaves a device.

Public record::

    {"format": "scarab-public-record", "version": 1, "game": "thot",
     "options": {"players": 2, "short": false, "turnoff": false, "teams": false},
     "start": "<the starting position>", "moves": ["C7", "C3>F3", "C7@E5:-8", ...]}

``rebuild`` checks that ``start`` is a game's start (every piece on the board, nothing
collected, seat 0 to move, any first direction) matching ``options``, then plays every move.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from game.core import IllegalMove, NotationError, RecordError
from game.core.view import PUBLIC_FORMAT, PUBLIC_VERSION, check_envelope, check_fields
from game.thot.board import ANY, EMPTY
from game.thot.state import ThotState

#: A Thot game ends once the 96 scarabs are taken; each move takes at most one.
MAX_MOVES = 200
MAX_MOVE_CHARS = 20


@dataclass
class PublicRecord:
    options: dict[str, Any]
    start: str
    moves: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"format": PUBLIC_FORMAT, "version": PUBLIC_VERSION, "game": ThotState.GAME,
                "options": self.options, "start": self.start, "moves": list(self.moves)}

    @classmethod
    def from_json(cls, data: Any) -> "PublicRecord":
        check_envelope(data, ThotState.GAME)
        check_fields(data, {"options", "start", "moves"})
        options, start, moves = data.get("options"), data.get("start"), data.get("moves")
        if not isinstance(options, dict):
            raise RecordError("options must be an object")
        if not isinstance(start, str) or len(start) > 2000:
            raise RecordError("start must be a position of at most 2000 characters")
        if (not isinstance(moves, list) or len(moves) > MAX_MOVES
                or not all(isinstance(m, str) and len(m) <= MAX_MOVE_CHARS for m in moves)):
            raise RecordError(f"moves must be a list of at most {MAX_MOVES} moves in notation")
        return cls(dict(options), start, list(moves))


def start_position(state: ThotState) -> str:
    """The position the game started from (the engine's own take-back, on a copy)."""
    first = state.copy()
    while first.history():
        first.pop()
    return first.position()


def public_record(state: ThotState) -> PublicRecord:
    return PublicRecord(state.options(), start_position(state),
                        [state.move_text(m) for m in state.history()])


def rebuild(record: PublicRecord) -> ThotState:
    """The game from its public record, every move checked; ``RecordError`` with the reason."""
    try:
        state = ThotState.from_position(record.start)
    except NotationError as err:
        raise RecordError(f"start: {err}") from None
    if (any(state.collection(s) for s in range(state.players)) or state.mover != 0
            or state.axis != ANY or sum(1 for c in state.board if c != EMPTY) != state.size ** 2 - 1):
        raise RecordError("start is not a game's start (every piece on the board, nothing "
                          "collected, seat 1 to move)")
    if state.options() != record.options:
        raise RecordError(f"start does not match the options {record.options}")
    for turn, text in enumerate(record.moves, start=1):
        try:
            state.push(state.parse_move(text))
        except (IllegalMove, NotationError) as err:
            raise RecordError(f"{text!r}: {err}", turn) from None
    return state


def seat_view(state: ThotState, seat: int | None) -> dict[str, Any]:
    """Every seat (and a spectator) sees the whole game."""
    if seat is not None and not 0 <= seat < state.players:
        raise ValueError(f"there is no seat {seat!r}")
    view = state.view()
    view["seat"] = seat
    return view


__all__ = ["PublicRecord", "public_record", "rebuild", "seat_view", "start_position"]
