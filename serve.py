#!/usr/bin/env python3
"""Set up and serve the Scarab site locally. Standard library only.

    python serve.py [--host 127.0.0.1] [--port 8000] [--no-open] [--coi] [--verbose] [--setup-only]

On first run (or when sources changed) it installs the pinned runtime with ``npm ci``, builds the
Italian lexicon and assembles ``dist/``, a line when each of these starts and one when it is done
(the lexicon, about a minute, shows its progress); then it serves ``dist/`` and prints the URL, last.
The lexicon's statistics are in ``lexicon/data/it.dawg.stamp`` (``--verbose`` prints them), the
site's files in ``dist/manifest.json``; ``SCARAB_QUIET=1`` prints only errors and the URL. It serves only
regular files inside ``dist/``: no ``..``, no absolute paths, no symlinks leading out or to dot-files, no
dot-files, no folder listings, 400 for paths that are not UTF-8. Framing, caching and the bounds on
connections are described in docs/platform.md ("Serving").
"""

from __future__ import annotations

import argparse
import errno
import http.server
import os
import queue
import re
import selectors
import shutil
import socket
import subprocess
import sys
import threading
import time
import urllib.parse
import webbrowser
from pathlib import Path
from typing import BinaryIO

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
    ".gz": "application/gzip",
    ".br": "application/octet-stream",
}


class SetupError(Exception):
    pass


def setup(force_build: bool = False, verbose: bool = False) -> None:
    """Install what is missing and rebuild what is stale: a line when each of these steps starts and
    one when it is done, nothing when everything is up to date. ``SCARAB_QUIET`` set: errors only.
    ``verbose``: the lexicon's statistics too (JSON, from its stamp file)."""
    sys.path.insert(0, str(ROOT))
    quiet = bool(os.environ.get("SCARAB_QUIET"))
    lock = ROOT / "package-lock.json"
    stamp = ROOT / "node_modules" / ".package-lock.json"
    if not stamp.exists() or stamp.stat().st_mtime < lock.stat().st_mtime:
        install_runtime(quiet)
    from lexicon import build as lexicon_build

    # Asked here rather than by running the command, which would say "up to date" on every start.
    if not lexicon_build.is_up_to_date():
        # A process of its own: the build's half a gigabyte is given back before serving.
        if subprocess.call([sys.executable, "-m", "lexicon", "build", *(["--quiet"] if quiet else [])], cwd=ROOT) != 0:
            raise SetupError("building the lexicon failed; see above")
    if verbose:
        print(f"lexicon statistics ({lexicon_build.shown_path(lexicon_build.STAMP)}):\n"
              f"{lexicon_build.STAMP.read_text(encoding='utf-8').rstrip()}", flush=True)
    from tools import build

    inputs = DIST / ".inputs"
    if force_build or not inputs.exists() or inputs.read_text() != build.inputs_digest():
        if build.main(["--out", str(DIST), *(["--quiet"] if quiet else [])]) != 0:
            raise SetupError("building the site failed; see above")


def install_runtime(quiet: bool = False) -> None:
    """``npm ci``: its own output is shown only when it fails."""
    npm = shutil.which("npm")
    if npm is None:
        raise SetupError("npm is not installed: install Node.js and npm (e.g. `apt-get install npm`), then run again")
    if not quiet:
        print("npm: installing the pinned runtime (npm ci) …", flush=True)
    started = time.perf_counter()
    done = subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=ROOT, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        said = (done.stdout + done.stderr).strip()
        raise SetupError(f"`npm ci` failed (exit {done.returncode}):\n{said[-2000:]}")
    if not quiet:
        print(f"npm: installed in {time.perf_counter() - started:.0f} s", flush=True)


# Rollup names @pyscript/core's chunks `<name>-<8-character hash of their content>.js`, so such a URL never
# names other bytes: those may be cached for good. The hash holds a capital or a digit; plain names
# (`service-worker.js`, `py-terminal.js`) do not, so they are never taken for hashed ones.
HASHED = re.compile(r"(?:^|/)vendor/pyscript/[A-Za-z0-9_.-]+-(?=[A-Za-z0-9_-]{0,7}[A-Z0-9])[A-Za-z0-9_-]{8}\.js$")
IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"  # may be stored, but asked for again each time: one cheap 304 when unchanged
FRAMEABLE = "embed.html"  # the only page other sites may frame
CODINGS = {"br": ".br", "gzip": ".gz"}  # the build's precompressed copies: Content-Encoding -> suffix
COPY_SUFFIXES = tuple(CODINGS.values())


