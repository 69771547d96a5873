"""What changed with the latest move, and bringing it into view: the areas it closed glow and their
tokens pop (from ``announce``'s result, stamped with the move count so a redraw after the next move
drops them); each site's latest tile is outlined, and the game's last placement — whoever made it — is
marked where it lies (derived from the engine's history: it survives a reload and a take-back of a
later move); the Ruins board a round's end cleared is kept as that round's final board; the ghost is
scrolled into full view below the sticky top bar after a hint."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pyscript import window
from pyscript.ffi import to_js

from game.scarabya.grid import SITE
from game.scarabya.ruins import BOARD, RuinsState

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


# --- the last placement (whoever made it), from the engine's history ---------------------------------
@dataclass
class LastPlacement:
    """The latest placement of the game: who made it, its move, and its squares (on the placer's site in
    classic, on the shared board in Ruins). Derived from the engine's view of its history, so it is the
    same after a reload, and after a take-back of a later move it is that earlier placement again."""

    seat: int
    move: str
    squares: frozenset[int]


def last_classic(v: dict[str, Any]) -> LastPlacement | None:
    """Classic: the last move, if it placed a tile (a discard leaves nothing to outline)."""
    last = v.get("last_move")
    if not last:
        return None
    tile = next((tl for tl in v["sites"][last["seat"]]["tiles"] if tl["round"] == last["round"]), None)
    if tile is None:
        return None
    return LastPlacement(int(last["seat"]), str(tile["move"]), frozenset(SITE.parse_square(s) for s in tile["squares"]))


def run_classic(state: Any, n: int) -> list[LastPlacement]:
    """Classic: the placements of the latest ``n`` moves (the computers' run, ``web.ui.pace.run``),
    oldest first; a discard leaves nothing to show. From the engine's history (a copy taken back)."""
    replay = state.copy()
    found: list[LastPlacement] = []
    for _ in range(n):
        last = last_classic(replay.view())
        if last is not None:
            found.append(last)
        replay.pop()
    return found[::-1]


def last_ruins(v: dict[str, Any]) -> LastPlacement | None:
    """Ruins: the last piece on the board this round (None at a round's start: the board was cleared)."""
    if not v["pieces"]:
        return None
    p = v["pieces"][-1]
    return LastPlacement(int(p["seat"]), str(p["move"]), frozenset(BOARD.parse_square(s) for s in p["squares"]))


@dataclass
class FinalBoard:
    """Ruins: the board as the last round's last placement left it, before the round's end cleared it —
    its rows, that round's zones (who covered them), the placement, and what each zone scored."""

    round: int
    rows: list[str]
    ruins: list[dict[str, Any]]
    last: LastPlacement
    scored: list[dict[str, Any]]


def final_board(state: RuinsState) -> FinalBoard | None:
    """The board of the last round that ended, as its last placement left it (None in round 1)."""
    b = state.last_round_board()
    if b is None:
        return None
    last = LastPlacement(int(b["seat"]), str(b["move"]), frozenset(BOARD.parse_square(s) for s in b["squares"]))
    return FinalBoard(int(b["round"]), list(b["rows"]), list(b["ruins"]), last, list(b["scored"]))
