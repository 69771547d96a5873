"""Assemble the deployable static site in ``dist/``.

    python tools/build.py [--out dist]

What goes in: the page and its config, the browser-side files of ``web/``, the Python the page runs
(``game/``, ``lexicon/`` and ``web/`` modules, packed in one ``app.zip`` that PyScript unpacks), the
lexicon automaton, and the runtime copied from ``node_modules`` (npm is the only source of it; no source
maps, no type declarations). Every URL stays relative so the folder works under any sub-path.
``manifest.json`` lists every file with its size and SHA-256 (the offline cache uses it).
The build refuses any remote URL in the project's own pages, config, scripts and styles.
Standard library only: ``serve.py`` runs it on a fresh machine before anything else is installed.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import os
import re
import shutil
import sys
import zipfile
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tools.icons import write_icons  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
NODE = ROOT / "node_modules"

#: Runtime files the page needs, by npm package: (source in node_modules, destination in dist).
RUNTIME_PYODIDE = ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"]
#: Fetched at start-up by Pyodide; their total size drives the progress bar.
BOOT_FETCHED = ["vendor/pyodide/pyodide.asm.wasm", "vendor/pyodide/python_stdlib.zip",
                "vendor/pyodide/pyodide-lock.json", "app.zip"]
#: Parts of npm ``fake-indexeddb`` copied to vendor/ (its ES modules and the installer ``auto/``).
FAKE_IDB = ["build/esm", "auto"]
#: The browser side: which file kinds of web/ are copied as they are.
WEB_ASSETS = {".css", ".js", ".json", ".svg", ".png", ".webmanifest"}
#: Python packages packed into app.zip (lexicon's build tooling is harmless but never imported there).
PY_PACKAGES = ["game", "lexicon", "web"]
#: The site's pages: the full site and the one-game page other sites embed.
PAGES = ["index.html", "embed.html"]
#: Data files the page fetches.
DATA_FILES = {"lexicon/data/it.dawg": "data/it.dawg"}
#: Files of web/ that must sit at the site's root (a service worker controls only what is below it).
ROOT_FILES = {"web/sw.js": "sw.js", "web/app.webmanifest": "app.webmanifest"}

#: Precompressed copies (``<file>.gz``, served by serve.py or a host's ``gzip_static``): every file of at
#: least this size whose gzip saves at least ``GZIP_MIN_SAVING`` of it (PNGs are compressed already).
GZIP_MIN_BYTES = 512
GZIP_MIN_SAVING = 0.10
GZIP_SKIP = {".png", ".gz"}

REMOTE_URL = re.compile(r"""(?:https?:)?//(?!localhost|127\.0\.0\.1|www\.w3\.org/)[a-z0-9.-]+\.[a-z]{2,}""", re.I)
#: Attributes and CSS that would make the browser fetch something.
FETCHING = re.compile(r"""(?:src|href|action|poster|data|interpreter)\s*=\s*["']?\s*(?:https?:)?//|url\(\s*["']?(?:https?:)?//|import\s*\(?\s*["'](?:https?:)?//""", re.I)


class BuildError(Exception):
    pass


def sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def check_no_remote(paths: list[Path]) -> None:
    """Fail on any reference that would make the page reach off this site."""
    problems = []
    for path in paths:
        text = path.read_text(encoding="utf-8", errors="replace")
        for lineno, line in enumerate(text.splitlines(), 1):
            stripped = line.strip()
            if stripped.startswith(("#", "//", "<!--", "*")):
                continue
            if FETCHING.search(line) or (path.suffix in {".toml", ".html", ".css", ".js"} and REMOTE_URL.search(line)):
                problems.append(f"{path.relative_to(ROOT)}:{lineno}: {stripped[:120]}")
    if problems:
        raise BuildError("remote URLs are not allowed (the site must work offline):\n  " + "\n  ".join(problems))


def site_sources() -> list[Path]:
    """The project's own page, config and browser files (checked for remote URLs)."""
    files = [ROOT / page for page in PAGES] + [ROOT / "pyscript.toml"]
    files += sorted(p for p in (ROOT / "web").rglob("*") if p.is_file() and p.suffix in WEB_ASSETS | {".html", ".py"})
    return files


