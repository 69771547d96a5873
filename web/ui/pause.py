"""Long protocol work handed back to the browser every few milliseconds, without rewriting it.

Scarabeo's deal is hundreds of scalar multiplications inside one call of the protocol (a setup
step masks 130 cards; the end verifies them all). ``game.remote.ristretto.PAUSE`` is called between
those pieces of work; while ``sliced()`` is active it suspends the Python stack for one turn of the
browser's event loop (JavaScript Promise Integration: ``pyodide.ffi.run_sync``) once a slice of
``SLICE_MS`` is spent, so input and drawing go on and no task grows long. It needs the call to come
from an asynchronous Python function (a task of the page's event loop); where the browser has no
JSPI, or in CPython, ``can_run_sync()`` is false and the work runs in one piece, as before.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Iterator

from game.remote import ristretto

SLICE_MS = 15


@contextlib.contextmanager
def sliced() -> Iterator[bool]:
    """Within the block, the group's work pauses every ``SLICE_MS``; yields whether it can."""
    try:
        from pyodide.ffi import can_run_sync, run_sync  # type: ignore[import-not-found]
    except ImportError:  # CPython: nothing to hand back to
        yield False
        return
    if not can_run_sync():
        yield False
        return
    deadline = time.perf_counter() + SLICE_MS / 1000

    def pause() -> None:
        nonlocal deadline
        if time.perf_counter() >= deadline:
            run_sync(asyncio.sleep(0))
            deadline = time.perf_counter() + SLICE_MS / 1000

    previous = ristretto.PAUSE
    ristretto.PAUSE = pause
    try:
        yield True
    finally:
        ristretto.PAUSE = previous
