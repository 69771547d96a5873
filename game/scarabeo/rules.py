"""Checking plays, swaps and exchanges, each refusal with a stable code and a precise message.

Codes: ``off-board``, ``square-taken``, ``empty-dot``, ``no-tiles``, ``not-whole-word``,
``not-in-line``, ``gap``, ``first-not-centre``, ``not-touching``, ``no-word``,
``tile-not-on-rack``, ``invalid-words``, ``swap-not-scarab``, ``swap-letter-not-on-rack``,
``exchange-not-allowed``, plus the turn-flow codes of ``game.py``.
"""

from __future__ import annotations

from collections import Counter
from typing import Iterable, Sequence

from game.core import IllegalMove
from game.scarabeo.board import CENTRE, NEIGHBOURS, SIZE, SQUARES, square_name
from game.scarabeo.moves import Play, coord_text
from game.scarabeo.scoring import Placement, main_direction, word_run
from game.scarabeo.tiles import RACK_SIZE, SCARAB, VOWELS, sort_rack
from game.scarabeo.words import WordList, is_valid


def resolve_play(board: Sequence[str], play: Play) -> list[Placement]:
    """The tiles a play puts down, read from its written word against the board."""
    step = play.step
    col, row = play.start % SIZE, play.start // SIZE
    end = (col if play.across else row) + len(play.word)
    if end > SIZE:
        raise IllegalMove("off-board", f"{play.word} from {square_name(play.start)} runs off the board")
    placements: list[Placement] = []
    for i, ch in enumerate(play.word):
        sq = play.start + i * step
        held = board[sq]
        if held:
            if ch != "." and ch.upper() != held.upper():
                raise IllegalMove(
                    "square-taken",
                    f"{square_name(sq)} already holds {held.upper()}"
                    f"{' (a scarab)' if held.islower() else ''}, not {ch.upper()}",
                    square=square_name(sq),
                )
        elif ch == ".":
            raise IllegalMove("empty-dot", f"'.' stands for a tile on the board, but "
                              f"{square_name(sq)} is empty", square=square_name(sq))
        else:
            placements.append((sq, ch))
    if not placements:
        raise IllegalMove("no-tiles", f"{coord_text(play.start, play.across)} {play.word} "
                          "places no tile: every letter is already on the board")
    before = play.start - step
    after = play.start + len(play.word) * step
    if (col if play.across else row) > 0 and board[before]:
        raise IllegalMove("not-whole-word", f"the word must be written whole: "
                          f"{square_name(before)} before it holds {board[before].upper()}")
    if end < SIZE and board[after]:
        raise IllegalMove("not-whole-word", f"the word must be written whole: "
                          f"{square_name(after)} after it holds {board[after].upper()}")
    return placements