def pack_python(zip_path: Path) -> None:
    """Deterministic zip (sorted names, fixed timestamps) so the hash changes only with the code."""
    with zipfile.ZipFile(zip_path, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for package in PY_PACKAGES:
            for src in sorted((ROOT / package).rglob("*.py")):
                if "__pycache__" in src.parts:
                    continue
                rel = src.relative_to(ROOT).as_posix()
                info = zipfile.ZipInfo(rel, date_time=(2020, 1, 1, 0, 0, 0))
                info.compress_type = zipfile.ZIP_DEFLATED
                info.external_attr = 0o644 << 16
                zf.writestr(info, src.read_bytes())


def inline_boot_data(html: str, out: Path) -> str:
    """Put the message catalogue and the start-up download size into the page, so first paint is
    already in the player's language and the progress bar knows its total."""
    sys.path.insert(0, str(ROOT))
    from web.i18n import load_catalogue

    try:
        messages = load_catalogue(ROOT / "web" / "messages")
    except ValueError as err:
        raise BuildError(f"message catalogue: {err}") from None
    total = sum((out / rel).stat().st_size for rel in BOOT_FETCHED)
    boot = json.dumps({"messages": messages, "bootBytes": total}, ensure_ascii=False, separators=(",", ":"))
    marker = '<script id="boot-data" type="application/json"></script>'
    if marker not in html:
        raise BuildError(f"index.html lacks the marker {marker}")
    safe = boot.replace("</", "<\\/")  # a catalogue string must not close the script element
    return html.replace(marker, f'<script id="boot-data" type="application/json">{safe}</script>')


def build(out: Path) -> dict[str, dict[str, object]]:
    """Build into a private temporary folder, then swap it in, under a lock so that concurrent builds
    (two test runs, a server and a test) never see each other's half-written files."""
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out.parent / f".{out.name}.lock", "w") as lock:
        try:
            import fcntl

            fcntl.flock(lock, fcntl.LOCK_EX)
        except ImportError:  # not on Unix: builds are not concurrent there
            pass
        return _build(out)


def _build(out: Path) -> dict[str, dict[str, object]]:
    if not (NODE / "pyodide" / "pyodide.mjs").exists() or not (NODE / "@pyscript" / "core" / "dist").exists():
        raise BuildError("node_modules is missing the runtime: run `npm ci` first (serve.py does it for you)")
    check_no_remote(site_sources())
    missing = [src for src in DATA_FILES if not (ROOT / src).exists()]
    if missing:
        raise BuildError(f"missing data files {missing}: run `python -m lexicon build` first")

    tmp = out.with_name(f"{out.name}.tmp-{os.getpid()}")
    if tmp.exists():
        shutil.rmtree(tmp)
    (tmp / "vendor" / "pyodide").mkdir(parents=True)
    (tmp / "vendor" / "pyscript").mkdir(parents=True)
    for name in RUNTIME_PYODIDE:
        shutil.copyfile(NODE / "pyodide" / name, tmp / "vendor" / "pyodide" / name)
    for src in sorted((NODE / "@pyscript" / "core" / "dist").iterdir()):
        if src.suffix in {".js", ".css"} and not src.name.endswith(".d.ts"):
            shutil.copyfile(src, tmp / "vendor" / "pyscript" / src.name)
    # An in-memory IndexedDB, loaded only where the browser refuses storage to the page (a game
    # embedded in another site's page): PyScript opens IndexedDB at start-up and stops if it cannot.
    for sub in FAKE_IDB:
        for src in sorted((NODE / "fake-indexeddb" / sub).rglob("*")):
            if src.is_file() and src.suffix in {".js", ".mjs"}:
                dest = tmp / "vendor" / "fake-indexeddb" / src.relative_to(NODE / "fake-indexeddb")
                dest.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(src, dest)
    shutil.copyfile(NODE / "fake-indexeddb" / "LICENSE", tmp / "vendor" / "fake-indexeddb" / "LICENSE")
    for src in sorted((ROOT / "web").rglob("*")):
        if src.is_file() and src.suffix in WEB_ASSETS and src.relative_to(ROOT).as_posix() not in ROOT_FILES:
            dest = tmp / src.relative_to(ROOT)
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, dest)
    for src, dest in DATA_FILES.items():
        (tmp / dest).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(ROOT / src, tmp / dest)
    shutil.copyfile(ROOT / "pyscript.toml", tmp / "pyscript.toml")
    shutil.copyfile(ROOT / "web" / "app.webmanifest", tmp / "app.webmanifest")
    write_icons(ROOT / "web" / "icon.svg", tmp / "icons")
    pack_python(tmp / "app.zip")
    for page in PAGES:
        html = (ROOT / page).read_text(encoding="utf-8")
        (tmp / page).write_text(inline_boot_data(html, tmp), encoding="utf-8")

    files = {}
    for path in sorted(p for p in tmp.rglob("*") if p.is_file()):
        rel = path.relative_to(tmp).as_posix()
        files[rel] = {"size": path.stat().st_size, "sha256": sha256(path)}
    version = hashlib.sha256(json.dumps(files, sort_keys=True).encode()).hexdigest()[:16]
    # The service worker carries the version, so any change to the site is a new worker to install.
    worker = (ROOT / "web" / "sw.js").read_text(encoding="utf-8")
    worker = worker.replace("__VERSION__", version).replace("__FILES__", json.dumps(["./"] + sorted(files)))
    (tmp / "sw.js").write_text(worker, encoding="utf-8")
    files["sw.js"] = {"size": (tmp / "sw.js").stat().st_size, "sha256": sha256(tmp / "sw.js")}
    manifest = {"version": version, "files": files, "gzip": write_gzip(tmp, files)}
    (tmp / "manifest.json").write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    (tmp / "manifest.json.gz").write_bytes(gzip.compress((tmp / "manifest.json").read_bytes(), 9, mtime=0))

    old = out.with_name(f"{out.name}.old-{os.getpid()}")
    if out.exists():
        out.rename(old)
    tmp.rename(out)
    shutil.rmtree(old, ignore_errors=True)
    return files


