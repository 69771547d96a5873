"""Hints and computer players: legal, deterministic, explained, sliceable."""

from __future__ import annotations

import pytest

from game.scarabya import DISCARD, RuinsState, ScarabyaState, new
from game.scarabya.solver import LEVELS, TOP_LEVEL, Search, choose, hint, think
from tests.scarabya.helpers import random_game, row_squares, with_open
from tests.stepping import run_counting


class TestLevels:
    @pytest.mark.parametrize("level", sorted(LEVELS))
    def test_every_level_plays_legal_moves_to_the_end(self, level: int) -> None:
        s = ScarabyaState.new(2, seed=level)
        while not s.is_over():
            move = choose(s, level)
            assert move in s.legal_moves()
            s.push(move)

    @pytest.mark.parametrize("level", sorted(LEVELS))
    def test_ruins_levels_play_legal_moves(self, level: int) -> None:
        s = new(2, seed=level, variant="ruins")
        assert isinstance(s, RuinsState)
        for _ in range(10):
            move = choose(s, level)
            assert move in s.legal_moves()
            s.push(move)

    def test_deterministic_for_a_position(self) -> None:
        s = random_game(3, upto=4)
        assert choose(s, TOP_LEVEL) == choose(ScarabyaState.from_position(s.position()), TOP_LEVEL)

    def test_discard_when_nothing_fits(self) -> None:
        s = with_open(["A1", "B1", "A2", "C1"])
        for level in LEVELS:
            assert choose(s, level) == DISCARD
        assert hint(s)["move"] == "-"

    def test_unknown_level(self) -> None:
        with pytest.raises(ValueError):
            Search(ScarabyaState.new(1), level=9)

    def test_lookahead_beats_greedy_on_average(self) -> None:
        totals = {2: 0, TOP_LEVEL: 0}
        for seed in range(3):
            for level in totals:
                s = ScarabyaState.new(1, seed=seed)
                while not s.is_over():
                    s.push(choose(s, level))
                totals[level] += s.scores[0]
        assert totals[TOP_LEVEL] > totals[2]


class TestHint:
    def test_points_and_reason_match_the_move(self) -> None:
        # row 3 is S..S..SS.S; with A3-I3 open, I0@E3 closes A3-D3 and I0@A3 closes F3-I3:
        # either way a 4-square area with 2 scarabs, 8 points
        s = with_open(row_squares(3, 0, 9))
        h = hint(s, level=2)
        assert h["points"] == 8
        assert h["reason"].startswith("Closes a 4-square area with 2 scarabs")
        result = s.push(s.parse_move(h["move"]))
        assert result["points"] == h["points"]

    def test_top_level_hint_has_expected_value(self) -> None:
        s = random_game(9, upto=3)
        h = hint(s)
        assert h["level"] == TOP_LEVEL and "expected" in h and "tiles still to come" in h["reason"]
        assert s.parse_move(h["move"]) in s.legal_moves()

    def test_budgeted_hint_is_legal(self) -> None:
        s = ScarabyaState.new(1, seed=2)
        h = hint(s, budget_ms=1)
        assert s.parse_move(h["move"]) in s.legal_moves()

    def test_ruins_hint(self) -> None:
        s = new(2, seed=3, variant="ruins")
        h = hint(s, level=2)
        assert s.parse_move(h["move"]) in s.legal_moves()
        assert isinstance(h["points"], int) and h["reason"]


class TestSlices:
    def test_sliced_search_finds_the_blocking_move(self) -> None:
        s = random_game(21, upto=2)
        search = Search(s)
        slices = 0
        while not search.step(0.5):
            slices += 1
            assert 0.0 <= search.progress <= 1.0
        assert slices > 0
        assert search.move == choose(s, TOP_LEVEL)
        assert search.progress == 1.0

    def test_level_three_answer_is_on_hand_before_the_first_sweep(self) -> None:
        s = random_game(22, upto=3)
        search = Search(s)
        assert search.best_so_far() is None
        search.step(0)
        assert not search.done and search.best_so_far() == choose(s, 3)

    def test_ruins_lookahead_runs_in_slices_too(self) -> None:
        r = new(3, seed=8, variant="ruins")
        r.push(r.legal_moves()[5])
        search = Search(r)
        search.step(0)
        assert search.best_so_far() == choose(r, 3)
        slices = 1
        while not search.step(0.5):
            slices += 1
        assert slices > 2 and search.move == choose(r, TOP_LEVEL)

    def test_game_over_has_no_search(self) -> None:
        with pytest.raises(ValueError):
            Search(random_game(2))


class TestBrowserHooks:
    def test_think_yields_and_returns_the_move_text(self) -> None:
        s = random_game(31, upto=1)
        text, count = run_counting(think(s))
        assert count > 1 and text == choose(s, TOP_LEVEL).text()

    def test_one_factory_for_both_variants(self) -> None:
        ruins = ScarabyaState.from_options({"variant": "ruins", "players": 3}, 4)
        assert isinstance(ruins, RuinsState) and ruins.num_players == 3
        classic = ScarabyaState.from_options({"players": 2}, 4)
        assert isinstance(classic, ScarabyaState)
        with pytest.raises(ValueError):
            ScarabyaState.from_options({"variant": "blitz"}, 0)
