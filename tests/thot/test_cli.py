"""The command-line contract: JSON on stdout, exit 0 ok, 1 illegal move, 2 malformed input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from game.thot import ThotState
from game.thot.cli import main

SHOW_KEYS = {
    "size", "cells", "marked", "priest", "to_move", "axis", "scores", "collections", "legal", "over", "winner",
}


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, Any, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, json.loads(out) if out.strip() else None, err


class TestNewShowPlay:
    def test_new_gives_a_position_and_its_view(self, capsys: pytest.CaptureFixture[str]) -> None:
        code, out, _ = run(capsys, "new", "--seed", "5")
        assert code == 0 and SHOW_KEYS <= set(out)
        assert out["size"] == 10 and len(out["cells"]) == 10 and all(len(r) == 10 for r in out["cells"])
        assert out["axis"] is None and out["over"] is False and out["winner"] is None
        assert out["position"] == ThotState.new(seed=5).position()

    def test_new_with_every_option(self, capsys: pytest.CaptureFixture[str]) -> None:
        code, out, _ = run(capsys, "new", "--players", "4", "--short", "--turnoff", "--teams", "--seed", "2")
        assert code == 0 and out["size"] == 8 and out["players"] == 4 and out["teams"] == [[0, 1], [2, 3]]
        assert out["position"].endswith("turnoff,teams")

    def test_show_matches_the_view(self, capsys: pytest.CaptureFixture[str]) -> None:
        s = ThotState.new(seed=6, turnoff=True)
        code, out, _ = run(capsys, "show", s.position())
        assert code == 0 and out == s.view()
        cells = [c for row in out["cells"] for c in row]
        assert cells.count("priest") == 1 and cells.count("ankh") == 3
        assert all(c in ("priest", "ankh") or isinstance(c, int) for c in cells)

    def test_unquoted_position_words_are_joined(self, capsys: pytest.CaptureFixture[str]) -> None:
        s = ThotState.new(seed=6)
        code, out, _ = run(capsys, "show", *s.position().split(" "))
        assert code == 0 and out["position"] == s.position()

    def test_play_returns_the_new_position(self, capsys: pytest.CaptureFixture[str]) -> None:
        s = ThotState.new(seed=7)
        move = s.view()["legal"][0]
        code, out, _ = run(capsys, "play", s.position(), move)
        s.push(s.parse_move(move))
        assert code == 0 and out["position"] == s.position() and out["last_move"] == move
        assert out["played"]["move"] == move

    def test_illegal_move_exits_1(self, capsys: pytest.CaptureFixture[str]) -> None:
        s = ThotState.new(seed=7)
        not_in_line = next(
            n for i, n in enumerate(s.geo.names) if i not in s.geo.lines[s.priest] and i != s.priest
        )
        code, out, err = run(capsys, "play", s.position(), not_in_line)
        assert code == 1 and out["error"] == "illegal" and out["code"] == "not-in-line"
        assert not_in_line in err

    @pytest.mark.parametrize(
        "args",
        [
            ("play", "P7/8/8/8/8/8/8/8 - 0 ./. -", "C9"),
            ("play", "P7/8/8/8/8/8/8/8 - 0 ./. -", "hello"),
            ("show", "nonsense"),
            ("play", "onlyone"),
            ("new", "--players", "x"),
            ("new", "--players", "6"),
            ("frobnicate",),
            ("best", "P7/8/8/8/8/8/8/8 - 0 ./. -", "--level", "9"),
            ("selfplay", "--levels", "3"),
            ("selfplay", "--levels", "3,genius"),
        ],
    )
    def test_malformed_input_exits_2(self, capsys: pytest.CaptureFixture[str], args: tuple[str, ...]) -> None:
        code, out, err = run(capsys, *args)
        assert code == 2 and out["error"] and err.startswith("thot:")


class TestComputer:
    def test_best_gives_a_legal_move_and_the_depth(self, capsys: pytest.CaptureFixture[str]) -> None:
        s = ThotState.new(seed=1, short=True)
        code, out, _ = run(capsys, "best", s.position(), "--level", "2")
        assert code == 0 and out["move"] in s.view()["legal"] and out["depth"] == 3 and out["level"] == 2

    def test_best_on_a_finished_game_exits_1(self, capsys: pytest.CaptureFixture[str]) -> None:
        code, out, _ = run(capsys, "best", "P+16/8/8/8/8/8/8/8 c 0 ./. -")
        assert code == 1 and out["code"] == "game-over"

    def test_hint(self, capsys: pytest.CaptureFixture[str]) -> None:
        s = ThotState.new(seed=1, short=True)
        code, out, _ = run(capsys, "hint", s.position(), "--time", "0.2")
        assert code == 0 and out["move"] in s.view()["legal"] and "gain" in out and "take" in out

    def test_selfplay_reports_rates_and_scores(self, capsys: pytest.CaptureFixture[str]) -> None:
        code, out, _ = run(capsys, "selfplay", "--games", "2", "--levels", "1,greedy", "--short", "--seed", "3")
        assert code == 0 and out["games"] == 2 and set(out["win_rate"]) == {"a", "b", "draw"}
        assert abs(sum(out["win_rate"].values()) - 1) < 1e-9 and set(out["mean_score"]) == {"a", "b"}

    def test_bench_without_the_match(self, capsys: pytest.CaptureFixture[str]) -> None:
        code, out, _ = run(capsys, "bench", "--no-match", "--openings", "1")
        assert code == 0 and out["opening_10x10"]["top"]["depth_max"] >= 4
        assert "top_vs_greedy" not in out


class TestReplay:
    def test_replay_a_record_file(self, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
        s = ThotState.new(seed=3)
        for _ in range(6):
            s.push(s.legal_moves()[-1])
        path = tmp_path / "game.json"
        path.write_text(s.record().dumps())
        code, out, _ = run(capsys, "replay", str(path))
        assert code == 0 and out["position"] == s.position()

    def test_bad_record_exits_2(self, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
        path = tmp_path / "game.json"
        path.write_text('{"format": "scarab-record", "version": 99}')
        code, out, _ = run(capsys, "replay", str(path))
        assert code == 2 and out["error"] == "record" and "newer" in out["message"]


def test_dispatch_through_python_m_game() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "game", "thot", "new", "--short", "--seed", "9"],
        capture_output=True, text=True, check=False,
    )
    assert proc.returncode == 0 and json.loads(proc.stdout)["size"] == 8
