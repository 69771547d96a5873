"""The page of Scarab — the Game of Thot: the board, the players' collections, the log, hints.

Everything drawn comes from the engine: ``state.view()`` for the board and scores,
``state.legal_moves()`` for the marked squares, ``state.drop_squares()`` for where a scarab may go
back after an ankh, ``state.move_text()`` to write the move that ``page.commit`` sends to the engine.
A square that is not marked can still be chosen: the engine then says why the move is refused.

Choosing a move: a marked square ends the move there; in the turn-off variant a marked scarab the
priest may turn on is chosen first, then the destination along the new line (choosing it again
stops there). Landing on an ankh asks for one of the mover's scarabs and then an empty square, or
no drop at all. The board is an ARIA grid with a roving focus: arrow keys move, Enter or Space
chooses, Escape cancels a half-made move.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any, Callable, Generator

from pyscript import document  # type: ignore[import-not-found]

from game.thot.board import ANKH, MARKED, VALUE
from game.thot.moves import ThotMove
from game.thot.notation import scarab_text
from game.thot.search import BROWSER_TIME_BUDGET, LEVELS, Search, hint_of, hint_search
from game.thot.state import ThotState
from web import router
from web.dom import append, h

#: Milliseconds of search between two yields to the page.
STEP_MS = 4.0
#: Seconds kept from the computer's time budget for the page's own work between slices.
PAGE_MARGIN = 0.1


def _cell_text(value: Any) -> str:
    """A scarab's value as printed on the piece: always signed, with a true minus sign."""
    return f"+{value}" if value > 0 else f"\u2212{-value}"


