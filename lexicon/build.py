"""Build the Italian lexicon file from the hunspell it_IT dictionary.

Pipeline (each step documented in docs/lexicon.md):

1. clean the sources: drop the ``.dic`` comment lines, capitalised roots
   (names, places), roots with an apostrophe, the Roman-numeral roots, and
   every affix rule that writes an apostrophe (the elisions l', dell', un' …);
2. allow the RI- prefix on every verb (hunspell allows it on 693 only);
3. expand every root (``affixes.py``), normalise (accents stripped, upper
   case) and keep 2–17-letter words (the board's width) over the 21 Scarabeo
   letters;
4. add ``data/additions.txt`` and the appendix abbreviations, drop
   ``data/removals.txt``;
5. build the minimal DAWG of the sorted words and write ``data/it.dawg``.

Memory stays small: words are kept as packed bytes in buckets by their first
three letters, and the automaton is built bucket by bucket in sorted order.
The output depends only on the inputs, so it is byte-for-byte reproducible;
a stamp file records the hash of every input and the build is skipped when
nothing changed.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import re
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator, TextIO

from . import forms as forms_file
from .affixes import AffixFile, parse_dic
from .automaton import ALPHABET, Lexicon, normalise, parse_abbreviations
from .dawg import DawgBuilder, serialise
from .forms import verb_roots
from .review import REVIEW, read_review
from .sources import RULES, parse_exclusions, parse_sources

PACKAGE_DIR = Path(__file__).resolve().parent
REPO_DIR = PACKAGE_DIR.parent
DATA_DIR = PACKAGE_DIR / "data"
DEFAULT_SOURCE = REPO_DIR / "node_modules" / "dictionary-it"
OUTPUT = DATA_DIR / "it.dawg"
STAMP = DATA_DIR / "it.dawg.stamp"
#: Beside the automaton: the words that are not the hunspell dictionary's, with their source
#: (``python -m lexicon check`` says where a word comes from). Written by the build, git-ignored.
SOURCES = DATA_DIR / "it.sources.tsv"
#: Beside it too, for the word panel and ``check`` (issue 40): the roots and rules that give a word's
#: lemma and its other forms (``forms.py``), and the words left out with the rule that excludes each.
FORMS = DATA_DIR / "it.forms"
EXCLUDED = DATA_DIR / "it.excluded.tsv"
#: The source of a word of the automaton that ``SOURCES`` does not list.
DICTIONARY_SOURCE = "it_IT"
ADDITIONS = DATA_DIR / "additions.txt"
REMOVALS = DATA_DIR / "removals.txt"
ABBREVIATIONS = DATA_DIR / "abbreviations.tsv"
#: Today's Italian: words the dictionary lacks, each from a published list (docs/lexicon.md).
SUPPLEMENT = DATA_DIR / "supplement.txt"
# The builder's own source is an input too: a change to it must rebuild.
BUILDER_SOURCES = ("affixes.py", "automaton.py", "build.py", "dawg.py", "forms.py", "review.py", "sources.py")

#: Told the share of the build done so far, from 0 to 1.
Progress = Callable[[float], None]
# Measured on the real source: the expansion of the roots is about 45 % of a build, the automaton
# (sorting each bucket and adding its words) the rest; reading and writing take under a second.
EXPAND_SHARE = 0.45
#: The expansion is reported this many times (each root's words are a few microseconds).
EXPAND_REPORTS = 200

MIN_LETTERS = 2
# The board is 17 squares wide and the rulebook accepts every Italian word of two letters or more:
# the longest word that fits is the limit (RAPPRESENTAZIONE 16, CARATTERIZZAZIONE 17).
MAX_LETTERS = 17
_VALID = re.compile("[%s]{%d,%d}" % (ALPHABET, MIN_LETTERS, MAX_LETTERS))

# it_IT writes Roman numerals as roots "i v x l c d m xx xxx" carrying an
# ordinal-numeral suffix class (£) and prefix class ($); their expansion is
# every numeral (MI, VI, CIV, MMX …), none of which is a word.
ROMAN_NUMERAL_FLAGS = frozenset("£$")

#: The rules a line of removals.txt may name before its reason (``lexicon.sources.RULES``).
REMOVAL_RULES = ("name", "abbreviation", "archaic", "dialect", "foreign", "fragment", "numeral", "excluded")


class BuildError(Exception):
    """The sources or the reviewed data files are not usable."""


@dataclass
class BuildReport:
    """What a build did: counts for ``stats`` and the docs."""

    roots: int = 0
    roots_kept: int = 0
    dropped: dict[str, int] = field(default_factory=dict)
    verb_roots: int = 0
    ri_verbs_extended: int = 0
    forms_expanded: int = 0
    additions_new: int = 0
    additions_already_present: list[str] = field(default_factory=list)
    additions_inflected: int = 0
    additions_model_missing: list[str] = field(default_factory=list)
    abbreviations_new: int = 0
    supplement_new: int = 0
    supplement_already_present: list[str] = field(default_factory=list)
    supplement_inflected: int = 0
    removals_applied: int = 0
    removals_unused: list[str] = field(default_factory=list)
    word_count: int = 0
    words_sha256: str = ""
    #: The words that are not the hunspell dictionary's: word → (source, note). The source is
    #: "additions" (note: the entry and its reason) or "appendix" (note: the meaning).
    sources: dict[str, tuple[str, str]] = field(default_factory=dict)
    #: The words left out that the board could hold, each with the rule that excludes it and a note
    #: (``lexicon.sources.RULES``): the build's ``data/it.excluded.tsv``.
    exclusions: dict[str, tuple[str, str]] = field(default_factory=dict)
    #: The roots as the build expands them, (spelling, flags): the dictionary's, then the additions'.
    roots_expanded: list[tuple[str, str]] = field(default_factory=list)
    #: The affix rules kept, in ``.aff`` syntax; with the roots, the build's ``data/it.forms``.
    affixes: str = ""
    forms_data: bytes = b""
    #: Roots in the forms file, and those of them that are not words of the automaton themselves.
    roots_in_forms: int = 0
    roots_outside: int = 0
    node_count: int = 0
    edge_count: int = 0


# -- reviewed data files -------------------------------------------------------------

def read_entries(path: Path, allow_models: bool = True) -> dict[str, tuple[str, str | None]]:
    """``WORD  # reason`` or ``WORD = MODEL  # reason`` lines → {WORD: (reason, MODEL or None)}.

    ``WORD = MODEL`` makes WORD a root inflected with the flags of the source's root MODEL,
    so a new verb or noun gets all its forms (and a verb its enclitics and RI-) from one line.
    """
    return parse_entries(path.read_text(encoding="utf-8").splitlines(), path.name, allow_models)


def parse_entries(lines: list[str], name: str, allow_models: bool = True) -> dict[str, tuple[str, str | None]]:
    """``read_entries`` on the lines of the file ``name`` (named in the errors)."""
    entries: dict[str, tuple[str, str | None]] = {}
    for lineno, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        head, sep, reason = line.partition("#")
        word, eq, model = (part.strip() for part in head.partition("="))
        if not sep or not reason.strip():
            raise BuildError(f"{name} line {lineno}: {word!r} has no '# reason'")
        if eq and not allow_models:
            raise BuildError(f"{name} line {lineno}: {word!r}: '= MODEL' is only for additions")
        for w in (word, model) if eq else (word,):
            if " " in w or not _VALID.fullmatch(w):
                raise BuildError(f"{name} line {lineno}: {w!r} is not one upper-case word of "
                                 f"{MIN_LETTERS}-{MAX_LETTERS} letters over {ALPHABET}")
        if word in entries:
            raise BuildError(f"{name} line {lineno}: {word!r} listed twice")
        entries[word] = (reason.strip(), model if eq else None)
    return entries


_SOURCE_KEY = re.compile(r"[A-Z][A-Z0-9-]*")


@dataclass(frozen=True)
class SupplementEntry:
    source: str  # the key of a declared source
    note: str
    model: str | None


def read_supplement(path: Path) -> tuple[dict[str, str], dict[str, SupplementEntry]]:
    """The supplement: ``@KEY  description`` lines declare a published list, entry lines are
    ``WORD [= MODEL]  # KEY: note`` (KEY declared in the file). → (sources, entries)."""
    sources: dict[str, str] = {}
    body: list[str] = []
    lines = path.read_text(encoding="utf-8").splitlines()
    for lineno, raw in enumerate(lines, 1):
        line = raw.strip()
        if line.startswith("@"):
            key, _, description = line[1:].partition(" ")
            if not _SOURCE_KEY.fullmatch(key) or not description.strip():
                raise BuildError(f"{path.name} line {lineno}: a source is '@KEY description' (KEY upper case)")
            if key in sources:
                raise BuildError(f"{path.name} line {lineno}: source {key} declared twice")
            sources[key] = description.strip()
            body.append("")
        else:
            body.append(raw)
    entries: dict[str, SupplementEntry] = {}
    parsed = parse_entries(body, path.name)
    for word, (reason, model) in parsed.items():
        key, sep, note = reason.partition(":")
        if not sep or key.strip() not in sources or not note.strip():
            raise BuildError(f"{path.name}: {word}: the reason is 'KEY: note' with a source declared by "
                             f"'@KEY description' (sources: {', '.join(sources) or 'none'})")
        entries[word] = SupplementEntry(key.strip(), note.strip(), model)
    return sources, entries


