"""serve.py: content types, traversal refused, dot-files hidden, no listings, clean 400s, framing and cache
headers, conditional requests, bounded against idle connections, localhost by default, clear errors."""

from __future__ import annotations

import contextlib
import http.client
import os
import socket
import subprocess
import sys
import threading
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

import pytest

import serve

ROOT = Path(__file__).resolve().parent.parent
HASHED_CHUNK = "vendor/pyscript/core-C9KDLldu.js"


@dataclass
class Site:
    host: str
    port: int
    root: Path
    errors: list[str] = field(default_factory=list)  # tracebacks the server would have logged


@contextlib.contextmanager
def serving(root: Path, coi: bool = False, **attrs: object) -> Iterator[Site]:
    server = serve.make_server("127.0.0.1", 0, root, coi=coi)
    for name, value in attrs.items():
        setattr(server, name, value)
    site = Site("127.0.0.1", server.server_address[1], root)
    server.handle_error = lambda request, address: site.errors.append(traceback.format_exc())  # type: ignore
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield site
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    base = tmp_path_factory.mktemp("serve")
    root = base / "site"
    for name, body in {
        "index.html": "<!doctype html>", "embed.html": "<!doctype html><title>embed</title>", "a.wasm": "\0asm",
        "m.mjs": "export {}", "p.py": "x = 1", "c.toml": "a = 1", "d.json": "{}", "data.dawg": "\1\2",
        "sw.js": "//", "manifest.json": "{}", "app.webmanifest": "{}", "pyscript.toml": "", "app.zip": "PK",
        "vendor/v.js": "1", "vendor/pyscript/core.js": "import './core-C9KDLldu.js'", HASHED_CHUNK: "1",
        "vendor/pyscript/service-worker.js": "", "vendor/pyodide/pyodide.asm.wasm": "\0asm",
        "web/style.css": "", "games/scarab/index.html": "<!doctype html><title>sub</title>",
        ".git/config": "secret", ".env": "secret", "trap/x.txt": "",
    }.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(body)
    (base / "outside.txt").write_text("secret")
    (base / ".hidden").write_text("secret")
    os.symlink(base / "outside.txt", root / "link.txt")  # out of the folder
    os.symlink(base / ".hidden", root / "dot-link.txt")  # out, and to a dot-file
    os.symlink(root / ".env", root / "env-link.txt")  # inside, to a dot-file
    os.symlink(root / ".git", root / "gitlink")  # inside, to a dot-folder
    os.symlink(base / "outside.txt", root / "trap" / "index.html")  # a folder's index leading out
    os.symlink(root / "loop", root / "loop")
    os.mkfifo(root / "fifo")  # opening it would block the handler
    with serving(root) as running:
        yield running


def request(site: Site, path: str, headers: dict[str, str] | None = None,
            method: str = "GET") -> tuple[int, dict[str, str], bytes]:
    conn = http.client.HTTPConnection(site.host, site.port, timeout=10)
    try:
        conn.request(method, path, headers=headers or {})
        resp = conn.getresponse()
        return resp.status, {k.lower(): v for k, v in resp.getheaders()}, resp.read()
    finally:
        conn.close()


def get(site: Site, path: str) -> tuple[int, str, bytes]:
    status, headers, body = request(site, path)
    return status, headers.get("content-type", ""), body


def raw(site: Site, data: bytes) -> bytes:
    """The whole reply to bytes sent as they are (http.client would refuse non-ASCII paths)."""
    with socket.create_connection((site.host, site.port), timeout=10) as sock:
        sock.sendall(data)
        reply = b""
        while chunk := sock.recv(65536):
            reply += chunk
    return reply


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
            ("/app.webmanifest", "application/manifest+json"),
            ("/", "text/html"),
        ],
    )
    def test_content_type(self, site: Site, path: str, ctype: str) -> None:
        status, got, _ = get(site, path)
        assert status == 200 and got.startswith(ctype)

    def test_head_has_no_body(self, site: Site) -> None:
        status, headers, body = request(site, "/index.html", method="HEAD")
        assert (status, body, headers["content-length"]) == (200, b"", "15")


