"""Shared fixtures: the built site (built once per session, skipped when up to date)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import settings

# CI draws the same examples every run, so a landing is never blocked by a chance draw; a developer's
# run draws new ones each time (and hypothesis keeps any failure it finds in .hypothesis/ to replay).
# No deadline in CI either: a loaded machine makes any per-example time limit a coin toss.
settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

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
