"""The board: the per-render context (``BoardCtx``) built from the engine's position, the tiles laid
and the chosen swaps; each square's class and accessible name (``cell_spec``, also drawn by the
rules page and the review); the 17×17 grid built once per game page and then updated square by
square; the last play's outline, or the computers' plays in a row each outlined and numbered
(``marks``); whether the board is zoomed; the legend of the premium squares."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pyscript import document

from game.core import IllegalMove
from game.scarabeo.board import COLUMNS, LAYOUT, SIZE, SQUARES, parse_square, square_name
from game.scarabeo.rules import apply_swaps, exchange_refusal
from game.scarabeo.tiles import HIDDEN, VALUES
from web.games.scarabeo import marks
from web.games.scarabeo.context import PREMIUM_KEY, PREMIUM_LABEL, BoardCtx, ViewPart, local, tile_name
from web.ui.dom import append, h

if TYPE_CHECKING:
    from web.ui.context import PlayPage


class Board(ViewPart):
    """A mixin of ``web.games.scarabeo.ScarabeoUI``: the methods this module's docstring describes (every one
    takes the game page, ``web.ui.context.PlayPage``)."""

    def _projected(self, page: PlayPage) -> tuple[list[str], list[str], str | None]:
        """The board and rack of the player to move with the chosen swaps applied (by the engine's
        ``apply_swaps``), and the refusal if a swap is not possible."""
        state = page.session.state
        board = state.board[:]
        rack = list(state.racks[state.to_move()])
        swaps = page.selection.get("swaps") or []
        if swaps:
            try:
                apply_swaps(board, rack, list(swaps))
            except IllegalMove as err:
                page.selection["swaps"] = []
                return state.board[:], list(state.racks[state.to_move()]), str(err)
        return board, rack, None

    def _tentative(self, page: PlayPage) -> tuple[Any, Any, str | None]:
        """(play, turn result) of the tiles laid so far, or the engine's refusal in plain words."""
        placed = page.selection.get("placed") or {}
        if not placed:
            return None, None, None
        state = page.session.state
        swaps = page.selection.get("swaps") or []
        try:
            play = state.play_from_placements(sorted(placed.items()), swaps)
            result = state.preview(play)
        except IllegalMove as err:
            # the words refused, for the refusal's buttons to the word panel (issue 40)
            page.selection["refused_words"] = list((getattr(err, "details", None) or {}).get("words") or []) \
                if getattr(err, "code", "") == "invalid-words" else []
            return None, None, self._reason(page, err)
        page.selection["refused_words"] = []
        return play, result, None

    def _placing(self, page: PlayPage) -> bool:
        """A person is to move and may lay tiles (also while a play waits for a challenge)."""
        s = page.session
        if s is None or page.thinking or s.state.is_over() or s.computer_to_move() or s.replay_only:
            return False
        return s.state.pending is None or s.state.pending.kind == "challenge"

    def _board_ctx(self, page: PlayPage) -> BoardCtx:
        """What the board shows now: engine board (with chosen swaps), tiles laid, the computer's
        tiles appearing, the squares of the words formed and of the last move, the cursor."""
        state = page.session.state
        sel = page.selection
        placing = self._placing(page)
        board, rack, swap_error = self._projected(page) if placing else (state.board, [], None)
        placed: dict[int, str] = sel.get("placed", {}) if placing else {}
        ghost: dict[int, str] = dict(sel.get("ghost", []))
        play, result, reason = self._tentative(page) if placing else (None, None, None)
        formed: set[int] = set()
        if result is not None and result.breakdown is not None:
            for w in result.breakdown.words:
                step = 1 if w.across else SIZE
                formed.update(w.start + k * step for k in range(len(w.word)))
        # the last play outlined, or each of the computers' plays in a row since the person's,
        # numbered (``marks``): those stay while the next computer's tiles appear (a person's own
        # play does not)
        last, order, run_of, badges = marks.board_marks(state, [seat.computer for seat in page.session.seats])
        if ghost and not run_of:
            last = set()
        newest = {sq for sq, k in order.items() if k == run_of} if order else last
        cursor = self._follow_last(page, len(state.history()), set() if ghost else newest)
        swappable = {parse_square(n) for n in self._swappable(page)} if placing else set()
        return BoardCtx(placing=placing, board=board, rack=rack, swap_error=swap_error, placed=placed,
                        ghost=ghost, play=play, result=result, reason=reason, formed=formed, last=last,
                        order=order, run_of=run_of, badges=badges,
                        cursor=cursor, across=local(page).across, swappable=swappable,
                        swaps=set(sel.get("swaps") or []))

    def cell_spec(self, page: PlayPage, ctx: BoardCtx, sq: int) -> tuple[str, str, str, str]:
        """(class, aria-label, big text, small text) of one square."""
        t = page.t
        r, c = divmod(sq, SIZE)
        prem = LAYOUT[r][c]
        cls = "sc-sq"
        parts = [f"{COLUMNS[c]}{r + 1}"]
        if prem != ".":
            cls += f" p-{prem}"
            parts.append(t(PREMIUM_KEY[prem]))
        placed, ghost = ctx.placed, ctx.ghost
        tile = placed.get(sq) or ghost.get(sq) or ctx.board[sq]
        if tile:
            scarab = tile.islower()
            letter = tile.upper()
            cls += " tile" + (" scarab" if scarab else "")
            if sq in placed:
                cls += " placed"
            elif sq in ghost:
                cls += " ghost"
            elif sq in ctx.last:
                cls += " last"
            if sq in ctx.swaps:
                cls += " swapped"
            # the name contains what the square shows ("C 1": the letter and its value), WCAG 2.5.3
            parts.append(t("scarabeo.sq.scarab", letter=letter) if scarab else tile_name(t, letter, VALUES.get(letter, 0)))
            if sq in placed:
                parts.append(t("scarabeo.sq.placed"))
            elif sq in ctx.order and sq not in ghost:
                # one of the computers' plays in a row, numbered in the order played
                parts.append(t("scarabeo.sq.run", n=ctx.order[sq], of=ctx.run_of))
            if sq in ctx.swappable:
                cls += " swappable"
                parts.append(t("scarabeo.sq.swappable"))
            big, small = letter, "" if scarab else str(VALUES.get(letter, ""))
        else:
            parts.append(t("scarabeo.sq.empty"))
            big, small = "", PREMIUM_LABEL.get(prem, "\u2605" if prem == "*" else "")
        if sq in ctx.formed:
            cls += " formed"
        if sq == ctx.cursor and ctx.placing:
            cls += " cursor " + ("dir-across" if ctx.across else "dir-down")
        return cls, ", ".join(parts), big, small

    def make_cell(self, sq: int, spec: tuple[str, str, str, str], cursor: int, order: int | None = None) -> Any:
        """One square; ``order``: the number of the computers' play whose first tile it is, drawn
        in its corner (its name says it: ``cell_spec``)."""
        cls, label, big, small = spec
        cell = document.createElement("div")
        cell.className = cls
        cell.id = f"sq-{square_name(sq)}"
        cell.setAttribute("role", "gridcell")
        cell.setAttribute("data-sq", str(sq))
        if order is not None:
            cell.setAttribute("data-order", str(order))
            cell.appendChild(h("span", {"class": "sc-order", "text": str(order), "aria-hidden": "true"}))
        cell.setAttribute("tabindex", "0" if sq == cursor else "-1")
        cell.setAttribute("aria-label", label)
        if big:
            cell.appendChild(h("span", {"class": "l", "text": big, "aria-hidden": "true"}))
            if small:
                cell.appendChild(document.createTextNode(" "))  # the visible text reads "C 1", as its name does
                cell.appendChild(h("span", {"class": "v v2" if len(small) > 1 else "v", "text": small,
                                            "aria-hidden": "true"}))
        elif small:
            cell.appendChild(h("span", {"class": "pl", "text": small, "aria-hidden": "true"}))
        return cell

    def board_grid(self, page: PlayPage, ctx: BoardCtx) -> Any:
        """The grid: built once per game page, then kept and brought up to date square by square
        (a redraw after a move rebuilds the panels, not 289 squares)."""
        t = page.t
        grid = local(page).grid
        if grid is not None and local(page).grid_for is page.session:
            self._update_cells(page, ctx)
        else:
            grid = h("div", {"role": "grid", "id": "sc-board", "class": "sc-board", "aria-label": t("scarabeo.board"),
                             "aria-describedby": "sc-board-help", "aria-rowcount": str(SIZE),
                             "aria-colcount": str(SIZE)})
            head = h("div", {"class": "sc-row sc-head", "aria-hidden": "true"}, h("span", {}))
            for ch in COLUMNS:
                append(head, h("span", {"text": ch}))
            append(grid, head)
            specs, cells = [], []
            for r in range(SIZE):
                row = h("div", {"role": "row", "class": "sc-row"},
                        h("span", {"class": "sc-rownum", "aria-hidden": "true", "text": str(r + 1)}))
                for c in range(SIZE):
                    sq = r * SIZE + c
                    spec = self.cell_spec(page, ctx, sq)
                    specs.append(spec)
                    cell = self.make_cell(sq, spec, ctx.cursor, self._badge(ctx, sq))
                    cells.append(cell)
                    row.appendChild(cell)
                grid.appendChild(row)
            mine = local(page)
            mine.specs, mine.cells, mine.grid, mine.grid_for = specs, cells, grid, page.session
        # the view's scope is renewed on every redraw: bind the kept grid again
        page.view_scope.on(grid, "click", lambda e: self._on_board_click(page, e))
        page.view_scope.on(grid, "keydown", lambda e: self._on_board_key(page, e))
        return grid

    @staticmethod
    def _badge(ctx: BoardCtx, sq: int) -> int | None:
        """The number drawn on ``sq``: its play's in the computers' run, on the play's first tile."""
        return ctx.order[sq] if sq in ctx.badges and sq not in ctx.placed and sq not in ctx.ghost else None

    def _update_cells(self, page: PlayPage, ctx: BoardCtx) -> None:
        specs, cells = local(page).specs, local(page).cells
        for sq in range(SQUARES):
            spec = self.cell_spec(page, ctx, sq)
            if specs[sq] != spec:
                cell = self.make_cell(sq, spec, ctx.cursor, self._badge(ctx, sq))
                cells[sq].replaceWith(cell)
                cells[sq], specs[sq] = cell, spec
        for node in local(page).grid.querySelectorAll("[tabindex='0']"):
            node.setAttribute("tabindex", "-1")
        cells[ctx.cursor].setAttribute("tabindex", "0")

    def _zoomed(self, page: PlayPage) -> bool:
        """The board zoomed in for placing; at rest (the default) it is whole at every size."""
        return bool(local(page).zoom)

    def _swappable(self, page: PlayPage) -> list[str]:
        state = page.session.state
        rack = state.racks[state.to_move()]
        return [square_name(sq) for sq in range(SQUARES) if state.board[sq].islower() and state.board[sq].upper() in rack]

    def _exchange_allowed(self, page: PlayPage) -> bool:
        state = page.session.state
        rack = state.racks[state.to_move()]
        if HIDDEN in rack:  # a game by links: a rack not (yet) readable here is exchanged by nobody here
            return False
        return bool(rack) and exchange_refusal(rack, "".join(rack)) is None

    def premium_legend(self, t: Any) -> Any:
        out = h("ul", {"class": "sc-legend", "aria-label": t("scarabeo.legend")})
        for prem, label in (("L", "2L"), ("T", "3L"), ("D", "2P"), ("W", "3P"), ("*", "\u2605")):
            key = {"L": "2L", "T": "3L", "D": "2P", "W": "3P", "*": "centre"}[prem]
            append(out, h("li", {}, h("span", {"class": f"sc-sq p-{prem} swatch", "aria-hidden": "true"},
                                      h("span", {"class": "pl", "text": label})),
                          t(f"scarabeo.premium.{key}")))
        return out
