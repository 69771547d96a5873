"""Thot analysis: the search's own moves are best, a bad capture loses, the best move is legal and
its line replays, the move played searched as deep, one table for the game (cheaper, and values that
depend only on the record so far), ``fresh`` is the computer's own search, the hidden-information
rule, JSON, command line. Small node budgets; ``-m slow``: the agreement of the default settings with
the computer's own search over two whole games, and the review e2e test's giveaway found."""

from __future__ import annotations

import io
import json
from dataclasses import replace
from pathlib import Path

import pytest

from game.core import GameRecord, Rng
from game.core.analysis import CLASSES, Analysis, Thresholds, may_analyse
from game.thot import ThotMove, ThotState, analysis, match
from game.thot.cli import main
from game.thot.search import Search, _immediate_gain

NODES = 1500
PLIES = 6


def engine_game(plies: int = PLIES, seed: int = 3, bad_at: int | None = None) -> ThotState:
    """The analysis's own engine plays; at ply ``bad_at`` the move of least immediate gain."""
    lv = analysis.engine_level(nodes=NODES)
    state = ThotState.new(seed=seed, short=True)
    for ply in range(1, plies + 1):
        if ply == bad_at:
            code = min(state._gen(), key=lambda c: (_immediate_gain(state, c), c))
            state.push(ThotMove.from_code(code))
        else:
            res = Search(state, lv, search_forced=True).run()
            assert res.move is not None
            state.push(res.move)
    return state


@pytest.fixture(scope="module")
def game() -> ThotState:
    return engine_game()


@pytest.fixture(scope="module")
def result(game: ThotState) -> Analysis:
    return analysis.analyse(game.record(), nodes=NODES, finished=True)


