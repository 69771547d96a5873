"""Shared fixtures: the real lexicon, built once per session if missing or stale (~16 s)."""

from __future__ import annotations

import pytest

import lexicon
from lexicon.build import ensure_built


@pytest.fixture(scope="session")
def built() -> dict:
    """Build data/it.dawg unless the stamp says it is current; the stamp info."""
    return ensure_built()


@pytest.fixture(scope="session")
def lex(built: dict) -> lexicon.Lexicon:
    return lexicon.load()
