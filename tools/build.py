"""Assemble the deployable static site in ``dist/``.

    python tools/build.py [--out dist]

What goes in: the page and its config, the browser-side files of ``web/``, the Python the page runs
(``game/``, ``lexicon/`` and ``web/`` modules with their bytecode for the vendored Pyodide, packed in one
``app.zip`` that PyScript unpacks; ``--no-bytecode`` packs the sources only), the
lexicon automaton, and the runtime copied from ``node_modules`` (npm is the only source of it; no source
maps, no type declarations). Every URL stays relative so the folder works under any sub-path.
``manifest.json`` lists every file with its size and SHA-256 (the offline cache uses it).
The build refuses any remote URL in the project's own pages, config, scripts and styles.
The standard library the page loads is trimmed to the modules the site uses (``trim_stdlib``;
``--full-stdlib`` ships npm's whole zip), and every file that compresses gets a ``.gz`` and a ``.br`` copy.
Standard library only (plus ``node``, which npm brings, for brotli and the bytecode): ``serve.py`` runs it on a fresh
machine before anything else is installed.
"""

from __future__ import annotations

import argparse
import ast
import gzip
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import time
import zipfile
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tools.icons import write_icons  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
NODE = ROOT / "node_modules"

#: Runtime files the page needs, by npm package: (source in node_modules, destination in dist).
RUNTIME_PYODIDE = ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "pyodide-lock.json"]
#: Pyodide loads ``<indexURL>python_stdlib.zip`` (no ``stdLibURL`` given): the build writes there the
#: standard library the site uses (see ``trim_stdlib``), or with ``--full-stdlib`` npm's whole zip.
STDLIB = "vendor/pyodide/python_stdlib.zip"
#: Fetched at start-up by Pyodide; their total size drives the progress bar.
BOOT_FETCHED = ["vendor/pyodide/pyodide.asm.wasm", "vendor/pyodide/python_stdlib.zip",
                "vendor/pyodide/pyodide-lock.json", "app.zip"]
#: Parts of npm ``fake-indexeddb`` copied to vendor/ (its ES modules and the installer ``auto/``).
FAKE_IDB = ["build/esm", "auto"]
#: QR codes for live play's pairing (issue 28), loaded by the pairing page only: npm ``jsqr``'s browser
#: build as it is, and npm ``qrcode``'s browser entry (CommonJS, no browser build since 1.5) joined into
#: one classic script by ``bundle_commonjs`` (each module wrapped in a function, ``require`` by path).
QR_DECODER = ("jsqr/dist/jsQR.js", "vendor/qr/jsQR.js")
QR_ENCODER = ("qrcode/lib/browser.js", "vendor/qr/qrcode.js", "QRCode")
QR_LICENSES = {"jsqr/LICENSE": "vendor/qr/jsQR.LICENSE", "qrcode/license": "vendor/qr/qrcode.LICENSE",
               "dijkstrajs/LICENSE.md": "vendor/qr/dijkstrajs.LICENSE"}
_REQUIRE = re.compile(r"""require\(\s*['"]([^'"]+)['"]\s*\)""")
#: The browser side: which file kinds of web/ are copied as they are.
WEB_ASSETS = {".css", ".js", ".json", ".svg", ".png", ".webmanifest"}
#: Python packages packed into app.zip (lexicon's build tooling is harmless but never imported there).
PY_PACKAGES = ["game", "lexicon", "web"]
#: The site's pages: the full site and the one-game page other sites embed.
PAGES = ["index.html", "embed.html"]
#: Data files the page fetches.
DATA_FILES = {"lexicon/data/it.dawg": "data/it.dawg",
              # for the word panel (issue 40), fetched when a panel first opens: each word's source, the
              # roots and rules that give a word's lemma and forms, the words left out and why
              "lexicon/data/it.sources.tsv": "data/it.sources.tsv",
              "lexicon/data/it.forms": "data/it.forms",
              "lexicon/data/it.excluded.tsv": "data/it.excluded.tsv"}
#: Files of web/ that must sit at the site's root (a service worker controls only what is below it).
ROOT_FILES = {"web/shell/sw.js": "sw.js", "web/app.webmanifest": "app.webmanifest"}

