"""The source list the build writes beside the automaton (``data/it.sources.tsv``), read from its
text: the page fetches it when a word panel opens (issue 40), the command line reads the file."""

from __future__ import annotations

__all__ = ["parse_sources"]


def parse_sources(text: str) -> dict[str, tuple[str, str]]:
    """``WORD<TAB>source<TAB>note`` lines (``#`` comments skipped) as {word: (source, note)}."""
    rows = (line.split("\t", 2) for line in text.splitlines() if line and not line.startswith("#"))
    return {row[0]: (row[1] if len(row) > 1 else "", row[2] if len(row) > 2 else "") for row in rows}
