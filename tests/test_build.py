"""The static build: remote URLs refused, relative URLs only, manifest with hashes."""

from __future__ import annotations

import hashlib
import json
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
        page.write_text('<script src="./web/boot.js"></script>\n<!-- see https://pyscript.net -->\n'
                        '<svg xmlns="http://www.w3.org/2000/svg"></svg>\n')
        build.check_no_remote([page])

    def test_project_sources_are_clean(self) -> None:
        build.check_no_remote(build.site_sources())


@pytest.mark.usefixtures("built_site")
class TestBuiltSite:
    def test_manifest_lists_every_file_with_hash(self, built_site: Path) -> None:
        manifest = json.loads((built_site / "manifest.json").read_text())
        on_disk = {p.relative_to(built_site).as_posix() for p in built_site.rglob("*")
                   if p.is_file() and not p.name.startswith(".") and p.suffix != ".gz"} - {"manifest.json"}
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
        assert "game/core/protocol.py" in names and "web/app.py" in names


@pytest.mark.usefixtures("built_site")
class TestPrecompressed:
    def test_gzip_copies_where_they_save_a_tenth(self, built_site: Path) -> None:
        import gzip

        manifest = json.loads((built_site / "manifest.json").read_text())
        copies = {p.relative_to(built_site).as_posix()[:-3] for p in built_site.rglob("*.gz")}
        assert copies == set(manifest["gzip"]) | {"manifest.json"}
        for rel in ("index.html", "web/boot.js", "vendor/pyodide/pyodide.asm.wasm", "vendor/pyodide/pyodide.asm.mjs",
                    "vendor/pyodide/pyodide-lock.json", "sw.js", "data/it.dawg"):
            packed = (built_site / (rel + ".gz")).read_bytes()
            assert gzip.decompress(packed) == (built_site / rel).read_bytes()
            assert len(packed) <= 0.9 * (built_site / rel).stat().st_size
            assert manifest["gzip"][rel]["sha256"] == hashlib.sha256(packed).hexdigest()
            assert packed[4:8] == b"\0\0\0\0"  # mtime 0: the same bytes on every build
        # what gzip cannot shrink by a tenth gets no copy: zips, PNGs
        for rel in ("vendor/pyodide/python_stdlib.zip", "app.zip", "icons/icon-192.png"):
            assert rel not in manifest["gzip"] and not (built_site / (rel + ".gz")).exists()

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
