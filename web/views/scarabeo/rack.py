"""The hand: whose rack is shown (never another person's), the rack's tiles in the player's order
less those laid on the board, and the row of action buttons under it."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, Callable


from game.scarabeo.tiles import SCARAB, VALUES, sort_rack
from web.dom import append, h
from web.views.scarabeo.context import tile_name

if TYPE_CHECKING:
    from web.play import GamePage


class Rack:
    """Rack methods of ``ScarabeoUI`` (``web.views.scarabeo``)."""

    def _viewer(self, page: GamePage) -> int | None:
        """Whose rack is shown: the person to move; with one person, always theirs."""
        session = page.session
        state = session.state
        if state.is_over() or session.replay_only:  # a shared game is watched with the racks hidden
            return None
        seat = state.to_move()
        if not session.seats[seat].computer:
            return seat
        people = [i for i, s in enumerate(session.seats) if not s.computer]
        return people[0] if len(people) == 1 else None

    def _rack_left(self, page: GamePage, rack: list[str]) -> list[str]:
        """The rack tiles not laid on the board yet, in the player's order (Shuffle)."""
        left = sort_rack(rack)
        order = getattr(page, "sc_order", None)
        if order is not None and sorted(order) == sorted(left):
            left = list(order)
        else:
            page.sc_order = list(left)
            left = list(left)
        for ch in page.selection.get("placed", {}).values():
            tile = SCARAB if ch.islower() else ch
            if tile in left:
                left.remove(tile)
        return left

    def _rack_box(self, page: GamePage, viewer: int | None, rack: list[str], placing: bool) -> Any:
        t = page.t
        seats = page.session.seats
        if viewer is None:
            if page.session.state.is_over():
                return None
            return h("p", {"class": "muted sc-rack-hidden", "text": t("scarabeo.rack.hidden")})
        if not placing:
            rack = list(page.session.state.racks[viewer])
        left = self._rack_left(page, rack) if placing else sort_rack(rack)
        chosen = page.selection.get("tile") if placing else None
        values = VALUES
        box = h("div", {"class": "sc-rack", "id": "sc-rack", "role": "group",
                        "aria-label": t("scarabeo.rack.of", name=seats[viewer].name),
                        "on_click": lambda e: self._on_rack_click(page, e),
                        "on_pointerdown": lambda e: self._drag_start(page, e),
                        "on_pointermove": lambda e: self._drag_move(page, e),
                        "on_pointerup": lambda e: self._drag_end(page, e),
                        "on_pointercancel": lambda e: self._drag_cancel(page)}, scope=page.view_scope)
        marked = False
        for i, tile in enumerate(left):
            scarab = tile == SCARAB
            label = t("scarabeo.tile.scarab") if scarab else tile_name(t, tile, values[tile])
            is_chosen = chosen == tile and not marked
            marked = marked or is_chosen
            append(box, h("button", {"type": "button", "class": "sc-tile" + (" scarab" if scarab else ""),
                                     "id": f"sc-tile-{i}", "data-tile": tile, "aria-label": label,
                                     "aria-pressed": "true" if is_chosen else "false", "disabled": not placing},
                          h("span", {"class": "l", "aria-hidden": "true", "text": "\u2605" if scarab else tile}),
                          None if scarab else " ",
                          None if scarab else h("span", {"class": "v", "aria-hidden": "true", "text": str(values[tile])})))
        if not left:
            append(box, h("span", {"class": "muted", "text": t("scarabeo.rack.empty")}))
        return box

    def _actions(self, page: GamePage, exchange_allowed: bool, placing: bool, play: Any, zoomed: bool) -> Any:
        t = page.t
        sc = page.view_scope
        placed = bool(page.selection.get("placed"))
        across = getattr(page, "sc_across", True)
        swaps = page.selection.get("swaps") or []

        def button(bid: str, key: str, fn: Callable[[], None], disabled: bool = False, cls: str = "",
                   **params: Any) -> Any:
            return h("button", {"type": "button", "id": bid, "class": cls, "text": t(key, **params),
                                "disabled": disabled, "on_click": lambda _e: fn()}, scope=sc)

        if not placing:
            return h("div", {"class": "sc-actions row", "id": "sc-actions"},
                     button("sc-zoom", "scarabeo.zoom.out" if zoomed else "scarabeo.zoom.in",
                            lambda: self._toggle_zoom(page), cls="sc-zoom-button"))
        return h("div", {"class": "sc-actions row", "id": "sc-actions"},
                 button("sc-play", "scarabeo.play", lambda: self._play(page), disabled=play is None, cls="primary"),
                 button("sc-recall", "scarabeo.recall", lambda: self._recall(page), disabled=not placed and not swaps),
                 button("sc-shuffle", "scarabeo.shuffle", lambda: self._shuffle(page)),
                 button("sc-dir", "scarabeo.dir.across" if across else "scarabeo.dir.down", lambda: self._toggle_dir(page)),
                 button("sc-pass", "scarabeo.pass.swaps" if swaps else "scarabeo.pass", lambda: self._pass(page),
                        disabled=placed),
                 button("sc-exchange", "scarabeo.exchange", lambda: asyncio.ensure_future(self._exchange(page)))
                 if exchange_allowed and not swaps else None,
                 button("sc-zoom", "scarabeo.zoom.out" if zoomed else "scarabeo.zoom.in",
                        lambda: self._toggle_zoom(page), cls="sc-zoom-button"))
