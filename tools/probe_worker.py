"""Issue 38, step 0: does our own module worker start the vendored Pyodide with the site's app.zip,
with no COOP/COEP headers, and what does the main thread do meanwhile?

A probe, never shipped: the page and the worker live in ``tools/probe_worker/``. This copies ``dist/``
(built with ``serve.py --setup-only`` if missing) to a temporary folder, adds the probe under ``probe/``,
serves the copy with ``serve.py``'s handler (no COOP/COEP) on 127.0.0.1 and drives headless Chromium
(Debian's, every non-local request aborted). Each run is a fresh context (a cold visit): the page starts
a long-task observer and a setTimeout/requestAnimationFrame heartbeat, then the worker, which loads
Pyodide, unpacks app.zip, imports ``game.scarabeo`` and ``game.thot``, plays 20 random Scarabeo moves and
one Thot move at the top level (1 s budget), and posts its timings.

    .venv/bin/python tools/probe_worker.py --runs 3 [--rates 1,4] [--no-frame] [--json FILE]
        [--csp] [--storage-refused]

``--csp`` adds two cases: the probe page with the site's own ``<meta http-equiv="Content-Security-Policy">``
(read from ``index.html``) and with that policy less ``'unsafe-eval'``; as a worker loaded from a URL does not
inherit the page's meta policy, the server also sends the same policy as a ``Content-Security-Policy`` header
with ``worker.js`` in those cases. ``--storage-refused`` adds the framed case with storage refused, as the
site's embed tests do (tests/e2e/test_trust.py: ``localStorage``, ``indexedDB`` and ``serviceWorker`` throw in
the frame), and ``indexedDB`` and ``caches`` refused in the worker too. Every run counts the worker's touches of
``indexedDB`` and ``caches``.

Prints the load average before and after, one line per run, a JSON summary (medians) and a table.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PROBE = Path(__file__).resolve().parent / "probe_worker"
sys.path.insert(0, str(ROOT))

import serve  # noqa: E402

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run", "--disable-quic"]
LOCAL = ("http://127.0.0.1:", "http://localhost:", "blob:", "data:")
#: The figures of one run, in the order of the table (ms from navigation start, but counts).
METRICS = ("loader", "pyodide", "unpacked", "engines", "computed", "longest_task", "long_tasks",
           "max_timeout_gap", "max_raf_gap", "scarabeo_ms", "thot_ms")
LABELS = {
    "loader": "pyodide.mjs imported",
    "pyodide": "worker ready (Pyodide loaded); bare page: its Python ran",
    "unpacked": "app.zip unpacked",
    "engines": "engines imported",
    "computed": "first computation done",
    "longest_task": "longest main-thread task",
    "long_tasks": "long tasks (> 50 ms), count",
    "max_timeout_gap": "longest setTimeout(10) gap",
    "max_raf_gap": "longest frame gap (rAF)",
    "scarabeo_ms": "20 random Scarabeo moves (in worker)",
    "thot_ms": "one Thot move, top level (in worker)",
}


def browser_args(p: argparse.ArgumentParser, timeout: float, timeout_help: str, json_help: str) -> None:
    """The options every browser bench here shares: the site, the browser, patience, where figures go."""
    p.add_argument("--dist", type=Path, default=serve.DIST, help="the built site (default dist/)")
    p.add_argument("--chromium", default="/usr/bin/chromium")
    p.add_argument("--timeout", type=float, default=timeout, help=timeout_help)
    p.add_argument("--json", type=Path, help=json_help)


def arg_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--runs", type=int, default=3, help="cold runs per CPU rate (default 3)")
    p.add_argument("--rates", default="1,4", help="CPU throttling rates, comma-separated (default 1,4)")
    p.add_argument("--no-frame", action="store_true", help="skip the run framed from another origin")
    p.add_argument("--no-bare", action="store_true",
                   help="skip the baseline: bench_startup.py's bare PyScript page, Pyodide on the main thread")
    browser_args(p, 180.0, "seconds per run before giving up", "also write the summary here")
    p.add_argument("--csp", action="store_true",
                   help="add the cases with the site's CSP (page meta and worker header) and without 'unsafe-eval'")
    p.add_argument("--storage-refused", action="store_true",
                   help="add the case framed cross-origin with storage refused in the frame and in the worker")
    return p


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    args = arg_parser().parse_args(argv)
    try:
        args.rates = [float(r) for r in str(args.rates).split(",") if r.strip()]
    except ValueError:
        arg_parser().error(f"--rates: numbers separated by commas, not {args.rates!r}")
    if not args.rates or any(r < 1 for r in args.rates):
        arg_parser().error("--rates: each rate at least 1")
    if args.runs < 1:
        arg_parser().error("--runs: at least 1")
    return args


#: The CSP variants of --csp: the name in the page's query (?csp=NAME) and what it does to the site's policy.
CSP_VARIANTS = ("site", "no-unsafe-eval")


def site_policy(index_html: str) -> str:
    """The policy of the site's ``<meta http-equiv="Content-Security-Policy">``."""
    m = re.search(r'<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]+)"', index_html)
    if not m:
        raise SystemExit("index.html carries no Content-Security-Policy meta")
    return m.group(1)


