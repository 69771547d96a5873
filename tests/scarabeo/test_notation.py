"""Move and position notation: round trips and precise errors."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.core import NotationError
from game.scarabeo import Accept, Challenge, Exchange, Pass, Play, ScarabeoState, Vote
from game.scarabeo.board import SIZE, parse_square
from game.scarabeo.moves import move_text, parse_move
from game.scarabeo.position import PositionData, format_position, parse_position
from game.scarabeo.tiles import LETTERS

from tests.scarabeo.helpers import EMPTY_BOARD


class TestMoves:
    @pytest.mark.parametrize("text,move", [
        ("9F CONTARE", Play(parse_square("F9"), True, "CONTARE")),
        ("F9 CONTARE", Play(parse_square("F9"), False, "CONTARE")),
        ("17A ab", Play(parse_square("A17"), True, "ab")),
        ("-", Pass()),
        ("-AEIOUAEI", Exchange("AEIOUAEI")),
        ("*I9 9F CONTARE", Play(parse_square("F9"), True, "CONTARE", (parse_square("I9"),))),
        ("*I9 *C3 -", Pass((parse_square("I9"), parse_square("C3")))),
        ("!challenge 2", Challenge(1)),
        ("!challenge 3 RAGAZZACCIO", Challenge(2, ("RAGAZZACCIO",))),
        ("!challenge 1 GUIDERDONE AL", Challenge(0, ("GUIDERDONE", "AL"))),
        ("!accept", Accept()),
        ("!vote YN-Y", Vote("YN-Y")),
    ])
    def test_parse_and_format(self, text: str, move: object) -> None:
        assert parse_move(text) == move
        assert move_text(parse_move(text)) == text  # type: ignore[arg-type]

    def test_dots_and_scarabs_kept(self) -> None:
        assert parse_move("9E S......e") == Play(parse_square("E9"), True, "S......e")

    @pytest.mark.parametrize("text,message,column", [
        ("", "empty move", 0),
        ("9F", "needs a coordinate and a word", 0),
        ("9R CASA", "column letter A-Q", 1),
        ("18A CASA", "row 18 is off the board", 0),
        ("R9 CASA", "the column must be A-Q", 0),
        ("9F CAJA", "'J' is not a letter of the Italian set", 5),
        ("9F C", "at least two letters", 3),
        ("9M CONTARE", "runs off the board", 3),
        ("9F CASA X", "unexpected text after the word", 8),
        ("-AB1", "'1' is not a tile", 3),
        ("-AEIOUAEIO", "returns 8 tiles", 0),
        ("*I9", "must be followed", 3),
        ("*I9 *I9 -", "swapped twice", 4),
        ("!challenge", "seat number", 10),
        ("!vote YX", "'X' is not Y, N or -", 7),
        ("!nope", "unknown command", 0),
    ])
    def test_errors_say_what_and_where(self, text: str, message: str, column: int) -> None:
        with pytest.raises(NotationError) as info:
            parse_move(text)
        assert message in info.value.message
        assert info.value.column == column

    def test_oversized_move(self) -> None:
        with pytest.raises(NotationError, match="characters long"):
            parse_move("9F " + "A" * 500)

    @settings(max_examples=200, deadline=None)
    @given(
        st.integers(0, SIZE * SIZE - 1),
        st.booleans(),
        st.text(alphabet=LETTERS + LETTERS.lower() + ".", min_size=2, max_size=17),
        st.lists(st.integers(0, SIZE * SIZE - 1), max_size=2, unique=True),
    )
    def test_play_round_trip(self, start: int, across: bool, word: str, swaps: list[int]) -> None:
        line_pos = start % SIZE if across else start // SIZE
        if line_pos + len(word) > SIZE:
            with pytest.raises(NotationError):
                parse_move(move_text(Play(start, across, word, tuple(swaps))))
            return
        move = Play(start, across, word, tuple(swaps))
        assert parse_move(move_text(move)) == move

    @settings(max_examples=100, deadline=None)
    @given(st.text(max_size=30))
    def test_any_text_parses_or_raises_notation_error(self, text: str) -> None:
        try:
            move = parse_move(text)
        except NotationError:
            return
        assert parse_move(move_text(move)) == move


class TestPosition:
    def test_empty_board_example_from_rules(self) -> None:
        text = f"{EMPTY_BOARD} CONTARE?/ 0/0 0"
        data = parse_position(text)
        assert data.racks == ("CONTARE?", "") and data.scores == (0, 0) and data.idle == 0
        assert len(data.bag()) == 130 - 8
        assert format_position(data) == text

    def test_state_round_trip(self) -> None:
        s = ScarabeoState.new(3, seed=8)
        assert ScarabeoState.from_position(s.position()).position() == s.position()

    @pytest.mark.parametrize("text,message", [
        ("17/17 A/ 0/0 0", "the board has 2 rows"),
        (f"{EMPTY_BOARD} AB 0/0 0", "1 racks"),
        (f"{EMPTY_BOARD} AB/CD 0 0", "1 scores for 2 racks"),
        (f"{EMPTY_BOARD} AB/CD 0/x 0", "score 'x' is not a whole number"),
        (f"{EMPTY_BOARD} AB/CD 0/0 -1", "cannot be negative"),
        (f"{EMPTY_BOARD} AB/CD 0/0", "4 fields"),
        (f"{EMPTY_BOARD} QQ/Q 0/0 0", "3 Q tiles"),
        (f"{EMPTY_BOARD} ???/ 0/0 0", "3 scarabs"),
        (f"{EMPTY_BOARD} ABCDEFGHI/ 0/0 0", "rack 1 holds 9 tiles"),
        (f"{EMPTY_BOARD} AJ/ 0/0 0", "'J' is not a tile"),
        (f"{EMPTY_BOARD} A/B/C/D/E 0/0/0/0/0 0", "2-4 players"),
    ])
    def test_errors(self, text: str, message: str) -> None:
        with pytest.raises(NotationError) as info:
            parse_position(text)
        assert message in info.value.message

    def test_a_19_letter_row(self) -> None:
        rows = ["17"] * 17
        rows[8] = "ABCDEFGHILMNOPQRSTU"
        with pytest.raises(NotationError) as info:
            parse_position("/".join(rows) + " A/ 0/0 0")
        assert "row 9 is longer than 17 squares" in info.value.message

    def test_a_short_row(self) -> None:
        rows = ["17"] * 17
        rows[3] = "16"
        with pytest.raises(NotationError, match="row 4 has 16 squares"):
            parse_position("/".join(rows) + " A/ 0/0 0")

    def test_tiles_off_the_centre(self) -> None:
        rows = ["17"] * 17
        rows[0] = "CASA13"
        with pytest.raises(NotationError, match="none on the centre"):
            parse_position("/".join(rows) + " A/ 0/0 0")

    def test_loose_tile(self) -> None:
        rows = ["17"] * 17
        rows[8] = "8AB7"
        rows[0] = "A16"
        with pytest.raises(NotationError, match="A1 is not connected"):
            parse_position("/".join(rows) + " A/ 0/0 0")

    def test_scarabs_and_scores(self) -> None:
        rows = ["17"] * 17
        rows[8] = "5CONTaRE5"
        text = "/".join(rows) + " ?/Q -12/340 3"
        data = parse_position(text)
        assert data.board[parse_square("J9")] == "a"
        assert data.bag().count("?") == 0 and data.scores == (-12, 340)
        assert format_position(data) == text

    @settings(max_examples=60, deadline=None)
    @given(st.data())
    def test_round_trip_random_boards(self, data: st.DataObject) -> None:
        board = [""] * (SIZE * SIZE)
        # A word through the centre I9, across or down.
        word = data.draw(st.text(alphabet="AEIOCRST" + "aeio", min_size=1, max_size=SIZE))
        first = data.draw(st.integers(max(0, 8 - len(word) + 1), min(8, SIZE - len(word))))
        across = data.draw(st.booleans())
        for i, ch in enumerate(word):
            board[8 * SIZE + first + i if across else (first + i) * SIZE + 8] = ch
        pos = PositionData(tuple(board), ("AB", "C?"), (1, -2), 0)
        text = format_position(pos)
        try:
            back = parse_position(text)
        except NotationError as err:
            assert "set has" in err.message  # too many of one letter
            return
        assert back == pos and format_position(back) == text


def test_surrounding_whitespace_is_ignored() -> None:
    assert parse_move("  9F\tCONTARE\n") == parse_move("9F CONTARE")
