"""The quick Ruins variant (rules.md §3 plus the decisions in docs/scarabya.md)."""

from __future__ import annotations

import pytest

from game.core import IllegalMove, Rng
from game.scarabya import RuinsState, new
from game.scarabya.ruins import (
    ALL_PIECES,
    BOARD,
    PIECE_NAMES,
    PIECES,
    ROUNDS,
    RUINS_TILES,
    SYMBOL_VALUES,
    parse_piece_move,
    tile_value,
    zone_mask,
)

IN_ORDER = "0123456789ABCDEF"
ZONES = "1234567812345678"  # round 1 lays tiles 0-3 (P, P, M, M) on zones 1-4


def game(players: int = 2) -> RuinsState:
    return RuinsState.new(players, deck=IN_ORDER, zones=ZONES)


def play(s: RuinsState, *moves: str) -> None:
    for m in moves:
        s.push(parse_piece_move(m))


def finish_round(s: RuinsState) -> None:
    rnd = s.round_index
    while not s.is_over() and s.round_index == rnd:
        s.push(s.legal_moves()[0])


class TestSet:
    def test_eight_pieces_per_player(self) -> None:
        sizes = sorted(len(PIECES[n].cells) for n in PIECE_NAMES)
        assert sizes == [2, 3, 3, 4, 4, 4, 4, 4]
        assert game().view()["hands"] == [list(PIECE_NAMES)] * 2

    def test_sixteen_ruins_tiles_with_one_to_three_symbols(self) -> None:
        assert len(RUINS_TILES) == 16
        assert all(1 <= len(t) <= 3 and set(t) <= set("PMS") for t in RUINS_TILES)
        assert SYMBOL_VALUES == {"P": 1, "M": 2, "S": 3}
        assert tile_value(15) == 9  # SSS

    def test_zones_are_the_nine_aligned_2x2_blocks(self) -> None:
        union = 0
        for z in range(1, 10):
            m = zone_mask(z)
            assert m.bit_count() == 4 and not union & m
            union |= m
        assert union == BOARD.full
        assert BOARD.names(zone_mask(5)) == ["C3", "D3", "C4", "D4"]

    def test_deal_is_deterministic_and_zones_never_overlap_in_a_round(self) -> None:
        for seed in range(20):
            a, b = RuinsState.new(2, seed), RuinsState.new(2, seed)
            assert a.position() == b.position()
            zones = a.options()["zones"]
            for r in range(ROUNDS):
                assert len(set(zones[r * 4 : r * 4 + 4])) == 4
            assert sorted(a.options()["deck"]) == sorted(IN_ORDER)

    @pytest.mark.parametrize("players", [1, 5])
    def test_two_to_four_players(self, players: int) -> None:
        with pytest.raises(ValueError):
            RuinsState.new(players)


class TestPlacement:
    def test_no_overlap(self) -> None:
        s = game()
        play(s, "4O0@A1")
        with pytest.raises(IllegalMove) as info:
            play(s, "2I0@B2")
        assert info.value.code == "overlap"

    def test_inside_the_board(self) -> None:
        with pytest.raises(IllegalMove) as info:
            play(game(), "4I0@D1")
        assert info.value.code == "outside-board"

    def test_each_piece_once_per_round(self) -> None:
        s = game()
        play(s, "2I0@A1", "2I0@A6")
        with pytest.raises(IllegalMove) as info:
            play(s, "2I0@E6")
        assert info.value.code == "piece-used"

    def test_turns_go_in_seat_order(self) -> None:
        s = game(3)
        seats = []
        for m in ("2I0@A1", "2I0@A3", "2I0@A5", "3I0@D1"):
            seats.append(s.to_move())
            play(s, m)
        assert seats == [0, 1, 2, 0]


class TestRounds:
    def test_round_ends_when_nobody_can_place_then_the_board_empties(self) -> None:
        s = game()
        finish_round(s)
        assert s.round_index == 1
        assert s.occupied == [0, 0] and s.unused == [ALL_PIECES, ALL_PIECES]
        assert s.view()["rows"] == ["......"] * 6
        assert len(s.scored) == 4

    def test_next_round_starts_with_the_next_seat(self) -> None:
        s = game(3)
        finish_round(s)
        assert s.to_move() == 1
        finish_round(s)
        assert s.to_move() == 2

    def test_players_who_cannot_place_are_passed_over(self) -> None:
        rng = Rng(5)
        for seed in range(6):
            s = RuinsState.new(3, seed)
            while not s.is_over():
                assert s.legal_moves(), "the player to move can always place"
                before = s.copy()
                move = rng.choice(s.legal_moves())
                s.push(move)
                if s.round_index != before.round_index:
                    # the round ended: after this move nobody could place any piece
                    seat = before.to_move()
                    before.occupied[seat] |= (
                        PIECES[move.piece].mask_at(BOARD, move.orientation, move.anchor) or 0
                    )
                    before.unused[seat] &= ~(1 << PIECE_NAMES.index(move.piece))
                    assert not any(before._can_place(p) for p in range(3))

    def test_four_rounds(self) -> None:
        s = game()
        for _ in range(ROUNDS):
            finish_round(s)
        assert s.is_over() and s.legal_moves() == []
        outcome = s.outcome()
        assert outcome is not None and len(s.scored) == 16


