"""Game flow: setup and the draw for the start, turns, passes, the end, settlement, undo, view."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from game.core import IllegalMove
from game.scarabeo import Pass, ScarabeoState, SetWordList, settlement
from game.scarabeo.tiles import full_set

from tests.scarabeo.helpers import state_with

WORDS = ["CONTARE", "SCONTARE", "CANNA", "ORA", "ORE", "RE", "TE", "AB", "BA", "BRA", "CONTARESE"]


class TestSetup:
    @pytest.mark.parametrize("players", [2, 3, 4])
    def test_racks_of_eight_and_all_tiles_accounted_for(self, players: int) -> None:
        s = ScarabeoState.new(players, seed=11)
        assert [len(r) for r in s.racks] == [8] * players
        assert len(s.bag) == 130 - 8 * players
        assert Counter(s.tiles_everywhere()) == Counter(full_set())

    @pytest.mark.parametrize("players", [1, 5, 0])
    def test_player_count(self, players: int) -> None:
        with pytest.raises(ValueError, match="2-4 players"):
            ScarabeoState.new(players, seed=1)

    def test_vote_mode_needs_three_players(self) -> None:
        with pytest.raises(ValueError, match="3 or 4"):
            ScarabeoState.new(2, seed=1, check_mode="vote")

    def test_same_seed_same_game(self) -> None:
        a, b = ScarabeoState.new(3, seed=99), ScarabeoState.new(3, seed=99)
        assert a.position() == b.position() and a.start_draw == b.start_draw
        assert ScarabeoState.new(3, seed=98).position() != a.position()

    @pytest.mark.parametrize("seed", range(12))
    def test_draw_for_start(self, seed: int) -> None:
        s = ScarabeoState.new(4, seed=seed)
        last = s.start_draw[-1]
        best = min(d["letter"] for d in last)
        assert [d["seat"] for d in last if d["letter"] == best] == [s.starter]
        assert s.to_move() == s.starter
        for rnd in s.start_draw:
            for d in rnd:
                assert d["letter"] != "?" and all(t == "?" for t in d["tiles"][:-1])
        for earlier, later in zip(s.start_draw, s.start_draw[1:]):
            best = min(d["letter"] for d in earlier)
            assert sorted(d["seat"] for d in later) == sorted(
                d["seat"] for d in earlier if d["letter"] == best)

    def test_a_drawn_scarab_is_drawn_again_and_ties_draw_again(self) -> None:
        seeds = range(400)
        scarab = next(seed for seed in seeds if any(
            len(d["tiles"]) > 1 for r in ScarabeoState.new(4, seed).start_draw for d in r))
        tie = next(seed for seed in seeds if len(ScarabeoState.new(4, seed).start_draw) > 1)
        draw = ScarabeoState.new(4, scarab).start_draw
        assert any(d["tiles"][0] == "?" and d["letter"] != "?" for r in draw for d in r)
        draw = ScarabeoState.new(4, tie).start_draw
        first_best = min(d["letter"] for d in draw[0])
        assert sum(d["letter"] == first_best for d in draw[0]) > 1
        assert len(draw[1]) == sum(d["letter"] == first_best for d in draw[0])

    def test_names(self) -> None:
        s = ScarabeoState.new(2, seed=1, names=["Anna", "Bruno"])
        assert s.view()["names"] == ["Anna", "Bruno"]
        with pytest.raises(ValueError):
            ScarabeoState.new(2, seed=1, names=["Anna"])
        with pytest.raises(ValueError):
            ScarabeoState.new(2, seed=1, names=["Anna", "x\ny"])


class TestTurns:
    def test_play_draws_back_to_eight_and_passes_the_turn(self) -> None:
        s = state_with([], "CONTAREO", WORDS, others=("ABCDEFGH",))
        bag = len(s.bag)
        s.push(s.parse_move("9F CONTARE"))
        assert len(s.racks[0]) == 8 and len(s.bag) == bag - 7
        assert s.to_move() == 1 and s.scores == [56, 0]

    def test_pass_scores_zero(self) -> None:
        s = state_with([], "CONTAREO", WORDS, others=("ABCDEFGH",))
        r = s.push(Pass())
        assert r.score == 0 and s.to_move() == 1 and s.idle == 1

    def test_second_play_is_not_doubled(self) -> None:
        s = state_with(["9F CONTARE"], "SOOOOOOO", WORDS, others=("ABCDEFGH",))
        s.first_play = False
        assert s.push(s.parse_move("9E SCONTARE")).score == 9

    def test_the_played_move_is_canonical(self) -> None:
        s = state_with(["9F CONTARE"], "SOOOOOOO", WORDS)
        s.first_play = False
        s.push(s.parse_move("9E S......."))
        assert s.move_text(s.history()[0]) == "9E SCONTARE"

    def test_pop_restores_everything(self) -> None:
        s = ScarabeoState.new(2, seed=5, word_list=SetWordList([]))
        before = (s.position(), s.view())
        s.push(Pass())
        s.push(Pass())
        s.pop()
        s.pop()
        assert (s.position(), s.view()) == before
        with pytest.raises(IndexError):
            s.pop()

    def test_check_does_not_change_the_state(self) -> None:
        s = state_with([], "CONTAREO", WORDS)
        before = s.position()
        s.check(s.parse_move("9F CONTARE"))
        assert s.position() == before and s.history() == []

    def test_preview_gives_the_breakdown(self) -> None:
        s = state_with([], "CONTAREO", WORDS)
        r = s.preview(s.parse_move("9F CONTARE"))
        assert r.breakdown is not None and r.score == 56 and s.history() == []


class TestEnd:
    def test_closing_gains_the_other_racks_and_they_lose_theirs(self) -> None:
        s = state_with(["9F CONTARE"], "B", WORDS, others=("Q?",), check_mode="dictionary")
        s.first_play = False
        s.bag.clear()
        r = s.push(s.parse_move("J8 BA"))  # B on J8 above the A of CONTARE
        assert r.ended and s.is_over()
        out = s.outcome()
        assert out is not None and out.reason == "closed"
        play = r.score
        assert out.detail["adjustments"] == [10 + 30, -(10 + 30)]
        assert out.scores == (play + 40, -40)
        assert out.winners == (0,)

    def test_two_idle_turns_each_ends_the_game(self) -> None:
        s = state_with(["9F CONTARE"], "AB", WORDS, others=("Q",), )
        for _ in range(3):
            s.push(Pass())
            assert not s.is_over()
        s.push(Pass())
        out = s.outcome()
        assert out is not None and out.reason == "passes"
        assert out.scores == (-(1 + 4), -10) and out.detail["adjustments"] == [-5, -10]

    def test_a_play_resets_the_idle_count(self) -> None:
        s = state_with(["9F CONTARE"], "ABOOOOOO", WORDS, others=("QQ",))
        s.first_play = False
        s.push(Pass())
        s.push(Pass())
        assert s.idle == 2
        s.push(s.parse_move("J8 BA"))
        assert s.idle == 0 and not s.is_over()

    def test_no_move_after_the_end(self) -> None:
        s = state_with(["9F CONTARE"], "A", WORDS, others=("Q",))
        for _ in range(4):
            s.push(Pass())
        assert s.legal_moves() == []
        with pytest.raises(IllegalMove) as info:
            s.push(Pass())
        assert info.value.code == "game-over"


class TestSettlement:
    def test_each_wins_the_difference_from_everyone_below(self) -> None:
        table = settlement([100, 250, 180, 90])
        assert table["order"] == [1, 2, 0, 3]
        pay = {(p["winner"], p["loser"]): p["amount"] for p in table["payments"]}
        assert pay[(1, 2)] == 70 and pay[(1, 0)] == 150 and pay[(1, 3)] == 160
        assert pay[(2, 0)] == 80 and pay[(2, 3)] == 90 and pay[(0, 3)] == 10
        assert table["net"] == [-150 - 80 + 10, 150 + 70 + 160, -70 + 80 + 90, -160 - 90 - 10]
        assert sum(table["net"]) == 0

    def test_in_the_outcome(self) -> None:
        s = state_with(["9F CONTARE"], "A", WORDS, others=("Q",))
        for _ in range(4):
            s.push(Pass())
        out = s.outcome()
        assert out is not None and out.detail["settlement"] == settlement(list(out.scores))


class TestView:
    def test_view_is_json_and_complete(self) -> None:
        s = ScarabeoState.new(3, seed=4, names=["A", "B", "C"])
        v = s.view()
        json.dumps(v)
        for key in ("board", "premiums", "racks", "scores", "to_move", "start_draw", "bag_count",
                    "pending", "last", "over", "outcome", "position", "check_mode", "swappable"):
            assert key in v
        assert len(v["board"]) == 17 and all(len(r) == 17 for r in v["board"])
        assert v["start_draw"] == s.start_draw

    def test_legal_moves_lists_pass_and_exchange(self) -> None:
        s = state_with(["9F CONTARE"], "AAEEIIOU", WORDS)
        texts = [s.move_text(m) for m in s.legal_moves()]
        assert texts == ["-", "-AAEEIIOU"]
        for m in s.legal_moves():
            s.check(m)