class TestConfinement:
    @pytest.mark.parametrize(
        "path",
        [
            "/../outside.txt", "/%2e%2e/outside.txt", "/vendor/%2E%2E/%2E%2E/outside.txt", "/..%2Foutside.txt",
            "/.git/config", "/.env", "/vendor/../.env", "/link.txt", "//etc/passwd", "/%00index.html",
            "/dot-link.txt", "/env-link.txt", "/gitlink/config", "/gitlink/", "/trap/", "/trap", "/loop",
            "/fifo", "/%5c..%5coutside.txt", "/missing.js",
        ],
    )
    def test_refused(self, site: Site, path: str) -> None:
        status, _, body = get(site, path)
        assert status == 404
        assert b"secret" not in body
        assert site.errors == []

    def test_inside_still_served(self, site: Site) -> None:
        assert get(site, "/vendor/v.js")[0] == 200


class TestEncodings:
    @pytest.mark.parametrize(
        "path",
        [
            "/%ff", "/%e9", "/%c0%ae%c0%ae/serve.py", "/%c0%af", "/%e0%80%ae%e0%80%ae/outside.txt",  # overlong
            "/%ed%a0%80", "/%f8%88%80%80%80", "/index.html%80", "/%ff/../index.html",
        ],
    )
    def test_not_utf8_is_400(self, site: Site, path: str) -> None:
        status, headers, _ = request(site, path)
        assert status == 400
        assert headers["x-content-type-options"] == "nosniff"
        assert site.errors == []

    def test_raw_non_ascii_bytes_are_400(self, site: Site) -> None:
        reply = raw(site, b"GET /\xc3\xa9\xff HTTP/1.0\r\n\r\n")
        assert reply.split(b" ", 2)[1] == b"400"
        assert site.errors == []

    def test_utf8_names_are_served(self, site: Site) -> None:
        (site.root / "caffè.txt").write_text("ok")
        assert get(site, "/caff%C3%A8.txt")[0] == 200


class TestListings:
    @pytest.mark.parametrize("path", ["/web/", "/web", "/vendor/", "/vendor", "/vendor/pyscript/", "/games/"])
    def test_folders_are_404_and_never_listed(self, site: Site, path: str) -> None:
        status, _, body = get(site, path)
        assert status == 404
        assert b"style.css" not in body and b"v.js" not in body and b"scarab" not in body

    def test_root_serves_index(self, site: Site) -> None:
        assert get(site, "/") == (200, "text/html; charset=utf-8", b"<!doctype html>")
        assert get(site, "/?lang=en")[2] == b"<!doctype html>"

    def test_folder_with_index_serves_it(self, site: Site) -> None:
        """The site deployed under a sub-path (the e2e tests serve it so)."""
        assert b"sub" in get(site, "/games/scarab/")[2]
        status, headers, _ = request(site, "/games/scarab?x=1")
        assert (status, headers["location"]) == (301, "/games/scarab/?x=1")


class TestHeaders:
    @pytest.mark.parametrize("path", ["/", "/index.html", "/games/scarab/", "/m.mjs", "/a.wasm", "/missing", "/%ff"])
    def test_not_frameable(self, site: Site, path: str) -> None:
        _, headers, _ = request(site, path)
        assert headers["x-frame-options"] == "DENY"
        assert headers["content-security-policy"] == "frame-ancestors 'none'"

    def test_embed_frameable_by_any_site(self, site: Site) -> None:
        status, headers, _ = request(site, "/embed.html?game=thot")
        assert status == 200
        assert "x-frame-options" not in headers
        assert "frame-ancestors" not in headers.get("content-security-policy", "")

    @pytest.mark.parametrize("path", ["/", "/embed.html", "/a.wasm", "/" + HASHED_CHUNK, "/missing", "/%ff", "/web"])
    def test_on_every_response(self, site: Site, path: str) -> None:
        _, headers, _ = request(site, path)
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["referrer-policy"] == "no-referrer"
        assert "cache-control" in headers