#: Precompressed copies (``<file>.gz``, served by serve.py or a host's ``gzip_static``): every file of at
#: least this size whose gzip saves at least ``GZIP_MIN_SAVING`` of it (PNGs are compressed already).
GZIP_MIN_BYTES = 512
GZIP_MIN_SAVING = 0.10
GZIP_SKIP = {".png", ".gz", ".br"}
#: Brotli copies (``<file>.br``) by Node's built-in ``zlib.brotliCompressSync`` (node comes with npm, which
#: the build needs anyway; Python's standard library has no brotli), at quality 11, for the same files
#: and by the same rule as gzip. Quality 11 takes 35 s on the wasm, so each copy is cached by the SHA-256
#: of its file (``node_modules/.cache/scarab-brotli/``): a rebuild compresses only what changed.
BROTLI_CACHE = NODE / ".cache" / "scarab-brotli"
BROTLI_QUALITY = 11
#: Bytecode (issue 25): every module of app.zip comes with its pyc, compiled for the page's Python by the
#: vendored Pyodide running in node (``compile_python``), cached by runtime, path and source.
PYC_SCRIPT = Path(__file__).with_name("pyc.mjs")
PYC_CACHE = NODE / ".cache" / "scarab-pyc"
BROTLI_SCRIPT = r"""
const zlib = require("node:zlib"), fs = require("node:fs");
const jobs = JSON.parse(fs.readFileSync(0, "utf8"));
Promise.all(jobs.map(([src, dest]) => new Promise((resolve, reject) => {
  const data = fs.readFileSync(src);
  zlib.brotliCompress(data, { params: {
    [zlib.constants.BROTLI_PARAM_QUALITY]: __QUALITY__,
    [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length } }, (err, out) => {
    if (err) return reject(err);
    fs.writeFileSync(dest + ".part", out);
    fs.renameSync(dest + ".part", dest);
    resolve();
  });
}))).catch((err) => { console.error(String(err)); process.exit(1); });
"""

# --- The trimmed standard library -------------------------------------------------------------------
#: Modules imported when the interpreter, Pyodide and PyScript start, or by their error paths, whatever
#: the site's code says (CPython's start-up and codec search, Pyodide's traceback formatting, ...).
#: ``pkg.*`` takes a whole package. The site's own imports, those of Pyodide's and PyScript's Python
#: and the standard library's closure of all of them are computed (see ``stdlib_roots``).
STDLIB_START = [
    "pyodide.*", "_pyodide.*", "site", "_sitebuiltins", "sysconfig.*", "_sysconfigdata__emscripten_wasm32-emscripten",
    "os", "stat", "posixpath", "genericpath", "_collections_abc", "codecs", "io", "abc", "zipimport",
    "importlib.*", "warnings", "linecache", "traceback", "tokenize", "asyncio.*", "json.*", "re.*",
    "collections.*", "encodings", "encodings.aliases", "encodings.utf_8", "encodings.utf_8_sig",
    "encodings.utf_16", "encodings.utf_16_le", "encodings.utf_16_be", "encodings.utf_32", "encodings.utf_32_le",
    "encodings.utf_32_be", "encodings.ascii", "encodings.latin_1", "encodings.cp437", "encodings.cp1252",
    "encodings.iso8859_1", "encodings.iso8859_15", "encodings.idna", "encodings.punycode",
    "encodings.raw_unicode_escape", "encodings.unicode_escape", "encodings.charmap", "encodings.hex_codec",
    "encodings.base64_codec", "encodings.zlib_codec",
]
#: Modules the standard library imports only inside functions or conditions (an indented import) that
#: the site never reaches: the help system, debuggers, test runners, the REPL, processes, sockets,
#: mail and web servers. An import of one of them at a module's top level, or by the site, Pyodide or
#: PyScript themselves, is followed all the same.
STDLIB_DEFERRED = [
    "pydoc", "pydoc_data", "pdb", "bdb", "doctest", "unittest", "_pyrepl", "code", "codeop", "rlcompleter", "cmd",
    "email", "http", "xmlrpc", "urllib.request", "urllib.response", "urllib.robotparser", "ftplib", "smtplib",
    "imaplib", "poplib", "mailbox", "webbrowser", "socketserver", "wsgiref", "ssl", "multiprocessing",
    "subprocess", "pty", "tty", "getpass", "cProfile", "profile", "pstats", "trace", "tracemalloc", "timeit",
    "tkinter", "idlelib", "turtle", "sqlite3", "ctypes", "lzma", "bz2", "xml", "plistlib", "zipapp",
    "compileall", "py_compile", "pyclbr", "modulefinder", "tabnanny", "shelve", "dbm", "difflib", "pickletools",
    "optparse", "calendar", "mimetypes", "netrc", "uuid", "concurrent.futures.process",
]
#: The members of the two zips the page loads (the standard library, ``app.zip``): stored by default, so
#: gzip and brotli compress each zip as a whole (see docs/platform.md, *Compression*); ``--deflated-zips``
#: deflates them (as npm's zip), for a host that neither serves the copies nor compresses zips itself.
ZIPS_STORED = True

