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
                # A full bag: equity = score + the champion's weight × the leave's value, the
                # leave being what stays, − the scarab exposure of the play.
                gen = (move.start, move.across, move.word, tuple(move.swaps)) if isinstance(move, Play) else None
                exposure = (ai.SCARAB_EXPOSURE * ai.scarab_exposure(replay.board, (0, *gen), ai.held_chances(replay))
                            if gen is not None else 0.0)
                assert b.value == pytest.approx(b.detail["score"] + ai.LEVELS["champion"].leave_weight
                                                * leaves.value(b.detail["leave"]) - exposure, abs=0.011)
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

    def test_the_endgame_budget_is_an_option(self, lex: Any, game: ScarabeoState, tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
        path = tmp_path / "game.json"
        path.write_text(to_record(game).dumps())
        assert cli.main(["analyse", str(path), "--viewer", "0", "--top", "1"]) == 0
        out = json.loads(capsys.readouterr().out)
        assert out["engine"]["endgame_work"] == analysis.ENDGAME_WORK
        # a full bag: no exact solver asked, no "exact" in the moves
        assert all("exact" not in m for m in out["moves"])
        assert cli.main(["analyse", str(path), "--viewer", "0", "--top", "1", "--endgame-work", "0"]) == 0
        assert json.loads(capsys.readouterr().out)["engine"]["endgame_work"] == 0
        assert cli.main(["analyse", str(path), "--endgame-work", "-1"]) == 2
        assert "--endgame-work" in json.loads(capsys.readouterr().out)["error"]

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



class TestExactEndgame:
    """Bag empty, two players: the analysis and the hints solve the endgame exactly (issue 39
    point 5). The position is built over the test lexicon so that the exhaustive minimax
    (``endgame.exhaustive``, the solver's own proof) values every move in a tenth of a second."""

    #: Seat 0 holds ATIS, seat 1 a lone T, the bag emptied, two idle turns already. The
    #: champion's one-reply look ranks G8 TESA (9 points, the most) first: it cannot see that
    #: after 10G TA (5 points) the T has no play, and 11F SA follows before the passes end the
    #: game: +24 at the end, against +13 after TESA.
    POSITION = "17/17/17/17/17/17/9T7/8TA7/6ERA8/7A9/17/17/17/17/17/17/17 ATIS/T 17/7 2"

    @staticmethod
    def state() -> ScarabeoState:
        from tests.scarabeo.test_movegen import LEX

        state = ScarabeoState.from_position(TestExactEndgame.POSITION, word_list=LEX)
        state.bag = []
        return state

    @pytest.fixture(scope="class")
    def minimax(self) -> dict[str, int]:
        """Every legal turn's final spread for the player to move, by the exhaustive minimax."""
        from game.scarabeo import endgame
        from tests.scarabeo.test_movegen import GEN

        state = self.state()
        moves = [to_play(p) for p in GEN.plays(state.board, state.racks[0], False)] + state.legal_moves()
        out = {}
        for move in moves:
            state.push(move)
            out[state.move_text(move)] = (state.scores[0] - state.scores[1] if state.is_over()
                                          else -endgame.exhaustive(state, GEN))
            state.pop()
        assert max(out.values()) == endgame.exhaustive(self.state(), GEN)
        return out

    def value(self, minimax: dict[str, int], text: str) -> int:
        return minimax[text]  # the analysis writes a play as the move generator does

    def turn(self, text: str, work: float) -> analysis.TurnValues:
        from game.core.analysis import run
        from tests.scarabeo.test_movegen import LEX

        state = self.state()
        found = run(analysis.turn_steps(state, state.parse_move(text), LEX, analysis.TOP, work))
        assert state.position() == self.state().position()  # the state is left as it was
        return found

    def test_the_champion_calls_it_best_and_the_exact_loss_is_the_minimax(
            self, minimax: dict[str, int]) -> None:
        champion = self.turn("G8 TESA", 0)
        assert champion.exact is None and champion.loss == 0
        assert champion.best[0].move == "G8 TESA"
        exact = self.turn("G8 TESA", analysis.ENDGAME_WORK)
        assert exact.exact is True
        assert (exact.best[0].move, exact.best[0].value) == ("10G TA", max(minimax.values()))
        assert exact.played.value == self.value(minimax, "G8 TESA") == 13
        assert exact.loss == max(minimax.values()) - 13 == 24 - 13
        assert analysis.THRESHOLDS.classify(exact.loss) == "mistake"
        assert exact.played in exact.best  # listed among the best with the same figure

    def test_every_alternative_listed_is_its_minimax_value(self, minimax: dict[str, int]) -> None:
        exact = self.turn("10G TA", analysis.ENDGAME_WORK)
        state = self.state()
        assert exact.exact is True and exact.loss == 0 and exact.played == exact.best[0]
        assert len(exact.best) == analysis.TOP
        values = [a.value for a in exact.best]
        assert values == sorted(values, reverse=True)
        for a in exact.best:
            assert a.value == self.value(minimax, a.move), a.move
            assert a.detail["score"] == state.preview(state.parse_move(a.move)).score

    def test_a_pass_is_valued_exactly_too(self, minimax: dict[str, int]) -> None:
        exact = self.turn("-", analysis.ENDGAME_WORK)
        assert exact.exact is True
        assert exact.played.value == minimax["-"]
        assert exact.loss == exact.best[0].value - exact.played.value > 0

    def test_cut_by_its_budget_the_champions_figures_stand_marked_not_proved(self) -> None:
        from tests.scarabeo.test_movegen import GEN

        champion = self.turn("G8 TESA", 0)
        cut = self.turn("G8 TESA", 0.01)
        assert cut.exact is False
        assert (cut.best, cut.played, cut.loss) == (champion.best, champion.played, champion.loss)
        # The champion's estimate is on the final spread's scale: the spread before the turn
        # (17 - 7) plus its one-reply value: the play's 9 points, less the T's best answer, less
        # the I left on the rack.
        after = self.state()
        after.push(after.parse_move("G8 TESA"))
        answers = GEN.plays(after.board, ["T"], False)
        # a lone tile that finds a play goes out: twice the I left comes with it
        answer = max((p[0] + 2 for p in answers), default=0)
        assert cut.played.value == 10 + 9 - answer - 1

    def test_the_json_says_exact_and_reads_back(self) -> None:
        from game.core.analysis import MoveAnalysis, record_digest, summarise

        moves = []
        for ply, (text, work) in enumerate([("G8 TESA", analysis.ENDGAME_WORK), ("-", 0.01)], 1):
            found = self.turn(text, work)
            moves.append(MoveAnalysis(2 * ply - 1, 0, text, (17, 7), best=found.best,
                                      played=found.played, loss=found.loss,
                                      klass=analysis.THRESHOLDS.classify(found.loss), exact=found.exact))
            moves.append(MoveAnalysis(2 * ply, 1, "-", (17, 7), reason="hidden"))
        a = Analysis(game="scarabeo", record=record_digest(GameRecord("scarabeo", {"players": 2}, 1)),
                     players=2, viewer=0, finished=False,
                     engine={"level": "champion", "top": 5, "endgame_work": analysis.ENDGAME_WORK},
                     thresholds=analysis.THRESHOLDS, moves=tuple(moves), summary=summarise(moves, 2))
        text = a.dumps()
        data = json.loads(text)
        assert [m.get("exact", "absent") for m in data["moves"]] == [True, "absent", False, "absent"]
        assert Analysis.loads(text) == a
        for bad in ("yes", 1):
            data["moves"][0]["exact"] = bad
            with pytest.raises(AnalysisError, match="exact"):
                Analysis.from_json(data)
        data["moves"][0]["exact"] = True
        data["moves"][1]["exact"] = False  # a move not analysed carries nothing
        with pytest.raises(AnalysisError, match="not analysed"):
            Analysis.from_json(data)

    def test_the_hints_are_ordered_by_the_exact_endgame(self, minimax: dict[str, int]) -> None:
        from game.core.analysis import run
        from tests.scarabeo.test_movegen import LEX

        state = self.state()
        by_score = run(ai.think_hints(state, 5, LEX, endgame_work=0))
        assert by_score[0]["move"] == "G8 TESA" and "exact" not in by_score[0]
        cut = run(ai.think_hints(state, 5, LEX, endgame_work=0.01))
        assert [h["move"] for h in cut] == [h["move"] for h in by_score]
        assert all(h["exact"] is False and "value" not in h for h in cut)
        hints = run(ai.think_hints(state, 5, LEX))
        assert hints[0]["move"] == "10G TA" and hints[0]["placements"] == [["G10", "T"]]
        assert hints[0]["leave"] == "AIS" and all(h["exact"] is True for h in hints)
        values = [h["value"] for h in hints]
        assert values == sorted(values, reverse=True) and values[0] == max(minimax.values())
        for h in hints:
            assert h["value"] == self.value(minimax, h["move"]), h["move"]


class TestExactEndgameInAGame:
    def test_a_real_games_endgame_turns_are_marked_and_read_back(self, lex: Any) -> None:
        """A seeded greedy game to its end on the real lexicon (27 turns, the bag empty from
        turn 25 on), seat 0's turns analysed: the turns before the bag empties carry no
        ``exact``; turn 25 (8 tiles against 3) is too large for the budget, turn 27 (N against T)
        is proved, its best value the solver's own; the JSON reads back checked against the
        record."""
        from game.scarabeo import endgame

        state = ScarabeoState.new(2, 2, word_list=lex)
        while not state.is_over():
            state.push(ai.choose(state, "greedy"))
        rec = to_record(state)
        assert len(rec.moves) == 27
        a = analysis.analyse(rec, lex, viewer=0, finished=False, top=2)
        marked = {m.ply: m.exact for m in a.moves if m.exact is not None}
        assert marked == {25: False, 27: True}
        replay = ScarabeoState.new(2, 2, word_list=lex)
        for text in rec.moves[:26]:
            replay.push(replay.parse_move(text))
        last = a.moves[26]
        assert last.best[0].value == endgame.solve(replay, ai.generator_for(lex)).value
        assert Analysis.loads(a.dumps(), rec, lex) == a