def write_gzip(folder: Path, files: dict[str, dict[str, object]]) -> dict[str, dict[str, object]]:
    """Write ``<file>.gz`` next to each file where gzip saves at least 10 %: deterministic (level 9,
    mtime 0, no name), so a rebuild gives the same bytes. Returns {file: {size, sha256}} of the copies;
    the plain files stay the site's URLs (the service worker caches those)."""
    written: dict[str, dict[str, object]] = {}
    for rel in sorted(files):
        path = folder / rel
        if path.suffix in GZIP_SKIP or int(files[rel]["size"]) < GZIP_MIN_BYTES:  # type: ignore[call-overload]
            continue
        data = path.read_bytes()
        packed = gzip.compress(data, compresslevel=9, mtime=0)
        if len(packed) > len(data) * (1 - GZIP_MIN_SAVING):
            continue
        target = path.with_name(path.name + ".gz")
        target.write_bytes(packed)
        written[rel] = {"size": len(packed), "sha256": hashlib.sha256(packed).hexdigest()}
    return written


def inputs_digest() -> str:
    """A hash of everything the build reads, so serve.py can skip an up-to-date build."""
    h = hashlib.sha256()
    paths = [ROOT / "index.html", ROOT / "embed.html", ROOT / "pyscript.toml", ROOT / "package-lock.json", Path(__file__),
             Path(__file__).with_name("icons.py")]
    for package in PY_PACKAGES:
        paths += sorted((ROOT / package).rglob("*.py"))
    paths += sorted(p for p in (ROOT / "web").rglob("*") if p.is_file() and p.suffix in WEB_ASSETS)
    paths += [ROOT / src for src in DATA_FILES]
    for p in paths:
        if "__pycache__" in p.parts or not p.exists():
            continue
        st = p.stat()
        h.update(f"{p.relative_to(ROOT)}:{st.st_size}:{st.st_mtime_ns}\n".encode())
    return h.hexdigest()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "dist")
    args = parser.parse_args(argv)
    try:
        files = build(args.out.resolve())
    except BuildError as err:
        print(f"build failed: {err}", file=sys.stderr)
        return 1
    total = sum(int(f["size"]) for f in files.values())  # type: ignore[call-overload]
    print(f"built {args.out} : {len(files)} files, {total / 1e6:.1f} MB")
    (args.out / ".inputs").write_text(inputs_digest())
    return 0


if __name__ == "__main__":
    sys.exit(main())