def read_word_list(path: Path) -> dict[str, str]:
    """``WORD  # reason`` lines → {WORD: reason}; a line without a reason is an error."""
    return {word: reason for word, (reason, _model) in read_entries(path).items()}


def read_abbreviations(path: Path) -> dict[str, str]:
    try:
        return parse_abbreviations(path.read_text(encoding="utf-8"))
    except ValueError as exc:
        raise BuildError(f"{path.name}: {exc}") from None


# -- cleaning --------------------------------------------------------------------------

def keep_affix_rule(kind: str, flag: str, append: str) -> bool:
    """Drop rules that write an apostrophe: elided article/preposition prefixes (l', dell', un' …)."""
    return "'" not in append


def root_drop_reason(root: str, flags: str) -> str | None:
    """Why a ``.dic`` root is left out, or None to keep it."""
    if not root or root.startswith("/"):
        return "comment"
    if any(c.isupper() for c in root):
        return "capitalised"
    if "'" in root:
        return "apostrophe"
    if ROMAN_NUMERAL_FLAGS.intersection(flags):
        return "roman numeral"
    return None


def find_ri_flag(aff: AffixFile) -> str:
    """The flag of hunspell's RI- prefix class (``PFX J 0 ri .``)."""
    for flag, klass in aff.classes.items():
        if klass.is_prefix and klass.cross_product and [(e.strip, e.append, e.condition) for e in klass.entries] == [("", "ri", ".")]:
            return flag
    raise BuildError("the affix file has no RI- prefix class (PFX x 0 ri .)")


