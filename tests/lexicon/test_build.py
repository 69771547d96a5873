"""The build pipeline on a tiny hand-written source: cleaning, RI-, normalisation, stamp, determinism."""

from __future__ import annotations

from pathlib import Path

import pytest

from lexicon import Lexicon
from lexicon.build import (ABBREVIATIONS, ADDITIONS, REMOVALS, SUPPLEMENT, BuildError, BuildReport, build,
                           build_bytes, collect, read_abbreviations, read_entries, read_sources, read_supplement,
                           read_word_list, sources_path)
from lexicon.review import REVIEW, read_review

TINY_AFF = """\
SET UTF-8
SFX A Y 4
SFX A are o are
SFX A are iamo are
SFX A are ando are
SFX A are ato are
SFX O Y 1
SFX O o i o
SFX S Y 1
SFX S 0 s .
PFX J Y 1
PFX J 0 ri .
PFX T Y 2
PFX T 0 l' [aeiou]
PFX T 0 dell' [aeiou]
SFX £ Y 1
SFX £ 0 i [ivxlcdm]
PFX $ Y 1
PFX $ 0 x [cl]
"""

TINY_DIC = """\
12
/ a comment line of the it_IT kind
contare/A
ridare/A
gatto/OT
amore/S
Roma/O
anch'egli
d/£
l/$
città
zzzzzzzzzzzzzzzzzz
jazz
a
"""


@pytest.fixture()
def tiny(tmp_path: Path) -> Path:
    src = tmp_path / "src"
    src.mkdir()
    (src / "index.aff").write_text(TINY_AFF, encoding="utf-8")
    (src / "index.dic").write_text(TINY_DIC, encoding="utf-8")
    return src


def tiny_words(src: Path) -> set[str]:
    data, _ = build_bytes(src)
    lex = Lexicon.from_bytes(data)
    # The real additions, supplement and appendix come with every build; on the tiny source their
    # models are missing, so each is one word.
    extra = set(read_word_list(ADDITIONS)) | set(read_abbreviations(ABBREVIATIONS)) | set(read_supplement(SUPPLEMENT)[1])
    return set(lex.words()) - extra


class TestCleaningAndExpansion:
    def test_exact_word_list(self, tiny: Path) -> None:
        assert tiny_words(tiny) == {
            "CONTARE", "CONTO", "CONTIAMO", "CONTANDO", "CONTATO",
            # RI- on every verb, with the verb's conjugation (cross product)
            "RICONTARE", "RICONTO", "RICONTIAMO", "RICONTANDO", "RICONTATO",
            # a verb already in ri- gets no RIRI-
            "RIDARE", "RIDO", "RIDIAMO", "RIDANDO", "RIDATO",
            # nouns: no RI-, elided l'/dell' forms dropped with their prefix rules
            "GATTO", "GATTI", "AMORE", "AMORES",
            # accent stripped
            "CITTA",
        }

    def test_report_counts_what_was_dropped(self, tiny: Path) -> None:
        _, report = build_bytes(tiny)
        assert report.dropped == {"comment": 1, "capitalised": 1, "apostrophe": 1, "roman numeral": 2}
        assert report.ri_verbs_extended == 1  # contare; ridare already starts with ri-

    def test_build_is_deterministic(self, tiny: Path) -> None:
        assert build_bytes(tiny)[0] == build_bytes(tiny)[0]

    def test_missing_source(self, tmp_path: Path) -> None:
        with pytest.raises(BuildError, match="index.dic.*not found|not found"):
            build_bytes(tmp_path)

    def test_source_without_ri_class(self, tiny: Path) -> None:
        (tiny / "index.aff").write_text(TINY_AFF.replace("PFX J Y 1\nPFX J 0 ri .\n", ""), encoding="utf-8")
        with pytest.raises(BuildError, match="RI-"):
            build_bytes(tiny)


