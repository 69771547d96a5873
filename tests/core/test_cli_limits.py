"""Every command line refuses hostile input at once (issue 24): a named pipe, a device or a
directory given as a file is refused before it is opened; every count has a stated maximum; every
date error is one line; --help lists every command. The pipe cases run in a child process with a
timeout, so that a regression fails instead of hanging the suite."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable

import pytest

from game.core import cliargs
from game.core.record import MAX_RECORD_BYTES
from game.daily import cli as daily_cli
from game.scarabeo import ai_cli as scarabeo_ai_cli
from game.scarabeo import cli as scarabeo_cli
from game.scarabya import cli as scarabya_cli
from game.thot import cli as thot_cli

from tests.core.cli_fuzz import MALFORMED, assert_clean, call

ROOT = Path(__file__).resolve().parents[2]
#: A refusal takes well under a second; a read that blocks never ends. Generous for a loaded machine.
TIMEOUT = 60

PARSERS: dict[str, Callable[[], argparse.ArgumentParser]] = {
    "scarabeo": scarabeo_cli.build_parser, "scarabeo ai": scarabeo_ai_cli.build_parser,
    "thot": thot_cli._parser, "scarabya": scarabya_cli.build_parser, "daily": daily_cli._parser,
}
MAINS: dict[str, Callable[[list[str]], int]] = {
    "scarabeo": scarabeo_cli.main, "scarabeo ai": scarabeo_ai_cli.main, "thot": thot_cli.main,
    "scarabya": scarabya_cli.main, "daily": daily_cli.main,
}
#: Whole-number options that are not counts of work: a seat, a level, a player count, each
#: checked by the engine against the game's own range.
NOT_COUNTS = {("scarabeo", "new", "--players"), ("scarabeo", "analyse", "--viewer"),
              ("thot", "new", "--players"), ("thot", "analyse", "--viewer"),
              ("scarabya", "new", "--players"), ("scarabya", "best", "--level"),
              ("scarabya", "selfplay", "--level"), ("scarabya", "analyse", "--viewer")}


def _python_m_game(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "game", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=TIMEOUT, input=None if stdin is None else stdin.decode(),
                          stdin=subprocess.DEVNULL if stdin is None else None)


def _one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err and "internal error" not in err, err
    return lines[0]


FILE_COMMANDS = [("scarabeo", "replay"), ("scarabeo", "analyse"), ("thot", "replay"),
                 ("thot", "analyse"), ("scarabya", "replay"), ("scarabya", "analyse")]


class TestOnlyRegularFiles:
    @pytest.mark.parametrize(("game", "command"), FILE_COMMANDS)
    def test_a_named_pipe_without_writer_is_refused_at_once(self, tmp_path: Path, game: str, command: str) -> None:
        fifo = tmp_path / "pipe"
        os.mkfifo(fifo)
        done = _python_m_game(game, command, str(fifo))
        assert done.returncode == MALFORMED
        assert "named pipe" in _one_line(done.stderr)

    def test_the_bench_positions_file_too(self, tmp_path: Path) -> None:
        fifo = tmp_path / "pipe"
        os.mkfifo(fifo)
        done = _python_m_game("scarabeo", "bench", "--positions", str(fifo))
        assert done.returncode == MALFORMED and "named pipe" in _one_line(done.stderr)

    @pytest.mark.parametrize(("game", "command"), FILE_COMMANDS)
    def test_a_directory_and_a_device(self, tmp_path: Path, game: str, command: str) -> None:
        main = MAINS[game]
        for path, kind in ((str(tmp_path), "a directory"), ("/dev/zero", "a device"), ("/dev/null", "a device")):
            result = call(main, [command, path])
            assert_clean(result, (MALFORMED,))
            assert kind in result.err

    def test_the_reader_itself(self, tmp_path: Path) -> None:
        big = tmp_path / "big.json"
        big.write_bytes(b" " * (MAX_RECORD_BYTES + 1))
        with pytest.raises(ValueError, match="larger than"):
            cliargs.read_record(str(big), MAX_RECORD_BYTES)
        with pytest.raises(ValueError, match="cannot read"):
            cliargs.read_record(str(tmp_path / "missing"), MAX_RECORD_BYTES)
        fifo = tmp_path / "pipe"
        os.mkfifo(fifo)
        with pytest.raises(ValueError, match="named pipe"):
            cliargs.read_bytes(str(fifo), 10, "file")
        small = tmp_path / "small.txt"
        small.write_text("héllo", encoding="utf-8")
        assert cliargs.read_text(str(small), 100, "text") == "héllo"
        small.write_bytes(b"\xff")
        with pytest.raises(ValueError, match="not UTF-8"):
            cliargs.read_text(str(small), 100, "text")

    def test_standard_input_stays_bounded(self) -> None:
        done = _python_m_game("thot", "replay", "-", stdin=b" " * (MAX_RECORD_BYTES + 10))
        assert done.returncode == MALFORMED and "larger than" in _one_line(done.stderr)


def _int_options(parser: argparse.ArgumentParser, prefix: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], argparse.Action]]:
    out = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                out += _int_options(sub, (*prefix, name))
        elif action.option_strings and (action.type is int or getattr(action.type, "__name__", "") == "count"):
            out.append((prefix, action))
    return out


class TestCounts:
    def test_every_count_is_bounded_and_states_its_maximum(self) -> None:
        seen = 0
        for cli, build in PARSERS.items():
            for prefix, action in _int_options(build()):
                flag = action.option_strings[-1]
                where = (cli.split()[0], *prefix, flag)
                if action.type is int and action.choices is None:
                    assert where in NOT_COUNTS, f"{' '.join(where)} is an unbounded count"
                    continue
                if action.type is int:
                    continue  # one of a few choices (a level)
                assert action.help and "-" in action.help, where
                seen += 1
        assert seen >= 19

    @pytest.mark.parametrize("cli", list(PARSERS))
    def test_past_the_maximum_is_refused(self, cli: str) -> None:
        for prefix, action in _int_options(PARSERS[cli]()):
            if action.type is int:
                continue
            flag = action.option_strings[-1]
            for value in ("99999999999999999999", "0", "-1", "1e9", "9" * 5000, "٣"):
                result = call(MAINS[cli], [*prefix, flag, value])
                assert_clean(result, (MALFORMED,))
                assert flag in result.err and "whole number" in result.err

    def test_the_reported_case(self) -> None:
        result = call(scarabeo_cli.main, ["randomplay", "--games", "99999999999999999999"])
        assert_clean(result, (MALFORMED,))
        assert "10000" in result.err
        help_text = call(scarabeo_cli.main, ["randomplay", "--help"]).out
        assert "1-10,000" in help_text

    def test_seconds_are_finite_and_bounded(self) -> None:
        for value in ("inf", "nan", "-1", "1e400", "99999", "soon"):
            result = call(thot_cli.main, ["hint", "10/10/10/10/10/10/10/10/10/10", "--time", value])
            assert_clean(result, (MALFORMED,))
            assert "seconds" in result.err


class TestDates:
    @pytest.mark.parametrize("args", [
        ["--date", "9999-12-31", "--days", "3", "--check"],
        ["--date", "9999-12-30", "--days", "3660", "--bench"],
        ["--date", "10000-01-01"], ["--date", "0000-00-00"], ["--date", "2026-02-30"],
        ["--date", "1970-01-01"], ["--date", "2026-12-01", "--days", "99999999999999999999", "--check"],
        ["--date", "٢٠٢٦-١٢-٠١"],
    ])
    def test_every_date_error_is_one_line(self, args: list[str]) -> None:
        result = call(daily_cli.main, args)
        assert_clean(result, (MALFORMED,))

    def test_last_day(self) -> None:
        import datetime

        assert cliargs.last_day(datetime.date(2026, 12, 1), 31) == datetime.date(2026, 12, 31)
        with pytest.raises(ValueError, match="past the last date"):
            cliargs.last_day(datetime.date.max, 2)


class TestHelpListsEveryCommand:
    DISPATCH: dict[str, Callable[[], set[str]]] = {
        "scarabeo": lambda: set(scarabeo_cli.COMMANDS) | set(scarabeo_cli.AI_COMMANDS),
        "thot": lambda: set(thot_cli.COMMANDS),
        "scarabya": lambda: set(scarabya_cli.COMMANDS),
    }

    @pytest.mark.parametrize("game", ["scarabeo", "thot", "scarabya"])
    def test_the_parser_lists_the_dispatch_table(self, game: str) -> None:
        listed = cliargs.commands(PARSERS[game]())
        assert set(listed) == self.DISPATCH[game]()
        assert len(listed) == len(set(listed))

    @pytest.mark.parametrize("game", ["scarabeo", "thot", "scarabya"])
    def test_help_names_them(self, game: str) -> None:
        done = _python_m_game(game, "--help")
        assert done.returncode == 0
        text = done.stdout + done.stderr
        for name in self.DISPATCH[game]():
            assert f"    {name} " in text or f"    {name}\n" in text, name

    def test_the_reported_commands(self) -> None:
        text = "".join(PARSERS["scarabeo"]().format_help())
        for name in ("best", "selfplay", "positions", "randomplay", "analyse", "bench"):
            assert name in text


def test_internal_error_line_is_bounded() -> None:
    err: Any = OverflowError("x" * 1000 + "\nsecond line")
    line = cliargs.internal_error(err)
    assert "\n" not in line and len(line) < 400
