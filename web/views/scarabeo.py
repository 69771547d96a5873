"""Scarabeo in the page: the 17×17 board, the rack, tiles placed by drag, tap or keyboard, the live
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
(``web/views/scarabeo_table.py``), with what the last move needs to be taken back (the hourglass as
it was before it; a time-out pass cannot be taken back).

Challenge mode: a computer seat whose lexicon refuses a word of the pending play challenges it at once,
next or not (``computer_interjects``); otherwise the computer to move waits while the people at the
table decide (``computer_waits``), and a person to move with other people able to challenge gets the
decision on the pass-and-play cover, before their rack is shown (``cover``).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Mapping
from typing import Any, Callable, Generator

from pyscript import document, window  # type: ignore[import-not-found]

from game.core import IllegalMove, NotationError
from game.scarabeo import record as sc_record
from game.scarabeo.board import CENTRE, COLUMNS, LAYOUT, SIZE, SQUARES, parse_square, square_name
from game.scarabeo.moves import Exchange, Pass, Play
from game.scarabeo.moves import move_text as sc_move_text
from game.scarabeo.rules import apply_swaps, exchange_refusal, resolve_play
from game.scarabeo.tiles import LETTERS, SCARAB, VALUES, sort_rack
from web import router
from web.dom import Scope, append, download, h, modal
from web.play import run_in_slices
from web.storage import StorageError
from web.views import scarabeo_table as table_rules

try:  # the computer opponent and the hints (game/scarabeo/ai.py); without it, people only
    from game.scarabeo import ai as _ai
    #: Seat levels 1-4 are the engine's aliases of beginner, casual, expert, champion.
    LEVELS: tuple[int, ...] = tuple(int(k) for k in sorted(_ai.ALIASES) if k.isdigit())
except ImportError:  # pragma: no cover - depends on the engine being there
    _ai = None  # type: ignore[assignment]
    LEVELS = ()

PREMIUM_LABEL = {"W": "3P", "D": "2P", "T": "3L", "L": "2L"}
PREMIUM_KEY = {"W": "scarabeo.premium.3P", "D": "scarabeo.premium.2P", "T": "scarabeo.premium.3L",
               "L": "scarabeo.premium.2L", "*": "scarabeo.premium.centre"}
#: Seconds between two of the computer's tiles appearing on the board.
COMPUTER_TILE_SECONDS = 0.18
#: Below this width the board starts zoomed on the area being played (it pans inside its frame).
PHONE_WIDTH = 600
#: Tiles laid are saved this long after the last change (one write for a burst of keystrokes).
TABLE_SAVE_DELAY_MS = 400
#: While the hourglass runs, the table is saved every this many ticks of the half-second ticker.
TABLE_SAVE_TICKS = 6


def _now() -> float:
    """The hourglass's clock: the page's monotonic milliseconds, in seconds."""
    return float(window.performance.now()) / 1000.0


def _next_square(sq: int, across: bool, step: int = 1) -> int | None:
    r, c = divmod(sq, SIZE)
    if across:
        c += step
    else:
        r += step
    return r * SIZE + c if 0 <= r < SIZE and 0 <= c < SIZE else None



def tile_name(t: Any, letter: str, value: int) -> str:
    """"A, 1 point": begins with what the tile shows (the letter, then its value)."""
    return t("scarabeo.tile.one" if value == 1 else "scarabeo.tile", letter=letter, value=value)

class ScarabeoUI:
    GAME = "scarabeo"
    MIN_PLAYERS = 2
    MAX_PLAYERS = 4
    LEVELS = LEVELS
    PRIVATE = True

    # ------------------------------------------------------------------ before the page opens
    async def prepare(self, page: Any) -> None:
        """The lexicon must be in the engine's factory before a game is created or replayed."""
        from web import engines, wordcheck

        note = h("p", {"class": "thinking", "role": "status", "id": "sc-loading", "text": page.t("scarabeo.loading")})
        append(page.root, note)
        try:
            await wordcheck.lexicon()
        except Exception as err:  # a missing lexicon: the game still opens, without word checks
            page.app.toast(page.t("wordcheck.unavailable", error=err), error=True)
        note.remove()
        lex = engines.FACTORY_KWARGS.get("scarabeo", {}).get("word_list")
        if _ai is not None and lex is not None:
            _ai.generator_for(lex)  # built once here, not in the middle of the computer's first turn

    # ------------------------------------------------------------------ new game
    def options_form(self, page: Any) -> tuple[Any, Callable[[int], dict[str, Any]]]:
        t = page.t
        mode = h("select", {"id": "sc-mode", "name": "check_mode"})
        for m in ("dictionary", "challenge", "vote"):
            append(mode, h("option", {"value": m, "text": t(f"scarabeo.mode.{m}")}))
        glass = h("input", {"type": "checkbox", "id": "sc-hourglass", "name": "hourglass"})
        importer = h("input", {"type": "file", "id": "sc-import", "accept": ".txt,.gcg,.json,text/plain"})
        page.scope.on(importer, "change", lambda _e: asyncio.ensure_future(self._import(page, importer)))
        box = h("div", {"class": "sc-options"},
                h("fieldset", {}, h("legend", {"text": t("play.options")}),
                  h("div", {"class": "row"}, h("label", {"for": "sc-mode", "text": t("scarabeo.mode")}), mode),
                  h("p", {"class": "muted", "text": t("scarabeo.mode.help")}),
                  h("label", {"class": "choice", "for": "sc-hourglass"}, glass, t("scarabeo.hourglass")),
                  h("p", {"class": "muted", "text": t("scarabeo.hourglass.help")})),
                h("fieldset", {}, h("legend", {"text": t("scarabeo.import")}),
                  h("label", {"for": "sc-import", "class": "muted", "text": t("scarabeo.import.help")}), importer))

        def read(players: int) -> dict[str, Any]:
            check_mode = str(mode.value)
            if check_mode == "vote" and players < 3:
                raise ValueError(t("scarabeo.mode.vote.players"))
            names = []
            for i in range(players):
                node = document.getElementById(f"seat-{i}-name")
                name = " ".join(str(node.value if node else "").split())[:24]
                names.append(name or t("play.seat.default", n=i + 1))
            options = {"players": players, "names": names, "check_mode": check_mode, "hourglass": bool(glass.checked)}
            if check_mode == "vote":
                options["contest"] = True  # any word can be put to the vote (a record without it is an older game)
            return options

        return box, read

    async def _import(self, page: Any, node: Any) -> None:
        """A GCG-style text record (or a JSON one): replayed and checked by the engine, then continued."""
        from web import engines
        from web.session import Seat, Session
        from web.storage import StorageError

        files = node.files
        if files is None or files.length == 0:
            return
        text = str(await files.item(0).text())
        node.value = ""
        lex = engines.FACTORY_KWARGS.get("scarabeo", {}).get("word_list")
        try:
            if len(text) > 1_000_000:
                raise ValueError("record over 1 000 000 bytes")
            game = sc_record.load(text, lex)
            session = Session.create(page.app.store, "scarabeo", game.options(), game.seed,
                                     [Seat(n) for n in game.names],
                                     page.t("scarabeo.import.title", names=", ".join(game.names)))
            for move in game.history():
                session.state.push(move)
            session.autosave()
        except StorageError as err:
            page.app.storage_error(err, "import")
            return
        except (ValueError, NotationError) as err:
            page.app.toast(page.t("scarabeo.import.failed", reason=str(err)), error=True)
            return
        page.app.navigate(router.href("scarabeo", "play", session.save.id))

    # ------------------------------------------------------------------ helpers on the position
    def _viewer(self, page: Any) -> int | None:
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

    def _projected(self, page: Any) -> tuple[list[str], list[str], str | None]:
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

    def _rack_left(self, page: Any, rack: list[str]) -> list[str]:
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

    def _tentative(self, page: Any) -> tuple[Any, Any, str | None]:
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
            return None, None, self._reason(page, err)
        return play, result, None

    def _reason(self, page: Any, err: Exception) -> str:
        """The engine's refusal in the player's language when its code is known, else as it is."""
        t = page.t
        code = getattr(err, "code", "")
        details = getattr(err, "details", {}) or {}
        key = f"scarabeo.err.{code}"
        if code == "invalid-words":
            words = details.get("words") or []
            return t(key + (".one" if len(words) == 1 else ".many"), words=", ".join(words))
        if code == "voted-down":
            return t(key, words=", ".join(details.get("words") or []))
        if code in ("gap", "square-taken") and details.get("square"):
            return t(key, square=details["square"])
        if code in ("first-not-centre", "not-touching", "no-word", "not-in-line", "exchange-not-allowed",
                    "challenge-pending"):
            text = t(key)
            return text if code != "exchange-not-allowed" else f"{text} ({err})"
        return str(err)

    # ------------------------------------------------------------------ drawing
    def render(self, page: Any) -> Any:
        started = time.perf_counter()
        node = self._render(page)
        document.body.setAttribute("data-sc-render-ms", f"{(time.perf_counter() - started) * 1000:.1f}")
        return node

    def _placing(self, page: Any) -> bool:
        """A person is to move and may lay tiles (also while a play waits for a challenge)."""
        s = page.session
        if s is None or page.thinking or s.state.is_over() or s.computer_to_move() or s.replay_only:
            return False
        return s.state.pending is None or s.state.pending.kind == "challenge"

    def _board_ctx(self, page: Any) -> dict[str, Any]:
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
        last = set() if ghost else self._last_play_squares(state)
        cursor = getattr(page, "sc_cursor", None)
        moves = len(state.history())
        if cursor is None or (last and getattr(page, "sc_last_seen", None) != moves):
            # a new move to see (the computer's reply, the other person's play): a zoomed board
            # brings its tiles into view (the cursor is what _scroll_to_cursor centres)
            cursor = min(last) if last else (cursor if cursor is not None else CENTRE)
            page.sc_cursor = cursor
        page.sc_last_seen = moves
        swappable = {parse_square(n) for n in self._swappable(page)} if placing else set()
        return {"placing": placing, "board": board, "rack": rack, "swap_error": swap_error, "placed": placed,
                "ghost": ghost, "play": play, "result": result, "reason": reason, "formed": formed, "last": last,
                "cursor": cursor, "across": getattr(page, "sc_across", True), "swappable": swappable,
                "swaps": set(sel.get("swaps") or [])}

    def _last_play_squares(self, state: Any) -> set[int]:
        """The tiles of the last play, from the engine's results (so the outline survives a reload
        and a take-back of a later move): a dispute that lets the play stand (an accepted challenge,
        a failed one, a vote for it) keeps it outlined; a pass, an exchange or a play taken off
        the board by a dispute outlines nothing."""
        for result in reversed(state.results()):
            if isinstance(result.move, (Pass, Exchange)):
                return set()
            if isinstance(result.move, Play):
                bd = result.breakdown
                if bd is None or not state.board[bd.words[0].start]:
                    return set()  # challenged off (its squares are empty again)
                return {x.square for w in bd.words for x in w.letters if x.new}
            if result.score < 0:  # a dispute that took the play off
                return set()
        return set()

    def _cell_spec(self, page: Any, ctx: dict[str, Any], sq: int) -> tuple[str, str, str, str]:
        """(class, aria-label, big text, small text) of one square."""
        t = page.t
        r, c = divmod(sq, SIZE)
        prem = LAYOUT[r][c]
        cls = "sc-sq"
        parts = [f"{COLUMNS[c]}{r + 1}"]
        if prem != ".":
            cls += f" p-{prem}"
            parts.append(t(PREMIUM_KEY[prem]))
        placed, ghost = ctx["placed"], ctx["ghost"]
        tile = placed.get(sq) or ghost.get(sq) or ctx["board"][sq]
        if tile:
            scarab = tile.islower()
            letter = tile.upper()
            cls += " tile" + (" scarab" if scarab else "")
            if sq in placed:
                cls += " placed"
            elif sq in ghost:
                cls += " ghost"
            elif sq in ctx["last"]:
                cls += " last"
            if sq in ctx["swaps"]:
                cls += " swapped"
            # the name contains what the square shows ("C 1": the letter and its value), WCAG 2.5.3
            parts.append(t("scarabeo.sq.scarab", letter=letter) if scarab else tile_name(t, letter, VALUES.get(letter, 0)))
            if sq in placed:
                parts.append(t("scarabeo.sq.placed"))
            if sq in ctx["swappable"]:
                cls += " swappable"
                parts.append(t("scarabeo.sq.swappable"))
            big, small = letter, "" if scarab else str(VALUES.get(letter, ""))
        else:
            parts.append(t("scarabeo.sq.empty"))
            big, small = "", PREMIUM_LABEL.get(prem, "\u2605" if prem == "*" else "")
        if sq in ctx["formed"]:
            cls += " formed"
        if sq == ctx["cursor"] and ctx["placing"]:
            cls += " cursor " + ("dir-across" if ctx["across"] else "dir-down")
        return cls, ", ".join(parts), big, small

    def _make_cell(self, sq: int, spec: tuple[str, str, str, str], cursor: int) -> Any:
        cls, label, big, small = spec
        cell = document.createElement("div")
        cell.className = cls
        cell.id = f"sq-{square_name(sq)}"
        cell.setAttribute("role", "gridcell")
        cell.setAttribute("data-sq", str(sq))
        cell.setAttribute("tabindex", "0" if sq == cursor else "-1")
        cell.setAttribute("aria-label", label)
        if big:
            cell.appendChild(h("span", {"class": "l", "text": big, "aria-hidden": "true"}))
            if small:
                cell.appendChild(document.createTextNode(" "))  # the visible text reads "C 1", as its name does
                cell.appendChild(h("span", {"class": "v", "text": small, "aria-hidden": "true"}))
        elif small:
            cell.appendChild(h("span", {"class": "pl", "text": small, "aria-hidden": "true"}))
        return cell

    def _board(self, page: Any, ctx: dict[str, Any]) -> Any:
        """The grid: built once per game page, then kept and brought up to date square by square
        (a redraw after a move rebuilds the panels, not 289 squares)."""
        t = page.t
        grid = getattr(page, "sc_grid", None)
        if grid is not None and getattr(page, "sc_grid_for", None) is page.session:
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
                    spec = self._cell_spec(page, ctx, sq)
                    specs.append(spec)
                    cell = self._make_cell(sq, spec, ctx["cursor"])
                    cells.append(cell)
                    row.appendChild(cell)
                grid.appendChild(row)
            page.sc_specs, page.sc_cells, page.sc_grid, page.sc_grid_for = specs, cells, grid, page.session
        # the view's scope is renewed on every redraw: bind the kept grid again
        page.view_scope.on(grid, "click", lambda e: self._on_board_click(page, e))
        page.view_scope.on(grid, "keydown", lambda e: self._on_board_key(page, e))
        return grid

    def _update_cells(self, page: Any, ctx: dict[str, Any]) -> None:
        specs, cells = page.sc_specs, page.sc_cells
        for sq in range(SQUARES):
            spec = self._cell_spec(page, ctx, sq)
            if specs[sq] != spec:
                cell = self._make_cell(sq, spec, ctx["cursor"])
                cells[sq].replaceWith(cell)
                cells[sq], specs[sq] = cell, spec
        for node in page.sc_grid.querySelectorAll("[tabindex='0']"):
            node.setAttribute("tabindex", "-1")
        cells[ctx["cursor"]].setAttribute("tabindex", "0")

    def refresh(self, page: Any) -> None:
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
        for node_id, fresh in (
            ("sc-rack", lambda: self._rack_box(page, viewer, ctx["rack"], ctx["placing"]) if viewer is not None else None),
            ("sc-preview", lambda: self._preview_box(page, ctx["play"], ctx["result"], ctx["reason"])),
            ("sc-actions", lambda: self._actions(page, self._exchange_allowed(page), ctx["placing"], ctx["play"],
                                                 self._zoomed(page))),
            ("sc-ghost-info", lambda: self._ghost_box(page)),
        ):
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
            self._focus(page, ctx["cursor"])
        elif focused:
            again = document.getElementById(focused)
            if again:
                again.focus()
        self._table_changed(page)
        document.body.setAttribute("data-sc-render-ms", f"{(time.perf_counter() - started) * 1000:.1f}")

    def _exchange_allowed(self, page: Any) -> bool:
        state = page.session.state
        rack = state.racks[state.to_move()]
        return bool(rack) and exchange_refusal(rack, "".join(rack)) is None

    def _render(self, page: Any) -> Any:
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
            state.attach_clock(_now)
        waiting = self.computer_waits(page)
        self._sync_clock(page, waiting)
        page.sc_sel_move = len(state.history())  # tiles laid from now on belong to this position
        self._start_ticker(page)
        ctx = self._board_ctx(page)
        placing = ctx["placing"]
        if ctx["swap_error"]:
            page.message = (ctx["swap_error"], True)
        zoomed = self._zoomed(page)
        wrap = h("div", {"class": "sc-board-wrap" + (" zoomed" if zoomed else ""), "id": "sc-board-wrap"},
                 self._board(page, ctx))
        # the working set (docs/web.md "Layout"): head, board, hand; the rest in the drawer
        wrap.classList.add("game-board")
        head = h("div", {"class": "game-head sc-top"},
                 h("p", {"id": "sc-status", "class": "sc-status", "text": self._status(page, view)}),
                 self._clock_box(page, view),
                 page.scoreline(view["scores"], self._last_summary(page)),
                 self._end_box(page, view) if over else None,
                 page.message_line(),
                 self._dispute_box(page, view, waiting) if (person and pending) or waiting else None)
        hand = h("div", {"class": "game-hand sc-hand"},
                 self._ghost_box(page),
                 self._rack_box(page, viewer, ctx["rack"], placing),
                 self._preview_box(page, ctx["play"], ctx["result"], ctx["reason"]) if placing else None,
                 self._actions(page, view["exchange_allowed"], placing, ctx["play"], zoomed))
        more = page.drawer(
                 self._scores(page, view),
                 self._draw_box(page, view),
                 self._sheet(page, view),
                 self._bag_box(page, view, viewer),
                 self._tools(page, person and pending is None),
                 h("div", {"class": "sc-keys"},
                   h("p", {"id": "sc-board-help", "class": "muted sc-help", "text": t("scarabeo.help.keys")}),
                   self._legend(t)))
        page_node = h("section", {"class": "sc-page", "aria-labelledby": "sc-title"},
                      h("h1", {"id": "sc-title", "class": "visually-hidden", "text": t("game.scarabeo.name")}),
                      h("div", {"class": "game-layout"}, head, wrap, hand, more))
        window.requestAnimationFrame(self._raf(page))
        self._table_changed(page)
        return page_node

    def _raf(self, page: Any) -> Any:
        from pyscript.ffi import create_proxy  # type: ignore[import-not-found]

        def run(*_a: Any) -> None:
            proxy.destroy()
            if not page.closed:
                self._scroll_to_cursor(page)
                sheet = document.getElementById("sc-sheet-wrap")
                if sheet:  # the latest turn in view
                    sheet.scrollTop = sheet.scrollHeight

        proxy = create_proxy(run)
        return proxy

    def _zoomed(self, page: Any) -> bool:
        zoom = getattr(page, "sc_zoom", None)
        if zoom is None:
            zoom = int(window.innerWidth) < PHONE_WIDTH
            page.sc_zoom = zoom
        return bool(zoom)

    def _scroll_to_cursor(self, page: Any) -> None:
        wrap = document.getElementById("sc-board-wrap")
        cursor = getattr(page, "sc_cursor", None)
        if not wrap or cursor is None or "zoomed" not in str(wrap.className):
            return
        cell = document.querySelector(f"#sc-board [data-sq='{cursor}']")
        if not cell:
            return
        left = cell.offsetLeft - wrap.clientWidth / 2 + cell.offsetWidth / 2
        top = cell.offsetTop - wrap.clientHeight / 2 + cell.offsetHeight / 2
        wrap.scrollLeft = max(0, left)
        wrap.scrollTop = max(0, top)

    # --- pieces of the page ---------------------------------------------------------------------
    def _status(self, page: Any, view: dict[str, Any]) -> str:
        t = page.t
        if view["over"]:
            return t("play.over")
        seats = page.session.seats
        pending = view["pending"]
        if pending and pending["kind"] == "vote":
            return t("scarabeo.status.vote", name=pending["name"])
        text = t("play.turn", name=seats[view["to_move"]].name)
        if view["first_play"]:
            text += " — " + t("scarabeo.status.first")
        return text

    def _clock_box(self, page: Any, view: dict[str, Any]) -> Any:
        if not view["hourglass"] or view["over"]:
            return None
        return h("p", {"id": "sc-clock", "class": "sc-clock", "role": "timer", "aria-live": "off",
                       "text": self._clock_text(page)})

    def _clock_text(self, page: Any) -> str:
        t = page.t
        state = page.session.state
        if state.timer is None:
            return ""
        c = state.timer.to_json()
        rem = max(0, int(c["remaining"] + 0.999))
        text = t("scarabeo.clock", time=f"{rem // 60}:{rem % 60:02d}")
        if c["carry_in"]:
            text += " " + t("scarabeo.clock.carry", seconds=int(c["carry_in"]))
        if not c["running"]:
            text += " " + t("scarabeo.clock.paused")
        return text

    def _start_ticker(self, page: Any) -> None:
        """The hourglass display, and the time-out pass, every half second while the page is open."""
        if getattr(page, "sc_ticker", None) is not None or not page.session.state.hourglass:
            return
        from pyscript.ffi import create_proxy  # type: ignore[import-not-found]

        ticks = [0]

        def tick(*_a: Any) -> None:
            if page.closed:
                window.clearInterval(page.sc_ticker)
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
                if page.commit("-"):
                    page.show_message(page.t("scarabeo.timeout"))

        proxy = create_proxy(tick)
        page.sc_ticker = window.setInterval(proxy, 500)

    # --- the table: the hourglass's turn and the tiles laid, kept across a reload ----------------
    def _open_table(self, page: Any) -> None:
        """Once per game page: resume the hourglass's turn and the tiles laid that were saved for
        this very position (a missing or damaged table starts the turn afresh), and from now on keep
        the table with every write of the game and when the page is hidden or left."""
        session = page.session
        if getattr(page, "sc_table_for", None) is session:
            return
        page.sc_table_for = session
        if session.replay_only:
            return
        state = session.state
        saved = session.meta.get("table")
        if state.hourglass and state.timer is None and not state.is_over():
            state.attach_clock(_now, table_rules.saved_clock(state, saved))
        last = table_rules.saved_last(state, saved)
        if last is not None:
            page.sc_last = {"move": len(state.history()), **last}
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

    def _table_now(self, page: Any) -> dict[str, Any] | None:
        """The table as it should be saved now (None before it was opened, or for a shared replay)."""
        session = page.session
        if session is None or session.replay_only or getattr(page, "sc_table_for", None) is not session:
            return None
        state = session.state
        clock = state.timer.saved() if state.timer is not None else None
        sel = page.selection
        # tiles laid belong to the position they were laid on: not to the one a move just made
        mine = getattr(page, "sc_sel_move", None) == len(state.history()) and self._can_place(page)
        return table_rules.table(state, clock, sel.get("placed") if mine else None, sel.get("order") or [],
                                 (sel.get("swaps") or []) if mine else [], self._last(page))

    def _update_table(self, page: Any) -> None:
        """``Session.before_save``: every write of the game carries the table as it is."""
        table = self._table_now(page)
        if table is not None:
            page.session.meta["table"] = table

    def _save_table(self, page: Any, clock_too: bool = True) -> None:
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
            if not getattr(page, "sc_table_warned", False):
                page.sc_table_warned = True
                window.console.warn(f"Scarabeo: the table was not saved: {err}")

    def _table_changed(self, page: Any) -> None:
        """Tiles laid or taken back: save them a moment later (one write for a burst of keys)."""
        if getattr(page, "sc_table_timer", None) is not None or self._table_now(page) is None:
            return
        from pyscript.ffi import create_proxy  # type: ignore[import-not-found]

        def fire(*_a: Any) -> None:
            proxy.destroy()
            page.sc_table_timer = None
            if not page.closed:
                self._save_table(page, clock_too=False)

        proxy = create_proxy(fire)
        page.sc_table_timer = window.setTimeout(proxy, TABLE_SAVE_DELAY_MS)

    def unmount(self, page: Any) -> None:
        """Leaving the game page: the table as it is now."""
        self._save_table(page)

    # --- taking back: not a time-out pass, and the hourglass as it was --------------------------
    def _before_move(self, page: Any, timeout: bool = False) -> None:
        """A person is about to move: remember their hourglass turn as it is, so that taking the
        move back gives them the same time left (saved with the table, ``last``)."""
        state = page.session.state
        timer = state.timer
        page.sc_last = {"move": len(state.history()) + 1, "timeout": timeout,
                        "clock": timer.saved() if timer is not None and timer.active else None}

    def _last(self, page: Any) -> dict[str, Any] | None:
        """What the page knows about the last move (``_before_move``), if it is still the last."""
        last = getattr(page, "sc_last", None)
        return last if last is not None and last.get("move") == len(page.session.state.history()) else None

    def can_take_back(self, page: Any) -> bool:
        """``play.py`` hook: neither a time-out pass nor a dispute's decision is taken back."""
        return table_rules.may_take_back(page.session.state, self._last(page))

    def after_take_back(self, page: Any) -> None:
        """``play.py`` hook, after ``Session.take_back``: the hourglass as it was when the move was
        made (the time since belonged to the next player's turn, which is undone too)."""
        state = page.session.state
        last = getattr(page, "sc_last", None)
        page.sc_last = None
        clock = last.get("clock") if last is not None and last.get("move") == len(state.history()) + 1 else None
        if clock is not None and state.timer is not None:
            try:
                state.timer.restore(clock)
            except ValueError:  # damaged: the running turn goes on
                pass
        self._save_table(page)

    # --- disputes: the computer's challenge, the challenge window, the cover -------------------------
    def computer_interjects(self, page: Any) -> str | None:
        """``play.py`` hook, asked after every move: a computer seat whose lexicon refuses a word of
        the pending play challenges it at once, whether or not it is next (the first one in turn order
        after the player: ``scarabeo_table.computer_challenger``)."""
        session = page.session
        if session is None or session.replay_only or _ai is None:
            return None
        seat = table_rules.computer_challenger(session.state, session.seats)
        return None if seat is None else f"!challenge {seat + 1}"

    def computer_waits(self, page: Any) -> bool:
        """``play.py`` hook: the computer to move holds back while the people decide on a pending play.
        It decides at once when no person other than the player who made the play sits at the table."""
        session = page.session
        if session is None or session.replay_only or not session.computer_to_move():
            return False
        return table_rules.computer_waits(session.state, session.seats)

    def cover(self, page: Any) -> tuple[Any, bool]:
        """``play.py`` hook: what the pass-and-play cover shows besides "Pass the device to NAME".
        While a play is pending and people other than the next player may challenge it, the cover
        holds the decision — the play, its words and score, a challenge button for each person but
        its maker, Accept — and the next player may show their tiles only once it is taken; the
        hourglass lies on its side meanwhile. Otherwise the last announcement (a dispute's outcome,
        "Time is up")."""
        session = page.session
        state = session.state
        if not session.replay_only and table_rules.dispute_on_cover(state, session.seats):
            if state.timer is not None and state.timer.active:
                state.timer.pause()  # stood up again when the next player sees the board
            # the panel names the play: the announcement of it would only repeat it
            return h("div", {"class": "sc-cover"}, self._dispute_box(page, state.view(), on_cover=True)), False
        return (page.message_box() if page.message else None), True

    def _sync_clock(self, page: Any, waiting: bool) -> None:
        """The hourglass lies on its side while the table decides (a vote, the challenge window)."""
        state = page.session.state
        timer = state.timer
        if timer is None or not timer.active or state.is_over():
            return
        hold = waiting or (state.pending is not None and state.pending.kind == "vote")
        if hold:
            timer.pause()
        else:
            timer.resume()

    def _ghost_box(self, page: Any) -> Any:
        info = page.selection.get("ghost_info")
        return h("p", {"class": "sc-ghost-info", "id": "sc-ghost-info", "text": info or "", "hidden": not info})

    def _preview_box(self, page: Any, play: Any, result: Any, reason: str | None) -> Any:
        t = page.t
        box = h("div", {"class": "sc-preview", "id": "sc-preview", "aria-live": "polite"})
        if reason:
            box.className = "sc-preview refused"
            append(box, h("p", {"id": "sc-reason", "text": reason}))
            return box
        if result is None:
            append(box, h("p", {"class": "muted", "text": t("scarabeo.preview.none")}))
            return box
        bd = result.breakdown
        words = ", ".join(f"{w.word} {w.score}" for w in bd.words)
        extra = []
        if bd.first_play_doubled:
            extra.append(t("scarabeo.preview.doubled"))
        for b in bd.bonuses:
            reason = t(f"scarabeo.bonus.{b.code}")
            if b.reason.endswith("no scarab"):  # the engine's +10 for a main word without a scarab
                reason += ", " + t("scarabeo.bonus.noscarab")
            extra.append(t("scarabeo.preview.bonus", points=b.points, reason=reason))
        append(box, h("p", {"id": "sc-score", "class": "sc-score",
                            "text": t("scarabeo.preview", move=sc_move_text(play), words=words, score=bd.total)}))
        if extra:
            append(box, h("p", {"class": "muted", "text": "; ".join(extra)}))
        if page.session.state.check_mode != "dictionary":
            append(box, h("p", {"class": "muted", "text": t(f"scarabeo.preview.{page.session.state.check_mode}")}))
        return box

    def _rack_box(self, page: Any, viewer: int | None, rack: list[str], placing: bool) -> Any:
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

    def _actions(self, page: Any, exchange_allowed: bool, placing: bool, play: Any, zoomed: bool) -> Any:
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

    def _dispute_box(self, page: Any, view: dict[str, Any], waiting: bool = False, on_cover: bool = False) -> Any:
        t = page.t
        sc = page.view_scope
        seats = page.session.seats
        p = view["pending"]
        n = view["players"]
        if p["kind"] == "challenge":
            # the play and its words are public; no rack is named (the panel is shown to the table).
            # In vote mode the same panel contests the play: a word chosen goes to the table's vote.
            contest = table_rules.contest_words(page.session.state)
            mode = "contest" if view["check_mode"] == "vote" else "challenge"
            box = h("section", {"class": "panel sc-dispute", "id": "sc-challenge", "aria-labelledby": "sc-dispute-title",
                                "data-mode": mode},
                    h("h2", {"id": "sc-dispute-title", "text": t(f"scarabeo.{mode}.title")}),
                    h("p", {"text": t("scarabeo.challenge.body", name=p["name"], move=p["move"],
                                      words=", ".join(p["words"]), score=p["score"])}))
            if waiting:
                append(box, h("p", {"class": "sc-waiting", "id": "sc-challenge-waiting",
                                    "text": t("scarabeo.challenge.waiting", name=seats[view["to_move"]].name)}))
            if len(contest) > 1:
                choice = h("fieldset", {"class": "sc-ballot", "id": "sc-contest-words"},
                           h("legend", {"text": t("scarabeo.contest.word")}))
                for i, word in enumerate(contest):
                    radio = h("input", {"type": "radio", "name": "sc-contest-word", "id": f"sc-contest-{word}",
                                        "value": word, "checked": i == 0})
                    append(choice, h("label", {"class": "choice", "for": f"sc-contest-{word}"}, radio, word))
                append(box, choice)

            def challenge_text(seat: int) -> str:
                if mode == "challenge":
                    return f"!challenge {seat + 1}"
                word = contest[0] if contest else ""
                for w in contest[1:]:
                    node = document.getElementById(f"sc-contest-{w}")
                    if node and node.checked:
                        word = w
                return f"!challenge {seat + 1} {word}".rstrip()

            row = h("div", {"class": "row"})
            for s in table_rules.challengers(page.session.state, seats):
                append(row, h("button", {"type": "button", "id": f"sc-challenge-{s + 1}", "class": "danger",
                                         "text": t(f"scarabeo.{mode}.by", name=seats[s].name),
                                         "on_click": lambda _e, s=s: self._commit(page, challenge_text(s))},
                              scope=sc))
            append(row, h("button", {"type": "button", "id": "sc-accept", "text": t("scarabeo.challenge.accept"),
                                     "data-autofocus": on_cover,  # Enter on the cover does not challenge
                                     "on_click": lambda _e: self._commit(page, "!accept")}, scope=sc))
            help_key = (f"scarabeo.{mode}.help.cover" if on_cover else f"scarabeo.{mode}.help.waiting"
                        if waiting else f"scarabeo.{mode}.help")
            append(box, row, h("p", {"class": "muted", "text": t(help_key, name=seats[view["to_move"]].name)}))
            return box
        # a vote: one Y/N per seat (with four players the player concerned abstains)
        box = h("section", {"class": "panel sc-dispute", "id": "sc-vote", "aria-labelledby": "sc-dispute-title"},
                h("h2", {"id": "sc-dispute-title", "text": t("scarabeo.vote.title")}),
                h("p", {"text": t("scarabeo.vote.body", name=p["name"], move=p["move"],
                                  words=", ".join(p["unknown_words"] or p["words"]))
                        if p.get("contested_by") is None else
                        t("scarabeo.vote.body.contested", name=p["name"], move=p["move"],
                          challenger=seats[p["contested_by"]].name, words=", ".join(p["unknown_words"]))}))
        computer_vote = table_rules.computer_vote(page.session.state)
        fields: list[tuple[int, Any]] = []
        for s in range(n):
            if n == 4 and s == p["player"]:
                append(box, h("p", {"class": "muted", "text": t("scarabeo.vote.abstains", name=seats[s].name)}))
                continue
            computer = seats[s].computer
            yes = h("input", {"type": "radio", "name": f"sc-vote-{s}", "id": f"sc-vote-{s}-Y", "value": "Y",
                              "checked": computer and computer_vote == "Y", "disabled": computer})
            no = h("input", {"type": "radio", "name": f"sc-vote-{s}", "id": f"sc-vote-{s}-N", "value": "N",
                             "checked": computer and computer_vote == "N", "disabled": computer})
            fields.append((s, yes))
            append(box, h("fieldset", {"class": "sc-ballot"},
                          h("legend", {"text": seats[s].name + (" — " + t("scarabeo.vote.computer") if computer else "")}),
                          h("label", {"class": "choice", "for": f"sc-vote-{s}-Y"}, yes, t("scarabeo.vote.yes")),
                          h("label", {"class": "choice", "for": f"sc-vote-{s}-N"}, no, t("scarabeo.vote.no"))))

        def submit(_e: Any) -> None:
            votes = ["-"] * n
            for s, yes in fields:
                no = document.getElementById(f"sc-vote-{s}-N")
                if yes.checked:
                    votes[s] = "Y"
                elif no and no.checked:
                    votes[s] = "N"
                else:
                    page.show_message(t("scarabeo.vote.missing", name=seats[s].name), error=True)
                    return
            self._commit(page, "!vote " + "".join(votes))

        append(box, h("button", {"type": "button", "class": "primary", "id": "sc-vote-go",
                                 "text": t("scarabeo.vote.submit"), "on_click": submit}, scope=sc))
        return box

    def _legend(self, t: Any) -> Any:
        out = h("ul", {"class": "sc-legend", "aria-label": t("scarabeo.legend")})
        for prem, label in (("L", "2L"), ("T", "3L"), ("D", "2P"), ("W", "3P"), ("*", "\u2605")):
            key = {"L": "2L", "T": "3L", "D": "2P", "W": "3P", "*": "centre"}[prem]
            append(out, h("li", {}, h("span", {"class": f"sc-sq p-{prem} swatch", "aria-hidden": "true"},
                                      h("span", {"class": "pl", "text": label})),
                          t(f"scarabeo.premium.{key}")))
        return out

    def _scores(self, page: Any, view: dict[str, Any]) -> Any:
        t = page.t
        seats = page.session.seats
        table = h("table", {"class": "scores", "id": "sc-scores"})
        for s, seat in enumerate(seats):
            current = not view["over"] and s == view["to_move"]
            who = seat.name + (" \u2014 " + t("scarabeo.computer") if seat.computer else "")
            append(table, h("tr", {"class": "to-move" if current else "", "aria-current": "true" if current else None},
                            h("th", {"scope": "row", "text": ("\u25b6 " if current else "") + who}),
                            h("td", {"class": "num", "text": str(view["scores"][s])})))
        return h("section", {"class": "panel", "aria-labelledby": "sc-scores-title"},
                 h("h2", {"id": "sc-scores-title", "text": t("play.score")}), table)

    def _last_summary(self, page: Any) -> str | None:
        """The last line of the score sheet, for the working set: who, the move, the points."""
        rows = table_rules.sheet(page.session.state)
        if not rows:
            return None
        r = rows[-1]
        score = r["score"]
        points = "" if score is None else f" {score:+d}" if score else " 0"
        return f"{page.session.seats[r['seat']].name}: {r['move']}{points}"

    def _draw_box(self, page: Any, view: dict[str, Any]) -> Any:
        t = page.t
        seats = page.session.seats
        rounds = view["start_draw"]
        if not rounds:
            return None
        lines = []
        for i, rnd in enumerate(rounds):
            parts = []
            for d in rnd:
                tiles = " ".join("\u2605" if x == SCARAB else x for x in d["tiles"])
                parts.append(f"{seats[d['seat']].name}: {tiles}")
            lines.append(h("li", {"text": t("scarabeo.draw.round", n=i + 1, draws="; ".join(parts))}))
        box = h("details", {"class": "panel sc-draw", "id": "sc-draw", "open": not view["history"]},
                h("summary", {"text": t("scarabeo.draw.title", name=seats[view["starter"]].name)}),
                h("ol", {}, *lines), h("p", {"class": "muted", "text": t("scarabeo.draw.rule")}))
        return box

    def _sheet(self, page: Any, view: dict[str, Any]) -> Any:
        t = page.t
        seats = page.session.seats
        table = h("table", {"class": "sc-sheet", "id": "sc-sheet"},
                  h("thead", {}, h("tr", {}, h("th", {"text": "#"}), h("th", {"text": t("scarabeo.sheet.player")}),
                                  h("th", {"text": t("scarabeo.sheet.move")}), h("th", {"text": "+"}),
                                  h("th", {"text": t("scarabeo.sheet.total")}))))
        body = h("tbody", {})
        rows = getattr(page, "sc_rows", None)
        if rows is None or getattr(page, "sc_rows_for", None) is not page.session:
            rows = page.sc_rows = {}
            page.sc_rows_for = page.session
        # a challenge under the challenger's name, an accept as a note on the play (scarabeo_table.sheet)
        for n, r in enumerate(table_rules.sheet(page.session.state)):
            note = r["note"]
            if note in ("upheld", "failed"):
                note_text = t(f"scarabeo.sheet.{note}", name=seats[r["player"]].name, score=r["lost"])
            elif note == "contested":
                note_text = t("scarabeo.sheet.contested", words=", ".join(r["words"]))
            else:
                note_text = t(f"scarabeo.sheet.{note}") if note else ""
            score = r["score"]
            key = (n + 1, seats[r["seat"]].name, r["move"], note_text,
                   "" if score is None else f"{score:+d}" if score else "0",
                   "" if r["total"] is None else str(r["total"]))
            row = rows.get(key)  # rows already drawn are kept: a long game's sheet is not rebuilt each move
            if row is None:
                move_cell = h("td", {"class": "mono"}, key[2],
                              h("span", {"class": "sc-sheet-note", "text": note_text}) if note_text else None)
                row = rows[key] = h("tr", {"class": "sc-dispute-row" if score is None else ""},
                                    h("td", {"text": key[0]}), h("td", {"text": key[1]}), move_cell,
                                    h("td", {"class": "num", "text": key[4]}), h("td", {"class": "num", "text": key[5]}))
            body.appendChild(row)
        if not view["history"]:
            append(body, h("tr", {}, h("td", {"colspan": "5", "class": "muted", "text": t("scarabeo.sheet.empty")})))
        append(table, body)
        # focusable: it scrolls, and a keyboard must be able to scroll it too
        wrap = h("div", {"class": "sc-sheet-wrap", "id": "sc-sheet-wrap", "tabindex": "0", "role": "group",
                         "aria-label": t("play.log")}, table)
        return h("section", {"class": "panel", "aria-labelledby": "sc-sheet-title"},
                 h("h2", {"id": "sc-sheet-title", "text": t("play.log")}), wrap)

    def _bag_box(self, page: Any, view: dict[str, Any], viewer: int | None) -> Any:
        """The bag and the tiles not seen by the one whose rack is shown: the player to move (the
        engine's ``unseen``), the only person while the computer is to move, or nobody (racks hidden:
        the bag and every rack, so that no rack can be worked out from the board and this list)."""
        t = page.t
        state = page.session.state
        if viewer is not None and viewer == view["to_move"] and not view["over"]:
            unseen, help_text = view["unseen"], "scarabeo.unseen.help"
        else:
            unseen = {}
            for s, rack in enumerate(state.racks):
                if s != viewer:
                    for tile in rack:
                        unseen[tile] = unseen.get(tile, 0) + 1
            for tile in state.bag:
                unseen[tile] = unseen.get(tile, 0) + 1
            help_text = "scarabeo.unseen.help.all" if viewer is None else "scarabeo.unseen.help.of"
        items = h("ul", {"class": "sc-unseen", "aria-label": t("scarabeo.unseen")})
        for letter in list(LETTERS) + [SCARAB]:
            n = unseen.get(letter, 0)
            if n:
                shown = "\u2605" if letter == SCARAB else letter
                label = t("scarabeo.tile.scarab") if letter == SCARAB else letter
                append(items, h("li", {"aria-label": f"{label} \u00d7{n}", "text": f"{shown}\u00d7{n}"}))
        total = sum(unseen.values())
        return h("section", {"class": "panel", "aria-labelledby": "sc-bag-title"},
                 h("h2", {"id": "sc-bag-title", "text": t("scarabeo.bag", n=view["bag_count"])}),
                 h("p", {"class": "muted", "id": "sc-unseen-help",
                         "text": t(help_text, n=total, name=page.session.seats[viewer].name if viewer is not None else "")}),
                 items)

    def _tools(self, page: Any, person: bool) -> Any:
        from web import wordcheck

        t = page.t
        sc = page.view_scope
        extra = [
            h("button", {"type": "button", "id": "sc-wordcheck", "text": t("wordcheck.open"),
                         "on_click": lambda _e: asyncio.ensure_future(wordcheck.open_panel(page.app))}, scope=sc),
            h("button", {"type": "button", "id": "sc-export-text", "text": t("scarabeo.export.text"),
                         "on_click": lambda _e: self._export_text(page)}, scope=sc),
        ]
        if _ai is not None:
            extra.insert(0, h("button", {"type": "button", "id": "sc-hint", "text": t("play.hint"),
                                         "disabled": not person or bool(page.selection.get("hinting")),
                                         "on_click": lambda _e: asyncio.ensure_future(self._hint(page))}, scope=sc))
        hints = page.selection.get("hints")
        hint_list = None
        if hints and person:
            hint_list = h("ol", {"class": "sc-hints", "id": "sc-hints", "aria-label": t("scarabeo.hints")})
            for k, hint in enumerate(hints):
                label = t("scarabeo.hint.item", move=hint["move"], score=hint["score"], words=", ".join(hint["words"]))
                append(hint_list, h("li", {}, h("button", {"type": "button", "class": "sc-hint-item", "id": f"sc-hint-{k}",
                                                           "text": label,
                                                           "on_click": lambda _e, hint=hint: self._use_hint(page, hint)},
                                                scope=sc)))
        return h("div", {"class": "sc-tools"}, hint_list, page.toolbar(*extra))

    def _export_text(self, page: Any) -> None:
        state = page.session.state
        download(f"scarabeo-{page.session.save.id}.txt", sc_record.to_text(state), "text/plain")

    def _end_box(self, page: Any, view: dict[str, Any]) -> Any:
        t = page.t
        seats = page.session.seats
        outcome = view["outcome"] or {}
        detail = outcome.get("detail") or {}
        scores = list(outcome.get("scores") or view["scores"])
        winners = outcome.get("winners") or []
        names = ", ".join(seats[s].name for s in winners)
        headline = t("play.winner", name=names) if len(winners) == 1 else t("scarabeo.end.tie", names=names)
        reason = t(f"scarabeo.end.{outcome.get('reason', 'passes')}",
                   name=seats[detail["closer"]].name if detail.get("closer") is not None else "")
        adj = detail.get("adjustments") or [0] * len(seats)
        racks = detail.get("final_racks") or [""] * len(seats)
        table = h("table", {"class": "scores sc-standings", "id": "sc-standings"},
                  h("thead", {}, h("tr", {}, h("th", {"text": t("scarabeo.end.player")}),
                                  h("th", {"text": t("scarabeo.end.rack")}),
                                  h("th", {"text": t("scarabeo.end.adjust")}),
                                  h("th", {"text": t("play.score")}))))
        settlement = detail.get("settlement") or {}
        order = settlement.get("order") or sorted(range(len(seats)), key=lambda s: -scores[s])
        for s in order:
            rack = racks[s] if s < len(racks) else ""
            append(table, h("tr", {}, h("th", {"scope": "row", "text": seats[s].name}),
                            h("td", {"class": "mono", "text": rack.replace(SCARAB, "\u2605") or "\u2014"}),
                            h("td", {"class": "num", "text": f"{adj[s]:+d}"}),
                            h("td", {"class": "num", "text": str(scores[s])})))
        pay = h("ul", {"class": "sc-settlement", "id": "sc-settlement"})
        for p in settlement.get("payments") or []:
            if p["amount"]:
                append(pay, h("li", {"text": t("scarabeo.end.pays", loser=seats[p["loser"]].name,
                                                winner=seats[p["winner"]].name, amount=p["amount"])}))
        return h("section", {"class": "panel sc-end", "role": "status", "aria-labelledby": "sc-end-title"},
                 h("h2", {"id": "sc-end-title", "text": t("play.over")}),
                 h("p", {"class": "sc-headline", "id": "sc-result", "text": headline}),
                 h("p", {"text": reason}), table,
                 h("h3", {"text": t("scarabeo.end.settlement")}), pay,
                 h("a", {"class": "button primary", "id": "sc-again", "href": router.href("scarabeo", "new"),
                         "text": t("play.again")}))

    # ------------------------------------------------------------------ input: the board
    def _on_board_click(self, page: Any, event: Any) -> None:
        cell = event.target.closest("[data-sq]")
        if not cell:
            return
        self._choose_square(page, int(cell.getAttribute("data-sq")))

    def _choose_square(self, page: Any, sq: int) -> None:
        if not self._can_place(page):
            page.sc_cursor = sq
            self._focus(page, sq)
            return
        sel = page.selection
        placed = sel.setdefault("placed", {})
        board, _rack, _err = self._projected(page)
        if sel.get("tile") and not board[sq] and sq not in placed:
            tile = sel.pop("tile")
            page.sc_cursor = sq
            self._place(page, sq, tile)
            return
        if sq in placed:
            self._unplace(page, sq)
            return
        state = page.session.state
        if state.board[sq].islower() and (square_name(sq) in self._swappable(page) or sq in (sel.get("swaps") or [])):
            self._toggle_swap(page, sq)
            return
        if sq == getattr(page, "sc_cursor", None) and not board[sq]:
            page.sc_across = not getattr(page, "sc_across", True)
        page.sc_cursor = sq
        self.refresh(page)
        self._focus(page, sq)

    def _swappable(self, page: Any) -> list[str]:
        state = page.session.state
        rack = state.racks[state.to_move()]
        return [square_name(sq) for sq in range(SQUARES) if state.board[sq].islower() and state.board[sq].upper() in rack]

    def _toggle_swap(self, page: Any, sq: int) -> None:
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
        page.sc_cursor = sq
        self.refresh(page)
        self._focus(page, sq)

    def _can_place(self, page: Any) -> bool:
        s = page.session
        if s is None or page.thinking or s.state.is_over() or s.computer_to_move() or s.replay_only:
            return False
        return s.state.pending is None or s.state.pending.kind == "challenge"

    def _place(self, page: Any, sq: int, tile: str, letter: str | None = None) -> None:
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
            cand = _next_square(nxt, getattr(page, "sc_across", True))
            if cand is None:
                break
            nxt = cand
            board, _r, _e = self._projected(page)
            if not board[nxt] and nxt not in sel["placed"]:
                break
        page.sc_cursor = nxt if nxt is not None else sq
        page.message = None
        self.refresh(page)
        self._focus(page, page.sc_cursor)
        score = document.getElementById("sc-score") or document.getElementById("sc-reason")
        page.say(page.t("scarabeo.say.placed", tile=ch.upper(), square=square_name(sq))
                 + (". " + str(score.textContent) if score else ""))

    async def _place_scarab(self, page: Any, sq: int) -> None:
        letter = await self._ask_letter(page)
        if letter and not page.closed:
            self._place(page, sq, SCARAB, letter)

    async def _ask_letter(self, page: Any) -> str | None:
        t = page.t
        scope = Scope()
        buttons = [(ch, ch, "sc-letter") for ch in LETTERS] + [("", t("dialog.cancel"), "")]
        try:
            choice = await modal(t("scarabeo.scarab.title"), h("p", {"text": t("scarabeo.scarab.body")}),
                                 buttons, scope)
        finally:
            scope.close()
        return choice or None

    def _unplace(self, page: Any, sq: int) -> None:
        sel = page.selection
        placed = sel.get("placed", {})
        if sq in placed:
            del placed[sq]
            order = sel.get("order", [])
            if sq in order:
                order.remove(sq)
            page.sc_cursor = sq
            self.refresh(page)
            self._focus(page, sq)

    def _on_board_key(self, page: Any, event: Any) -> None:
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
            page.sc_cursor = r * SIZE + c
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

    def _type_letter(self, page: Any, sq: int, letter: str) -> None:
        sel = page.selection
        placed = sel.setdefault("placed", {})
        across = getattr(page, "sc_across", True)
        board, rack, _err = self._projected(page)
        target: int | None = sq
        while target is not None and (board[target] or target in placed):
            target = _next_square(target, across)
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

    def _move_cursor(self, page: Any, sq: int) -> None:
        page.sc_cursor = sq
        self.refresh(page)
        self._focus(page, sq)
        self._scroll_to_cursor(page)

    def _focus(self, page: Any, sq: int) -> None:
        """Move the roving focus of the grid to ``sq``."""
        page.sc_cursor = sq
        grid = getattr(page, "sc_grid", None)
        if grid is None:
            return
        for node in grid.querySelectorAll("[tabindex='0']"):
            node.setAttribute("tabindex", "-1")
        node = page.sc_cells[sq]
        node.setAttribute("tabindex", "0")
        node.focus()

    # ------------------------------------------------------------------ input: the rack
    def _on_rack_click(self, page: Any, event: Any) -> None:
        """Keyboard activation of a rack tile (Enter/Space); pointer taps are handled on pointerup,
        where a tap and a drag can be told apart."""
        if event.detail and int(event.detail) > 0:
            return
        node = event.target.closest("[data-tile]")
        if node:
            self._pick_tile(page, str(node.getAttribute("data-tile")), str(node.id))

    def _pick_tile(self, page: Any, tile: str, node_id: str) -> None:
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

    def _drag_start(self, page: Any, event: Any) -> None:
        node = event.target.closest("[data-tile]")
        if not node or not self._can_place(page) or (event.button and int(event.button) != 0):
            return
        page.sc_drag = {"tile": str(node.getAttribute("data-tile")), "x": float(event.clientX),
                        "y": float(event.clientY), "ghost": None, "node": node}
        try:
            node.setPointerCapture(event.pointerId)
        except Exception:
            pass

    def _drag_move(self, page: Any, event: Any) -> None:
        drag = getattr(page, "sc_drag", None)
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

    def _drag_end(self, page: Any, event: Any) -> None:
        drag = getattr(page, "sc_drag", None)
        page.sc_drag = None
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
        page.sc_cursor = sq
        self._place(page, sq, drag["tile"])

    def _drag_cancel(self, page: Any) -> None:
        drag = getattr(page, "sc_drag", None)
        page.sc_drag = None
        if drag and drag["ghost"] is not None:
            drag["ghost"].remove()
            drag["node"].classList.remove("dragging")

    # ------------------------------------------------------------------ actions
    def _recall(self, page: Any) -> None:
        page.selection = {}
        page.message = None
        self.refresh(page)

    def _shuffle(self, page: Any) -> None:
        order = list(getattr(page, "sc_order", None) or [])
        seed = int(window.crypto.getRandomValues(window.Uint32Array.new(1))[0])
        for i in range(len(order) - 1, 0, -1):  # Fisher–Yates on the display order only
            seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
            j = seed % (i + 1)
            order[i], order[j] = order[j], order[i]
        page.sc_order = order
        self.refresh(page)

    def _toggle_dir(self, page: Any) -> None:
        page.sc_across = not getattr(page, "sc_across", True)
        self.refresh(page)
        self._focus(page, page.sc_cursor)
        page.say(page.t("scarabeo.dir.across" if page.sc_across else "scarabeo.dir.down"))

    def _toggle_zoom(self, page: Any) -> None:
        page.sc_zoom = not self._zoomed(page)
        page.sc_zoom_chosen = True  # the player's choice holds; until then the width decides
        page.redraw()

    def on_resize(self, page: Any) -> None:
        """``play.py`` hook: a rotated tablet or a resized window zooms the board the way a first
        visit at that width would, unless the player chose."""
        if getattr(page, "sc_zoom_chosen", False):
            return
        zoom = int(window.innerWidth) < PHONE_WIDTH
        if zoom != getattr(page, "sc_zoom", None):
            page.sc_zoom = zoom
            page.redraw()

    def _play(self, page: Any) -> None:
        play, _result, reason = self._tentative(page)
        if play is None:
            page.show_message(reason or page.t("scarabeo.preview.none"), error=True)
            return
        self._commit(page, sc_move_text(play))

    def _pass(self, page: Any) -> None:
        swaps = tuple(sorted(page.selection.get("swaps") or []))
        self._commit(page, sc_move_text(Pass(swaps)))

    async def _exchange(self, page: Any) -> None:
        t = page.t
        state = page.session.state
        rack = sort_rack(state.racks[state.to_move()])
        scope = Scope()
        try:
            choice = await modal(t("scarabeo.exchange"), h("p", {"text": t("scarabeo.exchange.confirm", rack=rack)}),
                                 [("", t("dialog.cancel"), ""), ("yes", t("scarabeo.exchange"), "primary")], scope)
        finally:
            scope.close()
        if choice == "yes" and not page.closed:
            self._commit(page, sc_move_text(Exchange(rack)))

    def _commit(self, page: Any, text: str) -> None:
        started = time.perf_counter()
        try:
            page.session.state.parse_move(text)
        except NotationError as err:
            page.show_message(str(err), error=True)
            return
        self._before_move(page)
        if not page.commit(text):
            # commit showed the engine's message; say it in the player's words when the code is known
            try:
                page.session.state.check(page.session.state.parse_move(text))
            except IllegalMove as err:
                page.show_message(self._reason(page, err), error=True)
            return
        results = page.session.state.results()
        if results and results[-1].note == "time-out":
            # The sand ran out between two ticks: the engine passed the turn instead of the play.
            page.sc_last = {**(page.sc_last or {}), "timeout": True}
            self._save_table(page)  # the save written with the move still said it could be taken back
            page.show_message(page.t("scarabeo.timeout"))
        page.sc_commit_ms = round((time.perf_counter() - started) * 1000, 1)
        window.document.body.setAttribute("data-sc-commit-ms", str(page.sc_commit_ms))

    # ------------------------------------------------------------------ computer and hints
    def computer(self, page: Any, level: int) -> Generator[None, None, str]:
        """The engine's ``ai.think`` in slices (it also decides challenges and votes), then its
        tiles appear on the board one by one with the score."""
        state = page.session.state
        assert _ai is not None
        steps = _ai.think(state, str(level))
        worst = 0.0
        while True:
            started = time.perf_counter()
            try:
                next(steps)
            except StopIteration as stop:
                move = stop.value
                break
            worst = max(worst, time.perf_counter() - started)
            yield
        # the longest uninterrupted piece of the engine's work, for the responsiveness test
        document.body.setAttribute("data-sc-step-ms", f"{worst * 1000:.1f}")
        text = state.move_text(move)
        yield from self._show_computer_tiles(page, text)
        return text

    def _show_computer_tiles(self, page: Any, text: str) -> Generator[None, None, None]:
        state = page.session.state
        try:
            move = state.parse_move(text)
            if not isinstance(move, Play):
                return
            board = state.board[:]
            rack = list(state.racks[state.to_move()])
            apply_swaps(board, rack, list(move.swaps))
            tiles = resolve_play(board, move)
            score = state.preview(move).score
        except (IllegalMove, NotationError):
            return
        name = page.session.seats[state.to_move()].name
        for k in range(1, len(tiles) + 1):
            page.selection = {"ghost": tiles[:k], "ghost_info": page.t("scarabeo.computer.plays", name=name,
                                                                       move=text, score=score)}
            page.sc_cursor = tiles[k - 1][0]  # a zoomed board follows the tiles as they appear
            self.refresh(page)
            self._scroll_to_cursor(page)
            until = time.perf_counter() + COMPUTER_TILE_SECONDS
            while time.perf_counter() < until:
                yield
        page.selection = {}

    async def _hint(self, page: Any) -> None:
        """The best plays by score (the engine's ranking, run in slices); each can be laid on the board."""
        if _ai is None or page.selection.get("hinting") or not self._can_place(page):
            return
        state = page.session.state
        moves_before = len(state.history())
        page.selection = {"hinting": True}
        page.show_message(page.t("scarabeo.hint.thinking"))
        done, found = await run_in_slices(_ai.think_hints(state, 5, state.word_list),
                                          lambda: not page.closed and len(state.history()) == moves_before)
        if not done:
            return
        hints: list[dict[str, Any]] = list(found)
        page.selection = {"hints": hints}
        page.message = (page.t("scarabeo.hint.done" if hints else "scarabeo.hint.none"), False)
        page.redraw()
        page.say(page.message[0])

    def _use_hint(self, page: Any, hint: dict[str, Any]) -> None:
        """Lay a hinted play on the board as a tentative play (the player still presses Play)."""
        placed = {parse_square(sq): ch for sq, ch in hint["placements"]}
        swaps = [parse_square(sq) for sq in hint["swaps"]]
        page.selection = {"placed": placed, "order": list(placed), "swaps": swaps, "hints": page.selection.get("hints")}
        page.message = None
        page.sc_cursor = min(placed) if placed else page.sc_cursor
        page.redraw()

    def announce(self, page: Any, move_text: str, result: Any) -> str:
        t = page.t
        state = page.session.state
        seats = page.session.seats
        if result is None:
            return move_text
        name = seats[result.player].name
        move = result.move
        kind = type(move).__name__
        if kind == "Play":
            text = t("scarabeo.say.play", name=name, move=move_text, score=result.score, total=result.total)
            if result.pending:
                text += " " + t("scarabeo.say.pending")
        elif kind == "Pass":
            text = t("scarabeo.say.pass", name=name)
        elif kind == "Exchange":
            text = t("scarabeo.say.exchange", name=name)
        elif kind == "Challenge" and state.check_mode == "vote":
            text = t("scarabeo.say.contested", name=name, challenger=seats[move.seat].name,
                     words=", ".join(state.pending.unknown if state.pending is not None else move.words))
        elif kind == "Challenge":
            text = t("scarabeo.say.upheld" if result.score < 0 else "scarabeo.say.failed", name=name,
                     score=-result.score, challenger=seats[move.seat].name)
        elif kind == "Vote":
            text = t("scarabeo.say.rejected" if result.score < 0 else "scarabeo.say.accepted", name=name)
        else:
            text = t("scarabeo.say.stands", name=name)
        if state.is_over():
            text += " " + t("play.over")
        page.message = (text, False)
        return text

    # ------------------------------------------------------------------ resume snapshot
    def snapshot(self, page: Any) -> dict[str, Any]:
        """The board and the rack as ``render`` would draw them now, as plain data for boot.js
        (web/snapshot.py decides whose rack may be kept; this draws the viewer's, as render does)."""
        from web.snapshot import el

        t = page.t
        state = page.session.state
        view = state.view()
        last: set[int] = set()
        results = state.results()
        if results and results[-1].breakdown is not None and state.board[results[-1].breakdown.words[0].start]:
            for w in results[-1].breakdown.words:
                last.update(x.square for x in w.letters if x.new)
        ctx = {"placing": False, "board": state.board, "placed": {}, "ghost": {}, "last": last, "formed": set(),
               "swappable": set(), "swaps": set(), "cursor": -1, "across": True}
        rows = [el("div", "sc-row sc-head", None, el("span"), *[el("span", None, ch) for ch in COLUMNS])]
        for r in range(SIZE):
            cells = []
            for c in range(SIZE):
                cls, _label, big, small = self._cell_spec(page, ctx, r * SIZE + c)
                if big:
                    cells.append(el("div", cls, None, el("span", "l", big),
                                    *([el("span", None, " "), el("span", "v", small)] if small else [])))
                else:
                    cells.append(el("div", cls, None, el("span", "pl", small) if small else None))
            rows.append(el("div", "sc-row", None, el("span", "sc-rownum", r + 1), *cells))
        board = el("div", "sc-board-wrap game-board", None,
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


UI = ScarabeoUI()
