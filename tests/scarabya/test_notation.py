"""Move notation, one-line positions and versioned JSON records (classic and Ruins)."""

from __future__ import annotations

import json

import pytest

from game.core import GameRecord, NotationError, RecordError
from game.scarabya import DISCARD, Place, RuinsState, ScarabyaState, load, new, record, replay
from game.scarabya.grid import SITE
from game.scarabya.moves import parse_move
from game.scarabya.ruins import PiecePlace, parse_piece_move
from tests.scarabya.helpers import random_game


class TestMoveNotation:
    def test_placement(self) -> None:
        assert parse_move("L3@E5") == Place("L", 3, SITE.parse_square("E5"))
        assert parse_move("l3@e5").text() == "L3@E5"
        assert parse_move("I1@J10").text() == "I1@J10"

    def test_discard(self) -> None:
        assert parse_move("-") == DISCARD and DISCARD.text() == "-"

    @pytest.mark.parametrize(
        "text,column",
        [("", None), ("Q3@E5", 0), ("L8@E5", 1), ("L3E5", 2), ("L3@K5", 3), ("L3@E11", 3), ("L3@", 3)],
    )
    def test_malformed_says_where(self, text: str, column: int | None) -> None:
        with pytest.raises(NotationError) as info:
            parse_move(text)
        assert info.value.column == column

    def test_every_legal_move_round_trips(self) -> None:
        s = random_game(11, upto=5)
        for m in s.legal_moves():
            assert s.parse_move(s.move_text(m)) == m

    def test_equivalent_orientation_is_accepted(self) -> None:
        # X looks the same in all 8 orientations; the written one is kept in the record
        s = ScarabyaState.new(1, "1.0-2.0-3.0-4.0", "XILNPTUVWFYZ")
        s.push(parse_move("X5@D4"))
        assert s.history()[0].text() == "X5@D4"
        assert [m.text() for m in s.legal_moves()][:1] != ["X5@D4"]

    def test_ruins_pieces(self) -> None:
        assert parse_piece_move("4t1@c3") == PiecePlace("4T", 1, 2 * 6 + 2)
        assert PiecePlace("2I", 0, 0).text() == "2I0@A1"
        for bad in ("5T1@C3", "4T9@C3", "4T1C3", "4T1@G1"):
            with pytest.raises(NotationError):
                parse_piece_move(bad)


