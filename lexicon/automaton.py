"""The lexicon file format and its loader: bytes → one flat integer array.

This module is what the browser loads (with ``lexicon/__init__.py``); it is
pure Python on the standard library and imports no build code.

File layout (all integers little-endian), format version 1::

    offset size  field
    0      8     magic  b"SCARLEX\\0"
    8      2     format version (1)
    10     2     header size in bytes (64)
    12     4     word count (abbreviations included)
    16     4     edge count E (edge 0 is a sentinel)
    20     4     node count (informational)
    24     4     root node id
    28     4     size A of the abbreviation table in bytes
    32     4     CRC-32 of the whole file with these 4 bytes left out
    36     1     alphabet length (21)
    37     27    alphabet, ASCII, NUL-padded
    64     4*E   edges, one uint32 each
    64+4E  A     abbreviation table, UTF-8, "ABBR\\tmeaning\\n" lines

An edge is ``letter | last << 5 | child << 6``: ``letter`` is the index in
the alphabet, ``last`` marks the last edge of its node, ``child`` is the
target node id. A node id is ``first_edge_index << 1 | terminal``: the
terminal bit (a word ends here) travels with every pointer to the node, so
``is_terminal`` costs nothing and needs no per-node table. The one node with
no edges (the final state) has first edge index 0, the sentinel. A node's
edges are contiguous and sorted by letter; every child lies before its
parent's edges, so the graph is acyclic by construction.
"""

from __future__ import annotations

import struct
import sys
import unicodedata
import zlib
from array import array
from typing import Iterator

ALPHABET = "ABCDEFGHILMNOPQRSTUVZ"
MAGIC = b"SCARLEX\0"
FORMAT_VERSION = 1
HEADER = struct.Struct("<8sHHIIIIIIB27s")
HEADER_SIZE = 64
CRC_OFFSET = 32

LETTER_MASK = 0x1F
LAST_FLAG = 0x20
CHILD_SHIFT = 6
# Edge 0: a letter that matches nothing, and the last flag (see ``contains``).
SENTINEL = LETTER_MASK | LAST_FLAG

_INDEX = {ch: i for i, ch in enumerate(ALPHABET)}
# Letter index for each byte of an ASCII word, -1 for anything else.
_BYTE_INDEX = [-1] * 256
for _ch, _i in _INDEX.items():
    _BYTE_INDEX[ord(_ch)] = _i
    _BYTE_INDEX[ord(_ch.lower())] = _i
del _ch, _i

# bytes.translate table: ASCII letter → alphabet index, anything else → 255.
_CODES = bytes(i if i >= 0 else 255 for i in _BYTE_INDEX)

_TYPECODE = "I" if array("I").itemsize == 4 else "L"
assert array(_TYPECODE).itemsize == 4, "no 32-bit unsigned array type"
assert HEADER.size == HEADER_SIZE


class LexiconError(Exception):
    """The lexicon file is missing, truncated, corrupt or of another format."""


_REBUILD = "run `python -m lexicon build` to rebuild it"


def normalise(word: str) -> str:
    """Upper case with accents stripped (``città`` → ``CITTA``); other characters kept."""
    if not word.isascii():
        word = "".join(c for c in unicodedata.normalize("NFD", word) if not unicodedata.combining(c))
    return word.upper()


def letter_indices(word: str) -> list[int] | None:
    """The alphabet indices of a word (normalised first), or None if it has another character."""
    w = normalise(word)
    out = [_INDEX.get(c, -1) for c in w]
    return None if -1 in out else out


