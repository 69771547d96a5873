"""The computer opponent: look-ahead, exact endgames, slices, determinism, every player count."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.core import Rng
from game.thot import ThotState
from game.thot.board import COLUMN
from game.thot.match import opening_bench, selfplay
from game.thot.search import (
    LEVELS,
    SCALE,
    TOP_LEVEL,
    Level,
    Search,
    best_move,
    greedy_move,
    hint,
    level_of,
)

from tests.thot.helpers import build

# A1 priest. Greedy takes +5 on H1 and then loses the +8 on H4; looking ahead takes +3 on C1,
# leaves the opponent only +1 on C4, and gets the +8 next: 3 + 8 against 1 + 5.
TRAP = {"C1": "+3", "H1": "+5", "C4": "+1", "H4": "+8"}


def brute(s: ThotState, root: int) -> int:
    """Plain minimax over the same moves (two players), in the search's quarter points."""
    if s.scarabs == 0 or not s._gen():
        margin = s.score[s.mover] - s.score[1 - s.mover]
        if margin == 0:
            sides, tiebreak = s.ranking()
            return 0 if tiebreak == "draw" else 1 if s.mover in sides else -1
        return margin * SCALE
    best = -(1 << 30)
    for code in s._gen():
        s._make(code)
        best = max(best, -brute(s, root))
        s._unmake()
    return best


class TestLookAhead:
    def test_greedy_falls_into_the_trap(self) -> None:
        s = build(TRAP, "A1", axis=0)
        assert s.move_text(greedy_move(s, Rng(1))) == "H1"
        assert best_move(s, 1).move == s.parse_move("H1")

    @pytest.mark.parametrize("level", [2, 3])
    def test_deeper_levels_avoid_it(self, level: int) -> None:
        s = build(TRAP, "A1", axis=0)
        assert best_move(s, level).move == s.parse_move("C1")

    def test_top_level_solves_the_trap_exactly(self) -> None:
        res = best_move(build(TRAP, "A1", axis=0), TOP_LEVEL)
        assert res.exact and res.value == 5 and len(res.pv) == 4

    def test_drops_a_negative_scarab_where_the_opponent_must_take_it(self) -> None:
        # Taking the ankh on C1 and dropping the -8 on column C (which the opponent must use
        # next, and where it is then the only piece) wins 16 points of margin.
        s = build({"C1": "A", "A3": "+1", "H3": "+2"}, "A1", axis=0, collections=[["-8"], []])
        res = best_move(s, TOP_LEVEL)
        assert res.move is not None and res.move.drop is not None and res.move.piece == -8
        assert res.exact and res.value >= 8


class TestExactEndgames:
    @settings(max_examples=12, deadline=None)
    @given(st.integers(0, 2**32), st.booleans())
    def test_matches_plain_minimax(self, seed: int, turnoff: bool) -> None:
        s = ThotState.new(seed=seed, short=True, turnoff=turnoff)
        rng = Rng(seed)
        while not s.is_over() and s.scarabs + 2 * s.ankhs > 9:
            s.push(rng.choice(s.legal_moves()))
        if s.is_over():
            return
        res = Search(s, TOP_LEVEL, search_forced=True).run()
        assert res.exact
        assert res.value * SCALE == brute(s.copy(), s.mover)


