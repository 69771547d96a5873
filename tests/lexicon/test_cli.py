"""``python -m lexicon``: check, stats, build, bench (tiny sizes) — JSON on stdout, exit codes."""

from __future__ import annotations

import json
import os
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
    assert out["città"] == {"normalised": "CITTA", "valid": True, "abbreviation": None, "source": "it_IT",
                            "source_note": None, "lemma": "CITTA", "forms": ["CITTA"],
                            "lemmas": [{"lemma": "CITTA", "root": "CITTA", "kind": "word", "prefix": "",
                                        "forms": ["CITTA"], "form_count": 1}], "exclusion": None}
    assert out["TA"] == {"normalised": "TA", "valid": True, "abbreviation": "Taranto", "source": "appendix",
                         "source_note": "Taranto", "lemma": None, "forms": [], "lemmas": [], "exclusion": None}
    assert out["Roma"]["valid"] is False and out["jazz"]["valid"] is False and out[""]["valid"] is False
    assert out["Roma"]["source"] is None
    assert out["Roma"]["exclusion"] == {"rule": "name", "note": ""}
    assert out["jazz"]["exclusion"]["rule"] == "letters" and out[""]["exclusion"]["rule"] == "length"


def test_check_gives_the_lemma_its_forms_or_the_rule_that_excludes_it(
        capsys: pytest.CaptureFixture[str], lex: lexicon.Lexicon) -> None:
    code, out, _ = run(capsys, "check", "gatti", "riabbaiare", "amati", "COR", "DR", "Milano")
    assert code == 0
    assert out["gatti"]["lemma"] == "GATTO" and out["gatti"]["forms"] == ["GATTO", "GATTI", "GATTA", "GATTE"]
    assert out["gatti"]["exclusion"] is None
    [abbaiare] = out["riabbaiare"]["lemmas"]
    assert abbaiare["lemma"] == "ABBAIARE" and abbaiare["kind"] == "verb" and abbaiare["prefix"] == "RI"
    assert abbaiare["form_count"] > 300 and abbaiare["forms"][:3] == ["ABBAI", "ABBAIO", "ABBAIA"]
    assert [(m["lemma"], m["root"], m["kind"]) for m in out["amati"]["lemmas"]] == [
        ("AMARE", "AMARE", "verb"), ("AMARE", "AMATO", "participle")]
    assert out["COR"]["exclusion"]["rule"] == "archaic" and "cuore" in out["COR"]["exclusion"]["note"]
    assert out["DR"]["exclusion"]["rule"] == "abbreviation" and out["Milano"]["exclusion"]["rule"] == "name"
    assert out["COR"]["lemma"] is None and out["COR"]["lemmas"] == []


def test_check_says_where_a_word_comes_from(capsys: pytest.CaptureFixture[str], lex: lexicon.Lexicon) -> None:
    code, out, _ = run(capsys, "check", "chattavo", "app", "casa", "PO")
    assert code == 0
    assert out["chattavo"]["source"] == "additions" and out["chattavo"]["source_note"].startswith(
        "a form of CHATTARE = POSTARE: ")
    assert out["app"]["source"] == "additions" and "Zingarelli" in out["app"]["source_note"]
    assert out["casa"]["source"] == "it_IT"
    # PO is in the dictionary (po, a little) and an appendix abbreviation (Prato):
    # the dictionary comes first, the meaning is in "abbreviation".
    assert out["PO"]["abbreviation"] == "Prato" and out["PO"]["source"] == "it_IT"