def policy_variant(policy: str, variant: str) -> str:
    """The site's policy (``site``) or that policy less ``'unsafe-eval'`` (``no-unsafe-eval``), which keeps
    ``'wasm-unsafe-eval'``."""
    if variant == "site":
        return policy
    if variant == "no-unsafe-eval":
        return re.sub(r"\s+'unsafe-eval'", "", policy)
    raise ValueError(variant)


def page_with_policy(page_html: str, policy: str) -> str:
    """The probe page with the policy as a meta, first thing in its head."""
    meta = f'<meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="{policy}">'
    assert '<meta charset="utf-8">' in page_html
    return page_html.replace('<meta charset="utf-8">', meta, 1)


def run_figures(probe: dict[str, Any]) -> dict[str, Any]:
    """One run's figures from the page's ``window.__probe``."""
    stages = probe.get("stages") or {}
    tasks = probe.get("longtasks") or []
    out = probe.get("out") or {}
    fig: dict[str, Any] = {k: round(stages[k], 1) for k in ("loader", "pyodide", "unpacked", "engines", "computed")
                           if isinstance(stages.get(k), (int, float))}
    fig["longest_task"] = round(max((t["duration"] for t in tasks), default=0.0), 1)
    fig["long_tasks"] = len(tasks)
    fig["max_timeout_gap"] = round(float(probe.get("maxTimeoutGap") or 0), 1)
    fig["max_raf_gap"] = round(float(probe.get("maxRafGap") or 0), 1)
    for k in ("scarabeo_ms", "thot_ms"):
        if isinstance(out.get(k), (int, float)):
            fig[k] = out[k]
    fig["ok"] = bool(probe.get("ok"))
    if probe.get("storageTouched"):
        fig["storage_touched"] = list(probe["storageTouched"])
    for key, name in (("pageIndexedDB", "page_indexeddb"), ("pageEval", "page_eval"),
                      ("workerIndexedDB", "worker_indexeddb"), ("workerEval", "worker_eval")):
        if probe.get(key):
            fig[name] = probe[key]
    if probe.get("violations"):
        fig["violations"] = list(probe["violations"])[:20]
    if probe.get("error"):
        fig["error"] = str(probe["error"])[:500]
    return fig