def accepted_codings(header: str | None) -> dict[str, float]:
    """An ``Accept-Encoding`` value as {coding: q} (lower-case names; a malformed q counts as 0)."""
    codings: dict[str, float] = {}
    for part in (header or "").split(","):
        name, _, params = part.partition(";")
        name = name.strip().lower()
        q = 1.0
        for param in params.split(";"):
            key, _, value = param.partition("=")
            if key.strip().lower() == "q":
                try:
                    q = float(value.strip())
                except ValueError:
                    q = 0.0
        if name:
            codings.setdefault("gzip" if name == "x-gzip" else name, q)
    return codings


def coding_q(codings: dict[str, float], coding: str) -> float:
    """The q a parsed ``Accept-Encoding`` gives ``coding``: its own, else ``*``'s, else 0."""
    return codings.get(coding, codings.get("*", 0.0))


def accepts_gzip(header: str | None) -> bool:
    """Whether an ``Accept-Encoding`` value allows gzip: ``gzip`` (or ``x-gzip``) with a q above 0,
    or, when gzip is not named, ``*`` with a q above 0."""
    return coding_q(accepted_codings(header), "gzip") > 0


def choose_coding(header: str | None, available: list[str]) -> str | None:
    """Which of the precompressed copies at hand (``br``, ``gzip``) to send: the one the browser gives
    the highest q above 0 (``*`` standing for a coding it does not name); brotli on a tie (smaller).
    None: the plain file."""
    codings = accepted_codings(header)
    best, best_q = None, 0.0
    for coding in ("br", "gzip"):  # in order of preference on equal q
        q = coding_q(codings, coding)
        if coding in available and q > best_q:
            best, best_q = coding, q
    return best


def url_parts(url: str) -> list[str] | None:
    """The path components a request names, or None (404) for a dot-name, NUL or backslash.

    Raises ValueError (400) unless the path is ASCII percent-encoding of strict UTF-8 (no overlong forms)."""
    raw = url.split("?", 1)[0].split("#", 1)[0]
    if not raw.isascii():
        raise ValueError("raw bytes in the path")
    path = urllib.parse.unquote(raw, errors="strict")
    parts = [p for p in path.split("/") if p]
    if "\x00" in path or "\\" in path or any(p.startswith(".") for p in parts):
        return None  # '.', '..' (also encoded) and every dot-file or dot-folder
    return parts


def locate(root: Path, parts: list[str]) -> Path | None:
    """The real path `parts` name under `root`, or None if missing, outside it or through a dot-name.

    Symlinks are followed first and the result checked component by component, so a link inside the
    folder can lead neither out of it nor to a dot-file."""
    root = root.resolve()
    try:
        real = root.joinpath(*parts).resolve(strict=True)
        inside = real.relative_to(root).parts
    except (OSError, RuntimeError, ValueError):  # missing, a symlink loop, outside the root
        return None
    return None if any(p.startswith(".") for p in inside) else real


