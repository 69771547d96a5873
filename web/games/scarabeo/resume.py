"""The resume snapshot: the board and the viewer's rack as plain nodes for ``boot.js`` to draw
before Python starts (``web/platform/snapshot.py`` decides whose rack may be kept)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from game.scarabeo.board import COLUMNS, SIZE
from game.scarabeo.tiles import SCARAB, VALUES, sort_rack
from web.games.scarabeo import marks
from web.games.scarabeo.context import BoardCtx, ViewPart

if TYPE_CHECKING:
    from web.ui.context import PlayPage


class Resume(ViewPart):
    """A mixin of ``web.games.scarabeo.ScarabeoUI``: the methods this module's docstring describes (every one
    takes the game page, ``web.ui.context.PlayPage``)."""

    def snapshot(self, page: PlayPage) -> dict[str, Any]:
        """The board and the rack as ``render`` would draw them now, as plain data for boot.js
        (web/platform/snapshot.py decides whose rack may be kept; this draws the viewer's, as render does)."""
        from web.platform.snapshot import el

        t = page.t
        state = page.session.state
        view = state.view()
        # outlined as the page outlines them: the last play, or the computers' plays in a row
        last = marks.board_marks(state, [seat.computer for seat in page.session.seats])[0]
        ctx = BoardCtx(board=state.board, last=last)
        rows = [el("div", "sc-row sc-head", None, el("span"), *[el("span", None, ch) for ch in COLUMNS])]
        for r in range(SIZE):
            cells = []
            for c in range(SIZE):
                cls, _label, big, small = self.cell_spec(page, ctx, r * SIZE + c)
                if big:
                    cells.append(el("div", cls, None, el("span", "l", big),
                                    *([el("span", None, " "), el("span", "v", small)] if small else [])))
                else:
                    cells.append(el("div", cls, None, el("span", "pl", small) if small else None))
            rows.append(el("div", "sc-row", None, el("span", "sc-rownum", r + 1), *cells))
        board = el("div", "sc-board-wrap sc-live game-board", None,  # whole at rest, as the page draws it
                   el("div", "sc-board", None, *rows, role="img", aria_label=t("scarabeo.board")))
        viewer = self._viewer(page)
        hand = None
        if viewer is not None:
            tiles = [el("span", "sc-tile" + (" scarab" if tile == SCARAB else ""), None,
                        el("span", "l", "\u2605" if tile == SCARAB else tile),
                        None if tile == SCARAB else el("span", None, " "),
                        None if tile == SCARAB else el("span", "v", VALUES[tile]))
                     for tile in sort_rack(list(state.racks[viewer]))]
            hand = el("div", "game-hand sc-hand", None,
                      el("div", "sc-rack", None, *tiles, role="img",
                         aria_label=t("scarabeo.rack.of", name=page.session.seats[viewer].name)))
        return {"page_class": "sc-page", "status": self._status(page, view), "scores": view["scores"],
                "last": self._last_summary(page),
                "board": board, "hand": hand}
