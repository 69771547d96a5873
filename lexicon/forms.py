"""A word's lemma and its other forms, from the dictionary's own roots and rules (issue 40).

The build writes ``data/it.forms`` beside the automaton: the affix rules it expanded, and every root
with its flags (RI- included where the build gave it). The word panel and ``python -m lexicon check``
read it to say which root a word is a form of and what the root's other forms are. Nothing is guessed:
a root is named only when expanding it with its flags, exactly as the build did, gives the word.

Roots take little room because the automaton already spells them: a root is stored as the position of
its word in the automaton's alphabetical order (``WordNumbers``), a gap from the previous root's, and
the number of its set of flags. Written out are only the spellings the rules need (an accent a rule
tests; none in it_IT 4.2: ``città`` expands as ``citta`` does) and the roots that are not words
themselves (a removed word, a root with J K W X Y whose prefixed form is a word). The roots without
flags (a fifth of the dictionary: ieri, città) are left out: their word is their only form, so a
word of the dictionary that no stored root makes is a root of its own (``Forms.lemmas(own_root=…)``).

File layout (little-endian), format version 1::

    offset size  field
    0      8     magic b"SCARFRM\\0"
    8      2     format version (1)
    10     2     header size (32)
    12     4     word count of the automaton it was built with
    16     4     edge count of that automaton
    20     4     number R of roots that are words of the automaton
    24     4     CRC-32 of the whole file with these 4 bytes left out
    28     4     size T of the text part
    32     T     UTF-8 text: four parts separated by NUL: the affix rules (.aff lines), the flag sets
                 (one a line), the spellings (``root number<TAB>spelling``), the roots outside the
                 automaton (``spelling<TAB>flag set number``)
    32+T         R pairs of unsigned LEB128 varints: gap from the previous root's word number, flag set

Browser-safe: the standard library, ``affixes.py`` and ``automaton.py``; no build code.
"""

from __future__ import annotations

import struct
import zlib
from array import array
from bisect import bisect_left
from dataclasses import dataclass
from itertools import accumulate
from typing import Callable, Iterable, Sequence

from .affixes import AffixError, AffixFile
from .automaton import CHILD_SHIFT, LAST_FLAG, LETTER_MASK, Lexicon, LexiconError, letter_indices, normalise

__all__ = ["FORMAT_VERSION", "INFINITIVE_OF", "Forms", "Lemma", "WordNumbers", "encode", "is_infinitive",
           "needs_spelling", "verb_roots"]

MAGIC = b"SCARFRM\0"
FORMAT_VERSION = 1
HEADER = struct.Struct("<8sHHIIIII")
HEADER_SIZE = 32
CRC_OFFSET = 24
assert HEADER.size == HEADER_SIZE

_REBUILD = "run `python -m lexicon build` to rebuild it"

# -- verbs --------------------------------------------------------------------------------------

#: it_IT lists gerunds (abbaiando/D) and past participles (abbaiato/EyT) as roots of their own. They are
#: verb forms, recognised by mapping their ending back to an infinitive that is in the dictionary:
#: (ending, the infinitive endings it may come from, what the form is). The build gives RI- to them as
#: to every verb; the panel names the verb. The first ending that maps to an infinitive decides.
INFINITIVE_OF: tuple[tuple[str, tuple[str, ...], str], ...] = (
    ("ando", ("are",), "gerund"), ("aendo", ("arre",), "gerund"), ("cendo", ("rre",), "gerund"),
    ("nendo", ("rre",), "gerund"), ("endo", ("ere", "ire"), "gerund"), ("ato", ("are",), "participle"),
    ("uto", ("ere",), "participle"), ("ito", ("ire",), "participle"),
)


def is_infinitive(aff: AffixFile, root: str, flags: str) -> bool:
    """A verb's infinitive root: its suffix rules conjugate it to a first person plural (-iamo).

    Every Italian verb has one (amiamo, crediamo, partiamo, poniamo) and the
    it_IT conjugation classes derive it from the infinitive; no noun class does.
    """
    if not root.endswith(("re", "rsi")):
        return False
    for flag in flags:
        klass = aff.classes.get(flag)
        if klass is None or klass.is_prefix:
            continue
        for strip_len, append in klass.rules(root):
            if strip_len >= 2 and (root[:-strip_len] + append).endswith("iamo"):
                return True
    return False


def verb_roots(aff: AffixFile, entries: list[tuple[str, str]]) -> set[str]:
    """Roots that are verb forms: infinitives, and gerunds/participles of those infinitives."""
    infinitives = {root for root, flags in entries if is_infinitive(aff, root, flags)}
    verbs = set(infinitives)
    for root, _flags in entries:
        if _infinitive(root, infinitives.__contains__) is not None:
            verbs.add(root)
    return verbs