_IMPORT = re.compile(r"^([ \t]*)import[ \t]+([^\n#;]+)", re.M)
_FROM = re.compile(r"^([ \t]*)from[ \t]+(\.*)([\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n#;]*)", re.M)
_DYNAMIC = re.compile(r"(?:import_module|__import__)\(\s*['\"]([\w.]+)['\"]")


def scan_imports(source: str, module: str, package: bool) -> dict[str, bool]:
    """What a module's source names as imports: {name: imported at the module's top level (column 0)}.

    Text-based, so it reads any Python version's syntax (the stdlib sources are 3.14, the build may run
    on 3.11); a docstring's example line can only add a name (a margin), never drop one. ``from a import
    b`` names both ``a`` and ``a.b`` (b may be a submodule); relative imports are resolved."""
    found: dict[str, bool] = {}

    def add(name: str, top: bool) -> None:
        if name and re.fullmatch(r"[\w.]+", name):
            found[name] = found.get(name, False) or top

    base = module if package else module.rpartition(".")[0]
    for m in _IMPORT.finditer(source):
        for alias in m.group(2).split(","):
            add(alias.strip().split(" as ")[0].strip(), not m.group(1))
    for m in _FROM.finditer(source):
        indent, dots, name, names = m.groups()
        if dots:
            parts = base.split(".") if base else []
            parts = parts[: len(parts) - (len(dots) - 1)] if len(dots) > 1 else parts
            name = ".".join(parts + ([name] if name else []))
        add(name, not indent)
        for alias in names.strip("()").replace("\\", " ").split(","):
            alias = alias.strip().split(" as ")[0].strip()
            if alias.isidentifier():
                add(f"{name}.{alias}", not indent)
    for name in _DYNAMIC.findall(source):
        add(name, False)
    return found


def python_imports(source: str) -> set[str]:
    """Every module an (importable, 3.11-valid) source imports anywhere: top level, functions, literal
    ``importlib.import_module("x")`` — by its syntax tree. Relative imports are left out (the project's own)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif (isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant)
              and isinstance(node.args[0].value, str)
              and getattr(node.func, "attr", getattr(node.func, "id", "")) in ("import_module", "__import__")):
            names.add(node.args[0].value)
    return names


def stdlib_modules(zf: zipfile.ZipFile) -> dict[str, tuple[str, bool]]:
    """{module name: (member, is a package)} of a standard-library zip's Python sources."""
    modules = {}
    for name in zf.namelist():
        if name.endswith(".py") and not name.startswith("site-packages/"):
            module = name[:-3].replace("/", ".")
            package = module.endswith(".__init__")
            modules[module.removesuffix(".__init__")] = (name, package)
    return modules


def site_imports() -> set[str]:
    """Every module the site's Python (``game``, ``lexicon``, ``web``) imports anywhere."""
    names: set[str] = set()
    for package in PY_PACKAGES:
        for src in sorted((ROOT / package).rglob("*.py")):
            if "__pycache__" not in src.parts:
                names |= python_imports(src.read_text(encoding="utf-8"))
    return names


def stdlib_roots() -> set[str]:
    """What the page imports itself: the site's Python, PyScript's Python (its ``pyscript`` package and
    the snippets in its bundles) and the start-up list."""
    roots = site_imports() | set(STDLIB_START)
    for src in sorted((NODE / "@pyscript" / "core" / "src" / "stdlib").rglob("*.py")):
        roots |= set(scan_imports(src.read_text(encoding="utf-8"), "pyscript", True))
    for src in sorted((NODE / "@pyscript" / "core" / "dist").glob("*.js")):
        text = src.read_text(encoding="utf-8", errors="replace").replace("\\n", "\n")
        roots |= set(scan_imports(text, "", False))
    return roots


