"""Square grids as bitboards: square ``row * width + col`` is bit ``1 << that``.

Python ints make 100-bit (or 36-bit) sets cheap, and a whole neighbourhood or flood-fill step is a
handful of shifts, which matters in WebAssembly where per-square loops are slow.
"""

from __future__ import annotations

from collections.abc import Iterator

from game.core import NotationError


class Grid:
    """Geometry of a ``width`` x ``height`` board: masks, neighbours, square names."""

    __slots__ = ("width", "height", "size", "full", "not_first_col", "not_last_col")

    def __init__(self, width: int, height: int) -> None:
        self.width = width
        self.height = height
        self.size = width * height
        self.full = (1 << self.size) - 1
        first = 0
        last = 0
        for r in range(height):
            first |= 1 << (r * width)
            last |= 1 << (r * width + width - 1)
        self.not_first_col = self.full & ~first
        self.not_last_col = self.full & ~last

    def neighbours(self, mask: int) -> int:
        """Squares sharing an edge with ``mask`` (may include squares of ``mask`` itself)."""
        w = self.width
        return (
            ((mask << 1) & self.not_first_col)
            | ((mask >> 1) & self.not_last_col)
            | ((mask << w) & self.full)
            | (mask >> w)
        )

    def components(self, within: int) -> list[int]:
        """All edge-connected parts of ``within``, ordered by their lowest square."""
        out: list[int] = []
        rest = within
        while rest:
            low = rest & -rest
            comp = low
            while True:
                grown = (comp | self.neighbours(comp)) & within
                if grown == comp:
                    break
                comp = grown
            out.append(comp)
            rest &= ~comp
        return out

    # --- names ---------------------------------------------------------------------------
    def name(self, square: int) -> str:
        return chr(ord("A") + square % self.width) + str(square // self.width + 1)

    def parse_square(self, text: str, where: str = "") -> int:
        """``E5`` -> square index; raises NotationError naming the text."""
        ctx = where or text
        # ASCII only: "ß".upper() is two letters and "²".isdigit() is true, yet int("²") fails.
        if not 2 <= len(text) <= 3 or not text.isascii() or not text[0].isalpha() or not text[1:].isdigit():
            raise NotationError(f"{text!r} is not a square like A1", ctx, 0)
        col = ord(text[0].upper()) - ord("A")
        row = int(text[1:]) - 1
        if not (0 <= col < self.width and 0 <= row < self.height):
            last = chr(ord("A") + self.width - 1)
            raise NotationError(f"square {text} is off the board (A1-{last}{self.height})", ctx, 0)
        return row * self.width + col

    def parse_placement(self, raw: str, text: str, at: int, thing: str, example: str) -> tuple[int, int]:
        """The ``<orientation 0-7>@<square>`` that follows a tile's or piece's name of ``at``
        characters in ``raw`` (the stripped move ``text``): (orientation, square). Raises
        NotationError at the character that is wrong, ``thing`` and ``example`` in the message."""
        if len(raw) <= at or raw[at] not in "01234567":
            raise NotationError(f"the {thing} must be followed by an orientation 0-7", text, at)
        if len(raw) <= at + 1 or raw[at + 1] != "@":
            raise NotationError(f"expected '@' after the orientation, as in {example}", text, at + 1)
        try:
            square = self.parse_square(raw[at + 2:], text)
        except NotationError as err:
            raise NotationError(err.message, text, at + 2) from None
        return int(raw[at]), square

    def squares(self, mask: int) -> Iterator[int]:
        while mask:
            low = mask & -mask
            yield low.bit_length() - 1
            mask ^= low

    def names(self, mask: int) -> list[str]:
        return [self.name(s) for s in self.squares(mask)]


SITE = Grid(10, 10)
