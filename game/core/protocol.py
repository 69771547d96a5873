"""The engine protocol: what the site, records and tests rely on for every game.

Modelled on OpenSpiel's State (current player, legal actions, apply, terminal, returns)
and python-chess' Board (push/pop, notation in and out). A game's state class subclasses
``GameState`` with its own move type; moves are immutable values, text in and out.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Sequence, TypeVar

M = TypeVar("M")
S = TypeVar("S", bound="GameState[Any]")


@dataclass(frozen=True)
class Outcome:
    """The end of a game.

    ``scores`` are final totals per seat. ``winners`` lists the winning seats (several on a
    shared result, empty on a draw). ``reason`` is a stable code such as "no-move" or "closed";
    ``detail`` carries game-specific facts (the tie-break used, the settlement table …).
    """

    scores: tuple[int, ...]
    winners: tuple[int, ...]
    reason: str
    detail: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "scores": list(self.scores),
            "winners": list(self.winners),
            "reason": self.reason,
            "detail": self.detail,
        }


class GameState(ABC, Generic[M]):
    """A position plus the history needed to undo and to save the game."""

    #: Short identifier used in records, routes and the command line ("scarabeo", "thot", "scarabya").
    GAME: ClassVar[str]

    # --- who plays -------------------------------------------------------------------
    @property
    @abstractmethod
    def num_players(self) -> int: ...

    @abstractmethod
    def to_move(self) -> int:
        """The seat whose turn it is (0-based); meaningless once the game is over."""

    # --- moves -----------------------------------------------------------------------
    @abstractmethod
    def legal_moves(self) -> Sequence[M]:
        """Every legal move for the player to move (may be large for word games)."""

    @abstractmethod
    def check(self, move: M) -> None:
        """Raise ``IllegalMove`` with a precise reason if ``move`` is not legal now."""

    @abstractmethod
    def push(self, move: M) -> Any:
        """Check and apply ``move``; return the game's per-move result (e.g. a score breakdown)."""

    @abstractmethod
    def pop(self) -> M:
        """Take back the last move and return it."""

    # --- end -------------------------------------------------------------------------
    @abstractmethod
    def is_over(self) -> bool: ...

    @abstractmethod
    def outcome(self) -> Outcome | None: ...

    # --- what is shown ---------------------------------------------------------------
    @abstractmethod
    def view(self) -> dict[str, Any]:
        """The position as JSON-able data for a screen (scores, whose turn, the board …): what the
        page draws from, so that it never decides a rule itself."""

    # --- notation --------------------------------------------------------------------
    @abstractmethod
    def parse_move(self, text: str) -> M:
        """Parse a move in this game's notation; raise ``NotationError`` saying what and where."""

    @abstractmethod
    def move_text(self, move: M) -> str:
        """The canonical notation of ``move``; ``parse_move(move_text(m)) == m``."""

    @abstractmethod
    def position(self) -> str:
        """A one-line position that ``from_position`` reads back to an equal position."""

    @classmethod
    @abstractmethod
    def from_position(cls: type[S], text: str) -> S: ...

    # --- records ---------------------------------------------------------------------
    @abstractmethod
    def options(self) -> dict[str, Any]:
        """The setup options (players, variants …) needed to recreate the start with the seed."""

    @property
    @abstractmethod
    def seed(self) -> int: ...

    @abstractmethod
    def history(self) -> list[M]:
        """The moves played since the start, oldest first."""

    def push_text(self, text: str) -> Any:
        return self.push(self.parse_move(text))

    def last_mover(self) -> int | None:
        """The seat that was to move before the last move (None before the first): by default the
        last move is taken back and played again; an engine whose ``push`` does more than move (a
        clock) answers from what it kept instead."""
        if not self.history():
            return None
        move = self.pop()
        seat = self.to_move()
        self.push(move)
        return seat
