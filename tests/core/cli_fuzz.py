"""Shared by the command-line fuzz tests of the three games: run a CLI's ``main(argv)`` in-process
with captured output, assert a clean refusal, and the hypothesis strategies for damaged input."""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

#: Kept small and the same on every run so the suite stays fast and steady;
#: ``SCARAB_FUZZ_EXAMPLES=2000`` for a long hunt with fresh random examples.
EXAMPLES = int(os.environ.get("SCARAB_FUZZ_EXAMPLES", "30"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize="SCARAB_FUZZ_EXAMPLES" not in os.environ,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

OK, ILLEGAL, MALFORMED = 0, 1, 2


@dataclass
class Result:
    code: int
    out: str
    err: str

    def json(self) -> Any:
        return json.loads(self.out)


def call(main: Callable[[list[str]], int], args: Sequence[str], stdin: str | bytes = b"") -> Result:
    """``main(args)`` with stdout, stderr and stdin replaced; an exception escaping fails the test."""
    out, err = io.StringIO(), io.StringIO()
    data = stdin.encode("utf-8", "surrogatepass") if isinstance(stdin, str) else stdin
    old_stdin = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(list(args))
    finally:
        sys.stdin = old_stdin
    return Result(code, out.getvalue(), err.getvalue())


def assert_clean(result: Result, codes: Sequence[int] = (OK, ILLEGAL, MALFORMED)) -> None:
    """One of the documented exit codes; a refusal says why on one stderr line and in the JSON;
    no traceback, and no error that only the last-resort net caught."""
    assert result.code in codes, (result.code, result.err)
    assert "Traceback" not in result.err
    assert "internal error" not in result.err, result.err
    lines = result.err.strip().splitlines()
    if result.code == MALFORMED:
        assert len(lines) == 1 and lines[0].strip(), result.err
    if result.code != OK:
        # An illegal move is a normal answer: its reason is in the JSON (Scarabeo's score prints
        # nothing on stderr for it), and never more than one line.
        assert len(lines) <= 1, result.err
        assert result.out.strip(), "the refusal is also on stdout, as JSON"
        json.loads(result.out)


def assert_refused(result: Result) -> None:
    assert_clean(result, (MALFORMED,))


# --- damaged text ------------------------------------------------------------------------
#: Digits of other scripts and superscripts pass ``str.isdigit`` but not always ``int``.
ODD_CHARS = "0123456789²³¹٣۷߂०-+/*?.@>:, PpAa" + "ß\u0130ﬁ\x00\n\t"


def damaged(text: str) -> st.SearchStrategy[str]:
    """``text`` with a long digit run put in, random characters put in or swapped, or cut short."""
    n = len(text)
    digits = st.text(alphabet="0123456789", min_size=1, max_size=60)
    run = st.tuples(st.integers(0, n), digits).map(lambda a: text[: a[0]] + a[1] + text[a[0]:])
    swap = st.tuples(st.integers(0, n), st.integers(0, 3), st.text(alphabet=ODD_CHARS, max_size=4)).map(
        lambda a: text[: a[0]] + a[2] + text[a[0] + a[1]:]
    )
    cut = st.integers(0, n).map(lambda k: text[:k])
    return st.one_of(run, swap, cut)


# --- damaged JSON ------------------------------------------------------------------------
json_values: st.SearchStrategy[Any] = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**39), 10**39) | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(alphabet=ODD_CHARS + "ABCDEFGHIJKLMNOPQRSTUVZ", max_size=12),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=6,
)


def paths(record: dict[str, Any]) -> list[tuple[Any, ...]]:
    """Every field of a record, top level and one level down (options, meta, each move)."""
    out: list[tuple[Any, ...]] = []
    for key, value in record.items():
        out.append((key,))
        if isinstance(value, dict):
            out.extend((key, k) for k in value)
            out.append((key, "unexpected"))
        elif isinstance(value, list):
            out.extend((key, i) for i in range(min(len(value), 4)))
    return out


def with_value(record: dict[str, Any], path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    copy = json.loads(json.dumps(record))
    where = copy
    for key in path[:-1]:
        where = where[key]
    where[path[-1]] = value
    return copy


def wrong_types(record: dict[str, Any]) -> st.SearchStrategy[str]:
    """The record with one field (any of them) set to a JSON value of any type."""
    return st.tuples(st.sampled_from(paths(record)), json_values).map(
        lambda a: json.dumps(with_value(record, a[0], a[1]))
    )


def hostile_json(record: dict[str, Any]) -> st.SearchStrategy[str]:
    """Deep nesting (bare or in a field), numbers of thousands of digits, NaN and Infinity, cut
    text: what a damaged file or a crafted one holds."""
    text = json.dumps(record)
    depth = st.integers(60, 6000)
    bare = depth.map(lambda d: "[" * d + "]" * d)
    inside = st.tuples(st.sampled_from(paths(record)), depth).map(
        lambda a: json.dumps(with_value(record, a[0], "@")).replace('"@"', "[" * a[1] + "]" * a[1])
    )
    number = st.sampled_from(["9" * 5000, "-" + "9" * 50, "1e400", "NaN", "Infinity", "-Infinity",
                              "1" + "0" * 41, "0.5"])
    huge = st.tuples(st.sampled_from(paths(record)), number).map(
        lambda a: json.dumps(with_value(record, a[0], "@")).replace('"@"', a[1])
    )
    cut = st.integers(0, len(text)).map(lambda k: text[:k])
    return st.one_of(bare, inside, huge, cut, wrong_types(record))