class TestSlices:
    def test_stepping_gives_the_same_answer_as_running(self) -> None:
        s = ThotState.new(seed=21)
        whole = Search(s, TOP_LEVEL).run()
        sliced = Search(s, TOP_LEVEL)
        steps = 0
        while not sliced.step(2):
            steps += 1
        assert steps > 1
        assert sliced.result().move == whole.move
        assert (sliced.result().nodes, sliced.result().depth) == (whole.nodes, whole.depth)

    @pytest.mark.parametrize("plies", [0, 30, 60])
    def test_a_slice_is_a_small_amount_of_work(self, plies: int) -> None:
        # The page's frame budget: between two yields the search visits a bounded number of
        # nodes (a few ms), wherever the game is.
        s = ThotState.new(seed=12)
        rng = Rng(12)
        for _ in range(plies):
            if s.is_over():
                break
            s.push(rng.choice(s.legal_moves()))
        search = Search(s, TOP_LEVEL)
        before, worst = 0, 0
        while not search.step(0):
            worst = max(worst, search.nodes - before)
            before = search.nodes
        assert 0 < worst <= 2_000

    def test_time_cap_stops_the_search_with_a_move(self) -> None:
        ticks = iter(range(10**9))
        s = ThotState.new(seed=3)
        res = Search(s, TOP_LEVEL, time_budget=50, clock=lambda: float(next(ticks))).run()
        assert res.move is not None and res.move in s.legal_moves()
        assert res.nodes < LEVELS[TOP_LEVEL].node_limit

    def test_search_leaves_the_game_untouched(self) -> None:
        s = ThotState.new(seed=5)
        before = s.position()
        best_move(s, 2)
        assert s.position() == before


class TestDeterminism:
    @pytest.mark.parametrize("level", sorted(LEVELS))
    def test_same_position_same_move(self, level: int) -> None:
        s = ThotState.new(seed=8, turnoff=True)
        a, b = best_move(s, level), best_move(s, level)
        assert a.move == b.move and a.value == b.value and a.nodes == b.nodes

    def test_unknown_level(self) -> None:
        with pytest.raises(ValueError, match="level 9"):
            level_of(9)
        assert level_of(Level("x", 2, 100)).max_depth == 2


class TestManyPlayers:
    @pytest.mark.parametrize("players, teams", [(3, False), (4, False), (4, True)])
    def test_each_setting_plays_legal_moves_to_the_end(self, players: int, teams: bool) -> None:
        s = ThotState.new(players=players, teams=teams, short=True, seed=players)
        fast = Level("test", max_depth=3, node_limit=3000)
        while not s.is_over():
            res = best_move(s, fast)
            assert res.move is not None
            s.push(res.move)
        assert s.outcome() is not None

    def test_team_search_counts_the_partner(self) -> None:
        # Seat 0 on A1; its partner (seat 1) moves next along column C. Taking C1 (+1) leaves the
        # partner the +8 on C6; taking E1 (+2) leaves column E's -7 to the partner.
        s = build({"C1": "+1", "E1": "+2", "C6": "+8", "E6": "-7", "B6": "+1"}, "A1", axis=0,
                  players=4, teams=True, collections=[[], [], [], []])
        res = best_move(s, TOP_LEVEL)
        assert s.move_text(res.move) == "C1"  # type: ignore[arg-type]

    def test_paranoid_three_players(self) -> None:
        s = build(TRAP, "A1", axis=0, players=3, collections=[[], [], []])
        res = best_move(s, TOP_LEVEL)
        assert res.move is not None and res.exact


class TestHint:
    def test_hint_gives_the_move_and_its_gain(self) -> None:
        s = build(TRAP, "A1", axis=0, collections=[["+2"], ["+4"]])
        h = hint(s)
        assert h["move"] == "C1" and h["take"] == 3
        assert h["gain"] == 5 and h["value"] == 3

    def test_hint_when_over(self) -> None:
        s = build({"C1": "+1"}, "A1", axis=COLUMN)
        assert hint(s)["move"] is None


class TestTools:
    def test_selfplay_is_reproducible_and_fair(self) -> None:
        a = selfplay(2, "1", "greedy", seed=4, short=True)
        b = selfplay(2, "1", "greedy", seed=4, short=True)
        assert a["wins"] == b["wins"] and a["mean_score"] == b["mean_score"]
        assert a["games"] == 2 and sum(a["wins"].values()) == 2

    def test_opening_bench_reports_depth(self) -> None:
        report = opening_bench(seeds=1, short=True)
        assert set(report) == {lv.name for lv in LEVELS.values()}
        assert report["top"]["depth_max"] >= 4