class TestPosition:
    def test_start_position(self) -> None:
        s = ScarabyaState.new(2, "1.0-2.3-3.1-4.2", "LIPNTUVWXYZF", seed=7)
        assert s.position() == "classic 2 1.0-2.3-3.1-4.2 LIPNTUVWXYZF ./. 7"

    @pytest.mark.parametrize("players,upto", [(1, 0), (1, 7), (1, 12), (3, 10), (4, 48)])
    def test_round_trip(self, players: int, upto: int) -> None:
        s = random_game(players * 100 + upto, players=players, upto=upto)
        again = ScarabyaState.from_position(s.position())
        assert again.position() == s.position()
        assert again.view() == s.view()

    def test_seed_is_optional(self) -> None:
        s = ScarabyaState.from_position("classic 1 1.0-2.3-3.1-4.2 LIPNTUVWXYZF .")
        assert s.seed == 0

    @pytest.mark.parametrize(
        "text,words",
        [
            ("classic 5 1.0-2.3-3.1-4.2 LIPNTUVWXYZF .", "players"),
            ("classic 1 1.0-2.3-3.1 LIPNTUVWXYZF .", "layout"),
            ("classic 1 1.0-2.3-3.1-4.2 LIPNTUVWXYZ .", "deck"),
            ("classic 2 1.0-2.3-3.1-4.2 LIPNTUVWXYZF .", "seats"),
            ("classic 2 1.0-2.3-3.1-4.2 LIPNTUVWXYZF ./L0@E5", "level"),
            ("classic 1 1.0-2.3-3.1-4.2 LIPNTUVWXYZF L0@A1", "round 1"),
            ("classic 1 1.0-2.3-3.1-4.2 LIPNTUVWXYZF L0@E5 x", "seed"),
            ("classic 1 1.0-2.3-3.1-4.2", "classic PLAYERS"),
            ("chess 1 1.0-2.3-3.1-4.2 LIPNTUVWXYZF .", "variant"),
        ],
    )
    def test_malformed_positions_name_the_problem(self, text: str, words: str) -> None:
        with pytest.raises(NotationError) as info:
            load(text)
        assert words in str(info.value)

    def test_ruins_round_trip(self) -> None:
        s = new(3, seed=4, variant="ruins")
        for _ in range(14):
            s.push(s.legal_moves()[len(s.legal_moves()) // 2])
        again = load(s.position())
        assert isinstance(again, RuinsState)
        assert again.position() == s.position() and again.view() == s.view()


class TestRecords:
    def test_classic_replays_exactly(self) -> None:
        s = random_game(12, players=2)
        rec = record(s)
        data = json.loads(rec.dumps())
        assert data["version"] == 1 and data["game"] == "scarabya"
        assert data["options"] == {
            "variant": "classic",
            "players": 2,
            "layout": s.layout.text(),
            "deck": s.deck,
        }
        again = replay(rec.dumps())
        assert again.position() == s.position() and again.scores == s.scores

    def test_ruins_replays_exactly(self) -> None:
        s = new(2, seed=5, variant="ruins")
        while not s.is_over():
            s.push(s.legal_moves()[0])
        again = replay(record(s).dumps())
        assert again.position() == s.position() and again.scores == s.scores

    def test_bad_move_in_record_names_the_turn(self) -> None:
        s = random_game(13, upto=3)
        rec = record(s)
        rec.moves[1] = "X0@A1"
        with pytest.raises(RecordError) as info:
            replay(rec.dumps())
        assert info.value.turn == 2

    def test_record_for_another_game_is_refused(self) -> None:
        rec = GameRecord("thot", {}, 0, [])
        with pytest.raises(RecordError):
            replay(rec.dumps())


class TestDeal:
    def test_seed_deals_layout_and_deck(self) -> None:
        a, b = ScarabyaState.new(1, seed=42), ScarabyaState.new(1, seed=42)
        assert a.position() == b.position()

    def test_giving_the_layout_keeps_the_seeds_deck(self) -> None:
        dealt = ScarabyaState.new(1, seed=42)
        chosen = ScarabyaState.new(1, layout="4.1-3.2-2.3-1.0", seed=42)
        assert chosen.deck == dealt.deck and chosen.layout.text() == "4.1-3.2-2.3-1.0"


class TestRendererHelpers:
    def test_squares_of_a_placement(self) -> None:
        s = ScarabyaState.new(1, "1.0-2.0-3.0-4.0", "LIXNPTUVWFYZ")
        assert s.squares_of(parse_move("L0@E5")) == ["E5", "F5", "G5", "H5", "E6"]
        assert s.squares_of(parse_move("L0@H5")) == []  # off the frame
        assert s.squares_of(DISCARD) == []

    def test_current_tile_orientations_match_the_moves(self) -> None:
        s = ScarabyaState.new(1, "1.0-2.0-3.0-4.0", "LIXNPTUVWFYZ")
        shapes = s.view()["tile_orientations"]
        assert [o["k"] for o in shapes] == list(range(8))
        assert shapes[0]["cells"] == [[0, 0], [0, 1], [1, 0], [2, 0], [3, 0]]

    def test_ruins_piece_shapes(self) -> None:
        r = new(2, seed=1, variant="ruins")
        assert isinstance(r, RuinsState)
        assert len(r.view()["piece_shapes"]["4O"]) == 1
        assert r.squares_of(PiecePlace("4O", 0, 0)) == ["A1", "B1", "A2", "B2"]