class Handler(http.server.SimpleHTTPRequestHandler):
    coi = False
    timeout = 10  # seconds a started request may stall on one read or write before it is dropped
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **TYPES}
    cache = REVALIDATE  # set per response by send_head; errors and redirects keep it
    frameable = False
    vary = False  # the file has a precompressed copy: the answer depends on Accept-Encoding
    encoding: str | None = None

    def __init__(self, *args: object, directory: str | None = None, **kwargs: object) -> None:
        super().__init__(*args, directory=directory or str(DIST), **kwargs)  # type: ignore[arg-type]

    def send_head(self) -> BinaryIO | None:
        """A regular file inside the folder, `index.html` for a folder that has one, else 400/404: no listings."""
        self.cache, self.frameable, self.vary, self.encoding = REVALIDATE, False, False, None
        path, sep, query = self.path.partition("?")
        try:
            parts = url_parts(path)
        except ValueError:
            self.send_error(400, "Bad request path", "The path is not percent-encoded UTF-8.")
            return None
        root = Path(self.directory)
        real = None if parts is None else locate(root, parts)
        if parts is None or real is None:
            self.send_error(404, "Not found")
            return None
        if real.is_dir():
            parts = [*parts, "index.html"]
            index = locate(root, parts)
            if index is not None and index.is_file() and not path.endswith("/"):
                self.send_response(301)  # so the page's relative URLs resolve inside its folder
                self.send_header("Location", path + "/" + sep + query)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return None
            real = index
        try:
            if real is None or not real.is_file():  # a folder without index.html, a FIFO, a device
                raise FileNotFoundError
            f = open(real, "rb")
        except OSError:
            self.send_error(404, "Not found")
            return None
        # The build's precompressed copies (`<file>.br`, `<file>.gz`, each checked like any file: inside,
        # regular, no dot-name) when the browser accepts them; either way the answer varies with Accept-Encoding.
        # A copy older than its file is stale (the file was replaced after the build): never served.
        self.encoding = None
        copies: dict[str, Path] = {}
        if not parts[-1].endswith(COPY_SUFFIXES):
            mtime = os.fstat(f.fileno()).st_mtime_ns
            for coding, suffix in CODINGS.items():
                packed = locate(root, [*parts[:-1], parts[-1] + suffix])
                if packed is not None and packed.is_file() and packed.stat().st_mtime_ns >= mtime:
                    copies[coding] = packed
        self.vary = bool(copies)
        coding = choose_coding(self.headers.get("Accept-Encoding"), list(copies))
        if coding is not None:
            try:
                g = open(copies[coding], "rb")
            except OSError:
                pass
            else:
                f.close()
                f, self.encoding = g, coding
        st = os.fstat(f.fileno())
        # Identity and change time rather than a date: any rewrite of the file changes it, even one keeping the mtime.
        etag = f'"{st.st_ino:x}-{st.st_size:x}-{st.st_mtime_ns:x}-{st.st_ctime_ns:x}{CODINGS.get(self.encoding or "", "").replace(".", "-")}"'
        name = "/".join(parts)
        self.cache = IMMUTABLE if HASHED.search(name) else REVALIDATE
        self.frameable = parts[-1] == FRAMEABLE
        wanted = self.headers.get("If-None-Match", "")
        if wanted.strip() == "*" or etag in (t.strip().removeprefix("W/") for t in wanted.split(",")):
            f.close()
            self.send_response(304)
            self.send_header("ETag", etag)
            self.end_headers()
            return None
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(name))
        if self.encoding:
            self.send_header("Content-Encoding", self.encoding)
        self.send_header("Content-Length", str(st.st_size))
        self.send_header("ETag", etag)
        self.end_headers()
        return f

    def list_directory(self, path: str | os.PathLike[str]) -> None:  # never reached; never list anyway
        self.send_error(404, "Not found")

    def guess_type(self, path: str | os.PathLike[str]) -> str:
        return TYPES.get(Path(path).suffix.lower(), "application/octet-stream")

    def end_headers(self) -> None:
        self.send_header("Cache-Control", self.cache)
        if self.vary:  # a cache must not hand the gzip copy to a browser that did not ask for it
            self.send_header("Vary", "Accept-Encoding")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Referrer-Policy", "no-referrer")
        if not self.frameable:  # a framing page could steer clicks (two deleted a save); a <meta> CSP cannot say this
            self.send_header("X-Frame-Options", "DENY")
            self.send_header("Content-Security-Policy", "frame-ancestors 'none'")
        if self.coi:
            self.send_header("Cross-Origin-Opener-Policy", "same-origin")
            self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
            self.send_header("Cross-Origin-Resource-Policy", "same-origin")
        super().end_headers()

    def log_message(self, format: str, *args: object) -> None:
        if os.environ.get("SCARAB_QUIET"):
            return
        super().log_message(format, *args)


def fd_limit() -> int:
    try:
        import resource  # Unix only
    except ImportError:
        return 512
    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    return 1 << 20 if soft == resource.RLIM_INFINITY else soft