def stdlib_closure(zf: zipfile.ZipFile, roots: set[str]) -> set[str]:
    """The modules of the zip that ``roots`` need: the roots (``pkg.*`` a whole package but its ``__main__``), their parent
    packages, and everything they import, transitively — except a ``STDLIB_DEFERRED`` module that a
    standard-library module imports only inside a function or a condition."""
    modules = stdlib_modules(zf)
    deferred = tuple(STDLIB_DEFERRED)

    def is_deferred(name: str) -> bool:
        return any(name == d or name.startswith(d + ".") for d in deferred)

    own = {"pyodide", "_pyodide"}  # Pyodide's own Python: every import it names is followed
    todo: list[tuple[str, bool]] = []
    for root in roots:
        if root.endswith(".*"):
            todo += [(m, True) for m in modules  # not a package's __main__: it runs only as `python -m`
                     if (m == root[:-2] or m.startswith(root[:-1])) and not m.endswith(".__main__")]
        else:
            todo.append((root, True))
    seen: set[str] = set()
    while todo:
        name, forced = todo.pop()
        parts = name.split(".")
        for k in range(1, len(parts) + 1):
            module = ".".join(parts[:k])
            if module not in modules or module in seen or (is_deferred(module) and not forced):
                continue
            seen.add(module)
            member, package = modules[module]
            trusted = module.split(".")[0] in own
            for dep, top in scan_imports(zf.read(member).decode("utf-8"), module, package).items():
                todo.append((dep, top or trusted))
    return seen


def trim_stdlib(full: Path, dest: Path, stored: bool = ZIPS_STORED) -> dict[str, int]:
    """Write the standard library the site uses (``stdlib_closure`` of ``stdlib_roots``) as a
    deterministic zip: sorted members, fixed timestamps, their packages' folder entries, and the
    non-Python files of those packages. Returns counts and sizes for the report."""
    with zipfile.ZipFile(full) as zf:
        keep = stdlib_closure(zf, stdlib_roots())
        modules = stdlib_modules(zf)
        members = {modules[m][0] for m in keep}
        packages = {modules[m][0].rpartition("/")[0] for m in keep if modules[m][1]}
        for info in zf.infolist():  # folder entries and data files (py.typed, ...) of the kept packages
            if info.filename.endswith(".py"):
                continue
            folder = info.filename.rstrip("/") if info.is_dir() else info.filename.rpartition("/")[0]
            if folder in packages or (info.is_dir() and folder == "site-packages"):
                members.add(info.filename)
        method = zipfile.ZIP_STORED if stored else zipfile.ZIP_DEFLATED
        with zipfile.ZipFile(dest, "w") as out:
            for name in sorted(members):
                src = zf.getinfo(name)
                info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
                info.external_attr = src.external_attr
                info.compress_type = zipfile.ZIP_STORED if src.is_dir() else method
                out.writestr(info, b"" if src.is_dir() else zf.read(name), compresslevel=9)
        total = len([i for i in zf.infolist() if not i.is_dir()])
    return {"modules": len(keep), "of": total, "bytes": dest.stat().st_size, "full_bytes": full.stat().st_size}


REMOTE_URL = re.compile(r"""(?:https?:)?//(?!localhost|127\.0\.0\.1|www\.w3\.org/)[a-z0-9.-]+\.[a-z]{2,}""", re.I)
#: The one remote address a site file may hold (issue 40): "Look it up" in the word panel, a link a
#: person follows in a new tab (``web/ui/wordcheck.py`` DICTIONARY_URL); the site never requests it.
FOLLOWED_LINKS = ("https://it.wiktionary.org/wiki/",)
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
            code = line.split("  #", 1)[0] if path.suffix == ".py" else line  # a Python line's comment says, never fetches
            if FETCHING.search(line) or (path.suffix in {".toml", ".html", ".css", ".js", ".py"} and REMOTE_URL.search(code)
                                         and not any(link in code for link in FOLLOWED_LINKS)):
                problems.append(f"{path.relative_to(ROOT)}:{lineno}: {stripped[:120]}")
    if problems:
        raise BuildError("remote URLs are not allowed (the site must work offline):\n  " + "\n  ".join(problems))


