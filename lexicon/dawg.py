"""Minimal DAWG construction from sorted words, and serialisation to the lexicon format.

Daciuk et al.'s incremental algorithm for sorted input: only the path of the
last word is unfinished; when the next word diverges, the nodes below the
divergence point are replaced by an equal registered node or registered
themselves. Memory is proportional to the minimal automaton, not the word list.

Build-time code only.
"""

from __future__ import annotations

import struct
import sys
import zlib
from array import array
from typing import Iterable

from .automaton import (ALPHABET, CHILD_SHIFT, CRC_OFFSET, FORMAT_VERSION, HEADER, HEADER_SIZE,
                        LAST_FLAG, MAGIC, SENTINEL)

_INDEX = {ch: i for i, ch in enumerate(ALPHABET)}


class DawgBuilder:
    """Feed words in strictly increasing order, then ``finish()``."""

    def __init__(self) -> None:
        # Registered nodes, in registration order (children before parents).
        # A node is its signature: (terminal, edge codes...), code = child*32 + letter.
        self._register: dict[tuple[int, ...], int] = {}
        self._nodes: list[tuple[int, ...]] = [(1,)]  # node 0: the final state, no edges
        self._register[(1,)] = 0
        # Unfinished path: per depth, [terminal, edge codes...]; depth 0 is the root.
        self._path: list[list[int]] = [[0]]
        self._previous = ""
        self.word_count = 0

    def add(self, word: str) -> None:
        prev = self._previous
        if not word:
            raise ValueError("the empty word cannot be added")
        if word <= prev and self.word_count:
            raise ValueError(f"words must be added in increasing order: {word!r} after {prev!r}")
        common = 0
        limit = min(len(word), len(prev))
        while common < limit and word[common] == prev[common]:
            common += 1
        self._close_to(common)
        path = self._path
        index = _INDEX
        for ch in word[common:]:
            if ch not in index:
                raise ValueError(f"{word!r}: letter {ch!r} is not in the alphabet {ALPHABET}")
            path.append([0])
        path[-1][0] = 1
        self._previous = word
        self.word_count += 1

    def _close_to(self, depth: int) -> None:
        """Register every unfinished node deeper than ``depth``, linking it to its parent."""
        path = self._path
        prev = self._previous
        register = self._register
        nodes = self._nodes
        index = _INDEX
        while len(path) > depth + 1:
            signature = tuple(path.pop())
            node = register.get(signature)
            if node is None:
                node = register[signature] = len(nodes)
                nodes.append(signature)
            path[-1].append(node * 32 + index[prev[len(path) - 1]])

    def finish(self) -> tuple[list[tuple[int, ...]], int]:
        """Close the automaton: ``(nodes, root)``; node 0 is the final state."""
        self._close_to(0)
        root_sig = tuple(self._path[0])
        # The root is kept apart from the register: it is never a child, and an
        # empty lexicon's root (no edges, not terminal) must not be confused with node 0.
        self._nodes.append(root_sig)
        return self._nodes, len(self._nodes) - 1


def build_dawg(words: Iterable[str]) -> tuple[list[tuple[int, ...]], int, int]:
    """Nodes, root and word count of the minimal automaton of sorted ``words``."""
    builder = DawgBuilder()
    for w in words:
        builder.add(w)
    nodes, root = builder.finish()
    return nodes, root, builder.word_count


def serialise(nodes: list[tuple[int, ...]], root: int, word_count: int, abbreviations: dict[str, str]) -> bytes:
    """The lexicon file bytes (format documented in ``automaton.py``)."""
    # Each node's edges are laid out in registration order, which puts every
    # child before its parents. Node 0 (final state) has no edges: id 0 | 1.
    first_edge = [0] * len(nodes)
    position = 1  # edge 0 is the sentinel
    for n, sig in enumerate(nodes):
        if len(sig) > 1:
            first_edge[n] = position
            position += len(sig) - 1
        elif n != 0 and n != root:
            raise AssertionError("only the final state and an empty root have no edges")

    def node_id(n: int) -> int:
        return first_edge[n] << 1 | nodes[n][0]

    edges = array("I" if array("I").itemsize == 4 else "L", [SENTINEL])
    for sig in nodes:
        codes = sig[1:]
        for k, code in enumerate(codes):
            child, letter = divmod(code, 32)
            e = letter | node_id(child) << CHILD_SHIFT
            if k == len(codes) - 1:
                e |= LAST_FLAG
            edges.append(e)
    if len(edges) >= 1 << (31 - CHILD_SHIFT):
        raise ValueError("automaton too large for 26-bit node ids")
    if sys.byteorder == "big":
        edges.byteswap()
    table = "".join(f"{a}\t{m}\n" for a, m in sorted(abbreviations.items())).encode("utf-8")
    alphabet = ALPHABET.encode("ascii")
    header = HEADER.pack(MAGIC, FORMAT_VERSION, HEADER_SIZE, word_count, len(edges),
                         1 + sum(1 for sig in nodes if len(sig) > 1),
                         node_id(root), len(table), 0, len(alphabet), alphabet)
    body = header + edges.tobytes() + table
    crc = zlib.crc32(body[CRC_OFFSET + 4:], zlib.crc32(body[:CRC_OFFSET]))
    return body[:CRC_OFFSET] + struct.pack("<I", crc) + body[CRC_OFFSET + 4:]