def _infinitive(root: str, is_verb: Callable[[str], bool]) -> tuple[str, str] | None:
    """(infinitive, "gerund" | "participle") when ``root`` is a gerund or a participle of a verb."""
    for ending, candidates, what in INFINITIVE_OF:
        if root.endswith(ending):
            stem = root[: -len(ending)]
            if stem:
                for c in candidates:
                    if is_verb(stem + c):
                        return stem + c, what
    return None


def needs_spelling(aff: AffixFile, spelling: str, flags: str) -> bool:
    """Whether the file must store the root's spelling: its rules read the word in lower case
    (``abilita`` for ``abilità``) otherwise make other forms, or another verb."""
    plain = normalise(spelling).lower()
    if plain == spelling:
        return False
    return ({normalise(f) for f in aff.expand(spelling, flags)} != {normalise(f) for f in aff.expand(plain, flags)}
            or is_infinitive(aff, spelling, flags) != is_infinitive(aff, plain, flags))


# -- word numbers -------------------------------------------------------------------------------

class WordNumbers:
    """Each word's position in the automaton's alphabetical order, from a count of the words below
    every node (one pass over the edges: a node's children lie before it)."""

    def __init__(self, lex: Lexicon) -> None:
        self.lex = lex
        arr = lex.edge_array
        # by a node's first edge: the words under it (a list: the fastest to index in the page's Python,
        # where this pass is most of the panel's first opening)
        below = [0] * len(arr)
        total = 0
        start = i = 1
        edges = iter(arr)
        next(edges)  # the sentinel
        for e in edges:
            child = e >> CHILD_SHIFT
            total += (child & 1) + below[child >> 1]
            if e & LAST_FLAG:
                below[start] = total
                total = 0
                start = i + 1
            i += 1
        self.below = below

    def rank(self, word: str) -> int:
        """How many words of the automaton come before ``word``; -1 if it is not a word."""
        letters = letter_indices(word)
        if not letters:
            return -1
        arr, below = self.lex.edge_array, self.below
        node = self.lex.root
        rank = 0
        last = len(letters) - 1
        for k, letter in enumerate(letters):
            i = node >> 1
            if i == 0:
                return -1
            while True:
                e = arr[i]
                if e & LETTER_MASK == letter:
                    break
                child = e >> CHILD_SHIFT
                rank += (child & 1) + below[child >> 1]
                if e & LAST_FLAG or e & LETTER_MASK > letter:
                    return -1
                i += 1
            node = e >> CHILD_SHIFT
            if k < last and node & 1:
                rank += 1  # the word that ends here comes before the longer ones
        return rank if node & 1 else -1


# -- the file -----------------------------------------------------------------------------------

def _varint(out: bytearray, n: int) -> None:
    while n >= 0x80:
        out.append(n & 0x7F | 0x80)
        n >>= 7
    out.append(n)


def encode(affixes: str, ranked: Iterable[tuple[int, str, str]], outside: Iterable[tuple[str, str]],
           word_count: int, edge_count: int) -> bytes:
    """The file for these affix rules (``.aff`` text), roots that are words of the automaton as (word
    number, spelling, flags) and roots outside it as (spelling, flags); deterministic. A root's spelling
    may be "": its word in lower case (what ``needs_spelling`` says is enough)."""
    ranked = sorted(set(ranked))
    outside = sorted(set(outside))
    flagsets = sorted({flags for _r, _s, flags in ranked} | {flags for _s, flags in outside})
    number = {flags: n for n, flags in enumerate(flagsets)}
    spellings = [f"{i}\t{spelling}" for i, (_rank, spelling, _flags) in enumerate(ranked)
                 if spelling and spelling != normalise(spelling).lower()]
    lines = [*flagsets, *spellings, *(s for s, _f in outside)]
    if "\0" in affixes or any("\0" in line or "\n" in line for line in lines):
        raise ValueError("a NUL or a line break cannot be stored in a forms file")
    text = "\0".join((affixes, "\n".join(flagsets), "\n".join(spellings),
                      "\n".join(f"{s}\t{number[f]}" for s, f in outside))).encode("utf-8")
    body = bytearray()
    previous = 0
    for rank, _spelling, flags in ranked:
        _varint(body, rank - previous)
        _varint(body, number[flags])
        previous = rank
    header = HEADER.pack(MAGIC, FORMAT_VERSION, HEADER_SIZE, word_count, edge_count, len(ranked), 0, len(text))
    data = bytearray(header + text + bytes(body))
    crc = zlib.crc32(memoryview(data)[CRC_OFFSET + 4:], zlib.crc32(memoryview(data)[:CRC_OFFSET]))
    struct.pack_into("<I", data, CRC_OFFSET, crc)
    return bytes(data)


