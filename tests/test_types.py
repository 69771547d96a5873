"""The type checker over the code that promises to be fully typed (pyproject.toml's [tool.mypy]).

mypy keeps its cache in .mypy_cache: the first run on a fresh clone takes about 10 s on a loaded
two-core machine (153 modules, compiled mypy), later runs under half a second.
"""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_mypy_checks_the_engines_the_lexicon_and_the_pages_strictly() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    assert config["strict"] is True
    assert {"game", "lexicon", "web"} <= set(config["files"])


def test_mypy_is_clean() -> None:
    pytest.importorskip("mypy", reason="the test extra is not installed: pip install -e '.[test]'")
    proc = subprocess.run([sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True, text=True,
                          check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.startswith("Success: no issues found"), proc.stdout
