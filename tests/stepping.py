"""Running a sliced computation (a generator that yields between slices) the way the page does."""

from __future__ import annotations

from typing import Any, Generator, TypeVar

T = TypeVar("T")


def run_counting(steps: Generator[Any, Any, T]) -> tuple[T, int]:
    """Run ``steps`` to its end: its result and how many times it yielded (how finely it is sliced)."""
    yields = 0
    while True:
        try:
            next(steps)
        except StopIteration as stop:
            result: T = stop.value
            return result, yields
        yields += 1
