"""The words through a square and the turn that formed each (game/scarabeo/wordinfo.py, issue 40's
word panel): checked against the engine's own scoring of the plays, and by brute force on random
boards."""

from __future__ import annotations

import random

from hypothesis import given, settings, strategies as st

from game.scarabeo.board import EMPTY, SIZE, SQUARES, parse_square
from game.scarabeo.wordinfo import BoardWord, played, words_through

from tests.scarabeo.helpers import board_with, state_with

WORDS = {"CONTARE", "CASA", "CASE", "TE", "RE", "ET", "ARE", "ORE", "MARE", "AMARE"}


def test_the_words_through_a_square_across_then_down_with_their_scarabs() -> None:
    board = board_with(["9F CONTARE", "J6 CAsA"])  # CASA down through the A of CONTARE at J9
    through = words_through(board, parse_square("J9"))
    assert [(w.word, w.across) for w in through] == [("CONTARE", True), ("CASA", False)]
    assert through[0].start == parse_square("F9") and through[0].where == "9F"
    assert through[1].start == parse_square("J6") and through[1].where == "J6"
    assert through[1].scarabs == (parse_square("J8"),)
    assert words_through(board, parse_square("A1")) == []
    assert [w.word for w in words_through(board, parse_square("F9"))] == ["CONTARE"]


def test_the_turn_that_formed_a_word_with_its_points_is_the_engines() -> None:
    state = state_with([], "CONTAREB", WORDS, others=("CASEMARE",))
    first = state.push(state.parse_move("9F CONTARE"))
    second = state.push(state.parse_move("J6 CASA"))  # down onto the A at J9: CASA
    results = state.results()
    [contare] = [w for w in words_through(state.board, parse_square("F9"))]
    found = played(results, contare)
    assert found is not None and (found.player, found.turn) == (first.player, 1)
    assert found.points == next(w.score for w in first.breakdown.words if w.word == "CONTARE")
    case = next(w for w in words_through(state.board, parse_square("J6")) if not w.across)
    assert case.word == "CASA"
    again = played(results, case)
    assert again is not None and (again.player, again.turn) == (second.player, 2)
    assert again.points == next(w.score for w in second.breakdown.words if w.word == "CASA")
    assert played(results, BoardWord("CASE", parse_square("A1"), False)) is None  # not where it lies


def _lines(board: list[str]) -> set[tuple[str, int, bool]]:
    """Every maximal run of 2+ tiles, by brute force over rows and columns."""
    out = set()
    for across in (True, False):
        for line in range(SIZE):
            squares = [line * SIZE + i if across else i * SIZE + line for i in range(SIZE)]
            run: list[int] = []
            for sq in squares + [-1]:
                if sq >= 0 and board[sq] != EMPTY:
                    run.append(sq)
                    continue
                if len(run) >= 2:
                    out.add(("".join(board[s].upper() for s in run), run[0], across))
                run = []
    return out


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_every_word_through_every_square_is_a_run_of_the_board(seed: int) -> None:
    rng = random.Random(seed)
    board = [EMPTY] * SQUARES
    for sq in rng.sample(range(SQUARES), rng.randrange(1, 120)):
        board[sq] = rng.choice("ABCDEFGHILMNOPQRSTUVZ") if rng.random() < 0.9 else rng.choice("aeio")
    runs = _lines(board)
    seen = set()
    for sq in range(SQUARES):
        for w in words_through(board, sq):
            key = (w.word, w.start, w.across)
            assert key in runs
            seen.add(key)
            assert all(board[s].islower() for s in w.scarabs)
    assert seen == runs
