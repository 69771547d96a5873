"""Thot analysis: the search's own moves are best, a bad capture loses, the best move is legal and
its value is the search's, the hidden-information rule, JSON, command line. Small node budgets."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from game.core.analysis import CLASSES, Analysis, Thresholds, may_analyse
from game.thot import ThotMove, ThotState, analysis
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

    def test_the_best_move_is_legal_and_its_value_is_the_searchs(self, game: ThotState,
                                                                  result: Analysis) -> None:
        lv = analysis.engine_level(nodes=NODES)
        state = ThotState.new(seed=game.seed, short=True)
        for m in result.moves:
            best = state.parse_move(m.best[0].move)
            state.check(best)
            res = Search(state, lv, search_forced=True).run()
            assert res.move == best and res.value == m.best[0].value
            assert m.best[0].detail["depth"] == res.depth and m.best[0].detail["pv"][0] == m.best[0].move
            state.push(state.parse_move(m.move))
            assert list(m.scores) == state.score

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