class ThotUI:
    GAME = "thot"
    MIN_PLAYERS = 2
    MAX_PLAYERS = 4
    LEVELS = tuple(sorted(LEVELS))
    PRIVATE = False  # the rule forbids hiding the collections

    # ------------------------------------------------------------------ new game
    def options_form(self, page: Any) -> tuple[Any, Callable[[int], dict[str, Any]]]:
        t = page.t
        boxes: dict[str, Any] = {}
        box = h("fieldset", {"class": "thot-options"}, h("legend", {"text": t("play.options")}))
        for key in ("short", "turnoff", "teams"):
            field = h("input", {"type": "checkbox", "id": f"thot-{key}", "name": key})
            boxes[key] = field
            append(box, h("label", {"class": "choice", "for": f"thot-{key}"}, field, t(f"thot.option.{key}")))
            append(box, h("p", {"class": "muted thot-help", "text": t(f"thot.option.{key}.help")}))

        def read(players: int) -> dict[str, Any]:
            options = {"players": players, **{k: bool(f.checked) for k, f in boxes.items()}}
            if options["teams"] and players != 4:
                raise ValueError(t("thot.option.teams.needs4"))
            return options

        return box, read

    # ------------------------------------------------------------------ drawing
    def render(self, page: Any) -> Any:
        t = page.t
        session = page.session
        state: ThotState = session.state
        view = state.view()
        sel = page.selection
        size = view["size"]
        name = state.geo.name
        over = view["over"]
        person = not over and not page.thinking and not session.computer_to_move()
        marks = self._marks(state, sel) if person else {}
        hint_squares = self._hint_squares(state, sel.get("hint_move"))

        cursor = getattr(page, "thot_cursor", None)
        if cursor is None or cursor >= size * size:
            cursor = state.priest
            page.thot_cursor = cursor

        priest = state.priest
        axis = view["axis"]
        on_line = set()
        prow, pcol = divmod(priest, size)
        for i in range(size * size):
            r, c = divmod(i, size)
            if i != priest and ((r == prow and axis != "column") or (c == pcol and axis != "row")):
                on_line.add(i)

        grid = h("div", {"role": "grid", "id": "thot-board", "class": f"thot-board size-{size}",
                         "aria-label": t("thot.board"), "aria-describedby": "thot-status",
                         "style": f"--n: {size}",
                         "on_click": lambda e: self._on_click(page, e),
                         "on_keydown": lambda e: self._on_key(page, e)}, scope=page.view_scope)
        letters = "ABCDEFGHIJ"[:size]
        # The letters and numbers of the line the priest must move along are highlighted too.
        col_on = person and axis != "row"
        row_on = person and axis != "column"
        append(grid, h("div", {"class": "thot-row thot-head", "aria-hidden": "true"},
                       h("span", {"class": "thot-corner"}),
                       *[h("span", {"text": ch, "class": "on" if col_on and i == pcol else None})
                         for i, ch in enumerate(letters)]))
        marked = set(view["marked"])
        last_dest = self._last_squares(state)
        path = self._last_path(state)
        slide = self._slide(page, state, path)
        for r in range(size):
            row = h("div", {"role": "row", "class": "thot-row"},
                    h("span", {"class": "thot-rownum on" if row_on and r == prow else "thot-rownum",
                               "aria-hidden": "true", "text": str(r + 1)}))
            for c in range(size):
                i = r * size + c
                sq = name(i)
                value = view["cells"][r][c]
                classes = ["thot-cell"]
                parts = [sq]
                content: Any = None
                if value == "priest":
                    classes.append("priest")
                    parts.append(t("thot.priest"))
                    content = h("span", {"class": "piece priest-piece" + (" slide" if slide else ""),
                                         "aria-hidden": "true", "text": "\u265d", "style": slide})
                elif value == "ankh":
                    classes.append("ankh")
                    parts.append(t("thot.ankh"))
                    content = h("span", {"class": "piece ankh-piece", "aria-hidden": "true", "text": "\u2625"})
                elif value is None:
                    classes.append("empty")
                    parts.append(t("thot.empty"))
                else:
                    classes.append("pos" if value > 0 else "neg")
                    is_marked = sq in marked
                    parts.append(f"{value:+d}" + (" " + t("thot.marked") if is_marked else ""))
                    content = h("span", {"class": "piece", "aria-hidden": "true", "text": _cell_text(value)})
                    if is_marked:
                        classes.append("marked")
                if path is not None and i == path[0]:
                    classes.append("left")  # the square the priest left with the last move
                    parts.append(t("thot.sq.left"))
                if i in on_line and person:
                    classes.append("line")
                mark = marks.get(i)
                if mark:
                    classes.append(f"mark-{mark}")
                    parts.append(t(f"thot.mark.{mark}"))
                if i in hint_squares:
                    classes.append("hinted")
                    parts.append(t("thot.mark.hint"))
                if i in last_dest:
                    classes.append("last")
                attrs = {"role": "gridcell", "id": f"thot-{sq}", "data-sq": str(i), "class": " ".join(classes),
                         "tabindex": "0" if i == cursor else "-1", "aria-label": ", ".join(parts)}
                if sel.get("turn") == i or sel.get("dest") == i:
                    attrs["aria-selected"] = "true"
                append(row, h("div", attrs, content,
                              h("span", {"class": "dot", "aria-hidden": "true"}) if mark else None))
            append(grid, row)

        # the working set (docs/web.md "Layout"): head, board, hand; the rest in the drawer
        grid.classList.add("game-board")
        head = h("div", {"class": "game-head thot-top"},
                 h("p", {"id": "thot-status", "class": "thot-status", "text": self._status(page, view),
                         "hidden": over}),  # the result box says it
                 # The result comes first, where a phone shows it without scrolling.
                 self._end_box(page, view) if over else None,
                 page.scoreline(view["scores"], self._last_summary(page, state)),
                 page.message_line())
        hand = h("div", {"class": "game-hand thot-hand"}, self._drop_box(page, state))
        more = page.drawer(self._players(page, view),
                           self._search_info(page),
                           self._log(page, state),
                           page.toolbar(self._hint_button(page, person)),
                           self._legend(t, view["turnoff"]))
        return h("section", {"class": "thot-page", "aria-labelledby": "thot-title"},
                 h("h1", {"id": "thot-title", "class": "visually-hidden", "text": t("game.thot.name")}),
                 h("div", {"class": "game-layout"}, head, grid, hand, more))

    # --- which squares to mark ---------------------------------------------------------------
    def _marks(self, state: ThotState, sel: dict[str, Any]) -> dict[int, str]:
        """Square → "legal" (a move ends there), "turn" (the priest may turn there), "stop" (the chosen
        turn square, where it may also simply stop) or "drop" (an empty square for the scarab)."""
        if "dest" in sel:
            if sel.get("piece") is None:
                return {}
            return {sq: "drop" for sq in state.drop_squares(ThotMove(sel["dest"], sel.get("turn")))}
        moves = [m for m in state.legal_moves() if m.drop is None]
        marks: dict[int, str] = {}
        turn = sel.get("turn")
        if turn is not None:
            for m in moves:
                if m.turn == turn:
                    marks[m.dest] = "legal"
            if any(m.turn is None and m.dest == turn for m in moves):
                marks[turn] = "stop"
            return marks
        for m in moves:
            if m.turn is None:
                marks.setdefault(m.dest, "legal")
        for m in moves:
            if m.turn is not None:
                marks[m.turn] = "turn"
        return marks

    def _hint_squares(self, state: ThotState, text: str | None) -> set[int]:
        if not text:
            return set()
        try:
            move = state.parse_move(text)
        except ValueError:
            return set()
        return {sq for sq in (move.dest, move.turn, move.drop) if sq is not None}

    def _last_path(self, state: ThotState) -> tuple[int, int | None, int] | None:
        """The last move's (square the priest left, turn square or None, destination), from the
        engine's history — so it is the same after a reload or a take-back of a later move."""
        history = state.history()
        if not history:
            return None
        before = state.copy()
        before.pop()
        return before.priest, history[-1].turn, history[-1].dest

    def _slide(self, page: Any, state: ThotState, path: tuple[int, int | None, int] | None) -> str | None:
        """The priest slides from the square it left (via its turn) once per new move, not when the
        page first opens nor at every redraw: a ``style`` with the offsets in squares, or None."""
        moves = len(state.history())
        seen = vars(page).get("thot_slid")  # not getattr: the rules page's still page answers anything
        page.thot_slid = moves
        if path is None or seen is None or seen == moves:
            return None
        size = state.size
        (fr, fc), (dr, dc) = divmod(path[0], size), divmod(path[2], size)
        vr, vc = divmod(path[1], size) if path[1] is not None else ((fr + dr) / 2, (fc + dc) / 2)
        return f"--fx: {fc - dc}; --fy: {fr - dr}; --vx: {vc - dc}; --vy: {vr - dr}"

    def _last_squares(self, state: ThotState) -> set[int]:
        history = state.history()
        return {history[-1].dest} if history else set()

    # --- texts --------------------------------------------------------------------------------
    def _status(self, page: Any, view: dict[str, Any]) -> str:
        t = page.t
        if view["over"]:
            return str(t("play.over"))
        seat = page.session.seats[view["to_move"]]
        line = t(f"thot.axis.{view['axis'] or 'any'}", square=view["priest"], row=view["priest"][1:],
                 column=view["priest"][0])
        return f"{t('play.turn', name=seat.name)} — {line}"

    def _legend(self, t: Any, turnoff: bool) -> Any:
        items = [("pos", "+3", "thot.legend.pos"), ("neg", "\u22123", "thot.legend.neg"),
                 ("marked", "+2", "thot.legend.marked"), ("ankh", "\u2625", "thot.legend.ankh"),
                 ("priest", "\u265d", "thot.legend.priest"), ("mark-legal", "", "thot.legend.legal"),
                 ("mark-turn", "", "thot.legend.turn")][: None if turnoff else -1]
        out = h("ul", {"class": "thot-legend", "aria-label": t("thot.legend")})
        for css, sample, key in items:
            extra = "pos " if css == "marked" else ""
            append(out, h("li", {},
                          h("span", {"class": f"swatch thot-cell {extra}{css}", "aria-hidden": "true"},
                            h("span", {"class": "piece", "text": sample}) if sample else None,
                            h("span", {"class": "dot"}) if css.startswith("mark-") else None),
                          t(key)))
        return out

    # --- side panel ---------------------------------------------------------------------------
    def _players(self, page: Any, view: dict[str, Any]) -> Any:
        t = page.t
        seats = page.session.seats
        state: ThotState = page.session.state
        box = h("section", {"class": "panel thot-players", "aria-labelledby": "thot-players-title"},
                h("h2", {"id": "thot-players-title", "text": t("thot.players")}))
        teams = view["teams"]
        for seat, who in enumerate(seats):
            current = not view["over"] and seat == view["to_move"]
            head = h("div", {"class": "thot-player-head"},
                     h("span", {"class": "thot-turn-mark", "aria-hidden": "true", "text": "\u25b6" if current else ""}),
                     h("span", {"class": "thot-name", "text": who.name}),
                     h("span", {"class": "muted",
                                "text": t("thot.team", n=seat // 2 + 1) if teams else ""}),
                     h("span", {"class": "thot-score",
                                "text": t("thot.point" if abs(view["scores"][seat]) == 1 else "thot.points",
                                          n=view["scores"][seat])}))
            codes = sorted(state.collection(seat), key=lambda c: (VALUE[c], MARKED[c]), reverse=True)
            chips = h("ul", {"class": "thot-chips", "aria-label": t("thot.collection.of", name=who.name)})
            for code in codes:
                value = VALUE[code]
                label = f"{value:+d}" + (" " + t("thot.marked") if MARKED[code] else "")
                append(chips, h("li", {"class": "chip " + ("pos" if value > 0 else "neg") +
                                       (" marked" if MARKED[code] else ""), "aria-label": label,
                                       "text": _cell_text(value)}))
            if not codes:
                append(chips, h("li", {"class": "muted", "text": t("thot.collection.empty")}))
            append(box, h("div", {"class": "thot-player" + (" to-move" if current else ""),
                                  "aria-current": "true" if current else None},
                          head,
                          h("p", {"class": "visually-hidden", "text": t("thot.to_move") if current else ""}),
                          chips))
        if teams:
            append(box, h("p", {"class": "thot-teams", "text": t("thot.team.totals", a=view["team_scores"][0],
                                                                  b=view["team_scores"][1])}))
        append(box, h("p", {"class": "muted", "text": t("thot.left", scarabs=view["scarabs_left"],
                                                        ankhs=view["ankhs_left"])}))
        return box

    def _search_info(self, page: Any) -> Any:
        info = self._saved_search(page)  # the reply's, while it is the last move (not after a take-back)
        if not info:
            return None
        return h("p", {"class": "muted thot-search", "id": "thot-search", "data-depth": str(info["depth"]),
                       "data-ms": str(info["ms"]),
                       "text": page.t("thot.search.info", name=info["name"], depth=info["depth"],
                                      nodes=info["nodes"], ms=info["ms"])})

    def _saved_search(self, page: Any) -> dict[str, Any] | None:
        """The computer's last search as saved with the game (meta ``search``), so its depth line
        survives a reload; only while that move is still the last one. Outside data: checked."""
        saved = getattr(page.session, "meta", {}).get("search")  # the rules page's still session has none
        state: ThotState = page.session.state
        if not isinstance(saved, dict) or saved.get("move") != len(state.history()):
            return None
        numbers = [saved.get(k) for k in ("seat", "depth", "nodes", "ms")]
        if not all(isinstance(x, int) and not isinstance(x, bool) and 0 <= x < 10**12 for x in numbers):
            return None
        if numbers[0] >= len(page.session.seats):
            return None
        return {"name": page.session.seats[numbers[0]].name, "depth": numbers[1], "nodes": numbers[2],
                "ms": numbers[3]}

    def _last_summary(self, page: Any, state: ThotState) -> str | None:
        """The last move as the log writes it, for the working set."""
        if not state.history():
            return None
        replay = state.copy()
        move = replay.pop()
        seat = replay.to_move()
        result = replay.push(move)
        taken = page.t("thot.ankh") if result["taken"] == "ankh" else f"{result['taken']:+d}"
        return f"{page.session.seats[seat].name}: {result['move']} ({taken})"

    def _log(self, page: Any, state: ThotState) -> Any:
        t = page.t
        seats = page.session.seats
        # Latest move first, so it is in view without scrolling; ``reversed`` keeps the move numbers.
        # focusable: it scrolls, and a keyboard must be able to scroll it too
        log = h("ol", {"class": "movelog", "id": "thot-log", "reversed": True, "aria-label": t("play.log"),
                       "tabindex": "0"})
        replay = state.copy()
        moves = []
        while replay.history():
            moves.append(replay.pop())
        moves.reverse()
        items = []
        for move in moves:
            seat = replay.to_move()
            result = replay.push(move)
            taken = t("thot.ankh") if result["taken"] == "ankh" else f"{result['taken']:+d}"
            items.append(h("li", {"text": f"{seats[seat].name}: {result['move']} ({taken})"}))
        append(log, *reversed(items))
        if not moves:
            append(log, h("li", {"class": "muted", "text": t("thot.log.empty")}))
        return h("section", {"class": "panel"}, h("h2", {"text": t("play.log")}), log)

    def _hint_button(self, page: Any, person: bool) -> Any:
        busy = bool(page.selection.get("hinting"))
        return h("button", {"type": "button", "id": "thot-hint", "text": page.t("play.hint"),
                            "disabled": not person or busy,
                            "on_click": lambda _e: asyncio.ensure_future(self._hint(page))}, scope=page.view_scope)

    def _end_box(self, page: Any, view: dict[str, Any]) -> Any:
        t = page.t
        seats = page.session.seats
        state: ThotState = page.session.state
        result = view["result"] or {}
        detail = result.get("detail", {})
        winners = result.get("winners") or []
        tiebreak = view["tiebreak"]
        names = t("thot.and").join(seats[s].name for s in winners) if winners else ""
        if not winners:
            headline = t("play.draw")
        elif view["teams"] and "shared" not in detail:
            headline = t("thot.end.team", n=winners[0] // 2 + 1, names=names)
        elif len(winners) > 1 and "shared" in detail:
            headline = t("thot.end.shared", names=names)
        else:
            headline = t("thot.end.wins" if len(winners) == 1 else "thot.end.win", names=names)
        lines = [t("thot.end.reason." + str(result.get("reason", "no-move")),
                   name=seats[view["to_move"]].name)]
        totals = detail.get("totals", view["scores"])
        if tiebreak == "draw":
            lines.append(t("thot.end.tie.draw", points=max(totals)))
        elif tiebreak:
            value = int(tiebreak)
            counts = ", ".join(
                f"{' + '.join(seats[s].name for s in side)}: {sum(state.held(s, value) for s in side)}"
                for side in state.side_seats())
            lines.append(t("thot.end.tie.break", points=max(totals), value=tiebreak, counts=counts))
        scores = ", ".join(f"{who.name} {view['scores'][i]}" for i, who in enumerate(seats))
        lines.append(t("thot.end.scores", scores=scores))
        return h("section", {"class": "panel thot-end", "role": "status", "aria-labelledby": "thot-end-title"},
                 h("h2", {"id": "thot-end-title", "text": t("play.over")}),
                 h("p", {"class": "thot-headline", "id": "thot-result", "text": headline}),
                 *[h("p", {"text": line}) for line in lines],
                 h("a", {"class": "button primary", "href": router.href("thot", "new"), "text": t("play.again")}))

    # --- the ankh drop ------------------------------------------------------------------------
    def _drop_box(self, page: Any, state: ThotState) -> Any:
        sel = page.selection
        if "dest" not in sel:
            return None
        t = page.t
        chosen = sel.get("piece")
        held: dict[int, int] = {}
        for code in state.collection(state.to_move()):
            held[code] = held.get(code, 0) + 1
        chips = h("div", {"class": "thot-drop-chips", "role": "group", "aria-label": t("thot.drop.choose")})
        for code in sorted(held, key=lambda c: (VALUE[c], MARKED[c])):
            value = VALUE[code]
            label = f"{value:+d}" + (" " + t("thot.marked") if MARKED[code] else "")
            append(chips, h("button", {
                "type": "button", "id": f"thot-drop-{scarab_text(code)}",
                "class": "chip " + ("pos" if value > 0 else "neg") + (" marked" if MARKED[code] else ""),
                "aria-pressed": "true" if chosen == code else "false",
                "aria-label": t("thot.drop.piece", piece=label, n=held[code]),
                "text": f"{_cell_text(value)} \u00d7{held[code]}",
                "on_click": lambda _e, code=code: self._choose_piece(page, code)}, scope=page.view_scope))
        square = state.geo.name(sel["dest"])
        prompt = t("thot.drop.square" if chosen is not None else "thot.drop.prompt", square=square)
        def on_key(event: Any) -> None:
            if str(event.key) == "Escape":
                event.preventDefault()
                self._cancel(page)

        return h("div", {"class": "panel thot-drop", "id": "thot-drop", "on_keydown": on_key},
                 h("p", {"text": prompt}), chips,
                 h("div", {"class": "row"},
                   h("button", {"type": "button", "id": "thot-nodrop", "text": t("thot.drop.none"),
                                "on_click": lambda _e: self._commit(page, ThotMove(sel["dest"], sel.get("turn")))},
                     scope=page.view_scope),
                   h("button", {"type": "button", "id": "thot-cancel", "text": t("thot.cancel"),
                                "on_click": lambda _e: self._cancel(page)}, scope=page.view_scope)),
                 scope=page.view_scope)

    def _choose_piece(self, page: Any, code: int) -> None:
        page.selection["piece"] = code
        page.redraw()
        state: ThotState = page.session.state
        squares = state.drop_squares(ThotMove(page.selection["dest"], page.selection.get("turn")))
        if squares:
            self._focus(page, squares[0])

    # ------------------------------------------------------------------ input
    def _person_to_move(self, page: Any) -> bool:
        session = page.session
        return (session is not None and not page.thinking and not session.state.is_over()
                and not session.computer_to_move())

    def _on_click(self, page: Any, event: Any) -> None:
        cell = event.target.closest("[data-sq]")
        if not cell:
            return
        square = int(cell.getAttribute("data-sq"))
        page.thot_cursor = square
        self._choose(page, square)

    def _on_key(self, page: Any, event: Any) -> None:
        cell = event.target.closest("[data-sq]")
        if not cell:
            return
        key = str(event.key)
        size = page.session.state.size
        square = int(cell.getAttribute("data-sq"))
        r, c = divmod(square, size)
        moves = {"ArrowUp": (-1, 0), "ArrowDown": (1, 0), "ArrowLeft": (0, -1), "ArrowRight": (0, 1)}
        if key in moves:
            dr, dc = moves[key]
            r, c = min(max(r + dr, 0), size - 1), min(max(c + dc, 0), size - 1)
        elif key == "Home":
            c = 0
        elif key == "End":
            c = size - 1
        elif key in ("Enter", " "):
            event.preventDefault()
            self._choose(page, square)
            return
        elif key == "Escape":
            if page.selection:
                event.preventDefault()
                self._cancel(page)
            return
        else:
            return
        event.preventDefault()
        self._focus(page, r * size + c)

    def _focus(self, page: Any, square: int) -> None:
        """Move the roving focus of the grid to ``square``."""
        old = document.querySelector("#thot-board [tabindex='0']")
        if old:
            old.setAttribute("tabindex", "-1")
        page.thot_cursor = square
        node = document.querySelector(f"#thot-board [data-sq='{square}']")
        if node:
            node.setAttribute("tabindex", "0")
            node.focus()

    def _cancel(self, page: Any) -> None:
        page.selection = {}
        page.message = None
        page.redraw()
        self._focus(page, getattr(page, "thot_cursor", None) or page.session.state.priest)

    def _choose(self, page: Any, square: int) -> None:
        if not self._person_to_move(page):
            return
        state: ThotState = page.session.state
        sel = page.selection
        name = state.geo.name
        if "dest" in sel:  # waiting for the scarab to put back after an ankh
            piece = sel.get("piece")
            if piece is None:
                page.show_message(page.t("thot.drop.first"))
                return
            self._commit(page, ThotMove(sel["dest"], sel.get("turn"), square, piece))
            return
        moves = [m for m in state.legal_moves() if m.drop is None]
        turn = sel.get("turn")
        if turn is not None:
            if square == turn:
                self._finish(page, ThotMove(square))
                return
            if any(m.turn == turn and m.dest == square for m in moves):
                self._finish(page, ThotMove(square, turn))
                return
            sel.pop("turn")
        if any(m.turn == square for m in moves):
            page.selection = {"turn": square}
            page.message = (page.t("thot.turn.chosen", square=name(square)), False)
            page.redraw()
            page.say(page.message[0])
            return
        self._finish(page, ThotMove(square))

    def _finish(self, page: Any, move: ThotMove) -> None:
        """The priest's path is chosen: ask for a drop after an ankh, else play it."""
        state: ThotState = page.session.state
        legal = any(m.dest == move.dest and m.turn == move.turn for m in state.legal_moves() if m.drop is None)
        if legal and state.board[move.dest] == ANKH and state.collection(state.to_move()):
            page.selection = {"dest": move.dest, "turn": move.turn}
            page.message = None
            page.redraw()
            page.say(page.t("thot.drop.prompt", square=state.geo.name(move.dest)))
            first = document.querySelector("#thot-drop button")
            if first:
                first.focus()
            return
        self._commit(page, move)

    def _commit(self, page: Any, move: ThotMove) -> None:
        state: ThotState = page.session.state
        text = state.move_text(move)
        if page.commit(text):
            page.thot_cursor = state.priest
            self._focus(page, state.priest)

    # ------------------------------------------------------------------ computer and hints
    def computer(self, page: Any, level: int) -> Generator[None, None, str]:
        state: ThotState = page.session.state
        # The engine's cap is for the search alone; the page's slicing takes a little of the second too.
        search = Search(state, level, time_budget=BROWSER_TIME_BUDGET - PAGE_MARGIN)
        started = time.perf_counter()
        while not search.step(STEP_MS):
            yield
        result = search.result()
        seat = page.session.seats[state.to_move()]
        page.thot_search = {"name": seat.name, "depth": result.depth, "nodes": result.nodes,
                            "ms": round((time.perf_counter() - started) * 1000)}
        # saved with the reply (the autosave of the move that follows), for the depth line after a reload
        page.session.meta["search"] = {"seat": state.to_move(), "move": len(state.history()) + 1,
                                       "depth": result.depth, "nodes": result.nodes, "ms": page.thot_search["ms"]}
        assert result.move is not None  # play.py asks only when the computer has a move
        return state.move_text(result.move)

    async def _hint(self, page: Any) -> None:
        if not self._person_to_move(page) or page.selection.get("hinting"):
            return
        state: ThotState = page.session.state
        moves_before = len(state.history())
        page.selection["hinting"] = True
        page.show_message(page.t("thot.hint.thinking"))
        button = document.getElementById("thot-hint")
        if button:
            button.disabled = True
        search = hint_search(state, time_budget=BROWSER_TIME_BUDGET - PAGE_MARGIN)
        while not search.step(STEP_MS * 3):
            await asyncio.sleep(0)
            if page.closed or len(state.history()) != moves_before:
                return
        page.selection.pop("hinting", None)
        hint = hint_of(state, search.result())
        if hint["move"] is None:
            return
        text = str(hint["move"])
        what = page.t("thot.ankh") if hint["take"] == "ankh" else f"{hint['take']:+d}"
        gain = f"{hint['gain']:+g}"
        page.selection["hint_move"] = text
        message = page.t("thot.hint.result", move=text, take=what, gain=gain, depth=hint["depth"])
        page.message = (message, False)
        page.redraw()
        page.say(message)

    def announce(self, page: Any, move_text: str, result: Any) -> str:
        state: ThotState = page.session.state
        seat = page.session.seats[(state.to_move() - 1) % state.num_players]
        t = page.t
        if not isinstance(result, dict):
            return str(t("thot.announce.plain", name=seat.name, move=move_text))
        taken = t("thot.ankh") if result.get("taken") == "ankh" else f"{result.get('taken', 0):+d}"
        text = t("thot.announce", name=seat.name, move=move_text, taken=taken)
        if result.get("dropped") is not None:
            text += " " + t("thot.announce.drop", value=f"{result['dropped']:+d}")
        if state.is_over():
            text += " " + t("play.over")
        return str(text)


    # ------------------------------------------------------------------ resume snapshot
    def snapshot(self, page: Any) -> dict[str, Any]:
        """The board, scores and last move as ``render`` draws them, as plain data for boot.js."""
        from web.snapshot import el

        t = page.t
        state: ThotState = page.session.state
        view = state.view()
        size = view["size"]
        marked = set(view["marked"])
        last_dest = self._last_squares(state)
        rows = [el("div", "thot-row thot-head", None, el("span", "thot-corner"),
                   *[el("span", None, ch) for ch in "ABCDEFGHIJ"[:size]])]
        for r in range(size):
            cells = []
            for c in range(size):
                value = view["cells"][r][c]
                classes = ["thot-cell"]
                content = None
                if value == "priest":
                    classes.append("priest")
                    content = el("span", "piece priest-piece", "\u265d")
                elif value == "ankh":
                    classes.append("ankh")
                    content = el("span", "piece ankh-piece", "\u2625")
                elif value is None:
                    classes.append("empty")
                else:
                    classes.append("pos" if value > 0 else "neg")
                    if state.geo.name(r * size + c) in marked:
                        classes.append("marked")
                    content = el("span", "piece", _cell_text(value))
                if r * size + c in last_dest:
                    classes.append("last")
                cells.append(el("div", " ".join(classes), None, content))
            rows.append(el("div", "thot-row", None, el("span", "thot-rownum", r + 1), *cells))
        board = el("div", f"thot-board size-{size} game-board", None, *rows, role="img",
                   aria_label=t("thot.board"), __n=size)
        return {"page_class": "thot-page", "status": self._status(page, view), "scores": view["scores"],
                "last": self._last_summary(page, state), "board": board}


UI = ThotUI()