class Lexicon:
    """A read-only minimal word automaton (DAWG) over the 21-letter Italian alphabet.

    Nodes are plain ints (see the module docstring); ``root``, ``child``,
    ``is_terminal`` and ``edges`` are the move generator's primitives.
    """

    __slots__ = ("_edges", "_root", "_first", "_first2", "_word_count", "_node_count", "_abbreviations", "size")

    def __init__(self, edges: "array[int]", root: int, word_count: int, node_count: int,
                 abbreviations: dict[str, str], size: int) -> None:
        self._edges = edges
        self._root = root
        self._word_count = word_count
        self._node_count = node_count
        self._abbreviations = abbreviations
        self.size = size
        # Nodes after one and two letters (-1: none), indexed by letter and
        # letter << 5 | letter: small shortcut tables for look-ups.
        self._first = [-1] * 32
        self._first2 = [-1] * 1024
        for a in range(len(ALPHABET)):
            node = self._first[a] = self.child(root, a)
            for b in range(len(ALPHABET)):
                self._first2[a << 5 | b] = self.child(node, b)

    # -- loading -----------------------------------------------------------------

    @classmethod
    def from_bytes(cls, data: bytes) -> "Lexicon":
        """Parse a lexicon file; raise ``LexiconError`` on any inconsistency."""
        view = memoryview(data)
        if len(view) < HEADER_SIZE:
            raise LexiconError(f"lexicon file truncated: {len(view)} bytes, the header alone is {HEADER_SIZE}; {_REBUILD}")
        (magic, version, header_size, word_count, edge_count, node_count, root, abbrev_size,
         crc, alpha_len, alpha) = HEADER.unpack_from(view, 0)
        if magic != MAGIC:
            raise LexiconError(f"not a lexicon file (magic {bytes(magic)!r}, expected {MAGIC!r}); {_REBUILD}")
        if version != FORMAT_VERSION:
            raise LexiconError(f"lexicon format version {version}, this loader reads {FORMAT_VERSION}; {_REBUILD}")
        if header_size != HEADER_SIZE:
            raise LexiconError(f"lexicon header size {header_size}, expected {HEADER_SIZE}; {_REBUILD}")
        expected = HEADER_SIZE + 4 * edge_count + abbrev_size
        if len(view) != expected:
            what = "truncated" if len(view) < expected else "has trailing bytes"
            raise LexiconError(f"lexicon file {what}: {len(view)} bytes, header announces {expected}; {_REBUILD}")
        actual_crc = zlib.crc32(view[CRC_OFFSET + 4:], zlib.crc32(view[:CRC_OFFSET]))
        if actual_crc != crc:
            raise LexiconError(f"lexicon checksum mismatch (file says {crc:08x}, content is {actual_crc:08x}): corrupt file; {_REBUILD}")
        if bytes(alpha[:alpha_len]).decode("ascii", "replace") != ALPHABET:
            raise LexiconError(f"lexicon alphabet {bytes(alpha[:alpha_len])!r} differs from {ALPHABET!r}; {_REBUILD}")
        edges = array(_TYPECODE)
        edges.frombytes(view[HEADER_SIZE:HEADER_SIZE + 4 * edge_count])
        if sys.byteorder == "big":
            edges.byteswap()
        _check_edges(edges, root)
        try:
            table = bytes(view[HEADER_SIZE + 4 * edge_count:]).decode("utf-8")
            abbreviations = parse_abbreviations(table)
        except (UnicodeDecodeError, ValueError) as exc:
            raise LexiconError(f"lexicon abbreviation table unreadable: {exc}; {_REBUILD}") from None
        return cls(edges, root, word_count, node_count, abbreviations, len(view))

    # -- words -------------------------------------------------------------------

    def contains(self, word: str) -> bool:
        """True if ``word`` (any case, accents ignored) is in the lexicon."""
        if not word.isascii():
            word = normalise(word)
            if not word.isascii():
                return False
        # One C call turns the word into letter indices (255: not a letter).
        codes = word.encode("ascii").translate(_CODES)
        if len(codes) < 2:
            node = self._root if not codes else self._first[codes[0]] if codes[0] < 32 else -1
            return node >= 0 and node & 1 == 1
        # The first two letters through a table: the widest nodes are near the root.
        node = self._first2[codes[0] << 5 | codes[1]] if codes[0] < 32 and codes[1] < 32 else -1
        arr = self._edges
        for letter in codes[2:]:
            if node < 0:
                return False
            # The sentinel edge 0 (a leaf's "edges") has letter 31 and the last
            # flag, and 255 is above every letter: both end the scan below.
            i = node >> 1
            e = arr[i]
            el = e & LETTER_MASK
            while el != letter:
                if el > letter or e & LAST_FLAG:
                    return False
                i += 1
                e = arr[i]
                el = e & LETTER_MASK
            node = e >> CHILD_SHIFT
        return node >= 0 and node & 1 == 1

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and self.contains(word)

    def __len__(self) -> int:
        return self._word_count

    def abbreviation(self, word: str) -> str | None:
        """The meaning of an appendix abbreviation (``"TA"`` → ``"Taranto"``), else None."""
        return self._abbreviations.get(normalise(word))

    def is_abbreviation(self, word: str) -> bool:
        return normalise(word) in self._abbreviations

    @property
    def abbreviations(self) -> dict[str, str]:
        """The whole appendix table (a copy), abbreviation → meaning."""
        return dict(self._abbreviations)

    # -- navigation (move generation) ---------------------------------------------

    @property
    def root(self) -> int:
        return self._root

    @property
    def node_count(self) -> int:
        return self._node_count

    @property
    def edge_count(self) -> int:
        return len(self._edges) - 1

    @property
    def edge_array(self) -> "array[int]":
        """The flat edge array itself (the layout in the module docstring), for search code
        that walks the automaton in its own hot loops, like the Scarabeo move generator.
        Read it, never write it: the lexicon shares it."""
        return self._edges

    def child(self, node: int, letter: int) -> int:
        """The node reached from ``node`` by alphabet index ``letter``, or -1."""
        i = node >> 1
        if i == 0 or node < 0 or not 0 <= letter < len(ALPHABET):
            return -1
        arr = self._edges
        while True:
            e = arr[i]
            el = e & LETTER_MASK
            if el == letter:
                return e >> CHILD_SHIFT
            if el > letter or e & LAST_FLAG:
                return -1
            i += 1

    @staticmethod
    def is_terminal(node: int) -> bool:
        """True if a word ends at ``node``."""
        return node >= 0 and node & 1 == 1

    def edges(self, node: int) -> list[tuple[int, int]]:
        """``(letter index, child node)`` for every edge of ``node``, by letter."""
        i = node >> 1
        if i == 0 or node < 0:
            return []
        arr = self._edges
        out: list[tuple[int, int]] = []
        while True:
            e = arr[i]
            out.append((e & LETTER_MASK, e >> CHILD_SHIFT))
            if e & LAST_FLAG:
                return out
            i += 1

    def walk(self, prefix: str, start: int | None = None) -> int:
        """The node reached by reading ``prefix`` from the root (or from node ``start``), or -1."""
        indices = letter_indices(prefix)
        if indices is None:
            return -1
        node = self._root if start is None else start
        for letter in indices:
            node = self.child(node, letter)
            if node < 0:
                return -1
        return node

    def words(self, prefix: str = "") -> Iterator[str]:
        """Every word starting with ``prefix``, in alphabetical order."""
        start = self.walk(prefix)
        if start < 0:
            return
        base = normalise(prefix)
        arr = self._edges
        letters: list[str] = []
        if start & 1:
            yield base
        # Explicit stack of edge positions: no recursion, no per-node objects.
        stack = [start >> 1] if start >> 1 else []
        while stack:
            i = stack[-1]
            e = arr[i]
            child = e >> CHILD_SHIFT
            letters.append(ALPHABET[e & LETTER_MASK])
            if child & 1:
                yield base + "".join(letters)
            if child >> 1:
                stack.append(child >> 1)
                continue
            # No children: advance to the next sibling, popping exhausted nodes.
            while True:
                letters.pop()
                i = stack[-1]
                if arr[i] & LAST_FLAG:
                    stack.pop()
                    if not stack:
                        return
                    continue
                stack[-1] = i + 1
                break

    def verify(self) -> None:
        """Full structural check (letters sorted in each node, counts); raises LexiconError."""
        arr = self._edges
        n = len(arr)
        nodes = 0
        prev_letter = -1
        for i in range(1, n):
            e = arr[i]
            letter = e & LETTER_MASK
            if letter <= prev_letter:
                raise LexiconError(f"lexicon edge {i}: letters out of order; {_REBUILD}")
            target = (e >> CHILD_SHIFT) >> 1
            if target >= i:
                raise LexiconError(f"lexicon edge {i}: child does not precede its parent; {_REBUILD}")
            if target > 1 and not arr[target - 1] & LAST_FLAG:
                raise LexiconError(f"lexicon edge {i}: child is not the start of a node; {_REBUILD}")
            if e & LAST_FLAG:
                nodes += 1
                prev_letter = -1
            else:
                prev_letter = letter
        if nodes + 1 != self._node_count:
            raise LexiconError(f"lexicon has {nodes + 1} nodes, header says {self._node_count}; {_REBUILD}")
        count = sum(1 for _ in self.words())
        if count != self._word_count:
            raise LexiconError(f"lexicon holds {count} words, header says {self._word_count}; {_REBUILD}")


