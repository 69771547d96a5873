"""Text notation of the Game of Thot: moves and the one-line position.

Moves (rules.md §2): the destination ``C7``; a turning move, marked square then destination,
``C3>F3``; an ankh drop after either, ``C7@E5:-8`` (land on the ankh at C7, put a −8 on E5).
A trailing ``*`` on the dropped value (``C7@E5:-4*``) names the yellow-marked copy; without it an
unmarked copy is dropped when the player holds one.

Position, five fields separated by single spaces::

    <board> <axis> <to-move> <collections> <options>

- board: rows top to bottom (row 1 first) separated by ``/``; in a row, a scarab is its signed
  value (``+8``, ``-3``) followed by ``*`` when marked, ``A`` an ankh, ``P`` the priest, and a
  number a run of empty squares. Ten rows of ten squares, or eight of eight for the short game.
- axis: the line the next move must use: ``r`` (along the row), ``c`` (along the column),
  ``-`` (either way: the first move).
- to-move: the seat to move, 0-based.
- collections: one group per seat in seat order, separated by ``/``; each the collected scarabs
  in the board's scarab notation, or ``.`` when empty. The number of groups is the player count.
- options: ``-`` or a comma-separated list of ``turnoff`` and ``teams``.

Example (two players, nothing taken yet): ``+3-8A…/…/… - 0 ./. -``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from game.core import NotationError
from game.thot.board import (
    ANKH,
    ANY,
    COLUMN,
    EMPTY,
    FULL_SIZE,
    MARKED,
    MARKED_VALUES,
    ROW,
    SHORT_SIZE,
    VALUE,
    Geometry,
    code_of,
)
from game.thot.moves import ThotMove

AXIS_TEXT = {ROW: "r", COLUMN: "c", ANY: "-"}
TEXT_AXIS = {v: k for k, v in AXIS_TEXT.items()}
OPTION_NAMES = ("turnoff", "teams")

# [0-9], not \d: \d also matches other scripts' digits, which the notation never writes.
_SQUARE = r"([A-Za-z])([0-9]{1,2})"
_MOVE_RE = re.compile(
    rf"^{_SQUARE}(?:>{_SQUARE})?(?:@{_SQUARE}:([+-]?)([0-9])(\*?))?$"
)
_TOKEN_RE = re.compile(r"([+-])([1-8])(\*?)|(A)|(P)|([0-9]+)")
_SCARAB_RE = re.compile(r"([+-])([1-8])(\*?)")


@dataclass(frozen=True)
class MoveText:
    """A parsed move before the drop value is matched against the mover's collection."""

    dest: int
    turn: int | None
    drop: int | None
    value: int
    marked: bool


def scarab_text(code: int) -> str:
    value = VALUE[code]
    return f"{value:+d}" + ("*" if MARKED[code] else "")


def format_move(geo: Geometry, move: ThotMove) -> str:
    text = geo.name(move.dest)
    if move.turn is not None:
        text = f"{geo.name(move.turn)}>{text}"
    if move.drop is not None:
        text += f"@{geo.name(move.drop)}:{scarab_text(move.piece)}"
    return text


def _square(geo: Geometry, text: str, letter: str, digits: str, at: int) -> int:
    index = geo.index(letter + digits)
    if index is None:
        raise NotationError(
            f"square {letter.upper()}{digits} is not on the {geo.size}×{geo.size} board", text, at
        )
    return index


def parse_move(geo: Geometry, text: str) -> MoveText:
    raw = text.strip()
    m = _MOVE_RE.match(raw)
    if not m:
        raise NotationError(
            "a move is a square (C7), a turn then a square (C3>F3), optionally followed by an "
            "ankh drop (@E5:-8)",
            text,
            _first_bad(raw),
        )
    first = _square(geo, raw, m.group(1), m.group(2), m.start(1))
    if m.group(3):
        turn: int | None = first
        dest = _square(geo, raw, m.group(3), m.group(4), m.start(3))
    else:
        turn, dest = None, first
    drop: int | None = None
    value, marked = 0, False
    if m.group(5):
        drop = _square(geo, raw, m.group(5), m.group(6), m.start(5))
        digit = int(m.group(8))
        if not 1 <= digit <= 8:
            raise NotationError(
                f"a scarab value is -8…-1 or +1…+8, not {m.group(7)}{digit}", raw, m.start(7)
            )
        value = -digit if m.group(7) == "-" else digit
        marked = m.group(9) == "*"
        if marked and value not in MARKED_VALUES:
            raise NotationError(f"no {value:+d} scarab carries the yellow mark", raw, m.start(9))
    return MoveText(dest, turn, drop, value, marked)


_SQ = r"[A-Za-z][0-9]{1,2}"
_PART = r"[A-Za-z][0-9]{0,2}"
#: Every prefix that can still grow into a move: used to point at the first wrong character.
_PREFIX_RE = re.compile(
    rf"|{_PART}|{_SQ}>(?:{_PART})?|{_SQ}(?:>{_SQ})?@(?:{_PART})?|{_SQ}(?:>{_SQ})?@{_SQ}:[+-]?[0-9]?\*?"
)


def _first_bad(raw: str) -> int:
    """Where a move stops looking like notation: just past its longest well-formed prefix."""
    for end in range(len(raw), -1, -1):
        if _PREFIX_RE.fullmatch(raw[:end]):
            return min(end, max(len(raw) - 1, 0))
    return 0  # pragma: no cover - the empty prefix always matches


@dataclass
class PositionData:
    size: int
    board: list[int]
    priest: int
    axis: int
    to_move: int
    collections: list[list[int]]
    turnoff: bool
    teams: bool


