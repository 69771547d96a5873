"""`python -m game daily [--date YYYY-MM-DD] [--game G] [--bench | --check] [--days N]` — the puzzles.

JSON on stdout: the puzzle number, the date and, per game, the setup in the engine's notation and
the best answer (docs/daily.md). ``--check`` verifies every puzzle of ``--days`` dates against the
stated criteria (``game.daily.check``) and exits 1 when one fails. Exit 0 ok, 1 a check failed,
2 malformed input (a bad date, an unknown game, no lexicon; one line on stderr and
``{"error": …}`` on stdout). The default date is today in local time, as the page counts it.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import re
import statistics
import sys
import time
from typing import Any, NoReturn, Sequence

from game import daily
from game.core import cliargs
from game.scarabeo import ai

OK, FAILED, MALFORMED = 0, 1, 2
#: More days than this in one bench is a typing slip (a day costs about a second).
MAX_BENCH_DAYS = 3660
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


class _Usage(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise _Usage(message)  # _fail names the program once ("daily: …")


def _fail(message: str) -> int:
    print(json.dumps({"error": message}, ensure_ascii=False))
    print(f"daily: {message}", file=sys.stderr)
    return MALFORMED


def parse_date(text: str) -> datetime.date:
    """A calendar date written YYYY-MM-DD (``fromisoformat`` alone also takes 20261201 and
    week dates, which a person typing a date did not mean)."""
    if not _DATE.fullmatch(text):
        raise ValueError(f"a date is written YYYY-MM-DD, not {text[:40]!r}")
    try:
        day = datetime.date.fromisoformat(text)
    except ValueError as err:
        raise ValueError(f"{text} is not a date ({err})") from None
    daily.puzzle_number(day)  # before the first day: refused here, with the reason
    return day


def _parser() -> _Parser:
    p = _Parser(prog="python -m game daily", description="the daily puzzles, one per game")
    p.add_argument("--date", help="YYYY-MM-DD (default: today, local time)")
    p.add_argument("--game", choices=daily.GAMES, action="append",
                   help="only this game (repeatable)")
    p.add_argument("--bench", action="store_true",
                   help="time the generation instead of printing the puzzles")
    p.add_argument("--check", action="store_true",
                   help="verify that every puzzle of --days dates meets the criteria (exit 1 if not)")
    cliargs.add_count(p, "--days", 1, MAX_BENCH_DAYS, None,
                      "with --bench (default 7) or --check (default 1): consecutive days from --date")
    p.add_argument("--pyodide", action="store_true",
                   help="with --bench: the same days in Pyodide under Node, compared with CPython")
    return p


def _lexicon() -> Any:
    from game.scarabeo.lexicon_file import load_lexicon  # noqa: PLC0415 - only the commands that need it

    return load_lexicon(otherwise="")


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = _parser().parse_args(list(sys.argv[1:] if argv is None else argv))
    except _Usage as err:
        return _fail(str(err))
    except SystemExit as err:  # --help
        return int(err.code or 0)
    try:
        day = parse_date(args.date) if args.date is not None else datetime.date.today()
        daily.puzzle_number(day)
        games = tuple(dict.fromkeys(args.game)) if args.game else daily.GAMES
        if args.bench and args.check:
            raise ValueError("--bench and --check are two separate runs")
        if args.days is not None and not (args.bench or args.check):
            raise ValueError("--days goes with --bench or --check")
        days = args.days if args.days is not None else 7 if args.bench else 1
        cliargs.last_day(day, days)  # the whole span within the calendar
        lex = _lexicon() if "scarabeo" in games else None
    except (ValueError, RuntimeError) as err:
        return _fail(str(err))
    try:
        if args.check:
            from game.daily import check  # noqa: PLC0415 - only this option needs it

            data = check.sweep(day, days, games, lex)
            for failure in data["failures"]:
                print(f"daily: {failure['date']} {failure['game']}: {'; '.join(failure['problems'])}",
                      file=sys.stderr)
            print(json.dumps(data, ensure_ascii=False))
            return FAILED if data["failed"] else OK
        if args.bench:
            data = bench(day, days, games, lex)
            if args.pyodide:
                data["pyodide"] = pyodide_bench(day, days, games, lex)
        else:
            data = daily.puzzles(day, lex, games)
    except Exception as err:  # noqa: BLE001 - the last net: one line, never a traceback
        return _fail(cliargs.internal_error(err))
    print(json.dumps(data, ensure_ascii=False))
    return OK


def bench(first: datetime.date, days: int, games: tuple[str, ...], lexicon: Any) -> dict[str, Any]:
    """Per game, over ``days`` dates from ``first``: wall and CPU seconds per puzzle, the longest
    stretch between two yields (what the page's slices see) and the candidates tried."""
    if lexicon is not None:
        # The move generator's tables are built once per page; not a puzzle's cost.
        t0 = time.perf_counter()
        ai.generator_for(lexicon)
        setup = time.perf_counter() - t0
    else:
        setup = 0.0
    table: dict[str, Any] = {}
    for game in games:
        wall: list[float] = []
        cpu: list[float] = []
        step: list[float] = []
        attempts: list[int] = []
        for k in range(days):
            day = first + datetime.timedelta(days=k)
            longest = [0.0]
            last = [time.perf_counter()]

            def tick() -> None:
                now = time.perf_counter()
                longest[0] = max(longest[0], now - last[0])
                last[0] = now

            w0, c0 = time.perf_counter(), time.process_time()
            found = daily.run(daily.generate_one(game, day, lexicon), tick)
            tick()
            wall.append(time.perf_counter() - w0)
            cpu.append(time.process_time() - c0)
            step.append(longest[0])
            attempts.append(int(found.get("attempt", 0)))
        table[game] = {
            "wall_s": _spread(wall),
            "cpu_s": _spread(cpu),
            "longest_step_ms": round(max(step) * 1000, 1),
            "attempt_max": max(attempts),
        }
    return {
        "first": first.isoformat(),
        "days": days,
        "python": platform.python_version(),
        "implementation": sys.implementation.name,
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
        "generator_setup_s": round(setup, 3),
        "games": table,
    }


def pyodide_bench(first: datetime.date, days: int, games: tuple[str, ...], lexicon: Any,
                  ) -> dict[str, Any]:
    """The same days computed in Pyodide (``pyodide_check.mjs``): seconds per game and whether
    every puzzle is the one CPython computes."""
    import subprocess  # noqa: PLC0415 - only this option runs another program

    dates = [first + datetime.timedelta(days=k) for k in range(days)]
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "pyodide_check.mjs")
    done = subprocess.run(["node", script, ",".join(d.isoformat() for d in dates)],
                          capture_output=True, text=True, timeout=60 + 30 * days)
    if done.returncode != 0:
        raise RuntimeError(f"node failed: {done.stderr.strip()[-300:]}")
    data = json.loads(done.stdout.strip().splitlines()[-1])
    same = True
    table: dict[str, list[float]] = {g: [] for g in games}
    for day, row in zip(dates, data["days"], strict=True):
        for game in games:
            table[game].append(row["seconds"][game])
            mine = json.loads(json.dumps(daily.run(daily.generate_one(game, day, lexicon))))
            same = same and mine == row["puzzles"][game]
    return {"python": data["python"], "generator_setup_s": data["generator_setup_s"],
            "games": {g: {"wall_s": _spread(xs)} for g, xs in table.items()},
            "same_puzzles_as_cpython": same}


def _spread(xs: list[float]) -> dict[str, float]:
    return {"median": round(statistics.median(xs), 3), "max": round(max(xs), 3),
            "mean": round(statistics.fmean(xs), 3)}
