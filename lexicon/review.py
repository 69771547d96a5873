"""Coverage of the lexicon against a frequency list of current Italian (review time only).

``python -m lexicon coverage [--top N]`` takes the N most frequent Italian forms
of the pinned frequency list (PyPI ``wordfreq``, see docs/lexicon.md), keeps
those the rules could allow, and reports the share the lexicon accepts and the
misses nobody has decided yet. The filter:

1. *eligible*: the form is written only with the letters a–z and the accented
   vowels à è é ì í ò ó ù ú (so no digits, apostrophes — the list's ``dell'anno``
   —, hyphens or foreign letters such as ç ñ ä), and once normalised it is a word
   of 2–17 letters over the 21 Scarabeo letters (J K W X Y go, like in the build);
2. *not a proper name*: a miss that the hunspell source has only as a form of a
   capitalised root (``Roma``, ``Giuseppe``, ``Google``) is a name and leaves the
   count, since the list is lower-cased and cannot tell ``Italia`` from a word;
3. the remaining misses are either decided in ``data/review.tsv`` (left out: a
   surname, a foreign word, a fragment, an abbreviation …, each with its reason)
   or in ``data/removals.txt``, or they are the work of the next review.

``accepted_of_eligible`` is accepted / eligible (names counted as misses),
``coverage`` is accepted / (eligible − names); ``coverage_of_admissible`` also
leaves out what the review decided is not a Scarabeo word. Nothing here runs in
the browser or at build time: the site never needs the frequency package.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

from .automaton import ALPHABET, Lexicon, normalise

FREQUENCY_PACKAGE = "wordfreq"
# The figures in docs/lexicon.md are for this version's data; another version ranks other forms.
FREQUENCY_VERSION = "3.1.1"
FREQUENCY_WORDLIST = "large"

REVIEW = Path(__file__).resolve().parent / "data" / "review.tsv"
VERDICTS = {
    "name": "a proper name, surname, brand or place the source does not list as a capitalised root",
    "foreign": "a foreign word, not in Italian dictionaries as a loanword",
    "fragment": "part of an elided, hyphenated or split form, or a bare prefix: not a word on its own",
    "abbreviation": "an abbreviation, acronym or symbol not in the rulebook's appendix",
    "numeral": "a Roman numeral",
    "archaic": "an archaic, literary or poetic word or form: the rulebook does not accept them",
    "dialect": "a dialectal word: the rulebook does not accept them",
    "excluded": "another form the rulebook does not accept (a colloquial truncation, laughter, a misspelling, texting)",
}

_LETTERS = re.compile("[a-zàèéìíòóùú]+")
_WORD = re.compile("[%s]{2,17}" % ALPHABET)


class ReviewError(ValueError):
    """The review file or the frequency package is not usable."""


def eligible(form: str) -> str | None:
    """The normalised word a frequency-list form stands for, or None if the rules could never allow it."""
    if not _LETTERS.fullmatch(form):
        return None
    word = normalise(form)
    return word if _WORD.fullmatch(word) else None


def read_review(path: Path = REVIEW) -> dict[str, tuple[str, str]]:
    """``WORD<TAB>verdict<TAB>reason`` lines → {WORD: (verdict, reason)}."""
    entries: dict[str, tuple[str, str]] = {}
    for lineno, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not raw.strip() or raw.startswith("#"):
            continue
        parts = raw.split("\t")
        if len(parts) != 3 or not all(p.strip() for p in parts):
            raise ReviewError(f"{path.name} line {lineno}: expected WORD<TAB>verdict<TAB>reason")
        word, verdict, reason = (p.strip() for p in parts)
        if not _WORD.fullmatch(word):
            raise ReviewError(f"{path.name} line {lineno}: {word!r} is not an upper-case word of 2-17 letters")
        if verdict not in VERDICTS:
            raise ReviewError(f"{path.name} line {lineno}: verdict {verdict!r} is not one of {', '.join(VERDICTS)}")
        if word in entries:
            raise ReviewError(f"{path.name} line {lineno}: {word!r} listed twice")
        entries[word] = (verdict, reason)
    return entries


def source_names(source: Path) -> set[str]:
    """Normalised forms of the source's capitalised roots: the names it knows."""
    from .affixes import AffixFile, parse_dic
    from .build import keep_affix_rule, source_files

    dic, aff_path = source_files(source)
    aff = AffixFile.parse(aff_path.read_text(encoding="utf-8"), keep_entry=keep_affix_rule)
    names: set[str] = set()
    for root, flags in parse_dic(dic.read_text(encoding="utf-8")):
        if root and not root.startswith("/") and "'" not in root and any(c.isupper() for c in root):
            names.update(normalise(form) for form in aff.expand(root, flags))
    return names


def frequency_list(top: int) -> tuple[list[str], str]:
    """The ``top`` most frequent Italian forms and the package version that gave them."""
    try:
        import wordfreq  # review-time only: imported lazily so the lexicon never depends on it
    except ImportError:
        raise ReviewError(f"the frequency package is not installed: pip install "
                          f"'{FREQUENCY_PACKAGE}=={FREQUENCY_VERSION}' (or pip install -e '.[review]')") from None
    from importlib.metadata import version

    return wordfreq.top_n_list("it", top, wordlist=FREQUENCY_WORDLIST), version(FREQUENCY_PACKAGE)


@dataclass
class Coverage:
    forms: int
    eligible: int
    names: list[str]
    accepted: int
    left_out: list[tuple[str, str]]
    misses: list[str]
    review_stale: list[str]

    def as_dict(self, show_names: bool = False, show_left_out: bool = False) -> dict[str, object]:
        candidates = self.eligible - len(self.names)
        admissible = candidates - len(self.left_out)
        out: dict[str, object] = {
            "forms": self.forms,
            "eligible": self.eligible,
            "accepted_of_eligible": round(self.accepted / self.eligible, 4) if self.eligible else None,
            "names": len(self.names),
            "candidates": candidates,
            "accepted": self.accepted,
            "coverage": round(self.accepted / candidates, 4) if candidates else None,
            "left_out_by_review": len(self.left_out),
            "coverage_of_admissible": round(self.accepted / admissible, 4) if admissible else None,
            "unreviewed_misses": len(self.misses),
            "misses": self.misses,
            "review_stale": self.review_stale,
        }
        if show_names:
            out["name_misses"] = self.names
        if show_left_out:
            out["left_out"] = [f"{w} ({v})" for w, v in self.left_out]
        return out


def coverage(forms: Iterable[str], lex: Lexicon, names: set[str], review: dict[str, tuple[str, str]],
             removals: dict[str, str]) -> Coverage:
    """Classify frequency-ordered forms; each normalised word counts once, at its best rank."""
    seen: set[str] = set()
    count = accepted = 0
    name_misses: list[str] = []
    left_out: list[tuple[str, str]] = []
    misses: list[str] = []
    for form in forms:
        count += 1
        word = eligible(form)
        if word is None or word in seen:
            continue
        seen.add(word)
        if word in lex:
            accepted += 1
        elif word in names:
            name_misses.append(word)
        elif word in review:
            left_out.append((word, review[word][0]))
        elif word in removals:
            left_out.append((word, "removed"))
        else:
            misses.append(word)
    # A decided word the lexicon now accepts: either the review or the additions are wrong.
    stale = sorted(w for w in review if w in lex)
    return Coverage(count, len(seen), name_misses, accepted, left_out, misses, stale)
