"""The real lexicon for the command lines (``python -m game.scarabeo``, its computer-player and daily
commands): its own module so that those commands share it without importing one another."""

from __future__ import annotations

from game.scarabeo.words import WordList


def load_lexicon(otherwise: str = " or pass --no-check") -> WordList:
    """The real lexicon (``lexicon.load()``); raises RuntimeError saying how to build it (and, for
    the commands that have one, ``otherwise``: the way to do without)."""
    try:
        import lexicon  # noqa: PLC0415 - only the command line touches files

        words: WordList = lexicon.load()
        return words
    except Exception as err:  # ImportError, LexiconError (not built yet) …
        raise RuntimeError(
            f"the lexicon is not available ({err}); build it with 'python -m lexicon build'{otherwise}"
        ) from None