class TestCaching:
    @pytest.mark.parametrize(
        "path",
        [
            "/", "/index.html", "/embed.html", "/sw.js", "/manifest.json", "/app.webmanifest", "/pyscript.toml",
            "/app.zip", "/vendor/pyscript/core.js", "/vendor/pyscript/service-worker.js",
            "/vendor/pyodide/pyodide.asm.wasm", "/web/style.css", "/missing",
        ],
    )
    def test_revalidated(self, site: Site, path: str) -> None:
        assert request(site, path)[1]["cache-control"] == "no-cache"

    def test_content_hashed_chunk_immutable(self, site: Site) -> None:
        assert request(site, "/" + HASHED_CHUNK)[1]["cache-control"] == "public, max-age=31536000, immutable"

    @pytest.mark.parametrize(
        "name, hashed",
        [
            ("vendor/pyscript/core-C9KDLldu.js", True), ("vendor/pyscript/codemirror_lang-python-r-dBg-Wd.js", True),
            ("vendor/pyscript/xterm_addon-web-links-DVH-i-UR.js", True), ("games/x/vendor/pyscript/zip-T1gzVEcZ.js", True),
            ("vendor/pyscript/core.js", False), ("vendor/pyscript/service-worker.js", False),
            ("vendor/pyscript/py-terminal.js", False), ("vendor/pyscript/xterm.css", False),
            ("vendor/pyscript/core-C9KDLldu.css", False), ("web/core-C9KDLldu.js", False),
            ("vendor/pyodide/pyodide.asm.wasm", False), ("vendor/pyscript/core-C9KDLldu.js.map", False),
        ],
    )
    def test_which_names_are_content_hashed(self, name: str, hashed: bool) -> None:
        assert bool(serve.HASHED.search(name)) is hashed

    def test_conditional_request(self, site: Site) -> None:
        path = site.root / "changing.txt"
        path.write_text("one")
        _, first, _ = request(site, "/changing.txt")
        etag = first["etag"]
        status, headers, body = request(site, "/changing.txt", {"If-None-Match": etag})
        assert (status, body, headers["etag"], headers["cache-control"]) == (304, b"", etag, "no-cache")
        assert request(site, "/changing.txt", {"If-None-Match": f'"x", W/{etag}'})[0] == 304
        assert request(site, "/changing.txt", {"If-None-Match": '"other"'})[0] == 200
        path.write_text("two")  # same size, rewritten in place
        status, headers, body = request(site, "/changing.txt", {"If-None-Match": etag})
        assert (status, body) == (200, b"two") and headers["etag"] != etag

    def test_dates_alone_never_give_304(self, site: Site) -> None:
        """A date has one-second steps: a rebuild within the second would look unchanged."""
        assert request(site, "/index.html", {"If-Modified-Since": "Fri, 01 Jan 2100 00:00:00 GMT"})[0] == 200

    def test_embed_304_still_frameable(self, site: Site) -> None:
        etag = request(site, "/embed.html")[1]["etag"]
        status, headers, _ = request(site, "/embed.html", {"If-None-Match": etag})
        assert status == 304 and "x-frame-options" not in headers


def open_idle(site: Site, count: int) -> list[socket.socket]:
    socks = []
    for _ in range(count):
        sock = socket.create_connection((site.host, site.port), timeout=10)
        socks.append(sock)
    return socks


def closed_by_server(sock: socket.socket, within: float = 10) -> bool:
    sock.settimeout(within)
    try:
        return sock.recv(1) == b""
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False


