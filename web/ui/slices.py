"""The slice scheduler every long computation uses (the computer's turn, the review's analysis,
today's puzzles): engine work written as a generator runs a few milliseconds at a time, and the
browser gets the thread back in between, so the page never freezes."""

from __future__ import annotations

import asyncio
import time
from typing import Any, Callable, Generator

#: How long the computer may compute before handing the page back to the browser.
SLICE_SECONDS = 0.015


async def run_in_slices(steps: Generator[None, None, Any], wanted: Callable[[], bool]) -> tuple[bool, Any]:
    """Run a generator of engine work ``SLICE_SECONDS`` at a time, giving the browser the thread in
    between: ``(True, its return value)``, or ``(False, None)`` as soon as ``wanted()`` turns false
    (the player left, the position changed)."""
    while True:
        deadline = time.perf_counter() + SLICE_SECONDS
        try:
            while time.perf_counter() < deadline:
                next(steps)
        except StopIteration as stop:
            return True, stop.value
        await asyncio.sleep(0)
        if not wanted():
            steps.close()
            return False, None