class TestAdditionsWithAModel:
    """``WORD = MODEL`` additions: a new root inflected with the flags of a source root."""

    def words(self, tiny: Path, tmp_path: Path, additions: str, removals: str = "") -> tuple[set[str], BuildReport]:
        add, rem = tmp_path / "add.txt", tmp_path / "rem.txt"
        add.write_text(additions, encoding="utf-8")
        rem.write_text(removals, encoding="utf-8")
        data, report = build_bytes(tiny, additions_path=add, removals_path=rem, supplement_path=None)
        return set(Lexicon.from_bytes(data).words()) - set(read_abbreviations(ABBREVIATIONS)), report

    def test_a_verb_gets_its_conjugation_and_ri(self, tiny: Path, tmp_path: Path) -> None:
        words, report = self.words(tiny, tmp_path, "CANTARE = CONTARE  # a verb like contare\n")
        assert {"CANTARE", "CANTO", "CANTIAMO", "CANTANDO", "CANTATO", "RICANTARE", "RICANTIAMO"} <= words
        assert report.additions_inflected == 10 and report.additions_model_missing == []
        assert report.ri_verbs_extended == 2  # contare and the new cantare

    def test_a_noun_gets_its_plural_and_removals_still_apply(self, tiny: Path, tmp_path: Path) -> None:
        words, _ = self.words(tiny, tmp_path, "LUPO = GATTO  # x\n", "LUPI  # removed anyway\n")
        assert "LUPO" in words and "LUPI" not in words and "RILUPO" not in words

    def test_a_missing_model_is_reported_and_the_word_still_added(self, tiny: Path, tmp_path: Path) -> None:
        words, report = self.words(tiny, tmp_path, "LUPO = ORSO  # the tiny source has no orso\n")
        assert "LUPO" in words and "LUPI" not in words
        assert report.additions_model_missing == ["LUPO"]

    def test_an_ambiguous_model_is_refused(self, tiny: Path, tmp_path: Path) -> None:
        (tiny / "index.dic").write_text(TINY_DIC + "gatto/S\n", encoding="utf-8")
        with pytest.raises(BuildError, match="different flags"):
            self.words(tiny, tmp_path, "LUPO = GATTO  # x\n")

    @pytest.mark.parametrize("text, message", [
        ("LUPO = # no model\n", "upper-case"),
        ("LUPO = orso # lower case\n", "upper-case"),
        ("LUPO = ORSO CANE # two\n", "one upper-case word"),
    ])
    def test_model_syntax_errors(self, tmp_path: Path, text: str, message: str) -> None:
        p = tmp_path / "add.txt"
        p.write_text(text, encoding="utf-8")
        with pytest.raises(BuildError, match=message):
            read_entries(p)

    def test_removals_take_no_model(self, tiny: Path, tmp_path: Path) -> None:
        with pytest.raises(BuildError, match="only for additions"):
            self.words(tiny, tmp_path, "", "LUPO = GATTO  # x\n")

    def test_each_word_not_from_the_dictionary_has_its_source(self, tiny: Path, tmp_path: Path) -> None:
        # CONTARE is the dictionary's (no source listed), so an addition of it is too; CANTARE and
        # its forms are the additions', with the line's model and reason; an appendix-only
        # abbreviation has the appendix and its meaning; a removed form has none.
        _words, report = self.words(tiny, tmp_path, "CANTARE = CONTARE  # a verb like contare\n"
                                    "CONTARE  # already there\n", "CANTATO  # removed\n")
        assert report.sources["CANTARE"] == ("additions", "CANTARE = CONTARE: a verb like contare")
        assert report.sources["RICANTIAMO"] == ("additions", "a form of CANTARE = CONTARE: a verb like contare")
        assert "CONTARE" not in report.sources and "CONTIAMO" not in report.sources
        assert "CANTATO" not in report.sources
        assert report.sources["TA"] == ("appendix", "Taranto")

    def test_the_source_list_is_written_beside_the_lexicon(self, tiny: Path, tmp_path: Path) -> None:
        out, stamp = tmp_path / "x.dawg", tmp_path / "x.dawg.stamp"
        info = build(tiny, output=out, stamp=stamp)
        listed = read_sources(sources_path(out))
        assert listed["TA"] == ("appendix", "Taranto") and "CONTARE" not in listed
        assert info["counts"]["words_by_source"]["appendix"] == sum(1 for s, _ in listed.values() if s == "appendix")
        # A build whose source list is gone is not up to date.
        sources_path(out).unlink()
        assert build(tiny, output=out, stamp=stamp)["skipped"] is False and sources_path(out).is_file()

    def test_the_real_build_found_every_model(self, built: dict) -> None:
        assert built["counts"]["additions_model_missing"] == []
        models = {m for _r, m in read_entries(ADDITIONS).values() if m}
        assert {"POSTARE", "GENOCIDIO", "CRETINO"} <= models


