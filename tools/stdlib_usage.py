"""What the site's Python takes from Pyodide's standard library (issue 18: ship only what is used?).

    .venv/bin/python tools/stdlib_usage.py

    .venv/bin/python tools/stdlib_usage.py --dist /tmp/other-build   # a build made elsewhere, as it is

Loads the built site in headless Chromium with a probe page that uses the site's own config: once with
the shell only (``import web.shell.app``), once importing every module of ``app.zip`` and running each engine
a little. Prints how many members of npm's whole ``python_stdlib.zip`` were imported and their share of
its bytes, the largest parts never imported, and whether the build's (trimmed) zip holds every one of
them; any module that failed to import is printed too. Exit status 1 if the trimmed zip lacks one.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import threading
import zipfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import serve  # noqa: E402
from tools.bench_startup import ARGS, guard  # noqa: E402

PROBE = """<!doctype html><html><head><meta charset="utf-8">
<script type="module" src="./vendor/pyscript/core.js"></script></head><body>
<script type="py" config="./pyscript.toml">
import importlib, json, os, sys
from pyscript import document
if document.location.hash == "#all":
    # every module of app.zip (os.walk, not pkgutil: the probe must import nothing the site does not)
    for pkg in ("game", "lexicon", "web"):
        for folder, _, names in sorted(os.walk(pkg)):
            for name in sorted(names):
                if name.endswith(".py") and not name.startswith("__main__"):
                    module = os.path.join(folder, name)[:-3].replace(os.sep, ".").removesuffix(".__init__")
                    try:
                        importlib.import_module(module)
                    except Exception as err:
                        print("not imported", module, repr(err))
    from game.thot.state import ThotState
    from game.scarabya.state import ScarabyaState
    from game.scarabeo.game import ScarabeoState
    from game.core import GameRecord
    thot = ThotState.from_options({"players": 2}, 7)
    thot.push(thot.legal_moves()[0])
    GameRecord.of(ScarabeoState.from_options({"players": 2}, 7)).to_json()
    GameRecord.of(ScarabyaState.from_options({"players": 1}, 7)).to_json()
else:
    import web.shell.app
files = sorted({getattr(m, "__file__", None) or "" for m in list(sys.modules.values())})
document.body.dataset.files = json.dumps([f for f in files if f])
document.body.dataset.ready = "1"
</script></body></html>"""


def main(argv: list[str] | None = None) -> int:
    from playwright.sync_api import sync_playwright

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dist", type=Path, help="a built site to probe as it is (default: dist/, brought up to date)")
    args = parser.parse_args(argv)
    os.environ["SCARAB_QUIET"] = "1"
    if args.dist is None:
        serve.setup()
    dist = args.dist or ROOT / "dist"
    work = Path(tempfile.mkdtemp(prefix="scarab-stdlib-"))
    site = work / "site"
    shutil.copytree(dist, site)
    (site / "probe.html").write_text(PROBE)
    server = serve.make_server("127.0.0.1", 0, site)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/probe.html"
    used: dict[str, set[str]] = {}
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
            for mode in ("shell", "all"):
                ctx = browser.new_context()
                ctx.route("**/*", guard)
                page = ctx.new_page()
                page.on("console", lambda msg: print("  console:", msg.text) if "not imported" in msg.text
                        or msg.type == "error" else None)
                page.goto(f"{base}#{mode}")
                page.wait_for_selector("body[data-ready='1']", state="attached", timeout=90_000)
                files = json.loads(page.evaluate("document.body.dataset.files"))
                prefix = next((f.split(".zip/")[0] + ".zip/" for f in files if ".zip/" in f and "/lib/python" in f), "")
                used[mode] = {f[len(prefix):] for f in files if prefix and f.startswith(prefix)}
                ctx.close()
            browser.close()
    finally:
        server.shutdown()
        shutil.rmtree(work, ignore_errors=True)
    zf = zipfile.ZipFile(ROOT / "node_modules" / "pyodide" / "python_stdlib.zip")
    shipped = set(zipfile.ZipFile(dist / "vendor" / "pyodide" / "python_stdlib.zip").namelist())
    members = {i.filename: i for i in zf.infolist() if not i.is_dir()}
    total = sum(i.compress_size for i in members.values())
    print(f"python_stdlib.zip: {len(members)} files, {total:,} bytes compressed")
    for mode, names in used.items():
        size = sum(members[n].compress_size for n in names if n in members)
        print(f"{mode:5}: {len(names)} files imported, {size:,} bytes ({100 * size / total:.0f} %)")
    extra = sorted(used["all"] - used["shell"])
    print("imported by app.zip's modules beyond the shell:", ", ".join(extra))
    unused = Counter()
    for name, info in members.items():
        if name not in used["all"]:
            unused[name.split("/")[0]] += info.compress_size
    print("largest never imported:", ", ".join(f"{k} {v // 1000} KB" for k, v in unused.most_common(12)))
    lacking = sorted(n for names in used.values() for n in names if n in members and n not in shipped)
    print(f"the build's python_stdlib.zip: {len(shipped)} entries;",
          f"lacks {len(lacking)} imported: {', '.join(lacking)}" if lacking else "holds every imported file")
    return 1 if lacking else 0


if __name__ == "__main__":
    sys.exit(main())
