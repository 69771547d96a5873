"""Malformed command lines end in a clean refusal: exit 2 (1 for an illegal move), the reason on
one stderr line and in the JSON, never a traceback (issue 14)."""

from __future__ import annotations

import json
import subprocess
import sys
import tracemalloc

from hypothesis import given
from hypothesis import strategies as st

from game.thot import ThotState
from game.thot.cli import main
from tests.core.cli_fuzz import FUZZ, MALFORMED, assert_clean, assert_refused, call, damaged, hostile_json

STATE = ThotState.new(seed=4)
for _ in range(5):
    STATE.push(STATE.legal_moves()[0])
POSITION = STATE.position()
RECORD = STATE.record().to_json()
SHORT = "P7/8/8/8/8/8/8/8 - 0 ./. -"


class TestTheCasesOfTheIssue:
    def test_a_thirty_digit_run_is_refused_naming_the_row_and_column(self) -> None:
        result = call(main, ["show", "9" * 30 + POSITION[POSITION.index("/") - 1 :]])
        assert_refused(result)
        assert "row 1" in result.err and "at character 1 " in result.err
        assert result.json()["error"] == "notation"

    def test_a_run_of_a_hundred_million_costs_no_memory(self) -> None:
        tracemalloc.start()
        try:
            result = call(main, ["show", "P100000000/8/8/8/8/8/8/8 - 0 ./. -"])
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert_refused(result)
        assert "does not fit" in result.err and peak < 5_000_000

    def test_huge_runs_in_best_and_hint(self) -> None:
        for command in ("best", "hint", "play"):
            args = [command, "P" + "9" * 400 + "/8/8/8/8/8/8/8 - 0 ./. -"] + (["C1"] if command == "play" else [])
            assert_refused(call(main, args))

    def test_nested_json_to_replay(self) -> None:
        result = call(main, ["replay", "-"], "[" * 5000 + "]" * 5000)
        assert_refused(result)
        assert "nested 5000 levels" in result.err and result.json()["error"] == "record"

    def test_a_huge_seat_number(self) -> None:
        assert_refused(call(main, ["show", SHORT.replace(" 0 ", " " + "9" * 5000 + " ")]))


@FUZZ
@given(damaged(POSITION))
def test_damaged_positions_are_refused_cleanly(text: str) -> None:
    assert_clean(call(main, ["show", text]))


@FUZZ
@given(damaged(POSITION), st.sampled_from(["C1", "A1>A5", "B2@C3:-8", "-", "Z99"]))
def test_damaged_positions_with_a_move(text: str, move: str) -> None:
    assert_clean(call(main, ["play", text, move]))


@FUZZ
@given(damaged("C3>F3@E5:-4*"))
def test_damaged_moves_are_refused_cleanly(move: str) -> None:
    assert_clean(call(main, ["play", POSITION, move]))


@FUZZ
@given(hostile_json(RECORD))
def test_damaged_records_are_refused_cleanly(text: str) -> None:
    result = call(main, ["replay", "-"], text)
    assert_clean(result)


def test_a_real_process_refuses_a_huge_run_in_one_line() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "game", "thot", "show", "9" * 30 + "/8/8/8/8/8/8/8 - 0 ./. -"],
        capture_output=True, text=True, check=False, timeout=60,
    )
    assert proc.returncode == MALFORMED and "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1 and json.loads(proc.stdout)["error"] == "notation"


def test_numbers_on_the_command_line_are_bounded() -> None:
    for args in (["best", SHORT, "--time", "nan"], ["hint", SHORT, "--time", "-1"], ["best", SHORT, "--time", "inf"],
                 ["selfplay", "--games", "1", "--jobs", "100000"], ["new", "--seed", "9" * 41]):
        result = call(main, args)
        assert_refused(result)
        assert result.json()["error"] in ("usage", "input")


def test_a_board_starting_with_a_minus_sign_is_a_positional() -> None:
    position = "-1P6/8/8/8/8/8/8/8 r 0 ./. -"
    result = call(main, ["show", position])
    assert result.code == 0 and result.json()["position"] == position
    assert call(main, ["best", position, "--level", "1"]).code == 0
