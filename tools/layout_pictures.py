"""Pictures of each game page at the seven screen sizes of issue 15 and in the two embeds of
issue 26, for docs/web.md.

    .venv/bin/python tools/layout_pictures.py [--out docs/layout] [--quality 55] [--games scarabeo ...]

Builds the site, serves it on a free local port, and in headless Chromium (the network blocked)
starts one game per game against the computer (seed 7, as ``tests/e2e/test_layout.py`` does), makes
the first move where one is quick to make (Scarabeo: the hint's play), and saves what the viewport
shows at scroll 0 as ``<out>/<game>-<w>x<h>.jpg``, and the game in ``embed.html`` (a frame of another
site) as ``<out>/<game>-embed-<w>x<h>.jpg`` (JPEG: the pictures are for reading, PNGs would weigh
megabytes).
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import serve  # noqa: E402
from tools.bench_startup import ARGS, guard  # noqa: E402

SIZES = [(360, 640), (390, 844), (820, 1180), (1180, 820), (1366, 768), (1440, 900), (1920, 1080)]
EMBEDS = [(400, 600), (700, 700)]
#: what shows the game page is drawn and the human's turn has come
READY = {"scarabeo": "#sc-rack", "thot": "#thot-board .mark-legal", "scarabya": "#sy-place"}


def start(page: Any, base: str, game: str, embed: bool = False) -> str:
    page.goto(base + (f"embed.html?game={game}" if embed else f"#/{game}/new"))
    page.wait_for_selector("body[data-ready='1']", timeout=120_000)
    page.wait_for_selector("#start", timeout=60_000)
    if page.locator("#players").count():
        page.select_option("#players", "2")
    page.select_option("#seat-1-kind", "computer:1")
    page.evaluate("document.querySelector('details:has(#seed)')?.setAttribute('open', '')")
    page.fill("#seed", "7")
    page.click("#start")
    page.wait_for_selector(READY[game], timeout=60_000)
    if game == "scarabeo":  # the hint's play and the computer's reply: tiles on the board, the last move
        page.wait_for_selector("#sc-hint:not([disabled])", timeout=60_000)
        page.click("#sc-hint")
        page.wait_for_selector("#sc-board .sc-sq.placed", timeout=60_000)
        page.click("#sc-play")
        page.wait_for_selector("#thinking", state="detached", timeout=60_000)
        page.wait_for_selector("#sc-shuffle:not([disabled])", timeout=60_000)
        page.evaluate("document.getElementById('play-message')?.setAttribute('hidden', '')")
    if game == "thot":  # one move and the computer's reply: the last move is marked on the board
        page.locator("#thot-board .mark-legal").first.click()
        page.wait_for_function("document.querySelectorAll('#thot-log li:not(.muted)').length >= 2", timeout=60_000)
        page.wait_for_selector(READY[game], timeout=60_000)
    return str(page.url)


def picture(page: Any, stem: Path, args: argparse.Namespace) -> None:
    """What the viewport shows, as ``stem``.jpg (or .png with ``--png``), and its size printed."""
    path = stem.with_name(stem.name + (".png" if args.png else ".jpg"))
    if args.png:
        page.screenshot(path=str(path))
    else:
        page.screenshot(path=str(path), type="jpeg", quality=args.quality)
    print(f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}  {path.stat().st_size:,} bytes")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=str(ROOT / "docs" / "layout"))
    parser.add_argument("--quality", type=int, default=55)
    parser.add_argument("--png", action="store_true", help="PNG instead of JPEG (to inspect at full fidelity)")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--games", nargs="+", choices=list(READY), default=list(READY))
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    os.environ["SCARAB_QUIET"] = "1"
    serve.setup()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    server = serve.make_server("127.0.0.1", 0, ROOT / "dist")
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=args.chromium, args=ARGS)
            for game in args.games:
                ctx = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-GB",
                                          service_workers="block")
                ctx.route("**/*", guard)
                page = ctx.new_page()
                url = start(page, base, game)
                for w, h in SIZES:
                    page.set_viewport_size({"width": w, "height": h})
                    # a fresh draw at this size, as a first visit at this width would have it
                    page.evaluate(f"location.hash = '#/{game}/new'")
                    page.wait_for_selector("#start", timeout=30_000)
                    page.evaluate(f"location.hash = {url.split('#', 1)[1]!r}")
                    page.wait_for_selector(READY[game], timeout=30_000)
                    page.wait_for_timeout(300)
                    page.evaluate("scrollTo(0, 0)")
                    picture(page, out / f"{game}-{w}x{h}", args)
                ctx.close()
                for w, h in EMBEDS:  # a frame of another site: no app bar, the game alone
                    ctx = browser.new_context(viewport={"width": w, "height": h}, locale="en-GB",
                                              service_workers="block")
                    ctx.route("**/*", guard)
                    page = ctx.new_page()
                    start(page, base, game, embed=True)
                    page.wait_for_timeout(300)
                    page.evaluate("scrollTo(0, 0)")
                    picture(page, out / f"{game}-embed-{w}x{h}", args)
                    ctx.close()
            browser.close()
    finally:
        server.shutdown()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
