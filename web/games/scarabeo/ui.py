"""Scarabeo in the page (``UI``, the ``web.ui.context.GameUI`` protocol): the 17×17 board, the rack, tiles placed by drag, tap or keyboard, the live
score of the tentative play, disputes, the hourglass, the side panel and the end of the game.

Everything drawn comes from the engine: ``state.view()`` for the board, racks, scores, bag, pending
disputes and the outcome; ``state.play_from_placements`` + ``state.preview`` for the words and score
of the tiles laid down so far (or the engine's refusal, shown in plain words); ``rules.apply_swaps``
for the rack after a flying-scarab swap; ``page.commit`` sends the move in the engine's notation.

Transient input lives in ``page.selection``: ``placed`` {square: tile} (lowercase = scarab), ``order``
(squares in the order laid, for Backspace), ``tile`` (a rack tile picked by tap), ``swaps`` (board
scarabs taken back), ``ghost`` (the computer's tiles appearing one by one). The cursor, the typing
direction, the rack order after Shuffle and the phone zoom are kept on the page between moves.

The table (the hourglass's running turn and the tiles laid but not played) is saved with the game as
device-local record meta, on every move, shortly after the tiles change, every few seconds while the
hourglass runs and when the page is hidden or left; it comes back on reload for the same turn only
(``game/scarabeo/table.py``), with what the last move needs to be taken back (the hourglass as
it was before it; a time-out pass cannot be taken back).

Challenge mode: a computer seat whose lexicon refuses a word of the pending play challenges it at once,
next or not (``computer_interjects``); otherwise the computer to move waits while the people at the
table decide (``dispute_waits``), and a person to move with other people able to challenge gets the
decision on the pass-and-play cover, before their rack is shown (``cover``).

The view is a package, one module per concern; ``ScarabeoUI`` puts their methods together and
draws the page (``render``, ``refresh``):

- ``context`` — ``BoardCtx`` (what the board shows in one drawing), constants, shared helpers;
- ``board`` — the squares, the grid kept between drawings, the last play's outline, the zoom;
- ``marks`` — which plays are outlined: the last, or the computers' plays in a row, numbered;
- ``rack`` — whose rack is shown, the rack, the action buttons;
- ``panels`` — status, hourglass line, preview, scores, sheet, bag and unseen tiles, tools, end;
- ``disputes`` — challenges and votes: the panel, the cover, the computer's challenge;
- ``input`` — pointer, keyboard and drag on the board and the rack;
- ``actions`` — Play, Recall, Shuffle, direction, Pass, Exchange, zoom, the commit;
- ``anim`` — the computer's tiles one by one, the zoomed board brought onto the last play;
- ``table`` — the hourglass ticker and the table saved with the game; take-back's limits;
- ``computer`` — the computer's turn, hints, announcements;
- ``options`` — the lexicon before the page opens, the new-game options, importing a record;
- ``resume`` — the resume snapshot for ``boot.js``.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any, Callable

from pyscript import document, window

from web.games.scarabeo.actions import Actions
from web.games.scarabeo.anim import Anim
from web.games.scarabeo.board import Board
from web.games.scarabeo.computer import Computer
from web.games.scarabeo.context import LEVELS, BoardCtx, local, now, tile_name
from web.games.scarabeo.disputes import Disputes
from web.games.scarabeo.input import Input
from web.games.scarabeo import marks
from web.games.scarabeo.options import Options
from web.games.scarabeo.panels import Panels
from web.games.scarabeo.rack import Rack
from web.games.scarabeo.resume import Resume
from web.games.scarabeo.table import Table
from web.ui import pace
from web.ui.dom import h

if TYPE_CHECKING:
    from web.ui.context import PlayPage


class ScarabeoUI(Options, Board, Rack, Panels, Disputes, Table, Input, Actions, Anim, Computer, Resume):
    """The game's interface (``web.ui.context.GameUI``): its methods come from the modules above."""

    GAME = "scarabeo"
    MIN_PLAYERS = 2
    MAX_PLAYERS = 4
    LEVELS = LEVELS
    PRIVATE = True

    def computer_waits(self, page: PlayPage) -> bool:
        """``play.py`` hook: the computer to move holds back while the people decide on a pending
        play (``dispute_waits``), and while another computer's play, just drawn, is seen: the
        computers' plays in a row are shown one after another (``web.ui.pace``)."""
        session = page.session
        if self.dispute_waits(page):
            return True
        if session is None or session.replay_only:
            return False
        computers = [seat.computer for seat in session.seats]
        return pace.waits(page, session.state, computers, len(marks.computer_run(session.state, computers)))

    def render(self, page: PlayPage) -> Any:
        started = time.perf_counter()
        node = self._render(page)
        document.body.setAttribute("data-sc-render-ms", f"{(time.perf_counter() - started) * 1000:.1f}")
        return node

    def _render(self, page: PlayPage) -> Any:
        t = page.t
        session = page.session
        state = session.state
        view = state.view()
        over = view["over"]
        viewer = self._viewer(page)
        person = (not over and not page.thinking and not session.computer_to_move() and not session.replay_only)
        pending = view["pending"]
        self._open_table(page)
        if view["hourglass"] and state.timer is None and not over:
            state.attach_clock(now)
        waiting = self.dispute_waits(page)
        self._sync_clock(page, waiting)
        pace.drawn(page, len(state.history()))  # a computer's play after it waits its time (web.ui.pace)
        local(page).sel_move = len(state.history())  # tiles laid from now on belong to this position
        self._start_ticker(page)
        ctx = self._board_ctx(page)
        placing = ctx.placing
        if ctx.swap_error:
            page.message = (ctx.swap_error, True)
        zoomed = self._zoomed(page)
        # the live board (.sc-live): whole at rest, zoomed for placing inside the same frame
        wrap = h("div", {"class": "sc-board-wrap sc-live" + (" zoomed" if zoomed else ""), "id": "sc-board-wrap"},
                 self.board_grid(page, ctx))
        for kind in ("touchstart", "touchmove", "touchend", "touchcancel"):
            page.view_scope.on(wrap, kind, lambda e: self._on_touch(page, e))
        # the working set (docs/web.md "Layout"): head, board, hand; the rest in the drawer. Every
        # part of the hand keeps its place in every state (nothing moves the rack under the finger):
        # the preview's slot also holds the computer's play appearing and a pending dispute's strip.
        wrap.classList.add("game-board")
        head = h("div", {"class": "game-head sc-top"},
                 h("p", {"id": "sc-status", "class": "sc-status", "text": self._status(page, view)}),
                 self._clock_box(page, view),
                 page.scoreline(view["scores"], self._last_summary(page)),
                 page.message_line())
        if over:
            hand = h("div", {"class": "game-hand sc-hand"}, self._end_box(page, view))
        else:
            hand = h("div", {"class": "game-hand sc-hand"},
                     self._rack_box(page, viewer, ctx.rack, placing),
                     self._slot(page, ctx),
                     self._actions(page, view["exchange_allowed"], placing, ctx.play, zoomed))
        more = page.drawer(
                 self._scores(page, view),
                 self._hint_list(page),
                 self._draw_box(page, view),
                 self._sheet(page, view),
                 self._bag_box(page, view, viewer),
                 self._tools(page),
                 h("div", {"class": "sc-keys"},
                   h("p", {"id": "sc-board-help", "class": "muted sc-help", "text": t("scarabeo.help.keys")}),
                   self.premium_legend(t)))
        page_node = h("section", {"class": "sc-page", "aria-labelledby": "sc-title"},
                      h("h1", {"id": "sc-title", "class": "visually-hidden", "text": t("game.scarabeo.name")}),
                      h("div", {"class": "game-layout"}, head, wrap, hand, more))
        window.requestAnimationFrame(self._raf(page))
        self._table_changed(page)
        return page_node

    def refresh(self, page: PlayPage) -> None:
        """Redraw what laying tiles changes — the squares that differ, the rack, the preview, the
        buttons — without rebuilding the page (a keystroke stays a few milliseconds)."""
        started = time.perf_counter()
        if page.closed or page.session is None or not document.getElementById("sc-board"):
            return
        active = document.activeElement
        focused = str(active.id) if active and active.id else ""
        ctx = self._board_ctx(page)
        self._update_cells(page, ctx)
        viewer = self._viewer(page)
        parts: tuple[tuple[str, Callable[[], Any]], ...] = (
            ("sc-rack", lambda: self._rack_box(page, viewer, ctx.rack, ctx.placing) if viewer is not None else None),
            ("sc-slot", lambda: self._slot(page, ctx)),
            ("sc-actions", lambda: self._actions(page, self._exchange_allowed(page), ctx.placing, ctx.play,
                                                 self._zoomed(page))),
        )
        for node_id, fresh in parts:
            old = document.getElementById(node_id)
            if old:
                node = fresh()
                if node is not None:
                    old.replaceWith(node)
        message = document.getElementById("play-message")
        if message and page.message is None:
            message.hidden = True
        elif page.message is not None:
            page.show_message(*page.message)
        if focused.startswith("sq-"):
            self._focus(page, ctx.cursor)
        elif focused:
            again = document.getElementById(focused)
            if again:
                again.focus()
        self._table_changed(page)
        document.body.setAttribute("data-sc-render-ms", f"{(time.perf_counter() - started) * 1000:.1f}")


UI = ScarabeoUI()

__all__ = ["UI", "BoardCtx", "ScarabeoUI", "tile_name"]
