"""The tile set, values and the premium layout of rules.md §1."""

from __future__ import annotations

from collections import Counter

import pytest

from game.scarabeo.board import (
    CENTRE, LAYOUT, LETTER_MULT, PREMIUMS, SIZE, WORD_MULT, parse_square, square_name,
)
from game.scarabeo.tiles import COUNTS, LETTERS, VALUES, full_set, rack_value


class TestTileSet:
    def test_130_tiles_with_the_rulebook_counts(self) -> None:
        tiles = Counter(full_set())
        assert sum(tiles.values()) == 130
        assert {t: tiles[t] for t in "AEIO"} == dict.fromkeys("AEIO", 12)
        assert {t: tiles[t] for t in "CRST"} == dict.fromkeys("CRST", 7)
        assert {t: tiles[t] for t in "LMN"} == dict.fromkeys("LMN", 6)
        assert {t: tiles[t] for t in "BDFGPUV"} == dict.fromkeys("BDFGPUV", 4)
        assert {t: tiles[t] for t in "HQZ"} == dict.fromkeys("HQZ", 2)
        assert tiles["?"] == 2

    def test_no_foreign_letters(self) -> None:
        assert set(COUNTS) - {"?"} == set(LETTERS)
        assert not set("JKWXY") & set(COUNTS)

    @pytest.mark.parametrize("letter,value", [("A", 1), ("B", 4), ("H", 8), ("L", 2), ("P", 3),
                                              ("Q", 10), ("Z", 8), ("U", 4)])
    def test_values(self, letter: str, value: int) -> None:
        assert VALUES[letter] == value
        assert VALUES[letter.lower()] == value  # a scarab is worth its letter

    def test_rack_value_counts_scarabs_30(self) -> None:
        assert rack_value("AQ?") == 1 + 10 + 30


class TestBoard:
    def test_centre_is_i9_without_premium(self) -> None:
        assert square_name(CENTRE) == "I9"
        assert WORD_MULT[CENTRE] == 1 and LETTER_MULT[CENTRE] == 1
        assert PREMIUMS[CENTRE] == "*"

    def test_layout_is_symmetric_like_the_printed_board(self) -> None:
        for r in range(SIZE):
            for c in range(SIZE):
                cell = LAYOUT[r][c]
                assert cell == LAYOUT[c][r] == LAYOUT[SIZE - 1 - r][c] == LAYOUT[r][SIZE - 1 - c]

    def test_premium_counts(self) -> None:
        cells = Counter("".join(LAYOUT))
        assert cells["W"] == 8 and cells["*"] == 1
        assert sum(m == 3 for m in WORD_MULT) == 8
        assert sum(m == 2 for m in WORD_MULT) == cells["D"]
        assert sum(m == 3 for m in LETTER_MULT) == cells["T"]

    @pytest.mark.parametrize("name,premium", [("A1", "3P"), ("I1", "3P"), ("A9", "3P"), ("Q17", "3P"),
                                              ("B2", "2P"), ("E1", "2L"), ("G2", "3L"), ("D9", "2L")])
    def test_named_squares(self, name: str, premium: str) -> None:
        assert PREMIUMS[parse_square(name)] == premium

    def test_square_names_round_trip(self) -> None:
        for sq in range(SIZE * SIZE):
            assert parse_square(square_name(sq)) == sq

    @pytest.mark.parametrize("bad", ["R1", "A0", "A18", "9", "", "AA"])
    def test_bad_square_names(self, bad: str) -> None:
        with pytest.raises(ValueError):
            parse_square(bad)