@dataclass(frozen=True)
class Lemma:
    """One root a word is a form of."""

    #: The dictionary's root, normalised (GATTO, AMATO, AMARE) and as the dictionary writes it.
    root: str
    spelling: str
    #: The headword: the root, or the verb whose gerund or past participle the root is (AMARE for AMATO).
    lemma: str
    #: "verb" (the root is an infinitive), "gerund", "participle", or "word" (any other root).
    kind: str
    #: The prefix the word adds to the root's form ("RI", "STRA", "PRE"), or "".
    prefix: str
    #: The root's forms in the lexicon without a prefix, in the order of its rules (the root first).
    forms: tuple[str, ...]
    #: How many forms of the root are in the lexicon, the prefixed ones (RI- …) included.
    form_count: int

    def shortest(self, n: int, leave_out: str = "") -> list[str]:
        """``n`` of the root's forms to show, the shortest first (the inflections before the enclitics:
        AMO, AMI, AMA … before AMARSELO), ties in the rules' order; ``leave_out`` (the word) skipped."""
        order = sorted(range(len(self.forms)), key=lambda i: (len(self.forms[i]), i))
        return [self.forms[i] for i in order if self.forms[i] != leave_out][:n]

    def to_json(self, shown: int = 12) -> dict[str, object]:
        return {"lemma": self.lemma, "root": self.root, "kind": self.kind, "prefix": self.prefix,
                "forms": self.shortest(shown), "form_count": self.form_count}


#: The order in which a word's lemmas are given: the root's own forms before prefixed ones, verbs first.
_KIND_ORDER = {"verb": 0, "participle": 1, "gerund": 2, "word": 3}


