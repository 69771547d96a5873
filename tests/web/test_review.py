"""The review page's logic (web/platform/review_model.py): the hidden-information rule, the cache in a save,
stepping, and the chart's series."""

from __future__ import annotations

from typing import Any

import pytest

from game.core import GameRecord, Rng
from game.core.analysis import Progress, run
from web.platform import engines, review_model
from web.platform.review_model import Scope, analysis_scope
from web.platform.session import LOCAL_META


def thot_record(moves: int | None, seed: int = 3) -> GameRecord:
    state = engines.factory("thot")({"players": 2, "short": True}, seed)
    rng = Rng(seed)
    while not state.is_over() and (moves is None or len(state.history()) < moves):
        state.push(rng.choice(list(state.legal_moves())))
    return GameRecord.of(state)


class TestScope:
    def test_finished_game_analyses_everything(self) -> None:
        assert analysis_scope([True, True], over=True, replay_only=False) == Scope(True, None)

    def test_watch_only_link_analyses_nothing(self) -> None:
        s = analysis_scope([True, True], over=False, replay_only=True)
        assert (s.finished, s.viewer, s.note) == (False, None, "review.scope.replay")

    def test_against_the_computer_the_persons_own_moves(self) -> None:
        s = analysis_scope([False, True], over=False, replay_only=False)
        assert (s.finished, s.viewer) == (False, 1)

    def test_pass_and_play_in_progress_nobody(self) -> None:
        s = analysis_scope([True, True], over=False, replay_only=False)
        assert (s.finished, s.viewer, s.note) == (False, None, "review.scope.progress")

    def test_the_cache_stays_out_of_links(self) -> None:
        assert review_model.CACHE_KEY in LOCAL_META


class TestAnalysisAndCache:
    @pytest.fixture(scope="class")
    def record(self) -> GameRecord:
        return thot_record(6)

    def test_own_moves_only_and_cache_round_trip(self, record: GameRecord) -> None:
        scope = analysis_scope([True, False], over=False, replay_only=False)
        progress = Progress()
        a = run(review_model.analyse_steps(record, scope, progress))
        assert progress.done == progress.total == 6
        assert [m.analysed for m in a.moves] == [True, False] * 3
        assert all(m.reason == "hidden" and not m.best for m in a.moves if m.seat == 1)
        meta: dict = {}
        review_model.remember(meta, a)
        assert review_model.cached(meta, record, scope) == a
        # another viewer, or one move more, and the cache no longer answers
        assert review_model.cached(meta, record, Scope(False, 1)) is None
        longer = thot_record(7)
        assert review_model.cached(meta, longer, scope) is None
        assert review_model.cached({"analysis": {"format": "x"}}, record, scope) is None
        assert review_model.cached({}, record, scope) is None

    def test_watch_only_reveals_nothing_and_draws_no_line(self, record: GameRecord) -> None:
        a = run(review_model.analyse_steps(record, Scope(False, None), Progress()))
        assert not any(m.analysed or m.best or m.played for m in a.moves)
        assert review_model.advantage(a.moves, "thot", 0, 6) == [0.0] + [None] * 6
        assert review_model.marks(a.moves) == []

    def test_thot_line_is_one_sides_evaluation(self, record: GameRecord) -> None:
        a = run(review_model.analyse_steps(record, Scope(True, None), Progress()))
        ada, bea = (review_model.advantage(a.moves, "thot", side, 6) for side in (0, 1))
        assert len(ada) == 7 and ada[0] == 0.0
        m = a.moves[0]
        assert m.evaluation is not None and ada[1] == m.evaluation[0] == -bea[1]
        assert review_model.marks(a.moves) == [(m.ply, m.klass) for m in a.moves
                                               if m.klass in ("inaccuracy", "mistake", "blunder")]

    def test_the_moves_are_readable_as_they_are_analysed(self, record: GameRecord) -> None:
        """The review fills its chart move by move: ``Progress.moves`` holds each move's analysis as
        soon as it is made, the same as the finished analysis's."""
        progress = Progress()
        steps = review_model.analyse_steps(record, Scope(True, None), progress)
        seen = []
        while True:
            try:
                next(steps)
            except StopIteration as stop:
                final = stop.value
                break
            assert len(progress.moves) == progress.done
            seen.append(len(progress.moves))
            line = review_model.advantage(progress.moves, "thot", 0, 6)
            assert line[len(progress.moves) + 1:] == [None] * (6 - len(progress.moves))
        assert seen[0] <= 1 and seen[-1] == 6 and sorted(seen) == seen
        assert tuple(progress.moves) == final.moves


class TestAdvantage:
    def test_score_games_lead_over_the_best_rival(self) -> None:
        assert review_model.lead([10.0, 30.0, 20.0], 0) == -20.0
        assert review_model.lead([40.0, 30.0, 20.0], 0) == 10.0
        assert review_model.lead([7.0], 0) == 7.0  # a game of one: its own score
        assert review_model.lead([None, 3.0], 0) is None

    def test_a_scarabya_line_from_the_scores(self) -> None:
        from game.scarabya import analysis

        state = engines.factory("scarabya")({"players": 2}, 3)
        rng = Rng(3)
        while len(state.history()) < 6:
            state.push(rng.choice(list(state.legal_moves())))
        a = analysis.analyse(GameRecord.of(state))
        line = review_model.advantage(a.moves, "scarabya", 1, 6)
        assert line == [0.0] + [float(m.scores[1] - m.scores[0]) for m in a.moves]

    def test_the_side_is_the_viewer_else_the_first_person(self) -> None:
        assert review_model.side_of([True, False], None) == 0
        assert review_model.side_of([False, True], None) == 1
        assert review_model.side_of([True, True], 1) == 1
        assert review_model.side_of([False, False], None) == 0

    def test_a_symmetric_axis(self) -> None:
        assert review_model.symmetric_range([0.0, 2.5, None, -7.2]) == (-8.0, 8.0)
        assert review_model.symmetric_range([0.0, None]) == (-1.0, 1.0)

    def test_moves_analysed_so_far(self) -> None:
        record = thot_record(4)
        a = run(review_model.analyse_steps(record, Scope(True, None), Progress()))
        first = list(a.moves[:2])
        assert review_model.move_in(first, 2) == a.moves[1]
        assert review_model.move_in(first, 3) is None and review_model.move_in(first, 0) is None


