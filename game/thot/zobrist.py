"""Zobrist keys for the transposition table, drawn once from the seeded generator.

A position's key covers the board, the priest, the axis, the player to move and how many scarabs
of each kind every seat holds (same-valued scarabs are interchangeable, so counts, not pieces).
"""

from __future__ import annotations

from game.core import Rng
from game.thot.board import ANKH, SCARAB_CODES

MAX_SQUARES = 100
MAX_SEATS = 4
MAX_COUNT = 8

#: Compact index of each cell code (ankh and the 24 scarab codes) into the key tables.
CODE_INDEX = [0] * 128
for _i, _c in enumerate((ANKH, *SCARAB_CODES)):
    CODE_INDEX[_c] = _i
N_CODES = 1 + len(SCARAB_CODES)

_rng = Rng(0x7407_5CA8_AB00)
#: ``PIECE[square * N_CODES + CODE_INDEX[code]]``
PIECE = [_rng.next64() for _ in range(MAX_SQUARES * N_CODES)]
PRIEST = [_rng.next64() for _ in range(MAX_SQUARES)]
#: ``AXIS[axis + 1]`` for ANY (−1), ROW (0), COLUMN (1).
AXIS = [_rng.next64() for _ in range(3)]
MOVER = [_rng.next64() for _ in range(MAX_SEATS)]
#: ``HELD[(seat * N_CODES + CODE_INDEX[code]) * MAX_COUNT + count]``
HELD = [_rng.next64() for _ in range(MAX_SEATS * N_CODES * MAX_COUNT)]
#: Mixed into a key when a search's values depend on whose point of view it takes (paranoid).
ROOT = [_rng.next64() for _ in range(MAX_SEATS)]
