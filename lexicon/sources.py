"""The lists the build writes beside the automaton, read from their text: ``data/it.sources.tsv`` (each
word that is not the dictionary's, with its source) and ``data/it.excluded.tsv`` (words left out, each
with the rule that excludes it). The page fetches them when a word panel opens (issue 40), the command
line reads the files."""

from __future__ import annotations

from .automaton import ALPHABET, Lexicon, normalise

__all__ = ["RULES", "exclusion", "parse_exclusions", "parse_sources"]

#: Why a word is not in the lexicon, as ``data/it.excluded.tsv`` and ``python -m lexicon check`` say it
#: (the word panel's ``wordpanel.rule.<rule>`` texts). The first eight are the rulebook's exclusions
#: as the reviewed files and the dictionary apply them; then the ones a word's spelling shows at once.
RULES = {
    "name": "a proper name: a person, a place, a brand, history or myth",
    "abbreviation": "an abbreviation, acronym or symbol not in the rulebook's appendix",
    "archaic": "an archaic, literary or poetic word or form",
    "dialect": "a dialectal word",
    "foreign": "a foreign word, not an Italian word on its own",
    "fragment": "part of an elided, hyphenated or compound form, or a bare prefix",
    "numeral": "a Roman numeral",
    "excluded": "a form the rulebook does not accept (a colloquial truncation, laughter, a misspelling)",
    "apostrophe": "written with an apostrophe in the dictionary (anch'egli): not one word",
    "letters": "written with a letter that is not a tile (J K W X Y, a digit, a sign)",
    "length": "shorter than 2 or longer than 17 letters (the board's width)",
    "unknown": "not in the lexicon: no form of the dictionary, no addition, no abbreviation of the appendix",
}


def parse_sources(text: str) -> dict[str, tuple[str, str]]:
    """``WORD<TAB>source<TAB>note`` lines (``#`` comments skipped) as {word: (source, note)}."""
    rows = (line.split("\t", 2) for line in text.splitlines() if line and not line.startswith("#"))
    return {row[0]: (row[1] if len(row) > 1 else "", row[2] if len(row) > 2 else "") for row in rows}


def parse_exclusions(text: str) -> dict[str, tuple[str, str]]:
    """``WORD<TAB>rule<TAB>note`` lines as {word: (rule, note)}; a rule this code does not know (a newer
    file) reads as "excluded"."""
    return {word: (rule if rule in RULES else "excluded", note) for word, (rule, note) in parse_sources(text).items()}


def exclusion(lex: Lexicon, table: dict[str, tuple[str, str]], word: str) -> tuple[str, str] | None:
    """(rule, note) saying why ``word`` is not in the lexicon, or None if it is (an appendix
    abbreviation included): the excluded list's rule, else what its spelling shows, else "unknown"."""
    norm = normalise(word)
    if norm and lex.contains(norm):
        return None
    if norm in table:
        return table[norm]
    if norm.strip(ALPHABET):
        return "letters", ""
    if not 2 <= len(norm) <= 17:
        return "length", ""
    return "unknown", ""