def check_geometry(board: list[str], placements: Sequence[Placement], across: bool | None = None) -> bool:
    """Check a placement's shape; return the direction of its main word (True = across)."""
    if not placements:
        raise IllegalMove("no-tiles", "a play places at least one tile")
    squares = [sq for sq, _ in placements]
    seen: set[int] = set()
    for sq, ch in placements:
        if not 0 <= sq < SQUARES:
            raise IllegalMove("off-board", f"square {sq} is off the board")
        if board[sq]:
            raise IllegalMove("square-taken", f"{square_name(sq)} already holds {board[sq].upper()}",
                              square=square_name(sq))
        if sq in seen:
            raise IllegalMove("square-taken", f"two tiles on {square_name(sq)}", square=square_name(sq))
        if len(ch) != 1 or not ch.isalpha():
            raise IllegalMove("bad-tile", f"{ch!r} on {square_name(sq)} is not a letter")
        seen.add(sq)
    rows = {sq // SIZE for sq in squares}
    cols = {sq % SIZE for sq in squares}
    if len(rows) > 1 and len(cols) > 1:
        raise IllegalMove("not-in-line", "the tiles are not all in one row or one column: "
                          + ", ".join(square_name(s) for s in sorted(squares)))
    if len(squares) > 1:
        line_across = len(rows) == 1
        step = 1 if line_across else SIZE
        lo, hi = min(squares), max(squares)
        for sq in range(lo, hi + 1, step):
            if sq not in seen and not board[sq]:
                raise IllegalMove("gap", f"{square_name(sq)} is empty between the tiles placed",
                                  square=square_name(sq))
    empty = not any(board)
    if empty:
        if CENTRE not in seen:
            raise IllegalMove("first-not-centre", "the first play must cover the centre square I9")
    elif not any(board[n] for sq in squares for n in NEIGHBOURS[sq]):
        raise IllegalMove("not-touching", "the play must touch a tile already on the board")
    for sq, ch in placements:
        board[sq] = ch
    try:
        direction = main_direction(board, squares, across)
        forms = len(word_run(board, squares[0], direction)) > 1 or any(
            len(word_run(board, sq, not direction)) > 1 for sq in squares
        )
    finally:
        for sq in squares:
            board[sq] = ""
    if not forms:
        raise IllegalMove("no-word", "a play must form a word of at least two letters")
    return direction


def check_rack(rack: Sequence[str], placements: Sequence[Placement]) -> None:
    """The tiles placed must come from the rack (a lowercase letter uses a scarab)."""
    need = Counter(SCARAB if ch.islower() else ch for _, ch in placements)
    have = Counter(rack)
    for tile, n in sorted(need.items()):
        if have[tile] < n:
            what = "scarab" if tile == SCARAB else tile
            raise IllegalMove(
                "tile-not-on-rack",
                f"the play needs {n} {what}{'s' if n > 1 else ''} but the rack "
                f"{sort_rack(rack) or '(empty)'} holds {have[tile]}",
                tile=tile,
            )


def invalid_words(words: Iterable[str], checker: WordList, accepted: Iterable[str] = ()) -> list[str]:
    """The words (in order, without repeats) that are neither in the lexicon nor accepted by vote."""
    ok = set(accepted)
    bad: list[str] = []
    for w in words:
        if w not in ok and w not in bad and not is_valid(checker, w):
            bad.append(w)
    return bad


def invalid_words_error(bad: Sequence[str]) -> IllegalMove:
    names = ", ".join(bad)
    return IllegalMove("invalid-words", f"not {'a word' if len(bad) == 1 else 'words'}: {names}",
                       words=list(bad))


def apply_swaps(board: list[str], rack: list[str], swaps: Sequence[int]) -> None:
    """Flying scarab: each scarab on a swapped square goes to the rack, replaced by its letter.

    Changes ``board`` and ``rack`` in place; raises (leaving them half-changed) on a bad swap,
    so callers work on copies.
    """
    for sq in swaps:
        held = board[sq]
        if not held or not held.islower():
            raise IllegalMove("swap-not-scarab", f"{square_name(sq)} does not hold a scarab"
                              + (f" (it holds {held})" if held else " (it is empty)"),
                              square=square_name(sq))
        letter = held.upper()
        if letter not in rack:
            raise IllegalMove("swap-letter-not-on-rack", f"to take the scarab on {square_name(sq)} "
                              f"you must put an {letter} in its place, and the rack "
                              f"{sort_rack(rack)} has none", square=square_name(sq))
        rack.remove(letter)
        rack.append(SCARAB)
        board[sq] = letter


def exchange_blocker(rack: Sequence[str]) -> tuple[str, dict[str, int]] | None:
    """Why this rack cannot be exchanged now, as a key and its numbers (a page says it in its own
    words): ``rack-short`` (held), ``scarab``, ``mixed`` (vowels, consonants); None if it can."""
    if len(rack) != RACK_SIZE:
        return "rack-short", {"held": len(rack)}
    if SCARAB in rack:
        return "scarab", {}
    vowels = sum(t in VOWELS for t in rack)
    if 0 < vowels < RACK_SIZE:
        return "mixed", {"vowels": vowels, "consonants": RACK_SIZE - vowels}
    return None


def exchange_refusal(rack: Sequence[str], tiles: str) -> str | None:
    """Why an exchange of ``tiles`` is not allowed, or None if it is."""
    found = exchange_blocker(rack)
    if found is not None and found[0] == "rack-short":
        return f"an exchange needs a full rack of 8 tiles; the rack holds {len(rack)}"
    if found is not None and found[0] == "scarab":
        return "an exchange is not allowed with a scarab on the rack"
    if found is not None:
        vowels = found[1]["vowels"]
        return (f"an exchange needs 8 vowels or 8 consonants; the rack {sort_rack(rack)} has "
                f"{vowels} vowel{'s' if vowels != 1 else ''} and {RACK_SIZE - vowels} consonant"
                f"{'s' if RACK_SIZE - vowels != 1 else ''}")
    if sorted(tiles) != sorted(rack):
        return f"an exchange returns the whole rack {sort_rack(rack)}, not {tiles or '(nothing)'}"
    return None
