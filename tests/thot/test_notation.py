"""Move and position notation: round trips, and clear errors on hand-edited text."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.core import NotationError
from game.thot import ThotMove, ThotState
from game.thot.board import code_of

from tests.thot.helpers import build


class TestMoveNotation:
    def test_the_three_forms(self) -> None:
        s = ThotState.new(seed=0)
        assert s.parse_move("C7") == ThotMove(6 * 10 + 2)
        assert s.parse_move("C3>F3") == ThotMove(2 * 10 + 5, turn=2 * 10 + 2)
        assert s.parse_move("J10") == ThotMove(99)

    def test_drop_names_square_and_value(self) -> None:
        s = build({"C7": "A"}, "C1", collections=[["-8"], []])
        mv = s.parse_move("C7@E5:-8")
        assert mv == ThotMove(6 * 8 + 2, None, 4 * 8 + 4, -8)
        assert s.move_text(mv) == "C7@E5:-8"
        assert s.move_text(ThotMove(0, None, 9, 3)) == "A1@B2:+3"
        assert s.move_text(ThotMove(0, None, 9, code_of(-2, True))) == "A1@B2:-2*"

    def test_lowercase_and_spaces_are_accepted(self) -> None:
        s = ThotState.new(seed=0)
        assert s.parse_move(" c7 ") == s.parse_move("C7")

    @pytest.mark.parametrize(
        "text, where",
        [("", 0), ("C", 0), ("C77", 0), ("7C", 0), ("C7@E5", 4), ("C7@E5:-9", 6), ("C7@E5:0", 6), ("C7>", 2)],
    )
    def test_malformed_moves_say_where(self, text: str, where: int) -> None:
        s = ThotState.new(seed=0)
        with pytest.raises(NotationError) as err:
            s.parse_move(text)
        assert err.value.column == where

    def test_off_board_square_on_the_short_board(self) -> None:
        s = ThotState.new(seed=0, short=True)
        with pytest.raises(NotationError, match="I3 is not on the 8×8 board"):
            s.parse_move("I3")

    def test_marked_value_that_does_not_exist(self) -> None:
        s = ThotState.new(seed=0)
        with pytest.raises(NotationError, match="no -8 scarab carries the yellow mark"):
            s.parse_move("C7@E5:-8*")

    @settings(max_examples=40, deadline=None)
    @given(st.integers(0, 10_000), st.booleans())
    def test_every_legal_move_round_trips(self, seed: int, turnoff: bool) -> None:
        s = ThotState.new(seed=seed, turnoff=turnoff)
        rng_moves = 0
        while not s.is_over() and rng_moves < 30:
            for mv in s.legal_moves():
                assert s.parse_move(s.move_text(mv)) == mv
            s.push(s.legal_moves()[seed % len(s.legal_moves())])
            rng_moves += 1


class TestPosition:
    def test_new_game_shape(self) -> None:
        text = ThotState.new(seed=4).position()
        board, axis, mover, colls, opts = text.split(" ")
        assert len(board.split("/")) == 10 and board.count("P") == 1 and board.count("A") == 3
        assert (axis, mover, colls, opts) == ("-", "0", "./.", "-")

    def test_options_and_collections_are_written(self) -> None:
        s = build({"C1": "+1", "B2": "-2*"}, "A1", players=4, teams=True, turnoff=True, axis=1,
                  to_move=2, collections=[["+8", "-4*"], [], ["-8"], []])
        text = s.position()
        assert text == "P1+15/1-2*6/8/8/8/8/8/8 c 2 +8-4*/./-8/. turnoff,teams"
        back = ThotState.from_position(text)
        assert back.position() == text and back.hash == s.hash
        assert back.teams and back.turnoff and back.players == 4 and back.to_move() == 2

    @settings(max_examples=30, deadline=None)
    @given(st.integers(0, 10_000), st.integers(0, 60), st.sampled_from([2, 3, 4]), st.booleans(), st.booleans())
    def test_positions_round_trip_through_a_game(
        self, seed: int, plies: int, players: int, short: bool, turnoff: bool
    ) -> None:
        s = ThotState.new(players=players, short=short, turnoff=turnoff, seed=seed)
        for i in range(plies):
            if s.is_over():
                break
            moves = s.legal_moves()
            s.push(moves[(seed + i) % len(moves)])
        back = ThotState.from_position(s.position())
        assert back.position() == s.position()
        assert back.hash == s.hash
        assert back.view()["legal"] == s.view()["legal"]
        assert back.score == s.score

    @pytest.mark.parametrize(
        "text, message",
        [
            ("P10/10/10/10/10/10/10/10/10/10 - 0 ./. -", "row 1 is longer than 10 squares"),
            ("P7/8/8/8/8/8/8/8 - 0 ./.", "five fields"),
            ("8/8/8/8/8/8/8/8 - 0 ./. -", "exactly one priest"),
            ("PP6/8/8/8/8/8/8/8 - 0 ./. -", "exactly one priest"),
            ("P7/8/8/8/8/8/8 - 0 ./. -", "7 rows"),
            ("P6X/8/8/8/8/8/8/8 - 0 ./. -", "row 1: expected"),
            ("P7/8/8/8/8/8/8/8 x 0 ./. -", "axis"),
            ("P7/8/8/8/8/8/8/8 - a ./. -", "seat number"),
            ("P7/8/8/8/8/8/8/8 - 0 +9/. -", "collection of seat 0"),
            ("P7/8/8/8/8/8/8/8 - 0 ./. turbo", "unknown option"),
            ("P7/8/8/8/8/8/8/8 - 3 ./. -", "seat 3 does not exist"),
            ("P7/8/8/8/8/8/8/8 - 0 ./././././. -", "2 to 4 players"),
            ("P7/8/8/8/8/8/8/8 - 0 +8+8+8+8+8/. -", "the set has 4"),
            ("P-4*-4*5/8/8/8/8/8/8/8 - 0 ./. -", "the set has 1"),
            ("PAAAA3/8/8/8/8/8/8/8 - 0 ./. -", "4 ankhs on the board; the set has 3"),
            ("P7/8/8/8/8/8/8/8 - 0 ./. teams", "team game needs 4"),
            ("P+8*6/8/8/8/8/8/8/8 - 0 ./. -", r"no \+8 scarab is marked"),
        ],
    )
    def test_bad_positions_are_refused_with_the_reason(self, text: str, message: str) -> None:
        with pytest.raises(NotationError, match=message):
            ThotState.from_position(text)


def test_docs_position_example_is_a_live_endgame() -> None:
    # docs/thot.md's example: the next move goes along row 1, and C1 (the +1) is the only one.
    text = "P1+15/1-2*6/8/8/8/8/8/8 r 0 +8-4*/-8 turnoff"
    s = ThotState.from_position(text)
    assert s.position() == text and not s.is_over()
    assert [s.move_text(m) for m in s.legal_moves()] == ["C1"]
