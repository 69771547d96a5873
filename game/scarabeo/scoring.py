"""Scoring a placement: every word formed, premiums counted every time, bonuses (rules.md §1 "Play").

``score_play(board, placements)`` works on the flat board without copying a game state, so the
move generator can call it on candidate placements. The board is changed during the call and
restored before it returns.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from game.scarabeo.board import LETTER_MULT, PREMIUMS, SIZE, SQUARES, WORD_MULT, square_name
from game.scarabeo.tiles import VALUES

#: Bonus for the number of tiles placed in one turn (rulebook art. 25-27).
TILE_BONUS = {6: 10, 7: 30, 8: 50}
SCARABEO_WORDS = frozenset({"SCARABEO", "SCARABEI"})
SCARABEO_BONUS = 100
#: Added to each bonus when the main word holds no scarab (art. 29).
NO_SCARAB_EXTRA = 10

Placement = tuple[int, str]  # (square, board character: uppercase letter or lowercase scarab)


@dataclass(frozen=True)
class LetterScore:
    square: int
    tile: str  # board character (lowercase = scarab)
    value: int
    letter_mult: int
    word_mult: int
    new: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "square": square_name(self.square),
            "tile": self.tile,
            "value": self.value,
            "premium": PREMIUMS[self.square] if PREMIUMS[self.square] != "*" else "",
            "new": self.new,
        }


@dataclass(frozen=True)
class WordScore:
    word: str  # uppercase
    start: int
    across: bool
    letters: tuple[LetterScore, ...]
    letter_sum: int  # after letter premiums
    word_mult: int
    score: int
    main: bool

    @property
    def premiums(self) -> list[str]:
        """Premium squares under the word, e.g. ``["2L@H8", "3P@A9"]``."""
        return [f"{PREMIUMS[x.square]}@{square_name(x.square)}" for x in self.letters
                if PREMIUMS[x.square] not in ("", "*")]

    @property
    def has_scarab(self) -> bool:
        return any(x.tile.islower() for x in self.letters)

    def to_json(self) -> dict[str, Any]:
        return {
            "word": self.word,
            "score": self.score,
            "start": square_name(self.start),
            "direction": "across" if self.across else "down",
            "main": self.main,
            "letter_sum": self.letter_sum,
            "word_multiplier": self.word_mult,
            "premiums": self.premiums,
            "letters": [x.to_json() for x in self.letters],
        }


@dataclass(frozen=True)
class Bonus:
    code: str  # "tiles-6", "tiles-7", "tiles-8", "scarabeo"
    points: int
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "points": self.points, "reason": self.reason}


@dataclass(frozen=True)
class Breakdown:
    words: tuple[WordScore, ...]
    words_total: int  # after the first-play doubling
    first_play_doubled: bool
    tiles_placed: int
    bonuses: tuple[Bonus, ...]

    @property
    def bonus(self) -> int:
        return sum(b.points for b in self.bonuses)

    @property
    def total(self) -> int:
        return self.words_total + self.bonus

    @property
    def main_word(self) -> WordScore | None:
        return self.words[0] if self.words and self.words[0].main else None

    def to_json(self) -> dict[str, Any]:
        return {
            "score": self.total,
            "words": [w.to_json() for w in self.words],
            "words_total": self.words_total,
            "first_play_doubled": self.first_play_doubled,
            "tiles_placed": self.tiles_placed,
            "bonus": self.bonus,
            "bonuses": [b.to_json() for b in self.bonuses],
        }


def word_run(board: Sequence[str], sq: int, across: bool) -> range:
    """The squares of the maximal run of tiles through ``sq`` along a direction."""
    if across:
        row0 = sq - sq % SIZE
        lo = hi = sq
        while lo > row0 and board[lo - 1]:
            lo -= 1
        while hi < row0 + SIZE - 1 and board[hi + 1]:
            hi += 1
        return range(lo, hi + 1)
    lo = hi = sq
    while lo >= SIZE and board[lo - SIZE]:
        lo -= SIZE
    while hi + SIZE < SQUARES and board[hi + SIZE]:
        hi += SIZE
    return range(lo, hi + 1, SIZE)


def main_direction(board: Sequence[str], squares: Sequence[int], across: bool | None) -> bool:
    """Direction of the main word; ``board`` must already hold the placed tiles.

    Several tiles: their line. A single tile forms up to two words: the main one is SCARABEO /
    SCARABEI if it completes one (so the bonus does not depend on how the play is written), else
    the direction asked for, else the longer word (across on a tie).
    """
    if len(squares) > 1:
        return squares[0] // SIZE == squares[1] // SIZE
    sq = squares[0]
    runs = (word_run(board, sq, True), word_run(board, sq, False))
    for run, direction in zip(runs, (True, False)):
        if len(run) == 8 and "".join(board[s] for s in run).upper() in SCARABEO_WORDS:
            return direction
    if across is not None:
        return across
    if len(runs[1]) > len(runs[0]):
        return False
    return len(runs[0]) > 1 or len(runs[1]) == 1


def _word(board: Sequence[str], run: range, across: bool, new: frozenset[int], main: bool) -> WordScore:
    letters = []
    total = 0
    mult = 1
    for sq in run:
        ch = board[sq]
        v = VALUES[ch]
        lm = LETTER_MULT[sq]
        wm = WORD_MULT[sq]
        total += v * lm
        mult *= wm
        letters.append(LetterScore(sq, ch, v, lm, wm, sq in new))
    word = "".join(board[sq] for sq in run).upper()
    return WordScore(word, run[0], across, tuple(letters), total, mult, total * mult, main)


def score_play(
    board: list[str],
    placements: Sequence[Placement],
    across: bool | None = None,
    first_play: bool | None = None,
) -> Breakdown:
    """Score tiles placed on ``board`` (which does not hold them yet). Geometry is not checked.

    ``across`` chooses the main word's direction for a single tile (default: the direction in
    which it forms a word, across first). ``first_play`` defaults to "the board is empty".
    """
    if first_play is None:
        first_play = not any(board)
    squares = [sq for sq, _ in placements]
    for sq, ch in placements:
        board[sq] = ch
    try:
        direction = main_direction(board, squares, across)
        new = frozenset(squares)
        words: list[WordScore] = []
        run = word_run(board, squares[0], direction)
        if len(run) > 1:
            words.append(_word(board, run, direction, new, True))
        for sq in squares:
            cross = word_run(board, sq, not direction)
            if len(cross) > 1:
                words.append(_word(board, cross, not direction, new, False))
    finally:
        for sq in squares:
            board[sq] = ""
    words_total = sum(w.score for w in words)
    if first_play:
        words_total *= 2
    bonuses: list[Bonus] = []
    main = words[0] if words and words[0].main else None
    extra = NO_SCARAB_EXTRA if main is not None and not main.has_scarab else 0
    n = len(placements)
    if n in TILE_BONUS:
        bonuses.append(Bonus(f"tiles-{n}", TILE_BONUS[n] + extra,
                             f"{n} tiles placed" + (", no scarab" if extra else "")))
    if main is not None and main.word in SCARABEO_WORDS:
        bonuses.append(Bonus("scarabeo", SCARABEO_BONUS + extra,
                             f"{main.word} formed" + (", no scarab" if extra else "")))
    return Breakdown(tuple(words), words_total, first_play, n, tuple(bonuses))


def play_score(
    board: list[str],
    placements: Sequence[Placement],
    across: bool | None = None,
    first_play: bool | None = None,
) -> int:
    """The total of ``score_play`` without building the breakdown: for move search.

    Same arguments and result as ``score_play(...).total``, a few times faster.
    """
    if first_play is None:
        first_play = not any(board)
    squares = [sq for sq, _ in placements]
    for sq, ch in placements:
        board[sq] = ch
    try:
        direction = main_direction(board, squares, across)
        total = 0
        main_scarab = True
        main_word = ""
        run = word_run(board, squares[0], direction)
        if len(run) > 1:
            t = 0
            m = 1
            for sq in run:
                t += VALUES[board[sq]] * LETTER_MULT[sq]
                m *= WORD_MULT[sq]
            total += t * m
            main_scarab = any(board[sq].islower() for sq in run)
            if len(run) == 8:
                main_word = "".join(board[sq] for sq in run).upper()
        for sq in squares:
            cross = word_run(board, sq, not direction)
            if len(cross) > 1:
                t = 0
                m = 1
                for c in cross:
                    t += VALUES[board[c]] * LETTER_MULT[c]
                    m *= WORD_MULT[c]
                total += t * m
    finally:
        for sq in squares:
            board[sq] = ""
    if first_play:
        total *= 2
    extra = 0 if main_scarab else NO_SCARAB_EXTRA
    n = len(squares)
    if n in TILE_BONUS:
        total += TILE_BONUS[n] + extra
    if main_word in SCARABEO_WORDS:
        total += SCARABEO_BONUS + extra
    return total
