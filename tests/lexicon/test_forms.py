"""A word's lemma and other forms, and the rule that excludes a word (issue 40 part 2): the build's forms
file (``data/it.forms``, read by ``lexicon/forms.py``) and excluded list (``data/it.excluded.tsv``),
on the tiny source of test_build (every form of every root found again) and on the real build (the
rule cases: a plural, verb forms, RI-, an addition, an archaic word, a proper name, abbreviations)."""

from __future__ import annotations

import random
import struct
from pathlib import Path

import pytest

import lexicon
from lexicon import Lexicon, LexiconError, normalise
from lexicon.affixes import AffixFile
from lexicon.build import (DEFAULT_SOURCE, EXCLUDED, FORMS, REMOVAL_RULES, REMOVALS, BuildReport, build_bytes,
                           excluded_text, read_entries, read_exclusions, removal_rule, source_files)
from lexicon.forms import Forms, WordNumbers, encode
from lexicon.review import REVIEW, VERDICTS, read_review
from lexicon.sources import RULES, exclusion, parse_exclusions
from tests.lexicon.test_build import tiny  # noqa: F401 - the tiny source fixture


@pytest.fixture(scope="module")
def forms(built: dict, lex: lexicon.Lexicon) -> Forms:
    return Forms.from_bytes(FORMS.read_bytes(), lex)


@pytest.fixture(scope="module")
def excluded(built: dict) -> dict[str, tuple[str, str]]:
    return read_exclusions(EXCLUDED)


def lemmas(forms: Forms, word: str) -> list[tuple[str, str, str, str]]:
    return [(m.lemma, m.root, m.kind, m.prefix) for m in forms.lemmas(word, own_root=True)]


class TestRealLemmas:
    def test_a_plural_is_a_form_of_its_singular(self, forms: Forms) -> None:
        assert lemmas(forms, "GATTI") == [("GATTO", "GATTO", "word", "")]
        [gatto] = forms.lemmas("gatti")
        assert gatto.forms == ("GATTO", "GATTI", "GATTA", "GATTE") and gatto.form_count == 4
        assert gatto.shortest(8, leave_out="GATTI") == ["GATTO", "GATTA", "GATTE"]
        # it_IT's root of CASA and CASE is CASO (its o/a/i/e class): the panel says what the data says
        assert lemmas(forms, "CASE") == [("CASO", "CASO", "word", "")]
        assert lemmas(forms, "SCARABEI") == [("SCARABEO", "SCARABEO", "word", "")]

    def test_a_verb_form_is_a_form_of_its_infinitive(self, forms: Forms) -> None:
        assert lemmas(forms, "AMAVO") == [("AMARE", "AMARE", "verb", "")]
        assert lemmas(forms, "prendeteli") == [("PRENDERE", "PRENDERE", "verb", "")]
        assert lemmas(forms, "FACCIAMOGLIELA") == [("FARE", "FARE", "verb", "")]
        [amare] = forms.lemmas("AMAVO")
        assert amare.shortest(4) == ["AMO", "AMI", "AMA", "AMAI"] and amare.form_count > 300
        assert "AMAVO" in amare.forms and "RIAMAVO" not in amare.forms  # the prefixed ones are counted only

    def test_a_participle_and_a_gerund_name_their_verb(self, forms: Forms) -> None:
        # AMATI: the plural of the participle AMATO, and ama + ti (the imperative with its pronoun)
        assert lemmas(forms, "AMATI") == [("AMARE", "AMARE", "verb", ""), ("AMARE", "AMATO", "participle", "")]
        assert lemmas(forms, "CANTANDOLO") == [("CANTARE", "CANTANDO", "gerund", "")]

    def test_ri_and_the_other_prefixes(self, forms: Forms) -> None:
        assert lemmas(forms, "RIABBAIARE") == [("ABBAIARE", "ABBAIARE", "verb", "RI")]
        assert lemmas(forms, "RIESSERE") == [("ESSERE", "ESSERE", "verb", "RI")]
        assert ("STRAPAGARE", "STRAPAGATO", "participle", "") in lemmas(forms, "STRAPAGATO")

    def test_additions_and_the_supplement_with_a_model_have_their_root(self, forms: Forms) -> None:
        assert lemmas(forms, "CHATTAVO") == [("CHATTARE", "CHATTARE", "verb", "")]
        assert ("BULLIZZARE", "BULLIZZARE", "verb", "") in lemmas(forms, "BULLIZZATE")

    def test_a_root_without_flags_is_its_own_lemma(self, forms: Forms) -> None:
        assert forms.lemmas("IERI") == []  # not stored: its word is its only form …
        [ieri] = forms.lemmas("IERI", own_root=True)  # … which the caller knows from the source list
        assert (ieri.lemma, ieri.forms, ieri.form_count) == ("IERI", ("IERI",), 1)
        assert forms.lemmas("CITTÀ", own_root=True)[0].root == "CITTA"

    def test_no_lemma_for_a_word_that_is_not_in_the_lexicon(self, forms: Forms) -> None:
        assert forms.lemmas("ROMA", own_root=True) == [] and forms.lemmas("", own_root=True) == []

    def test_every_form_of_a_sample_of_roots_leads_back_to_its_root(self, forms: Forms, lex: Lexicon) -> None:
        # The reverse search must miss no root: every 400th root of the dictionary with rules, five
        # of its forms each (the forward expansion then checks every candidate exactly).
        dic, _aff = source_files(DEFAULT_SOURCE)
        rng = random.Random(40)
        checked = 0
        for spelling, flags in [(s, f) for s, f in _flagged_roots(dic.read_text(encoding="utf-8"), forms)][::400]:
            made = [w for w in {normalise(f) for f in forms.aff.expand(spelling, flags)} if lex.contains(w)]
            for word in rng.sample(sorted(made), min(5, len(made))):
                assert normalise(spelling) in {m.root for m in forms.lemmas(word)}, (word, spelling)
                checked += 1
        assert checked > 500


