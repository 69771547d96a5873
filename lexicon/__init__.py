"""The Italian lexicon of Scarabeo: a minimal word automaton (DAWG) and its loader.

Browser-safe: importing the package loads only ``automaton.py`` (pure Python,
standard library). The build lives in ``build.py`` and friends and is never
imported from here.

    >>> import lexicon
    >>> lex = lexicon.load()            # data/it.dawg, built by `python -m lexicon build`
    >>> "città" in lex, lex.abbreviation("TA")
    (True, 'Taranto')
"""

from __future__ import annotations

import os

from .automaton import ALPHABET, Lexicon, LexiconError, normalise

__all__ = ["ALPHABET", "DEFAULT_PATH", "Lexicon", "LexiconError", "load", "normalise"]

DEFAULT_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "it.dawg")


def load(path: str | None = None) -> Lexicon:
    """Read a lexicon file (default: the built ``lexicon/data/it.dawg``)."""
    target = DEFAULT_PATH if path is None else os.fspath(path)
    try:
        with open(target, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        raise LexiconError(f"lexicon file {target} not found; run `python -m lexicon build` to build it") from None
    except OSError as exc:
        raise LexiconError(f"lexicon file {target} unreadable ({exc}); run `python -m lexicon build`") from None
    return Lexicon.from_bytes(data)
