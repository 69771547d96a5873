"""The Scarabya set of rules.md §3: the four 5x5 boards, layouts, and the 12 pentomino tiles."""

from __future__ import annotations

from dataclasses import dataclass

from game.core import NotationError, Rng
from game.scarabya.grid import SITE
from game.scarabya.shapes import Shape, build_shape

#: The four boards, rows top to bottom (R rock, S scarab symbol, . plain).
BOARDS: tuple[tuple[str, ...], ...] = (
    ("..S..", ".R..S", "S..S.", "..SR.", ".S..."),
    (".S...", "...R.", ".SS.S", "R..S.", "..S.."),
    ("...S.", "SR...", "..S.S", ".S.R.", "...S."),
    ("..S..", ".S..R", "S.SS.", ".R...", "...S."),
)

#: Tiles in the order rules.md lists them; the mission deck is a string of these letters.
TILE_DRAWINGS: dict[str, str] = {
    "F": ".##/##./.#.",
    "I": "#####",
    "L": "####/#...",
    "N": "##../.###",
    "P": "##/##/#.",
    "T": "###/.#./.#.",
    "U": "#.#/###",
    "V": "#../#../###",
    "W": "#../##./.##",
    "X": ".#./###/.#.",
    "Y": "####/.#..",
    "Z": "##./.#./.##",
}
TILE_NAMES = "".join(TILE_DRAWINGS)
TILES: dict[str, Shape] = {name: build_shape(name, d, SITE) for name, d in TILE_DRAWINGS.items()}

#: E5, F5, E6, F6: the first tile must cover one of them.
CENTRE = sum(1 << SITE.parse_square(s) for s in ("E5", "F5", "E6", "F6"))
QUADRANTS = ("NW", "NE", "SW", "SE")


def turn_board(rows: tuple[str, ...], turns: int) -> tuple[str, ...]:
    """The board turned clockwise ``turns`` quarter-turns."""
    cur = [list(r) for r in rows]
    for _ in range(turns % 4):
        n = len(cur)
        cur = [[cur[n - 1 - c][r] for c in range(n)] for r in range(n)]
    return tuple("".join(r) for r in cur)


@dataclass(frozen=True)
class Layout:
    """A board (1-4) and a clockwise quarter-turn count (0-3) for NW, NE, SW, SE."""

    boards: tuple[int, int, int, int]
    turns: tuple[int, int, int, int]

    def text(self) -> str:
        return "-".join(f"{b}.{t}" for b, t in zip(self.boards, self.turns))

    @classmethod
    def parse(cls, text: str) -> Layout:
        parts = text.strip().split("-")
        if len(parts) != 4:
            raise NotationError("a layout is four board.turns pairs like 1.0-2.3-3.1-4.2", text)
        boards: list[int] = []
        turns: list[int] = []
        offset = 0
        for quad, part in zip(QUADRANTS, parts):
            if len(part) != 3 or part[1] != "." or part[0] not in "1234" or part[2] not in "0123":
                raise NotationError(
                    f"{quad} quadrant {part!r} must be a board 1-4, a dot and turns 0-3", text, offset
                )
            boards.append(int(part[0]))
            turns.append(int(part[2]))
            offset += len(part) + 1
        if sorted(boards) != [1, 2, 3, 4]:
            raise NotationError(f"a layout uses each of the boards 1-4 once, not {boards}", text)
        return cls((boards[0], boards[1], boards[2], boards[3]), (turns[0], turns[1], turns[2], turns[3]))

    @classmethod
    def shuffled(cls, rng: Rng) -> Layout:
        boards = [1, 2, 3, 4]
        rng.shuffle(boards)
        turns = [rng.below(4) for _ in range(4)]
        return cls((boards[0], boards[1], boards[2], boards[3]), (turns[0], turns[1], turns[2], turns[3]))

    def terrain(self) -> tuple[str, ...]:
        """The 10x10 site, ten rows of ``.RS`` characters."""
        quads = [turn_board(BOARDS[b - 1], t) for b, t in zip(self.boards, self.turns)]
        top = [quads[0][r] + quads[1][r] for r in range(5)]
        bottom = [quads[2][r] + quads[3][r] for r in range(5)]
        return tuple(top + bottom)

    def masks(self) -> tuple[int, int]:
        """(rocks, symbols) as site bitboards."""
        rocks = symbols = 0
        for r, row in enumerate(self.terrain()):
            for c, ch in enumerate(row):
                if ch == "R":
                    rocks |= 1 << (r * 10 + c)
                elif ch == "S":
                    symbols |= 1 << (r * 10 + c)
        return rocks, symbols


def parse_deck(text: str) -> str:
    """A mission deck: the 12 tile letters, each once, in draw order."""
    deck = text.strip().upper()
    for i, ch in enumerate(deck):
        if ch not in TILE_NAMES:
            raise NotationError(f"{ch!r} is not a tile (tiles are {TILE_NAMES})", text, i)
        if deck.index(ch) != i:
            raise NotationError(f"tile {ch} appears twice in the deck", text, i)
    if len(deck) != 12:
        missing = "".join(t for t in TILE_NAMES if t not in deck)
        raise NotationError(f"the deck must hold all 12 tiles once; missing {missing}", text)
    return deck


def shuffled_deck(rng: Rng) -> str:
    cards = list(TILE_NAMES)
    rng.shuffle(cards)
    return "".join(cards)
