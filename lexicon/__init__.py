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
import stat

from .automaton import ALPHABET, Lexicon, LexiconError, normalise

__all__ = ["ALPHABET", "DEFAULT_PATH", "MAX_FILE_BYTES", "Lexicon", "LexiconError", "load", "normalise",
           "read_file"]

DEFAULT_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "it.dawg")


#: The built automaton is 0.6 MB; anything far larger is not a lexicon (and /dev/zero never ends).
MAX_FILE_BYTES = 64 * 1024 * 1024


def read_file(path: str | None = None) -> bytes:
    """The bytes of a lexicon file, read only from a regular file of bounded size: a FIFO, a
    device or a folder is refused at once (the open does not block, the type is checked on the
    open file) instead of waiting for a writer or reading without end."""
    target = DEFAULT_PATH if path is None else os.fspath(path)
    try:
        fd = os.open(target, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise LexiconError(f"lexicon file {target} not found; run `python -m lexicon build` to build it") from None
    except OSError as exc:
        raise LexiconError(f"lexicon file {target} unreadable ({exc.strerror or exc}); "
                           "run `python -m lexicon build`") from None
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        raise LexiconError(f"lexicon file {target} is not a regular file")
    with os.fdopen(fd, "rb") as f:
        if info.st_size > MAX_FILE_BYTES:
            raise LexiconError(f"lexicon file {target} is too large ({info.st_size} bytes, "
                               f"at most {MAX_FILE_BYTES})")
        data = f.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise LexiconError(f"lexicon file {target} is too large (over {MAX_FILE_BYTES} bytes)")
    return data


def load(path: str | None = None) -> Lexicon:
    """Read a lexicon file (default: the built ``lexicon/data/it.dawg``)."""
    return Lexicon.from_bytes(read_file(path))
