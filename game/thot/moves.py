"""The move value of the Game of Thot and its packing into one int for the search.

A move is where the priest stops (``dest``), the marked square it turned on (``turn``, turn-off
variant only) and, after landing on an ankh, the empty square (``drop``) that receives one of the
mover's collected scarabs (``piece``, a cell code from ``board``: value, plus the mark).

Packed form (the search's currency; 7 bits a square, so boards up to 11×11):
``dest | (turn + 1) << 7 | (drop + 1) << 14 | (piece + 32) << 21``, a missing part being 0.
"""

from __future__ import annotations

from dataclasses import dataclass

SQUARE_MASK = 127


@dataclass(frozen=True, slots=True)
class ThotMove:
    dest: int
    turn: int | None = None
    drop: int | None = None
    piece: int = 0

    @property
    def code(self) -> int:
        code = self.dest
        if self.turn is not None:
            code |= (self.turn + 1) << 7
        if self.drop is not None:
            code |= (self.drop + 1) << 14 | (self.piece + 32) << 21
        return code

    @classmethod
    def from_code(cls, code: int) -> "ThotMove":
        turn = (code >> 7) & SQUARE_MASK
        drop = (code >> 14) & SQUARE_MASK
        return cls(
            dest=code & SQUARE_MASK,
            turn=turn - 1 if turn else None,
            drop=drop - 1 if drop else None,
            piece=(code >> 21) - 32 if drop else 0,
        )
