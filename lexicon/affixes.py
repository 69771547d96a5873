"""A hunspell affix expander: the words a ``.dic`` root and its flags stand for.

It implements the subset of the hunspell format that ``it_IT`` uses, exactly:
single-character flags, ``PFX``/``SFX`` classes with strip, append and
condition, and the prefix × suffix cross product. It matches ``unmunch``:
suffixes are applied to the root (condition tested on the root's end); a
cross-product prefix is then applied to the root and to every cross-product
suffixed form, its condition tested on the start of that form. A strip must
leave at least one character of the word (no ``FULLSTRIP``).

Continuation classes (``append/FLAGS``), compounding, ``NEEDAFFIX``,
``FORBIDDENWORD`` and long/numeric flag types are refused with an error
rather than silently ignored, so a new dictionary version that starts using
them cannot give a wrong expansion.

The build expands every root with it; the word panel (``forms.py``) expands the few roots of the
words it explains, in the browser too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable, Iterable, Iterator

# Directives that change what a word list means; the expander does not
# implement them, so a file using them is refused.
_UNSUPPORTED = {
    "FLAG", "COMPLEXPREFIXES", "COMPOUNDFLAG", "COMPOUNDBEGIN", "COMPOUNDMIDDLE",
    "COMPOUNDEND", "COMPOUNDRULE", "ONLYINCOMPOUND", "NEEDAFFIX", "PSEUDOROOT",
    "CIRCUMFIX", "FORBIDDENWORD", "FULLSTRIP", "IGNORE", "AF", "AM", "KEEPCASE",
    "COMPOUNDMIN", "CHECKCOMPOUNDPATTERN", "LEMMA_PRESENT", "SUBSTANDARD",
}


class AffixError(ValueError):
    """The affix or dictionary file cannot be read exactly."""


@dataclass(frozen=True)
class AffixEntry:
    """One ``PFX``/``SFX`` rule line."""

    strip: str
    append: str
    condition: str
    # Compiled condition: anchored at the word's start (PFX) or end (SFX).
    pattern: re.Pattern[str] = field(compare=False, repr=False)
    n_conditions: int = 0

    @property
    def key_length(self) -> int:
        """How many edge characters of a word decide whether this rule applies."""
        return max(len(self.strip), self.n_conditions) + 1


@dataclass
class AffixClass:
    """All rules of one flag."""

    flag: str
    is_prefix: bool
    cross_product: bool
    entries: list[AffixEntry] = field(default_factory=list)
    # The rules that apply depend only on the word's first/last key_length
    # characters (shorter words are their own key), so results are memoised.
    _key_length: int = 1
    _cache: dict[str, tuple[tuple[int, str], ...]] = field(default_factory=dict, repr=False)

    def add(self, entry: AffixEntry) -> None:
        self.entries.append(entry)
        self._key_length = max(self._key_length, entry.key_length)
        self._cache.clear()

    def _rules_for(self, key: str) -> tuple[tuple[int, str], ...]:
        rules = []
        n = len(key)
        for e in self.entries:
            if n <= len(e.strip) or n < e.n_conditions:
                continue
            if self.is_prefix:
                if not key.startswith(e.strip) or not e.pattern.match(key):
                    continue
            else:
                if not key.endswith(e.strip) or not e.pattern.search(key):
                    continue
            rules.append((len(e.strip), e.append))
        return tuple(rules)

    def rules(self, word: str) -> tuple[tuple[int, str], ...]:
        """``(strip length, append)`` of every rule of this class that applies to ``word``."""
        k = self._key_length
        key = word[:k] if self.is_prefix else word[-k:]
        rules = self._cache.get(key)
        if rules is None:
            rules = self._cache[key] = self._rules_for(key)
        return rules

    def apply(self, word: str) -> Iterator[str]:
        """Every form this class makes from ``word`` (possibly with repeats)."""
        k = self._key_length
        key = word[:k] if self.is_prefix else word[-k:]
        rules = self._cache.get(key)
        if rules is None:
            rules = self._cache[key] = self._rules_for(key)
        if self.is_prefix:
            for strip_len, append in rules:
                yield append + word[strip_len:]
        else:
            for strip_len, append in rules:
                yield (word[: len(word) - strip_len] if strip_len else word) + append


def compile_condition(condition: str, is_prefix: bool) -> tuple[re.Pattern[str], int]:
    """Translate a hunspell condition (``.``, ``[abc]``, ``[^abc]``, letters) to a regex.

    Returns the anchored pattern and the number of character positions it tests.
    """
    if condition == ".":
        return re.compile(""), 0
    parts: list[str] = []
    i = 0
    while i < len(condition):
        c = condition[i]
        if c == "[":
            j = condition.find("]", i + 1)
            if j < 0:
                raise AffixError(f"unclosed '[' in condition {condition!r}")
            body = condition[i + 1 : j]
            negate = body.startswith("^")
            chars = body[1:] if negate else body
            if not chars:
                raise AffixError(f"empty character class in condition {condition!r}")
            parts.append("[" + ("^" if negate else "") + "".join(re.escape(ch) for ch in chars) + "]")
            i = j + 1
        elif c == ".":
            parts.append(".")
            i += 1
        elif c == "]":
            raise AffixError(f"stray ']' in condition {condition!r}")
        else:
            parts.append(re.escape(c))
            i += 1
    body = "".join(parts)
    pattern = re.compile(body if is_prefix else "(?:" + body + r")\Z", re.DOTALL)
    return pattern, len(parts)


@dataclass
class AffixFile:
    """The parsed ``.aff`` file: affix classes by flag."""

    classes: dict[str, AffixClass] = field(default_factory=dict)

    @classmethod
    def parse(cls, text: str, keep_entry: Callable[[str, str, str], bool] | None = None) -> "AffixFile":
        """Parse ``.aff`` text. ``keep_entry(kind, flag, append)`` may drop rules (cleaning)."""
        aff = cls()
        pending: dict[str, int] = {}
        for lineno, raw in enumerate(text.splitlines(), 1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            fields = line.split()
            kind = fields[0]
            if kind in _UNSUPPORTED:
                raise AffixError(f"line {lineno}: directive {kind} is not supported by this expander")
            if kind not in ("PFX", "SFX"):
                continue
            if len(fields) < 4:
                raise AffixError(f"line {lineno}: short {kind} line: {line!r}")
            flag = fields[1]
            if len(flag) != 1:
                raise AffixError(f"line {lineno}: flag {flag!r} is not a single character")
            is_prefix = kind == "PFX"
            if flag not in aff.classes:
                # Header: PFX flag Y|N count
                if fields[2] not in ("Y", "N") or not fields[3].isdigit():
                    raise AffixError(f"line {lineno}: bad {kind} header: {line!r}")
                aff.classes[flag] = AffixClass(flag, is_prefix, fields[2] == "Y")
                pending[flag] = int(fields[3])
                continue
            klass = aff.classes[flag]
            if klass.is_prefix != is_prefix:
                raise AffixError(f"line {lineno}: flag {flag!r} used for both PFX and SFX")
            if len(fields) < 5:
                raise AffixError(f"line {lineno}: {kind} rule needs strip, append and condition: {line!r}")
            if len(fields) > 5 and not fields[5].startswith("#"):
                raise AffixError(f"line {lineno}: morphological fields are not supported: {line!r}")
            if pending.get(flag, 0) <= 0:
                raise AffixError(f"line {lineno}: more {kind} {flag} rules than its header announced")
            pending[flag] -= 1
            strip = "" if fields[2] == "0" else fields[2]
            append = "" if fields[3] == "0" else fields[3]
            if "/" in append:
                raise AffixError(f"line {lineno}: continuation classes are not supported: {line!r}")
            if keep_entry is not None and not keep_entry(kind, flag, append):
                continue
            pattern, n = compile_condition(fields[4], is_prefix)
            klass.add(AffixEntry(strip, append, fields[4], pattern, n))
        short = {f: n for f, n in pending.items() if n}
        if short:
            raise AffixError(f"affix classes with fewer rules than announced: {short}")
        return aff

    def expand(self, root: str, flags: str) -> set[str]:
        """The root and every form its flags produce (unmunch semantics)."""
        return set(self.forms(root, flags)[0])

    def forms(self, root: str, flags: str) -> tuple[list[str], int]:
        """``expand`` in order: the root, then each suffix class's forms (flags and rules in their order),
        then the prefixed forms; repeats possible. Also how many come before the first prefixed form.
        One expansion for the build and for the word panel, which lists a root's forms as its rules
        give them (the present before the past, the singular before the plural)."""
        words = [root]
        prefixes: list[AffixClass] = []
        crossable: list[str] = []
        for flag in flags:
            klass = self.classes.get(flag)
            if klass is None:
                continue  # hunspell ignores flags without a class (they may mark other things)
            if klass.is_prefix:
                prefixes.append(klass)
                continue
            start = len(words)
            words.extend(klass.apply(root))
            if klass.cross_product:
                crossable.extend(words[start:])
        plain = len(words)
        for klass in prefixes:
            words.extend(klass.apply(root))
            if klass.cross_product:
                for form in crossable:
                    words.extend(klass.apply(form))
        return words, plain


def parse_dic(text: str) -> Iterator[tuple[str, str]]:
    """``(root, flags)`` for every entry of a ``.dic`` text (the count line skipped)."""
    lines = text.splitlines()
    start = 1 if lines and lines[0].strip().isdigit() else 0
    for raw in lines[start:]:
        line = raw.rstrip("\r\n")
        if not line.strip():
            continue
        # Morphological fields follow a tab (or space); it_IT has none but tolerate them.
        entry = re.split(r"[\t ]", line, maxsplit=1)[0]
        root, sep, flags = _split_flags(entry)
        yield root, flags if sep else ""


def _split_flags(entry: str) -> tuple[str, str, str]:
    """Split ``word/flags`` at the first unescaped slash (``\\/`` is a literal slash)."""
    i = 0
    while True:
        j = entry.find("/", i)
        if j < 0:
            return entry.replace("\\/", "/"), "", ""
        if j > 0 and entry[j - 1] == "\\":
            i = j + 1
            continue
        return entry[:j].replace("\\/", "/"), "/", entry[j + 1 :]


def expand_all(aff: AffixFile, entries: Iterable[tuple[str, str]]) -> Iterator[str]:
    """Every form of every entry (duplicates possible across roots)."""
    for root, flags in entries:
        yield from aff.expand(root, flags)
