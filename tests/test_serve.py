"""serve.py: content types, traversal refused, dot-files hidden, localhost by default, clear errors."""

from __future__ import annotations

import http.client
import os
import socket
import subprocess
import sys
import threading
from pathlib import Path
from typing import Iterator

import pytest

import serve

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, int, Path]]:
    base = tmp_path_factory.mktemp("serve")
    root = base / "site"
    (root / "vendor").mkdir(parents=True)
    for name, body in {
        "index.html": "<!doctype html>", "a.wasm": "\0asm", "m.mjs": "export {}", "p.py": "x = 1",
        "c.toml": "a = 1", "d.json": "{}", "data.dawg": "\1\2", "vendor/v.js": "1",
    }.items():
        (root / name).write_text(body)
    (root / ".git").mkdir()
    (root / ".git" / "config").write_text("secret")
    (root / ".env").write_text("secret")
    (base / "outside.txt").write_text("secret")
    os.symlink(base / "outside.txt", root / "link.txt")
    server = serve.make_server("127.0.0.1", 0, root, coi=False)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield "127.0.0.1", server.server_address[1], root
    server.shutdown()
    server.server_close()


def get(site: tuple[str, int, Path], path: str) -> tuple[int, str, bytes]:
    conn = http.client.HTTPConnection(site[0], site[1], timeout=5)
    conn.request("GET", path)
    resp = conn.getresponse()
    body = resp.read()
    conn.close()
    return resp.status, resp.getheader("Content-Type") or "", body


class TestTypes:
    @pytest.mark.parametrize(
        "path, ctype",
        [
            ("/a.wasm", "application/wasm"),
            ("/m.mjs", "text/javascript"),
            ("/p.py", "text/x-python"),
            ("/c.toml", "application/toml"),
            ("/d.json", "application/json"),
            ("/data.dawg", "application/octet-stream"),
            ("/", "text/html"),
        ],
    )
    def test_content_type(self, site: tuple[str, int, Path], path: str, ctype: str) -> None:
        status, got, _ = get(site, path)
        assert status == 200 and got.startswith(ctype)


class TestConfinement:
    @pytest.mark.parametrize(
        "path",
        [
            "/../outside.txt", "/%2e%2e/outside.txt", "/vendor/%2E%2E/%2E%2E/outside.txt", "/..%2Foutside.txt",
            "/.git/config", "/.env", "/vendor/../.env", "/link.txt", "//etc/passwd", "/%00index.html",
        ],
    )
    def test_refused(self, site: tuple[str, int, Path], path: str) -> None:
        status, _, body = get(site, path)
        assert status == 404
        assert b"secret" not in body

    def test_inside_still_served(self, site: tuple[str, int, Path]) -> None:
        assert get(site, "/vendor/v.js")[0] == 200


class TestCommandLine:
    def test_binds_localhost_by_default(self) -> None:
        assert serve.arg_parser().parse_args([]).host == "127.0.0.1"

    def test_port_in_use_is_a_clear_error(self, tmp_path: Path) -> None:
        (tmp_path / "index.html").write_text("x")
        with socket.socket() as busy:
            busy.bind(("127.0.0.1", 0))
            busy.listen()
            port = busy.getsockname()[1]
            proc = subprocess.run(
                [sys.executable, str(ROOT / "serve.py"), "--no-setup", "--no-open", "--port", str(port)],
                capture_output=True, text=True, timeout=30,
            )
        assert proc.returncode == 1
        assert "already in use" in proc.stderr

    def test_missing_npm_is_a_clear_error(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        (tmp_path / "package-lock.json").write_text("{}")
        monkeypatch.setattr(serve, "ROOT", tmp_path)
        monkeypatch.setattr(serve.shutil, "which", lambda name: None)
        with pytest.raises(serve.SetupError, match="npm is not installed"):
            serve.setup()

    def test_coi_headers(self, tmp_path: Path) -> None:
        (tmp_path / "index.html").write_text("x")
        server = serve.make_server("127.0.0.1", 0, tmp_path, coi=True)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        try:
            conn = http.client.HTTPConnection("127.0.0.1", server.server_address[1], timeout=5)
            conn.request("GET", "/")
            resp = conn.getresponse()
            assert resp.getheader("Cross-Origin-Opener-Policy") == "same-origin"
            assert resp.getheader("Cross-Origin-Embedder-Policy") == "require-corp"
        finally:
            server.shutdown()
            server.server_close()
