"""The word checker the engine is given. The engine never reads files: the caller injects one.

``cli.py`` passes the real lexicon (``lexicon.load()``); tests pass a small ``SetWordList``.
"""

from __future__ import annotations

from typing import Iterable, Mapping, Protocol


class WordList(Protocol):
    def contains(self, word: str) -> bool:
        """Is ``word`` (uppercase, no accents) an accepted Italian word?"""

    def abbreviation(self, word: str) -> str | None:
        """The meaning if ``word`` is an abbreviation of the rulebook's appendix, else None."""


class SetWordList:
    """A hand-made word checker: a set of words and a few abbreviations."""

    def __init__(
        self,
        words: Iterable[str] = (),
        abbreviations: Mapping[str, str] | Iterable[str] = (),
    ) -> None:
        self.words = frozenset(w.upper() for w in words)
        if isinstance(abbreviations, Mapping):
            self.abbrevs = {k.upper(): str(v) for k, v in abbreviations.items()}
        else:
            self.abbrevs = {k.upper(): k.upper() for k in abbreviations}

    def contains(self, word: str) -> bool:
        return word.upper() in self.words

    def abbreviation(self, word: str) -> str | None:
        return self.abbrevs.get(word.upper())


class AnyWord:
    """Accepts everything: for positions scored without a lexicon (``--no-check``)."""

    def contains(self, word: str) -> bool:
        return True

    def abbreviation(self, word: str) -> str | None:
        return None


def is_valid(words: WordList, word: str) -> bool:
    return words.contains(word) or words.abbreviation(word) is not None
