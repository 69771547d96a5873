"""JSON from outside (saves, settings, statistics, links, files, command-line input), bounded first.

``json.loads`` alone is not safe on text someone else wrote: deep nesting exhausts the C stack (in
Pyodide that is a fatal error of the whole interpreter, not a ``RecursionError``), an integer of
thousands of digits raises a bare ``ValueError`` (CPython's int limit) or costs quadratic time, and
``NaN``/``Infinity`` are accepted though they are not JSON. ``loads`` scans the text with regular
expressions (no recursion, linear time) for size, depth and number length before the parser runs,
and every refusal is a ``JSONRefused`` (a ``ValueError``) whose message says what is wrong.
"""

from __future__ import annotations

import json
import re
from typing import Any

#: Real data nests at most about 8 deep (a save → record → meta → seats → seat); far below what
#: any interpreter's stack survives.
MAX_DEPTH = 64
#: 2**64 has 20 digits; nothing this project stores needs more than that.
MAX_NUMBER_DIGITS = 40
MAX_BYTES = 1_000_000

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKETS = re.compile(r"[\[\]{}]")
_LONG_NUMBER = re.compile(r"\d{%d,}" % (MAX_NUMBER_DIGITS + 1))


class JSONRefused(ValueError):
    """Text refused before or while parsing; ``str()`` is a reason fit to show to a person."""


def _refuse_constant(name: str) -> Any:
    raise JSONRefused(f"{name} is not a JSON number")


def nesting_depth(text: str) -> int:
    """The deepest nesting of arrays and objects in ``text`` (brackets inside strings ignored)."""
    outside = _STRING.sub('""', text)
    depth = deepest = 0
    for bracket in _BRACKETS.findall(outside):
        if bracket in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
        else:
            depth -= 1
    return deepest


def loads(text: str | bytes, *, max_bytes: int = MAX_BYTES, max_depth: int = MAX_DEPTH) -> Any:
    """Parse JSON text within bounds; raise ``JSONRefused`` with the reason otherwise."""
    if isinstance(text, (bytes, bytearray)):
        if len(text) > max_bytes:
            raise JSONRefused(f"the data is {len(text):,} bytes, more than the {max_bytes:,} allowed")
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as err:
            raise JSONRefused(f"the data is not UTF-8 text (byte {err.start + 1})") from None
    elif not isinstance(text, str):
        raise JSONRefused("the data is not text")
    # Characters are counted, not bytes: UTF-8 is never shorter than the character count, so this is
    # a cheap lower bound; callers that must count bytes exactly do so before calling.
    if len(text) > max_bytes:
        raise JSONRefused(f"the data is {len(text):,} characters, more than the {max_bytes:,} allowed")
    outside = _STRING.sub('""', text)
    if _LONG_NUMBER.search(outside):
        raise JSONRefused(f"the data holds a number of more than {MAX_NUMBER_DIGITS} digits")
    depth = nesting_depth(text)
    if depth > max_depth:
        raise JSONRefused(f"the data is nested {depth} levels deep, more than the {max_depth} allowed")
    try:
        return json.loads(text, parse_constant=_refuse_constant)
    except JSONRefused:
        raise
    except json.JSONDecodeError as err:
        raise JSONRefused(f"not valid JSON ({err.msg} at line {err.lineno}, column {err.colno})") from None
    except (ValueError, RecursionError) as err:  # belt and braces: the scan above should make these unreachable
        raise JSONRefused(f"not valid JSON ({err})") from None


#: JavaScript's ``Number.MAX_SAFE_INTEGER``: a larger integer cannot reach the page as a number.
MAX_SAFE_INTEGER = 2**53 - 1


def is_safe_int(value: Any) -> bool:
    """An ``int`` (not a bool) that JavaScript represents exactly (timestamps, revisions, counts)."""
    return isinstance(value, int) and not isinstance(value, bool) and -MAX_SAFE_INTEGER <= value <= MAX_SAFE_INTEGER