def _flagged_roots(dic_text: str, forms: Forms) -> list[tuple[str, str]]:
    """The source's roots with rules, with the flags the forms file stores for them."""
    from lexicon.affixes import parse_dic

    found = []
    for root, _flags in parse_dic(dic_text):
        if root and root == root.lower() and "'" not in root:
            for spelling, flags in forms.entries(normalise(root)):
                if spelling == normalise(root).lower():
                    found.append((spelling, flags))
    return sorted(set(found))


class TestRealExclusions:
    @pytest.mark.parametrize("word, rule", [
        ("COR", "archaic"), ("AVEA", "archaic"), ("AUGELLO", "archaic"),  # the rulebook: archaic, literary, poetic
        ("MINCHIA", "dialect"), ("NUN", "dialect"),
        ("ROMA", "name"), ("Milano", "name"), ("SALVINI", "name"),  # the dictionary's names, the review's
        ("DR", "abbreviation"), ("ADSL", "abbreviation"), ("HTTPS", "abbreviation"),  # not in the appendix
        ("STRASSE", "foreign"), ("DELL", "fragment"), ("CIV", "numeral"), ("ANCHEGLI", "apostrophe"),
        ("JAZZ", "letters"), ("A", "length"), ("CARATTERIZZAZIONII", "length"), ("QZQZ", "unknown"),
    ])
    def test_the_rule_that_excludes_a_word(self, lex: Lexicon, excluded: dict, word: str, rule: str) -> None:
        why = exclusion(lex, excluded, word)
        assert why is not None and why[0] == rule

    def test_notes(self, lex: Lexicon, excluded: dict) -> None:
        assert exclusion(lex, excluded, "COR") == ("archaic", read_review()["COR"][1])
        assert exclusion(lex, excluded, "ANCHEGLI") == ("apostrophe", "anch'egli")
        assert exclusion(lex, excluded, "ROMA") == ("name", "")  # Roma says nothing more than ROMA
        assert exclusion(lex, excluded, "AGLIE") == ("name", "Agliè")  # an accent does

    def test_an_abbreviation_of_the_rulebook_is_accepted(self, lex: Lexicon, excluded: dict, forms: Forms) -> None:
        for word in ("TA", "CVD", "SPQR", "HTTP"):
            assert lex.contains(word) and exclusion(lex, excluded, word) is None and word not in excluded
        assert forms.lemmas("CVD") == []  # no root: the appendix is its source

    def test_archaic_words_in_the_lexicon_stay_for_the_table(self, lex: Lexicon, excluded: dict) -> None:
        # docs/scarabeo.md: GUIDERDONE is in the lexicon, and the vote decides; nothing excludes it
        assert lex.contains("GUIDERDONE") and exclusion(lex, excluded, "GUIDERDONE") is None

    def test_only_words_the_lexicon_lacks(self, lex: Lexicon, excluded: dict) -> None:
        assert len(excluded) > 5000 and not [w for w in excluded if lex.contains(w)]
        assert {rule for rule, _note in excluded.values()} <= set(RULES)

    def test_every_removal_and_verdict_names_a_rule(self) -> None:
        for word, (reason, _model) in read_entries(REMOVALS, allow_models=False).items():
            head = reason.partition(":")[0].strip()
            assert head in REMOVAL_RULES, f"removals.txt: {word} names no rule"
        assert set(REMOVAL_RULES) <= set(RULES) and set(VERDICTS) <= set(RULES)
        assert {verdict for verdict, _reason in read_review(REVIEW).values()} <= set(VERDICTS)


