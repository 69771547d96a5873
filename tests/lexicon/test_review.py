"""The frequency review: its filter, its file, its figures; the frequency package is optional."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import lexicon
from lexicon.__main__ import main
from lexicon.build import REMOVALS, read_word_list
from lexicon.review import REVIEW, VERDICTS, ReviewError, coverage, eligible, read_review


@pytest.mark.parametrize("form, word", [
    ("casa", "CASA"), ("perché", "PERCHE"), ("città", "CITTA"), ("caratterizzazione", "CARATTERIZZAZIONE"),
])
def test_eligible_forms(form: str, word: str) -> None:
    assert eligible(form) == word


@pytest.mark.parametrize("form", [
    "e", "è", "dell'anno", "m5s", "1", "°", "jazz", "weekend", "x", "garçon", "señor", "über", "Roma",
    "precipitevolissimevolmente", "ex-moglie",
])
def test_forms_the_rules_could_never_allow(form: str) -> None:
    assert eligible(form) is None


def test_coverage_classifies_each_word_once_at_its_best_rank(lex: lexicon.Lexicon) -> None:
    forms = ["di", "perché", "perche", "roma", "the", "strasse", "zzzqq", "dell'anno", "casa", "up"]
    review = {"THE": ("foreign", "English article")}
    result = coverage(forms, lex, names={"ROMA"}, review=review, removals={"STRASSE": "German", "UP": "English"})
    assert result.forms == 10 and result.eligible == 8  # perche repeats PERCHE, dell'anno is out
    assert result.accepted == 3 and result.names == ["ROMA"]
    assert result.left_out == [("THE", "foreign"), ("STRASSE", "removed"), ("UP", "removed")]
    assert result.misses == ["ZZZQQ"]
    figures = result.as_dict()
    assert figures["candidates"] == 7 and figures["coverage"] == round(3 / 7, 4)
    assert figures["coverage_of_admissible"] == 0.75 and figures["unreviewed_misses"] == 1


def test_review_file_entries_are_decided_misses(lex: lexicon.Lexicon) -> None:
    review = read_review(REVIEW)
    assert len(review) >= 80
    assert {verdict for verdict, _reason in review.values()} <= set(VERDICTS)
    # A left-out word the lexicon accepts would make the review and the lexicon disagree.
    assert [w for w in review if w in lex] == []
    assert not set(review) & set(read_word_list(REMOVALS))


@pytest.mark.parametrize("text, message", [
    ("THE\tforeign\n", "WORD<TAB>verdict<TAB>reason"),
    ("THE\tforeign\t \n", "WORD<TAB>verdict<TAB>reason"),
    ("the\tforeign\tx\n", "upper-case"),
    ("THE\tenglish\tx\n", "verdict"),
    ("THE\tforeign\tx\nTHE\tforeign\ty\n", "twice"),
])
def test_review_file_errors(tmp_path: Path, text: str, message: str) -> None:
    p = tmp_path / "review.tsv"
    p.write_text("# header\n\n" + text, encoding="utf-8")
    with pytest.raises(ReviewError, match=message):
        read_review(p)


def test_coverage_command_without_the_package(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                                              lex: lexicon.Lexicon) -> None:
    import builtins

    real_import = builtins.__import__

    def no_wordfreq(name: str, *args: object, **kwargs: object) -> object:
        if name == "wordfreq":
            raise ImportError(name)
        return real_import(name, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(builtins, "__import__", no_wordfreq)
    assert main(["coverage", "--top", "10"]) == 2
    assert "pip install" in capsys.readouterr().err


def test_coverage_command_bad_top(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["coverage", "--top", "0"]) == 2


def test_top_5000_fully_reviewed(capsys: pytest.CaptureFixture[str], lex: lexicon.Lexicon) -> None:
    # Needs the review extra (pip install -e '.[review]'); the rest of the suite does not.
    pytest.importorskip("wordfreq")
    assert main(["coverage", "--top", "5000"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["misses"] == [] and out["review_stale"] == []
    assert out["coverage_of_admissible"] == 1.0
    assert out["coverage"] >= 0.979
