"""The optional hourglass (rules.md §1): 120 s a turn, the unused part of the running minute
carried over to the next player, paused while scoring or during a dispute.

Pure logic: time comes from an injected ``clock`` (seconds, monotonic), so tests drive it by hand
and the browser passes its own clock. The game state does not read time; the UI runs the
hourglass beside it and pushes a pass (``-``) when ``expired()``.
"""

from __future__ import annotations

from typing import Any, Callable

TURN_SECONDS = 120.0
MINUTE_SECONDS = 60.0


class Hourglass:
    def __init__(
        self,
        clock: Callable[[], float],
        turn_seconds: float = TURN_SECONDS,
        minute_seconds: float = MINUTE_SECONDS,
    ) -> None:
        if turn_seconds <= 0 or minute_seconds <= 0:
            raise ValueError("hourglass times must be positive")
        self.clock = clock
        self.turn_seconds = float(turn_seconds)
        self.minute_seconds = float(minute_seconds)
        self.allowance = 0.0  # this turn's time: 120 s plus the carry received
        self.carry_in = 0.0
        self.used = 0.0  # time used before the current running stretch
        self.started_at: float | None = None  # None when stopped or paused
        self.active = False

    # --- the turn ----------------------------------------------------------------------
    def start_turn(self, carry: float = 0.0) -> None:
        """Start a player's turn with 120 s plus ``carry`` from the previous player."""
        if carry < 0:
            raise ValueError("carry-over cannot be negative")
        self.carry_in = float(carry)
        self.allowance = self.turn_seconds + self.carry_in
        self.used = 0.0
        self.started_at = self.clock()
        self.active = True

    def elapsed(self) -> float:
        running = self.clock() - self.started_at if self.started_at is not None else 0.0
        return self.used + max(0.0, running)

    def remaining(self) -> float:
        if not self.active:
            return 0.0
        return max(0.0, self.allowance - self.elapsed())

    def expired(self) -> bool:
        """The turn's time has run out: the turn is a pass."""
        return self.active and self.remaining() <= 0.0

    @property
    def running(self) -> bool:
        return self.active and self.started_at is not None

    def pause(self) -> None:
        """Lay the hourglass on its side (scoring, a dispute): time stops for the player."""
        if self.running:
            assert self.started_at is not None
            self.used += max(0.0, self.clock() - self.started_at)
            self.started_at = None

    def resume(self) -> None:
        if self.active and self.started_at is None:
            self.started_at = self.clock()

    def carry_out(self) -> float:
        """What the next player receives now: the unused part of the running minute."""
        rem = self.remaining()
        return rem % self.minute_seconds if rem > 0 else 0.0

    def finish_turn(self) -> float:
        """Stop the turn; return the carry-over for the next player."""
        carry = self.carry_out()
        self.pause()
        self.active = False
        return carry

    def next_turn(self) -> float:
        """Finish this turn and start the next player's with the carry-over; return it."""
        carry = self.finish_turn()
        self.start_turn(carry)
        return carry

    def to_json(self) -> dict[str, Any]:
        return {
            "turn_seconds": self.turn_seconds,
            "allowance": self.allowance,
            "carry_in": self.carry_in,
            "remaining": round(self.remaining(), 3),
            "running": self.running,
            "expired": self.expired(),
        }
