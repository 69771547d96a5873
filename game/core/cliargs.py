"""What the engines' command lines share: positionals that start with ``-``, bounded seeds and
counts, dates, bounded reading of a file (only a regular file: a FIFO, a device or a directory is
refused at once), the list of commands, and the last-resort report of an unexpected error.

Only the command lines import this module; the engines never do.
"""

from __future__ import annotations

import argparse
import datetime
import math
import os
import stat
import sys
from typing import IO, Any, Callable

from game.core import safejson


def protect_positionals(parser: argparse.ArgumentParser, args: list[str]) -> list[str]:
    """``[command, options…, "--", positionals…]`` for a command that takes positionals.

    argparse reads any word that starts with ``-`` as an option, so the Scarabeo exchange
    ``-AAEEIIOU`` or a Thot board ``-3+2…`` would be refused as an unknown option. A word is kept
    as an option when it is one of the command's own options (``--level``, ``--level=3``, an
    abbreviation argparse would accept, ``-h``), together with the value it takes, or when it
    starts with ``--`` (no notation does, so ``--bogus`` is reported as the unknown option it
    is); every other word is a positional. Argument lists that already hold ``--`` are left as
    they are.
    """
    if not args or "--" in args:
        return args
    sub = _subparser(parser, args[0])
    if sub is None or not any(not a.option_strings for a in sub._actions):
        return args  # no such command, or one without positionals: argparse's own messages
    actions = sub._option_string_actions
    opts: list[str] = []
    words: list[str] = []
    i = 1
    while i < len(args):
        word = args[i]
        takes = _values_taken(word, actions)
        if takes is None:
            words.append(word)
        else:
            opts.extend(args[i : i + 1 + takes])
            i += takes
        i += 1
    return [args[0], *opts, "--", *words]


def _subparser(parser: argparse.ArgumentParser, command: str) -> argparse.ArgumentParser | None:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            found = action.choices.get(command)
            return found if isinstance(found, argparse.ArgumentParser) else None
    return None


def _values_taken(word: str, actions: dict[str, argparse.Action]) -> int | None:
    """How many following words the option ``word`` takes; None when ``word`` is no option."""
    if not word.startswith("-") or word == "-":
        return None
    name, eq, _ = word.partition("=") if word.startswith("--") else (word, "", "")
    found = {actions[name]} if name in actions else set()
    if not found and name.startswith("--") and len(name) > 2:
        # argparse accepts an unambiguous prefix of a long option; an ambiguous one is left to it
        # as an option, so that it reports the ambiguity.
        found = {actions[o] for o in actions if o.startswith(name)}
        if len(found) > 1:
            return 0
    if not found:
        return 0 if word.startswith("--") else None
    nargs = found.pop().nargs
    if eq:
        return 0
    if nargs is None:
        return 1
    return nargs if isinstance(nargs, int) else 0  # "?", "*", "+": no engine option uses them


#: A seed is at most as long as a number in a record may be, so every game can be saved and
#: replayed (the record parser refuses longer numbers).
MAX_SEED_DIGITS = safejson.MAX_NUMBER_DIGITS


def seed(text: str) -> int:
    """argparse ``type=`` for ``--seed``: a whole number of at most 40 digits."""
    body = text.strip()
    body = body[1:] if body[:1] in "+-" else body
    if not (body.isascii() and body.isdigit()) or len(body) > MAX_SEED_DIGITS:
        raise argparse.ArgumentTypeError(
            f"a seed is a whole number of at most {MAX_SEED_DIGITS} digits, not {_shown(text)}"
        )
    return int(text)


def read_record(path: str, limit: int, stdin: IO[Any] | None = None) -> str:
    """The text of a record file, or of stdin for ``-``, read no further than ``limit`` bytes.

    Raises ``ValueError`` with a message fit for a person (unreadable, not a regular file, too
    large, not UTF-8).
    """
    return read_text(path, limit, "record", stdin)


def read_text(path: str, limit: int, what: str, stdin: IO[Any] | None = None) -> str:
    """``read_bytes`` decoded as UTF-8; ``what`` names the file in the messages ("record")."""
    raw = read_bytes(path, limit, what, stdin)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as err:
        name = "standard input" if path == "-" else path
        raise ValueError(f"the {what} {_shown(name)} is not UTF-8 text (byte {err.start + 1})") from None


