"""The ghost's inputs: the mouse (it follows the pointer, a click places), touch in two steps (a tap
shows the piece's outline there, a second tap on the same square or Place confirms, a tap elsewhere
moves the outline; a finger on it drags it), the keyboard (arrows, R / Shift+R / F, N / Shift+N,
Enter) and the buttons that do the same. What is placed is notation for ``page.commit``; a refusal is
the engine's ``IllegalMove``, in words."""

from __future__ import annotations

from typing import Any

from pyscript import window

from web.ui.dom import h

from .board import Board
from .context import Page, why_not
from .piece import flipped, handle_of, refresh_card, rotated


class BoardInput:
    """The handlers of one active board (bound to the page's view scope, dropped at the next redraw)."""

    def __init__(self, board: Board) -> None:
        assert board.page is not None
        self.board = board
        self.page = board.page

    def bind(self) -> None:
        b = self.board
        if not b.active:
            return
        scope = self.page.view_scope
        scope.on(b.node, "pointermove", self.on_pointermove)
        scope.on(b.node, "pointerdown", self.on_pointerdown)
        scope.on(b.node, "click", self.on_click)
        scope.on(b.node, "keydown", self.on_key)
        scope.on(window.document, "keydown", self.on_page_key)
        b.start_ghost()
        b.show()

    # pointer --------------------------------------------------------------------------------
    def square_of(self, event: Any) -> int | None:
        # a JS null arrives as None or as pyodide's jsnull (falsy, no DOM methods), depending on the version
        origin = event.target
        target = origin.closest("[data-sq]") if origin and hasattr(origin, "closest") else None
        return int(target.getAttribute("data-sq")) if target and hasattr(target, "getAttribute") else None

    def on_pointermove(self, event: Any) -> None:
        kind = str(event.pointerType)
        if kind != "mouse":
            self.drag_to(event)
            return
        sq = self.square_of(event)
        if sq is None:
            return
        b = self.board
        before = b.anchor()
        b.hold_at(sq)
        if b.anchor() != before:
            b.show()

    def on_pointerdown(self, event: Any) -> None:
        kind = str(event.pointerType)
        b = self.board
        self.page.selection["pointer"] = kind
        self.page.selection["dragged"] = False
        self.page.selection["grip"] = None
        sq = self.square_of(event)
        a = b.anchor()
        if kind != "mouse" and sq is not None and a is not None and sq in b.squares():
            # a finger on the ghost drags it (ghost squares have touch-action: none, so the page stays put)
            self.page.selection["grip"] = (sq % b.grid.width - a[0], sq // b.grid.width - a[1])

    # drag -----------------------------------------------------------------------------------
    def drag_to(self, event: Any) -> None:
        b = self.board
        grip = b.sel("grip", None)
        if grip is None:
            return
        # touch pointers stay captured by the square first touched: ask what lies under the finger
        under = window.document.elementFromPoint(event.clientX, event.clientY)
        cell = under.closest("[data-sq]") if under and hasattr(under, "closest") else None
        if not cell or not b.node.contains(cell):
            return
        sq = int(cell.getAttribute("data-sq"))
        before = b.anchor()
        self.page.selection["anchor"] = b.clamp(sq % b.grid.width - grip[0], sq // b.grid.width - grip[1])
        if b.anchor() != before:
            self.page.selection["dragged"] = True
            b.show()

    def on_click(self, event: Any) -> None:
        sq = self.square_of(event)
        if sq is None:
            return
        b = self.board
        if b.sel("dragged", False):
            self.page.selection["dragged"] = False  # the end of a drag is not a tap
            return
        touch = b.sel("pointer", "mouse") in ("touch", "pen")
        if touch:
            # two steps, so that a finger never places by accident: a tap shows the outline held by
            # that square; a second tap on the very square it showed from, with the outline not
            # moved since, confirms (as Place does)
            shown = b.sel("tapped", None)
            if shown is not None and shown == (sq, b.anchor(), b.sel("k", 0)):
                self.place()
                return
            b.hold_at(sq)
            self.page.selection["tapped"] = (sq, b.anchor(), b.sel("k", 0))
            b.show()
            return
        b.hold_at(sq)
        b.show()
        self.place()

    # keyboard -------------------------------------------------------------------------------
    def on_key(self, event: Any) -> None:
        if event.ctrlKey or event.metaKey or event.altKey:
            return
        b = self.board
        key = str(event.key)
        a = b.anchor()
        moves = {"ArrowLeft": (-1, 0), "ArrowRight": (1, 0), "ArrowUp": (0, -1), "ArrowDown": (0, 1)}
        if key in moves and a is not None:
            dx, dy = moves[key]
            self.page.selection["anchor"] = b.clamp(a[0] + dx, a[1] + dy)
            b.show()
        elif key in ("r", "R"):
            self.turn(clockwise=key == "r" and not event.shiftKey)
        elif key in ("f", "F"):
            self.flip()
        elif key in ("n", "N") and len(b.pieces) > 1 and b.piece in b.pieces:
            step = -1 if event.shiftKey or key == "N" else 1
            self.page.selection["piece"] = b.pieces[(b.pieces.index(b.piece) + step) % len(b.pieces)]
            self.page.selection["k"] = 0
            event.preventDefault()
            self.page.redraw()
            return
        elif key in ("Enter", " "):
            self.place()
        else:
            return
        event.preventDefault()

    def on_page_key(self, event: Any) -> None:
        """R and F work anywhere on the page (e.g. while the mouse holds the ghost), except in fields."""
        target = event.target
        tag = str(getattr(target, "tagName", "") or "").upper()
        if event.defaultPrevented or tag in ("INPUT", "SELECT", "TEXTAREA"):
            return  # handled by the board already (even by a board a redraw has just replaced), or typing
        if target and hasattr(target, "closest") and target.closest(".sy-board"):
            return
        if window.document.querySelector("dialog[open]"):
            return
        if str(event.key) in ("r", "R", "f", "F", "n", "N"):
            self.on_key(event)

    # actions --------------------------------------------------------------------------------
    def turn(self, clockwise: bool = True) -> None:
        self.reorient(rotated(self.board.sel("k", 0), clockwise))

    def flip(self) -> None:
        self.reorient(flipped(self.board.sel("k", 0)))

    def reorient(self, k: int) -> None:
        """Change the orientation keeping the square held under the pointer where it is."""
        b = self.board
        a = b.anchor()
        held = None
        if a is not None:
            hx, hy = handle_of(b.cells_now())
            held = (a[1] + hy) * b.grid.width + a[0] + hx
        self.page.selection["k"] = k
        if held is not None:
            b.hold_at(held)
        b.show()
        refresh_card(b.card, k, b.ruins)

    def place(self) -> None:
        b = self.board
        text = b.move_text()
        if text is None:
            return
        fits = b.fitting_text()
        if fits is None:
            self.page.show_message(why_not(self.page, b.shown_text() or text), error=True)
            return
        # the legal placement with those squares, in its one notation (U3@B8, not U7@B8)
        self.page.commit(fits)

    def controls(self, *extra: Any) -> Any:
        """Rotate, flip and place buttons (the same as R, Shift+R, F and Enter on the board)."""
        return controls(self.page, self, *extra)


def controls(page: Page, inputs: BoardInput | None, *extra: Any) -> Any:
    """The action row: rotate, flip and place (the same as R, Shift+R, F and Enter on the board), and
    ``extra`` (Hint, the game's toolbar with Take back). Drawn in every state, so that nothing under
    the finger moves: without ``inputs`` (nobody places now: the computer thinks, the game is over)
    its buttons are disabled."""
    t, scope = page.t, page.view_scope
    off = inputs is None

    def act(do: Any) -> Any:
        return None if inputs is None else (lambda _e: do(inputs))

    place = h("button", {"type": "button", "class": "primary", "id": "sy-place", "text": t("scarabya.place"),
                         "disabled": off, "on_click": act(lambda i: i.place())}, scope=scope)
    if inputs is not None:
        inputs.board.place_button = place
        place.disabled = inputs.board.fitting_text() is None
    return h("div", {"class": "sy-controls row", "role": "toolbar", "aria-label": t("scarabya.controls")},
             h("button", {"type": "button", "id": "sy-rotate-left", "aria-label": t("scarabya.rotate.left"),
                          "title": t("scarabya.rotate.left"), "text": "⟲", "disabled": off,
                          "on_click": act(lambda i: i.turn(False))}, scope=scope),
             h("button", {"type": "button", "id": "sy-rotate", "aria-label": t("scarabya.rotate"),
                          "title": t("scarabya.rotate"), "text": "⟳", "disabled": off,
                          "on_click": act(lambda i: i.turn(True))}, scope=scope),
             h("button", {"type": "button", "id": "sy-flip", "aria-label": t("scarabya.flip"),
                          "title": t("scarabya.flip"), "text": "⇋", "disabled": off,
                          "on_click": act(lambda i: i.flip())}, scope=scope),
             place, *extra)


def bind(board: Board) -> BoardInput | None:
    """Bind the inputs of an active board (and draw its ghost); None for a still board."""
    if not board.active:
        return None
    inputs = BoardInput(board)
    inputs.bind()
    return inputs
