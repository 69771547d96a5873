"""tools/bench_patch.py (issue 38, step 1): the page it builds, its patches and its summary, without a
browser."""

from __future__ import annotations

import json
import sys
from typing import Any

import pytest

from game.scarabeo.board import LAYOUT, SQUARES, square_name
from tools import bench_patch as bench
from tools import probe_worker


@pytest.fixture(scope="module")
def page() -> bench.ScarabeoPage:
    return bench.page_for("scarabeo", 1, bench.catalogue())


def test_defaults_and_arguments() -> None:
    args = bench.parse_args([])
    assert (args.runs, args.rates, args.updates, args.cases, args.split, args.host) == (
        5, [1.0, 4.0], 3, ["scarabeo", "late"], 6, "site")
    assert (args.pyodide, args.repeat, args.no_browser) == (False, 20, False)
    args = bench.parse_args(["--runs", "2", "--rates", "1, 6", "--cases", "late", "--no-browser"])
    assert (args.runs, args.rates, args.cases, args.no_browser) == (2, [1.0, 6.0], ["late"], True)
    args = bench.parse_args(["--pyodide", "--runs", "5", "--repeat", "25"])
    assert (args.pyodide, args.runs, args.repeat, args.rates) == (True, 5, 25, [1.0, 4.0])


@pytest.mark.parametrize("argv", [["--rates", "x"], ["--rates", "0.5"], ["--rates", ""], ["--runs", "0"],
                                  ["--cases", "thot"], ["--updates", "0"], ["--split", "18"], ["--host", "blank"]])
def test_bad_arguments(argv: list[str]) -> None:
    with pytest.raises(SystemExit):
        bench.parse_args(argv)


def test_the_page_is_a_real_position_on_the_real_board(page: bench.ScarabeoPage) -> None:
    node = page.render()
    cells = [n for n in node.walk() if n.attrs.get("role") == "gridcell"]
    assert len(cells) == SQUARES and len({c.attrs["id"] for c in cells}) == SQUARES
    assert [c.key for c in cells] == list(range(SQUARES))
    assert sum(1 for x in page.pos.state.board if x) >= 40
    flat = "".join(LAYOUT)
    for cell, prem in zip(cells, flat):
        assert (f" p-{prem}" in cell.attrs["class"]) == (prem != ".")
    h8 = cells[7 * 17 + 7]
    assert h8.attrs["id"] == "sq-H8" and h8.attrs["data-sq"] == "126"
    assert [c.attrs["tabindex"] for c in cells].count("0") == 1
    # an empty premium square shows its label, a tile its letter, a space and its value
    empty_premium = next(c for c, p in zip(cells, flat) if p == "W" and "tile" not in c.attrs["class"])
    assert [(s.attrs["class"], s.text) for s in empty_premium.children if not isinstance(s, str)] == [("pl", "3P")]
    tile = next(c for c in cells if "tile" in c.attrs["class"] and "scarab" not in c.attrs["class"])
    assert [c if isinstance(c, str) else c.attrs["class"] for c in tile.children][:2] == ["l", " "]
    assert "point" in tile.attrs["aria-label"]
    assert len(node.find("sc-rack").children) == 8  # type: ignore[union-attr]
    assert len(node.find("sc-sheet").children[1].children) == len(page.rows) >= 10  # type: ignore[union-attr]


def test_counts_and_patches(page: bench.ScarabeoPage) -> None:
    pat = bench.patches(bench.ScarabeoPage(page.pos, page.t), 2)
    elements, texts = bench.count_nodes(page.render())
    assert (pat.elements, pat.texts) == (elements, texts)
    assert 600 < elements < 1500 and texts > 300
    first = json.loads(pat.first)
    assert list(first) == ["ops"] and len(first["ops"]) == 1
    op = first["ops"][0]
    assert op[:4] == ["+", 1, None, 2] and op[4][0] == "section"

    def wire_count(node: Any) -> int:
        return 1 if isinstance(node, str) else 1 + sum(wire_count(c) for c in node[2])

    assert wire_count(op[4]) == elements + texts
    assert pat.squares_changed == 5
    laid, back = (json.loads(u)["ops"] for u in pat.updates)
    assert {o[0] for o in laid} >= {"+", "-", "a"} and 10 < len(laid) < 100
    assert pat.update_ops == [len(laid), len(back)]
    placed = [f"sq-{square_name(sq)}" for sq in page.pos.placed]
    assert len(placed) == 5 and all(len(u) < len(pat.first) / 10 for u in pat.updates)
    clear, again = (json.loads(x)["ops"] for x in pat.redraw)
    assert clear == [["-", 2]] and len(again) == 1 and again[0][:3] == ["+", 1, None] and again[0][3] > 2
    assert wire_count(again[0][4]) == elements + texts


