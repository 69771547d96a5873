"""The set of rules.md §3: boards, layouts, pentominoes and their orientations, the mission deck."""

from __future__ import annotations

import pytest

from game.core import NotationError, Rng
from game.scarabya.grid import SITE
from game.scarabya.sets import (
    BOARDS,
    CENTRE,
    TILE_NAMES,
    TILES,
    Layout,
    parse_deck,
    shuffled_deck,
    turn_board,
)
from game.scarabya.shapes import orient, parse_drawing


class TestBoards:
    def test_each_board_has_two_rocks_and_six_scarabs(self) -> None:
        for rows in BOARDS:
            text = "".join(rows)
            assert len(rows) == 5 and all(len(r) == 5 for r in rows)
            assert text.count("R") == 2
            assert text.count("S") == 6

    def test_corners_are_never_rocks(self) -> None:
        for rows in BOARDS:
            for turns in range(4):
                t = turn_board(rows, turns)
                assert "R" not in (t[0][0], t[0][4], t[4][0], t[4][4])

    def test_quarter_turn_is_clockwise(self) -> None:
        turned = turn_board(BOARDS[0], 1)
        # the left column read bottom-up becomes the top row
        assert turned[0] == "".join(BOARDS[0][4 - i][0] for i in range(5))
        assert turn_board(BOARDS[0], 4) == BOARDS[0]


class TestLayout:
    def test_round_trip(self) -> None:
        assert Layout.parse("1.0-2.3-3.1-4.2").text() == "1.0-2.3-3.1-4.2"

    def test_quadrants_in_order_nw_ne_sw_se(self) -> None:
        site = Layout.parse("1.0-2.0-3.0-4.0").terrain()
        assert [r[:5] for r in site[:5]] == list(BOARDS[0])
        assert [r[5:] for r in site[:5]] == list(BOARDS[1])
        assert [r[:5] for r in site[5:]] == list(BOARDS[2])
        assert [r[5:] for r in site[5:]] == list(BOARDS[3])

    def test_turns_apply_to_their_quadrant(self) -> None:
        site = Layout.parse("2.0-1.2-3.0-4.0").terrain()
        assert [r[5:] for r in site[:5]] == list(turn_board(BOARDS[0], 2))

    def test_site_has_eight_rocks_and_24_scarabs_and_open_centre(self) -> None:
        rocks, symbols = Layout.parse("4.3-2.1-1.2-3.0").masks()
        assert rocks.bit_count() == 8
        assert symbols.bit_count() == 24
        assert not rocks & CENTRE

    @pytest.mark.parametrize(
        "text", ["1.0-2.3-3.1", "1.0-2.3-3.1-1.2", "5.0-2.3-3.1-4.2", "1.4-2.3-3.1-4.2", "1:0-2.3-3.1-4.2"]
    )
    def test_malformed(self, text: str) -> None:
        with pytest.raises(NotationError):
            Layout.parse(text)

    def test_shuffled_is_deterministic(self) -> None:
        assert Layout.shuffled(Rng(9)) == Layout.shuffled(Rng(9))


class TestTiles:
    def test_twelve_pentominoes(self) -> None:
        assert TILE_NAMES == "FILNPTUVWXYZ"
        assert all(len(t.cells) == 5 for t in TILES.values())

    @pytest.mark.parametrize(
        "name,count",
        [("F", 8), ("I", 2), ("L", 8), ("N", 8), ("P", 8), ("T", 4), ("U", 4), ("V", 4), ("W", 4), ("X", 1),
         ("Y", 8), ("Z", 4)],
    )  # fmt: skip
    def test_distinct_orientations(self, name: str, count: int) -> None:
        assert len(set(TILES[name].canonical)) == count

    def test_orientation_convention(self) -> None:
        cells = parse_drawing("####/#...")
        # one clockwise turn: the top row becomes the right column
        assert orient(cells, 1) == parse_drawing("##/.#/.#/.#")
        # k >= 4 mirrors left-right first, then turns
        assert orient(cells, 4) == parse_drawing("####/...#")
        assert orient(cells, 5) == orient(orient(cells, 4), 1)

    def test_placements_stay_inside_the_frame(self) -> None:
        for shape in TILES.values():
            for plist in shape.placements.values():
                for _anchor, m in plist:
                    assert m.bit_count() == 5 and m <= SITE.full


class TestDeck:
    def test_parse(self) -> None:
        assert parse_deck("lipntuvwxyzf") == "LIPNTUVWXYZF"

    @pytest.mark.parametrize("text", ["LIPNTUVWXYZ", "LIPNTUVWXYZL", "LIPNTUVWXYZQ", "LIPNTUVWXYZFF"])
    def test_malformed(self, text: str) -> None:
        with pytest.raises(NotationError):
            parse_deck(text)

    def test_shuffled_holds_every_tile(self) -> None:
        assert sorted(shuffled_deck(Rng(3))) == sorted(TILE_NAMES)