class Server(http.server.ThreadingHTTPServer):
    """A connection gets one of `workers` threads only once it has sent something. Until then it waits in
    one selector, for at most `idle_timeout` seconds, and at most `max_idle` of them (oldest dropped first),
    so idle or half-open connections can hold neither every thread nor every file descriptor."""

    daemon_threads = True
    request_queue_size = 1024  # socketserver's 5 drops connections in a burst; their clients retry 1, 3, 7 s later
    workers = 64
    idle_timeout = 10.0

    def __init__(self, address: tuple[str, int], handler: object) -> None:
        # Threads first: the base class calls server_close() when it cannot bind.
        self.max_idle = max(16, min(1024, fd_limit() // 2))
        self.incoming: queue.SimpleQueue[tuple[socket.socket, object] | None] = queue.SimpleQueue()
        self.ready: queue.SimpleQueue[tuple[socket.socket, object] | None] = queue.SimpleQueue()
        self.wake_r, self.wake_w = socket.socketpair()
        self.wake_w.setblocking(False)
        self.watcher = threading.Thread(target=self.watch, daemon=True)
        for thread in [self.watcher] + [threading.Thread(target=self.work, daemon=True) for _ in range(self.workers)]:
            thread.start()
        super().__init__(address, handler)  # type: ignore[arg-type]

    def process_request(self, request: socket.socket, client_address: object) -> None:  # type: ignore[override]
        self.incoming.put((request, client_address))
        self.wake()

    def wake(self) -> None:
        try:
            self.wake_w.send(b"\0")
        except OSError:
            pass  # full, so the watcher is being woken anyway; or closed

    def work(self) -> None:
        while (item := self.ready.get()) is not None:
            self.process_request_thread(*item)  # type: ignore[arg-type]

    def watch(self) -> None:
        idle: dict[socket.socket, tuple[float, object]] = {}  # in arrival order: the oldest first
        with selectors.DefaultSelector() as selector:
            selector.register(self.wake_r, selectors.EVENT_READ)
            while True:
                for key, _ in selector.select(timeout=0.5):
                    if key.fileobj is self.wake_r:
                        self.wake_r.recv(4096)
                        continue
                    sock: socket.socket = key.fileobj  # type: ignore[assignment]
                    selector.unregister(sock)
                    self.ready.put((sock, idle.pop(sock)[1]))
                while not self.incoming.empty():
                    item = self.incoming.get()
                    if item is None:
                        for sock in idle:
                            self.shutdown_request(sock)
                        return
                    try:
                        selector.register(item[0], selectors.EVENT_READ)
                        idle[item[0]] = (time.monotonic(), item[1])
                    except (OSError, ValueError):  # already gone
                        self.shutdown_request(item[0])
                now = time.monotonic()
                for sock, (since, _) in list(idle.items()):
                    if len(idle) <= self.max_idle and now - since < self.idle_timeout:
                        break
                    selector.unregister(sock)
                    del idle[sock]
                    self.shutdown_request(sock)

    def server_close(self) -> None:
        self.incoming.put(None)
        self.wake()
        for _ in range(self.workers):
            self.ready.put(None)
        self.watcher.join(5)
        self.wake_r.close()
        self.wake_w.close()
        super().server_close()


def make_server(host: str, port: int, directory: Path = DIST, coi: bool = False) -> Server:
    handler = type("BoundHandler", (Handler,), {"coi": coi})

    def factory(*args: object, **kwargs: object) -> Handler:
        return handler(*args, directory=str(directory), **kwargs)  # type: ignore[arg-type]

    return Server((host, port), factory)


def arg_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description="Set up and serve the Scarab site locally.")
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1, this machine only)")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--no-open", action="store_true", help="do not open a browser")
    parser.add_argument("--coi", action="store_true", help="send cross-origin-isolation headers (COOP/COEP)")
    parser.add_argument("--no-setup", action="store_true", help="serve dist/ as it is")
    parser.add_argument("--rebuild", action="store_true", help="rebuild dist/ even if it looks up to date")
    parser.add_argument("--setup-only", action="store_true", help="set up (npm runtime, lexicon, site), then exit")
    parser.add_argument("--verbose", action="store_true",
                        help="also print the lexicon's statistics (they are in lexicon/data/it.dawg.stamp)")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = arg_parser().parse_args(argv)
    try:
        if not args.no_setup:
            setup(force_build=args.rebuild, verbose=args.verbose)
        if args.setup_only:
            return 0
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
