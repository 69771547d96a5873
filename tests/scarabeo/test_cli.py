"""``python -m game scarabeo`` — the command-line contract: JSON on stdout, exit 0/1/2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from game.core import Rng
from game.core.record import MAX_RECORD_BYTES
from game.scarabeo import ScarabeoState, cli, lexicon_file, record
from game.scarabeo.randomplay import random_move

from tests.scarabeo.helpers import EMPTY_BOARD, position_with

START = f"{EMPTY_BOARD} CONTARE?/ 0/0 0"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any]]:
    code = cli.main(list(args))
    out = capsys.readouterr().out
    return code, json.loads(out)


def real_lexicon() -> None:
    try:
        lexicon_file.load_lexicon()
    except RuntimeError as err:
        pytest.skip(f"the real lexicon is not built yet ({err}); `python -m lexicon build` builds it")


class TestNew:
    def test_new_gives_a_position(self, capsys: pytest.CaptureFixture[str]) -> None:
        code, data = run(capsys, "new", "--players", "3", "--seed", "7")
        assert code == 0
        state = ScarabeoState.new(3, 7)
        assert data["position"] == state.position()
        assert data["start_draw"] == state.start_draw and data["error"] is None

    def test_bad_player_count(self, capsys: pytest.CaptureFixture[str]) -> None:
        code, data = run(capsys, "new", "--players", "6", "--seed", "1")
        assert code == 2 and "2-4 players" in data["error"]

    def test_bad_arguments(self, capsys: pytest.CaptureFixture[str]) -> None:
        code, data = run(capsys, "new", "--players", "two")
        assert code == 2 and "invalid int value" in data["error"]


class TestScore:
    def test_legal_move(self, capsys: pytest.CaptureFixture[str]) -> None:
        code, data = run(capsys, "score", START, "9F CONTARE", "--no-check")
        assert code == 0 and data["legal"] is True and data["error"] is None
        assert data["score"] == 56 and data["bonus"] == 40
        assert data["words"] == [{"word": "CONTARE", "score": 8}]
        assert data["first_play_doubled"] is True

    def test_illegal_move(self, capsys: pytest.CaptureFixture[str]) -> None:
        code, data = run(capsys, "score", START, "9A CONTARE", "--no-check")
        assert code == 1 and data["legal"] is False
        assert data["error_code"] == "first-not-centre" and "I9" in data["error"]

    def test_malformed_move(self, capsys: pytest.CaptureFixture[str]) -> None:
        code, data = run(capsys, "score", START, "9Z CONTARE", "--no-check")
        assert code == 2 and data["error_code"] == "bad-move" and "column" in data["error"]

    def test_impossible_position(self, capsys: pytest.CaptureFixture[str]) -> None:
        code, data = run(capsys, "score", f"{EMPTY_BOARD} QQQ/ 0/0 0", "9F CONTARE", "--no-check")
        assert code == 2 and data["error_code"] == "bad-position" and "3 Q tiles" in data["error"]

    def test_nineteen_letter_row(self, capsys: pytest.CaptureFixture[str]) -> None:
        rows = ["17"] * 17
        rows[8] = "ABCDEFGHILMNOPQRSTU"
        code, data = run(capsys, "score", "/".join(rows) + " A/ 0/0 0", "9F CONTARE", "--no-check")
        assert code == 2 and "row 9" in data["error"]

    def test_with_the_real_lexicon(self, capsys: pytest.CaptureFixture[str]) -> None:
        real_lexicon()
        code, data = run(capsys, "score", START, "9F CONTARE")
        assert code == 0 and data["score"] == 56
        code, data = run(capsys, "score", START, "9F CNOTARE")
        assert code == 1 and data["error_code"] == "invalid-words" and "CNOTARE" in data["error"]

    def test_stampa_with_the_real_lexicon(self, capsys: pytest.CaptureFixture[str]) -> None:
        real_lexicon()
        pos = position_with(["9E SCONTARE", "F9 CANNA"], ["TAMPAEIO", ""])
        code, data = run(capsys, "score", pos, "E9 STAMPA")
        assert code == 0, data
        assert [w["word"] for w in data["words"]] == ["STAMPA", "TA", "AN", "MN", "PA"]
        assert data["score"] == sum(w["score"] for w in data["words"])


class TestReplay:
    def game(self) -> ScarabeoState:
        s = ScarabeoState.new(2, 21, names=["Anna", "Bruno"])
        rng = Rng(21)
        while not s.is_over():
            s.push(random_move(s, rng))
        return s

    @pytest.mark.parametrize("fmt", ["text", "json"])
    def test_replay(self, capsys: pytest.CaptureFixture[str], tmp_path: Path, fmt: str) -> None:
        s = self.game()
        f = tmp_path / "game.rec"
        f.write_text(record.to_text(s) if fmt == "text" else record.to_json(s))
        code, data = run(capsys, "replay", str(f), "--no-check")
        assert code == 0 and data["error"] is None
        assert [t["score"] for t in data["turns"]] == [r.score for r in s.results()]
        assert {d["player"]: d["score"] for d in data["standings"]} == dict(enumerate(s.scores))
        assert data["over"] is True

    def test_first_error_with_its_turn(self, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
        s = self.game()
        data = json.loads(record.to_json(s))
        data["meta"]["scores"][6] += 5
        f = tmp_path / "bad.json"
        f.write_text(json.dumps(data))
        code, out = run(capsys, "replay", str(f), "--no-check")
        assert code == 1 and out["turn"] == 7 and "turn 7" in out["error"]

    def test_malformed_file(self, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
        f = tmp_path / "bad.txt"
        f.write_text("not a record")
        code, out = run(capsys, "replay", str(f), "--no-check")
        assert code == 2 and out["error"]

    def test_oversized_file(self, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
        f = tmp_path / "big.txt"
        f.write_text("#" * (MAX_RECORD_BYTES + 1))
        code, out = run(capsys, "replay", str(f), "--no-check")
        assert code == 2 and "larger than" in out["error"]

    def test_missing_file(self, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
        code, out = run(capsys, "replay", str(tmp_path / "nope.txt"), "--no-check")
        assert code == 2 and "cannot read" in out["error"]

    def test_replay_with_the_real_lexicon(self, capsys: pytest.CaptureFixture[str],
                                          tmp_path: Path) -> None:
        real_lexicon()
        words = lexicon_file.load_lexicon()
        for seed in range(500):
            s = ScarabeoState.new(2, seed, word_list=words)
            rack = s.racks[s.to_move()]
            word = next((w for w in ("ORE", "RETE", "CANE", "TETTO", "SERA", "ORTI", "NASI")
                         if all(rack.count(c) >= w.count(c) for c in w)
                         and not words.contains(w[::-1])), None)
            if word is not None:
                break
        assert word is not None
        s.push(s.parse_move(f"9H {word}"))
        f = tmp_path / "g.txt"
        f.write_text(record.to_text(s))
        code, out = run(capsys, "replay", str(f))
        assert code == 0 and out["turns"][0]["move"] == f"9H {word}"
        # The same record with a non-word is refused by the lexicon, naming the turn.
        f.write_text(record.to_text(s).replace(f"9H {word}", f"9H {word[::-1]}"))
        code, out = run(capsys, "replay", str(f))
        assert code == 1 and out["turn"] == 1 and word[::-1] in out["error"]


class TestBenchAndDispatch:
    def test_bench_runs_small(self, capsys: pytest.CaptureFixture[str]) -> None:
        code, data = run(capsys, "bench", "--n", "20")
        assert code == 0 and data["score_play_us"] > 0

    def test_through_python_m_game(self) -> None:
        proc = subprocess.run([sys.executable, "-m", "game", "scarabeo", "score", START, "9F CONTARE",
                               "--no-check"], capture_output=True, text=True, check=False)
        assert proc.returncode == 0 and json.loads(proc.stdout)["score"] == 56

    def test_computer_commands_reach_ai_cli(self, capsys: pytest.CaptureFixture[str]) -> None:
        code = cli.main(["best", "not a position"])
        data = json.loads(capsys.readouterr().out)
        assert code == 2 and data["error"]

    def test_no_command(self, capsys: pytest.CaptureFixture[str]) -> None:
        assert cli.main([]) == 2


def test_selfplay_runs_small(capsys: pytest.CaptureFixture[str]) -> None:
    code, data = run(capsys, "randomplay", "--games", "2", "--players", "2", "--seed", "5")
    assert code == 0 and data["games"] == 2 and data["failures"] == []
    assert sum(data["ends"].values()) == 2
