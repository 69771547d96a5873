"""The measurement behind "DAWG, not GADDAG" for the Scarabeo move generator (docs/scarabeo-ai.md).

    .venv/bin/python tools/gaddag_vs_dawg.py [--sample 0.01] [--seed 1]

Prints JSON: the full lexicon's DAWG (nodes, edges, bytes, load time), the time to enumerate every
word out of it in CPython (a lower bound for building any other automaton in the page, which only
has the DAWG file), the number of GADDAG paths (the sum of the word lengths), and, on a random
sample of the words, the minimal DAWG and the minimal GADDAG built the same way (a trie, then
equal sub-trees merged), so that the ratio of their sizes can be carried to the whole lexicon.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import lexicon  # noqa: E402
from game.core import Rng  # noqa: E402

SEP = "+"


def minimal_nodes(strings: list[str]) -> tuple[int, int]:
    """Nodes and edges of the minimal acyclic automaton of ``strings`` (trie + merging)."""
    trie: dict[str, dict] = {}
    END = "$"
    for s in strings:
        node = trie
        for ch in s:
            node = node.setdefault(ch, {})
        node[END] = {}
    register: dict[tuple, int] = {}
    edges = 0

    def sig(node: dict) -> int:
        nonlocal edges
        key = tuple(sorted((ch, sig(child)) for ch, child in node.items() if ch != END)) + (END in node,)
        got = register.get(key)
        if got is None:
            got = register[key] = len(register)
            edges += len(key) - 1
        return got

    sys.setrecursionlimit(10_000)
    sig(trie)
    return len(register), edges


def gaddag_strings(word: str) -> list[str]:
    """GADDAG paths: for each split, the reversed prefix, the separator, the rest."""
    out = [word[::-1]]
    for i in range(1, len(word)):
        out.append(word[:i][::-1] + SEP + word[i:])
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sample", type=float, default=0.01)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    t0 = time.perf_counter()
    lex = lexicon.load()
    load_s = time.perf_counter() - t0
    rng = Rng(args.seed)
    t0 = time.perf_counter()
    total_len = 0
    count = 0
    sample: list[str] = []
    threshold = int(args.sample * 2**32)
    for w in lex.words():
        count += 1
        total_len += len(w)
        if rng.next64() >> 32 < threshold:
            sample.append(w)
    enum_s = time.perf_counter() - t0
    dawg_n, dawg_e = minimal_nodes(sample)
    g = [s for w in sample for s in gaddag_strings(w)]
    gaddag_n, gaddag_e = minimal_nodes(g)
    print(json.dumps({
        "words": count,
        "dawg_nodes": lex.node_count,
        "dawg_edges": lex.edge_count,
        "dawg_file_bytes": lex.size,
        "dawg_load_s": round(load_s, 3),
        "enumerate_all_words_s": round(enum_s, 1),
        "gaddag_paths": total_len,
        "sample_words": len(sample),
        "sample_dawg": {"nodes": dawg_n, "edges": dawg_e},
        "sample_gaddag": {"nodes": gaddag_n, "edges": gaddag_e},
        "sample_edge_ratio": round(gaddag_e / dawg_e, 1),
    }, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
