"""The hand: whose rack is shown (never another person's), the rack's tiles in the player's order
less those laid on the board, and the row of action buttons under it (always there, disabled when
they cannot act)."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, Callable


from game.scarabeo.rules import exchange_blocker
from game.scarabeo.tiles import HIDDEN, SCARAB, VALUES, sort_rack
from web.ui.dom import append, h, svg
from game.scarabeo import table as table_rules
from web.games.scarabeo.context import ViewPart, local, scarabeo_ai, tile_name

if TYPE_CHECKING:
    from web.ui.context import PlayPage


class Rack(ViewPart):
    """A mixin of ``web.games.scarabeo.ScarabeoUI``: the methods this module's docstring describes (every one
    takes the game page, ``web.ui.context.PlayPage``)."""

    def _viewer(self, page: PlayPage) -> int | None:
        """Whose rack is shown: the person to move; with one person, always theirs."""
        session = page.session
        state = session.state
        if state.is_over() or session.replay_only:  # a shared game is watched with the racks hidden
            return None
        here = getattr(session, "seat_here", None)
        if here is not None:  # a game by links: this device holds one seat, and only its rack
            return int(here)
        if table_rules.vote_on_cover(state, session.seats):  # the table votes: every rack covered
            return None
        seat: int = state.to_move()
        if not session.seats[seat].computer:
            return seat
        people = [i for i, s in enumerate(session.seats) if not s.computer]
        return people[0] if len(people) == 1 else None

    def _rack_left(self, page: PlayPage, rack: list[str]) -> list[str]:
        """The rack tiles not laid on the board yet, in the player's order (Shuffle)."""
        left = list(sort_rack(rack))
        order = local(page).order
        if order is not None and sorted(order) == sorted(left):
            left = list(order)
        else:
            local(page).order = list(left)
        for ch in page.selection.get("placed", {}).values():
            tile = SCARAB if ch.islower() else ch
            if tile in left:
                left.remove(tile)
        return left

    def _rack_box(self, page: PlayPage, viewer: int | None, rack: list[str], placing: bool) -> Any:
        t = page.t
        seats = page.session.seats
        if viewer is None:
            if page.session.state.is_over():
                return None
            return h("p", {"class": "muted sc-rack-hidden", "text": t("scarabeo.rack.hidden")})
        if not placing:
            rack = list(page.session.state.racks[viewer])
        left = self._rack_left(page, rack) if placing else sort_rack(rack)
        # a game by links: tiles drawn but not readable yet (the others' shares are on their way)
        drawing = sum(1 for tile in left if tile == HIDDEN)
        left = [tile for tile in left if tile != HIDDEN]
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
                          None if scarab else h("span", {"class": "v v2" if values[tile] >= 10 else "v",
                                                         "aria-hidden": "true", "text": str(values[tile])})))
        if drawing:
            append(box, h("span", {"class": "muted sc-drawing", "id": "sc-drawing",
                                   "text": t.plural("remote.rack.drawing", drawing)}))
        elif not left:
            append(box, h("span", {"class": "muted", "text": t("scarabeo.rack.empty")}))
        return box

    def _actions(self, page: PlayPage, exchange_allowed: bool, placing: bool, play: Any, zoomed: bool) -> Any:
        """The action row, always there (disabled, never removed, while the computer thinks: the rack
        does not move under the finger): Play, Recall, Shuffle, the direction, Pass, Exchange, Hint,
        Take back and the zoom."""
        sc = page.view_scope
        placed = bool(page.selection.get("placed"))
        across = local(page).across
        swaps = page.selection.get("swaps") or []
        off = not placing
        hinting = bool(page.selection.get("hinting"))
        back = not page.thinking and page.can_take_back()
        return h("div", {"class": "sc-actions row", "id": "sc-actions"},
                 action_button(page, "sc-play", "scarabeo.play", lambda: self._play(page), disabled=off or play is None,
                               cls="primary"),
                 action_button(page, "sc-recall", "scarabeo.recall", lambda: self._recall(page),
                               disabled=off or (not placed and not swaps), icon="recall"),
                 action_button(page, "sc-shuffle", "scarabeo.shuffle", lambda: self._shuffle(page), disabled=off,
                               icon="shuffle"),
                 action_button(page, "sc-dir", "scarabeo.dir.across" if across else "scarabeo.dir.down",
                               lambda: self._toggle_dir(page), disabled=off, icon="across" if across else "down"),
                 action_button(page, "sc-pass", "scarabeo.pass.swaps" if swaps else "scarabeo.pass",
                               lambda: asyncio.ensure_future(self._pass(page)), disabled=off or placed, icon="pass",
                               short=page.t("scarabeo.pass")),
                 action_button(page, "sc-exchange", "scarabeo.exchange", lambda: asyncio.ensure_future(self._exchange(page)),
                               disabled=off or bool(swaps), icon="exchange", short=page.t("scarabeo.exchange.short"),
                               blocked=None if off or exchange_allowed else self._exchange_why(page)),
                 action_button(page, "sc-hint", "play.hint", lambda: asyncio.ensure_future(self._hint(page)),
                               disabled=off or hinting or page.session.state.pending is not None, icon="hint")
                 # today's challenge gives no hints (they would give the answer away)
                 # nor a game between devices whose invitation allows none
                 # (a still page of the rules or the review has no say: drawn as before)
                 if scarabeo_ai is not None and not getattr(page, "daily", None)
                 and getattr(page, "hints_allowed", lambda: True)() else None,
                 action_button(page, "sc-takeback", "play.takeback", lambda: page.take_back(), disabled=not back,
                               icon="takeback"),
                 self._zoom_button(page, zoomed), scope=sc)

    def _exchange_why(self, page: PlayPage) -> str:
        """Why the rack to move cannot be exchanged now, in the catalogue's words (the engine's reason)."""
        state = page.session.state
        rack = state.racks[state.to_move()]
        if HIDDEN in rack:
            return str(page.t("scarabeo.exchange.why.hidden"))
        found = exchange_blocker(rack)
        key = found[0] if found is not None else "rack-short"
        return str(page.t(f"scarabeo.exchange.why.{key}", **(found[1] if found is not None else {})))

    def _zoom_button(self, page: PlayPage, zoomed: bool) -> Any:
        """Zoom in around the cursor, or back to the whole board (a tap, a pinch or a double tap on
        the board does the same; this is the keyboard's and the mouse's way)."""
        return action_button(page, "sc-zoom", "scarabeo.zoom.out" if zoomed else "scarabeo.zoom.in",
                             lambda: self._toggle_zoom(page), cls="sc-zoom-button", icon="board" if zoomed else "zoom")