def test_python_times_are_medians_of_each_part(page: bench.ScarabeoPage) -> None:
    times = bench.python_times("scarabeo", 1, page.t, 2)
    assert set(times) == {f"{p}_{k}" for p in ("first", "update") for k in ("build", "diff", "encode", "total")}
    assert all(v > 0 for v in times.values())


def test_host_pages_have_the_sites_policy_and_stylesheets() -> None:
    index = (bench.ROOT / "index.html").read_text(encoding="utf-8")
    for host in bench.HOSTS:
        html = bench.host_html(index, host)
        assert f'content="{probe_worker.site_policy(index)}"' in html
        assert '<link rel="stylesheet" href="./web/style.css">' in html
        assert '<script src="./web/shell/patch.js"></script></head>' in html and html.count("<script") == 1
    assert bench.host_html(index, "empty").endswith('<body><main id="app" tabindex="-1"></main></body></html>')
    site = bench.host_html(index, "site")
    assert '<header class="topbar">' in site and 'class="chooser"' in site and 'id="app"' in site
    with pytest.raises(SystemExit):
        bench.host_html(index.replace('rel="stylesheet"', 'rel="x"'))


def run(apply: float, layout: float, longest: float, ok: bool = True) -> dict[str, Any]:
    sample = {"apply": apply, "layout": layout, "frame": layout + 10, "rafGap": layout, "longest": longest}
    update = {**sample, "apply": 1.0, "layout": 5.0, "longest": 0}
    return {"ok": ok, "loop": apply / 2, "first": sample, "updates": [update] * 2,
            "redraw": {**sample, "layout": layout / 2}}


def test_summary_and_tables() -> None:
    s = bench.summarize([run(40, 100, 101), run(60, 140, 141), run(50, 120, 121),
                         {"ok": False, "errors": ["TimeoutError: no page"]}])
    assert (s["runs"], s["ok"]) == (4, 3)
    assert (s["first_apply"], s["first_layout"], s["first_longest"], s["first_max_layout"]) == (50, 120, 121, 140)
    assert (s["update_apply"], s["update_layout"], s["update_samples"]) == (1, 5, 6)
    assert s["errors"] == ["TimeoutError: no page"] and s["redraw_layout"] == 60
    text = bench.page_table({"scarabeo 1x": s})
    assert "| first patch: apply + forced layout | 120.0 |" in text
    assert "| first patch: apply + layout, worst run | 140.0 |" in text
    assert "| runs that worked | 3/4 |" in text
    assert "| a fixed JS loop before (3M iterations): the throttle's check | 25.0 |" in text
    rows = bench.python_table({"scarabeo": {"elements": 1234, "first_bytes": 64272, "first_diff": 5.8}})
    assert "| elements | 1,234 |" in rows and "| first patch, bytes (UTF-8) | 64,272 |" in rows
    assert "| CPython: first render, `Tree.update` (ms) | 5.8 |" in rows and "| text nodes | — |" in rows


def test_the_split_first_draw_adds_the_squares_in_steps(page: bench.ScarabeoPage) -> None:
    pat = bench.patches(bench.ScarabeoPage(page.pos, page.t), 1, split=6)
    steps = [json.loads(x)["ops"] for x in pat.split]
    assert len(steps) == 4 and len(steps[0]) == 1 and [len(s) for s in steps[1:]] == [6, 6, 5]
    assert all(op[0] == "+" and op[4][1] == {"role": "row", "class": "sc-row"} for s in steps[1:] for op in s)

    def elements(node: Any) -> int:
        return 0 if isinstance(node, str) else 1 + sum(elements(c) for c in node[2])

    assert elements(steps[0][0][4]) == pat.split_elements < pat.elements - 289
    assert sum(elements(op[4]) for s in steps for op in s) == pat.elements
    assert bench.patches(bench.ScarabeoPage(page.pos, page.t), 1, split=0).split == []


def test_split_summary_and_table() -> None:
    s = bench.summarize([run(40, 30, 0), run(60, 50, 0), run(50, 40, 0)])
    # per run: the steps' layouts are 30/5/5, 50/5/5, 40/5/5
    assert (s["steps_max_layout"], s["steps_sum_layout"], s["steps_max_longest"]) == (40, 50, 0)
    text = bench.split_table({"scarabeo 4x split": s}, 6)
    assert "| page without the squares: apply + forced layout | 40.0 |" in text
    assert "| a step of 6 rows of squares: apply + forced layout | 5.0 |" in text
    assert "| all the steps of a run: apply + forced layout, summed | 50.0 |" in text


