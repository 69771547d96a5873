"""Malformed command lines end in a clean refusal: exit 2 (1 for an illegal move or a record that
does not check out), the reason on one stderr line and in the JSON, never a traceback (issue 14)."""

from __future__ import annotations

import json
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.core import Rng
from game.scarabeo import ScarabeoState, cli, record
from game.scarabeo.randomplay import random_move
from tests.core.cli_fuzz import FUZZ, MALFORMED, OK, assert_clean, assert_refused, call, damaged, hostile_json
from tests.scarabeo.helpers import EMPTY_BOARD, position_with

START = f"{EMPTY_BOARD} CONTARE?/ 0/0 0"
POSITION = position_with(["9E SCONTARE", "F9 CANNA"], ["TAMPAEIO", "ABCDEFGH"], [70, 12], 1)
VOWELS = f"{EMPTY_BOARD} AAEEIIOU/ABCDEFGH 0/0 0"


def game() -> ScarabeoState:
    s = ScarabeoState.new(2, 21, names=["Anna", "Bruno"])
    rng = Rng(21)
    for _ in range(8):
        s.push(random_move(s, rng))
    return s


GAME = game()
RECORD = json.loads(record.to_json(GAME))
TEXT_RECORD = record.to_text(GAME)


class TestTheCasesOfTheIssue:
    def test_a_thirty_digit_run_in_score(self) -> None:
        result = call(cli.main, ["score", "9" * 30 + START[2:], "9F CONTARE", "--no-check"])
        assert_refused(result)
        assert result.json()["error_code"] == "bad-position"
        assert "row 1 is longer than 17 squares" in result.err and "at character 1 " in result.err

    def test_a_thirty_digit_run_in_best_is_refused_before_the_lexicon_loads(self) -> None:
        result = call(cli.main, ["best", "9" * 30 + START[2:]])
        assert_refused(result)
        assert "position: row 1" in result.json()["error"]

    def test_a_run_of_a_hundred_million_in_a_short_position_costs_no_memory(self) -> None:
        text = "100000000" + START[2:]
        assert len(text) < 100
        tracemalloc.start()
        try:
            result = call(cli.main, ["score", text, "9F CONTARE", "--no-check"])
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert_refused(result)
        assert peak < 5_000_000

    def test_nested_json_to_replay(self, tmp_path: Path) -> None:
        f = tmp_path / "nested.json"
        f.write_text("{" + '"a":' * 1 + "[" * 5000 + "]" * 5000 + "}")
        result = call(cli.main, ["replay", str(f), "--no-check"])
        assert_refused(result)
        assert "nested" in result.json()["error"]

    def test_a_position_option_with_a_thirty_digit_run(self, tmp_path: Path) -> None:
        data = dict(RECORD, options={**RECORD["options"], "position": "9" * 30 + START[2:]}, moves=[], meta={})
        f = tmp_path / "rec.json"
        f.write_text(json.dumps(data))
        result = call(cli.main, ["replay", str(f), "--no-check"])
        assert_refused(result)
        assert "cannot set up the game: position: row 1" in result.json()["error"]

    def test_superscript_digits_are_not_numbers(self) -> None:
        for position, move in ((START.replace(" 0/0 0", " ²/0 0"), "9F CONTARE"), ("²" + START[1:], "-"),
                               (START, "²F CONTARE"), (START, "*I² -"), (START, "!challenge ²")):
            assert_refused(call(cli.main, ["score", position, move, "--no-check"]))

    def test_bad_final_scores_in_meta(self, tmp_path: Path) -> None:
        f = tmp_path / "rec.json"
        f.write_text(json.dumps(dict(RECORD, meta={"final": 5})))
        result = call(cli.main, ["replay", str(f), "--no-check"])
        assert_refused(result)
        assert "meta final" in result.json()["error"]