def _resolve(spec: str, at: Path) -> Path:
    if spec.startswith("."):
        base = (at.parent / spec).resolve()
    else:
        package = NODE / spec
        base = package / json.loads((package / "package.json").read_text(encoding="utf-8")).get("main", "index.js")
    for candidate in (base, base.with_name(base.name + ".js"), base / "index.js"):
        if candidate.is_file():
            return candidate
    raise BuildError(f"{at.relative_to(NODE)} requires {spec!r}, which node_modules does not have")


def bundle_commonjs(entry: Path, global_name: str) -> str:
    """One classic script from a CommonJS package's browser entry: every module it requires (found by
    their ``require('…')`` calls) in a function of ``module, exports, require``, the entry's exports
    set as ``window[global_name]``. Enough for packages written for browserify (no dynamic requires)."""
    order: list[Path] = []
    ids: dict[Path, int] = {}
    todo = [entry.resolve()]
    while todo:
        path = todo.pop()
        if path in ids:
            continue
        ids[path] = len(order)
        order.append(path)
        for spec in _REQUIRE.findall(path.read_text(encoding="utf-8")):
            todo.append(_resolve(spec, path))
    # ids are known once every module was found: each module's table of its requires is written then
    parts = [f"/* {global_name}: bundled by tools/build.py from node_modules ({', '.join(sorted({str(p.relative_to(NODE)).split('/')[0] for p in order}))}) */",
             "(function () {", "var defs = [];"]
    for path in order:
        table = {spec: ids[_resolve(spec, path)] for spec in _REQUIRE.findall(path.read_text(encoding="utf-8"))}
        parts.append(f"// {path.relative_to(NODE).as_posix()}")
        parts.append(f"defs.push([{json.dumps(table)}, function (module, exports, require) {{")
        parts.append(path.read_text(encoding="utf-8"))
        parts.append("}]);")
    parts.append("""var cache = {};
function load(id) {
  if (cache[id]) return cache[id].exports;
  var module = cache[id] = {exports: {}};
  var def = defs[id];
  def[1](module, module.exports, function (spec) {
    if (!(spec in def[0])) throw new Error("not bundled: " + spec);
    return load(def[0][spec]);
  });
  return module.exports;
}""")
    parts.append(f"window.{global_name} = load(0);")
    parts.append("})();")
    return "\n".join(parts) + "\n"


def write_qr(tmp: Path) -> None:
    (tmp / "vendor" / "qr").mkdir(parents=True, exist_ok=True)
    shutil.copyfile(NODE / QR_DECODER[0], tmp / QR_DECODER[1])
    source, dest, name = QR_ENCODER
    (tmp / dest).write_text(bundle_commonjs(NODE / source, name), encoding="utf-8")
    for src, dest in QR_LICENSES.items():
        shutil.copyfile(NODE / src, tmp / dest)


def site_sources() -> list[Path]:
    """The project's own page, config and browser files (checked for remote URLs)."""
    files = [ROOT / page for page in PAGES] + [ROOT / "pyscript.toml"]
    files += sorted(p for p in (ROOT / "web").rglob("*") if p.is_file() and p.suffix in WEB_ASSETS | {".html", ".py"})
    return files


def packed_sources() -> dict[str, bytes]:
    """The Python that app.zip carries: {path in the zip: source} of ``game/``, ``lexicon/``, ``web/``."""
    sources = {}
    for package in PY_PACKAGES:
        for src in sorted((ROOT / package).rglob("*.py")):
            if "__pycache__" not in src.parts:
                sources[src.relative_to(ROOT).as_posix()] = src.read_bytes()
    return sources


def pyc_name(rel: str, tag: str) -> str:
    """Where the import system looks for a source's bytecode: ``a/b.py`` -> ``a/__pycache__/b.<tag>.pyc``."""
    folder, _, name = rel.rpartition("/")
    return f"{folder}/__pycache__/{name[:-3]}.{tag}.pyc" if folder else f"__pycache__/{name[:-3]}.{tag}.pyc"


def pyodide_digest() -> str:
    """What the pycs depend on besides their sources: the vendored Pyodide (its compiler, in the wasm; its
    ``py_compile``, in the standard library) and tools/pyc.mjs."""
    h = hashlib.sha256()
    for path in (NODE / "pyodide" / "pyodide.asm.wasm", NODE / "pyodide" / "pyodide.asm.mjs",
                 NODE / "pyodide" / "python_stdlib.zip", PYC_SCRIPT):
        h.update(f"{path.name}:{sha256(path)}\n".encode())
    return h.hexdigest()[:24]


