"""The DAWG builder and loader on small word sets: enumeration, look-up, navigation, minimality."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lexicon
from lexicon import ALPHABET, Lexicon, normalise
from lexicon.dawg import DawgBuilder, build_dawg, serialise

words_strategy = st.sets(st.text(alphabet="ABCILMNORZ", min_size=1, max_size=8), max_size=60)


def make(words: set[str] | list[str], abbreviations: dict[str, str] | None = None) -> Lexicon:
    nodes, root, count = build_dawg(sorted(words))
    return Lexicon.from_bytes(serialise(nodes, root, count, abbreviations or {}))


def trie_states(words: set[str]) -> int:
    """Number of states of the minimal automaton, by Myhill–Nerode: distinct right languages."""
    prefixes = {w[:i] for w in words for i in range(len(w) + 1)}
    languages = {frozenset(w[len(p):] for w in words if w.startswith(p)) for p in prefixes}
    return len(languages)


class TestEnumeration:
    @settings(max_examples=150, deadline=None)
    @given(words_strategy)
    def test_enumerates_exactly_the_words(self, words: set[str]) -> None:
        lex = make(words)
        assert list(lex.words()) == sorted(words)
        assert len(lex) == len(words)

    @settings(max_examples=100, deadline=None)
    @given(words_strategy, st.text(alphabet="ABCI", max_size=3))
    def test_prefix_enumeration(self, words: set[str], prefix: str) -> None:
        lex = make(words)
        assert list(lex.words(prefix)) == sorted(w for w in words if w.startswith(prefix))

    def test_empty_lexicon(self) -> None:
        lex = make([])
        assert list(lex.words()) == [] and len(lex) == 0
        assert not lex.contains("A") and not lex.contains("")
        assert lex.edges(lex.root) == []
        lex.verify()


class TestLookup:
    @settings(max_examples=150, deadline=None)
    @given(words_strategy, st.lists(st.text(alphabet="ABCILMNORZ", max_size=9), max_size=30))
    def test_contains_matches_set(self, words: set[str], probes: list[str]) -> None:
        lex = make(words)
        for w in list(words) + probes:
            assert lex.contains(w) is (w in words)
            assert (w in lex) is (w in words)

    def test_case_and_accents(self) -> None:
        lex = make({"CITTA", "PERCHE"})
        assert lex.contains("città") and lex.contains("Perché") and lex.contains("citta")
        assert not lex.contains("cittàà") and not lex.contains("CITT")

    @pytest.mark.parametrize("probe", ["", "A", "J", "JAZZ", "CIT TA", "CITTA'", "ΑΒΓ", "CITTAX", "-", "ciTTà"])
    def test_odd_input_never_crashes(self, probe: str) -> None:
        lex = make({"CITTA", "A"})
        assert lex.contains(probe) is (normalise(probe) in {"CITTA", "A"})

    def test_non_strings_are_not_members(self) -> None:
        assert 3 not in make({"AB"})


class TestNavigation:
    @settings(max_examples=100, deadline=None)
    @given(words_strategy)
    def test_walking_edges_spells_every_word(self, words: set[str]) -> None:
        lex = make(words)
        found = []

        def walk(node: int, prefix: str) -> None:
            if lex.is_terminal(node):
                found.append(prefix)
            letters = [letter for letter, _ in lex.edges(node)]
            assert letters == sorted(set(letters))
            for letter, child in lex.edges(node):
                assert lex.child(node, letter) == child
                walk(child, prefix + ALPHABET[letter])

        walk(lex.root, "")
        assert sorted(found) == sorted(words)

    def test_child_of_missing_letter(self) -> None:
        lex = make({"CANE"})
        c = lex.child(lex.root, ALPHABET.index("C"))
        assert c >= 0 and not lex.is_terminal(c)
        assert lex.child(lex.root, ALPHABET.index("Z")) == -1
        assert lex.child(-1, 0) == -1 and lex.child(lex.root, 99) == -1 and lex.child(lex.root, -1) == -1
        assert lex.edges(-1) == [] and not lex.is_terminal(-1)
        assert lex.walk("CAN") >= 0 and lex.walk("CAX") == -1 and lex.walk("CANE") >= 0
        assert lex.walk("NE", lex.walk("CA")) == lex.walk("CANE") and lex.walk("X", lex.walk("CA")) == -1

    def test_edge_array_is_the_documented_layout(self) -> None:
        lex = make({"CANE", "CANI"})
        arr = lex.edge_array
        assert len(arr) == lex.edge_count + 1
        first = arr[lex.root >> 1]  # the root's only edge: C, last of its node
        assert first & 0x1F == ALPHABET.index("C") and first & 0x20
        assert first >> 6 == lex.child(lex.root, ALPHABET.index("C"))

    @settings(max_examples=60, deadline=None)
    @given(words_strategy.filter(bool))
    def test_automaton_is_minimal(self, words: set[str]) -> None:
        lex = make(words)
        # Nodes with edges + the final state == distinct non-empty right languages + {ε}.
        assert lex.node_count == trie_states(words)


class TestBuilder:
    def test_rejects_unsorted_duplicate_empty_and_foreign_letters(self) -> None:
        b = DawgBuilder()
        b.add("CANE")
        with pytest.raises(ValueError, match="increasing"):
            b.add("CANE")
        with pytest.raises(ValueError, match="increasing"):
            b.add("BANCO")
        with pytest.raises(ValueError, match="empty"):
            DawgBuilder().add("")
        with pytest.raises(ValueError, match="alphabet"):
            DawgBuilder().add("JAZZ")

    def test_serialisation_is_deterministic(self) -> None:
        words = ["AB", "ABC", "BC", "ZZ"]
        a = serialise(*build_dawg(words), {"TA": "Taranto"})
        b = serialise(*build_dawg(list(words)), {"TA": "Taranto"})
        assert a == b


class TestAbbreviationTable:
    def test_meanings_round_trip(self) -> None:
        lex = make({"TA", "CANE"}, {"TA": "Taranto", "CVD": "Come volevasi dimostrare"})
        assert lex.abbreviation("ta") == "Taranto" and lex.is_abbreviation("Ta")
        assert lex.abbreviation("CANE") is None and not lex.is_abbreviation("CANE")
        assert lex.abbreviations == {"TA": "Taranto", "CVD": "Come volevasi dimostrare"}


def test_module_api_names() -> None:
    assert lexicon.ALPHABET == "ABCDEFGHILMNOPQRSTUVZ" and len(set(lexicon.ALPHABET)) == 21
    assert lexicon.normalise("Città Perché") == "CITTA PERCHE"
    for name in ("Lexicon", "LexiconError", "load", "normalise", "ALPHABET"):
        assert hasattr(lexicon, name)
