"""Checks for text and options that come from outside (positions typed or pasted, records),
shared by both variants: a wrong type or an overlong field is refused with a message naming it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from game.core import NotationError

#: Seeds are at most as long as a number in a record may be (``safejson.MAX_NUMBER_DIGITS``).
MAX_SEED_DIGITS = 40
#: A full 4-player position is about 400 characters; longer text is refused before it is read.
MAX_POSITION_CHARS = 2000


def shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "…"


def option_int(options: Mapping[str, Any], name: str, default: int) -> int:
    value = options.get(name, default)
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"option {name} must be a whole number, not {shown(value)}")
    return value


def option_text(options: Mapping[str, Any], name: str, what: str) -> str | None:
    value = options.get(name)
    if value is not None and not isinstance(value, str):
        raise ValueError(f"option {name} must be text ({what}), not {shown(value)}")
    return value


def seed_int(seed: Any) -> int:
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ValueError(f"the seed must be a whole number, not {shown(seed)}")
    return seed


def parse_seed(text: str, full: str, at: int) -> int:
    """A position's seed: an optionally signed run of ASCII digits (``int()`` alone would also
    take "1_0", "٣" and thousands of digits)."""
    body = text[1:] if text[:1] in "+-" else text
    if not (body.isascii() and body.isdigit()) or len(body) > MAX_SEED_DIGITS:
        raise NotationError(f"seed {shown(text)} is not a whole number of at most {MAX_SEED_DIGITS} digits",
                            full, at)
    return int(text)


def check_length(text: Any) -> None:
    if not isinstance(text, str):
        raise NotationError("a position must be text")
    if len(text) > MAX_POSITION_CHARS:
        raise NotationError(f"position is {len(text)} characters long (at most {MAX_POSITION_CHARS})")