def compile_python(sources: dict[str, bytes], node: str | None = None) -> dict[str, bytes]:
    """Bytecode of ``sources`` for the Python the page runs: {pyc path in the zip: pyc}. Compiled by the vendored
    Pyodide in node (tools/pyc.mjs: the build machine's CPython is another version), unchecked-hash pycs;
    each cached by the runtime's digest, its path and its source (``node_modules/.cache/scarab-pyc/``), so a
    rebuild compiles only what changed. Every pyc's magic number must be the one the vendored runtime reports
    (``importlib.util.MAGIC_NUMBER``, recorded with the cache); without node, none (and says so)."""
    node = node or shutil.which("node") or shutil.which("nodejs")
    if node is None:
        print("note: node not found, app.zip ships sources only (no bytecode)", file=sys.stderr)
        return {}
    cache = PYC_CACHE / pyodide_digest()
    keys = {rel: hashlib.sha256(rel.encode() + b"\0" + data).hexdigest() for rel, data in sources.items()}
    missing = [rel for rel in sources if not (cache / f"{keys[rel]}.pyc").exists()]
    runtime = cache / "runtime.json"
    if missing or not runtime.exists():
        import tempfile

        with tempfile.TemporaryDirectory(prefix="scarab-pyc-") as staging:
            for rel in missing or list(sources)[:1]:
                (Path(staging) / rel).parent.mkdir(parents=True, exist_ok=True)
                (Path(staging) / rel).write_bytes(sources[rel])
            done = subprocess.run([node, str(PYC_SCRIPT), str(NODE / "pyodide"), staging],
                                  capture_output=True, text=True)
            try:
                report = json.loads(done.stdout.strip().splitlines()[-1])
            except (IndexError, ValueError):
                raise BuildError(f"bytecode (node tools/pyc.mjs) failed: {(done.stderr or done.stdout).strip()[:500]}") from None
            if done.returncode != 0 or not report["ok"]:
                raise BuildError(f"bytecode: the vendored Pyodide could not compile the site's Python:\n{report['output'][:2000]}")
            cache.mkdir(parents=True, exist_ok=True)
            for rel in missing:
                pyc = Path(staging) / pyc_name(rel, report["tag"])
                part = cache / f"{keys[rel]}.pyc.part-{os.getpid()}"  # builds into other folders run at once
                part.write_bytes(pyc.read_bytes())
                part.replace(cache / f"{keys[rel]}.pyc")
            part = cache / f"runtime.json.part-{os.getpid()}"
            part.write_text(json.dumps({k: report[k] for k in ("magic", "tag", "version")}) + "\n")
            part.replace(runtime)
    info = json.loads(runtime.read_text())
    pycs = {}
    for rel in sources:
        data = (cache / f"{keys[rel]}.pyc").read_bytes()
        if data[:4].hex() != info["magic"]:
            raise BuildError(f"bytecode of {rel}: magic number {data[:4].hex()}, but the vendored Pyodide's Python "
                             f"{info['version']} has {info['magic']} (delete {_shown(PYC_CACHE)}/ and rebuild)")
        pycs[pyc_name(rel, info["tag"])] = data
    return pycs


def pack_python(zip_path: Path, stored: bool = ZIPS_STORED, bytecode: bool = True) -> dict[str, object]:
    """Deterministic zip (sorted names, fixed timestamps) so the hash changes only with the code: the sources,
    and beside them in ``__pycache__`` their bytecode for the vendored Pyodide (``compile_python``; none with
    ``bytecode=False`` or without node). Returns what it packed, for the report."""
    method = zipfile.ZIP_STORED if stored else zipfile.ZIP_DEFLATED
    sources = packed_sources()
    members = dict(sources)
    if bytecode:
        members.update(compile_python(sources))
    with zipfile.ZipFile(zip_path, "w", compression=method) as zf:
        for rel in sorted(members):
            info = zipfile.ZipInfo(rel, date_time=(2020, 1, 1, 0, 0, 0))
            info.compress_type = method
            info.external_attr = 0o644 << 16
            zf.writestr(info, members[rel], compresslevel=9)
    return {"sources": len(sources), "pycs": len(members) - len(sources)}


