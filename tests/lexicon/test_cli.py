"""``python -m lexicon``: check, stats, build, bench (tiny sizes) — JSON on stdout, exit codes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import lexicon
from lexicon.__main__ import main

REPO = Path(__file__).resolve().parents[2]


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, (json.loads(out) if out.strip() else {}), err


def test_check(capsys: pytest.CaptureFixture[str], lex: lexicon.Lexicon) -> None:
    code, out, _ = run(capsys, "check", "città", "TA", "Roma", "jazz", "")
    assert code == 0
    assert out["città"] == {"normalised": "CITTA", "valid": True, "abbreviation": None}
    assert out["TA"] == {"normalised": "TA", "valid": True, "abbreviation": "Taranto"}
    assert out["Roma"]["valid"] is False and out["jazz"]["valid"] is False and out[""]["valid"] is False


def test_check_needs_a_word(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check"]) == 2


def test_check_with_missing_lexicon(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, err = run(capsys, "check", "--lexicon", str(tmp_path / "none.dawg"), "casa")
    assert code == 2 and out == {}
    assert "python -m lexicon build" in err


def test_stats(capsys: pytest.CaptureFixture[str], lex: lexicon.Lexicon) -> None:
    code, out, _ = run(capsys, "stats")
    assert code == 0
    assert out["word_count"] == len(lex) and out["abbreviation_count"] == 243
    assert out["size_bytes"] > out["gzip_bytes"] > 0
    assert sum(out["by_length"].values()) == len(lex) and min(map(int, out["by_length"])) == 2
    assert out["build"]["source"]["package"] == "dictionary-it 2.0.0"
    assert "index.aff" in out["build"]["inputs"]


def test_build_is_skipped_when_up_to_date(capsys: pytest.CaptureFixture[str], lex: lexicon.Lexicon) -> None:
    code, out, _ = run(capsys, "build")
    assert code == 0 and out["skipped"] is True and out["word_count"] == len(lex)


def test_build_with_bad_source(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, "build", "--source", str(tmp_path))
    assert code == 2 and "not found" in err


def test_bench_tiny(capsys: pytest.CaptureFixture[str], lex: lexicon.Lexicon) -> None:
    code, out, _ = run(capsys, "bench", "--no-build", "--lookups", "200")
    assert code == 0
    assert out["lookups"] == 200 and out["lookups_found"] == 100
    assert out["word_count"] == len(lex) and out["load_ms"] > 0 and out["contains_per_second"] > 0


def test_module_entry_point(lex: lexicon.Lexicon) -> None:
    proc = subprocess.run([sys.executable, "-m", "lexicon", "check", "scarabeo"], cwd=REPO,
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["scarabeo"]["valid"] is True