class TestStamp:
    def test_skipped_when_inputs_unchanged(self, tiny: Path, tmp_path: Path) -> None:
        out, stamp = tmp_path / "x.dawg", tmp_path / "x.dawg.stamp"
        first = build(tiny, output=out, stamp=stamp)
        assert first["skipped"] is False and out.is_file() and stamp.is_file()
        again = build(tiny, output=out, stamp=stamp)
        assert again["skipped"] is True and again["output_sha256"] == first["output_sha256"]
        forced = build(tiny, force=True, output=out, stamp=stamp)
        assert forced["skipped"] is False and forced["output_sha256"] == first["output_sha256"]

    def test_rebuilt_when_an_input_changes(self, tiny: Path, tmp_path: Path) -> None:
        out, stamp = tmp_path / "x.dawg", tmp_path / "x.dawg.stamp"
        build(tiny, output=out, stamp=stamp)
        with (tiny / "index.dic").open("a", encoding="utf-8") as f:
            f.write("lupo/O\n")
        info = build(tiny, output=out, stamp=stamp)
        assert info["skipped"] is False
        assert Lexicon.from_bytes(out.read_bytes()).contains("LUPI")

    def test_rebuilt_when_output_tampered(self, tiny: Path, tmp_path: Path) -> None:
        out, stamp = tmp_path / "x.dawg", tmp_path / "x.dawg.stamp"
        build(tiny, output=out, stamp=stamp)
        out.write_bytes(out.read_bytes()[:-1])
        assert build(tiny, output=out, stamp=stamp)["skipped"] is False
        Lexicon.from_bytes(out.read_bytes())


class TestReviewedFiles:
    def test_real_files_parse_with_a_reason_on_every_line(self) -> None:
        for path in (ADDITIONS, REMOVALS):
            entries = read_word_list(path)
            assert entries and all(reason.strip() for reason in entries.values())
        review = read_review(REVIEW)
        assert review and all(verdict and reason.strip() for verdict, reason in review.values())
        assert len(read_abbreviations(ABBREVIATIONS)) == 243

    def test_every_reviewed_line_has_a_reason(self) -> None:
        # A line of a reviewed file without its reason is an error, never silently read as a word.
        for path in (ADDITIONS, REMOVALS, REVIEW):
            for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if not line.strip() or line.startswith("#"):
                    continue
                if path == REVIEW:
                    word, verdict, reason = line.split("\t")
                else:
                    word, _, reason = line.partition("#")
                assert word.strip() and reason.strip(), f"{path.name} line {lineno}"

    def test_the_three_files_do_not_contradict_each_other(self) -> None:
        additions, removals, review = read_word_list(ADDITIONS), read_word_list(REMOVALS), read_review(REVIEW)
        assert not set(additions) & set(review)
        assert not set(removals) & set(review)

    def test_removals_never_touch_the_appendix(self) -> None:
        assert not set(read_word_list(REMOVALS)) & set(read_abbreviations(ABBREVIATIONS))

    @pytest.mark.parametrize("text, message", [
        ("CANE\n", "no '# reason'"),
        ("CANE #\n", "no '# reason'"),
        ("cane # lower case\n", "upper-case"),
        ("JAZZ # foreign letters\n", "upper-case"),
        ("A # one letter\n", "upper-case"),
        ("DUE PAROLE # two words\n", "one upper-case word"),
        ("CANE # a\nCANE # b\n", "twice"),
    ])
    def test_word_list_errors(self, tmp_path: Path, text: str, message: str) -> None:
        p = tmp_path / "list.txt"
        p.write_text("# header comment\n\n" + text, encoding="utf-8")
        with pytest.raises(BuildError, match=message):
            read_word_list(p)

    @pytest.mark.parametrize("text", ["TA Taranto\n", "ta\tTaranto\n", "TA\t\n", "TA\tx\nTA\ty\n", "A.C\tx\n"])
    def test_abbreviation_table_errors(self, tmp_path: Path, text: str) -> None:
        p = tmp_path / "abbr.tsv"
        p.write_text(text, encoding="utf-8")
        with pytest.raises(BuildError):
            read_abbreviations(p)

    def test_conflicting_lists_refused(self) -> None:
        with pytest.raises(BuildError, match="appendix abbreviation"):
            collect("0\n", "", {}, {"TA": "x"}, {"TA": "Taranto"}, BuildReport())
        with pytest.raises(BuildError, match="both"):
            collect("0\n", "", {"CANE": "x"}, {"CANE": "y"}, {}, BuildReport())
