"""Scarabeo analysis: the champion's own turns are best, a poor turn loses equity, the best
alternative is legal and scores what it says, hidden racks stay hidden, JSON, command line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from game.core import GameRecord
from game.core.analysis import Analysis, AnalysisError, Progress
from game.scarabeo import ScarabeoState, ai, analysis, cli, lexicon_file, leaves
from game.scarabeo.movegen import rack_after, to_play
from game.scarabeo.moves import Play
from game.scarabeo.record import to_record

from tests.scarabeo.test_cli import real_lexicon
from tests.stepping import run_counting


@pytest.fixture(scope="module")
def lex() -> Any:
    real_lexicon()
    return lexicon_file.load_lexicon()


def champion_game(lex: Any, plies: int, seed: int = 5, check_mode: str = "dictionary") -> ScarabeoState:
    state = ScarabeoState.new(2, seed, word_list=lex, check_mode=check_mode)
    for _ in range(plies):
        state.push(ai.choose(state, "champion"))
    return state


@pytest.fixture(scope="module")
def game(lex: Any) -> ScarabeoState:
    return champion_game(lex, 4)


@pytest.fixture(scope="module")
def result(lex: Any, game: ScarabeoState) -> Analysis:
    return analysis.analyse(to_record(game), lex, finished=True)


def worst_play(state: ScarabeoState) -> Play:
    """The play of least equity (full leave weight): a deliberate blunder."""
    rack = state.racks[state.turn]
    plays = ai.generator_for(state.word_list).plays(state.board, rack, state.first_play)
    worst = min(plays, key=lambda p: (p[0] + leaves.value(rack_after(state.board, rack, p)), p))
    return to_play(worst)


class TestValues:
    def test_the_champions_turns_are_best_with_no_loss(self, result: Analysis) -> None:
        assert [m.klass for m in result.moves] == ["best"] * 4
        assert all(m.loss == 0 and m.played is not None and m.played.value == m.best[0].value
                   for m in result.moves)
        assert all(s.mean_loss == 0 and s.classes["best"] == 2 for s in result.summary)

    def test_a_deliberately_bad_turn_loses_equity_and_is_a_blunder(self, lex: Any) -> None:
        state = champion_game(lex, 1)
        state.push(worst_play(state))
        a = analysis.analyse(to_record(state), lex, viewer=1)
        bad = a.moves[1]
        assert bad.loss is not None and bad.loss > analysis.THRESHOLDS.mistake
        assert bad.klass == "blunder" and bad.played is not None
        assert bad.loss == pytest.approx(bad.best[0].value - bad.played.value, abs=0.011)
        assert a.summary[1].classes["blunder"] == 1 and a.summary[1].mean_loss == bad.loss

    def test_best_alternatives_are_legal_and_score_what_they_say(self, lex: Any, game: ScarabeoState,
                                                                  result: Analysis) -> None:
        replay = ScarabeoState.new(2, game.seed, word_list=lex)
        for m in result.moves:
            values = [b.value for b in m.best]
            assert values == sorted(values, reverse=True) and len(m.best) == analysis.TOP
            for b in m.best:
                move = replay.parse_move(b.move)
                assert replay.preview(move).score == b.detail["score"]
                # A full bag: equity = score + the leave's value, the leave being what stays.
                assert b.value == pytest.approx(b.detail["score"] + leaves.value(b.detail["leave"]), abs=0.011)
            played = replay.push(replay.parse_move(m.move))
            assert m.played is not None and m.played.detail["score"] == played.score
            assert list(m.scores) == replay.scores

    def test_alternatives_carry_the_tiles_to_draw(self, result: Analysis) -> None:
        first = result.moves[0].best[0].detail
        assert first["words"] and first["placements"] and all(len(p) == 2 for p in first["placements"])


class TestHiddenInformation:
    def test_in_progress_only_the_viewers_own_turns(self, lex: Any, game: ScarabeoState) -> None:
        a = analysis.analyse(to_record(game), lex, viewer=1)
        assert not a.finished
        for m in a.moves:
            if m.seat == 1:
                assert m.analysed and m.best
            else:
                # Nothing of the other rack: no alternatives, no leave, no value.
                assert m.reason == "hidden" and m.best == () and m.played is None and m.klass is None
                assert "leave" not in json.dumps(m.to_json())
        assert a.summary[0].analysed == 0 and a.summary[1].analysed == 2

    def test_in_progress_without_a_viewer_nothing(self, lex: Any, game: ScarabeoState) -> None:
        a = analysis.analyse(to_record(game), lex)
        assert {m.reason for m in a.moves} == {"no-viewer"}

    def test_a_dispute_is_listed_without_analysis(self, lex: Any) -> None:
        state = champion_game(lex, 1, check_mode="challenge")
        state.push_text("!accept")
        a = analysis.analyse(to_record(state), lex, finished=True)
        assert a.moves[0].analysed and a.moves[1].reason == "dispute" and a.moves[1].seat is None


class TestSlicesAndJson:
    def test_the_generator_yields_often_and_reports_progress(self, lex: Any, game: ScarabeoState,
                                                            result: Analysis) -> None:
        progress = Progress()
        again, yields = run_counting(analysis.analyse_steps(to_record(game), lex, finished=True, progress=progress))
        assert yields > 4 * len(game.history()) and progress.fraction == 1.0
        assert again == result  # deterministic

    def test_round_trip(self, result: Analysis) -> None:
        text = result.dumps()
        assert json.loads(text)["format"] == "scarab-analysis" and json.loads(text)["version"] == 1
        assert Analysis.loads(text) == result

    def test_damaged_or_newer_json_is_refused(self, result: Analysis) -> None:
        data = result.to_json()
        for damage in ({"version": 2}, {"format": "x"}, {"moves": {}}, {"players": "2"}):
            with pytest.raises(AnalysisError):
                Analysis.from_json({**data, **damage})
        with pytest.raises(AnalysisError):
            Analysis.loads("[" * 100 + "]" * 100)


class TestCommandLine:
    def test_analyse_a_record_file(self, lex: Any, game: ScarabeoState, result: Analysis,
                                   tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        path = tmp_path / "game.json"
        path.write_text(to_record(game).dumps())
        code = cli.main(["analyse", str(path), "--viewer", "0", "--top", "2", "--bench"])
        out = json.loads(capsys.readouterr().out)
        assert code == 0 and out["format"] == "scarab-analysis" and out["viewer"] == 0
        assert [m["reason"] for m in out["moves"]] == [None if m.seat == 0 else "hidden" for m in result.moves]
        assert all(len(m["best"]) == 2 for m in out["moves"] if m["analysed"])
        assert out["bench"]["moves"] == 4 and out["bench"]["analysed"] == 2

    def test_malformed_input(self, lex: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                             monkeypatch: pytest.MonkeyPatch) -> None:
        bad = tmp_path / "bad.json"
        bad.write_text('{"format": "scarab-record", "version": 1, "game": "scarabeo", "options": {},'
                       ' "seed": 1, "moves": ["9F QQQQ"]}')
        # As the replay command: a move the rules refuse is exit 1, malformed text exit 2.
        assert cli.main(["analyse", str(bad)]) == 1
        assert "turn 1" in json.loads(capsys.readouterr().out)["error"]
        bad.write_text(bad.read_text().replace("9F QQQQ", "9F Q!"))
        assert cli.main(["analyse", str(bad)]) == 2
        assert json.loads(capsys.readouterr().out)["kind"] == "malformed"
        assert cli.main(["analyse", str(tmp_path / "missing.json")]) == 2
        capsys.readouterr()
        import io
        monkeypatch.setattr("sys.stdin", io.StringIO("{" * 10))
        assert cli.main(["analyse", "-"]) == 2
        assert json.loads(capsys.readouterr().out)["error_code"] == "bad-record"
        good = tmp_path / "good.json"
        good.write_text(GameRecord("scarabeo", {"players": 2}, 1).dumps())
        assert cli.main(["analyse", str(good), "--viewer", "2"]) == 2
        capsys.readouterr()
