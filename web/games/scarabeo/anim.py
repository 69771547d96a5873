"""Motion: the computer's tiles appearing one by one, a zoomed board brought onto the cursor or
onto the square a finger zoomed in on, and the work done after the browser has laid out the
page (the board on the cursor, the score sheet on its latest turn)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Generator

from pyscript import document

from game.core import IllegalMove, NotationError
from game.scarabeo.board import CENTRE
from game.scarabeo.moves import Play
from game.scarabeo.rules import apply_swaps, resolve_play
from web.games.scarabeo.context import COMPUTER_TILE_SECONDS, ViewPart, local
from web.platform import events
from web.ui.dom import h
from web.ui.slices import Pause

if TYPE_CHECKING:
    from web.ui.context import PlayPage


class Anim(ViewPart):
    """A mixin of ``web.games.scarabeo.ScarabeoUI``: the methods this module's docstring describes (every one
    takes the game page, ``web.ui.context.PlayPage``)."""

    def _follow_last(self, page: PlayPage, moves: int, last: set[int]) -> int:
        """The cursor for this drawing: on a new move to see (the computer's reply, the other
        person's play) it goes to the play's first tile, so that a zoomed board brings the play into
        view (the cursor is what ``_scroll_to_cursor`` centres); otherwise it stays where it is."""
        cursor: int | None = local(page).cursor
        if cursor is None or (last and local(page).last_seen != moves):
            cursor = min(last) if last else (cursor if cursor is not None else CENTRE)
            local(page).cursor = cursor
        local(page).last_seen = moves
        return cursor

    def _raf(self, page: PlayPage) -> Any:
        from pyscript.ffi import create_proxy

        def run(*_a: Any) -> None:
            proxy.destroy()
            if not page.closed:
                self._scroll_to_cursor(page)
                sheet = document.getElementById("sc-sheet-wrap")
                if sheet:  # the latest turn in view
                    sheet.scrollTop = sheet.scrollHeight

        proxy = create_proxy(run)
        return proxy

    def _scroll_to_cursor(self, page: PlayPage) -> None:
        cursor = local(page).cursor
        if cursor is not None:
            self._scroll_to(page, cursor)

    def _scroll_to(self, page: PlayPage, sq: int, at: tuple[float, float] | None = None) -> None:
        """A zoomed board brought onto square ``sq``: under the viewport point ``at`` (the finger
        that zoomed in), else at the frame's centre. A board at rest shows every square already."""
        wrap = document.getElementById("sc-board-wrap")
        if not wrap or "zoomed" not in str(wrap.className):
            return
        cell = document.querySelector(f"#sc-board [data-sq='{sq}']")
        if not cell:
            return
        if at is None:
            x, y = wrap.clientWidth / 2, wrap.clientHeight / 2
        else:
            frame = wrap.getBoundingClientRect()
            x, y = at[0] - frame.left, at[1] - frame.top
        wrap.scrollLeft = max(0, cell.offsetLeft + cell.offsetWidth / 2 - x)
        wrap.scrollTop = max(0, cell.offsetTop + cell.offsetHeight / 2 - y)

    def _show_computer_tiles(self, page: PlayPage, text: str) -> Generator[Pause, None, None]:
        """The computer's play ``text`` drawn a tile at a time, ``COMPUTER_TILE_SECONDS`` apart. Each
        wait is a pause asked of ``web.ui.slices.run_in_slices`` (the seconds yielded), never a loop on
        the clock: the page sleeps between tiles instead of keeping a core busy, and leaving the game
        during a pause still stops the drawing (``wanted()`` is checked after it)."""
        state = page.session.state
        try:
            move = state.parse_move(text)
            if not isinstance(move, Play):
                return
            board = state.board[:]
            rack = list(state.racks[state.to_move()])
            apply_swaps(board, rack, list(move.swaps))
            tiles = resolve_play(board, move)
            preview = state.preview(move)
        except (IllegalMove, NotationError):
            return
        # the play in words while its tiles appear ("Computer (expert) played DOPARVI at 14H for 78 points")
        info = events.scarabeo_event(page.t, preview, events.seat_names(page.t, "scarabeo", page.session.seats),
                                     events.you_seat(page.t, page.session.seats)).text
        for k in range(1, len(tiles) + 1):
            page.selection = {"ghost": tiles[:k], "ghost_info": info}
            local(page).cursor = tiles[k - 1][0]  # a zoomed board follows the tiles as they appear
            self.refresh(page)
            self._scroll_to_cursor(page)
            yield COMPUTER_TILE_SECONDS
        page.selection = {}
