"""Records and command lines from outside: bounded parsing, every engine error a RecordError, and
the argv pre-processing that lets a positional start with "-" (issues 14 and 16)."""

from __future__ import annotations

import argparse
import io
import json
from typing import Any, Mapping

import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.core import GameRecord, RecordError, cliargs
from game.core.record import MAX_RECORD_BYTES
from tests.core.cli_fuzz import FUZZ, hostile_json
from tests.core.test_record import Nim, new_nim

GOOD = GameRecord("nim", {"pile": 9}, 0, ["3", "2"]).to_json()


class TestLoads:
    @pytest.mark.parametrize(
        "text, reason",
        [
            ("[" * 5000 + "]" * 5000, "nested 5000 levels"),
            (json.dumps(GOOD).replace('"seed": 0', '"seed": ' + "9" * 5000), "more than 40 digits"),
            (json.dumps(GOOD).replace('"seed": 0', '"seed": NaN'), "NaN is not a JSON number"),
            (json.dumps(GOOD).replace('"seed": 0', '"seed": -Infinity'), "-Infinity is not a JSON number"),
            ("{", "not valid JSON"),
            (b"\xff{}", "not UTF-8"),
        ],
    )
    def test_refused_with_the_reason(self, text: str | bytes, reason: str) -> None:
        with pytest.raises(RecordError, match=reason):
            GameRecord.loads(text)

    @FUZZ
    @given(hostile_json(GOOD))
    def test_anything_else_is_a_record_or_a_record_error(self, text: str) -> None:
        try:
            GameRecord.loads(text)
        except RecordError:
            pass


class Fragile(Nim):
    """A game whose engine fails in every way Python can."""

    FAILURE: BaseException = TypeError("unsupported operand")

    def push(self, move: int) -> int:
        if move == 2:
            raise self.FAILURE
        return super().push(move)


ENGINE_ERRORS = [TypeError("x"), KeyError("pile"), AttributeError("'list' object has no attribute 'masks'"),
                 IndexError("list index out of range"), OverflowError("cannot fit 'int'"),
                 RecursionError("maximum recursion depth exceeded"), ValueError("bad"), ZeroDivisionError(),
                 MemoryError(), RuntimeError("boom"), AssertionError()]


class TestReplayTurnsEveryEngineErrorIntoARecordError:
    @pytest.mark.parametrize("error", ENGINE_ERRORS, ids=lambda e: type(e).__name__)
    def test_while_setting_up(self, error: BaseException) -> None:
        def factory(options: Mapping[str, Any], seed: int) -> Nim:
            raise error

        with pytest.raises(RecordError, match="cannot set up the game") as info:
            GameRecord.from_json(GOOD).replay(factory)
        assert info.value.turn is None
        if not isinstance(error, ValueError):
            assert type(error).__name__ in str(info.value)

    @pytest.mark.parametrize("error", ENGINE_ERRORS, ids=lambda e: type(e).__name__)
    def test_while_replaying_a_move(self, error: BaseException, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setattr(Fragile, "FAILURE", error)
        with pytest.raises(RecordError) as info:
            GameRecord.from_json(GOOD).replay(lambda options, seed: Fragile(int(options["pile"]), seed))
        assert info.value.turn == 2 and "'2'" in str(info.value)

    def test_a_factory_that_returns_no_game(self) -> None:
        with pytest.raises(RecordError, match="AttributeError"):
            GameRecord.from_json(GOOD).replay(lambda options, seed: None)  # type: ignore[arg-type,return-value]

    def test_options_of_the_wrong_type(self) -> None:
        for pile in ([], {}, None, "x"):
            rec = GameRecord("nim", {"pile": pile}, 0, ["1"])
            with pytest.raises(RecordError):
                rec.replay(new_nim)


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="t")
    sub = p.add_subparsers(dest="command")
    s = sub.add_parser("score")
    s.add_argument("position")
    s.add_argument("move")
    s.add_argument("--no-check", action="store_true")
    s.add_argument("--level", type=int, default=1)
    s.add_argument("--levels")
    s.add_argument("--top", type=int)
    n = sub.add_parser("new")
    n.add_argument("--seed", type=cliargs.seed, default=0)
    return p


class TestProtectPositionals:
    @pytest.mark.parametrize(
        "args, expected",
        [
            (["score", "P", "-AEI"], ["score", "--", "P", "-AEI"]),
            (["score", "P", "-AEI", "--no-check"], ["score", "--no-check", "--", "P", "-AEI"]),
            (["score", "--level", "-3", "-P", "-"], ["score", "--level", "-3", "--", "-P", "-"]),
            (["score", "--level=2", "-P", "-X"], ["score", "--level=2", "--", "-P", "-X"]),
            (["score", "--no-ch", "P", "-X"], ["score", "--no-ch", "--", "P", "-X"]),
            (["score", "--to", "-3", "P", "-X"], ["score", "--to", "-3", "--", "P", "-X"]),
            (["score", "-h"], ["score", "-h", "--"]),
            (["score", "P", "--bogus", "-X"], ["score", "--bogus", "--", "P", "-X"]),
            (["score", "--", "P", "-X"], ["score", "--", "P", "-X"]),
            (["new", "--seed", "-4"], ["new", "--seed", "-4"]),
            (["unknown", "-X"], ["unknown", "-X"]),
            ([], []),
        ],
    )
    def test_rewrites(self, args: list[str], expected: list[str]) -> None:
        assert cliargs.protect_positionals(parser(), args) == expected

    def test_the_result_parses(self) -> None:
        p = parser()
        ns = p.parse_args(cliargs.protect_positionals(p, ["score", "-AEI", "--level", "-2", "-P", "--no-check"]))
        assert (ns.position, ns.move, ns.level, ns.no_check) == ("-AEI", "-P", -2, True)

    def test_an_ambiguous_abbreviation_is_left_to_argparse(self) -> None:
        p = parser()
        assert cliargs.protect_positionals(p, ["score", "--le", "P", "-X"]) == ["score", "--le", "--", "P", "-X"]


class TestSeedsAndRecords:
    def test_seeds_are_bounded(self) -> None:
        assert cliargs.seed("-5") == -5 and cliargs.seed("9" * 40) == int("9" * 40)
        for bad in ("9" * 41, "²", "1_0", "", "x"):
            with pytest.raises(argparse.ArgumentTypeError):
                cliargs.seed(bad)

    def test_a_record_is_read_no_further_than_the_limit(self) -> None:
        endless = io.BytesIO(b" " * (MAX_RECORD_BYTES + 10))
        with pytest.raises(ValueError, match="larger than"):
            cliargs.read_record("-", MAX_RECORD_BYTES, stdin=io.TextIOWrapper(endless))
        with pytest.raises(ValueError, match="not UTF-8"):
            cliargs.read_record("-", 100, stdin=io.TextIOWrapper(io.BytesIO(b"\xff")))
        with pytest.raises(ValueError, match="cannot read"):
            cliargs.read_record("/nonexistent/record.json", 100)

    @given(st.text(max_size=30))
    @FUZZ
    def test_internal_errors_are_one_line(self, text: str) -> None:
        line = cliargs.internal_error(RuntimeError(text))
        assert "\n" not in line and line.startswith("internal error (RuntimeError")
