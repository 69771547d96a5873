"""Shared fixtures: the built site (built once per session, skipped when up to date)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


@pytest.fixture(scope="session")
def built_site() -> Path:
    """dist/, brought up to date the way serve.py does (npm ci if needed, lexicon, build)."""
    import serve

    try:
        serve.setup()
    except serve.SetupError as err:
        pytest.fail(f"cannot set up the site: {err}")
    return ROOT / "dist"
