"""Where the e2e tests' Python time goes inside the page: a pytest plugin that profiles the page's
Python (CPython's ``_lsprof``, built into Pyodide) during each e2e test, and a summary of the results.

    .venv/bin/python -m pytest -p no:xdist -p tools.profile_e2e tests/e2e/test_scarabeo.py
    .venv/bin/python tools/profile_e2e.py [--top 40]        # the summary of what the run wrote

Every page a test opens with ``open_site`` is profiled from that moment until the test ends (a page
loaded again later, by a reload or a link that is a new document, starts a new interpreter: its Python
is not counted). Each test writes ``<test id>.prof.json`` (function, calls, cumulative seconds, inline
seconds) into ``$SCARAB_PROFILE_DIR`` (``tests/e2e/profiles/``). The profiler makes the page's Python
about 1.5× slower: compare functions with each other, not the run's times with another run's.

Why a plugin and not a bench: the question is which of the app's own functions the tests keep the
browser busy with (it found the computer's tiles busy-waiting, and a remote game decoded afresh on
every opening), and that needs the tests' own paths through the app.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
from pathlib import Path
from typing import Any, Iterator

import pytest

ROOT = Path(__file__).resolve().parent.parent
OUT = Path(os.environ.get("SCARAB_PROFILE_DIR", ROOT / "tests" / "e2e" / "profiles"))

START = """
import sys, _lsprof
if not hasattr(sys, "_e2e_profiler"):
    sys._e2e_profiler = _lsprof.Profiler()
    sys._e2e_profiler.enable()
"""

STOP = """
import sys, json
_p = sys._e2e_profiler
_p.disable()
del sys._e2e_profiler
_rows = []
for _e in _p.getstats():
    _c = _e.code
    _name = _c if isinstance(_c, str) else f"{_c.co_filename.split('/')[-1]}:{_c.co_firstlineno}:{_c.co_name}"
    _rows.append((_name, _e.callcount, _e.totaltime, _e.inlinetime))
json.dumps(_rows)
"""


@pytest.fixture(autouse=True)
def _profile_the_page(request: Any) -> Iterator[None]:
    if "open_site" not in request.fixturenames:
        yield
        return
    from tests.e2e.conftest import RUN_PYTHON

    opened = request.getfixturevalue("open_site")
    pages: list[Any] = []

    def go(page: Any, route: str = "") -> Any:
        done = opened(page, route)
        page.evaluate(RUN_PYTHON, START)
        if page not in pages:
            pages.append(page)
        return done

    # the test receives this wrapper in place of the fixture's own function
    request.node.funcargs["open_site"] = go
    yield
    rows: dict[str, list[float]] = collections.defaultdict(lambda: [0, 0.0, 0.0])
    for page in pages:
        try:
            found = json.loads(page.evaluate(RUN_PYTHON, STOP))
        except Exception:  # the page was closed or loaded again: its interpreter is gone
            continue
        for name, calls, total, inline in found:
            row = rows[name]
            row[0] += calls
            row[1] += total
            row[2] += inline
    OUT.mkdir(parents=True, exist_ok=True)
    name = request.node.nodeid.replace("/", "_").replace(":", "_")[:150]
    (OUT / f"{name}.prof.json").write_text(json.dumps([[n, *v] for n, v in rows.items()]))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Summarise the profiles an e2e run wrote.")
    parser.add_argument("--dir", type=Path, default=OUT)
    parser.add_argument("--top", type=int, default=40)
    args = parser.parse_args(argv)
    total: dict[str, list[float]] = collections.defaultdict(lambda: [0, 0.0, 0.0])
    by_file: collections.Counter[str] = collections.Counter()
    files = sorted(args.dir.glob("*.prof.json"))
    for path in files:
        for name, calls, cumulative, inline in json.loads(path.read_text()):
            row = total[name]
            row[0] += calls
            row[1] += cumulative
            row[2] += inline
            by_file[path.name.split("__")[0]] += inline
    print(f"{len(files)} tests profiled, {sum(by_file.values()):.1f} s of Python in their pages")
    print("by test file (seconds):")
    for name, seconds in by_file.most_common():
        print(f"  {seconds:8.1f}  {name}")
    for title, key in (("by cumulative time", 1), ("by inline time", 2)):
        print(f"{title} (cumulative s, inline s, calls, function):")
        for name, row in sorted(total.items(), key=lambda kv: -kv[1][key])[:args.top]:
            print(f"  {row[1]:8.1f} {row[2]:8.1f} {int(row[0]):10d}  {name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
