"""The one-line position (rules.md §1, like CGP): board rows, racks, scores, idle turns.

``17/17/…/17 CONTARE?/ 0/0 0`` — rows top to bottom separated by ``/``, a letter per tile
(lowercase = scarab standing for it), a number for a run of empty squares; the racks, player to
move first (``?`` = scarab, ``_`` = a tile this seat cannot see); the scores in the same order;
the count of turns in a row without a tile placed. The bag is the set less the board and the racks
(all of it hidden when a rack holds a hidden tile: whoever cannot see a rack cannot see the bag).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from game.core import NotationError
from game.scarabeo.board import CENTRE, NEIGHBOURS, SIZE, SQUARES, square_name
from game.scarabeo.tiles import (
    COUNTS, HIDDEN, LETTERS, MAX_PLAYERS, MIN_PLAYERS, RACK_SIZE, SCARAB, tile_of,
)

MAX_POSITION_CHARS = 2000
_BOARD_LETTERS = frozenset(LETTERS) | frozenset(LETTERS.lower())


@dataclass(frozen=True)
class PositionData:
    board: tuple[str, ...]  # 289 squares, "" empty
    racks: tuple[str, ...]  # player to move first
    scores: tuple[int, ...]
    idle: int

    def bag(self) -> list[str]:
        """The tiles not on the board nor on a rack, in set order (every one ``HIDDEN`` when a rack
        holds a hidden tile)."""
        if any(HIDDEN in r for r in self.racks):
            on_board = sum(1 for c in self.board if c)
            return [HIDDEN] * (sum(COUNTS.values()) - on_board - sum(len(r) for r in self.racks))
        left = Counter(COUNTS)
        left.subtract(tile_of(c) for c in self.board if c)
        left.subtract(t for r in self.racks for t in r)
        return [t for t in COUNTS for _ in range(left[t])]


def format_board(board: list[str] | tuple[str, ...]) -> str:
    rows = []
    for r in range(SIZE):
        out, run = [], 0
        for c in range(SIZE):
            ch = board[r * SIZE + c]
            if ch:
                if run:
                    out.append(str(run))
                    run = 0
                out.append(ch)
            else:
                run += 1
        if run:
            out.append(str(run))
        rows.append("".join(out))
    return "/".join(rows)


def format_position(data: PositionData) -> str:
    return " ".join(
        (format_board(data.board), "/".join(data.racks), "/".join(map(str, data.scores)), str(data.idle))
    )


def is_digits(text: str) -> bool:
    """ASCII digits only: ``str.isdigit()`` alone also accepts "²", which ``int()`` refuses."""
    return text.isascii() and text.isdigit()


def _int(text: str, field: str, where: int, full: str) -> int:
    body = text[1:] if text.startswith("-") else text
    if not is_digits(body) or len(body) > 9:
        raise NotationError(f"{field} {text!r} is not a whole number", full, where)
    return int(text)


def parse_position(text: str) -> PositionData:
    """Read a position; raise ``NotationError`` naming the field, row or tile that is wrong."""
    if not isinstance(text, str):
        raise NotationError("a position must be text")
    if len(text) > MAX_POSITION_CHARS:
        raise NotationError(f"position is {len(text)} characters long (at most {MAX_POSITION_CHARS})")
    text = text.strip()  # a pasted position often brings a newline
    fields = text.split(" ")
    if len(fields) != 4 or not all(fields):
        raise NotationError(
            f"a position has 4 fields separated by single spaces (board, racks, scores, "
            f"idle turns); found {len([f for f in fields if f])}",
            text,
        )
    board_text, racks_text, scores_text, idle_text = fields
    offsets = [0]
    for f in fields[:-1]:
        offsets.append(offsets[-1] + len(f) + 1)
    board = _parse_board(board_text, text)
    racks = racks_text.split("/")
    if not MIN_PLAYERS <= len(racks) <= MAX_PLAYERS:
        raise NotationError(f"{len(racks)} racks: Scarabeo is for 2-4 players", text, offsets[1])
    at = offsets[1]
    for i, rack in enumerate(racks):
        for j, ch in enumerate(rack):
            # HIDDEN: a tile this seat cannot see (a seat's masked position, game.scarabeo.public).
            if ch not in LETTERS and ch != SCARAB and ch != HIDDEN:
                raise NotationError(f"rack {i + 1}: {ch!r} is not a tile (letters, ? or _)",
                                    text, at + j)
        if len(rack) > RACK_SIZE:
            raise NotationError(f"rack {i + 1} holds {len(rack)} tiles (at most 8)", text, at)
        at += len(rack) + 1
    score_parts = scores_text.split("/")
    if len(score_parts) != len(racks):
        raise NotationError(f"{len(score_parts)} scores for {len(racks)} racks", text, offsets[2])
    at = offsets[2]
    scores = []
    for part in score_parts:
        scores.append(_int(part, "score", at, text))
        at += len(part) + 1
    idle = _int(idle_text, "idle-turn count", offsets[3], text)
    if idle < 0:
        raise NotationError("the idle-turn count cannot be negative", text, offsets[3])
    data = PositionData(tuple(board), tuple(racks), tuple(scores), idle)
    _check_tiles(data, text)
    _check_shape(board, text)
    return data


def _parse_board(board_text: str, full: str) -> list[str]:
    rows = board_text.split("/")
    if len(rows) != SIZE:
        raise NotationError(f"the board has {len(rows)} rows, not 17", full, 0)
    board: list[str] = []
    at = 0
    for r, row in enumerate(rows):
        cells: list[str] = []
        i = 0
        while i < len(row):
            ch = row[i]
            if "0" <= ch <= "9":
                j = i
                while j < len(row) and "0" <= row[j] <= "9":
                    j += 1
                # Bounded by the squares left in the row before the number is converted or
                # expanded, so "99…9" costs neither a huge int nor a huge list.
                left = SIZE - len(cells)
                significant = row[i:j].lstrip("0") or "0"
                if len(significant) > 2 or int(significant) > left:
                    digits = row[i:j] if j - i <= 8 else row[i:i + 6] + "…"
                    raise NotationError(
                        f"row {r + 1} is longer than 17 squares: a run of {digits} empty squares "
                        f"does not fit in the {left} left",
                        full, at + i)
                n = int(row[i:j])
                if n == 0:
                    raise NotationError(f"row {r + 1}: an empty run of 0 squares", full, at + i)
                cells.extend([""] * n)
                i = j
            elif ch in _BOARD_LETTERS:
                cells.append(ch)
                i += 1
            else:
                raise NotationError(f"row {r + 1}: {ch!r} is not a letter of the set or a number",
                                    full, at + i)
            if len(cells) > SIZE:
                raise NotationError(f"row {r + 1} is longer than 17 squares", full, at + i - 1)
        if len(cells) != SIZE:
            raise NotationError(f"row {r + 1} has {len(cells)} squares, not 17", full, at)
        board.extend(cells)
        at += len(row) + 1
    return board


def _check_tiles(data: PositionData, full: str) -> None:
    used = Counter(tile_of(c) for c in data.board if c)
    used.update(t for r in data.racks for t in r)
    for tile in COUNTS:
        if used[tile] > COUNTS[tile]:
            what = "scarabs" if tile == SCARAB else f"{tile} tiles"
            raise NotationError(
                f"{used[tile]} {what} on the board and racks, but the set has {COUNTS[tile]}", full
            )


def _check_shape(board: list[str], full: str) -> None:
    """Tiles on the board must cover I9 and hang together, as plays leave them."""
    tiles = [sq for sq in range(SQUARES) if board[sq]]
    if not tiles:
        return
    if not board[CENTRE]:
        raise NotationError("the board has tiles but none on the centre square I9", full)
    seen = {CENTRE}
    todo = [CENTRE]
    while todo:
        sq = todo.pop()
        for n in NEIGHBOURS[sq]:
            if board[n] and n not in seen:
                seen.add(n)
                todo.append(n)
    if len(seen) != len(tiles):
        loose = next(sq for sq in tiles if sq not in seen)
        raise NotationError(f"the tile on {square_name(loose)} is not connected to the centre", full)
