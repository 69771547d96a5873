"""The optional hourglass (rules.md §1): 120 s a turn, the unused part of the running minute
carried over to the next player, paused while scoring or during a dispute.

Pure logic: time comes from an injected ``clock`` (seconds, monotonic), so tests drive it by hand
and the browser passes its own clock. The game state does not read time; the UI runs the
hourglass beside it and pushes a pass (``-``) when ``expired()``.

``saved()`` / ``restore()`` keep a turn across a page reload: what was used of the turn, the carry it
started with, and whether it was laid on its side. The time between the two does not count (the
hourglass is physical: while the page is closed the table is away).
"""

from __future__ import annotations

import math
from typing import Any, Callable, Mapping

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

    # --- keeping a turn across a reload ----------------------------------------------------
    def saved(self) -> dict[str, Any]:
        """The running turn as plain data for ``restore`` (an inactive hourglass saves ``active``
        false only)."""
        if not self.active:
            return {"active": False}
        return {"active": True, "carry_in": self.carry_in, "used": min(self.elapsed(), self.allowance),
                "paused": not self.running}

    def restore(self, data: Mapping[str, Any]) -> None:
        """Resume a turn saved by ``saved``: the same carry and time used, running from now unless
        it was paused. Raises ValueError (leaving the hourglass as it was) when ``data`` is not a
        turn this hourglass could have saved."""
        if not isinstance(data, Mapping) or data.get("active") is not True:
            raise ValueError("no running turn saved")
        carry, used, paused = data.get("carry_in"), data.get("used"), data.get("paused")
        for name, value in (("carry_in", carry), ("used", used)):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not _finite(value):
                raise ValueError(f"saved {name} is not a number")
        assert isinstance(carry, (int, float)) and isinstance(used, (int, float))
        if not isinstance(paused, bool):
            raise ValueError("saved paused is not true or false")
        if not 0 <= carry < self.minute_seconds:
            raise ValueError(f"saved carry-over {carry} is not within a minute")
        allowance = self.turn_seconds + float(carry)
        if not 0 <= used <= allowance:
            raise ValueError(f"saved time used {used} is not within the turn's {allowance} s")
        self.carry_in = float(carry)
        self.allowance = allowance
        self.used = float(used)
        self.active = True
        self.started_at = None if paused else self.clock()

    def to_json(self) -> dict[str, Any]:
        return {
            "turn_seconds": self.turn_seconds,
            "allowance": self.allowance,
            "carry_in": self.carry_in,
            "remaining": round(self.remaining(), 3),
            "running": self.running,
            "expired": self.expired(),
        }


def _finite(value: int | float) -> bool:
    # math.isfinite converts an int to float first: one of 309 digits or more overflows.
    try:
        return math.isfinite(value)
    except OverflowError:
        return False
