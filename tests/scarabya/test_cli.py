"""The command-line contract: JSON on stdout; exit 0 ok, 1 illegal move, 2 malformed input."""

from __future__ import annotations

import json
from typing import Any

import pytest

from game.__main__ import main as game_main
from game.scarabya.cli import main

START = "classic 2 1.0-2.0-3.0-4.0 IXLNPTUVWFYZ ./. 0"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, Any]:
    code = main(list(args))
    out = capsys.readouterr().out
    return code, json.loads(out) if out.strip() else None


class TestNewShow:
    def test_new_with_options(self, capsys: pytest.CaptureFixture[str]) -> None:
        code, view = run(
            capsys, "new", "--players", "2", "--layout", "1.0-2.0-3.0-4.0", "--deck", "IXLNPTUVWFYZ"
        )
        assert code == 0 and view["position"] == START

    def test_new_is_seeded(self, capsys: pytest.CaptureFixture[str]) -> None:
        _, a = run(capsys, "new", "--seed", "5")
        _, b = run(capsys, "new", "--seed", "5")
        assert a["position"] == b["position"] and a["players"] == 1

    def test_show_fields(self, capsys: pytest.CaptureFixture[str]) -> None:
        code, view = run(capsys, "show", START)
        assert code == 0
        for key in ("sites", "tokens_left", "round", "tile", "scores", "legal_placements", "to_move"):
            assert key in view
        site = view["sites"][0]
        assert len(site["rows"]) == 10 and all(len(r) == 10 for r in site["rows"])
        assert {"areas", "tiles", "score"} <= set(site)
        assert view["tokens_left"] == {"1": 18, "2": 18, "3": 18, "4": 18}
        assert view["round"] == 1 and view["tile"] == "I"

    def test_position_may_come_as_several_words(self, capsys: pytest.CaptureFixture[str]) -> None:
        code, view = run(capsys, "show", *START.split())
        assert code == 0 and view["position"] == START

    def test_dispatch_through_python_m_game(self, capsys: pytest.CaptureFixture[str]) -> None:
        assert game_main(["scarabya", "show", START]) == 0
        assert json.loads(capsys.readouterr().out)["game"] == "scarabya"


class TestPlay:
    def test_legal(self, capsys: pytest.CaptureFixture[str]) -> None:
        code, out = run(capsys, "play", START, "I0@D5")
        assert code == 0
        assert out["played"]["move"] == "I0@D5" and out["played"]["square"] == "D5"
        assert out["position"] == "classic 2 1.0-2.0-3.0-4.0 IXLNPTUVWFYZ I0@D5/. 0"
        assert out["to_move"] == 1

    def test_illegal_exits_1(self, capsys: pytest.CaptureFixture[str]) -> None:
        code, out = run(capsys, "play", START, "I0@A1")
        assert code == 1 and out["code"] == "centre" and "E5" in out["error"]

    @pytest.mark.parametrize(
        "args",
        [
            ("play", START, "Q0@A1"),
            ("play", "classic 9 x", "I0@D5"),
            ("show", "nonsense"),
            ("play", START),
            ("best", START, "--level", "7"),
            ("frobnicate",),
            ("new", "--players", "7"),
            ("new", "--layout", "1.0"),
            ("replay", '{"format": "other"}'),
        ],
    )
    def test_malformed_exits_2(self, capsys: pytest.CaptureFixture[str], args: tuple[str, ...]) -> None:
        code, out = run(capsys, *args)
        assert code == 2 and out["error"]


class TestBestSelfplayBench:
    def test_best(self, capsys: pytest.CaptureFixture[str]) -> None:
        code, out = run(capsys, "best", START, "--level", "3")
        assert code == 0 and {"move", "points", "reason"} <= set(out)
        code, _ = run(capsys, "play", START, out["move"])
        assert code == 0

    def test_selfplay_records_replay(self, capsys: pytest.CaptureFixture[str]) -> None:
        code, out = run(capsys, "selfplay", "--players", "2", "--levels", "3,2", "--seed", "4")
        assert code == 0
        game = out["games"][0]
        assert game["replay_matches"] and len(game["record"]["moves"]) == 24
        code, replayed = run(capsys, "replay", json.dumps(game["record"]))
        assert code == 0 and replayed["position"] == game["position"]

    def test_bench_tiny(self, capsys: pytest.CaptureFixture[str]) -> None:
        code, out = run(capsys, "bench", "--games", "2", "--levels", "2,4")
        assert code == 0
        assert [r["level"] for r in out["levels"]] == [2, 4]
        assert out["ratio_top_to_greedy"] > 0 and out["levels"][1]["ms_per_decision"] > 0
        assert "top_level_decision_ms" in out


class TestRuinsCli:
    def test_new_play_best(self, capsys: pytest.CaptureFixture[str]) -> None:
        code, view = run(capsys, "new", "--variant", "ruins", "--players", "3", "--seed", "2")
        assert code == 0 and view["variant"] == "ruins" and len(view["ruins"]) == 4
        code, best = run(capsys, "best", view["position"], "--level", "2")
        assert code == 0
        code, out = run(capsys, "play", view["position"], best["move"])
        assert code == 0 and out["to_move"] == 1
        code, out = run(capsys, "play", out["position"], best["move"])
        assert code == 1 and out["code"] == "overlap"

    def test_selfplay_and_bench(self, capsys: pytest.CaptureFixture[str]) -> None:
        code, out = run(capsys, "selfplay", "--variant", "ruins", "--levels", "2,1")
        assert code == 0 and out["games"][0]["replay_matches"]
        code, out = run(capsys, "bench", "--variant", "ruins", "--games", "1", "--levels", "1,2")
        assert code == 0 and len(out["levels"]) == 2

    def test_ruins_needs_two_players(self, capsys: pytest.CaptureFixture[str]) -> None:
        code, _ = run(capsys, "new", "--variant", "ruins", "--players", "1")
        assert code == 2
