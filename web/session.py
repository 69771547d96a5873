"""A game being played in the page: the engine state, who sits where, and its save.

Pure Python (no DOM), so pass-and-play rules of the interface — who is a person, when a take-back is
allowed, what is autosaved — are tested in CPython. Views call ``play``/``take_back`` and redraw.
"""

from __future__ import annotations

import secrets
from dataclasses import asdict, dataclass
from typing import Any, Callable, Mapping

from game.core import GameRecord, GameState, RecordError
from web import engines
from web.storage import Save, SaveStore

MAX_NAME = 24
#: Record meta that belongs to this device's table, not to the game: saved with it, never put in a
#: shared link (Scarabeo's ``table``: the hourglass's running turn and the tiles laid but not played).
LOCAL_META = ("table",)


@dataclass(frozen=True)
class Seat:
    name: str
    computer: bool = False
    level: int = 2

    @classmethod
    def from_json(cls, data: Any) -> "Seat":
        if not isinstance(data, Mapping):
            raise ValueError("a seat must be an object")
        name = " ".join(str(data.get("name", "")).split())[:MAX_NAME]
        level = data.get("level", 2)
        if not isinstance(level, int) or isinstance(level, bool):
            raise ValueError("a seat's level must be an integer")
        return cls(name or "?", bool(data.get("computer", False)), level)


def seats_from_meta(meta: Mapping[str, Any], players: int) -> list[Seat]:
    """The seats a record's meta names (numbered people when it names none); ``RecordError`` if malformed."""
    raw = meta.get("seats")
    if raw is None or raw == []:
        return [Seat(f"{i + 1}") for i in range(players)]
    if not isinstance(raw, list):
        raise RecordError("the seats are not a list")
    try:
        seats = [Seat.from_json(s) for s in raw]
    except ValueError as err:
        raise RecordError(f"a seat is malformed: {err}") from None
    if len(seats) != players:
        raise RecordError(f"{len(seats)} seats for {players} players")
    return seats


class Session:
    def __init__(self, state: GameState[Any], seats: list[Seat], save: Save, store: SaveStore,
                 meta: dict[str, Any] | None = None) -> None:
        self.state = state
        self.seats = seats
        self.save = save
        self.store = store
        #: Record metadata kept across saves and links: ``game_id`` (the same game on every device),
        #: ``replay`` (opened from a link to watch, not to play).
        self.meta = dict(meta or {})
        #: Set by a view to bring its device-local meta (``LOCAL_META``) up to date before each write.
        self.before_save: Callable[[], None] | None = None

    # --- starting and resuming ----------------------------------------------------
    @classmethod
    def create(cls, store: SaveStore, game: str, options: Mapping[str, Any], seed: int, seats: list[Seat],
               title: str) -> "Session":
        state = engines.factory(game)(options, seed)
        if len(seats) != state.num_players:
            raise ValueError(f"{len(seats)} seats for {state.num_players} players")
        meta = {"game_id": secrets.token_hex(8)}
        record = GameRecord.of(state, seats=[asdict(s) for s in seats], **meta)
        save = store.create(game, title, record.to_json())
        return cls(state, seats, save, store, meta)

    @classmethod
    def open(cls, store: SaveStore, save_id: str) -> "Session":
        save = store.load(save_id)
        record = GameRecord.from_json(save.state)
        if record.game != save.game:
            raise RecordError(f"the record is for {record.game!r}, the save says {save.game!r}")
        state = engines.replay_record(record)
        seats = seats_from_meta(record.meta, state.num_players)
        meta = {k: v for k, v in record.meta.items() if k != "seats"}
        meta.setdefault("game_id", save.id)
        return cls(state, seats, save, store, meta)

    # --- who plays ----------------------------------------------------------------
    @property
    def game(self) -> str:
        return self.save.game

    def seat_to_move(self) -> Seat | None:
        if self.state.is_over():
            return None
        return self.seats[self.state.to_move()]

    def computer_to_move(self) -> bool:
        seat = self.seat_to_move()
        return seat is not None and seat.computer

    def humans(self) -> int:
        return sum(1 for s in self.seats if not s.computer)

    # --- moves --------------------------------------------------------------------
    @property
    def game_id(self) -> str:
        return str(self.meta["game_id"])

    @property
    def replay_only(self) -> bool:
        return bool(self.meta.get("replay"))

    def play(self, move_text: str) -> Any:
        """Apply a move in notation (raises NotationError / IllegalMove untouched), then autosave."""
        if self.replay_only:
            raise ValueError("this game was shared to be watched, not played")
        move = self.state.parse_move(move_text)
        result = self.state.push(move)
        self.autosave()
        return result

    def play_move(self, move: Any) -> Any:
        result = self.state.push(move)
        self.autosave()
        return result

    def can_take_back(self) -> bool:
        """Pass-and-play courtesy: a person may take back their last move while the next player,
        also a person, has not moved yet. Never against a computer's reply, never after the game ends."""
        history = self.state.history()
        if not history or self.state.is_over() or self.computer_to_move():
            return False
        seat = self.state.last_mover()
        return seat is not None and not self.seats[seat].computer

    def take_back(self) -> Any:
        if not self.can_take_back():
            raise ValueError("nothing to take back")
        move = self.state.pop()
        self.autosave()
        return move

    # --- saving -------------------------------------------------------------------
    def record(self, shared: bool = False) -> GameRecord:
        """The game record with its meta; ``shared`` leaves out what stays on this device."""
        meta = {k: v for k, v in self.meta.items() if not (shared and k in LOCAL_META)}
        return GameRecord.of(self.state, **meta, seats=[asdict(s) for s in self.seats])

    def autosave(self) -> Save:
        """Write the game as the next revision; raises StorageFull / SaveConflict (the view tells the player)."""
        if self.before_save is not None:
            self.before_save()
        self.save = self.store.update(self.save, self.record().to_json())
        return self.save
