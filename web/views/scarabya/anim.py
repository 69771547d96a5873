"""What changed with the latest move, and bringing it into view: the areas it closed glow and their
tokens pop (from ``announce``'s result, stamped with the move count so a redraw after the next move
drops them), each site's latest tile is outlined (from the engine's view), and the ghost is scrolled
into full view below the sticky top bar after a hint."""

from __future__ import annotations

from typing import Any

from pyscript import window  # type: ignore[import-not-found]
from pyscript.ffi import to_js  # type: ignore[import-not-found]

from game.scarabya.grid import SITE

from .context import Page


def show_ghost(board: Any) -> None:
    """Scroll the ghost to the middle of the screen unless it is in full view (below the sticky top bar)."""
    handle = board.querySelector(".sq.handle")
    if not handle:
        return
    top_bar = window.document.querySelector(".topbar")
    covered = top_bar.getBoundingClientRect().bottom if top_bar else 0
    rect = handle.getBoundingClientRect()
    if rect.top < covered or rect.bottom > window.innerHeight:
        handle.scrollIntoView(to_js({"block": "center"}))


def fresh_areas(page: Page, site: int) -> set[int]:
    """Classic: the squares of the areas the latest move closed on ``site`` (they glow once)."""
    scored = page.selection.get("scored")
    n = len(page.session.state.history())
    if not scored or scored.get("n") != n or scored.get("seat") != site:
        return set()
    return {SITE.parse_square(s) for a in scored["areas"] for s in a["squares"]}


def fresh_zones(page: Page) -> set[tuple[int, int]]:
    """Ruins: the (round, zone) pairs the latest move's round end scored (they pop in the history)."""
    scored_now = page.selection.get("ruins_scored")
    if scored_now and scored_now.get("n") == len(page.session.state.history()):
        return {(e["round"], e["zone"]) for e in scored_now["scored"]}
    return set()


def latest_tile(sdata: dict[str, Any]) -> set[int]:
    """Classic: the squares of a site's latest tile (from the engine's view: it survives a reload)."""
    tile_round = {SITE.parse_square(s): tl["round"] for tl in sdata["tiles"] for s in tl["squares"]}
    last_round = max(tile_round.values(), default=0)
    return {sq for sq, r in tile_round.items() if r == last_round}
