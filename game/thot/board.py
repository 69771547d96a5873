"""Pieces, cell codes, board geometry and the seeded setup of the Game of Thot.

Everything the search touches is a flat list of ints, so the hot loops never build objects:

- a cell is ``EMPTY`` (0), ``ANKH`` (64) or a scarab code: its value (−8…−1, +1…+8), moved
  16 further from zero when the scarab carries the yellow mark (+3 marked = 19, −2 marked = −18);
- the priest is not on the board list: its square index is kept apart, and its cell reads 0;
- squares are numbered row by row, ``index = row * size + column`` (A1 = 0).

``VALUE[code]`` and ``MARKED[code]`` are 128-long tables; a negative code indexes from the end,
which Python does for free, so they work for every code without an offset.
"""

from __future__ import annotations

from functools import lru_cache

from game.core import Rng

EMPTY = 0
ANKH = 64
MARK = 16
#: Board sizes: the full game and the short game (the inner 8×8 played as a board of its own).
FULL_SIZE = 10
SHORT_SIZE = 8
ANKHS = 3
COPIES = 6
#: Values that have one yellow-marked piece among their six copies.
MARKED_VALUES = (-4, -3, -2, -1, 1, 2, 3, 4)

# Axis of the next move: along the row (horizontal), along the column (vertical), or either.
ROW = 0
COLUMN = 1
ANY = -1
AXIS_NAMES = {ROW: "row", COLUMN: "column", ANY: None}

# Ray directions: 0 left, 1 right (along the row), 2 up, 3 down (along the column).
DIRS_BY_AXIS = {ROW: (0, 1), COLUMN: (2, 3), ANY: (0, 1, 2, 3)}
PERPENDICULAR = ((2, 3), (2, 3), (0, 1), (0, 1))

COLUMN_LETTERS = "ABCDEFGHIJ"


def code_of(value: int, marked: bool = False) -> int:
    """The cell code of a scarab of ``value`` (±1…±8), marked or not."""
    if not marked:
        return value
    return value + MARK if value > 0 else value - MARK


def _tables() -> tuple[list[int], list[bool]]:
    value = [0] * 128
    marked = [False] * 128
    for v in range(1, 9):
        for sign in (1, -1):
            value[sign * v] = sign * v
            value[code_of(sign * v, True)] = sign * v
            marked[code_of(sign * v, True)] = True
    return value, marked


VALUE, MARKED = _tables()

#: Every scarab code, most negative value first, unmarked before marked (the order drops prefer).
SCARAB_CODES: tuple[int, ...] = tuple(
    c
    for v in (*range(-8, 0), *range(1, 9))
    for c in ((v, code_of(v, True)) if v in MARKED_VALUES else (v,))
)
NEGATIVE_CODES: tuple[int, ...] = tuple(c for c in SCARAB_CODES if VALUE[c] < 0)


def is_scarab(code: int) -> bool:
    return code != EMPTY and code != ANKH


def scarab_set(short: bool) -> dict[int, int]:
    """How many pieces of each scarab code the game uses (96, or 60 for the short game)."""
    counts: dict[int, int] = {}
    for v in (*range(-8, 0), *range(1, 9)):
        # The short game removes two (|v| >= 3) or three (|v| <= 2) unmarked copies.
        keep = COPIES - ((2 if abs(v) >= 3 else 3) if short else 0)
        if v in MARKED_VALUES:
            counts[code_of(v, True)] = 1
            keep -= 1
        counts[v] = keep
    return counts


def setup(size: int, seed: int) -> tuple[list[int], int]:
    """Shuffle the set onto the board with the seeded generator; the priest takes the last square."""
    pieces: list[int] = []
    for code, n in sorted(scarab_set(size == SHORT_SIZE).items()):
        pieces.extend([code] * n)
    pieces.extend([ANKH] * ANKHS)
    if len(pieces) != size * size - 1:
        raise AssertionError("the set does not fill the board")  # pragma: no cover
    Rng(seed).shuffle(pieces)
    # The rulebook pours the pieces on and puts the priest on the one square left; drawing the
    # free square from the same generator keeps it random but reproducible.
    rng = Rng(seed ^ 0x5CA8AB)
    priest = rng.below(size * size)
    board = pieces[:priest] + [EMPTY] + pieces[priest:]
    return board, priest


class Geometry:
    """Square names and the four rays from every square, for one board size."""

    __slots__ = ("size", "names", "rays", "lines")

    def __init__(self, size: int) -> None:
        self.size = size
        n = size * size
        self.names = [f"{COLUMN_LETTERS[i % size]}{i // size + 1}" for i in range(n)]
        rays: list[tuple[tuple[int, ...], ...]] = []
        lines: list[tuple[int, ...]] = []
        for i in range(n):
            r, c = divmod(i, size)
            left = tuple(r * size + k for k in range(c - 1, -1, -1))
            right = tuple(r * size + k for k in range(c + 1, size))
            up = tuple(k * size + c for k in range(r - 1, -1, -1))
            down = tuple(k * size + c for k in range(r + 1, size))
            rays.append((left, right, up, down))
            lines.append(left + right + up + down)
        self.rays = rays
        #: Every other square in the same row or column.
        self.lines = lines

    def name(self, index: int) -> str:
        return self.names[index]

    def index(self, name: str) -> int | None:
        """The index of a square name such as ``C7``, or None when it is not on this board."""
        # ASCII only: str.isdigit() also accepts "²", which int() refuses.
        if not 2 <= len(name) <= 3 or not name.isascii() or not name[1:].isdigit():
            return None
        col = COLUMN_LETTERS.find(name[0].upper())
        row = int(name[1:]) - 1
        if col < 0 or col >= self.size or not 0 <= row < self.size:
            return None
        return row * self.size + col

    def same_row(self, a: int, b: int) -> bool:
        return a // self.size == b // self.size


@lru_cache(maxsize=None)
def geometry(size: int) -> Geometry:
    return Geometry(size)