class TestValues:
    def test_the_engines_own_moves_are_best(self, result: Analysis) -> None:
        assert [m.klass for m in result.moves] == ["best"] * PLIES
        assert all(m.loss == 0 and m.played == m.best[0] for m in result.moves)

    def test_a_bad_capture_loses_and_is_classed_worse(self) -> None:
        state = engine_game(plies=3, bad_at=3)
        a = analysis.analyse(state.record(), nodes=NODES, finished=True)
        bad = a.moves[2]
        assert bad.played is not None and bad.loss is not None and bad.loss > 0
        assert CLASSES.index(bad.klass or "best") >= CLASSES.index("inaccuracy")
        assert bad.loss == pytest.approx(bad.best[0].value - bad.played.value, abs=0.011)

    def test_the_best_move_is_legal_and_its_line_replays(self, game: ThotState, result: Analysis) -> None:
        state = ThotState.new(seed=game.seed, short=True)
        for m in result.moves:
            best = m.best[0]
            state.check(state.parse_move(best.move))
            assert best.detail["pv"][0] == best.move
            analysis.RULES.alternative(state, best)  # every move of its line legal in turn
            state.push(state.parse_move(m.move))
            assert list(m.scores) == state.score

    def test_the_played_move_is_searched_as_deep_as_the_best(self) -> None:
        state = engine_game(plies=3, bad_at=3)
        a = analysis.analyse(state.record(), nodes=NODES, finished=True)
        bad = a.moves[2]
        assert bad.played is not None and bad.played.move != bad.best[0].move
        assert bad.played.detail["depth"] == bad.best[0].detail["depth"] >= 1

    def test_fresh_is_the_computers_own_search(self, game: ThotState) -> None:
        a = analysis.analyse(game.record(), nodes=NODES, finished=True, fresh=True)
        assert a.engine["fresh"] is True
        lv = analysis.engine_level(nodes=NODES)
        state = ThotState.new(seed=game.seed, short=True)
        for m in a.moves:
            res = Search(state, lv, search_forced=True).run()
            assert res.move is not None and state.move_text(res.move) == m.best[0].move
            assert res.value == m.best[0].value and res.depth == m.best[0].detail["depth"]
            state.push(state.parse_move(m.move))

    def test_one_table_for_the_game_costs_fewer_nodes(self, game: ThotState, result: Analysis) -> None:
        fresh = analysis.analyse(game.record(), nodes=NODES, finished=True, fresh=True)

        def nodes(a: Analysis) -> int:
            return sum(m.best[0].detail["nodes"] for m in a.moves)
        assert nodes(result) < nodes(fresh)

    def test_values_depend_only_on_the_record_up_to_the_move(self, game: ThotState,
                                                              result: Analysis) -> None:
        # The table carried from move to move holds only this game's earlier positions: the
        # analysis of the game's first half is the first half of the whole game's.
        record = game.record()
        half = replace(record, moves=record.moves[:PLIES // 2])
        first = analysis.analyse(half, nodes=NODES, finished=True)
        assert first.moves == result.moves[:PLIES // 2]
        assert analysis.analyse(record, nodes=NODES, finished=True) == result

    def test_evaluation_per_seat_is_the_played_value_and_its_negative(self, result: Analysis) -> None:
        for m in result.moves:
            assert m.evaluation is not None and m.played is not None and m.seat is not None
            assert m.evaluation[m.seat] == m.played.value
            assert m.evaluation[1 - m.seat] == -m.played.value


class TestHiddenInformation:
    @pytest.mark.parametrize(("mover", "viewer", "finished", "reason"), [
        (0, 0, False, None), (1, 0, False, "hidden"), (0, None, False, "no-viewer"),
        (1, 0, True, None), (0, None, True, None),
    ])
    def test_the_rule(self, mover: int, viewer: int | None, finished: bool, reason: str | None) -> None:
        assert may_analyse(mover, viewer, finished) == reason

    def test_in_progress_only_the_viewers_moves(self, game: ThotState) -> None:
        a = analysis.analyse(game.record(), nodes=NODES, viewer=1)
        assert not a.finished
        assert [m.reason for m in a.moves] == ["hidden", None] * (PLIES // 2)
        assert all(m.best == () and m.evaluation is None for m in a.moves if m.seat == 0)


class TestJsonAndClasses:
    def test_round_trip(self, result: Analysis) -> None:
        assert Analysis.loads(result.dumps()) == result
        assert result.engine["node_limit"] == NODES

    def test_classes_by_threshold(self) -> None:
        t = Thresholds("points", 0.25, 1.5, 4.0, 8.0)
        assert [t.classify(x) for x in (0, 0.25, 1, 1.5, 3, 8, 8.25)] == [
            "best", "best", "good", "good", "inaccuracy", "mistake", "blunder"]


class TestCommandLine:
    def test_analyse(self, game: ThotState, result: Analysis, tmp_path: Path,
                     capsys: pytest.CaptureFixture[str]) -> None:
        path = tmp_path / "game.json"
        path.write_text(game.record().dumps())
        code = main(["analyse", str(path), "--nodes", str(NODES), "--bench"])
        out = json.loads(capsys.readouterr().out)
        assert code == 0 and out["bench"]["moves"] == PLIES
        del out["bench"]
        # In progress without a viewer: listed, nothing analysed.
        assert {m["reason"] for m in out["moves"]} == {"no-viewer"}

    def test_stdin_and_malformed_input(self, game: ThotState, capsys: pytest.CaptureFixture[str],
                                       monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setattr("sys.stdin", io.StringIO(game.record().dumps()))
        assert main(["analyse", "-", "--nodes", "300", "--viewer", "0"]) == 0
        assert json.loads(capsys.readouterr().out)["moves"][0]["analysed"]
        monkeypatch.setattr("sys.stdin", io.StringIO('{"format": "scarab-record"'))
        assert main(["analyse", "-"]) == 2
        assert json.loads(capsys.readouterr().out)["error"] == "record"
        monkeypatch.setattr("sys.stdin", io.StringIO(game.record().dumps()))
        assert main(["analyse", "-", "--depth", "0"]) == 2
        assert main(["analyse", "-", "--viewer", "7"]) == 2
        bad = game.record()
        bad.moves.append("Z99")
        monkeypatch.setattr("sys.stdin", io.StringIO(bad.dumps()))
        assert main(["analyse", "-"]) == 2
        capsys.readouterr()


def greedy_record(seed: int) -> GameRecord:
    """A whole 10×10 game of the greedy player against itself (the bench's kind of game)."""
    state = ThotState.from_options({}, seed)
    rng = Rng(seed)
    while not state.is_over():
        state.push(match.choose(state, "greedy", rng))
    return state.record()


@pytest.mark.slow
def test_agreement_with_the_computers_own_search() -> None:
    """The analysis's settings (one table, planned iterations, ``NODES``) against each position
    searched alone as the computer plays it (``fresh``): the same best move and the same class in
    most positions (the module's docstring gives the figures over four games)."""
    n = same_best = same_class = 0
    for seed in (3, 21):
        record = greedy_record(seed)
        new = analysis.analyse(record, finished=True)
        old = analysis.analyse(record, finished=True, fresh=True)
        assert new.engine["node_limit"] == analysis.NODES < old.engine["node_limit"]
        for a, b in zip(new.moves, old.moves, strict=True):
            n += 1
            same_best += a.best[0].move == b.best[0].move
            same_class += a.klass == b.klass
    print(f"over {n} positions: the same best move in {same_best / n:.1%}, the same class in {same_class / n:.1%}")
    assert same_best >= 0.9 * n and same_class >= 0.8 * n


@pytest.mark.slow
def test_the_review_tests_giveaway_is_found_with_the_default_settings() -> None:
    from tests.e2e.test_review import THOT_BAD_PLY, thot_record

    record = thot_record()
    bad = analysis.analyse(record, finished=True).moves[THOT_BAD_PLY - 1]
    assert bad.klass in ("mistake", "blunder") and bad.best[0].move != bad.move
