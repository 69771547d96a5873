"""The slice scheduler every long computation uses (the computer's turn, the review's analysis,
today's puzzles): engine work written as a generator runs a few milliseconds at a time, and the
browser gets the thread back in between, so the page never freezes.

The generator's protocol: ``yield`` (``None``) means "carry on" — the scheduler resumes it until the
slice is spent. ``yield seconds`` (a number > 0) asks for a pause: the slice ends there and the
scheduler sleeps that long (``asyncio.sleep``, a timer in the browser) before going on. A pause
spins nothing: waiting by resuming the generator until a clock passes a mark kept a core busy for
the whole wait (the computer's tiles appearing one by one were ~70 % of a game's Python time),
battery burnt on a phone for nothing."""

from __future__ import annotations

import asyncio
import time
from typing import Any, Callable, Generator, TypeAlias

#: How long the computer may compute before handing the page back to the browser.
SLICE_SECONDS = 0.015

#: What a sliced generator yields: ``None`` to carry on, or seconds to pause (see the module's docstring).
Pause: TypeAlias = float | None


async def run_in_slices(steps: Generator[Pause, None, Any], wanted: Callable[[], bool]) -> tuple[bool, Any]:
    """Run a generator of engine work ``SLICE_SECONDS`` at a time, giving the browser the thread in
    between, and sleeping without work when it yields a number of seconds: ``(True, its return
    value)``, or ``(False, None)`` as soon as ``wanted()`` turns false (the player left, the position
    changed), checked after every slice and every pause."""
    while True:
        deadline = time.perf_counter() + SLICE_SECONDS
        pause: Pause = None
        try:
            while time.perf_counter() < deadline:
                pause = next(steps)
                if pause:  # a pause asked for: the slice ends here
                    break
        except StopIteration as stop:
            return True, stop.value
        await asyncio.sleep(pause if pause and pause > 0 else 0)
        if not wanted():
            steps.close()
            return False, None
