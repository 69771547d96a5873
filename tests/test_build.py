"""The static build: remote URLs refused, relative URLs only, manifest with hashes, precompressed copies,
the trimmed standard library."""

from __future__ import annotations

import hashlib
import json
import zipfile
from pathlib import Path

import pytest

from tools import build


class TestRemoteUrls:
    @pytest.mark.parametrize(
        "line",
        [
            '<script src="https://cdn.example.net/x.js"></script>',
            '<link href="//fonts.googleapis.com/css" rel="stylesheet">',
            'interpreter = "https://cdn.jsdelivr.net/pyodide/v0.27/full/pyodide.mjs"',
            "body { background: url('https://img.host.com/a.png'); }",
            'import("https://esm.sh/lib")',
        ],
    )
    def test_remote_reference_fails_the_build(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              line: str) -> None:
        monkeypatch.setattr(build, "ROOT", tmp_path)
        page = tmp_path / "page.html"
        page.write_text(f"<p>ok</p>\n{line}\n")
        with pytest.raises(build.BuildError, match="page.html:2"):
            build.check_no_remote([page])

    def test_local_and_comment_lines_pass(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setattr(build, "ROOT", tmp_path)
        page = tmp_path / "page.html"
        page.write_text('<script src="./web/shell/boot.js"></script>\n<!-- see https://pyscript.net -->\n'
                        '<svg xmlns="http://www.w3.org/2000/svg"></svg>\n')
        build.check_no_remote([page])

    def test_a_python_address_fails_unless_it_is_the_followed_dictionary_link(
            self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setattr(build, "ROOT", tmp_path)
        module = tmp_path / "view.py"
        module.write_text('LOOK = "https://it.wiktionary.org/wiki/{word}"\nsite = x  # e.g. "https://example.org/"\n')
        build.check_no_remote([module])
        module.write_text('LOOK = "https://it.wiktionary.org/wiki/{word}"\nAPI = "https://api.example.net/v1"\n')
        with pytest.raises(build.BuildError, match="view.py:2"):
            build.check_no_remote([module])

    def test_project_sources_are_clean(self) -> None:
        build.check_no_remote(build.site_sources())


@pytest.mark.usefixtures("built_site")
class TestBuiltSite:
    def test_manifest_lists_every_file_with_hash(self, built_site: Path) -> None:
        manifest = json.loads((built_site / "manifest.json").read_text())
        on_disk = {p.relative_to(built_site).as_posix() for p in built_site.rglob("*")
                   if p.is_file() and not p.name.startswith(".") and p.suffix not in {".gz", ".br"}} - {"manifest.json"}
        assert set(manifest["files"]) == on_disk  # the plain URLs: what the service worker caches
        for rel, entry in list(manifest["files"].items())[:5]:
            data = (built_site / rel).read_bytes()
            assert entry["size"] == len(data)
            assert entry["sha256"] == hashlib.sha256(data).hexdigest()

    def test_no_source_maps_or_typings(self, built_site: Path) -> None:
        names = [p.name for p in built_site.rglob("*")]
        assert not [n for n in names if n.endswith((".map", ".d.ts"))]

    def test_urls_in_page_are_relative(self, built_site: Path) -> None:
        html = (built_site / "index.html").read_text()
        import re

        for url in re.findall(r'(?:src|href)="([^"#]+)"', html):
            assert url.startswith("./"), url
        assert 'interpreter = "./vendor/pyodide/pyodide.mjs"' in (built_site / "pyscript.toml").read_text()

    def test_catalogue_inlined(self, built_site: Path) -> None:
        html = (built_site / "index.html").read_text()
        start = html.index('<script id="boot-data" type="application/json">') + len(
            '<script id="boot-data" type="application/json">')
        data = json.loads(html[start:html.index("</script>", start)])
        assert data["messages"]["nav.settings"]["it"] == "Impostazioni"
        assert data["bootBytes"] > 9_000_000

    def test_app_zip_holds_the_engines(self, built_site: Path) -> None:
        import zipfile

        names = zipfile.ZipFile(built_site / "app.zip").namelist()
        assert "game/core/protocol.py" in names and "web/shell/app.py" in names


@pytest.mark.usefixtures("built_site")
class TestPrecompressed:
    def test_gzip_copies_where_they_save_a_tenth(self, built_site: Path) -> None:
        import gzip

        manifest = json.loads((built_site / "manifest.json").read_text())
        copies = {p.relative_to(built_site).as_posix()[:-3] for p in built_site.rglob("*.gz")}
        assert copies == set(manifest["gzip"]) | {"manifest.json"}
        for rel in ("index.html", "web/shell/boot.js", "vendor/pyodide/pyodide.asm.wasm", "vendor/pyodide/pyodide.asm.mjs",
                    "vendor/pyodide/pyodide-lock.json", "sw.js", "data/it.dawg"):
            packed = (built_site / (rel + ".gz")).read_bytes()
            assert gzip.decompress(packed) == (built_site / rel).read_bytes()
            assert len(packed) <= 0.9 * (built_site / rel).stat().st_size
            assert manifest["gzip"][rel]["sha256"] == hashlib.sha256(packed).hexdigest()
            assert packed[4:8] == b"\0\0\0\0"  # mtime 0: the same bytes on every build
        # what gzip cannot shrink by a tenth gets no copy: PNGs (the zips' members are stored: they shrink)
        for rel in ("icons/icon-192.png", "icons/icon-512.png"):
            assert rel not in manifest["gzip"] and not (built_site / (rel + ".gz")).exists()
        for rel in ("vendor/pyodide/python_stdlib.zip", "app.zip"):
            assert manifest["gzip"][rel]["size"] < 0.5 * manifest["files"][rel]["size"]

    def test_brotli_copies_decode_to_their_files_and_are_never_stale(self, built_site: Path) -> None:
        manifest = json.loads((built_site / "manifest.json").read_text())
        copies = {p.relative_to(built_site).as_posix()[:-3] for p in built_site.rglob("*.br")}
        assert copies == set(manifest["br"]) | {"manifest.json"}
        assert {"index.html", "vendor/pyodide/pyodide.asm.wasm", "vendor/pyodide/python_stdlib.zip", "app.zip",
                "data/it.dawg", "sw.js"} <= set(manifest["br"])
        for rel, entry in manifest["br"].items():
            packed = (built_site / (rel + ".br")).read_bytes()
            assert entry["sha256"] == hashlib.sha256(packed).hexdigest() and entry["size"] == len(packed)
            assert entry["of"] == manifest["files"][rel]["sha256"]  # made from the file as it is now
            assert len(packed) <= 0.9 * manifest["files"][rel]["size"]
            if rel in manifest["gzip"] and manifest["files"][rel]["size"] > 100_000:
                assert len(packed) < manifest["gzip"][rel]["size"]  # brotli beats gzip on the big ones
        for rel in ("index.html", "web/shell/boot.js", "app.zip", "sw.js"):  # decoded by another decoder: Node's
            assert brotli_decode(built_site / (rel + ".br")) == (built_site / rel).read_bytes()

    def test_brotli_is_deterministic_and_cached(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        import random

        monkeypatch.setattr(build, "BROTLI_CACHE", tmp_path / "cache")
        data = b"<!doctype html>" + b"abc " * 3000
        (tmp_path / "x.html").write_bytes(data)
        (tmp_path / "y.zip").write_bytes(random.Random(1).randbytes(2048))  # incompressible: no copy
        files = {"x.html": {"size": len(data)}, "y.zip": {"size": 2048}}
        first = build.write_brotli(tmp_path, files)
        one = (tmp_path / "x.html.br").read_bytes()
        assert "y.zip" not in first and not (tmp_path / "y.zip.br").exists()
        for cached in (tmp_path / "cache").iterdir():  # compressed again from scratch: the same bytes
            cached.unlink()
        assert build.write_brotli(tmp_path, files) == first and (tmp_path / "x.html.br").read_bytes() == one
        assert brotli_decode(tmp_path / "x.html.br") == data
        (tmp_path / "x.html").write_bytes(data + b"changed")  # a changed file is never given the old copy
        again = build.write_brotli(tmp_path, {"x.html": {"size": len(data) + 7}})
        assert again["x.html"]["of"] == hashlib.sha256(data + b"changed").hexdigest()
        assert brotli_decode(tmp_path / "x.html.br") == data + b"changed"


def brotli_decode(path: Path) -> bytes:
    """Decode a .br file with Node's zlib (the standard library has no brotli)."""
    import shutil
    import subprocess

    node = shutil.which("node") or shutil.which("nodejs")
    assert node, "node is needed for the build's brotli copies"
    script = "process.stdout.write(require('zlib').brotliDecompressSync(require('fs').readFileSync(process.argv[1])))"
    return subprocess.run([node, "-e", script, str(path)], capture_output=True, check=True).stdout


def stdlib_modules_of(names: list[str]) -> dict[str, str]:
    """{module: member} of a standard-library zip's Python files."""
    modules = {}
    for name in names:
        if name.endswith(".py"):
            modules[name[:-3].replace("/", ".").removesuffix(".__init__")] = name
    return modules


def imports_anywhere(source: str) -> set[str]:
    """Every absolute import in a source, at any depth (functions, conditions), by its syntax tree."""
    import ast

    names = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names |= {node.module} | {f"{node.module}.{alias.name}" for alias in node.names}
    return names


@pytest.mark.usefixtures("built_site")
class TestTrimmedStdlib:
    """The page loads the build's own python_stdlib.zip: what the site's Python imports must be in it."""

    @pytest.fixture(scope="class")
    def zips(self, built_site: Path) -> tuple[dict[str, str], dict[str, str], zipfile.ZipFile]:
        full = zipfile.ZipFile(build.NODE / "pyodide" / "python_stdlib.zip")
        trimmed = zipfile.ZipFile(built_site / build.STDLIB)
        return stdlib_modules_of(full.namelist()), stdlib_modules_of(trimmed.namelist()), trimmed

    def test_every_stdlib_module_the_site_imports_is_in_it(self, zips: tuple) -> None:
        full, trimmed, _ = zips
        wanted: dict[str, str] = {}
        for package in build.PY_PACKAGES:
            for src in sorted((build.ROOT / package).rglob("*.py")):
                for name in imports_anywhere(src.read_text(encoding="utf-8")):
                    parts = name.split(".")
                    for k in range(1, len(parts) + 1):  # importing a.b.c imports a and a.b
                        if ".".join(parts[:k]) in full:
                            wanted.setdefault(".".join(parts[:k]), src.relative_to(build.ROOT).as_posix())
        assert {"json", "typing", "dataclasses", "asyncio", "argparse", "hashlib", "multiprocessing"} <= set(wanted)
        missing = {name: src for name, src in wanted.items() if name not in trimmed}
        assert not missing, f"imported by the site but not in the trimmed zip: {missing}"

    def test_top_level_imports_of_its_modules_are_in_it(self, zips: tuple) -> None:
        full, trimmed, zf = zips
        missing = set()
        for module, member in trimmed.items():
            for name, top in build.scan_imports(zf.read(member).decode(), module, member.endswith("__init__.py")).items():
                if top and name in full and name not in trimmed:
                    missing.add(f"{module} -> {name}")
        assert not missing

    def test_start_up_modules_and_a_margin_are_in_it_and_unused_ones_are_not(self, zips: tuple) -> None:
        full, trimmed, _ = zips
        assert {"pyodide", "pyodide.webloop", "pyodide.ffi", "_pyodide._base", "encodings.utf_8", "encodings.idna",
                "site", "traceback", "tokenize", "asyncio.base_events", "json.decoder", "tarfile"} <= set(trimmed)
        assert not {"pydoc", "pdb", "doctest", "unittest", "_pyrepl", "xml", "http.server", "tkinter"} & set(trimmed)
        assert len(trimmed) < 0.6 * len(full)

    def test_the_service_worker_caches_the_zip_the_page_loads_and_no_copy(self, built_site: Path) -> None:
        worker = (built_site / "sw.js").read_text()
        files = json.loads(worker.split("const FILES = ", 1)[1].split(";\n", 1)[0])
        assert build.STDLIB in files  # the URL Pyodide loads (<indexURL>python_stdlib.zip), trimmed
        assert not [f for f in files if f.endswith((".gz", ".br"))]
        assert len(zipfile.ZipFile(built_site / build.STDLIB).namelist()) < len(
            zipfile.ZipFile(build.NODE / "pyodide" / "python_stdlib.zip").namelist())

    def test_deterministic_and_stored(self, built_site: Path, tmp_path: Path) -> None:
        full = build.NODE / "pyodide" / "python_stdlib.zip"
        build.trim_stdlib(full, tmp_path / "a.zip")
        build.trim_stdlib(full, tmp_path / "b.zip")
        assert (tmp_path / "a.zip").read_bytes() == (tmp_path / "b.zip").read_bytes() == (
            built_site / build.STDLIB).read_bytes()
        infos = zipfile.ZipFile(tmp_path / "a.zip").infolist()
        assert [i.filename for i in infos] == sorted(i.filename for i in infos)
        assert {i.date_time for i in infos} == {(2020, 1, 1, 0, 0, 0)}
        assert {i.compress_type for i in infos} == {zipfile.ZIP_STORED}
        build.trim_stdlib(full, tmp_path / "c.zip", stored=False)
        source = zipfile.ZipFile(tmp_path / "c.zip")
        assert source.namelist() == [i.filename for i in infos]
        assert source.read("json/__init__.py") == zipfile.ZipFile(full).read("json/__init__.py")

    def test_build_is_deterministic(self, tmp_path: Path) -> None:
        import gzip

        data = b"<!doctype html>" + b"a" * 5000
        (tmp_path / "x.html").write_bytes(data)
        import random

        (tmp_path / "y.zip").write_bytes(random.Random(1).randbytes(2048))  # incompressible
        files = {"x.html": {"size": len(data)}, "y.zip": {"size": 2048}}
        first = build.write_gzip(tmp_path, files)
        one = (tmp_path / "x.html.gz").read_bytes()
        assert build.write_gzip(tmp_path, files) == first and (tmp_path / "x.html.gz").read_bytes() == one
        assert gzip.decompress(one) == data and "y.zip" not in first


#: (node, ESM) The magic number of the Python the site ships: the Pyodide of dist/vendor/pyodide, with its
#: own (trimmed) standard library.
SHIPPED_MAGIC = """
const { loadPyodide } = await import(process.argv[1] + "/pyodide.mjs");
const py = await loadPyodide({ indexURL: process.argv[1] + "/" });
console.log(py.runPython("import importlib.util, sys; importlib.util.MAGIC_NUMBER.hex() + ' ' + sys.implementation.cache_tag"));
"""


@pytest.mark.usefixtures("built_site")
class TestBytecode:
    """app.zip carries, beside each module, its bytecode for the page's Python (issue 25)."""

    @pytest.fixture(scope="class")
    def shipped(self, built_site: Path) -> tuple[str, str]:
        import shutil
        import subprocess

        node = shutil.which("node") or shutil.which("nodejs")
        if node is None:
            pytest.skip("no node: the build ships sources only")
        done = subprocess.run([node, "--input-type=module", "-e", SHIPPED_MAGIC,
                               str(built_site / "vendor" / "pyodide")], capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr[-2000:]
        magic, tag = done.stdout.strip().splitlines()[-1].split()
        return magic, tag

    def test_every_packed_module_has_its_pyc_for_the_shipped_python(self, built_site: Path,
                                                                    shipped: tuple[str, str]) -> None:
        import _imp

        magic, tag = shipped
        lock = json.loads((built_site / "vendor" / "pyodide" / "pyodide-lock.json").read_text())
        major, minor = lock["info"]["python"].split(".")[:2]
        assert tag == f"cpython-{major}{minor}"  # the page's Python, not the build machine's
        zf = zipfile.ZipFile(built_site / "app.zip")
        names = set(zf.namelist())
        sources = sorted(n for n in names if n.endswith(".py"))
        assert {"web/shell/app.py", "game/core/__init__.py", "lexicon/__init__.py"} <= set(sources)
        assert sources == sorted(build.packed_sources())  # the sources are kept (tracebacks keep their lines)
        pycs = {build.pyc_name(rel, tag): rel for rel in sources}
        assert set(pycs) == names - set(sources)  # one pyc per source, nothing else
        for pyc, rel in pycs.items():
            assert pyc == f"{rel.rpartition('/')[0]}/__pycache__/{rel.rpartition('/')[2][:-3]}.{tag}.pyc"
            data, source = zf.read(pyc), zf.read(rel)
            assert data[:4].hex() == magic, pyc  # the vendored Pyodide's magic number
            assert int.from_bytes(data[4:8], "little") == 0b01, pyc  # hash-based, unchecked
            # the hash of exactly the packed source (a stale cached pyc would not match)
            assert data[8:16] == _imp.source_hash(int.from_bytes(data[:4], "little"), source), pyc

    def test_pyc_names(self) -> None:
        assert build.pyc_name("game/core/rng.py", "cpython-314") == "game/core/__pycache__/rng.cpython-314.pyc"
        assert build.pyc_name("web/__init__.py", "cpython-314") == "web/__pycache__/__init__.cpython-314.pyc"

    def test_without_node_sources_only_and_a_note(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
        monkeypatch.setattr("shutil.which", lambda name: None)
        assert build.compile_python({"game/x.py": b"x = 1\n"}) == {}
        assert "node not found" in capsys.readouterr().err
        build.pack_python(tmp_path / "app.zip", bytecode=True)
        names = zipfile.ZipFile(tmp_path / "app.zip").namelist()
        assert names and all(n.endswith(".py") for n in names)

    def test_inputs_digest_follows_what_the_bytecode_depends_on(self, tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
        script = tmp_path / "pyc.mjs"
        script.write_text("// one\n")
        monkeypatch.setattr(build, "PYC_SCRIPT", script)
        first = build.inputs_digest()
        assert build.inputs_digest() == first
        script.write_text("// two, longer\n")
        assert build.inputs_digest() != first  # the compile script
        assert build.inputs_digest(bytecode=False) != build.inputs_digest()  # --no-bytecode
        with_node = build.inputs_digest()
        monkeypatch.setattr("shutil.which", lambda name: None)
        assert build.inputs_digest() != with_node  # node there or not: pycs or none