def run_python(code: str, namespace: dict[str, Any]) -> Any:
    """What Pyodide's ``runPython`` does with the code: run it, the value of its last line returned."""
    *body, last = code.rstrip("\n").split("\n")
    exec("\n".join(body), namespace)
    return eval(last, namespace)


def test_the_worker_code_builds_cpythons_page(page: bench.ScarabeoPage, monkeypatch: pytest.MonkeyPatch) -> None:
    # what --pyodide sends the worker, run here: this file's source made a module, the catalogue given
    monkeypatch.setattr(sys, "path", list(sys.path))
    setup = bench.worker_setup((bench.ROOT / "tools" / "bench_patch.py").read_text(encoding="utf-8"),
                               page.t.catalogue)
    namespace: dict[str, Any] = {}
    try:
        assert set(json.loads(run_python(setup, namespace))) == {"setup_ms"}
        module = sys.modules[bench.WORKER_MODULE]
        assert module is not bench and module.__file__ == "/home/pyodide/tools/bench_patch.py"
        out = json.loads(run_python(bench.worker_job("scarabeo", 1, 2), namespace))
    finally:
        sys.modules.pop(bench.WORKER_MODULE, None)
    pat = bench.patches(bench.ScarabeoPage(page.pos, page.t), 1, 0)
    assert (out["elements"], out["first_bytes"]) == (pat.elements, len(pat.first.encode()))
    assert set(out) == {"elements", "first_bytes", "loop"} | {f"{p}_{k}" for p in ("first", "update")
                                                              for k in ("build", "diff", "encode", "total")}
    assert all(v > 0 for v in out.values())


def worker_fig(total: float, ok: bool = True) -> dict[str, Any]:
    case = {"elements": 761, "first_bytes": 64272, "loop": total / 2, "first_build": total / 2,
            "first_diff": total / 4, "first_encode": total / 4, "first_total": total, "update_build": 2.0,
            "update_diff": 1.0, "update_encode": 0.1, "update_total": 3.1}
    return {"ok": ok, "loop_page": 25.0, "ready": 5000.0, "computed": 6000.0, "scarabeo_moves": 22.0,
            "setup_ms": 800.0, **{f"scarabeo_{k}": v for k, v in case.items()}}


def test_worker_summary_and_table() -> None:
    s = bench.summarize_worker([worker_fig(40), worker_fig(60), worker_fig(50),
                                {"ok": False, "errors": ["setup: PythonError"]}])
    assert (s["runs"], s["ok"], s["errors"]) == (4, 3, ["setup: PythonError"])
    assert (s["scarabeo_first_total"], s["scarabeo_first_total_range"]) == (50, [40, 60])
    assert s["scarabeo_update_total"] == 3.1
    assert (s["loop_page"], s["ready"], s["scarabeo_loop"]) == (25, 5000, 25)
    cpython = {"scarabeo": {"first_build": 8.6, "first_total": 16.0, "update_total": 6.0, "loop": 24.0}}
    text = bench.worker_table(cpython, {"1x": s, "4x": bench.summarize_worker([worker_fig(200)])})
    assert text.startswith("| median, ms | scarabeo CPython | scarabeo Pyodide 1x | scarabeo Pyodide 4x |")
    assert "| **first render: the three** | 16.0 | 50.0 | 200.0 |" in text
    assert "| first render: the three, range of the runs | — | 40.0–60.0 | 200.0–200.0 |" in text
    assert "| **update: the three** | 6.0 | 3.1 | 3.1 |" in text
    loop = f"| a fixed Python loop ({bench.LOOP:,} iterations): the throttle's check where Python runs |"
    assert f"{loop} 24.0 | 25.0 |" in text
    assert "| the page's fixed JS loop (3M iterations): the main thread's throttle | — | 25.0 | 25.0 |" in text
    assert "| runs that worked | — | 3/4 | 1/1 |" in text
    lines = text.splitlines()
    assert lines.index("| **first render: the three** | 16.0 | 50.0 | 200.0 |") < lines.index(
        "| first render: the three, range of the runs | — | 40.0–60.0 | 200.0–200.0 |") < [
        i for i, line in enumerate(lines) if line.startswith("| update (5 tiles laid): build")][0]
