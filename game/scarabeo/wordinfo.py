"""The words on a Scarabeo board and who played them: what the word panel (issue 40) says of a word
a player taps, on the board or in the log.

Only public facts: the board as every seat sees it and the turns' results (``ScarabeoState.results()``:
each play's words with their squares and points). A word is identified by its letters, its first
square and its direction; the turn that formed it is the latest play whose scoring lists that very
word there (a word extended later is a new word, formed by the later play).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from game.scarabeo.board import EMPTY, SIZE, square_name

__all__ = ["BoardWord", "Played", "played", "words_through"]


@dataclass(frozen=True)
class BoardWord:
    """A word of two or more letters on the board: ``word`` upper-case (a scarab as the letter it
    stands for), its first square, its direction, and the squares a scarab stands on."""

    word: str
    start: int
    across: bool
    scarabs: tuple[int, ...] = ()

    @property
    def where(self) -> str:
        """Its first square and direction as the notation writes a play: ``8H`` across is row first
        (``H8`` is the square), so across words read ``<row><column>``, down ``<column><row>``."""
        name = square_name(self.start)
        return f"{name[1:]}{name[0]}" if self.across else name

    def to_json(self) -> dict[str, Any]:
        return {"word": self.word, "square": square_name(self.start), "across": self.across,
                "scarabs": [square_name(s) for s in self.scarabs]}


@dataclass(frozen=True)
class Played:
    """The turn that formed a word: its seat, the move's number in the record (1 for the first) and
    the points the word scored then (its premiums counted; the turn's bonuses are the turn's)."""

    player: int
    turn: int
    points: int


def words_through(board: Sequence[str], sq: int) -> list[BoardWord]:
    """The words through square ``sq`` (across first, then down); none when it is empty or its
    tile stands alone both ways."""
    if board[sq] == EMPTY:
        return []
    out: list[BoardWord] = []
    for across, step in ((True, 1), (False, SIZE)):
        start = sq
        while _joined(start, -step, across) and board[start - step] != EMPTY:
            start -= step
        squares = [start]
        while _joined(squares[-1], step, across) and board[squares[-1] + step] != EMPTY:
            squares.append(squares[-1] + step)
        if len(squares) >= 2:
            letters = [board[s] for s in squares]
            out.append(BoardWord("".join(c.upper() for c in letters), start, across,
                                 tuple(s for s, c in zip(squares, letters) if c.islower())))
    return out


def _joined(sq: int, step: int, across: bool) -> bool:
    """Whether the square ``step`` away from ``sq`` is on the board in that line."""
    nxt = sq + step
    if not 0 <= nxt < SIZE * SIZE:
        return False
    return nxt // SIZE == sq // SIZE if across else True


def played(results: Sequence[Any], word: BoardWord) -> Played | None:
    """The latest turn whose play formed ``word`` where it lies (``TurnResult``s in order: the
    engine's ``results()``); None when no turn's scoring lists it (a word the record cannot place)."""
    for index in range(len(results) - 1, -1, -1):
        result = results[index]
        breakdown = getattr(result, "breakdown", None)
        if breakdown is None:
            continue
        for w in breakdown.words:
            if w.word == word.word and w.start == word.start and w.across == word.across:
                return Played(int(result.player), index + 1, int(w.score))
    return None