def inline_boot_data(html: str, out: Path) -> str:
    """Put the message catalogue and the start-up download size into the page, so first paint is
    already in the player's language and the progress bar knows its total."""
    sys.path.insert(0, str(ROOT))
    from web.platform.i18n import load_catalogue

    try:
        messages = load_catalogue(ROOT / "web" / "platform" / "messages")
    except ValueError as err:
        raise BuildError(f"message catalogue: {err}") from None
    total = sum((out / rel).stat().st_size for rel in BOOT_FETCHED)
    boot = json.dumps({"messages": messages, "bootBytes": total}, ensure_ascii=False, separators=(",", ":"))
    marker = '<script id="boot-data" type="application/json"></script>'
    if marker not in html:
        raise BuildError(f"index.html lacks the marker {marker}")
    safe = boot.replace("</", "<\\/")  # a catalogue string must not close the script element
    return html.replace(marker, f'<script id="boot-data" type="application/json">{safe}</script>')


def build(out: Path, full_stdlib: bool = False, stored: bool = ZIPS_STORED,
          bytecode: bool = True) -> dict[str, dict[str, object]]:
    """Build into a private temporary folder, then swap it in, under a lock so that concurrent builds
    (two test runs, a server and a test) never see each other's half-written files."""
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out.parent / f".{out.name}.lock", "w") as lock:
        try:
            import fcntl

            fcntl.flock(lock, fcntl.LOCK_EX)
        except ImportError:  # not on Unix: builds are not concurrent there
            pass
        return _build(out, full_stdlib, stored, bytecode)


def _build(out: Path, full_stdlib: bool = False, stored: bool = ZIPS_STORED,
           bytecode: bool = True) -> dict[str, dict[str, object]]:
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
    if full_stdlib:
        shutil.copyfile(NODE / "pyodide" / "python_stdlib.zip", tmp / STDLIB)
    else:
        trim_stdlib(NODE / "pyodide" / "python_stdlib.zip", tmp / STDLIB, stored)
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
    write_qr(tmp)
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
    pack_python(tmp / "app.zip", stored, bytecode)
    for page in PAGES:
        html = (ROOT / page).read_text(encoding="utf-8")
        (tmp / page).write_text(inline_boot_data(html, tmp), encoding="utf-8")

    files = {}
    for path in sorted(p for p in tmp.rglob("*") if p.is_file()):
        rel = path.relative_to(tmp).as_posix()
        files[rel] = {"size": path.stat().st_size, "sha256": sha256(path)}
    version = hashlib.sha256(json.dumps(files, sort_keys=True).encode()).hexdigest()[:16]
    # The service worker carries the version, so any change to the site is a new worker to install.
    worker = (ROOT / "web" / "shell" / "sw.js").read_text(encoding="utf-8")
    worker = worker.replace("__VERSION__", version).replace("__FILES__", json.dumps(["./"] + sorted(files)))
    (tmp / "sw.js").write_text(worker, encoding="utf-8")
    files["sw.js"] = {"size": (tmp / "sw.js").stat().st_size, "sha256": sha256(tmp / "sw.js")}
    manifest = {"version": version, "files": files, "gzip": write_gzip(tmp, files), "br": write_brotli(tmp, files)}
    (tmp / "manifest.json").write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    (tmp / "manifest.json.gz").write_bytes(gzip.compress((tmp / "manifest.json").read_bytes(), 9, mtime=0))
    write_brotli(tmp, {"manifest.json": {}})

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