class TestTinySource:
    def test_every_form_of_every_root_is_found_again(self, tiny: Path) -> None:  # noqa: F811
        data, report = build_bytes(tiny)
        lex = Lexicon.from_bytes(data)
        forms = Forms.from_bytes(report.forms_data, lex)
        aff = AffixFile.parse(report.affixes)
        for spelling, flags in report.roots_expanded:
            for form in aff.expand(spelling, flags):
                if flags and lex.contains(normalise(form)):
                    assert normalise(spelling) in {m.root for m in forms.lemmas(form)}, form
        assert lemmas(forms, "RICONTATO") == [("CONTARE", "CONTARE", "verb", "RI")]
        assert lemmas(forms, "GATTI") == [("GATTO", "GATTO", "word", "")]
        # città has no flags: not stored, its own root
        assert forms.entries("CITTA") == [] and lemmas(forms, "CITTA") == [("CITTA", "CITTA", "word", "")]

    def test_the_excluded_words_of_the_tiny_source(self, tiny: Path, tmp_path: Path) -> None:  # noqa: F811
        removals = tmp_path / "rem.txt"
        removals.write_text("GATTI  # archaic: a test\nAMORES  # no rule named\n", encoding="utf-8")
        data, report = build_bytes(tiny, removals_path=removals)
        lex = Lexicon.from_bytes(data)
        table = parse_exclusions(excluded_text(report.exclusions))
        assert table["ROMA"] == ("name", "")
        assert table["ANCHEGLI"] == ("apostrophe", "anch'egli")
        assert table["GATTI"] == ("archaic", "a test") and table["AMORES"] == ("excluded", "no rule named")
        assert table["DELL"][0] == "fragment"  # the real review comes with every build
        assert "DI" not in table or not lex.contains("DI")
        assert not [w for w in table if lex.contains(w)]

    def test_removal_rules(self) -> None:
        assert removal_rule("abbreviation: of dottore") == ("abbreviation", "of dottore")
        assert removal_rule("unit symbol (hectogram)") == ("excluded", "unit symbol (hectogram)")
        assert removal_rule("nonsense: x") == ("excluded", "nonsense: x")

    def test_the_build_writes_both_files_and_rebuilds_without_them(self, tiny: Path, tmp_path: Path) -> None:  # noqa: F811
        from lexicon.build import build, excluded_path, forms_path

        out, stamp = tmp_path / "x.dawg", tmp_path / "x.dawg.stamp"
        info = build(tiny, output=out, stamp=stamp)
        assert forms_path(out).is_file() and excluded_path(out).is_file()
        assert set(info["panel_files"]) == {"x.sources.tsv", "x.forms", "x.excluded.tsv"}
        Forms.from_bytes(forms_path(out).read_bytes(), Lexicon.from_bytes(out.read_bytes()))
        forms_path(out).unlink()
        assert build(tiny, output=out, stamp=stamp)["skipped"] is False and forms_path(out).is_file()


class TestFormat:
    def test_word_numbers_are_the_alphabetical_positions(self, tiny: Path) -> None:  # noqa: F811
        lex = Lexicon.from_bytes(build_bytes(tiny)[0])
        numbers = WordNumbers(lex)
        assert [numbers.rank(w) for w in lex.words()] == list(range(len(lex)))
        assert numbers.rank("ZZZ") == numbers.rank("CONT") == numbers.rank("") == -1

    def test_word_numbers_on_the_real_lexicon(self, forms: Forms, lex: Lexicon) -> None:
        words = list(lex.words("CAS"))
        first = forms.numbers.rank(words[0])
        assert first > 0 and all(forms.numbers.rank(w) == first + i for i, w in enumerate(words) if i % 97 == 0)
        last = list(lex.words("ZUP"))[-1]  # ZUPPO, the last word
        assert forms.numbers.rank(last) == len(lex) - 1

    def test_a_round_trip(self, tiny: Path) -> None:  # noqa: F811
        lex = Lexicon.from_bytes(build_bytes(tiny)[0])
        rank = WordNumbers(lex).rank
        aff = "SFX O Y 1\nSFX O o i o\n"
        data = encode(aff, [(rank("GATTO"), "gattò", "O"), (rank("GATTO"), "", "O")], [("jatto", "O")],
                      len(lex), lex.edge_count)
        assert data == encode(aff, [(rank("GATTO"), "", "O"), (rank("GATTO"), "gattò", "O")], [("jatto", "O")],
                              len(lex), lex.edge_count)  # deterministic
        forms = Forms.from_bytes(data, lex)
        assert sorted(forms.entries("GATTO")) == [("gatto", "O"), ("gattò", "O")]
        assert forms.entries("JATTO") == [("jatto", "O")]

    def test_damage_and_another_lexicon_are_refused(self, tiny: Path, lex: Lexicon) -> None:  # noqa: F811
        data, report = build_bytes(tiny)
        small = Lexicon.from_bytes(data)
        good = report.forms_data
        Forms.from_bytes(good, small)
        with pytest.raises(LexiconError, match="another lexicon"):
            Forms.from_bytes(good, lex)
        for bad in (good[:20], good[:-1], good[:40] + bytes([good[40] ^ 1]) + good[41:], b"x" * 40):
            with pytest.raises(LexiconError):
                Forms.from_bytes(bad, small)
        header = struct.unpack_from("<8sHHIIIII", good)
        assert header[0] == b"SCARFRM\0" and header[1] == 1
