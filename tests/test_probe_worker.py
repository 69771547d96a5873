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


def test_csp_and_storage_cases_are_off_by_default_and_follow_the_rates() -> None:
    args = probe.parse_args([])
    assert not args.csp and not args.storage_refused
    assert probe.extra_cases(args) == []
    args = probe.parse_args(["--rates", "1,4", "--csp", "--storage-refused"])
    assert probe.extra_cases(args) == [
        ("worker 1x, site CSP", 1.0, "csp-site"), ("worker 1x, CSP without 'unsafe-eval'", 1.0, "csp-no-unsafe-eval"),
        ("worker 1x, framed, storage refused", 1.0, "framed-refused"),
        ("worker 4x, site CSP", 4.0, "csp-site"), ("worker 4x, CSP without 'unsafe-eval'", 4.0, "csp-no-unsafe-eval"),
        ("worker 4x, framed, storage refused", 4.0, "framed-refused")]


def test_case_urls() -> None:
    assert probe.case_url("worker", 8) == "http://127.0.0.1:8/probe/index.html"
    assert probe.case_url("framed", 8) == "http://127.0.0.1:8/probe/frame.html#http://localhost:8/probe/index.html"
    assert probe.case_url("framed-refused", 8).endswith("#http://localhost:8/probe/index.html?storage=refused")
    assert probe.case_url("csp-no-unsafe-eval", 8) == ("http://127.0.0.1:8/probe/csp-no-unsafe-eval.html"
                                                        "?csp=no-unsafe-eval")
    assert probe.case_url("bare", 8) == "http://127.0.0.1:8/bare.html"


def test_the_policies_are_the_sites() -> None:
    policy = probe.site_policy((probe.ROOT / "index.html").read_text(encoding="utf-8"))
    assert "script-src 'self' 'unsafe-eval' 'wasm-unsafe-eval'" in policy and "worker-src 'self' blob:" in policy
    assert probe.policy_variant(policy, "site") == policy
    strict = probe.policy_variant(policy, "no-unsafe-eval")
    assert "'unsafe-eval'" not in strict and "script-src 'self' 'wasm-unsafe-eval';" in strict
    assert strict.replace("script-src 'self'", "script-src 'self' 'unsafe-eval'") == policy
    with pytest.raises(SystemExit):
        probe.site_policy("<html><head></head></html>")
    page = (probe.PROBE / "index.html").read_text(encoding="utf-8")
    with_meta = probe.page_with_policy(page, strict)
    assert f'<meta http-equiv="Content-Security-Policy" content="{strict}">' in with_meta
    assert with_meta.index("Content-Security-Policy") < with_meta.index("<script")


def test_the_worker_alone_gets_the_policy_as_a_header() -> None:
    policy = "default-src 'self'; script-src 'self' 'unsafe-eval' 'wasm-unsafe-eval'"
    assert probe.worker_policy("/probe/worker.js?csp=site", policy) == policy
    assert probe.worker_policy("/probe/worker.js?csp=no-unsafe-eval", policy) == (
        "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'")
    assert probe.worker_policy("/probe/worker.js", policy) is None
    assert probe.worker_policy("/probe/worker.js?storage=refused", policy) is None
    assert probe.worker_policy("/probe/worker.js?csp=bogus", policy) is None
    assert probe.worker_policy("/probe/csp-site.html?csp=site", policy) is None
    assert probe.worker_policy("/probe/worker.js?csp=site", None) is None


def test_run_figures_keep_the_checks() -> None:
    result = page_result(7000.0, 10.0)
    result.update(pageIndexedDB="SecurityError", pageEval="allowed", workerIndexedDB="SecurityError",
                  workerEval="EvalError", storageTouched=[], violations=["page: script-src eval"])
    fig = probe.run_figures(result)
    assert (fig["page_indexeddb"], fig["worker_indexeddb"], fig["worker_eval"]) == ("SecurityError",) * 2 + (
        "EvalError",)
    assert "storage_touched" not in fig and fig["violations"] == ["page: script-src eval"]
    assert probe.run_figures({**result, "storageTouched": ["indexedDB"]})["storage_touched"] == ["indexedDB"]
