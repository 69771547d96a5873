"""The 17×17 board as a flat list, its premium squares and its coordinates.

Squares are indices ``row * 17 + col`` (0-based). A square holds ``""`` when empty, an
uppercase letter for a letter tile, a lowercase letter for a scarab standing for it.
Premiums live in two flat int lists so that scoring is a few list lookups per letter.
"""

from __future__ import annotations

SIZE = 17
SQUARES = SIZE * SIZE
COLUMNS = "ABCDEFGHIJKLMNOPQ"
CENTRE = 8 * SIZE + 8  # I9
EMPTY = ""

# rules.md §1: W = 3P triple word, D = 2P double word, T = 3L, L = 2L, * = centre (no premium).
LAYOUT = (
    "W...L...W...L...W",
    ".D....T...T....D.",
    "..D....L.L....D..",
    "...D....L....D...",
    "L...D.......D...L",
    ".....D.....D.....",
    ".T....T...T....T.",
    "..L....L.L....L..",
    "W..L....*....L..W",
    "..L....L.L....L..",
    ".T....T...T....T.",
    ".....D.....D.....",
    "L...D.......D...L",
    "...D....L....D...",
    "..D....L.L....D..",
    ".D....T...T....D.",
    "W...L...W...L...W",
)
assert len(LAYOUT) == SIZE and all(len(r) == SIZE for r in LAYOUT)

_CELLS = "".join(LAYOUT)
LETTER_MULT: list[int] = [{"L": 2, "T": 3}.get(c, 1) for c in _CELLS]
WORD_MULT: list[int] = [{"D": 2, "W": 3}.get(c, 1) for c in _CELLS]
PREMIUM_NAMES = {"L": "2L", "T": "3L", "D": "2P", "W": "3P"}
#: Premium of each square as shown to players ("2L", "3L", "2P", "3P", "*" or "").
PREMIUMS: list[str] = [PREMIUM_NAMES.get(c, "*" if c == "*" else "") for c in _CELLS]


def new_board() -> list[str]:
    return [EMPTY] * SQUARES


def square_name(sq: int) -> str:
    """``I9`` style name (column letter, row number)."""
    return f"{COLUMNS[sq % SIZE]}{sq // SIZE + 1}"


def square_of(col: int, row: int) -> int:
    return row * SIZE + col


def parse_square(text: str) -> int:
    """Read ``I9`` (column letter then row); raise ValueError saying what is wrong."""
    t = text.strip().upper()
    if len(t) < 2 or t[0] not in COLUMNS or not t[1:].isdigit():
        raise ValueError(f"{text!r} is not a square (a column A-Q then a row 1-17, e.g. I9)")
    row = int(t[1:])
    if not 1 <= row <= SIZE:
        raise ValueError(f"row {row} of {text!r} is off the board (1-17)")
    return (row - 1) * SIZE + COLUMNS.index(t[0])


def neighbours(sq: int) -> list[int]:
    """Orthogonally adjacent squares."""
    r, c = divmod(sq, SIZE)
    out = []
    if r > 0:
        out.append(sq - SIZE)
    if r < SIZE - 1:
        out.append(sq + SIZE)
    if c > 0:
        out.append(sq - 1)
    if c < SIZE - 1:
        out.append(sq + 1)
    return out


NEIGHBOURS: list[list[int]] = [neighbours(sq) for sq in range(SQUARES)]


def is_empty(board: list[str]) -> bool:
    return not any(board)


def board_rows(board: list[str]) -> list[str]:
    """The board as 17 strings, ``.`` for an empty square (for views and debugging)."""
    return ["".join(board[r * SIZE + c] or "." for c in range(SIZE)) for r in range(SIZE)]