# -- inputs and stamp -------------------------------------------------------------------

def source_files(source: Path) -> tuple[Path, Path]:
    dic, aff = source / "index.dic", source / "index.aff"
    for p in (dic, aff):
        if not p.is_file():
            raise BuildError(f"hunspell source {p} not found (npm package dictionary-it; run `npm ci`, "
                             f"or pass --source DIR holding index.dic and index.aff)")
    return dic, aff


def input_files(source: Path) -> list[Path]:
    dic, aff = source_files(source)
    return [dic, aff, ADDITIONS, REMOVALS, ABBREVIATIONS, SUPPLEMENT, REVIEW] + [PACKAGE_DIR / n for n in BUILDER_SOURCES]


def inputs_hash(source: Path) -> str:
    h = hashlib.sha256()
    for p in input_files(source):
        data = p.read_bytes()
        h.update(f"{p.name}\0{len(data)}\0".encode())
        h.update(data)
    return h.hexdigest()


def read_stamp(stamp: Path = STAMP) -> dict[str, Any] | None:
    try:
        info = json.loads(stamp.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return info if isinstance(info, dict) else None


def is_up_to_date(source: Path = DEFAULT_SOURCE, output: Path = OUTPUT, stamp: Path = STAMP) -> bool:
    info = read_stamp(stamp)
    if not info or not output.is_file():
        return False
    try:
        current = inputs_hash(source)
    except (BuildError, OSError):
        return False
    if info.get("inputs_sha256") != current or info.get("output_sha256") != hashlib.sha256(output.read_bytes()).hexdigest():
        return False
    for path, key in ((sources_path(output), "sources_sha256"), (forms_path(output), "forms_sha256"),
                      (excluded_path(output), "excluded_sha256")):
        if not path.is_file() or info.get(key) != hashlib.sha256(path.read_bytes()).hexdigest():
            return False
    return True


def sources_path(output: Path) -> Path:
    """The source list written beside a lexicon file (``it.dawg`` → ``it.sources.tsv``)."""
    return output.with_name(output.stem + ".sources.tsv")


def forms_path(output: Path) -> Path:
    """The forms file written beside a lexicon file (``it.dawg`` → ``it.forms``)."""
    return output.with_name(output.stem + ".forms")


def excluded_path(output: Path) -> Path:
    """The excluded list written beside a lexicon file (``it.dawg`` → ``it.excluded.tsv``)."""
    return output.with_name(output.stem + ".excluded.tsv")


def excluded_text(exclusions: dict[str, tuple[str, str]]) -> str:
    """``WORD<TAB>rule<TAB>note`` lines, sorted (the build's excluded list)."""
    lines = ["# words left out: WORD<TAB>rule<TAB>note, the rule in lexicon/sources.py RULES "
             "(written by python -m lexicon build)"]
    lines.extend(f"{word}\t{rule}\t{' '.join(note.split())}" for word, (rule, note) in sorted(exclusions.items()))
    return "\n".join(lines) + "\n"


def read_exclusions(path: Path = EXCLUDED) -> dict[str, tuple[str, str]]:
    """The excluded list (see ``excluded_text``); {} when it is missing (an old build)."""
    try:
        return parse_exclusions(path.read_text(encoding="utf-8"))
    except OSError:
        return {}


def sources_text(sources: dict[str, tuple[str, str]]) -> str:
    """``WORD<TAB>source<TAB>note`` lines, sorted (the build's output beside the automaton)."""
    lines = ["# words not from the hunspell dictionary: WORD<TAB>source<TAB>note (written by python -m lexicon build)"]
    for word in sorted(sources):
        source, note = sources[word]
        lines.append(f"{word}\t{source}\t{' '.join(note.split())}")
    return "\n".join(lines) + "\n"


def read_sources(path: Path = SOURCES) -> dict[str, tuple[str, str]]:
    """The source list (see ``sources_text``); {} when it is missing (an old build)."""
    try:
        return parse_sources(path.read_text(encoding="utf-8"))
    except OSError:
        return {}


def dictionary_version(aff_text: str) -> str:
    m = re.search(r"^VERSION\s+(.+)$", aff_text, re.M)
    return m.group(1).strip() if m else "unknown"


def package_version(source: Path) -> str:
    try:
        meta = json.loads((source / "package.json").read_text(encoding="utf-8"))
        return f"{meta.get('name', '?')} {meta.get('version', '?')}"
    except (OSError, ValueError):
        return "unknown"


# -- word stream -------------------------------------------------------------------------

class _Expansion:
    """The cleaned, RI-extended source, plus the additions inflected like a model root."""

    def __init__(self, dic_text: str, aff_text: str, report: BuildReport, models: dict[str, str] | None = None):
        self.aff = AffixFile.parse(aff_text, keep_entry=keep_affix_rule)
        self.ri = find_ri_flag(self.aff)
        self.report = report
        self.entries: list[tuple[str, str]] = []
        #: The capitalised roots, normalised: the names the dictionary knows.
        self.names: set[str] = set()
        #: The roots left out, by reason (not the comments): what the excluded list says of their forms.
        self.dropped: dict[str, list[tuple[str, str]]] = {}
        for root, flags in parse_dic(dic_text):
            report.roots += 1
            reason = root_drop_reason(root, flags)
            if reason is not None:
                report.dropped[reason] = report.dropped.get(reason, 0) + 1
                if reason == "capitalised":
                    self.names.add(normalise(root))
                if reason != "comment":
                    self.dropped.setdefault(reason, []).append((root, flags))
                continue
            self.entries.append((root, flags))
        report.roots_kept = len(self.entries)
        self.added_roots = self._model_roots(models or {})
        # The added roots take part in the verb test, so a new verb gets RI- like every other.
        self.verbs = verb_roots(self.aff, self.entries + self.added_roots)
        report.verb_roots = len(self.verbs)

    def _model_roots(self, models: dict[str, str]) -> list[tuple[str, str]]:
        if not models:
            return []
        wanted = set(models.values())
        flags_of: dict[str, set[str]] = {}
        for root, flags in self.entries:
            key = normalise(root)
            if key in wanted:
                flags_of.setdefault(key, set()).add(flags)
        roots: list[tuple[str, str]] = []
        for word, model in sorted(models.items()):
            found = flags_of.get(model)
            if not found:
                # Reported, not fatal: a test source without the model still builds, and
                # tests/lexicon asserts the real build has no such entry.
                self.report.additions_model_missing.append(word)
            elif len(found) > 1:
                raise BuildError(f"additions.txt: {word} = {model}: the source has {model} with "
                                 f"different flags ({', '.join(sorted(found))}); choose another model")
            else:
                roots.append((word.lower(), next(iter(found))))
        return roots

    def flags(self, root: str, flags: str) -> str:
        """The flags the root is expanded with: RI- added to a verb (rulebook: RIABBAIARE), except to
        roots already in ri-, so that RIRI- doubles are not invented."""
        if self.ri not in flags and not root.startswith("ri") and root in self.verbs:
            return flags + self.ri
        return flags

    def compact(self, flags: str) -> str:
        """The same flags without those whose class has no rule left (the elisions) or no class, in
        the affix file's order: what the forms file stores (the same expansion, fewer sets)."""
        return "".join(f for f, klass in self.aff.classes.items() if klass.entries and f in flags)

    def affix_text(self) -> str:
        """The affix classes with the rules kept, in ``.aff`` syntax (the forms file's rules)."""
        lines = []
        for flag, klass in self.aff.classes.items():
            if klass.entries:
                kind = "PFX" if klass.is_prefix else "SFX"
                lines.append(f"{kind} {flag} {'Y' if klass.cross_product else 'N'} {len(klass.entries)}")
                lines.extend(f"{kind} {flag} {e.strip or 0} {e.append or 0} {e.condition}" for e in klass.entries)
        return "\n".join(lines) + "\n"

    def words(self, entries: list[tuple[str, str]]) -> Iterator[str]:
        """Normalised words of these roots (with repeats)."""
        aff, report = self.aff, self.report
        valid = _VALID.fullmatch
        for root, flags in entries:
            extended = self.flags(root, flags)
            if extended != flags:
                report.ri_verbs_extended += 1
            for form in aff.expand(root, extended):
                report.forms_expanded += 1
                word = normalise(form)
                if valid(word):
                    yield word


def dictionary_words(dic_text: str, aff_text: str, report: BuildReport) -> Iterator[str]:
    """Normalised words of the cleaned, RI-extended, expanded dictionary (with repeats)."""
    expansion = _Expansion(dic_text, aff_text, report)
    return expansion.words(expansion.entries)


def collect(dic_text: str, aff_text: str, additions: dict[str, str], removals: dict[str, str],
            abbreviations: dict[str, str], report: BuildReport,
            models: dict[str, str] | None = None, progress: Progress | None = None,
            supplement: dict[str, str] | None = None,
            review: dict[str, tuple[str, str]] | None = None) -> dict[str, bytearray]:
    """All words, packed as ``WORD\\n`` bytes in buckets keyed by their first three letters
    (``progress``: the share of the source's roots expanded so far). ``supplement``: WORD → its
    source and note, for the words of ``additions`` (and their ``models``) that come from the
    supplement: the same rules, their own counts and source. ``review``: the frequency review's
    left-outs, WORD → (verdict, reason), for the excluded list (with the removals and the roots
    the cleaning dropped: ``report.exclusions``). The roots as expanded, for the forms file, are
    in ``report.roots_expanded``."""
    for word in removals:
        if word in abbreviations:
            raise BuildError(f"removals.txt: {word} is an appendix abbreviation; the rulebook allows it")
        if word in additions:
            raise BuildError(f"{word} is both in removals.txt and in additions.txt")
    expansion = _Expansion(dic_text, aff_text, report, models)
    supplement = supplement or {}
    for word in sorted(supplement):
        # The rulebook's exclusions hold for the supplement too: no proper names. (J K W X Y,
        # length, removals and the appendix are refused like any addition's.)
        if word in expansion.names:
            raise BuildError(f"supplement.txt: {word} is a proper name in the dictionary (a capitalised root)")
    # The additions' forms (a model line inflects its word) are known before the dictionary is
    # streamed, so that a form the dictionary has too is told apart (its source is the dictionary).
    added_forms: dict[str, str] = {}
    added_stream: list[str] = []
    for root, flags in expansion.added_roots:
        for word in expansion.words([(root, flags)]):
            added_stream.append(word)
            added_forms.setdefault(word, normalise(root))
    extra = set(additions) | set(abbreviations)
    tracked = extra | set(added_forms)
    in_dictionary: set[str] = set()
    removed: set[str] = set()
    buckets: dict[str, bytearray] = {}

    def put(word: str) -> None:
        key = word[:3]
        bucket = buckets.get(key)
        if bucket is None:
            bucket = buckets[key] = bytearray()
        bucket += word.encode("ascii")
        bucket += b"\n"

    entries = expansion.entries
    step = max(1, len(entries) // EXPAND_REPORTS)
    for start in range(0, len(entries), step):
        for word in expansion.words(entries[start:start + step]):
            if word in removals:
                removed.add(word)
                continue
            if word in tracked:
                in_dictionary.add(word)
            put(word)
        if progress is not None:
            progress(min(len(entries), start + step) / len(entries))
    for word in added_stream:
        if word in removals:
            removed.add(word)
            continue
        if added_forms[word] in supplement:
            report.supplement_inflected += 1
        else:
            report.additions_inflected += 1
        put(word)
    for word in sorted(extra):
        put(word)
    report.additions_new = sum(1 for w in additions if w not in in_dictionary and w not in supplement)
    report.additions_already_present = sorted(w for w in additions if w in in_dictionary and w not in supplement)
    report.supplement_new = sum(1 for w in supplement if w not in in_dictionary)
    report.supplement_already_present = sorted(w for w in supplement if w in in_dictionary)
    report.abbreviations_new = sum(1 for w in abbreviations if w not in in_dictionary)
    report.removals_applied = len(removed)
    report.removals_unused = sorted(set(removals) - removed)
    sources: dict[str, tuple[str, str]] = {}
    for word in sorted(tracked - in_dictionary - removed):
        lemma = added_forms.get(word, word)
        if word in supplement:
            sources[word] = ("supplement", supplement[word])
        elif lemma in supplement and word not in additions:
            sources[word] = ("supplement", f"a form of {lemma}: {supplement[lemma]}")
        elif word in additions:
            reason, model = additions[word], (models or {}).get(word)
            sources[word] = ("additions", f"{word} = {model}: {reason}" if model else reason)
        elif word in added_forms:
            lemma = added_forms[word]
            sources[word] = ("additions", f"a form of {lemma} = {(models or {})[lemma]}: {additions[lemma]}")
        else:
            sources[word] = ("appendix", abbreviations[word])
    report.sources = sources
    report.roots_expanded = [(root, expansion.compact(expansion.flags(root, flags)))
                             for root, flags in expansion.entries + expansion.added_roots]
    report.affixes = expansion.affix_text()
    report.exclusions = exclusions(expansion, removals, review or {})
    return buckets


def removal_rule(reason: str) -> tuple[str, str]:
    """The rule a line of removals.txt names before its reason (``DR  # abbreviation: of "dottore",
    not in the appendix``) and the rest of the reason; a reason without a known rule is "excluded"."""
    head, sep, rest = reason.partition(":")
    if sep and head.strip() in REMOVAL_RULES:
        return head.strip(), rest.strip()
    return "excluded", reason


def exclusions(expansion: _Expansion, removals: dict[str, str],
               review: dict[str, tuple[str, str]]) -> dict[str, tuple[str, str]]:
    """Words left out and the rule that excludes each, the first that says so: removals.txt, the
    frequency review's left-outs, then the forms of the roots the cleaning dropped (with an
    apostrophe, which is taken out; capitalised: a name, or an abbreviation when the whole root is in
    capitals; the Roman numerals). Only words the board could hold; the build keeps those not in the
    lexicon."""
    found: dict[str, tuple[str, str]] = {}

    def exclude(word: str, rule: str, note: str) -> None:
        if _VALID.fullmatch(word) and word not in found:
            found[word] = (rule, note)

    for word in sorted(removals):
        exclude(word, *removal_rule(removals[word]))
    for word in sorted(review):
        verdict, reason = review[word]
        exclude(word, verdict if verdict in RULES else "excluded", reason)
    aff = expansion.aff
    for reason, rule in (("apostrophe", "apostrophe"), ("capitalised", "name"), ("roman numeral", "numeral")):
        for root, flags in expansion.dropped.get(reason, ()):
            why = rule
            if rule == "name" and "'" in root:  # anch'Egli: written with an apostrophe first of all
                why = "apostrophe"
            elif rule == "name" and len(root) > 1 and root.isupper():  # ADSL, AIDS: an acronym
                why = "abbreviation"
            for form in sorted(aff.expand(root, flags)):
                word = normalise(form).replace("'", "")
                # the note: how the dictionary writes it, when that says more than the word's capitals
                plain = rule == "numeral" or form in (word, word.capitalize())
                exclude(word, why, "" if plain else form)
    return found


def sorted_words(buckets: dict[str, bytearray], progress: Progress | None = None) -> Iterator[str]:
    """The unique words in increasing order, one bucket in memory at a time (``progress``: the
    share of the buckets' bytes given out so far)."""
    total = sum(len(b) for b in buckets.values()) or 1
    given = 0
    for key in sorted(buckets):
        given += len(buckets[key])
        unique = set(bytes(buckets[key]).split(b"\n"))
        unique.discard(b"")
        buckets[key] = bytearray()  # release as we go
        for w in sorted(unique):
            yield w.decode("ascii")
        if progress is not None:
            progress(given / total)


# -- build ---------------------------------------------------------------------------------

def build_bytes(source: Path = DEFAULT_SOURCE, additions_path: Path = ADDITIONS, removals_path: Path = REMOVALS,
                abbreviations_path: Path = ABBREVIATIONS, progress: Progress | None = None,
                supplement_path: Path | None = SUPPLEMENT,
                review_path: Path | None = REVIEW) -> tuple[bytes, BuildReport]:
    """The lexicon file for these inputs, and a report of what happened (``progress``: told the
    share done, from 0 to 1, a few hundred times). The report also carries the forms file
    (``report.forms_data``) and the excluded list (``report.exclusions``) of the same build."""
    def expanded(share: float) -> None:
        if progress is not None:
            progress(EXPAND_SHARE * share)

    def added(share: float) -> None:
        if progress is not None:
            progress(EXPAND_SHARE + (1 - EXPAND_SHARE) * share)

    dic, aff = source_files(source)
    dic_text = dic.read_text(encoding="utf-8")
    aff_text = aff.read_text(encoding="utf-8")
    entries = read_entries(additions_path)
    additions = {word: reason for word, (reason, _model) in entries.items()}
    models = {word: model for word, (_reason, model) in entries.items() if model is not None}
    supplement: dict[str, str] = {}
    if supplement_path is not None:
        sources, listed = read_supplement(supplement_path)
        for word, entry in listed.items():
            if word in additions:
                raise BuildError(f"{word} is both in supplement.txt and in additions.txt")
            supplement[word] = f"{entry.source}: {entry.note} — {sources[entry.source]}"
            additions[word] = entry.note
            if entry.model is not None:
                models[word] = entry.model
    removals = {word: reason for word, (reason, _model) in read_entries(removals_path, allow_models=False).items()}
    abbreviations = read_abbreviations(abbreviations_path)
    try:
        review = read_review(review_path) if review_path is not None else {}
    except ValueError as exc:  # the review's own error says which line
        raise BuildError(str(exc)) from None
    report = BuildReport()
    buckets = collect(dic_text, aff_text, additions, removals, abbreviations, report, models, expanded, supplement,
                      review)
    # A root is stored as the number of its word in the automaton's order, taken as the words go by.
    roots_of: dict[str, list[int]] = {}
    for i, (spelling, _flags) in enumerate(report.roots_expanded):
        roots_of.setdefault(normalise(spelling), []).append(i)
    numbers: dict[int, int] = {}
    builder = DawgBuilder()
    digest = hashlib.sha256()
    for number, word in enumerate(sorted_words(buckets, added)):
        builder.add(word)
        digest.update(word.encode("ascii") + b"\n")
        hit = roots_of.get(word)
        if hit is not None:
            for i in hit:
                numbers[i] = number
    nodes, root = builder.finish()
    data = serialise(nodes, root, builder.word_count, abbreviations)
    report.word_count = builder.word_count
    report.words_sha256 = digest.hexdigest()
    report.node_count = 1 + sum(1 for sig in nodes if len(sig) > 1)
    report.edge_count = sum(len(sig) - 1 for sig in nodes)
    lex = Lexicon.from_bytes(data)
    report.exclusions = {w: why for w, why in sorted(report.exclusions.items()) if not lex.contains(w)}
    # The roots with flags: one without is its word's only form, which the forms file says without it
    # (a word of the dictionary that no root's rules make is a root of its own). The spelling is kept
    # only where the rules would read the word in lower case otherwise (an accent a rule tests).
    rules = AffixFile.parse(report.affixes)
    ranked = [(numbers[i], spelling if forms_file.needs_spelling(rules, spelling, flags) else "", flags)
              for i, (spelling, flags) in enumerate(report.roots_expanded) if i in numbers and flags]
    # A root that is not a word itself (removed, or with J K W X Y) is kept if a form of it is one.
    outside = [(spelling, flags) for i, (spelling, flags) in enumerate(report.roots_expanded)
               if i not in numbers and flags and any(lex.contains(normalise(f)) for f in rules.expand(spelling, flags))]
    report.roots_outside = len(set(outside))
    report.roots_in_forms = len(set(ranked)) + report.roots_outside
    report.forms_data = forms_file.encode(report.affixes, ranked, outside, len(lex), lex.edge_count)
    return data, report


def shown_path(path: Path) -> str:
    """``path`` as a reader of the log would type it: relative to the repository when inside it."""
    try:
        return str(Path(path).resolve().relative_to(REPO_DIR))
    except ValueError:
        return str(path)


class ProgressLine:
    """A long step's progress on ``stream``: on a terminal one bar redrawn in place; elsewhere (a
    log file, a pipe, CI) a line at each fifth, so a log shows the build alive in a few lines."""

    WIDTH = 30
    MARKS = 5

    def __init__(self, stream: TextIO, label: str) -> None:
        self.stream, self.label = stream, label
        self.tty = stream.isatty()
        self.shown = 0  # the percent drawn on a terminal; elsewhere the last fifth written
        self.drawn = False

    def __call__(self, share: float) -> None:
        share = min(1.0, max(0.0, share))
        if self.tty:
            percent = int(share * 100)
            if percent != self.shown or not self.drawn:
                filled = int(share * self.WIDTH)
                self.stream.write(f"\r{self.label} [{'#' * filled}{'.' * (self.WIDTH - filled)}] {percent:3d} %")
                self.stream.flush()
                self.shown, self.drawn = percent, True
            return
        mark = int(share * self.MARKS)
        if self.shown < mark < self.MARKS:
            self.stream.write(f"{self.label} {100 * mark // self.MARKS} %\n")
            self.stream.flush()
            self.shown = mark

    def close(self) -> None:
        """Clear the bar, so that the line saying the step is done takes its place."""
        if self.tty and self.drawn:
            self.stream.write("\r\033[K")
            self.stream.flush()


def build(source: Path = DEFAULT_SOURCE, force: bool = False, output: Path = OUTPUT, stamp: Path = STAMP,
          log: TextIO | None = None) -> dict[str, Any]:
    """Build ``output`` unless the stamp says it is current; return the stamp info (the build's
    statistics, also written to ``stamp``). With ``log``: a line when the build starts, its
    progress, and a line when it is done (or one line: up to date)."""
    source = Path(source)
    if not force and is_up_to_date(source, output, stamp):
        cached = read_stamp(stamp) or {}
        cached["skipped"] = True
        if log is not None:
            print(f"lexicon: {shown_path(output)} is up to date ({_count(cached.get('word_count'))} words)",
                  file=log, flush=True)
        return cached
    bar = None
    if log is not None:
        print(f"lexicon: building {shown_path(output)} from the hunspell dictionary (about a minute) …",
              file=log, flush=True)
        bar = ProgressLine(log, "lexicon:")
    started = time.perf_counter()
    try:
        data, report = build_bytes(source, progress=bar)
    finally:
        if bar is not None:
            bar.close()
    seconds = time.perf_counter() - started
    output.parent.mkdir(parents=True, exist_ok=True)
    tmp = output.with_name(output.name + ".tmp")
    tmp.write_bytes(data)
    os.replace(tmp, output)
    listed = sources_text(report.sources).encode("utf-8")
    excluded = excluded_text(report.exclusions).encode("utf-8")
    for path, content in ((sources_path(output), listed), (forms_path(output), report.forms_data),
                          (excluded_path(output), excluded)):
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_bytes(content)
        os.replace(tmp, path)
    aff_text = source_files(source)[1].read_text(encoding="utf-8")
    info: dict[str, Any] = {
        "format_version": 1,
        "inputs_sha256": inputs_hash(source),
        "output_sha256": hashlib.sha256(data).hexdigest(),
        "sources_sha256": hashlib.sha256(listed).hexdigest(),
        "forms_sha256": hashlib.sha256(report.forms_data).hexdigest(),
        "excluded_sha256": hashlib.sha256(excluded).hexdigest(),
        "words_sha256": report.words_sha256,
        "word_count": report.word_count,
        "node_count": report.node_count,
        "edge_count": report.edge_count,
        "size_bytes": len(data),
        "gzip_bytes": len(gzip.compress(data, 9, mtime=0)),
        # what the word panel fetches when it first opens (issue 40): raw and gzip -9 bytes
        "panel_files": {path.name: {"size_bytes": len(content), "gzip_bytes": len(gzip.compress(content, 9, mtime=0))}
                        for path, content in ((sources_path(output), listed), (forms_path(output), report.forms_data),
                                              (excluded_path(output), excluded))},
        "build_seconds": round(seconds, 2),
        "source": {
            "package": package_version(source),
            "dictionary": f"hunspell it_IT {dictionary_version(aff_text)}",
            "dic": str(source_files(source)[0]),
            "aff": str(source_files(source)[1]),
        },
        "inputs": [p.name for p in input_files(source)],
        "counts": {
            "roots": report.roots,
            "roots_kept": report.roots_kept,
            "roots_dropped": dict(sorted(report.dropped.items())),
            "verb_roots": report.verb_roots,
            "ri_verbs_extended": report.ri_verbs_extended,
            "forms_expanded": report.forms_expanded,
            "additions_new": report.additions_new,
            "additions_already_present": report.additions_already_present,
            "additions_inflected_forms": report.additions_inflected,
            "additions_model_missing": report.additions_model_missing,
            "supplement_new": report.supplement_new,
            "supplement_already_present": report.supplement_already_present,
            "supplement_inflected_forms": report.supplement_inflected,
            "abbreviations_new": report.abbreviations_new,
            "removals_applied": report.removals_applied,
            "removals_unused": report.removals_unused,
            "words_by_source": _by_source(report),
            "forms_roots": report.roots_in_forms,
            "forms_roots_outside": report.roots_outside,
            "excluded_by_rule": _by_rule(report),
        },
        "skipped": False,
    }
    tmp = stamp.with_name(stamp.name + ".tmp")
    tmp.write_text(json.dumps(info, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    os.replace(tmp, stamp)
    if log is not None:
        print(f"lexicon: built {shown_path(output)} in {seconds:.0f} s: {_count(report.word_count)} words, "
              f"{len(data) // 1024} KB (statistics in {shown_path(stamp)})", file=log, flush=True)
    return info


def _by_source(report: BuildReport) -> dict[str, int]:
    counts: dict[str, int] = {}
    for source, _note in report.sources.values():
        counts[source] = counts.get(source, 0) + 1
    return {DICTIONARY_SOURCE: report.word_count - len(report.sources), **dict(sorted(counts.items()))}


def _by_rule(report: BuildReport) -> dict[str, int]:
    counts: dict[str, int] = {}
    for rule, _note in report.exclusions.values():
        counts[rule] = counts.get(rule, 0) + 1
    return dict(sorted(counts.items()))


def _count(n: object) -> str:
    return f"{n:,}" if isinstance(n, int) else "?"


def ensure_built(source: Path = DEFAULT_SOURCE) -> dict[str, Any]:
    """Set-up hook (serve.py, tests): build once, then only when an input changes."""
    return build(source, force=False, log=sys.stderr)
