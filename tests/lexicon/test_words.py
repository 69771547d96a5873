"""The real lexicon: the rulebook's examples, a hand-picked table, rejections, abbreviations, enumeration."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest

import lexicon
from lexicon.build import ABBREVIATIONS, ADDITIONS, REMOVALS, read_abbreviations, read_word_list

RULEBOOK_EXAMPLES = ["RIABBAIARE", "ANDIAMOCENE", "PRENDETELI", "FACCIAMOGLIELA", "PREAVVERTITECI",
                     "PARTENDOSENE", "CONTARE", "SCONTARE", "STAMPA", "CANNA", "SCANNA", "SCARABEO", "SCARABEI"]

# Hand-picked, lower case as a player would type them; accents may be dropped or kept.
ACCEPTED = {
    "plural": "case libri uomini dei amici amiche medici laghi uova braccia ginocchia mani ali buoi dita "
              "re città virtù specie crisi analisi bar film sport problemi poeti",
    "feminine": "bella maestra attrice dottoressa professoressa leonessa studentessa pittrice cantante "
                "bianca lunga simpatica gatta amica nuova",
    "conjugation": "sono sei siamo siete hanno ebbi fui furono andrò andrai vado vai va andiamo andate "
                   "vanno facevo fecero farebbe dissi dicemmo venne verranno vengano tenessimo potrei "
                   "voglio volle sappiamo seppe bevvero parlerete finisco finiscano cresciuto visto messo "
                   "preso scritto nato morto aperto scelto letto rimasto",
    "enclitic": "dimmi dammelo fallo vattene andiamocene prendeteli facciamogliela preavvertiteci "
                "partendosene dandoglielo guardandolo mangiarlo dirglielo portamelo vedendoci parlarne "
                "lavarsi alzatevi sedetevi fermati",
    "accented": "città perché poiché caffè tè tirò già più può così lunedì venerdì università società "
                "libertà bontà gioventù tribù ventitré cosicché affinché",
    "prefixed": "riabbaiare riabbaiando riabbaiato rifare ridire riprendere preavvertire ricontare "
                "scontare strafare prevedere",
}
ACCEPTED_CASES = [(cls, w) for cls, words in ACCEPTED.items() for w in words.split()]

REJECTED_NAMES = ("roma milano torino napoli firenze tevere arno piemonte lombardia sicilia campania calabria "
                  "europa italia francia alpi mario giuseppe luca garibaldi mazzini cavour manzoni giove marte "
                  "nerone").split()
REJECTED_LETTERS = ["jazz", "kiwi", "whisky", "taxi", "yogurt", "jeans", "weekend", "xilofono", "ok", "wc"]

# Every entry of the rulebook's "Appendix: Allowed Abbreviations", spelt as printed there.
APPENDIX = [
    'a.C.', 'A.C.I.', 'A.M.', 'ANAS', 'ANSA', 'ABS', 'AG', 'AL', 'AN', 'AO', 'AP', 'AQ', 'AR', 'ASL', 'AT',
    'AV', 'BA', 'BCE', 'BG', 'BI', 'BIT', 'BL', 'BN', 'BO', 'BR', 'BS', 'BZ', 'C.A.I', 'C.A.P.', 'C.R.I.',
    'CA', 'CAF', 'CB', 'CC', 'CD', 'CDA', 'CE', 'CEI', 'CH', 'CI', 'CIA', 'CIO', 'CL', 'cm', 'CN', 'CNN',
    'CNR', 'CO', 'CPU', 'CR', 'CS', 'CSM', 'CT', 'cv', 'c.v.d.', 'CZ', 'd.C.', 'dag', 'dam', 'DDL', 'dg',
    'DIGOS', 'DIA', 'dl', 'dm', 'DNA', 'DOC', 'DOS', 'DPEF', 'DPR', 'DVD', 'E.I.', 'ecc.', 'EN', 'EQ', 'es.',
    'ET', 'FAO', 'FAQ', 'FBI', 'FC', 'FE', 'FG', 'FI', 'FM', 'FMI', 'FR', 'FS', 'FTSE', 'GDF', 'GE', 'GIF',
    'GIP', 'GO', 'GPL', 'GR', 'GU', 'HAG', 'HD', 'HDMI', 'HP', 'HTML', 'Http', 'HUB', 'IM', 'IMHO', 'INRI',
    'IS', 'LAN', 'LASER', 'lat.', 'LC', 'LCD', 'LE', 'LED', 'LI', 'LO', 'long.', 'LT', 'LU', 'MB', 'MC',
    'ME', 'MI', 'MIB', 'MIBTEL', 'MIN', 'MM', 'MMS', 'MN', 'MO', 'mq.', 'MS', 'MT', 'NA', 'NAS', 'NASA',
    'NASDAQ', 'NB', 'ndr', 'nda', 'ndt', 'NO', 'NU', 'OG', 'OGM', 'ONG', 'ONU', 'OR', 'OT', 'PA', 'PAL',
    'par.', 'PC', 'PD', 'PDF', 'PE', 'PG', 'PH', 'PI', 'PIL', 'PIN', 'PN', 'PO', 'POP', 'PR', 'PT', 'PU',
    'PV', 'PVC', 'PZ', 'QB', 'QC', 'QG', 'QI', 'RA', 'RAI', 'RAM', 'RC', 'RCA', 'RE', 'REM', 'RG', 'RH',
    'RI', 'RIS', 'RM', 'RN', 'RO', 'ROM', 'RSVP', 'S.A.S.', 'SDF', 'S.O.S.', 'S.P.Q.R.', 'SA', 'SCART',
    'SCRL', 'SI', 'SIM', 'SMS', 'SNC', 'SO', 'SP', 'SPA', 'SR', 'SRL', 'SS', 'SV', 'TA', 'TAV', 'TE', 'TFR',
    'TG', 'TN', 'TNT', 'TO', 'TOT', 'TP', 'TR', 'TS', 'TV', 'TVB', 'TVTB', 'UD', 'UE', 'UNICEF', 'URL',
    'USB', 'UT', 'V.M.', 'VA', 'VB', 'VC', 'VE', 'VF', 'VI', 'VIP', 'VR', 'VS', 'VT', 'VV', 'ZIP',
]


def test_enough_cases() -> None:
    assert len(ACCEPTED_CASES) >= 100


@pytest.mark.parametrize("word", RULEBOOK_EXAMPLES)
def test_rulebook_examples(lex: lexicon.Lexicon, word: str) -> None:
    assert lex.contains(word) and lex.contains(word.lower())


@pytest.mark.parametrize("cls, word", ACCEPTED_CASES)
def test_accepted(lex: lexicon.Lexicon, cls: str, word: str) -> None:
    assert word in lex, f"{cls}: {word}"
    assert lexicon.normalise(word) in lex


@pytest.mark.parametrize("word", ["città", "CITTÀ", "citta", "CITTA", "Città"])
def test_accent_dropped_and_case_ignored(lex: lexicon.Lexicon, word: str) -> None:
    assert lex.contains(word)


@pytest.mark.parametrize("word", REJECTED_NAMES)
def test_names_of_people_and_places_rejected(lex: lexicon.Lexicon, word: str) -> None:
    assert word not in lex and word.upper() not in lex


@pytest.mark.parametrize("word", REJECTED_LETTERS)
def test_words_with_jkwxy_rejected(lex: lexicon.Lexicon, word: str) -> None:
    assert word not in lex


def test_no_single_letters_or_empty(lex: lexicon.Lexicon) -> None:
    assert "" not in lex
    for letter in lexicon.ALPHABET + "JKWXY":
        assert letter not in lex and letter.lower() not in lex


def test_lengths_and_alphabet(lex: lexicon.Lexicon) -> None:
    for prefix in ("SCARAB", "RIABBAI", "PRECIPITEVOL", "ZU"):
        words = list(lex.words(prefix))
        assert words
        for w in words:
            assert re.fullmatch("[ABCDEFGHILMNOPQRSTUVZ]{2,17}", w), w
    assert "PRECIPITEVOLISSIMEVOLMENTE" not in lex  # 26 letters: longer than the board


def test_words_of_16_and_17_letters_fill_the_board(lex: lexicon.Lexicon) -> None:
    # The board is 17 squares wide and the rulebook accepts every Italian word of two letters or
    # more: a word as long as the board is a word (the x27 case of three 3P on an edge needs one).
    for word in ("RAPPRESENTAZIONE", "CARATTERIZZAZIONE", "RAPPRESENTAZIONI", "PRECIPITEVOLMENTE"):
        assert word in lex, word
    assert any(len(w) == 17 for w in lex.words("CARATTERIZZAZION"))
    assert not any(len(w) > 17 for w in lex.words("CARATTERIZZAZION"))


def test_additions_present_and_removals_absent(lex: lexicon.Lexicon) -> None:
    additions = read_word_list(ADDITIONS)
    removals = read_word_list(REMOVALS)
    assert {"MI", "VI"} <= set(additions)
    for w in additions:
        assert w in lex
    for w in removals:
        assert w not in lex


# Issue 16: words of current Italian that the source lacked, each with its forms, and a foreign root it had.
ISSUE_16_ACCEPTED = {
    "ADDIRSI": "ADDIRSI ADDICE ADDICONO ADDICEVA ADDICA ADDICANO ADDIREBBE ADDISSE ADDICENDOSI",
    "TANTOMENO": "TANTOMENO",
    "BOH": "BOH",
    "FEMMINICIDIO": "FEMMINICIDIO FEMMINICIDI FEMMINICIDA FEMMINICIDE",
    "APP": "APP",
    "CHATTARE": "CHATTARE CHATTO CHATTIAMO CHATTANDO CHATTATO CHATTARSI RICHATTARE",
    "SOVRANISTA": "SOVRANISTA SOVRANISTI SOVRANISTE",
}


@pytest.mark.parametrize("lemma, forms", sorted(ISSUE_16_ACCEPTED.items()))
def test_issue_16_words_accepted_with_their_forms(lex: lexicon.Lexicon, lemma: str, forms: str) -> None:
    for form in forms.split():
        assert form in lex and form.lower() in lex, f"{lemma}: {form}"


@pytest.mark.parametrize("word", ["STRASSE", "TAMPOCO", "NOUS", "TOUT", "THE", "SALVINI", "II"])
def test_issue_16_foreign_roots_and_names_refused(lex: lexicon.Lexicon, word: str) -> None:
    assert word not in lex


def test_loanwords_are_invariable(lex: lexicon.Lexicon) -> None:
    # Italian does not inflect loanwords (le app, i social): no English plural is invented.
    assert "APP" in lex and "SOCIAL" in lex
    assert "APPS" not in lex and "SOCIALS" not in lex


def test_word_count_target(lex: lexicon.Lexicon) -> None:
    assert len(lex) >= 3_500_000


class TestAbbreviations:
    def test_appendix_spelling_rule(self) -> None:
        assert len(APPENDIX) == 243

    @pytest.mark.parametrize("raw", APPENDIX)
    def test_every_appendix_entry_is_a_word_with_meaning(self, lex: lexicon.Lexicon, raw: str) -> None:
        abbr = re.sub(r"[.\s]", "", raw).upper()
        meaning = lex.abbreviation(abbr)
        assert meaning, raw
        assert lex.is_abbreviation(abbr) and abbr in lex

    @pytest.mark.parametrize("raw, abbr", [("A.C.I.", "ACI"), ("c.v.d.", "CVD"), ("Http", "HTTP"),
                                           ("C.A.I", "CAI"), ("S.P.Q.R.", "SPQR"), ("mq.", "MQ")])
    def test_written_without_dots_upper_case(self, lex: lexicon.Lexicon, raw: str, abbr: str) -> None:
        assert lex.is_abbreviation(abbr)

    def test_game_can_name_the_meaning(self, lex: lexicon.Lexicon) -> None:
        assert lex.abbreviation("TA") == "Taranto"
        assert lex.abbreviation("ta") == "Taranto"
        assert lex.abbreviation("PA") == "Palermo" and lex.abbreviation("MN") == "Mantova"
        assert lex.abbreviation("CASA") is None and not lex.is_abbreviation("CASA")

    def test_table_file_matches_embedded_table(self, lex: lexicon.Lexicon) -> None:
        table = read_abbreviations(ABBREVIATIONS)
        assert lex.abbreviations == table
        assert len(table) == len(APPENDIX)

    def test_rulebook_appendix_when_available(self) -> None:
        rulebook = Path("/work/shared/seeds/scarabeo-rulebook.txt")
        if not rulebook.exists():
            pytest.skip("rulebook not on this machine")
        text = rulebook.read_text(encoding="utf-8")
        appendix = text[text.index("Appendix: Allowed Abbreviations"):]
        raws = re.findall(r"^- (.+?) — ", appendix, re.M)
        assert raws == APPENDIX


class TestEnumeration:
    def test_enumerates_exactly_the_built_word_list(self, lex: lexicon.Lexicon, built: dict) -> None:
        # The build hashes the sorted word list it feeds the automaton builder;
        # enumerating the automaton must reproduce it byte for byte.
        digest = hashlib.sha256()
        count = 0
        previous = ""
        for w in lex.words():
            assert w > previous
            previous = w
            digest.update(w.encode("ascii") + b"\n")
            count += 1
        assert count == len(lex) == built["word_count"]
        assert digest.hexdigest() == built["words_sha256"]

    def test_prefix_enumeration_agrees_with_contains(self, lex: lexicon.Lexicon) -> None:
        words = list(lex.words("SCARAB"))
        assert "SCARABEO" in words and "SCARABEI" in words
        assert all(w.startswith("SCARAB") and w in lex for w in words)

    def test_navigation_spells_scarabeo(self, lex: lexicon.Lexicon) -> None:
        node = lex.root
        for ch in "SCARABEO":
            node = lex.child(node, lexicon.ALPHABET.index(ch))
            assert node >= 0
        assert lex.is_terminal(node)
        assert (lexicon.ALPHABET.index("I"), lex.child(lex.walk("SCARABE"), lexicon.ALPHABET.index("I"))) \
            in lex.edges(lex.walk("SCARABE"))


def test_size_targets(built: dict) -> None:
    assert built["size_bytes"] <= 800 * 1024
    assert built["gzip_bytes"] <= 450 * 1024
