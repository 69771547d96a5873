"""Building boards and states for the Scarabeo tests from words written in move notation."""

from __future__ import annotations

from typing import Iterable, Sequence

from game.scarabeo import ScarabeoState, SetWordList
from game.scarabeo.board import new_board
from game.scarabeo.moves import Play, parse_move
from game.scarabeo.position import PositionData, format_position

EMPTY_BOARD = "/".join(["17"] * 17)


def board_with(words: Iterable[str]) -> list[str]:
    """A board holding words given as plays (``9F CONTARE``); lowercase = scarab."""
    board = new_board()
    for text in words:
        play = parse_move(text)
        assert isinstance(play, Play)
        for sq, ch in zip(play.squares(), play.word):
            if ch != ".":
                board[sq] = ch
    return board


def position_with(words: Iterable[str], racks: Sequence[str], scores: Sequence[int] | None = None,
                  idle: int = 0) -> str:
    return format_position(PositionData(tuple(board_with(words)), tuple(racks),
                                        tuple(scores or [0] * len(racks)), idle))


def state_with(words: Iterable[str], rack: str, words_ok: Iterable[str] = (),
               abbreviations: Iterable[str] = (), others: Sequence[str] = ("",),
               check_mode: str = "dictionary", seed: int = 0) -> ScarabeoState:
    return ScarabeoState.from_position(
        position_with(words, [rack, *others]),
        word_list=SetWordList(words_ok, abbreviations),
        check_mode=check_mode,
        seed=seed,
    )