class TestScoring:
    def test_a_placement_says_its_piece_and_square(self) -> None:
        s = game()
        result = s.push(s.parse_move("2I0@A1"))
        assert result["piece"] == "2I" and result["square"] == "A1" and result["seat"] == 0

    def test_zone_covered_by_one_players_pieces_scores_its_symbols(self) -> None:
        s = game()
        play(s, "2I0@A1", "4I0@C6", "3I0@A2")  # seat 0 covers A1-B2 (zone 1, tile 0 = P) in two pieces
        finish_round(s)
        entry = next(e for e in s.scored if e["zone"] == 1)
        assert entry["seat"] == 0 and entry["points"] == 1
        assert s.scores[0] >= 1

    def test_zone_shared_by_two_players_scores_nothing(self) -> None:
        s = game()
        play(s, "2I0@A1", "2I0@A2")  # zone 1: top row seat 0, bottom row seat 1
        finish_round(s)
        entry = next(e for e in s.scored if e["zone"] == 1)
        assert entry["seat"] is None and entry["points"] == 0

    def test_scores_only_at_the_rounds_end(self) -> None:
        s = game()
        play(s, "4O0@A1")
        assert s.scores == [0, 0]
        finish_round(s)
        assert s.scores[0] >= tile_value(0)

    def test_view_marks_spoiled_zones(self) -> None:
        s = game()
        play(s, "2I0@A1", "2I0@A2")
        zone1 = s.view()["ruins"][0]
        assert zone1["zone"] == 1 and zone1["covered_by"] == [0, 1] and not zone1["claimable"]

    def test_new_factory(self) -> None:
        s = new(4, seed=1, variant="ruins")
        assert isinstance(s, RuinsState) and s.num_players == 4


class TestCopy:
    def test_a_copy_walked_back_leaves_the_game_intact(self) -> None:
        """A copy shares the undo entries: popping and pushing on it (as Session.take_back_count does to
        learn who made the last moves) must not change what the game's own take-back restores."""
        for seed in range(1, 20):
            s = game()
            rng = Rng(seed)
            for _ in range(6):
                s.push(rng.choice(list(s.legal_moves())))
            moves = [s.move_text(m) for m in s.history()]
            before = s.position() if hasattr(s, "position") else None
            c = s.copy()
            while c.history():
                c.last_mover()
                c.pop()
            while s.history():
                s.pop()
            for text in moves:
                s.push(s.parse_move(text))
            assert [s.move_text(m) for m in s.history()] == moves
            if before is not None:
                assert s.position() == before


class TestLastRoundBoard:
    def test_none_in_the_first_round(self) -> None:
        s = game()
        assert s.last_round_board() is None
        s.push(s.legal_moves()[0])
        assert s.last_round_board() is None

    def test_the_board_as_the_round_ending_placement_left_it(self) -> None:
        s = game()
        rng = Rng(5)
        while s.round_index == 0:
            before = s.copy()
            s.push(rng.choice(s.legal_moves()))
        last = s.history()[-1]
        seat = before.to_move()
        position = s.position()
        b = s.last_round_board()
        assert b is not None and s.position() == position  # asked on a copy: the game is untouched
        assert b["round"] == 1 and b["move"] == last.text() and b["seat"] == seat
        assert b["squares"] == before.squares_of(last)
        cells = "".join(b["rows"])
        assert all(cells[BOARD.parse_square(q)] == str(seat + 1) for q in b["squares"])
        # every other covered square as the round had it before the last placement
        old = "".join(before.board_rows())
        assert all(cells[i] == old[i] for i in range(36) if BOARD.names(1 << i)[0] not in b["squares"])
        for ruin in b["ruins"]:
            touched = set(ruin["squares"]) & set(b["squares"])
            assert (seat in ruin["covered_by"]) == bool(touched or seat in
                                                        next(r for r in before.view()["ruins"]
                                                             if r["zone"] == ruin["zone"])["covered_by"])
        assert b["scored"] == [e for e in s.scored if e["round"] == 1] and b["scored"]
        # a placement of the next round leaves it as it was
        s.push(s.legal_moves()[0])
        assert s.last_round_board() == b