def read_bytes(path: str, limit: int, what: str, stdin: IO[Any] | None = None) -> bytes:
    """At most ``limit`` bytes of the regular file ``path``, or of stdin for ``-``.

    A named pipe, a device, a socket or a directory is refused before it is opened (reading a
    FIFO without a writer would wait forever, ``/dev/zero`` never ends); the file is opened
    non-blocking and checked again once open, so one swapped in meanwhile cannot block either.
    Raises ``ValueError`` with one line fit for a person.
    """
    name = "standard input" if path == "-" else _shown(path)
    try:
        if path == "-":
            stream = stdin if stdin is not None else sys.stdin
            buffer = getattr(stream, "buffer", None)
            # A text stream without a buffer (a test's StringIO): its characters, re-encoded.
            raw: bytes = (buffer.read(limit + 1) if buffer is not None
                          else stream.read(limit + 1).encode("utf-8", "replace"))
        else:
            _refuse_unless_regular(os.stat(path).st_mode, what, name)
            fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
                         | getattr(os, "O_BINARY", 0))
            with os.fdopen(fd, "rb") as fh:
                info = os.fstat(fh.fileno())
                _refuse_unless_regular(info.st_mode, what, name)
                if info.st_size > limit:
                    raise ValueError(f"the {what} {name} is larger than {limit:,} bytes")
                raw = fh.read(limit + 1)
    except OSError as err:
        raise ValueError(f"cannot read the {what} {name}: {err.strerror or err}") from None
    if len(raw) > limit:
        raise ValueError(f"the {what} {name} is larger than {limit:,} bytes")
    return raw


def _refuse_unless_regular(mode: int, what: str, name: str) -> None:
    if stat.S_ISREG(mode):
        return
    kind = ("a directory" if stat.S_ISDIR(mode) else "a named pipe" if stat.S_ISFIFO(mode)
            else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode)
            else "a socket" if stat.S_ISSOCK(mode) else "not a regular file")
    raise ValueError(f"the {what} {name} is {kind}: only a regular file is read")


def count(lo: int, hi: int) -> Callable[[str], int]:
    """argparse ``type=`` for a whole number from ``lo`` to ``hi``: every count a command takes
    has a stated maximum, so no typing slip runs unbounded."""

    def parse(text: str) -> int:
        body = text.strip()
        digits = body[1:] if body[:1] in "+-" else body
        if not (digits.isascii() and digits.isdigit()) or len(digits) > 20:
            raise argparse.ArgumentTypeError(f"a whole number from {lo} to {hi} is needed, not {_shown(text)}")
        value = int(body)
        if not lo <= value <= hi:
            raise argparse.ArgumentTypeError(f"a whole number from {lo} to {hi} is needed, not {_shown(text)}")
        return value

    parse.__name__ = "count"  # argparse names the type in its messages
    return parse


def add_count(parser: argparse.ArgumentParser, flag: str, lo: int, hi: int, default: int | None,
              help: str = "") -> None:
    """``flag`` as a bounded count (``count``) whose range is stated in its --help."""
    shown = f"{lo}-{hi:,}" if hi >= 10_000 else f"{lo}-{hi}"
    text = f"{help} ({shown}" if help else f"({shown}"
    text += f"; default {default})" if default is not None else ")"
    parser.add_argument(flag, type=count(lo, hi), default=default, help=text.replace("%", "%%"))


def seconds(hi: float) -> Callable[[str], float]:
    """argparse ``type=`` for a duration in seconds, finite, from 0 to ``hi``."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not (math.isfinite(value) and 0 <= value <= hi):
            raise argparse.ArgumentTypeError(f"a number of seconds from 0 to {hi:g} is needed, not {_shown(text)}")
        return value

    parse.__name__ = "seconds"
    return parse


def last_day(first: datetime.date, days: int) -> datetime.date:
    """The last of ``days`` consecutive dates from ``first``; ValueError (one line) when they
    would run past the calendar's end (9999-12-31), instead of an OverflowError."""
    try:
        return first + datetime.timedelta(days=days - 1)
    except OverflowError:
        raise ValueError(f"{days} days from {first.isoformat()} run past the last date, "
                         f"{datetime.date.max.isoformat()}") from None


def commands(parser: argparse.ArgumentParser) -> list[str]:
    """The names of ``parser``'s commands, in the order --help lists them."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return list(action.choices)
    return []


def _shown(text: str) -> str:
    return repr(text) if len(text) <= 24 else repr(text[:20]) + "…"


def internal_error(err: BaseException) -> str:
    """One line for an error no check foresaw: the command line never shows a traceback."""
    text = " ".join(str(err).split())[:300]
    return f"internal error ({type(err).__name__}{': ' + text if text else ''})"


def analysis_bench(moves: int, analysed: int, wall: float, cpu: float) -> dict[str, Any]:
    """The ``--bench`` figures of an ``analyse`` command: how long the whole record took."""
    import platform  # noqa: PLC0415 - only for the figures' machine line

    return {
        "moves": moves,
        "analysed": analysed,
        "seconds": round(wall, 3),
        "cpu_seconds": round(cpu, 3),
        # CPU time: steady when other jobs share the cores, unlike the wall clock.
        "moves_per_cpu_second": round(analysed / cpu, 2) if cpu > 0 else None,
        "machine": f"{platform.python_implementation()} {platform.python_version()} on {platform.machine()}",
    }
