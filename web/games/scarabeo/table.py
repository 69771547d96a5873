"""The table kept across a reload (``game/scarabeo/table.py`` checks its format): the
hourglass's running turn and the tiles laid but not played, saved with every move, shortly after
the tiles change, every few seconds while the sand runs and when the page is hidden or left; the
hourglass ticker and its time-out pass; what taking back the last move needs (not a time-out pass,
the hourglass as it was)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from pyscript import document, window

from web.platform.storage import StorageError
from game.scarabeo import table as table_rules
from web.games.scarabeo.context import TABLE_SAVE_DELAY_MS, TABLE_SAVE_TICKS, ViewPart, local, now

if TYPE_CHECKING:
    from web.ui.context import PlayPage


class Table(ViewPart):
    """A mixin of ``web.games.scarabeo.ScarabeoUI``: the methods this module's docstring describes (every one
    takes the game page, ``web.ui.context.PlayPage``)."""

    def _start_ticker(self, page: PlayPage) -> None:
        """The hourglass display, and the time-out pass, every half second while the page is open."""
        if local(page).ticker is not None or not page.session.state.hourglass:
            return
        from pyscript.ffi import create_proxy

        ticks = [0]

        def tick(*_a: Any) -> None:
            if page.closed:
                window.clearInterval(local(page).ticker)
                proxy.destroy()
                return
            state = page.session.state
            node = document.getElementById("sc-clock")
            if node:
                node.textContent = self._clock_text(page)
            timer = state.timer
            ticks[0] += 1
            if timer is not None and timer.running and ticks[0] % TABLE_SAVE_TICKS == 0:
                self._save_table(page)  # a reload resumes the turn with the time left
            if state.timed_out() and not page.thinking and not page.session.computer_to_move():
                page.selection = {}
                self._before_move(page, timeout=True)
                page.commit("-")  # said in words by the event: "Anna ran out of time: the turn passes."

        proxy = create_proxy(tick)
        local(page).ticker = window.setInterval(proxy, 500)

    def _open_table(self, page: PlayPage) -> None:
        """Once per game page: resume the hourglass's turn and the tiles laid that were saved for
        this very position (a missing or damaged table starts the turn afresh), and from now on keep
        the table with every write of the game and when the page is hidden or left."""
        session = page.session
        if local(page).table_for is session:
            return
        local(page).table_for = session
        if session.replay_only:
            return
        state = session.state
        saved = session.meta.get("table")
        if state.hourglass and state.timer is None and not state.is_over():
            state.attach_clock(now, table_rules.saved_clock(state, saved))
        last = table_rules.saved_last(state, saved)
        if last is not None:
            local(page).last = {"move": len(state.history()), **last}
        back = table_rules.saved_tentative(state, saved) if self._can_place(page) else None
        if back is not None and not page.selection.get("placed") and not page.selection.get("swaps"):
            placed, order, swaps = back
            page.selection.update({"placed": placed, "order": order, "swaps": swaps})
        session.before_save = lambda: self._update_table(page)

        def hidden(_e: Any) -> None:
            if str(document.visibilityState) == "hidden":
                self._save_table(page)

        page.scope.on(window, "pagehide", lambda _e: self._save_table(page))
        page.scope.on(document, "visibilitychange", hidden)

    def _table_now(self, page: PlayPage) -> dict[str, Any] | None:
        """The table as it should be saved now (None before it was opened, or for a shared replay)."""
        session = page.session
        if session is None or session.replay_only or local(page).table_for is not session:
            return None
        state = session.state
        clock = state.timer.saved() if state.timer is not None else None
        sel = page.selection
        # tiles laid belong to the position they were laid on: not to the one a move just made
        mine = local(page).sel_move == len(state.history()) and self._can_place(page)
        return table_rules.table(state, clock, sel.get("placed") if mine else None, sel.get("order") or [],
                                 (sel.get("swaps") or []) if mine else [], self._last(page))

    def _update_table(self, page: PlayPage) -> None:
        """``Session.before_save``: every write of the game carries the table as it is."""
        table = self._table_now(page)
        if table is not None:
            page.session.meta["table"] = table

    def _save_table(self, page: PlayPage, clock_too: bool = True) -> None:
        """Write the game if its table changed (``clock_too`` False: the time used is not a change)."""
        session = page.session
        table = self._table_now(page)
        if table is None:
            return
        old = session.meta.get("table")

        def plain(t: Any) -> Any:
            if clock_too or not isinstance(t, Mapping) or not isinstance(t.get("clock"), Mapping):
                return t
            return {**t, "clock": {k: v for k, v in t["clock"].items() if k != "used"}}

        if plain(table) == plain(old):
            return
        try:
            session.autosave()
        except StorageError as err:  # another tab's newer save, a full quota: the next move says so
            if not local(page).table_warned:
                local(page).table_warned = True
                window.console.warn(f"Scarabeo: the table was not saved: {err}")

    def _table_changed(self, page: PlayPage) -> None:
        """Tiles laid or taken back: save them a moment later (one write for a burst of keys)."""
        if local(page).table_timer is not None or self._table_now(page) is None:
            return
        from pyscript.ffi import create_proxy

        def fire(*_a: Any) -> None:
            proxy.destroy()
            local(page).table_timer = None
            if not page.closed:
                self._save_table(page, clock_too=False)

        proxy = create_proxy(fire)
        local(page).table_timer = window.setTimeout(proxy, TABLE_SAVE_DELAY_MS)

    def unmount(self, page: PlayPage) -> None:
        """Leaving the game page: the table as it is now."""
        self._save_table(page)

    def _before_move(self, page: PlayPage, timeout: bool = False) -> None:
        """A person is about to move: remember their hourglass turn as it is, so that taking the
        move back gives them the same time left (saved with the table, ``last``)."""
        state = page.session.state
        timer = state.timer
        local(page).last = {"move": len(state.history()) + 1, "timeout": timeout,
                        "clock": timer.saved() if timer is not None and timer.active else None}

    def _last(self, page: PlayPage) -> dict[str, Any] | None:
        """What the page knows about the last move (``_before_move``), if it is still the last."""
        last = local(page).last
        return last if last is not None and last.get("move") == len(page.session.state.history()) else None

    def can_take_back(self, page: PlayPage) -> bool:
        """``play.py`` hook: neither a time-out pass nor a dispute's decision is taken back."""
        return table_rules.may_take_back(page.session.state, self._last(page))

    def after_take_back(self, page: PlayPage) -> None:
        """``play.py`` hook, after ``Session.take_back``: the hourglass as it was when the move was
        made (the time since belonged to the next player's turn, which is undone too)."""
        state = page.session.state
        last = local(page).last
        local(page).last = None
        clock = last.get("clock") if last is not None and last.get("move") == len(state.history()) + 1 else None
        if clock is not None and state.timer is not None:
            try:
                state.timer.restore(clock)
            except ValueError:  # damaged: the running turn goes on
                pass
        self._save_table(page)
