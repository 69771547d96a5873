"""The Scarabeo tile set: 130 tiles, letter values, vowels (rules.md §1 "Set").

Tiles are one-character strings: an uppercase letter is a letter tile, ``?`` is a scarab (wild)
on a rack, and a lowercase letter is a scarab on the board standing for that letter.
"""

from __future__ import annotations

from typing import Iterable

#: The 21 letters of the Italian set (same order as ``lexicon.ALPHABET``).
LETTERS = "ABCDEFGHILMNOPQRSTUVZ"
SCARAB = "?"
#: A tile this seat cannot see (another player's rack, the bag), in a seat's masked state
#: (``game.scarabeo.public``). Not ``?``, which is the scarab; not ``#`` or ``.``, which links
#: and text records already use.
HIDDEN = "_"
VOWELS = frozenset("AEIOU")
RACK_SIZE = 8
MIN_PLAYERS, MAX_PLAYERS = 2, 4
#: Penalty / gain for a scarab left on a rack at the end (rulebook art. 30).
SCARAB_RACK_VALUE = 30

COUNTS: dict[str, int] = {
    **dict.fromkeys("AEIO", 12),
    **dict.fromkeys("CRST", 7),
    **dict.fromkeys("LMN", 6),
    **dict.fromkeys("BDFGPUV", 4),
    **dict.fromkeys("HQZ", 2),
    SCARAB: 2,
}
TOTAL_TILES = sum(COUNTS.values())
assert TOTAL_TILES == 130

_LETTER_VALUES = {
    "A": 1, "B": 4, "C": 1, "D": 4, "E": 1, "F": 4, "G": 4, "H": 8, "I": 1, "L": 2, "M": 2,
    "N": 2, "O": 1, "P": 3, "Q": 10, "R": 1, "S": 1, "T": 1, "U": 4, "V": 4, "Z": 8,
}  # fmt: skip

#: Value of a tile as it stands on the board: a scarab (lowercase) is worth its letter.
VALUES: dict[str, int] = {**_LETTER_VALUES, **{k.lower(): v for k, v in _LETTER_VALUES.items()}}


def full_set() -> list[str]:
    """The 130 tiles in a fixed order (letters alphabetically, then the scarabs)."""
    return [tile for tile, n in COUNTS.items() for _ in range(n)]


def rack_value(rack: Iterable[str]) -> int:
    """What a rack is worth at the end of the game: letter values, each scarab 30."""
    return sum(SCARAB_RACK_VALUE if t == SCARAB else _LETTER_VALUES[t] for t in rack)


def tile_of(board_char: str) -> str:
    """The tile that a board square holds: the letter, or ``?`` for a scarab."""
    return SCARAB if board_char.islower() else board_char


def sort_rack(rack: Iterable[str]) -> str:
    """A rack in canonical order (alphabet order, scarabs last) as a string."""
    return "".join(sorted(rack, key=lambda t: (t == SCARAB, t)))