class TestConnections:
    def test_request_answers_while_many_connections_idle(self, site: Site) -> None:
        threads = threading.active_count()
        socks: list[socket.socket] = []
        try:
            socks = open_idle(site, 300)
            assert threading.active_count() <= threads + 2  # idle connections take no thread
            status, _, body = get(site, "/")  # 10 s socket timeout: the failure condition
            assert (status, body) == (200, b"<!doctype html>")
        finally:
            for sock in socks:
                sock.close()

    def test_idle_connection_dropped_after_timeout(self, tmp_path: Path) -> None:
        (tmp_path / "index.html").write_text("x")
        with serving(tmp_path, idle_timeout=0.3) as site, socket.create_connection((site.host, site.port)) as sock:
            assert closed_by_server(sock)

    def test_oldest_idle_dropped_past_the_bound(self, tmp_path: Path) -> None:
        (tmp_path / "index.html").write_text("x")
        with serving(tmp_path, max_idle=16) as site:
            socks = open_idle(site, 40)
            try:
                assert closed_by_server(socks[0])
                assert get(site, "/")[0] == 200
                assert not closed_by_server(socks[-1], within=0.3)
            finally:
                for sock in socks:
                    sock.close()

    def test_stalled_request_dropped(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        (tmp_path / "index.html").write_text("x")
        monkeypatch.setattr(serve.Handler, "timeout", 0.3)
        with serving(tmp_path) as site, socket.create_connection((site.host, site.port)) as sock:
            sock.sendall(b"GET / HTTP/1.0\r\nHost: x\r\n")  # the headers never end
            assert closed_by_server(sock)
            assert get(site, "/")[0] == 200


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
        with serving(tmp_path, coi=True) as site:
            _, headers, _ = request(site, "/")
            assert headers["cross-origin-opener-policy"] == "same-origin"
            assert headers["cross-origin-embedder-policy"] == "require-corp"
            assert headers["x-frame-options"] == "DENY"


@dataclass
class FreshClone:
    """serve.py's set-up in a folder where npm has not run and dist/ is not built (the lexicon is the
    real one, built once); npm and the site build are stand-ins, fast, that do what they do."""

    root: Path
    dist: Path


@pytest.fixture()
def fresh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> FreshClone:
    from lexicon.build import ensure_built
    from tools import build

    ensure_built()
    (tmp_path / "package-lock.json").write_text("{}")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    npm = bin_dir / "npm"
    npm.write_text("#!/bin/sh\necho 'added 27 packages in 4s'\necho 'npm warn noise' >&2\n"
                   "mkdir -p node_modules && touch node_modules/.package-lock.json\n")
    npm.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.delenv("SCARAB_QUIET", raising=False)
    monkeypatch.setattr(serve, "ROOT", tmp_path)
    monkeypatch.setattr(serve, "DIST", tmp_path / "dist")

    def fake_build(out: Path, full_stdlib: bool = False, stored: bool = True,
                   bytecode: bool = True) -> dict[str, dict[str, object]]:
        out.mkdir(parents=True, exist_ok=True)
        (out / "index.html").write_text("<!doctype html>")
        return {"index.html": {"size": 15, "sha256": "0" * 64}}

    monkeypatch.setattr(build, "build", fake_build)
    return FreshClone(tmp_path, tmp_path / "dist")


def stop_at_once(self: serve.Server, poll_interval: float = 0.5) -> None:
    raise KeyboardInterrupt  # as Ctrl+C right after the URL is printed


class TestFirstRun:
    """One line when each long step starts and one when it is done, the URL last; the statistics
    in files, on screen only with --verbose (the lexicon's own lines: tests/lexicon/test_cli.py)."""

    STEPS = [r"npm: installing the pinned runtime \(npm ci\) …", r"npm: installed in \d+ s",
             r"site: building (?P<dist>.+)/ …",
             r"site: built (?P=dist)/ in \d+ s: 1 files, 0\.0 MB \(every file's size and SHA-256 in (?P=dist)/manifest\.json\)"]

    def test_steps_then_the_url_last(self, fresh: FreshClone, capsys: pytest.CaptureFixture[str],
                                     monkeypatch: pytest.MonkeyPatch) -> None:
        import re

        monkeypatch.setattr(serve.Server, "serve_forever", stop_at_once)
        assert serve.main(["--no-open", "--port", "0"]) == 0
        out = capsys.readouterr().out
        lines = out.splitlines()
        assert len(lines) == 5, out
        found = re.fullmatch("\n".join(self.STEPS), "\n".join(lines[:4]))
        assert found and Path(found["dist"]) == fresh.dist, out
        assert re.fullmatch(r"Scarab is served at http://localhost:\d+/  \(Ctrl\+C to stop\)", lines[4])
        assert "added 27 packages" not in out and "noise" not in out  # npm's own output only on failure
        assert (fresh.dist / ".inputs").is_file()
        serve.main(["--no-open", "--port", "0"])  # everything up to date: nothing to say but the URL
        again = capsys.readouterr().out.splitlines()
        assert len(again) == 1 and again[0].startswith("Scarab is served at ")

    def test_verbose_prints_the_lexicon_statistics_from_their_file(
            self, fresh: FreshClone, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
        import json

        from lexicon.build import STAMP

        serve.setup()
        capsys.readouterr()
        monkeypatch.setattr(serve.Server, "serve_forever", stop_at_once)
        assert serve.main(["--no-open", "--port", "0", "--verbose"]) == 0
        heading, *middle, url = capsys.readouterr().out.splitlines()
        assert heading == "lexicon statistics (lexicon/data/it.dawg.stamp):"
        assert json.loads("\n".join(middle)) == json.loads(STAMP.read_text(encoding="utf-8"))
        assert url.startswith("Scarab is served at ")

    def test_quiet_says_nothing(self, fresh: FreshClone, capsys: pytest.CaptureFixture[str],
                                monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setenv("SCARAB_QUIET", "1")
        serve.setup()
        assert capsys.readouterr().out == "" and (fresh.dist / "index.html").is_file()

    def test_npm_output_is_shown_when_it_fails(self, fresh: FreshClone, capsys: pytest.CaptureFixture[str]) -> None:
        (fresh.root / "bin" / "npm").write_text("#!/bin/sh\necho 'npm error network unreachable' >&2\nexit 3\n")
        with pytest.raises(serve.SetupError, match=r"(?s)`npm ci` failed \(exit 3\):\nnpm error network unreachable"):
            serve.setup()
        assert capsys.readouterr().out == "npm: installing the pinned runtime (npm ci) …\n"


@pytest.fixture(scope="module")
def packed_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    """Files with the build's precompressed copies next to them (tools/build.py writes `<file>.gz`)."""
    import gzip

    base = tmp_path_factory.mktemp("packed")
    root = base / "site"
    root.mkdir()
    bodies = {"index.html": "<!doctype html>" + "x" * 2000, "embed.html": "<!doctype html>" + "e" * 2000,
              "vendor/pyodide/pyodide.asm.wasm": "\0asm" + "\0" * 4000, "web/boot.js": "//" + " " * 3000,
              "plain.css": "a{}"}
    for name, body in bodies.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(body)
        if name != "plain.css":
            (root / (name + ".gz")).write_bytes(gzip.compress(body.encode(), 9, mtime=0))
    (base / "outside.gz").write_bytes(gzip.compress(b"secret", mtime=0))
    (root / "leak.txt").write_text("fine")
    os.symlink(base / "outside.gz", root / "leak.txt.gz")  # a copy that leads out of the folder
    (root / "dot.txt").write_text("fine")
    (root / ".dot.txt.gz").write_bytes(b"")
    with serving(root) as running:
        yield running


class TestCompression:
    GZIP = {"Accept-Encoding": "gzip, deflate, br"}

    @pytest.mark.parametrize("path, ctype", [("/", "text/html; charset=utf-8"),
                                             ("/vendor/pyodide/pyodide.asm.wasm", "application/wasm"),
                                             ("/web/boot.js", "text/javascript; charset=utf-8")])
    def test_gzip_copy_served_when_accepted(self, packed_site: Site, path: str, ctype: str) -> None:
        import gzip

        status, headers, body = request(packed_site, path, self.GZIP)
        assert status == 200 and headers["content-encoding"] == "gzip"
        assert headers["content-type"] == ctype  # the type of what it decodes to
        assert headers["vary"] == "Accept-Encoding"
        assert int(headers["content-length"]) == len(body)
        plain = request(packed_site, path)[2]
        assert gzip.decompress(body) == plain and len(body) < len(plain)

    @pytest.mark.parametrize("accept", ["identity", "gzip;q=0", "br", "*;q=0", "", "gzip;q=zero"])
    def test_plain_when_gzip_not_accepted(self, packed_site: Site, accept: str) -> None:
        status, headers, body = request(packed_site, "/web/boot.js", {"Accept-Encoding": accept})
        assert status == 200 and "content-encoding" not in headers
        assert headers["vary"] == "Accept-Encoding" and body.startswith(b"//")

    def test_accept_encoding_parsing(self) -> None:
        assert serve.accepts_gzip("gzip") and serve.accepts_gzip("deflate, GZIP;q=0.5")
        assert serve.accepts_gzip("*") and serve.accepts_gzip("x-gzip")
        assert not serve.accepts_gzip(None) and not serve.accepts_gzip("gzip;q=0") and not serve.accepts_gzip("br")
        assert not serve.accepts_gzip("*, gzip;q=0")

    def test_no_copy_no_vary(self, packed_site: Site) -> None:
        status, headers, _ = request(packed_site, "/plain.css", self.GZIP)
        assert status == 200 and "content-encoding" not in headers and "vary" not in headers

    def test_each_encoding_has_its_etag_and_304(self, packed_site: Site) -> None:
        _, zipped, _ = request(packed_site, "/web/boot.js", self.GZIP)
        _, plain, _ = request(packed_site, "/web/boot.js")
        assert zipped["etag"] != plain["etag"]
        status, headers, body = request(packed_site, "/web/boot.js", {**self.GZIP, "If-None-Match": zipped["etag"]})
        assert status == 304 and body == b"" and headers["vary"] == "Accept-Encoding"
        status, _, _ = request(packed_site, "/web/boot.js", {"If-None-Match": zipped["etag"]})
        assert status == 200  # the plain file is another representation

    def test_headers_kept_on_the_gzip_copy(self, packed_site: Site) -> None:
        _, headers, _ = request(packed_site, "/", self.GZIP)
        assert headers["x-frame-options"] == "DENY" and headers["x-content-type-options"] == "nosniff"
        assert headers["cache-control"] == "no-cache"
        _, headers, _ = request(packed_site, "/embed.html", self.GZIP)
        assert headers["content-encoding"] == "gzip" and "x-frame-options" not in headers

    def test_head_request(self, packed_site: Site) -> None:
        status, headers, body = request(packed_site, "/web/boot.js", self.GZIP, method="HEAD")
        assert status == 200 and headers["content-encoding"] == "gzip" and body == b""

    def test_copy_leading_out_or_dot_named_is_never_served(self, packed_site: Site) -> None:
        status, headers, body = request(packed_site, "/leak.txt", self.GZIP)
        assert status == 200 and body == b"fine" and "content-encoding" not in headers
        status, headers, body = request(packed_site, "/dot.txt", self.GZIP)
        assert status == 200 and body == b"fine" and "content-encoding" not in headers
        assert request(packed_site, "/leak.txt.gz")[0] == 404


def test_a_copy_older_than_its_file_is_never_served(tmp_path: Path) -> None:
    """A file replaced after the build (a deployer's edit, a new service worker) wins over its stale .gz."""
    import gzip

    (tmp_path / "sw.js").write_text("old" * 100)
    (tmp_path / "sw.js.gz").write_bytes(gzip.compress(b"old" * 100, mtime=0))
    os.utime(tmp_path / "sw.js.gz", (1_000_000, 1_000_000))
    (tmp_path / "sw.js").write_text("new" * 100)
    with serving(tmp_path) as site:
        status, headers, body = request(site, "/sw.js", {"Accept-Encoding": "gzip"})
    assert status == 200 and body.startswith(b"new") and "content-encoding" not in headers


@pytest.fixture(scope="module")
def br_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    """Files with both precompressed copies (`<file>.br` from Node's brotli, as the build writes them, and
    `<file>.gz`), one with a gzip copy only, one whose brotli copy is stale."""
    import gzip
    import shutil

    from tools import build

    root = tmp_path_factory.mktemp("br")
    bodies = {"index.html": "<!doctype html>" + "hello " * 500, "web/boot.js": "// boot\n" + "var a = 1;\n" * 400,
              "only-gz.js": "// gz\n" + " " * 3000, "stale.js": "// new\n" + "x" * 3000}
    for name, body in bodies.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(body)
        (root / (name + ".gz")).write_bytes(gzip.compress(body.encode(), 9, mtime=0))
    if not (shutil.which("node") or shutil.which("nodejs")):
        pytest.skip("node is needed for brotli copies")
    build.write_brotli(root, {name: {} for name in ("index.html", "web/boot.js", "stale.js")})
    os.utime(root / "stale.js.br", (1_000_000, 1_000_000))  # the file was replaced after the build
    with serving(root) as running:
        yield running


class TestBrotli:
    @pytest.mark.parametrize("accept", ["gzip, deflate, br, zstd", "br", "br;q=1, gzip;q=0.9", "*", "gzip;q=0, *",
                                        "BR;q=0.5, gzip;q=0.5"])
    def test_br_served_when_accepted_and_preferred(self, br_site: Site, accept: str, tmp_path: Path) -> None:
        from tests.test_build import brotli_decode

        status, headers, body = request(br_site, "/web/boot.js", {"Accept-Encoding": accept})
        assert status == 200 and headers["content-encoding"] == "br"
        assert headers["content-type"] == "text/javascript; charset=utf-8" and headers["vary"] == "Accept-Encoding"
        plain = request(br_site, "/web/boot.js")[2]
        assert int(headers["content-length"]) == len(body) < len(plain)
        path = tmp_path / "x.br"
        path.write_bytes(body)
        assert brotli_decode(path) == plain

    @pytest.mark.parametrize("accept", ["gzip", "gzip, deflate", "br;q=0, gzip", "br;q=0.5, gzip", "x-gzip, br;q=0.1",
                                        "*, br;q=0"])
    def test_gzip_when_br_refused_or_ranked_lower(self, br_site: Site, accept: str) -> None:
        status, headers, _ = request(br_site, "/web/boot.js", {"Accept-Encoding": accept})
        assert status == 200 and headers["content-encoding"] == "gzip" and headers["vary"] == "Accept-Encoding"

    @pytest.mark.parametrize("accept", ["", "identity", "br;q=0, gzip;q=0", "*;q=0", "deflate, zstd", "br;q=x"])
    def test_plain_otherwise(self, br_site: Site, accept: str) -> None:
        status, headers, body = request(br_site, "/web/boot.js", {"Accept-Encoding": accept})
        assert status == 200 and "content-encoding" not in headers and body.startswith(b"// boot")
        assert headers["vary"] == "Accept-Encoding"

    def test_gzip_for_a_file_with_no_br_copy(self, br_site: Site) -> None:
        status, headers, _ = request(br_site, "/only-gz.js", {"Accept-Encoding": "br, gzip"})
        assert status == 200 and headers["content-encoding"] == "gzip"

    def test_a_stale_br_copy_is_never_served(self, br_site: Site) -> None:
        status, headers, body = request(br_site, "/stale.js", {"Accept-Encoding": "br"})
        assert status == 200 and "content-encoding" not in headers and body.startswith(b"// new")
        status, headers, _ = request(br_site, "/stale.js", {"Accept-Encoding": "br, gzip"})
        assert headers["content-encoding"] == "gzip"  # the fresh copy instead

    def test_each_encoding_has_its_etag(self, br_site: Site) -> None:
        tags = {accept: request(br_site, "/", {"Accept-Encoding": accept})[1]["etag"] for accept in ("br", "gzip", "")}
        assert len(set(tags.values())) == 3
        status, headers, _ = request(br_site, "/", {"Accept-Encoding": "br", "If-None-Match": tags["br"]})
        assert status == 304 and headers["vary"] == "Accept-Encoding"
        assert request(br_site, "/", {"Accept-Encoding": "gzip", "If-None-Match": tags["br"]})[0] == 200
        assert request(br_site, "/", {"Accept-Encoding": "br", "If-None-Match": tags["gzip"]})[0] == 200

    def test_headers_kept_and_head(self, br_site: Site) -> None:
        status, headers, body = request(br_site, "/", {"Accept-Encoding": "br"}, method="HEAD")
        assert status == 200 and headers["content-encoding"] == "br" and body == b""
        assert headers["x-frame-options"] == "DENY" and headers["cache-control"] == "no-cache"

    def test_choose_coding(self) -> None:
        assert serve.choose_coding("gzip, br", ["br", "gzip"]) == "br"
        assert serve.choose_coding("gzip, br", ["gzip"]) == "gzip"
        assert serve.choose_coding("br;q=0.2, gzip;q=0.8", ["br", "gzip"]) == "gzip"
        assert serve.choose_coding("br;q=0", ["br"]) is None and serve.choose_coding(None, ["br", "gzip"]) is None
        assert serve.choose_coding("*", ["br", "gzip"]) == "br" and serve.choose_coding("*;q=0, gzip", ["br", "gzip"]) == "gzip"