def action_button(page: PlayPage, bid: str, key: str, fn: Callable[[], object], disabled: bool = False, cls: str = "",
                  icon: str = "", short: str = "", blocked: str | None = None) -> Any:
    """One action: its text is its name and its tooltip; a phone shows the icon, in one row with Play
    (scarabeo.css), and under it ``short``, a word that tells it from its neighbours (Pass and
    Exchange: issue 42). ``blocked``: the action is not allowed now, and a tap says why (it looks
    greyed, but unlike a disabled button it answers: a first-time player learns the rule)."""
    t = page.t
    if not icon:
        return h("button", {"type": "button", "id": bid, "class": cls, "text": t(key),
                            "disabled": disabled, "on_click": lambda _e: fn()}, scope=page.view_scope)
    if blocked is not None and not disabled:
        return h("button", {"type": "button", "id": bid, "class": f"{cls} sc-icon-button sc-blocked".strip(),
                            "title": f"{t(key)} — {blocked}", "aria-disabled": "true", "aria-description": blocked,
                            "on_click": lambda _e: page.show_message(blocked, error=True)},
                 icon_svg(icon), h("span", {"class": "sc-label", "text": t(key)}),
                 h("span", {"class": "sc-short", "aria-hidden": "true", "text": short}) if short else None,
                 scope=page.view_scope)
    return h("button", {"type": "button", "id": bid, "class": f"{cls} sc-icon-button".strip(), "title": t(key),
                        "disabled": disabled, "on_click": lambda _e: fn()},
             icon_svg(icon), h("span", {"class": "sc-label", "text": t(key)}),
             h("span", {"class": "sc-short", "aria-hidden": "true", "text": short}) if short else None,
             scope=page.view_scope)


#: The action buttons' icons (24×24, drawn with the text colour), shown alone on a phone.
ICONS = {
    "recall": "M9 14 4 9l5-5M4 9h11a5 5 0 0 1 0 10h-4",
    "shuffle": "M3 7h4l10 10h4M3 17h4L17 7h4M18 4l3 3-3 3M18 14l3 3-3 3",
    "across": "M4 12h16M14 6l6 6-6 6",
    "down": "M12 4v16M6 14l6 6 6-6",
    "pass": "M5 5l9 7-9 7zM18 5v14",
    "exchange": "M4 12a8 8 0 0 1 14-5.3M18 3v4h-4M20 12a8 8 0 0 1-14 5.3M6 21v-4h4",
    "zoom": "M11 4a7 7 0 1 0 0 14 7 7 0 0 0 0-14zM16 16l5 5M8 11h6M11 8v6",
    "board": "M4 4h16v16H4zM4 9.3h16M4 14.7h16M9.3 4v16M14.7 4v16",
    "hint": "M9 18h6M10 21h4M12 3a6 6 0 0 0-3.5 10.9c.6.5 1 1.2 1 2.1h5c0-.9.4-1.6 1-2.1A6 6 0 0 0 12 3z",
    "takeback": "M3 12a9 9 0 1 0 3-6.7M3 4v5h5M12 7v5l3 2",
}


def icon_svg(name: str) -> Any:
    """An action's icon, hidden from assistive technology (the button's text is its name)."""
    return svg("svg", {"class": "sc-ico", "viewBox": "0 0 24 24", "width": "22", "height": "22", "aria-hidden": "true",
                       "focusable": "false", "fill": "none", "stroke": "currentColor", "stroke-width": "2",
                       "stroke-linecap": "round", "stroke-linejoin": "round"},
               svg("path", {"d": ICONS[name]}))
