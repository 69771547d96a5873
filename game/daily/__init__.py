"""Today's challenge: one puzzle per game, the same for everyone on a given date, with no server.

Every puzzle is computed from the date alone: the puzzle number (``puzzle_number``) seeds a
``game.core.Rng``, which gives each game its list of candidate seeds; the game's generator tries
them in order and keeps the first that meets its criteria. Nothing here uses ``random`` or
``hash()``, and every tie is broken by an explicit order, so CPython and Pyodide compute the same
puzzles. ``docs/daily.md`` gives the criteria and the figures.

For the page, ``generate(day, lexicon)`` is a generator that yields every few milliseconds and
returns the puzzles (``web/pages/play.py``'s ``run_in_slices`` drives it); ``puzzles(day, lexicon)`` is
the same run to the end, for the command line and the tests. ``generate_one`` does one game.
"""

from __future__ import annotations

import datetime
from typing import Any, Callable, Generator

from game.core import Rng
from game.daily import scarabeo, scarabya, thot

#: Puzzle number 1. A date before it has no puzzle.
FIRST_DAY = datetime.date(2026, 12, 1)
GAMES = ("scarabeo", "thot", "scarabya")
#: Distinct streams of seeds per game, so a change to one game's generator leaves the others'.
_SALT = {"scarabeo": 0x5CA7ABE0, "thot": 0x7407, "scarabya": 0x5CA7AB7A}
#: Candidates per day: seeded Scarabeo games (each judged on up to 8 racks) and Thot games.
SCARABEO_GAMES = 8
THOT_GAMES = 64
_MASK = (1 << 64) - 1


def puzzle_number(day: datetime.date) -> int:
    """Days since ``FIRST_DAY``, counting it as 1; ValueError before it."""
    if not isinstance(day, datetime.date) or isinstance(day, datetime.datetime):
        raise TypeError(f"a puzzle's day is a datetime.date, not {type(day).__name__}")
    n = (day - FIRST_DAY).days + 1
    if n < 1:
        raise ValueError(f"the first daily puzzle is on {FIRST_DAY.isoformat()}; {day.isoformat()} has none")
    return n


def day_of(number: int) -> datetime.date:
    """The date of puzzle ``number`` (the inverse of ``puzzle_number``)."""
    if number < 1:
        raise ValueError(f"puzzle numbers start at 1, not {number}")
    return FIRST_DAY + datetime.timedelta(days=number - 1)


def seeds(number: int, game: str, count: int) -> list[int]:
    """The candidate seeds of a game's puzzle ``number``, in the order they are tried."""
    # The stream starts from a mixed value, not from number × step: SplitMix64's state advances
    # by a fixed step, so streams started at number × that step would be each other's shifts
    # (day n + 1's first candidate would be day n's second).
    start = Rng((number << 32 ^ _SALT[game]) & _MASK).next64()
    rng = Rng(start)
    return [rng.next64() for _ in range(count)]


def generate_one(game: str, day: datetime.date, lexicon: Any = None,
                 ) -> Generator[None, None, dict[str, Any]]:
    """One game's puzzle for ``day`` (Scarabeo needs the lexicon automaton); yields often."""
    n = puzzle_number(day)
    if game == "scarabeo":
        if lexicon is None:
            raise ValueError("the Scarabeo puzzle needs the lexicon")
        found = yield from scarabeo.generate(seeds(n, game, SCARABEO_GAMES), lexicon)
    elif game == "thot":
        found = yield from thot.generate(seeds(n, game, THOT_GAMES))
    elif game == "scarabya":
        found = yield from scarabya.generate(seeds(n, game, 1)[0])
    else:
        raise ValueError(f"unknown game {game!r}: choose {', '.join(GAMES)}")
    return {"game": game, "number": n, "date": day.isoformat(), **found}


def generate(day: datetime.date, lexicon: Any, games: tuple[str, ...] = GAMES,
             ) -> Generator[None, None, dict[str, Any]]:
    """The day's puzzles: ``{"number", "date", "puzzles": {game: puzzle}}``; yields often."""
    n = puzzle_number(day)
    out: dict[str, Any] = {}
    for game in games:
        out[game] = yield from generate_one(game, day, lexicon)
    return {"number": n, "date": day.isoformat(), "first_day": FIRST_DAY.isoformat(), "puzzles": out}


def run(steps: Generator[None, None, Any], tick: Callable[[], None] | None = None) -> Any:
    """A generator of this package run to the end (``tick`` called at every yield)."""
    while True:
        try:
            next(steps)
        except StopIteration as stop:
            return stop.value
        if tick is not None:
            tick()


def puzzles(day: datetime.date, lexicon: Any, games: tuple[str, ...] = GAMES) -> dict[str, Any]:
    """``generate`` run to the end (blocking)."""
    result: dict[str, Any] = run(generate(day, lexicon, games))
    return result


__all__ = ["FIRST_DAY", "GAMES", "day_of", "generate", "generate_one", "puzzle_number", "puzzles",
           "run", "seeds"]