def format_position(data: PositionData) -> str:
    size = data.size
    rows = []
    for r in range(size):
        out: list[str] = []
        run = 0
        for c in range(size):
            i = r * size + c
            cell = data.board[i]
            if i == data.priest:
                token = "P"
            elif cell == EMPTY:
                run += 1
                continue
            elif cell == ANKH:
                token = "A"
            else:
                token = scarab_text(cell)
            if run:
                out.append(str(run))
                run = 0
            out.append(token)
        if run:
            out.append(str(run))
        rows.append("".join(out))
    colls = "/".join("".join(scarab_text(c) for c in coll) or "." for coll in data.collections)
    opts = ",".join(name for name, on in zip(OPTION_NAMES, (data.turnoff, data.teams), strict=True) if on) or "-"
    return f"{'/'.join(rows)} {AXIS_TEXT[data.axis]} {data.to_move} {colls} {opts}"


#: The longest real position (a full board of marked scarabs and four collections) is under
#: 700 characters; anything much longer is refused before it is split or scanned.
MAX_POSITION_CHARS = 2000


def _digits_shown(digits: str) -> str:
    return digits if len(digits) <= 8 else digits[:6] + "…"


def parse_position(text: str) -> PositionData:
    if not isinstance(text, str):
        raise NotationError("a position must be text")
    if len(text) > MAX_POSITION_CHARS:
        raise NotationError(f"position is {len(text)} characters long (at most {MAX_POSITION_CHARS})")
    fields = text.strip().split(" ")
    if len(fields) != 5 or not all(fields):
        raise NotationError(
            "a position has five fields separated by single spaces: board, axis, player to move, "
            f"collections, options (found {len([f for f in fields if f])})",
            text,
        )
    board_text, axis_text, mover_text, coll_text, opt_text = fields
    offset = 0
    rows = board_text.split("/")
    size = len(rows)
    if size not in (FULL_SIZE, SHORT_SIZE):
        raise NotationError(
            f"the board has {size} rows; it must have {FULL_SIZE} (or {SHORT_SIZE} for the short game)",
            text,
            0,
        )
    board: list[int] = []
    priests: list[int] = []
    for r, row in enumerate(rows):
        pos = 0
        start = len(board)
        while pos < len(row):
            m = _TOKEN_RE.match(row, pos)
            if not m:
                raise NotationError(
                    f"row {r + 1}: expected a scarab (+8, -3*), A, P or a number of empty squares",
                    text,
                    offset + pos,
                )
            if m.group(1):
                value = int(m.group(2)) * (1 if m.group(1) == "+" else -1)
                marked = m.group(3) == "*"
                if marked and value not in MARKED_VALUES:
                    raise NotationError(f"row {r + 1}: no {value:+d} scarab is marked", text, offset + pos)
                board.append(code_of(value, marked))
            elif m.group(4):
                board.append(ANKH)
            elif m.group(5):
                priests.append(len(board))
                board.append(EMPTY)
            else:
                # Bounded by the squares left in the row before the number is converted or
                # expanded, so "99…9" costs neither a huge int nor a huge list.
                digits = m.group(6)
                left = size - (len(board) - start)
                significant = digits.lstrip("0") or "0"
                if len(significant) > 2 or int(significant) > left:
                    raise NotationError(
                        f"row {r + 1} is longer than {size} squares: a run of {_digits_shown(digits)} "
                        f"empty squares does not fit in the {left} left",
                        text,
                        offset + pos,
                    )
                run = int(significant)
                if run == 0:
                    raise NotationError(f"row {r + 1}: an empty run of 0 squares", text, offset + pos)
                board.extend([EMPTY] * run)
            pos = m.end()
        if len(board) - start != size:
            raise NotationError(
                f"row {r + 1} has {len(board) - start} squares, not {size}", text, offset
            )
        offset += len(row) + 1
    if len(priests) != 1:
        raise NotationError(f"the board must hold exactly one priest P, not {len(priests)}", text, 0)
    if axis_text not in TEXT_AXIS:
        raise NotationError("the axis is r (row), c (column) or - (either way)", text, offset)
    offset += len(axis_text) + 1
    if not (mover_text.isascii() and mover_text.isdigit()) or len(mover_text) > 1:
        raise NotationError("the player to move is a seat number 0-3", text, offset)
    to_move = int(mover_text)
    offset += len(mover_text) + 1
    collections: list[list[int]] = []
    for seat, group in enumerate(coll_text.split("/")):
        coll: list[int] = []
        if group != ".":
            pos = 0
            while pos < len(group):
                m = _SCARAB_RE.match(group, pos)
                if not m:
                    raise NotationError(
                        f"collection of seat {seat}: expected a scarab such as +8 or -4*", text, offset + pos
                    )
                value = int(m.group(2)) * (1 if m.group(1) == "+" else -1)
                marked = m.group(3) == "*"
                if marked and value not in MARKED_VALUES:
                    raise NotationError(
                        f"collection of seat {seat}: no {value:+d} scarab is marked", text, offset + pos
                    )
                coll.append(code_of(value, marked))
                pos = m.end()
        collections.append(coll)
        offset += len(group) + 1
    opts = set() if opt_text == "-" else set(opt_text.split(","))
    unknown = opts - set(OPTION_NAMES)
    if unknown:
        raise NotationError(
            f"unknown option {sorted(unknown)[0]!r}; options are - or turnoff,teams", text, offset
        )
    return PositionData(
        size=size,
        board=board,
        priest=priests[0],
        axis=TEXT_AXIS[axis_text],
        to_move=to_move,
        collections=collections,
        turnoff="turnoff" in opts,
        teams="teams" in opts,
    )
