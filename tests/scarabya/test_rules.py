"""Classic Scarabya rules, one concept per class (rules.md §3 and the rulebook)."""

from __future__ import annotations

import pytest

from game.core import IllegalMove
from game.scarabya import DISCARD, Place, ScarabyaState
from game.scarabya.grid import SITE
from game.scarabya.moves import parse_move
from game.scarabya.sets import CENTRE
from game.scarabya.state import ROUNDS
from tests.scarabya.helpers import DECK, PLAIN, mask, random_game, row_squares, with_open


def fresh(players: int = 1, deck: str = DECK) -> ScarabyaState:
    return ScarabyaState.new(players, PLAIN, deck)


def illegal(state: ScarabyaState, text: str) -> str:
    with pytest.raises(IllegalMove) as info:
        state.push(parse_move(text))
    return info.value.code


class TestCentreRule:
    def test_first_tile_must_cover_a_centre_square(self) -> None:
        s = fresh()
        assert illegal(s, "I0@A1") == "centre"

    def test_touching_one_centre_square_is_enough(self) -> None:
        s = fresh()
        s.push(parse_move("I1@E6"))  # E6..E10: covers only E6 of the centre
        assert s.covered[0] & CENTRE == mask("E6")

    def test_every_first_move_covers_the_centre(self) -> None:
        s = fresh()
        for _, _, m in s.placements():
            assert m & CENTRE


class TestEdgeContact:
    def test_second_tile_must_share_an_edge(self) -> None:
        s = fresh(deck="IXLNPTUVWFYZ")
        s.push(parse_move("I0@A5"))  # A5-E5
        assert illegal(s, "X0@F5") == "no-contact"  # G5, F6-H6, G7: nowhere next to A5-E5
        s.push(parse_move("X0@D6"))  # E6, D7-F7, E8: E6 lies under E5

    def test_diagonal_contact_does_not_count(self) -> None:
        s = fresh(deck="IXLNPTUVWFYZ")
        s.push(parse_move("I0@A5"))  # A5-E5
        # X0@E6 covers F6, E7-G7, F8: F6 only meets E5 at a corner
        assert illegal(s, "X0@E6") == "no-contact"

    def test_every_later_move_touches_an_earlier_tile(self) -> None:
        s = fresh()
        s.push(s.legal_moves()[0])
        from game.scarabya.rules import neighbours

        for _, _, m in s.placements():
            assert m & neighbours(s.covered[0])


class TestFrameRocksOverlap:
    def test_inside_the_frame(self) -> None:
        s = fresh()
        assert illegal(s, "I0@G5") == "outside-frame"

    def test_not_on_rocks(self) -> None:
        s = fresh()
        # row 4 is ..SR.R..S. : I0@B4 would cover the rock on D4
        assert illegal(s, "I0@B4") == "rock"

    def test_no_overlap(self) -> None:
        s = fresh(deck="IXLNPTUVWFYZ")
        s.push(parse_move("I0@E6"))
        assert illegal(s, "X0@D5") == "overlap"

    def test_only_the_rounds_tile(self) -> None:
        s = fresh(deck="IXLNPTUVWFYZ")
        assert illegal(s, "X0@D4") == "wrong-tile"

    def test_scarab_symbols_may_be_covered_and_are_lost(self) -> None:
        s = fresh(deck="IXLNPTUVWFYZ")
        result = s.push(parse_move("I0@D5"))  # row 5 is .S.....S.. : H5 is a scarab
        assert result["covered_symbols"] == ["H5"]
        assert s.site_rows(0)[4][7] == "I"
        assert s.view()["sites"][0]["symbols_covered"] == 1


class TestMustPlaceOrDiscard:
    def test_discard_is_refused_while_the_tile_fits(self) -> None:
        s = fresh()
        assert illegal(s, "-") == "must-place"
        assert DISCARD not in s.legal_moves()

    def test_a_tile_that_fits_nowhere_is_discarded(self) -> None:
        # only a 2x2 hole is left: no pentomino fits
        s = with_open(["A1", "B1", "A2", "C1"])
        assert s.legal_moves() == [DISCARD]
        assert illegal(s, "I0@A1") in ("rock", "overlap", "outside-frame")
        result = s.push(DISCARD)
        assert result["discarded"] and result["points"] == 0
        assert s.view()["sites"][0]["discarded"] == [{"round": 1, "tile": "I"}]
        assert s.round == 2