class Forms:
    """The roots and rules of ``data/it.forms`` over the automaton they were built with."""

    def __init__(self, lex: Lexicon, aff: AffixFile, flagsets: Sequence[str], ranks: "array[int]",
                 flag_numbers: "array[int]", spellings: dict[int, str],
                 outside: dict[str, list[tuple[str, str]]]) -> None:
        self.lex = lex
        self.aff = aff
        self.numbers = WordNumbers(lex)
        self.flagsets = list(flagsets)
        self.ranks = ranks
        self.flag_numbers = flag_numbers
        self.spellings = spellings
        self.outside = outside
        # Reversing the rules: a suffix rule's appended text (normalised) → (flag, stripped text); the
        # prefix rules as (flag, appended, stripped). A word's candidate roots come from these; each is
        # then expanded forwards, so only the rules as the build applied them decide.
        self.suffixes: dict[str, list[tuple[str, str]]] = {}
        self.prefixes: list[tuple[str, str, str]] = []
        for flag, klass in aff.classes.items():
            for entry in klass.entries:
                append, strip = normalise(entry.append), normalise(entry.strip)
                if klass.is_prefix:
                    self.prefixes.append((flag, append, strip))
                else:
                    self.suffixes.setdefault(append, []).append((flag, strip))
        self.longest = max((len(a) for a in self.suffixes), default=0)

    @classmethod
    def from_bytes(cls, data: bytes, lex: Lexicon) -> "Forms":
        """Parse the file; ``LexiconError`` if it is damaged or was built with another automaton."""
        view = memoryview(data)
        if len(view) < HEADER_SIZE:
            raise LexiconError(f"forms file truncated: {len(view)} bytes; {_REBUILD}")
        magic, version, header_size, words, edges, count, crc, text_size = HEADER.unpack_from(view, 0)
        if magic != MAGIC or version != FORMAT_VERSION or header_size != HEADER_SIZE:
            raise LexiconError(f"not a forms file of version {FORMAT_VERSION}; {_REBUILD}")
        if zlib.crc32(view[CRC_OFFSET + 4:], zlib.crc32(view[:CRC_OFFSET])) != crc:
            raise LexiconError(f"forms file checksum mismatch: corrupt file; {_REBUILD}")
        if (words, edges) != (len(lex), lex.edge_count):
            raise LexiconError(f"forms file built with another lexicon ({words} words, the lexicon has "
                               f"{len(lex)}); {_REBUILD}")
        try:
            parts = bytes(view[HEADER_SIZE:HEADER_SIZE + text_size]).decode("utf-8").split("\0")
            affixes, flag_text, spelling_text, outside_text = parts
            aff = AffixFile.parse(affixes)
            flagsets = flag_text.split("\n")
            spellings = {int(n): s for n, _, s in (line.partition("\t") for line in spelling_text.splitlines())}
            outside: dict[str, list[tuple[str, str]]] = {}
            for line in outside_text.splitlines():
                spelling, _, number = line.partition("\t")
                outside.setdefault(normalise(spelling), []).append((spelling, flagsets[int(number)]))
            values: list[int] = []
            value = shift = 0
            for b in bytes(view[HEADER_SIZE + text_size:]):
                if b < 0x80:
                    values.append(value | b << shift)
                    value = shift = 0
                else:
                    value |= (b & 0x7F) << shift
                    shift += 7
            if shift or len(values) != 2 * count:
                raise ValueError("the roots do not fill the file")
            ranks = array("I", accumulate(values[0::2]))
            flag_numbers = array("H", values[1::2])
            if flag_numbers and max(flag_numbers) >= len(flagsets):
                raise ValueError("a root's flag set is not in the file")
        except (UnicodeDecodeError, ValueError, IndexError, AffixError) as exc:
            raise LexiconError(f"forms file unreadable: {exc}; {_REBUILD}") from None
        return cls(lex, aff, flagsets, ranks, flag_numbers, spellings, outside)

    # -- roots ----------------------------------------------------------------------------------

    def entries(self, root: str) -> list[tuple[str, str]]:
        """(spelling, flags) of every root whose normalised spelling is ``root``."""
        found = list(self.outside.get(root, ()))
        rank = self.numbers.rank(root)
        if rank >= 0:
            ranks = self.ranks
            i = bisect_left(ranks, rank)
            while i < len(ranks) and ranks[i] == rank:
                found.append((self.spellings.get(i, root.lower()), self.flagsets[self.flag_numbers[i]]))
                i += 1
        return found

    def infinitive(self, spelling: str) -> tuple[str, str] | None:
        """(infinitive, "gerund" | "participle") when the root is a gerund or participle of a verb root."""
        def is_verb(candidate: str) -> bool:
            # by the normalised spelling: the file keeps a spelling only where the rules need it
            return any(is_infinitive(self.aff, s, f) for s, f in self.entries(normalise(candidate)))
        return _infinitive(spelling, is_verb)

    # -- a word -----------------------------------------------------------------------------------

    def lemmas(self, word: str, own_root: bool = False) -> list[Lemma]:
        """The roots ``word`` is a form of, each with its forms; [] for a word not in the lexicon or
        not made by a root's rules (an abbreviation of the appendix, an addition of one form).

        The file leaves out the roots without flags (a fifth of the dictionary: IERI, CITTÀ), whose
        word is their only form. ``own_root``: the word is the dictionary's (``it.sources.tsv`` does
        not list it), so when no root with rules makes it, it is such a root of its own."""
        target = normalise(word)
        if not self.lex.contains(target):
            return []
        found = self._lemmas(target)
        if not found and own_root:
            found.append(Lemma(target, target.lower(), target, "word", "", (target,), 1))
        return found

    def _lemmas(self, target: str) -> list[Lemma]:
        # Every root the word could come from: the word itself, each suffix rule undone (the strip
        # leaves a letter), and the same after each prefix rule undone; with the flags a root needs.
        stems: dict[str, dict[str, set[str]]] = {}  # stem → flags needed → prefixes

        def undo_suffixes(form: str, needed: str, prefix: str) -> None:
            stems.setdefault(form, {}).setdefault(needed, set()).add(prefix)
            for k in range(0, min(len(form) - 1, self.longest) + 1):
                for flag, strip in self.suffixes.get(form[len(form) - k:], ()):
                    stem = form[:len(form) - k] + strip
                    stems.setdefault(stem, {}).setdefault(needed + flag, set()).add(prefix)

        undo_suffixes(target, "", "")
        for flag, append, strip in self.prefixes:
            if len(target) > len(append) and target.startswith(append):
                undo_suffixes(strip + target[len(append):], flag, append)
        candidates: dict[tuple[str, str], set[str]] = {}
        for stem, needs in stems.items():
            for key in self.entries(stem):
                for needed, prefixes in needs.items():
                    if all(f in key[1] for f in needed):
                        candidates.setdefault(key, set()).update(prefixes)
        found: list[Lemma] = []
        for (spelling, flags), prefixes in candidates.items():
            forms, plain = self.aff.forms(spelling, flags)
            shown = [normalise(f) for f in forms]
            if target in shown[:plain]:
                prefix = ""
            elif target in shown[plain:] and prefixes - {""}:
                prefix = min(prefixes - {""})
            else:
                continue
            contains = self.lex.contains
            own = tuple(dict.fromkeys(f for f in shown[:plain] if contains(f)))
            count = len({f for f in shown if contains(f)})
            root = normalise(spelling)
            kind, lemma = "word", root
            if is_infinitive(self.aff, spelling, flags):
                kind = "verb"
            else:
                verb = self.infinitive(spelling)
                if verb is not None:
                    lemma, kind = normalise(verb[0]), verb[1]
            found.append(Lemma(root, spelling, lemma, kind, prefix, own, count))
        found.sort(key=lambda m: (m.prefix != "", _KIND_ORDER[m.kind], m.root, m.spelling))
        return found