def summarize(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Medians of the runs that worked, per metric, with how many worked and the errors of the others."""
    good = [r for r in runs if r.get("ok")]
    summary: dict[str, Any] = {"runs": len(runs), "ok": len(good)}
    for k in METRICS:
        values = [r[k] for r in good if isinstance(r.get(k), (int, float))]
        if values:
            summary[k] = round(statistics.median(values), 1)
    errors = [r["error"] for r in runs if r.get("error")]
    if errors:
        summary["errors"] = errors
    return summary


def table(summaries: dict[str, dict[str, Any]]) -> str:
    """A Markdown table: one row per metric, one column per case."""
    cases = list(summaries)
    lines = ["| median (ms from navigation) | " + " | ".join(cases) + " |",
             "|---|" + "---|" * len(cases)]
    for k in METRICS:
        cells = []
        for c in cases:
            v = summaries[c].get(k)
            cells.append("—" if v is None else (f"{v:,.0f}" if k != "long_tasks" else f"{v:g}"))
        lines.append(f"| {LABELS[k]} | " + " | ".join(cells) + " |")
    lines.append("| runs that worked | " + " | ".join(f"{summaries[c]['ok']}/{summaries[c]['runs']}" for c in cases)
                 + " |")
    return "\n".join(lines)


def prepare(dist: Path, into: Path) -> Path:
    """A copy of the built site with the probe under ``probe/``."""
    if not (dist / "vendor" / "pyodide" / "pyodide.mjs").is_file() or not (dist / "app.zip").is_file():
        if dist.resolve() != serve.DIST.resolve():
            raise SystemExit(f"{dist} is not a built site")
        serve.setup()
    site = into / "site"
    shutil.copytree(dist, site, ignore=shutil.ignore_patterns("sw.js", "sw.js.*"))
    shutil.copytree(PROBE, site / "probe")
    from tools.bench_startup import BARE_HTML, BARE_TOML  # the baseline the repo already measures

    (site / "bare.html").write_text(BARE_HTML, encoding="utf-8")
    (site / "bare.toml").write_text(BARE_TOML, encoding="utf-8")
    policy = site_policy((site / "index.html").read_text(encoding="utf-8"))
    page = (site / "probe" / "index.html").read_text(encoding="utf-8")
    for variant in CSP_VARIANTS:
        (site / "probe" / f"csp-{variant}.html").write_text(page_with_policy(page, policy_variant(policy, variant)),
                                                             encoding="utf-8")
    return site


def worker_policy(path: str, policy: str | None) -> str | None:
    """The CSP header for a request of the probe's worker with ``?csp=VARIANT`` (--csp), else None."""
    if policy is None or not path.startswith("/probe/worker.js?"):
        return None
    from urllib.parse import parse_qs, urlsplit

    variant = (parse_qs(urlsplit(path).query).get("csp") or [""])[0]
    return policy_variant(policy, variant) if variant in CSP_VARIANTS else None


def handler_class(policy: str | None = None) -> type:
    class ProbeHandler(serve.Handler):
        def end_headers(self) -> None:
            if self.path.startswith("/probe/"):
                self.frameable = True  # the probe may be framed by the other origin (127.0.0.1 / localhost)
            header = worker_policy(self.path, policy)
            if header:  # a worker loaded from a URL has the policy of its own response, not the page's meta
                self.send_header("Content-Security-Policy", header)
            super().end_headers()

    return ProbeHandler


def start_server(site: Path) -> tuple[Any, int]:
    """serve.py's server and handler (no COOP/COEP), the probe's pages frameable."""
    server = serve.make_server("127.0.0.1", 0, site, coi=False)
    cls = handler_class(site_policy((site / "index.html").read_text(encoding="utf-8")))

    def factory(*a: Any, **kw: Any) -> Any:
        return cls(*a, directory=str(site), **kw)

    server.RequestHandlerClass = factory
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, server.server_address[1]


def one_run(browser: Any, url: str, rate: float, kind: str, timeout: float) -> dict[str, Any]:
    """One cold visit (a fresh context); ``kind`` is worker, framed, framed-refused, csp-VARIANT or bare."""
    framed = kind.startswith("framed")
    blocked: list[str] = []

    def guard(route: Any) -> None:
        if route.request.url.startswith(LOCAL):
            route.continue_()
        else:
            blocked.append(route.request.url)
            route.abort()

    ctx = browser.new_context(service_workers="block")
    ctx.route("**/*", guard)
    try:
        if kind == "bare":
            ctx.add_init_script(path=str(PROBE / "heartbeat.js"))
            ctx.add_init_script(path=str(PROBE / "bare_init.js"))
        if kind == "framed-refused":
            ctx.add_init_script(path=str(PROBE / "refuse_storage.js"))
        page = ctx.new_page()
        if rate != 1:
            cdp = ctx.new_cdp_session(page)
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
        errors: list[str] = []
        console: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("console", lambda m: console.append(m.text[:300]) if m.type == "error" else None)
        page.goto(url, wait_until="load", timeout=timeout * 1000)  # a frame's document loads with the page
        frame = page.main_frame
        if framed:
            inner = [f for f in page.frames if f is not page.main_frame and "/probe/index.html" in f.url]
            frame = inner[0] if inner else None
        probe: dict[str, Any] | None = None
        if frame is not None:
            try:
                frame.wait_for_function("() => !!(window.__probe && window.__probe.done)", polling=100,
                                        timeout=timeout * 1000)
                time.sleep(0.3)  # let the observer deliver the last entries
                probe = frame.evaluate("() => window.__probe")
            except Exception as err:  # noqa: BLE001 - reported in the run's figures
                errors.append(f"{type(err).__name__}: {str(err)[:200]}")
        if probe is None:
            probe = {"ok": False, "error": f"no result within {timeout:g} s; page errors: {errors}"}
        fig = run_figures(probe)
        fig["cross_origin_isolated"] = probe.get("crossOriginIsolated")
        fig["shared_array_buffer"] = probe.get("sharedArrayBuffer")
        if blocked:
            fig["blocked"] = blocked
        if console:
            fig["console_errors"] = console[:10]
        return fig
    finally:
        ctx.close()


def extra_cases(args: argparse.Namespace) -> list[tuple[str, float, str]]:
    """The cases of --csp and --storage-refused, at each rate: (name, rate, kind)."""
    plan = []
    for r in args.rates:
        if args.csp:
            plan += [(f"worker {r:g}x, site CSP", r, "csp-site"),
                     (f"worker {r:g}x, CSP without 'unsafe-eval'", r, "csp-no-unsafe-eval")]
        if args.storage_refused:
            plan.append((f"worker {r:g}x, framed, storage refused", r, "framed-refused"))
    return plan


def case_url(kind: str, port: int) -> str:
    """The address a case opens."""
    if kind == "bare":
        return f"http://127.0.0.1:{port}/bare.html"
    if kind.startswith("framed"):
        query = "?storage=refused" if kind == "framed-refused" else ""
        inner = f"http://localhost:{port}/probe/index.html{query}"
        return f"http://127.0.0.1:{port}/probe/frame.html#{inner}"
    if kind.startswith("csp-"):
        return f"http://127.0.0.1:{port}/probe/{kind}.html?csp={kind[4:]}"
    return f"http://127.0.0.1:{port}/probe/index.html"


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    os.environ["SCARAB_QUIET"] = "1"
    from playwright.sync_api import sync_playwright

    load_before = os.getloadavg()
    print(f"nproc {os.cpu_count()}, load average before {load_before[0]:.2f} {load_before[1]:.2f} "
          f"{load_before[2]:.2f}", flush=True)
    cases: dict[str, list[dict[str, Any]]] = {}
    with tempfile.TemporaryDirectory(prefix="probe-worker-") as tmp:
        site = prepare(args.dist, Path(tmp))
        server, port = start_server(site)
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=args.chromium, headless=True, args=ARGS)
                try:
                    plan = [(f"worker {r:g}x", r, "worker") for r in args.rates]
                    if not args.no_frame:
                        plan.append(("worker 1x, framed cross-origin", 1.0, "framed"))
                    plan += extra_cases(args)
                    if not args.no_bare:
                        plan += [(f"bare page {r:g}x", r, "bare") for r in args.rates]
                    # Interleave the cases run by run, so a change in the machine's load hits them alike.
                    for i in range(args.runs):
                        for name, rate, kind in plan:
                            url = case_url(kind, port)
                            fig = one_run(browser, url, rate, kind, args.timeout)
                            cases.setdefault(name, []).append(fig)
                            print(f"run {i + 1} {name}: {json.dumps(fig)}", flush=True)
                finally:
                    browser.close()
        finally:
            server.shutdown()
            server.server_close()
    load_after = os.getloadavg()
    summaries = {name: summarize(runs) for name, runs in cases.items()}
    report = {
        "nproc": os.cpu_count(),
        "loadavg_before": [round(x, 2) for x in load_before],
        "loadavg_after": [round(x, 2) for x in load_after],
        "runs_per_case": args.runs,
        "summary": summaries,
        "runs": cases,
    }
    print(json.dumps({k: v for k, v in report.items() if k != "runs"}, indent=1))
    print(table(summaries))
    print(f"load average after {load_after[0]:.2f} {load_after[1]:.2f} {load_after[2]:.2f}")
    if args.json:
        args.json.write_text(json.dumps(report, indent=1) + "\n")
    return 0 if all(s["ok"] == s["runs"] for s in summaries.values()) else 1


if __name__ == "__main__":
    raise SystemExit(main())
