"""The actions of the hand's buttons: Play, Recall, Shuffle, the typing direction, Pass, Exchange,
the zoom (in and out without a redraw; out again after Play and Recall), and the commit of a move in the engine's notation."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from pyscript import document, window

from game.core import IllegalMove, NotationError
from game.scarabeo.moves import Exchange, Pass
from game.scarabeo.moves import move_text as sc_move_text
from game.scarabeo.tiles import sort_rack
from web.games.scarabeo.context import ViewPart, local
from web.ui.dom import Scope, h, modal

if TYPE_CHECKING:
    from web.ui.context import PlayPage


class Actions(ViewPart):
    """A mixin of ``web.games.scarabeo.ScarabeoUI``: the methods this module's docstring describes (every one
    takes the game page, ``web.ui.context.PlayPage``)."""

    def _recall(self, page: PlayPage) -> None:
        page.selection = {}
        page.message = None
        self._set_zoom(page, False)
        self.refresh(page)

    def _shuffle(self, page: PlayPage) -> None:
        order = list(local(page).order or [])
        seed = int(window.crypto.getRandomValues(window.Uint32Array.new(1))[0])
        for i in range(len(order) - 1, 0, -1):  # Fisher–Yates on the display order only
            seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
            j = seed % (i + 1)
            order[i], order[j] = order[j], order[i]
        local(page).order = order
        self.refresh(page)

    def _toggle_dir(self, page: PlayPage) -> None:
        local(page).across = not local(page).across
        self.refresh(page)
        cursor = local(page).cursor
        if cursor is not None:  # no square has had the focus yet: nothing to move it back to
            self._focus(page, cursor)
        page.say(page.t("scarabeo.dir.across" if local(page).across else "scarabeo.dir.down"))

    def _toggle_zoom(self, page: PlayPage) -> None:
        """The zoom button: in around the keyboard cursor, or out to the whole board."""
        self._set_zoom(page, not self._zoomed(page), local(page).cursor)

    def _set_zoom(self, page: PlayPage, on: bool, around: int | None = None,
                  at: tuple[float, float] | None = None) -> None:
        """Zoom the board in or out without redrawing the page (a drag in progress goes on): the
        frame keeps its size, the squares grow inside it; zoomed in, the square ``around`` is kept
        under the viewport point ``at`` (the finger), else brought to the frame's centre."""
        local(page).zoom = on
        wrap = document.getElementById("sc-board-wrap")
        if not wrap:
            return
        was = "zoomed" in str(wrap.className)
        wrap.classList.toggle("zoomed", on)
        old = document.getElementById("sc-zoom")
        if old:
            had_focus = bool(old.matches(":focus"))
            fresh = self._zoom_button(page, on)
            old.replaceWith(fresh)
            if had_focus:  # the keyboard's Zoom: the focus stays on the button
                fresh.focus()
        if on and around is not None:
            self._scroll_to(page, around, at)
        if on != was:
            page.say(page.t("scarabeo.zoom.said.in" if on else "scarabeo.zoom.said.out"))

    def _play(self, page: PlayPage) -> None:
        play, _result, reason = self._tentative(page)
        if play is None:
            page.show_message(reason or page.t("scarabeo.preview.none"), error=True)
            return
        self._commit(page, sc_move_text(play))

    async def _pass(self, page: PlayPage) -> None:
        """Pass, once confirmed (a pass cannot be taken back by a tap too many)."""
        t = page.t
        swaps = tuple(sorted(page.selection.get("swaps") or []))
        key = "scarabeo.pass.swaps" if swaps else "scarabeo.pass"
        scope = Scope()
        try:
            choice = await modal(t(key), h("p", {"text": t("scarabeo.pass.confirm.swaps" if swaps else "scarabeo.pass.confirm")}),
                                 [("", t("dialog.cancel"), ""), ("yes", t(key), "primary")], scope)
        finally:
            scope.close()
        if choice == "yes" and not page.closed and self._can_place(page):
            self._commit(page, sc_move_text(Pass(swaps)))

    async def _exchange(self, page: PlayPage) -> None:
        t = page.t
        state = page.session.state
        rack = sort_rack(state.racks[state.to_move()])
        scope = Scope()
        try:
            choice = await modal(t("scarabeo.exchange"), h("p", {"text": t("scarabeo.exchange.confirm", rack=rack)}),
                                 [("", t("dialog.cancel"), ""), ("yes", t("scarabeo.exchange"), "primary")], scope)
        finally:
            scope.close()
        if choice == "yes" and not page.closed and self._can_place(page):
            self._commit(page, sc_move_text(Exchange(rack)))

    def _commit(self, page: PlayPage, text: str) -> None:
        started = time.perf_counter()
        try:
            page.session.state.parse_move(text)
        except NotationError as err:
            page.show_message(str(err), error=True)
            return
        self._before_move(page)
        zoomed, local(page).zoom = local(page).zoom, False  # a move played: the whole board again
        if not page.commit(text):
            local(page).zoom = zoomed
            # commit showed the engine's message; say it in the player's words when the code is known
            try:
                page.session.state.check(page.session.state.parse_move(text))
            except IllegalMove as err:
                page.show_message(self._reason(page, err), error=True)
            return
        results = page.session.state.results()
        if results and results[-1].note == "time-out":
            # The sand ran out between two ticks: the engine passed the turn instead of the play.
            local(page).last = {**(local(page).last or {}), "timeout": True}
            self._save_table(page)  # the save written with the move still said it could be taken back
        local(page).commit_ms = round((time.perf_counter() - started) * 1000, 1)
        window.document.body.setAttribute("data-sc-commit-ms", str(local(page).commit_ms))
