"""The supplement (lexicon/data/supplement.txt): today's Italian with a source for every word, its
forms by the same affix rules, the rulebook's exclusions still applied (issue 40 part 1)."""

from __future__ import annotations

from pathlib import Path

import pytest

import lexicon
from lexicon import Lexicon
from lexicon.build import ADDITIONS, SUPPLEMENT, BuildError, BuildReport, build_bytes, read_entries, read_supplement
from tests.lexicon.test_build import TINY_DIC, tiny  # noqa: F401 - the tiny source fixture

SOURCES = "@LIST-2025  A published list of new words, https://example.org/list\n"


def supplement(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "supplement.txt"
    p.write_text(SOURCES + text, encoding="utf-8")
    return p


def tiny_build(tiny: Path, tmp_path: Path, text: str, removals: str = "") -> tuple[set[str], BuildReport]:
    add, rem = tmp_path / "add.txt", tmp_path / "rem.txt"
    add.write_text("", encoding="utf-8")
    rem.write_text(removals, encoding="utf-8")
    data, report = build_bytes(tiny, additions_path=add, removals_path=rem,
                               supplement_path=supplement(tmp_path, text))
    return set(Lexicon.from_bytes(data).words()), report


class TestFile:
    def test_sources_and_entries(self, tmp_path: Path) -> None:
        sources, entries = read_supplement(supplement(tmp_path, "CANTARE = CONTARE  # LIST-2025: to sing\n"
                                                                "BOOMER  # LIST-2025: loanword\n"))
        assert sources == {"LIST-2025": "A published list of new words, https://example.org/list"}
        assert entries["CANTARE"].source == "LIST-2025" and entries["CANTARE"].model == "CONTARE"
        assert entries["BOOMER"].note == "loanword" and entries["BOOMER"].model is None

    @pytest.mark.parametrize("text, message", [
        ("BOOMER  # OTHER: a source never declared\n", "declared"),
        ("BOOMER  # LIST-2025:\n", "KEY: note"),
        ("BOOMER  # no source at all\n", "KEY: note"),
        ("BOOMER\n", "no '# reason'"),
        ("WEEKEND  # LIST-2025: J K W X Y are not Scarabeo letters\n", "upper-case word"),
        ("@LIST-2025  twice\n", "declared twice"),
        ("@lower  a key in lower case\n", "KEY upper case"),
    ])
    def test_errors(self, tmp_path: Path, text: str, message: str) -> None:
        with pytest.raises(BuildError, match=message):
            read_supplement(supplement(tmp_path, text))


class TestBuild:
    def test_a_verb_gets_every_form_and_its_source(self, tiny: Path, tmp_path: Path) -> None:
        words, report = tiny_build(tiny, tmp_path, "CANTARE = CONTARE  # LIST-2025: to sing\n"
                                                   "BOOMER  # LIST-2025: loanword, invariable\n")
        assert {"CANTARE", "CANTO", "CANTIAMO", "RICANTARE", "BOOMER"} <= words and "BOOMERS" not in words
        assert report.supplement_new == 2 and report.supplement_inflected == 10
        assert report.additions_new == 0
        sources = report.sources
        assert sources["CANTARE"] == ("supplement", "LIST-2025: to sing — A published list of new words, "
                                                    "https://example.org/list")
        assert sources["RICANTIAMO"][0] == "supplement" and sources["RICANTIAMO"][1].startswith("a form of CANTARE: ")

    def test_a_proper_name_is_refused(self, tiny: Path, tmp_path: Path) -> None:
        # The tiny dictionary has Roma as a capitalised root: a name, whatever list has it.
        with pytest.raises(BuildError, match="proper name"):
            tiny_build(tiny, tmp_path, "ROMA  # LIST-2025: a city\n")

    def test_removals_still_apply_to_its_forms(self, tiny: Path, tmp_path: Path) -> None:
        words, _ = tiny_build(tiny, tmp_path, "LUPO = GATTO  # LIST-2025: x\n", "LUPI  # removed anyway\n")
        assert "LUPO" in words and "LUPI" not in words

    def test_a_word_of_the_dictionary_is_reported(self, tiny: Path, tmp_path: Path) -> None:
        _, report = tiny_build(tiny, tmp_path, "GATTO  # LIST-2025: already there\n")
        assert report.supplement_already_present == ["GATTO"]
        assert "GATTO" not in report.sources

    def test_a_word_in_both_files_is_refused(self, tiny: Path, tmp_path: Path) -> None:
        add = tmp_path / "add.txt"
        add.write_text("BOOMER  # x\n", encoding="utf-8")
        with pytest.raises(BuildError, match="both in supplement.txt and in additions.txt"):
            build_bytes(tiny, additions_path=add, supplement_path=supplement(tmp_path, "BOOMER  # LIST-2025: x\n"))

    def test_the_tiny_dictionary_has_roma(self) -> None:
        assert "Roma/O" in TINY_DIC


class TestRealSupplement:
    def test_every_word_is_new_and_every_model_found(self, built: dict) -> None:
        counts = built["counts"]
        assert counts["supplement_already_present"] == [] and counts["additions_model_missing"] == []
        _sources, entries = read_supplement(SUPPLEMENT)
        assert counts["supplement_new"] == len(entries) >= 50
        assert counts["words_by_source"]["supplement"] >= len(entries)
        # The supplement and the additions do not overlap.
        assert not set(entries) & set(read_entries(ADDITIONS))

    def test_every_word_and_its_forms_are_in_the_lexicon(self, lex: lexicon.Lexicon) -> None:
        _sources, entries = read_supplement(SUPPLEMENT)
        assert all(lex.contains(w) for w in entries)
        for word in ("BULLIZZATE", "RIBULLIZZARE", "BULLIZZARLO", "DECARBONIZZARSI", "TURISTIFICHIAMO",
                     "ARMOCROMISTI", "AGRIVOLTAICHE", "NEURODIVERGENTI", "GIEFFINE", "PARABENI", "ALGOCRAZIE"):
            assert lex.contains(word), word

    def test_exclusions_still_hold(self, lex: lexicon.Lexicon) -> None:
        # Loanwords are invariable; the left-outs (hyphenated, dialectal, occasionalisms, from a
        # name) and J K W X Y words are not words.
        for word in ("BOOMERS", "MEETUPS", "ECOANSIA", "FRICCICARELLO", "PEZZOTTO", "PUTINIANO", "ORBANIZZARE",
                     "TRENOPOLITANA", "GREENWASHING", "HYPE"):
            assert not lex.contains(word), word

    def test_check_says_the_supplement(self, built: dict) -> None:
        from lexicon.build import read_sources

        listed = read_sources()
        assert listed["BOOMER"][0] == "supplement" and "Zingarelli 2023" in listed["BOOMER"][1]
        assert listed["BULLIZZATE"][1].startswith("a form of BULLIZZARE: ZINGARELLI-2018: ")
