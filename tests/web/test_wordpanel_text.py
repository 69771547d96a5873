"""The word panel's lines on a word's lemma and forms, or on the rule that excludes it (issue 40 part 2,
web/ui/wordcheck.word_facts and explain), as the page says them in English and Italian, from the real
lexicon's build: the forms file and the excluded list."""

from __future__ import annotations

from typing import Any, Iterator

import pytest

import lexicon
from lexicon.build import EXCLUDED, FORMS, SOURCES, ensure_built, read_exclusions, read_sources
from lexicon.forms import Forms
from web.platform.i18n import Messages, load_catalogue

from tests.web.standin import stand_in_pyscript


@pytest.fixture(scope="module")
def wordcheck() -> Iterator[Any]:
    with stand_in_pyscript():
        from web.ui import wordcheck as module
        yield module


@pytest.fixture(scope="module")
def data() -> tuple[Any, dict, Forms, dict]:
    ensure_built()
    lex = lexicon.load()
    return lex, read_sources(SOURCES), Forms.from_bytes(FORMS.read_bytes(), lex), read_exclusions(EXCLUDED)


def lines(wordcheck: Any, data: tuple, word: str, lang: str = "en") -> list[tuple[str, str]]:
    lex, sources, forms, excluded = data
    return wordcheck.explain(Messages(load_catalogue(), lang), wordcheck.word_facts(lex, sources, word, forms, excluded))


def test_a_plural(wordcheck: Any, data: tuple) -> None:
    assert lines(wordcheck, data, "gatti") == [
        ("wordpanel-lemma", "A form of GATTO."),
        ("wordpanel-forms", "GATTO has 4 forms in the lexicon: GATTO, GATTA, GATTE.")]
    assert lines(wordcheck, data, "gatti", "it") == [
        ("wordpanel-lemma", "Forma di GATTO."),
        ("wordpanel-forms", "GATTO ha 4 forme nel lessico: GATTO, GATTA, GATTE.")]


def test_a_verb_form_with_a_prefix(wordcheck: Any, data: tuple) -> None:
    [(_, lemma), (_, forms)] = lines(wordcheck, data, "RIABBAIARE")
    assert lemma == "A form of the verb ABBAIARE, with the prefix RI-."
    assert forms.startswith("ABBAIARE has 352 forms in the lexicon, among them ABBAI, ABBAIO, ABBAIA, ") \
        and forms.endswith("…") and forms.count(", ") == 1 + 7
    [(_, lemma), _] = lines(wordcheck, data, "RIABBAIARE", "it")
    assert lemma == "Forma del verbo ABBAIARE, con il prefisso RI-."


def test_a_participle_its_forms_and_the_verb(wordcheck: Any, data: tuple) -> None:
    said = lines(wordcheck, data, "AMATO")
    assert said[0] == ("wordpanel-lemma", "AMATO is the past participle of the verb AMARE.")
    assert said[1][1].startswith("AMATO has 432 forms in the lexicon, among them AMATA, AMATE, AMATI, ")
    assert lines(wordcheck, data, "AMATI")[0] == ("wordpanel-lemma", "A form of the verb AMARE.")
    assert lines(wordcheck, data, "AMATI")[2] == (
        "wordpanel-lemma", "A form of AMATO, the past participle of the verb AMARE.")
    assert lines(wordcheck, data, "CANTANDOLO", "it")[0] == (
        "wordpanel-lemma", "Forma di CANTANDO, gerundio del verbo CANTARE.")


def test_an_entry_of_its_own(wordcheck: Any, data: tuple) -> None:
    assert lines(wordcheck, data, "IERI") == [
        ("wordpanel-lemma", "IERI is an entry of the dictionary: its own lemma."),
        ("wordpanel-forms", "IERI has no other form in the lexicon.")]
    assert lines(wordcheck, data, "AMARE")[0] == ("wordpanel-lemma", "AMARE is the infinitive of a verb: its lemma.")


def test_an_abbreviation_of_the_rulebook_has_neither(wordcheck: Any, data: tuple) -> None:
    assert lines(wordcheck, data, "TA") == []


@pytest.mark.parametrize("word, en, it", [
    ("COR", "An archaic, literary or poetic word (poetic truncation of cuore",
     "Una parola arcaica, letteraria o poetica (poetic truncation of cuore"),
    ("ROMA", "A proper name: the rulebook allows no names of people, surnames, or names of places, history or myth.",
     "Un nome proprio: il regolamento non ammette nomi di persona, cognomi, nomi geografici, storici o mitologici."),
    ("AGLIE", "A proper name (Agliè): ", "Un nome proprio (Agliè): "),
    ("DR", 'An abbreviation, acronym or symbol (of "dottore", not in the appendix) that is not in the rulebook',
     "Un'abbreviazione, una sigla o un simbolo (of \"dottore\", not in the appendix) che non è nell'elenco"),
    ("NUN", "A dialect word (Roman and Neapolitan for non", "Una parola dialettale (Roman and Neapolitan for non"),
    ("QZQZ", "Not in Scarabeo's lexicon: neither a form", "Non è nel lessico dello Scarabeo"),
])
def test_the_rule_that_excludes_a_word(wordcheck: Any, data: tuple, word: str, en: str, it: str) -> None:
    [(css, text)] = lines(wordcheck, data, word)
    assert css == "wordpanel-source wordpanel-rule" and text.startswith(en)
    assert lines(wordcheck, data, word, "it")[0][1].startswith(it)


def test_without_the_files_the_panel_says_the_rest(wordcheck: Any, data: tuple) -> None:
    lex, sources, _forms, _excluded = data
    t = Messages(load_catalogue(), "en")
    assert wordcheck.explain(t, wordcheck.word_facts(lex, sources, "GATTI")) == []
    assert wordcheck.explain(t, wordcheck.word_facts(lex, sources, "COR"))[0][1].startswith("Not in Scarabeo's lexicon")


def test_counts_are_grouped_as_each_language_writes_them(wordcheck: Any) -> None:
    assert (wordcheck.grouped(1387, "it"), wordcheck.grouped(1387, "en"), wordcheck.grouped(12, "it")) == \
        ("1.387", "1,387", "12")