@pytest.mark.parametrize("command", ["check", "stats"])
def test_a_fifo_or_device_is_refused_at_once(command: str, tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    for target in (str(fifo), "/dev/zero", str(tmp_path)):
        args = [command, "--lexicon", target] + (["casa"] if command == "check" else [])
        # A child process under a timeout: a regression blocks on the pipe instead of failing.
        proc = subprocess.run([sys.executable, "-m", "lexicon", *args], cwd=REPO, capture_output=True,
                              text=True, timeout=60)
        assert proc.returncode == 2 and proc.stdout == ""
        assert proc.stderr.count("\n") == 1 and "not a regular file" in proc.stderr


@pytest.mark.parametrize("args", [["bench", "--lookups", "99999999999999999999"], ["bench", "--lookups", "0"],
                                  ["coverage", "--top", "0"], ["coverage", "--top", "10000001"]])
def test_counts_have_a_maximum(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(args) == 2
    assert "out of range" in capsys.readouterr().err


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
    code, out, err = run(capsys, "build")
    assert code == 0 and out == {}
    assert err == f"lexicon: lexicon/data/it.dawg is up to date ({len(lex):,} words)\n"
    code, out, _ = run(capsys, "build", "--verbose")
    assert code == 0 and out["skipped"] is True and out["word_count"] == len(lex)


@pytest.fixture()
def tiny_build(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """The tiny source of test_build, built by the command into a temporary lexicon file."""
    from lexicon import build
    from tests.lexicon.test_build import TINY_AFF, TINY_DIC

    src = tmp_path / "src"
    src.mkdir()
    (src / "index.aff").write_text(TINY_AFF, encoding="utf-8")
    (src / "index.dic").write_text(TINY_DIC, encoding="utf-8")
    monkeypatch.setattr(build, "OUTPUT", tmp_path / "it.dawg")
    monkeypatch.setattr(build, "STAMP", tmp_path / "it.dawg.stamp")
    return src, tmp_path / "it.dawg.stamp"


def test_build_says_when_it_starts_how_far_it_is_and_when_it_is_done(
        capsys: pytest.CaptureFixture[str], tiny_build: tuple[Path, Path]) -> None:
    src, stamp = tiny_build
    code, out, err = run(capsys, "build", "--source", str(src))
    assert code == 0 and out == {}  # the statistics are not dumped on the screen …
    stats = json.loads(stamp.read_text(encoding="utf-8"))  # … but written to the stamp file
    assert stats["word_count"] > 0 and stats["counts"]["roots"] > 0
    lines = err.splitlines()
    assert lines[0] == f"lexicon: building {stamp.parent / 'it.dawg'} from the hunspell dictionary (about a minute) …"
    assert lines[-1].startswith(f"lexicon: built {stamp.parent / 'it.dawg'} in ")
    assert lines[-1].endswith(f"{stats['word_count']:,} words, {stats['size_bytes'] // 1024} KB (statistics in {stamp})")
    # Not a terminal: a line at some of the fifths, in order, instead of a bar redrawn in place.
    percents = [int(line.removeprefix("lexicon: ").removesuffix(" %")) for line in lines[1:-1]]
    assert percents and percents == sorted(set(percents)) and set(percents) <= {20, 40, 60, 80}
    assert "\r" not in err


def test_build_verbose_prints_the_statistics_and_quiet_nothing(
        capsys: pytest.CaptureFixture[str], tiny_build: tuple[Path, Path]) -> None:
    src, stamp = tiny_build
    code, out, err = run(capsys, "build", "--source", str(src), "--verbose")
    assert code == 0 and out == json.loads(stamp.read_text(encoding="utf-8")) and out["skipped"] is False
    assert err.splitlines()[-1].startswith("lexicon: built ")
    code, out, err = run(capsys, "build", "--source", str(src), "--force", "--quiet")
    assert code == 0 and out == {} and err == ""
    assert main(["build", "--verbose", "--quiet"]) == 2


def test_progress_on_a_terminal_is_one_bar_redrawn_then_cleared() -> None:
    import io

    from lexicon.build import ProgressLine

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    screen = Terminal()
    bar = ProgressLine(screen, "lexicon:")
    for share in (0.0, 0.004, 0.5, 0.5, 1.0):
        bar(share)
    bar.close()
    frames = screen.getvalue().split("\r")[1:]
    assert frames == ["lexicon: [..............................]   0 %",
                      "lexicon: [###############...............]  50 %",
                      "lexicon: [##############################] 100 %",
                      "\033[K"]  # the same percent is not drawn twice; the bar is wiped at the end


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