class TestAreaScoring:
    @pytest.mark.parametrize("size", [1, 2, 3, 4])
    def test_area_of_one_to_four_scores_size_per_visible_scarab(self, size: int) -> None:
        # row 3 is S..S..SS.S: keep A3.. open and close it with the I tile just to its right
        area = row_squares(3, 0, size)
        tile_squares = row_squares(3, size, 5)
        s = with_open(area + tile_squares)
        scarabs = (mask(*area) & s.symbols).bit_count()
        assert scarabs >= 1
        result = s.push(Place("I", 0, SITE.parse_square(tile_squares[0])))
        assert [a["squares"] for a in result["areas"]] == [area]
        assert result["points"] == size * scarabs
        assert s.scores[0] == size * scarabs

    def test_area_of_five_does_not_score(self) -> None:
        area = row_squares(3, 0, 5)
        s = with_open(area + row_squares(3, 5, 5))
        result = s.push(parse_move("I0@F3"))
        assert result["areas"] == [] and s.scores[0] == 0

    def test_area_without_scarab_closes_for_nothing(self) -> None:
        s = with_open(["B3", "C3"] + row_squares(3, 3, 5), deck="IXLNPTUVWFYZ")
        result = s.push(parse_move("I0@D3"))
        assert result["areas"][0]["squares"] == ["B3", "C3"] and result["points"] == 0

    def test_several_areas_at_once(self) -> None:
        # I at B3-F3 (vertical column B? no: row) splits A3 and G3-H3 off on either side
        s = with_open(["A3"] + row_squares(3, 1, 5) + ["G3", "H3"])
        result = s.push(parse_move("I0@B3"))
        assert [a["squares"] for a in result["areas"]] == [["A3"], ["G3", "H3"]]
        assert result["points"] == 1 * 1 + 2 * 2

    def test_scored_area_is_drawn_with_token_values(self) -> None:
        s = with_open(row_squares(3, 0, 2) + row_squares(3, 2, 5))
        s.push(parse_move("I0@C3"))
        assert s.site_rows(0)[2][0] == "2"


class TestTokenSupply:
    def test_tokens_are_taken_from_the_shared_supply(self) -> None:
        s = with_open(row_squares(3, 0, 4) + row_squares(3, 4, 5))
        s.push(parse_move("I0@E3"))
        assert s.supply == [18, 18, 18, 16]  # A3 and D3 are scarabs in a 4-square area

    def test_shortage_is_paid_with_smaller_tokens(self) -> None:
        s = with_open(row_squares(3, 0, 4) + row_squares(3, 4, 5))
        s.supply = [18, 18, 18, 1]
        result = s.push(parse_move("I0@E3"))
        assert result["areas"][0]["tokens"] == [[4], [3, 1]]
        assert s.scores[0] == 8 and s.supply == [17, 18, 17, 0]

    def test_what_cannot_be_paid_is_lost(self) -> None:
        s = with_open(row_squares(3, 0, 4) + row_squares(3, 4, 5))
        s.supply = [0, 1, 0, 1]
        result = s.push(parse_move("I0@E3"))
        assert result["areas"][0]["tokens"] == [[4], []]
        assert s.scores[0] == 4 and s.supply == [0, 1, 0, 0]
        assert "0" in s.site_rows(0)[2]

    def test_seat_order_within_a_round(self) -> None:
        s = with_open(row_squares(3, 0, 4) + row_squares(3, 4, 5), players=2)
        s.supply = [18, 18, 18, 1]
        first = s.push(parse_move("I0@E3"))
        second = s.push(parse_move("I0@E3"))
        assert first["seat"] == 0 and second["seat"] == 1
        assert first["areas"][0]["tokens"] == [[4], [3, 1]]
        assert second["areas"][0]["tokens"] == [[3, 1], [3, 1]]


class TestRoundsAndPlayers:
    def test_twelve_rounds(self) -> None:
        s = random_game(4)
        assert s.is_over() and len(s.history()) == ROUNDS
        assert s.tile() is None and s.legal_moves() == []
        with pytest.raises(IllegalMove) as info:
            s.push(DISCARD)
        assert info.value.code == "game-over"

    def test_every_tile_once_in_deck_order(self) -> None:
        s = random_game(5)
        played = [m.tile for m in s.history() if isinstance(m, Place)]
        order = [t for t in s.deck if t in played]
        assert played == order

    def test_four_players_place_the_same_tile_in_seat_order(self) -> None:
        s = random_game(6, players=4)
        assert len(s.history()) == 4 * ROUNDS
        for rnd in range(ROUNDS):
            moves = s.history()[rnd * 4 : rnd * 4 + 4]
            assert {m.tile for m in moves if isinstance(m, Place)} <= {s.deck[rnd]}
        outcome = s.outcome()
        assert outcome is not None and outcome.scores == tuple(s.scores)

    def test_to_move_cycles_through_seats(self) -> None:
        s = fresh(players=3)
        seen = []
        for _ in range(6):
            seen.append(s.to_move())
            s.push(s.legal_moves()[0])
        assert seen == [0, 1, 2, 0, 1, 2]
        assert s.round == 3

    def test_ties_share_the_victory(self) -> None:
        s = random_game(7, players=2)
        s.scores = [10, 10]
        outcome = s.outcome()
        assert outcome is not None and outcome.winners == (0, 1)

    @pytest.mark.parametrize("players", [0, 5])
    def test_one_to_four_players(self, players: int) -> None:
        with pytest.raises(ValueError):
            ScarabyaState.new(players)


class TestSolo:
    def test_perfect_dig_needs_all_24_scarabs_paid(self) -> None:
        s = random_game(8)
        assert s.perfect_dig(0) == (s.symbols_scored(0) == 24)
        outcome = s.outcome()
        assert outcome is not None and outcome.detail["perfect_dig"] == [s.perfect_dig(0)]
        assert outcome.winners == (0,)
