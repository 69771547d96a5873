"""tools/probe_worker.py (issue 38, step 0): its arguments and its summary, without a browser."""

from __future__ import annotations

import pytest

from tools import probe_worker as probe


def test_defaults() -> None:
    args = probe.parse_args([])
    assert args.runs == 3
    assert args.rates == [1.0, 4.0]
    assert not args.no_frame


def test_rates_and_runs() -> None:
    args = probe.parse_args(["--runs", "5", "--rates", "1, 2,6", "--no-frame"])
    assert (args.runs, args.rates, args.no_frame) == (5, [1.0, 2.0, 6.0], True)


@pytest.mark.parametrize("argv", [["--rates", "x"], ["--rates", "0.5"], ["--runs", "0"], ["--rates", ""]])
def test_bad_arguments(argv: list[str]) -> None:
    with pytest.raises(SystemExit):
        probe.parse_args(argv)


def page_result(pyodide: float, longest: float, ok: bool = True) -> dict[str, object]:
    return {
        "ok": ok,
        "stages": {"loader": 300.0, "pyodide": pyodide, "unpacked": pyodide + 100, "engines": pyodide + 200,
                   "computed": pyodide + 900},
        "longtasks": [{"start": 10.0, "duration": longest}, {"start": 900.0, "duration": 55.0}],
        "maxTimeoutGap": 70.2,
        "maxRafGap": 83.4,
        "out": {"scarabeo_ms": 30.0, "thot_ms": 650.0},
    }


def test_run_figures() -> None:
    fig = probe.run_figures(page_result(7000.0, 61.26))
    assert fig["pyodide"] == 7000.0 and fig["computed"] == 7900.0
    assert fig["longest_task"] == 61.3 and fig["long_tasks"] == 2
    assert fig["thot_ms"] == 650.0 and fig["ok"] is True


def test_run_figures_of_a_failed_run() -> None:
    fig = probe.run_figures({"ok": False, "error": "worker error: boom"})
    assert fig["ok"] is False and fig["error"] == "worker error: boom"
    assert fig["longest_task"] == 0.0 and fig["long_tasks"] == 0 and "pyodide" not in fig


def test_summary_is_the_median_of_the_runs_that_worked() -> None:
    runs = [probe.run_figures(page_result(p, t)) for p, t in ((7000, 60), (9000, 80), (8000, 300))]
    runs.append(probe.run_figures({"ok": False, "error": "no result within 180 s"}))
    s = probe.summarize(runs)
    assert (s["runs"], s["ok"]) == (4, 3)
    assert s["pyodide"] == 8000 and s["longest_task"] == 80 and s["long_tasks"] == 2
    assert s["errors"] == ["no result within 180 s"]
    text = probe.table({"worker 1x": s})
    assert "| worker ready (Pyodide loaded); bare page: its Python ran | 8,000 |" in text
    assert "| runs that worked | 3/4 |" in text
