"""Input on the board and the rack: pointer (click, tap a tile then a square), keyboard (the grid's
roving focus, arrows, letters, Space, Enter, Backspace, Delete, Escape), touch and mouse drag of a
rack tile (pointer events, a ghost under the finger), laying and taking back tiles, the scarab's
letter, swapping a board scarab; the zoom for placing (a tap on a phone's whole board, a double
tap, a pinch, after a tile is laid on it — never under a moving finger). Nothing here decides a rule: the preview asks the engine."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from pyscript import document

from game.scarabeo.board import SIZE, square_name
from game.scarabeo import wordinfo
from game.scarabeo.tiles import LETTERS, SCARAB
from web.games.scarabeo.context import DOUBLE_TAP_MS, ZOOM_BELOW_PX, ViewPart, local, next_square
from web.ui.dom import Scope, h, modal

if TYPE_CHECKING:
    from web.ui.context import PlayPage


class Input(ViewPart):
    """A mixin of ``web.games.scarabeo.ScarabeoUI``: the methods this module's docstring describes (every one
    takes the game page, ``web.ui.context.PlayPage``)."""

    def _on_board_click(self, page: PlayPage, event: Any) -> None:
        cell = event.target.closest("[data-sq]")
        if not cell:
            return
        sq = int(cell.getAttribute("data-sq"))
        tapped = bool(event.detail) and int(event.detail) > 0  # a keyboard's Enter never zooms
        if tapped and self._lays_picked_tile(page, sq):
            # A tile picked, then a tap on a free square: the tile goes there at once, on the square
            # the player saw (issue 42: the second tap used to zoom only, the tile landing on a
            # third); a phone's whole board zooms in around it afterwards, for the next tile.
            small = float(cell.offsetWidth) < ZOOM_BELOW_PX  # measured before the board is drawn again
            self._choose_square(page, sq)
            self._zoom_after_laying(page, small, sq, (float(event.clientX), float(event.clientY)))
            return
        if tapped and self._tap_zooms(page, cell, sq, event):
            return
        self._choose_square(page, sq)

    def _lays_picked_tile(self, page: PlayPage, sq: int) -> bool:
        """Whether choosing ``sq`` now lays the rack tile picked (a free square, a tile in hand)."""
        if not self._can_place(page) or not page.selection.get("tile"):
            return False
        board, _rack, _err = self._projected(page)
        return not board[sq] and sq not in page.selection.get("placed", {})

    def _zoom_after_laying(self, page: PlayPage, small: bool, sq: int, at: tuple[float, float]) -> None:
        """A phone's whole board (``small`` squares) zooms in around the square a tile was just laid
        on, that square kept under the finger; a zoomed or a large board stays as it is."""
        if self._zoomed(page) or not small:
            return
        self._set_zoom(page, True, sq, at)

    def _tap_zooms(self, page: PlayPage, cell: Any, sq: int, event: Any) -> bool:
        """A tap on a board whose squares are small (a phone's whole board) zooms in around that square,
        the square kept under the finger, and puts the cursor there (the next tap lays a tile); a
        double tap zooms out again. True when the tap was the zoom's and nothing else is to be done."""
        mine = local(page)
        at = float(event.timeStamp)
        double = at - mine.tap_at < DOUBLE_TAP_MS
        mine.tap_at = at
        if self._zoomed(page):
            zoomed_in, mine.tap_zoomed = mine.tap_zoomed, False
            if double and zoomed_in:  # the second tap of the double tap that zoomed in
                return True
            if double:
                self._set_zoom(page, False)
                return True
            return False
        if float(cell.offsetWidth) >= ZOOM_BELOW_PX:
            return False
        mine.tap_zoomed = True
        mine.cursor = sq
        self.refresh(page)
        self._set_zoom(page, True, sq, (float(event.clientX), float(event.clientY)))
        self._focus(page, sq)
        return True

    def _on_touch(self, page: PlayPage, event: Any) -> None:
        """Two fingers on the board: spread apart they zoom in around the square between them, brought
        together they zoom out."""
        touches = event.touches
        mine = local(page)
        if int(touches.length) != 2:
            mine.pinch = None
            return
        a, b = touches[0], touches[1]
        ax, ay, bx, by = float(a.clientX), float(a.clientY), float(b.clientX), float(b.clientY)
        apart = ((ax - bx) ** 2 + (ay - by) ** 2) ** 0.5
        if mine.pinch is None or str(event.type) == "touchstart":
            mine.pinch = apart
            return
        ratio = apart / max(mine.pinch, 1.0)
        if ratio > 1.25 and not self._zoomed(page):
            mid = ((ax + bx) / 2, (ay + by) / 2)
            under = document.elementFromPoint(*mid)
            cell = under.closest("[data-sq]") if under else None
            self._set_zoom(page, True, int(cell.getAttribute("data-sq")) if cell else local(page).cursor, mid)
            mine.pinch = apart
        elif ratio < 0.8 and self._zoomed(page):
            self._set_zoom(page, False)
            mine.pinch = apart

    def _choose_square(self, page: PlayPage, sq: int) -> None:
        if not self._can_place(page):
            local(page).cursor = sq
            self._focus(page, sq)
            self._open_words_at(page, sq)
            return
        sel = page.selection
        placed = sel.setdefault("placed", {})
        board, _rack, _err = self._projected(page)
        if sel.get("tile") and not board[sq] and sq not in placed:
            tile = sel.pop("tile")
            local(page).cursor = sq
            self._place(page, sq, tile)
            return
        if sq in placed:
            self._unplace(page, sq)
            return
        state = page.session.state
        if state.board[sq].islower() and (square_name(sq) in self._swappable(page) or sq in (sel.get("swaps") or [])):
            self._toggle_swap(page, sq)
            return
        if sq == local(page).cursor and not board[sq]:
            local(page).across = not local(page).across
        local(page).cursor = sq
        self.refresh(page)
        self._focus(page, sq)
        self._open_words_at(page, sq)

    def _open_words_at(self, page: PlayPage, sq: int) -> None:
        """A tile of the board tapped (not one being laid): the word panel for its words (issue 40)."""
        if sq in (page.selection.get("placed") or {}):
            return
        words = wordinfo.words_through(page.session.state.board, sq)
        if words:
            self._words_panel(page, words)

    def _toggle_swap(self, page: PlayPage, sq: int) -> None:
        swaps = list(page.selection.get("swaps") or [])
        if sq in swaps:
            if any(True for _ in page.selection.get("placed", {})):
                self._recall(page)
                swaps = []
            else:
                swaps.remove(sq)
            page.say(page.t("scarabeo.swap.undone", square=square_name(sq)))
        else:
            swaps.append(sq)
            page.say(page.t("scarabeo.swap.done", square=square_name(sq)))
        page.selection["swaps"] = swaps
        local(page).cursor = sq
        self.refresh(page)
        self._focus(page, sq)

    def _can_place(self, page: PlayPage) -> bool:
        s = page.session
        if s is None or page.thinking or s.state.is_over() or s.computer_to_move() or s.replay_only:
            return False
        return s.state.pending is None or s.state.pending.kind == "challenge"

    def _place(self, page: PlayPage, sq: int, tile: str, letter: str | None = None) -> None:
        """Lay a rack tile on an empty square; a scarab first asks which letter it stands for."""
        if tile == SCARAB and letter is None:
            asyncio.ensure_future(self._place_scarab(page, sq))
            return
        ch = letter.lower() if tile == SCARAB and letter else tile
        sel = page.selection
        sel.setdefault("placed", {})[sq] = ch
        sel.setdefault("order", []).append(sq)
        sel.pop("tile", None)
        nxt = sq
        while True:
            cand = next_square(nxt, local(page).across)
            if cand is None:
                break
            nxt = cand
            board, _r, _e = self._projected(page)
            if not board[nxt] and nxt not in sel["placed"]:
                break
        cursor = nxt if nxt is not None else sq
        local(page).cursor = cursor
        page.message = None
        self.refresh(page)
        self._focus(page, cursor)
        score = document.getElementById("sc-score") or document.getElementById("sc-reason")
        page.say(page.t("scarabeo.say.placed", tile=ch.upper(), square=square_name(sq))
                 + (". " + str(score.textContent) if score else ""))

    async def _place_scarab(self, page: PlayPage, sq: int) -> None:
        letter = await self._ask_letter(page)
        if letter and not page.closed:
            self._place(page, sq, SCARAB, letter)

    async def _ask_letter(self, page: PlayPage) -> str | None:
        t = page.t
        scope = Scope()
        buttons = [(ch, ch, "sc-letter") for ch in LETTERS] + [("", t("dialog.cancel"), "")]
        try:
            choice = await modal(t("scarabeo.scarab.title"), h("p", {"text": t("scarabeo.scarab.body")}),
                                 buttons, scope)
        finally:
            scope.close()
        return choice or None

    def _unplace(self, page: PlayPage, sq: int) -> None:
        sel = page.selection
        placed = sel.get("placed", {})
        if sq in placed:
            del placed[sq]
            order = sel.get("order", [])
            if sq in order:
                order.remove(sq)
            local(page).cursor = sq
            self.refresh(page)
            self._focus(page, sq)

    def _on_board_key(self, page: PlayPage, event: Any) -> None:
        cell = event.target.closest("[data-sq]")
        if not cell:
            return
        key = str(event.key)
        sq = int(cell.getAttribute("data-sq"))
        r, c = divmod(sq, SIZE)
        arrows = {"ArrowUp": (-1, 0), "ArrowDown": (1, 0), "ArrowLeft": (0, -1), "ArrowRight": (0, 1)}
        if event.ctrlKey or event.metaKey or event.altKey:
            return
        if key in arrows:
            dr, dc = arrows[key]
            r, c = min(max(r + dr, 0), SIZE - 1), min(max(c + dc, 0), SIZE - 1)
            event.preventDefault()
            local(page).cursor = r * SIZE + c
            self._move_cursor(page, r * SIZE + c)
            return
        if key in ("Home", "End"):
            event.preventDefault()
            c = 0 if key == "Home" else SIZE - 1
            self._move_cursor(page, r * SIZE + c)
            return
        if not self._can_place(page):
            return
        sel = page.selection
        if key == " " or key == "/":
            event.preventDefault()
            self._toggle_dir(page)
            return
        if key == "Enter":
            event.preventDefault()
            if sel.get("tile"):
                self._choose_square(page, sq)
            elif sel.get("placed"):
                self._play(page)
            else:
                self._choose_square(page, sq)
            return
        if key == "Backspace":
            event.preventDefault()
            order = sel.get("order") or []
            if order:
                self._unplace(page, order[-1])
            return
        if key == "Delete":
            event.preventDefault()
            self._unplace(page, sq)
            return
        if key == "Escape":
            event.preventDefault()
            self._recall(page)
            return
        if len(key) == 1 and key.upper() in LETTERS:
            event.preventDefault()
            self._type_letter(page, sq, key.upper())
            return
        if key in ("?", "*"):
            event.preventDefault()
            sel["tile"] = SCARAB
            self._choose_square(page, sq)

    def _type_letter(self, page: PlayPage, sq: int, letter: str) -> None:
        sel = page.selection
        placed = sel.setdefault("placed", {})
        across = local(page).across
        board, rack, _err = self._projected(page)
        target: int | None = sq
        while target is not None and (board[target] or target in placed):
            target = next_square(target, across)
        if target is None:
            page.show_message(page.t("scarabeo.edge"), error=True)
            return
        left = self._rack_left(page, rack)
        if letter in left:
            self._place(page, target, letter)
        elif SCARAB in left:
            self._place(page, target, SCARAB, letter)
        else:
            page.show_message(page.t("scarabeo.no.tile", letter=letter), error=True)

    def _move_cursor(self, page: PlayPage, sq: int) -> None:
        local(page).cursor = sq
        self.refresh(page)
        self._focus(page, sq)
        self._scroll_to_cursor(page)

    def _focus(self, page: PlayPage, sq: int) -> None:
        """Move the roving focus of the grid to ``sq``."""
        local(page).cursor = sq
        grid = local(page).grid
        if grid is None:
            return
        for node in grid.querySelectorAll("[tabindex='0']"):
            node.setAttribute("tabindex", "-1")
        node = local(page).cells[sq]
        node.setAttribute("tabindex", "0")
        node.focus()

    def _on_rack_click(self, page: PlayPage, event: Any) -> None:
        """Keyboard activation of a rack tile (Enter/Space); pointer taps are handled on pointerup,
        where a tap and a drag can be told apart."""
        if event.detail and int(event.detail) > 0:
            return
        node = event.target.closest("[data-tile]")
        if node:
            self._pick_tile(page, str(node.getAttribute("data-tile")), str(node.id))

    def _pick_tile(self, page: PlayPage, tile: str, node_id: str) -> None:
        if not self._can_place(page):
            return
        sel = page.selection
        if sel.get("tile") == tile:
            sel.pop("tile")
        else:
            sel["tile"] = tile
        self.refresh(page)
        again = document.getElementById(node_id)
        if again:
            again.focus()
        if sel.get("tile"):
            page.say(page.t("scarabeo.say.picked", tile=page.t("scarabeo.tile.scarab") if tile == SCARAB else tile))

    def _drag_start(self, page: PlayPage, event: Any) -> None:
        node = event.target.closest("[data-tile]")
        if not node or not self._can_place(page) or (event.button and int(event.button) != 0):
            return
        local(page).drag = {"tile": str(node.getAttribute("data-tile")), "x": float(event.clientX),
                        "y": float(event.clientY), "ghost": None, "node": node}
        try:
            node.setPointerCapture(event.pointerId)
        except Exception:
            pass

    def _drag_move(self, page: PlayPage, event: Any) -> None:
        drag = local(page).drag
        if not drag:
            return
        x, y = float(event.clientX), float(event.clientY)
        if drag["ghost"] is None:
            if abs(x - drag["x"]) + abs(y - drag["y"]) < 8:
                return
            tile = drag["tile"]
            ghost = h("div", {"class": "sc-drag-ghost", "aria-hidden": "true",
                              "text": "\u2605" if tile == SCARAB else tile})
            document.body.appendChild(ghost)
            drag["ghost"] = ghost
            drag["node"].classList.add("dragging")
        event.preventDefault()
        drag["ghost"].style.transform = f"translate({x - 22}px, {y - 22}px)"
        # The board never zooms under a moving finger (issue 42: the squares moved under it, and a
        # tile aimed at F12 landed on E15): it zooms after the drop. A zoomed board scrolls when the
        # tile is held near its edge, towards that edge.
        if self._zoomed(page):
            self._scroll_near_edge(x, y)

    @staticmethod
    def _scroll_near_edge(x: float, y: float) -> None:
        wrap = document.getElementById("sc-board-wrap")
        if not wrap:
            return
        box = wrap.getBoundingClientRect()
        edge, step = 28.0, 12

        def towards(at: float, low: float, high: float) -> int:
            if low <= at < low + edge:
                return -step
            if high - edge < at <= high:
                return step
            return 0

        dx = towards(x, float(box.left), float(box.right))
        dy = towards(y, float(box.top), float(box.bottom))
        if dx or dy:
            wrap.scrollBy(dx, dy)

    def _drag_end(self, page: PlayPage, event: Any) -> None:
        drag = local(page).drag
        local(page).drag = None
        if not drag:
            return
        if drag["ghost"] is None:  # a tap: pick the tile (or put it down again)
            self._pick_tile(page, drag["tile"], str(drag["node"].id))
            return
        drag["ghost"].remove()
        target = document.elementFromPoint(float(event.clientX), float(event.clientY))
        cell = target.closest("[data-sq]") if target else None
        if not cell:
            self.refresh(page)
            return
        sq = int(cell.getAttribute("data-sq"))
        board, _r, _e = self._projected(page)
        if board[sq] or sq in page.selection.get("placed", {}):
            page.show_message(page.t("scarabeo.err.square-taken", square=square_name(sq)), error=True)
            self.refresh(page)
            return
        local(page).cursor = sq
        small = float(cell.offsetWidth) < ZOOM_BELOW_PX
        self._place(page, sq, drag["tile"])
        self._zoom_after_laying(page, small, sq, (float(event.clientX), float(event.clientY)))

    def _drag_cancel(self, page: PlayPage) -> None:
        drag = local(page).drag
        local(page).drag = None
        if drag and drag["ghost"] is not None:
            drag["ghost"].remove()
            drag["node"].classList.remove("dragging")
