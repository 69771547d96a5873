#!/usr/bin/env python3
"""Set up and serve the Scarab site locally. Standard library only.

    python serve.py [--host 127.0.0.1] [--port 8000] [--no-open] [--coi]

On first run (or when sources changed) it installs the pinned runtime with ``npm ci``, builds the
Italian lexicon and assembles ``dist/``; then it serves ``dist/`` and prints the URL. It serves only
files inside ``dist/``: no ``..``, no absolute paths, no symlinks leading out, no dot-files.
"""

from __future__ import annotations

import argparse
import errno
import http.server
import os
import posixpath
import shutil
import subprocess
import sys
import urllib.parse
import webbrowser
from pathlib import Path

ROOT = Path(__file__).resolve().parent
DIST = ROOT / "dist"

TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".webmanifest": "application/manifest+json",
    ".wasm": "application/wasm",
    ".py": "text/x-python; charset=utf-8",
    ".toml": "application/toml; charset=utf-8",
    ".zip": "application/zip",
    ".dawg": "application/octet-stream",
    ".tsv": "text/tab-separated-values; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".txt": "text/plain; charset=utf-8",
}


class SetupError(Exception):
    pass


def setup(force_build: bool = False) -> None:
    """Install what is missing and rebuild what is stale; quiet when everything is up to date."""
    sys.path.insert(0, str(ROOT))
    lock = ROOT / "package-lock.json"
    stamp = ROOT / "node_modules" / ".package-lock.json"
    if not stamp.exists() or stamp.stat().st_mtime < lock.stat().st_mtime:
        npm = shutil.which("npm")
        if npm is None:
            raise SetupError("npm is not installed: install Node.js and npm (e.g. `apt-get install npm`), then run again")
        print("installing the pinned runtime (npm ci)…", flush=True)
        if subprocess.call([npm, "ci", "--no-audit", "--no-fund"], cwd=ROOT) != 0:
            raise SetupError("`npm ci` failed; see its output above")
    if subprocess.call([sys.executable, "-m", "lexicon", "build"], cwd=ROOT) != 0:
        raise SetupError("building the lexicon failed; see above")
    from tools import build

    inputs = DIST / ".inputs"
    if force_build or not inputs.exists() or inputs.read_text() != build.inputs_digest():
        if build.main(["--out", str(DIST)]) != 0:
            raise SetupError("building the site failed; see above")


class Handler(http.server.SimpleHTTPRequestHandler):
    coi = False
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **TYPES}

    def __init__(self, *args: object, directory: str | None = None, **kwargs: object) -> None:
        super().__init__(*args, directory=directory or str(DIST), **kwargs)  # type: ignore[arg-type]

    def translate_path(self, path: str) -> str:
        """Map a URL path inside the served folder, or to '' (refused) if it would leave it."""
        path = urllib.parse.unquote(path.split("?", 1)[0].split("#", 1)[0], errors="strict")
        if "\x00" in path or "\\" in path:
            return ""
        parts = [p for p in posixpath.normpath("/" + path).split("/") if p]
        if any(p in ("..", ".") or p.startswith(".") for p in parts):
            return ""
        # normpath already folded '..'; also refuse any encoded traversal left in the raw request.
        if ".." in path.split("/"):
            return ""
        root = Path(self.directory).resolve()
        target = root.joinpath(*parts)
        try:
            real = target.resolve()
        except OSError:
            return ""
        if real != root and root not in real.parents:
            return ""  # a symlink pointing out of the folder
        return str(target)

    def send_head(self):  # type: ignore[no-untyped-def]
        if self.translate_path(self.path) == "":
            self.send_error(404, "Not found")
            return None
        return super().send_head()

    def guess_type(self, path: str | os.PathLike[str]) -> str:
        return TYPES.get(Path(path).suffix.lower(), "application/octet-stream")

    def end_headers(self) -> None:
        self.send_header("X-Content-Type-Options", "nosniff")
        if self.coi:
            self.send_header("Cross-Origin-Opener-Policy", "same-origin")
            self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
            self.send_header("Cross-Origin-Resource-Policy", "same-origin")
        super().end_headers()

    def log_message(self, format: str, *args: object) -> None:
        if os.environ.get("SCARAB_QUIET"):
            return
        super().log_message(format, *args)


def make_server(host: str, port: int, directory: Path = DIST, coi: bool = False) -> http.server.ThreadingHTTPServer:
    handler = type("BoundHandler", (Handler,), {"coi": coi})

    def factory(*args: object, **kwargs: object) -> Handler:
        return handler(*args, directory=str(directory), **kwargs)  # type: ignore[arg-type]

    server = http.server.ThreadingHTTPServer((host, port), factory)  # type: ignore[arg-type]
    server.daemon_threads = True
    return server


def arg_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description="Set up and serve the Scarab site locally.")
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1, this machine only)")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--no-open", action="store_true", help="do not open a browser")
    parser.add_argument("--coi", action="store_true", help="send cross-origin-isolation headers (COOP/COEP)")
    parser.add_argument("--no-setup", action="store_true", help="serve dist/ as it is")
    parser.add_argument("--rebuild", action="store_true", help="rebuild dist/ even if it looks up to date")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = arg_parser().parse_args(argv)
    try:
        if not args.no_setup:
            setup(force_build=args.rebuild)
        if not (DIST / "index.html").exists():
            raise SetupError("dist/ is not built (run without --no-setup)")
        server = make_server(args.host, args.port, DIST, args.coi)
    except SetupError as err:
        print(f"serve.py: {err}", file=sys.stderr)
        return 1
    except OSError as err:
        if err.errno == errno.EADDRINUSE:
            print(f"serve.py: port {args.port} on {args.host} is already in use; pick another with --port",
                  file=sys.stderr)
        else:
            print(f"serve.py: cannot listen on {args.host}:{args.port}: {err.strerror}", file=sys.stderr)
        return 1
    host, port = server.server_address[:2]
    url = f"http://{'localhost' if host in ('127.0.0.1', '::1') else host}:{port}/"
    print(f"Scarab is served at {url}  (Ctrl+C to stop)", flush=True)
    if not args.no_open:
        try:
            webbrowser.open(url)
        except Exception:
            pass
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