def write_brotli(folder: Path, files: dict[str, dict[str, object]], node: str | None = None) -> dict[str, dict[str, object]]:
    """Write ``<file>.br`` next to each file where brotli saves at least 10 % (the gzip rule), taken from the
    cache by the file's SHA-256 or compressed by Node (all missing ones in one process, in parallel on
    libuv's threads). Returns {file: {size, sha256}} of the copies; without node, none (and says so)."""
    node = node or shutil.which("node") or shutil.which("nodejs")
    wanted = [rel for rel in sorted(files) if (folder / rel).suffix not in GZIP_SKIP
              and (folder / rel).stat().st_size >= GZIP_MIN_BYTES]
    if node is None:
        print("note: node not found, no brotli copies written", file=sys.stderr)
        return {}
    BROTLI_CACHE.mkdir(parents=True, exist_ok=True)
    digests = {rel: str(files[rel].get("sha256") or sha256(folder / rel)) for rel in wanted}
    cached = {rel: BROTLI_CACHE / f"{digests[rel]}-q{BROTLI_QUALITY}.br" for rel in wanted}
    jobs = [[str(folder / rel), str(dest)] for rel, dest in cached.items() if not dest.exists()]
    if jobs:
        script = BROTLI_SCRIPT.replace("__QUALITY__", str(BROTLI_QUALITY))
        done = subprocess.run([node, "-e", script], input=json.dumps(jobs), text=True, capture_output=True)
        if done.returncode != 0:
            raise BuildError(f"brotli (node) failed: {done.stderr.strip()[:500]}")
    written: dict[str, dict[str, object]] = {}
    for rel, copy in cached.items():
        packed = copy.read_bytes()
        if len(packed) > (folder / rel).stat().st_size * (1 - GZIP_MIN_SAVING):
            continue
        (folder / (rel + ".br")).write_bytes(packed)
        # "of": the SHA-256 of the file it decodes to (the cache's key), so a stale copy shows
        written[rel] = {"size": len(packed), "sha256": hashlib.sha256(packed).hexdigest(), "of": digests[rel]}
    return written


def inputs_digest(full_stdlib: bool = False, stored: bool = ZIPS_STORED, bytecode: bool = True) -> str:
    """A hash of everything the build reads (and its options), so serve.py can skip an up-to-date build. The
    bytecode depends on the sources, the vendored Pyodide, tools/pyc.mjs and whether node is there."""
    h = hashlib.sha256()
    node = bool(shutil.which("node") or shutil.which("nodejs"))
    h.update(f"full-stdlib={full_stdlib} stored={stored} bytecode={bytecode} node={node}\n".encode())
    paths = [ROOT / "index.html", ROOT / "embed.html", ROOT / "pyscript.toml", ROOT / "package-lock.json", Path(__file__),
             Path(__file__).with_name("icons.py"), PYC_SCRIPT]
    paths += [NODE / "pyodide" / name for name in ("pyodide.asm.wasm", "pyodide.asm.mjs", "python_stdlib.zip")]
    for package in PY_PACKAGES:
        paths += sorted((ROOT / package).rglob("*.py"))
    paths += sorted(p for p in (ROOT / "web").rglob("*") if p.is_file() and p.suffix in WEB_ASSETS)
    paths += [ROOT / src for src in DATA_FILES]
    for p in paths:
        if "__pycache__" in p.parts or not p.exists():
            continue
        st = p.stat()
        h.update(f"{_shown(p)}:{st.st_size}:{st.st_mtime_ns}\n".encode())
    return h.hexdigest()


def _shown(path: Path) -> str:
    """``path`` as a reader of the log would type it: relative to the repository when inside it."""
    try:
        return str(path.resolve().relative_to(ROOT))
    except ValueError:
        return str(path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "dist")
    parser.add_argument("--full-stdlib", action="store_true",
                        help="ship npm's whole python_stdlib.zip instead of the modules the site uses")
    parser.add_argument("--deflated-zips", action="store_true",
                        help="deflate the members of the standard library zip and app.zip (stored by default)")
    parser.add_argument("--no-bytecode", action="store_true",
                        help="pack the Python sources only, without their bytecode for the vendored Pyodide")
    parser.add_argument("--quiet", action="store_true", help="no line when the build starts and ends, only errors")
    args = parser.parse_args(argv)
    stored = not args.deflated_zips
    shown = _shown(args.out)
    if not args.quiet:
        print(f"site: building {shown}/ …", flush=True)
    started = time.perf_counter()
    try:
        files = build(args.out.resolve(), args.full_stdlib, stored, not args.no_bytecode)
    except BuildError as err:
        print(f"build failed: {err}", file=sys.stderr)
        return 1
    total = sum(size for f in files.values() if isinstance(size := f["size"], int))
    if not args.quiet:
        print(f"site: built {shown}/ in {time.perf_counter() - started:.0f} s: {len(files)} files, {total / 1e6:.1f} MB "
              f"(every file's size and SHA-256 in {shown}/manifest.json)", flush=True)
    (args.out / ".inputs").write_text(inputs_digest(args.full_stdlib, stored, not args.no_bytecode))
    return 0


if __name__ == "__main__":
    sys.exit(main())
