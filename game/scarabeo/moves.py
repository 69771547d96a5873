"""Moves and their GCG-style notation (rules.md §1 "Notation").

- Play ``9F CONTARE`` (row first = across from F9), ``F9 CONTARE`` (column first = down).
  The whole word is written; lowercase = a scarab placed this turn standing for that letter; a
  letter already on the board may be written as itself or as ``.``.
- Pass ``-``; exchange ``-AEIOUAEI``; flying-scarab swaps come first: ``*I9 *C4 9F CONTARE``.
  An exchange as the table sees it gives only the count: ``-8`` (``Exchange("________")``, every
  tile ``HIDDEN``); the public record writes every exchange this way.
- Word-check disputes (this project's notation, see docs/scarabeo.md): ``!challenge 2`` (seat 2
  challenges the pending play; in vote mode ``!challenge 2 RAGAZZACCIO`` puts the words named, or
  without a word every word of the play, to the vote), ``!accept`` (the pending play stands),
  ``!vote YN-Y`` (one vote per seat in seat order: Y accept, N reject, - abstain).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from game.core import NotationError
from game.scarabeo.board import COLUMNS, SIZE, square_name
from game.scarabeo.position import is_digits
from game.scarabeo.tiles import HIDDEN, LETTERS, SCARAB

MAX_MOVE_CHARS = 200
_WORD_CHARS = frozenset(LETTERS) | frozenset(LETTERS.lower()) | {"."}
_RACK_CHARS = frozenset(LETTERS) | {SCARAB}


@dataclass(frozen=True)
class Play:
    """Tiles placed in one line, written as the whole word from ``start``."""

    start: int
    across: bool
    word: str
    swaps: tuple[int, ...] = ()

    @property
    def step(self) -> int:
        return 1 if self.across else SIZE

    def squares(self) -> list[int]:
        return [self.start + i * self.step for i in range(len(self.word))]


@dataclass(frozen=True)
class Pass:
    swaps: tuple[int, ...] = ()


@dataclass(frozen=True)
class Exchange:
    tiles: str
    swaps: tuple[int, ...] = ()


@dataclass(frozen=True)
class Challenge:
    """Seat ``seat`` (0-based) challenges the pending play: in challenge mode the lexicon decides;
    in vote mode the play is contested and ``words`` (all of the play's words when empty) go to
    the vote."""

    seat: int
    words: tuple[str, ...] = ()


@dataclass(frozen=True)
class Accept:
    """The pending play stands unchallenged (challenge mode)."""


@dataclass(frozen=True)
class Vote:
    """One vote per seat, in seat order: ``Y``, ``N`` or ``-`` (abstains)."""

    votes: str


Move = Union[Play, Pass, Exchange, Challenge, Accept, Vote]


def coord_text(start: int, across: bool) -> str:
    name = square_name(start)  # column letter + row
    return f"{name[1:]}{name[0]}" if across else name


def move_text(move: Move) -> str:
    if isinstance(move, Challenge):
        return " ".join([f"!challenge {move.seat + 1}", *move.words])
    if isinstance(move, Accept):
        return "!accept"
    if isinstance(move, Vote):
        return f"!vote {move.votes}"
    parts = [f"*{square_name(s)}" for s in move.swaps]
    if isinstance(move, Play):
        parts.append(f"{coord_text(move.start, move.across)} {move.word}")
    elif isinstance(move, Pass):
        parts.append("-")
    elif isinstance(move, Exchange):
        if move.tiles and set(move.tiles) == {HIDDEN}:
            parts.append(f"-{len(move.tiles)}")  # by count: the tiles are not known
        else:
            parts.append(f"-{move.tiles}")
    else:  # pragma: no cover - the union is closed
        raise TypeError(f"not a Scarabeo move: {move!r}")
    return " ".join(parts)


def _tokens(text: str) -> list[tuple[int, str]]:
    """Split on whitespace, keeping each token's character offset for error messages."""
    out, i = [], 0
    while i < len(text):
        if text[i].isspace():
            i += 1
            continue
        j = i
        while j < len(text) and not text[j].isspace():
            j += 1
        out.append((i, text[i:j]))
        i = j
    return out


def _square(text: str, tok: str, at: int) -> int:
    col = tok[:1].upper()
    if col not in COLUMNS:
        raise NotationError(f"{tok!r} is not a square: the column must be A-Q", text, at)
    if not is_digits(tok[1:]):
        raise NotationError(f"{tok!r} is not a square: a row number 1-17 must follow", text, at + 1)
    row = int(tok[1:])
    if not 1 <= row <= SIZE:
        raise NotationError(f"row {row} is off the board (1-17)", text, at + 1)
    return (row - 1) * SIZE + COLUMNS.index(col)


def parse_coord(text: str, tok: str, at: int) -> tuple[int, bool]:
    """``9F`` → (F9, across); ``F9`` → (F9, down)."""
    if is_digits(tok[:1]):
        i = 0
        while i < len(tok) and is_digits(tok[i]):
            i += 1
        row_text, col = tok[:i], tok[i:].upper()
        if len(col) != 1 or col not in COLUMNS:
            raise NotationError(
                f"{tok!r}: after the row a column letter A-Q must follow", text, at + i
            )
        row = int(row_text)
        if not 1 <= row <= SIZE:
            raise NotationError(f"row {row} is off the board (1-17)", text, at)
        return (row - 1) * SIZE + COLUMNS.index(col), True
    return _square(text, tok, at), False


def parse_move(text: str) -> Move:
    """Parse one move; raise ``NotationError`` naming what is wrong and where."""
    if not isinstance(text, str):
        raise NotationError("a move must be text")
    if len(text) > MAX_MOVE_CHARS:
        raise NotationError(f"move is {len(text)} characters long (at most {MAX_MOVE_CHARS})")
    toks = _tokens(text)
    if not toks:
        raise NotationError("empty move (write - to pass)", text, 0)
    at, first = toks[0]
    if first.startswith("!"):
        return _parse_meta(text, toks)
    swaps: list[int] = []
    while toks and toks[0][1].startswith("*"):
        at, tok = toks.pop(0)
        sq = _square(text, tok[1:], at + 1)
        if sq in swaps:
            raise NotationError(f"square {tok[1:]} is swapped twice", text, at)
        swaps.append(sq)
    if not toks:
        raise NotationError("flying-scarab swaps must be followed by a play, - or an exchange",
                            text, len(text))
    at, tok = toks[0]
    if tok.startswith("-"):
        if len(toks) > 1:
            raise NotationError("unexpected text after a pass or exchange", text, toks[1][0])
        if tok == "-":
            return Pass(tuple(swaps))
        tiles = tok[1:]
        if is_digits(tiles):
            if len(tiles) > 1 or not 1 <= int(tiles) <= 8:
                raise NotationError("an exchange by count returns 1-8 tiles (-8)", text, at + 1)
            return Exchange(HIDDEN * int(tiles), tuple(swaps))
        for i, ch in enumerate(tiles):
            if ch not in _RACK_CHARS:
                raise NotationError(
                    f"{ch!r} is not a tile (letters {LETTERS} or ? for a scarab)", text, at + 1 + i
                )
        if len(tiles) > 8:
            raise NotationError(f"an exchange returns 8 tiles, not {len(tiles)}", text, at)
        return Exchange(tiles, tuple(swaps))
    if len(toks) != 2:
        if len(toks) == 1:
            raise NotationError("a play needs a coordinate and a word, e.g. 9F CONTARE", text, at)
        raise NotationError("unexpected text after the word", text, toks[2][0])
    start, across = parse_coord(text, tok, at)
    wat, word = toks[1]
    for i, ch in enumerate(word):
        if ch not in _WORD_CHARS:
            raise NotationError(
                f"{ch!r} is not a letter of the Italian set ({LETTERS}) nor '.'", text, wat + i
            )
    if len(word) < 2:
        raise NotationError("a word has at least two letters", text, wat)
    col, row = start % SIZE, start // SIZE
    end = (col if across else row) + len(word)
    if end > SIZE:
        raise NotationError(
            f"{word} from {square_name(start)} runs off the board ({end - SIZE} square(s) too long)",
            text,
            wat,
        )
    return Play(start, across, word, tuple(swaps))


def _parse_meta(text: str, toks: list[tuple[int, str]]) -> Move:
    at, name = toks[0]
    args = toks[1:]
    if name == "!accept":
        if args:
            raise NotationError("!accept takes no argument", text, args[0][0])
        return Accept()
    if name == "!challenge":
        seat = args[0][1] if args else ""
        if not is_digits(seat) or len(seat) > 2 or not 1 <= int(seat) <= 4:
            raise NotationError("!challenge needs the challenger's seat number 1-4", text,
                                args[0][0] if args else len(text))
        words: list[str] = []
        for wat, word in args[1:]:
            word = word.upper()
            for i, ch in enumerate(word):
                if ch not in LETTERS:
                    raise NotationError(f"{ch!r} in a word to vote on is not a letter of the "
                                        f"Italian set ({LETTERS})", text, wat + i)
            if word in words:
                raise NotationError(f"{word} is named twice", text, wat)
            words.append(word)
        return Challenge(int(seat) - 1, tuple(words))
    if name == "!vote":
        if len(args) != 1:
            raise NotationError("!vote needs one vote per seat, e.g. !vote YN-Y", text,
                                args[1][0] if len(args) > 1 else len(text))
        vat, votes = args[0]
        votes = votes.upper()
        for i, ch in enumerate(votes):
            if ch not in "YN-":
                raise NotationError(f"vote {ch!r} is not Y, N or -", text, vat + i)
        if not 2 <= len(votes) <= 4:
            raise NotationError("!vote needs one vote per seat (2-4)", text, vat)
        return Vote(votes)
    raise NotationError(f"unknown command {name!r} (!challenge, !accept or !vote)", text, at)