@pytest.mark.parametrize(
    "move", ["-AAEEIIOU", "-", "-AEIOUAEI", "-EEIIOUAA"],
)
def test_exchange_notation_as_positional_move(move: str) -> None:
    """Issue 16: a move that starts with "-" is the MOVE argument, without "--" before it, and the
    options around it still work."""
    for args in (["score", VOWELS, move, "--no-check"], ["score", "--no-check", VOWELS, move],
                 ["score", VOWELS, "--no-check", move]):
        result = call(cli.main, args)
        assert result.code == OK, result.err
        assert result.json()["legal"] is True
        assert result.json()["move"] == ("-" if move == "-" else "-AAEEIIOU")


def test_exchange_notation_still_takes_an_explicit_double_dash() -> None:
    assert call(cli.main, ["score", "--no-check", "--", VOWELS, "-AAEEIIOU"]).code == OK


def test_an_unknown_long_option_is_still_named() -> None:
    result = call(cli.main, ["score", VOWELS, "-AAEEIIOU", "--bogus"])
    assert_refused(result)
    assert "unrecognized arguments: --bogus" in result.err


def test_an_exchange_through_python_m_game() -> None:
    proc = subprocess.run([sys.executable, "-m", "game", "scarabeo", "score", VOWELS, "-AAEEIIOU", "--no-check"],
                          capture_output=True, text=True, check=False, timeout=60)
    assert proc.returncode == OK, proc.stderr
    assert json.loads(proc.stdout)["move"] == "-AAEEIIOU"


@FUZZ
@given(damaged(POSITION), st.sampled_from(["E9 STAMPA", "-", "-AEIOUAEI", "*I9 -", "!accept"]))
def test_damaged_positions_are_refused_cleanly(text: str, move: str) -> None:
    assert_clean(call(cli.main, ["score", text, move, "--no-check"]))


@FUZZ
@given(st.one_of(damaged("*I9 *C4 9F CONTARE"), damaged("-AEIOUAEI"), damaged("!challenge 2"),
                 damaged("!vote YN-Y")))
def test_damaged_moves_are_refused_cleanly(move: str) -> None:
    assert_clean(call(cli.main, ["score", POSITION, move, "--no-check"]))


@FUZZ
@given(st.integers(0, len(EMPTY_BOARD)), st.text(alphabet="0123456789", min_size=3, max_size=60))
def test_best_refuses_long_runs_without_the_lexicon(at: int, digits: str) -> None:
    text = START[:at] + digits.lstrip("0") + "1" + START[at:]
    assert_refused(call(cli.main, ["best", text]))


@pytest.fixture(scope="module")
def record_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("records") / "record"


@FUZZ
@given(st.one_of(hostile_json(RECORD), damaged(TEXT_RECORD)))
def test_damaged_records_are_refused_cleanly(record_file: Path, text: str) -> None:
    record_file.write_text(text, encoding="utf-8", errors="surrogatepass")
    assert_clean(call(cli.main, ["replay", str(record_file), "--no-check"]))


def test_a_real_process_refuses_a_huge_run_in_one_line() -> None:
    proc = subprocess.run([sys.executable, "-m", "game", "scarabeo", "score", "9" * 30 + START[2:], "9F CONTARE"],
                          capture_output=True, text=True, check=False, timeout=60)
    assert proc.returncode == MALFORMED and "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
    assert json.loads(proc.stdout)["error_code"] == "bad-position"


class TestOtherNumbers:
    def test_a_saved_hourglass_turn_with_a_huge_number_starts_afresh(self) -> None:
        from game.scarabeo.hourglass import Hourglass

        glass = Hourglass(lambda: 0.0)
        for value in (10**400, float("nan"), float("inf"), -1, "5", None, True):
            with pytest.raises(ValueError):
                glass.restore({"active": True, "carry_in": value, "used": 0, "paused": False})

    def test_a_forty_digit_seed_survives_both_record_formats(self) -> None:
        s = ScarabeoState.new(2, 10**39 + 7)
        s.push(s.parse_move("-"))
        for text in (record.to_text(s), record.to_json(s)):
            assert record.load(text).seed == 10**39 + 7

    def test_a_forty_one_digit_seed_is_refused_in_both_formats(self) -> None:
        s = ScarabeoState.new(2, 10**40)
        for text in (record.to_text(s), record.to_json(s)):
            with pytest.raises(record.ReplayError, match="seed|digits"):
                record.load(text)