def _check_edges(edges: "array[int]", root: int) -> None:
    """Cheap whole-array checks (C speed) so a bad file cannot index out of range."""
    n = len(edges)
    if n < 1 or edges[0] != SENTINEL:
        raise LexiconError(f"lexicon sentinel edge missing or wrong; {_REBUILD}")
    if not 0 <= root >> 1 < n:
        raise LexiconError(f"lexicon root {root} out of range; {_REBUILD}")
    if n > 1:
        if (max(edges) >> CHILD_SHIFT) >> 1 >= n:
            raise LexiconError(f"lexicon edge points past the end; {_REBUILD}")
        if not edges[-1] & LAST_FLAG:
            raise LexiconError(f"lexicon's last node is not closed; {_REBUILD}")
        low = edges.tobytes()[4::4] if sys.byteorder == "little" else edges.tobytes()[7::4]
        if low.translate(None, _VALID_LOW_BYTES):
            raise LexiconError(f"lexicon has an edge with a letter outside the alphabet; {_REBUILD}")


# Low byte of an edge: 5 letter bits (< 21), the last flag and 2 child bits.
_VALID_LOW_BYTES = bytes(b for b in range(256) if b & LETTER_MASK < len(ALPHABET))


def parse_abbreviations(text: str) -> dict[str, str]:
    """``ABBR\\tmeaning`` lines → dict; blank lines and ``#`` comments ignored."""
    table: dict[str, str] = {}
    for lineno, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        abbr, sep, meaning = line.partition("\t")
        if not sep or not abbr or not meaning.strip():
            raise ValueError(f"abbreviation line {lineno} is not ABBR<TAB>meaning: {line!r}")
        if abbr != normalise(abbr) or letter_indices(abbr) is None:
            raise ValueError(f"abbreviation line {lineno}: {abbr!r} is not upper case over {ALPHABET}")
        if abbr in table:
            raise ValueError(f"abbreviation line {lineno}: {abbr!r} listed twice")
        table[abbr] = meaning.strip()
    return table