class TestStepping:
    def test_keys(self) -> None:
        assert review_model.step_for_key("ArrowRight", 3, 10) == 4
        assert review_model.step_for_key("ArrowLeft", 0, 10) == 0
        assert review_model.step_for_key("Home", 5, 10) == 0
        assert review_model.step_for_key("End", 5, 10) == 10
        assert review_model.step_for_key("a", 5, 10) is None

    def test_swipe(self) -> None:
        assert review_model.step_for_swipe(-80, 5, 3, 10) == 4  # to the left: the next move
        assert review_model.step_for_swipe(80, 5, 3, 10) == 2
        assert review_model.step_for_swipe(20, 0, 3, 10) is None  # too short
        assert review_model.step_for_swipe(60, 70, 3, 10) is None  # a scroll, not a swipe

    def test_chart_geometry(self) -> None:
        low, high = -3.0, 5.0
        pts = review_model.points([0.0, 5.0, None, -3.0], low, high, 0, 30, 0, 80)
        assert [k for k, _, _ in pts] == [0, 1, 3]
        assert pts[1][1:] == (10.0, 0.0) and pts[2][1:] == (30.0, 80.0)
        assert review_model.step_at(14, 0, 30, 3) == 1 and review_model.step_at(99, 0, 30, 3) == 3

    def test_numbers(self) -> None:
        assert review_model.number(2.5, "it") == "2,5"
        assert review_model.number(-1.25, "en") == "\u22121.25"
        assert review_model.number(0.0, "en") == "0" and review_model.number(None, "en") == "—"


class TestAnalysisFromOutside:
    """Issue 24: whatever a stored or received analysis holds, the review reads it through one door
    (``review_model.read``): refused with the engine's reason, never a crash further on."""

    @pytest.fixture(scope="class")
    def finished(self) -> tuple[GameRecord, dict]:
        record = thot_record(None)
        a = run(review_model.analyse_steps(record, Scope(True, None), Progress()))
        meta: dict = {}
        review_model.remember(meta, a)
        return record, meta

    def test_a_sound_analysis_is_read(self, finished: tuple[GameRecord, dict]) -> None:
        record, meta = finished
        reading = review_model.read(meta, record, Scope(True, None))
        assert reading.refused is None and reading.analysis is not None
        assert len(reading.analysis.moves) == len(record.moves)

    def test_none_and_stale_are_not_refusals(self, finished: tuple[GameRecord, dict]) -> None:
        record, meta = finished
        assert review_model.read({}, record, Scope(True, None)) == review_model.Reading()
        assert review_model.read(meta, record, Scope(False, 0)) == review_model.Reading()
        assert review_model.read(meta, thot_record(4), Scope(True, None)) == review_model.Reading()

    @pytest.mark.parametrize("tamper", [
        lambda a: a["moves"][0].update(seat=99),
        lambda a: a["moves"][0].update(seat=-5),
        lambda a: a["moves"][0].update(scores=[10 ** 40, 0]),
        lambda a: a["moves"][0].update(move="A" * 150_000),
        lambda a: a["moves"][0]["best"][0].update(value=1e308) if a["moves"][0]["best"] else a["moves"][0].update(ply="x"),
        lambda a: a.update(moves=5),
        lambda a: a.update(format="something else"),
    ])
    def test_a_tampered_analysis_is_refused_with_a_reason(self, finished: tuple[GameRecord, dict], tamper: Any) -> None:
        import copy

        record, meta = finished
        bad = copy.deepcopy(meta)
        tamper(bad[review_model.CACHE_KEY])
        reading = review_model.read(bad, record, Scope(True, None))
        assert reading.analysis is None
        assert reading.refused and len(reading.refused) <= 300 and "Traceback" not in reading.refused

    def test_issue_24_scarabya_squares_set_to_a_number(self) -> None:
        """Every ``best[j].squares`` of a Scarabya analysis set to 5: refused before anything draws it."""
        state = engines.factory("scarabya")({"players": 1}, 11)
        rng = Rng(11)
        while not state.is_over() and len(state.history()) < 3:
            state.push(rng.choice(list(state.legal_moves())))
        record = GameRecord.of(state)
        a = run(review_model.analyse_steps(record, Scope(False, 0), Progress()))
        meta: dict = {}
        review_model.remember(meta, a)
        assert review_model.read(meta, record, Scope(False, 0)).analysis is not None
        touched = 0
        for m in meta[review_model.CACHE_KEY]["moves"]:
            for alt in m.get("best") or []:
                if "squares" in alt:
                    alt["squares"] = 5
                    touched += 1
        assert touched
        reading = review_model.read(meta, record, Scope(False, 0))
        assert reading.analysis is None and reading.refused
