"""Shared fixtures: the built site (built once per session, skipped when up to date)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

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

#: How the e2e harness (tests/e2e/conftest.py) came by its pages. Under xdist each worker counts its
#: own and hands them over when it ends; the controller, which collects no e2e test and so never loads
#: that conftest, adds them up and prints them.
E2E_STATS: Counter[str] = Counter()
#: Prefix of E2E_STATS's per-file counts of Pyodide boots.
BOOTS_IN = "boots in "


def pytest_sessionfinish(session: pytest.Session) -> None:
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:
        workeroutput["e2e_stats"] = dict(E2E_STATS)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: Any) -> None:
    E2E_STATS.update(getattr(node, "workeroutput", {}).get("e2e_stats", {}))


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if E2E_STATS and getattr(terminalreporter.config, "workeroutput", None) is None:
        terminalreporter.write_sep("-", "e2e pages")
        by_file = sorted(((n, name[len(BOOTS_IN):]) for name, n in E2E_STATS.items() if name.startswith(BOOTS_IN)),
                         reverse=True)
        for name, n in sorted(E2E_STATS.items()):
            if not name.startswith(BOOTS_IN):
                terminalreporter.write_line(f"{name}: {n}")
        # where the boots are (the suite's biggest cost): the files that boot most
        terminalreporter.write_line("boots by file: " + ", ".join(f"{path.split('/')[-1]} {n}" for n, path in by_file[:12]))


@pytest.fixture(scope="session")
def built_site() -> Path:
    """dist/, brought up to date the way serve.py does (npm ci if needed, lexicon, build)."""
    import serve

    try:
        serve.setup()
    except serve.SetupError as err:
        pytest.fail(f"cannot set up the site: {err}")
    return ROOT / "dist"
