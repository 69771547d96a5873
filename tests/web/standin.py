"""Importing browser-side modules under CPython: a stand-in ``pyscript`` (and ``pyscript.ffi``) in
``sys.modules`` while they import, and afterwards the modules imported for it dropped and the real
entries put back, so that one test module's stand-in never leaks into another's imports."""

from __future__ import annotations

import asyncio
import contextlib
import sys
import types
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Awaitable, Callable, Iterator, TypeVar

T = TypeVar("T")


@contextlib.contextmanager
def stand_in_pyscript(window: Any = None, create_proxy: Callable[[Any], Any] = lambda f: f,
                      drop: tuple[str, ...] = ("web.",)) -> Iterator[None]:
    """``pyscript.window`` and ``pyscript.document`` are ``window``; modules whose names start with one
    of ``drop`` and that were imported inside the block are forgotten after it."""
    stub = types.ModuleType("pyscript")
    stub.window = stub.document = window  # type: ignore[attr-defined]
    ffi = types.ModuleType("pyscript.ffi")
    ffi.create_proxy = create_proxy  # type: ignore[attr-defined]
    ffi.to_js = lambda x, **_k: x  # type: ignore[attr-defined]
    stub.ffi = ffi  # type: ignore[attr-defined]
    saved = {k: sys.modules.get(k) for k in ("pyscript", "pyscript.ffi")}
    before = set(sys.modules)
    sys.modules["pyscript"], sys.modules["pyscript.ffi"] = stub, ffi
    try:
        yield
    finally:
        for key in set(sys.modules) - before:
            if key.startswith(drop):
                sys.modules.pop(key, None)
        for key, module in saved.items():
            if module is None:
                sys.modules.pop(key, None)
            else:
                sys.modules[key] = module


def run_alone(work: Awaitable[T]) -> T:
    """``asyncio.run(work)`` in a thread of its own: in a pytest-xdist worker that also runs the e2e
    tests, Playwright's sync API keeps an event loop running in the main thread, and asyncio.run()
    refuses to start inside it."""
    async def main() -> T:
        return await work

    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, main()).result()
