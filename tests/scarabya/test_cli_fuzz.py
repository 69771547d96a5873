"""Malformed command lines end in a clean refusal: exit 2 (1 for an illegal move), the reason on
one stderr line and in the JSON, never a traceback (issue 14)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.scarabya import RuinsState, ScarabyaState, record
from game.scarabya.cli import main
from tests.core.cli_fuzz import FUZZ, MALFORMED, OK, assert_clean, assert_refused, call, damaged, hostile_json


def played(state: ScarabyaState | RuinsState, moves: int) -> ScarabyaState | RuinsState:
    for _ in range(moves):
        state.push(state.legal_moves()[0])  # type: ignore[arg-type]
    return state


CLASSIC = played(ScarabyaState.new(2, seed=3), 6)
RUINS = played(RuinsState.new(3, seed=3), 6)
CLASSIC_RECORD = record(CLASSIC).to_json()
RUINS_RECORD = record(RUINS).to_json()


def replay_json(data: dict[str, object]) -> list[str]:
    return ["replay", json.dumps(data)]


class TestTheCasesOfTheIssue:
    @pytest.mark.parametrize(
        "options, message",
        [
            ({"layout": []}, "option layout must be text"),
            ({"deck": [1]}, "option deck must be text"),
            ({"players": "2"}, "option players must be a whole number"),
            ({"players": 1.5}, "option players must be a whole number"),
            ({"players": True}, "option players must be a whole number"),
            ({"variant": []}, "unknown Scarabya variant"),
            ({"variant": "ruins", "deck": 5}, "option deck must be text"),
            ({"variant": "ruins", "zones": {"a": 1}}, "option zones must be text"),
            ({"variant": "ruins", "players": None}, "option players must be a whole number"),
        ],
    )
    def test_options_of_the_wrong_type(self, options: dict[str, object], message: str) -> None:
        result = call(main, replay_json(dict(CLASSIC_RECORD, options=options, moves=[])))
        assert_refused(result)
        assert f"cannot set up the game: {message}" in result.json()["error"]

    def test_nested_json_to_replay(self) -> None:
        for args, stdin in ((["replay", "-"], "[" * 5000 + "]" * 5000), (["replay", "[" * 5000 + "]" * 5000], "")):
            result = call(main, args, stdin)
            assert_refused(result)

    def test_a_huge_seed_in_a_position(self) -> None:
        text = CLASSIC.position().rsplit(" ", 1)[0] + " " + "9" * 1000
        result = call(main, ["show", text])
        assert_refused(result)
        assert "seed" in result.json()["error"]

    def test_odd_letters_and_digits_in_moves(self) -> None:
        for move in ("ﬁ0@E5", "L3@ß5", "L3@E²", "4T1@C²"):
            assert_clean(call(main, ["play", CLASSIC.position(), move]))


def test_a_discard_is_a_positional_move() -> None:
    """"-" (discard) is the MOVE; the game answers, not argparse."""
    result = call(main, ["play", CLASSIC.position(), "-"])
    assert result.code == 1 and result.json()["code"] == "must-place"


def test_a_record_file_name_may_start_with_a_dash(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "-game.json").write_text(record(CLASSIC).dumps(), encoding="utf-8")
    result = call(main, ["replay", "-game.json"])
    assert result.code == OK and result.json()["position"] == CLASSIC.position()


@FUZZ
@given(st.one_of(damaged(CLASSIC.position()), damaged(RUINS.position())))
def test_damaged_positions_are_refused_cleanly(text: str) -> None:
    assert_clean(call(main, ["show", text]))


@FUZZ
@given(st.one_of(damaged("L3@E5"), damaged("4T1@C3"), st.just("-")), st.booleans())
def test_damaged_moves_are_refused_cleanly(move: str, ruins: bool) -> None:
    assert_clean(call(main, ["play", (RUINS if ruins else CLASSIC).position(), move]))


@FUZZ
@given(st.one_of(hostile_json(CLASSIC_RECORD), hostile_json(RUINS_RECORD)), st.booleans())
def test_damaged_records_are_refused_cleanly(text: str, stdin: bool) -> None:
    assert_clean(call(main, ["replay", "-"], text) if stdin else call(main, ["replay", "{" + text[1:]]))


def test_a_real_process_refuses_a_bad_option_in_one_line() -> None:
    data = json.dumps(dict(CLASSIC_RECORD, options={"layout": []}, moves=[]))
    proc = subprocess.run([sys.executable, "-m", "game", "scarabya", "replay", "-"], input=data,
                          capture_output=True, text=True, check=False, timeout=60)
    assert proc.returncode == MALFORMED and "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1 and "option layout" in proc.stderr


def test_a_huge_player_count_in_selfplay_is_refused_before_any_list_is_built() -> None:
    for players in ("9" * 30, "0", "-1"):
        result = call(main, ["selfplay", "--players", players])
        assert_refused(result)
        assert "players" in result.json()["error"]
