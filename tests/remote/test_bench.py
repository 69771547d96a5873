"""The benches run and print their figures (smoke tests, at their smallest sizes; no timing is
asserted): ``python -m game remote bench`` and ``tools/bench_remote.py``. The page's bench
(``tools/bench_remote_page.py``) needs a browser and is not run here."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str) -> str:
    done = subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_command_line_bench_prints_its_figures_for_one_kind_of_game() -> None:
    out = json.loads(run("-m", "game", "remote", "bench", "--game", "thot", "--players", "2"))
    assert out["machine"].startswith("CPython") and out["max_message_chars"] > 0
    assert set(out) == {"machine", "max_message_chars", "thot_2p"}  # only the kind asked for
    figures = out["thot_2p"]
    for key in ("setup_cpu_seconds", "move_message_cpu_seconds", "open_message_cpu_seconds",
                "slowest_play_cpu_seconds", "slowest_open_cpu_seconds"):
        assert isinstance(figures[key], (int, float)) and figures[key] >= 0, key
    assert figures["setup_links"] == 3 and figures["links"] > figures["setup_links"]  # a whole game
    assert 0 < figures["invitation_chars"] <= figures["longest_chars"] <= out["max_message_chars"]
    assert 0 < figures["mean_move_chars"] <= figures["longest_chars"]
    assert figures["verified"] is True


def test_the_deal_bench_prints_every_figure() -> None:
    out = run("tools/bench_remote.py", "--players", "2", "--repeat", "1")
    lines = out.splitlines()
    assert lines[0].startswith("load average before: ") and lines[-1].startswith("load average after: ")
    assert lines[1] == "2 players (median of 1):"
    figures = {}
    for line in lines[2:-1]:
        found = re.fullmatch(r"  (.+): ([0-9.e+-]+)", line)
        assert found is not None, line
        figures[found.group(1)] = float(found.group(2))
    assert set(figures) == {
        "scalar multiplication (ms)", "fixed-base multiplication (ms)",
        "setup, device 0: own step + checking the others (s)",
        "draw of 7 tiles: one seat's shares made (ms)", "draw of 7 tiles: those shares checked (ms)",
        "7 tiles shown: proof made (ms)", "7 tiles shown: proof checked (ms)",
        "end: verification on one device (s)", "largest deal payload of one message (characters)",
        "verified but for the exchange (1 = yes)"}
    assert all(value > 0 for value in figures.values())
    assert figures["verified but for the exchange (1 = yes)"] == 1
