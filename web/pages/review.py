"""The review of a game (``#/<game>/review/<save id>``): step through its moves on the real board, and
the engine's analysis of each move, computed in the page in slices and kept in the save.

The board of each step is the game page's own drawing: the record is replayed to that move and the
game's view (``UI.render``) draws it on a *still page* (a game page that nobody plays on: no computer
to move, no widgets, its event handlers dropped), from which the board (``.game-board``) is taken.
Scarabeo's page draws much more than its board (the hourglass, the table, the rack), so its grid
comes from the view's own square renderer (``ScarabeoUI.board_grid``, registered as the game's
``still_grid``), as its rules page does. The best
alternative is drawn with each view's own marks: Scarabeo's ghost tiles, Thot's hinted squares, a
Scarabya ghost on the squares the analysis names.

What may be analysed is ``web.platform.review_model.analysis_scope`` (the hidden-information rule); the
logic without the DOM lives in ``web/platform/review_model.py``.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from pyscript import document, window

from game.core import GameRecord
from game.core.analysis import CLASSES, Alternative, Analysis, MoveAnalysis, Progress, Thresholds
from web.platform import engines, events, review_model, router
from web.platform.session import Session
from web.platform.storage import StorageError
from web.ui import registry
from web.ui.dom import Scope, append, clear, h, svg
from web.ui.still import still_board

#: The chart's box, in SVG units: a wide strip, so that it stays in view beside or under the board.
W, H, PAD = 600, 150, 44
#: While the analysis runs, the chart is drawn again at most this often (seconds).
LIVE_EVERY = 0.4


class Review:
    def __init__(self, gp: Any, save_id: str) -> None:
        self.gp = gp
        self.app = gp.app
        self.t = gp.t
        self.ui = gp.ui
        self.game: str = gp.ui.GAME
        self.session = Session.open(self.app.store, save_id)
        #: a watched private game: stepped through its public record (no rack, no seed), never analysed
        self.public: Any = None
        if self.session.watch:
            from web.platform.watch import read_watch

            self.public = read_watch(self.session.save.state)[0]
            self.record: GameRecord | None = None
            self.moves = [m.move for m in self.public.moves]
        else:
            self.record = self.session.record()
            self.moves = list(self.record.moves)
        self.total = len(self.moves)
        self.seats = self.session.seats
        #: the names shown (a computer seat by its level, in the page's language)
        self.names = events.seat_names(self.t, self.game, self.seats)
        over = self.session.state.is_over()
        self.scope = review_model.analysis_scope([not s.computer for s in self.seats], over,
                                                 self.session.replay_only)
        reading = review_model.Reading() if self.record is None else review_model.read(
            self.session.meta, self.record, self.scope, engines.FACTORY_KWARGS.get(self.game, {}).get("word_list"))
        self.analysis: Analysis | None = reading.analysis
        #: why the analysis kept with the game cannot be opened (None: there is none, or it is fine)
        self.refused: str | None = reading.refused
        self.from_cache = self.analysis is not None
        #: the seat whose advantage the chart's one line follows
        self.side = review_model.side_of([not s.computer for s in self.seats], self.scope.viewer)
        self.progress: Progress | None = None
        #: moves of the running analysis already shown (chart, classes), and when the chart was drawn
        self.shown_live, self.live_at, self.started = 0, 0.0, 0.0
        self.cancelled = False
        self.status: str | None = None
        self.show_best = False
        # who moved at each ply, each move in words, and the cursor state (moved forward by push, back by pop)
        self.movers: list[int] = []
        self.words: list[str | None] = []
        if self.record is None:
            self.movers = [m.seat for m in self.public.moves]
            self.words = [None] * self.total
            state = self.session.state
        else:
            state = engines.factory(self.game)(self.record.options, self.record.seed)
            for text in self.moves:
                self.movers.append(int(state.to_move()))
                result = state.push(state.parse_move(text))
                self.words.append(self.said(state, result))
        self.end_state = state
        self._state, self._ply = state, self.total
        wanted = gp.route.query.get("move", "")
        self.step = review_model.clamp(int(wanted), self.total) if wanted.isdigit() else self.total
        self.touch: tuple[float, float] | None = None

    # --- positions -----------------------------------------------------------------------------
    def state_at(self, ply: int) -> Any:
        if self.record is None:
            return self.watched_at(ply)
        try:
            while self._ply > ply:
                self._state.pop()
                self._ply -= 1
        except Exception:  # an engine that cannot go back: replay from the start
            self._state = engines.factory(self.game)(self.record.options, self.record.seed)
            self._ply = 0
        while self._ply < ply:
            self._state.push(self._state.parse_move(self.moves[self._ply]))
            self._ply += 1
        return self._state

    def watched_at(self, ply: int) -> Any:
        """A watched game's position after ``ply`` moves: its public record up to there, rebuilt
        and checked by the engine (a spectator's state: no rack)."""
        from dataclasses import replace

        from game.core.view import rebuild_public

        if ply != self._ply:
            public = replace(self.public, moves=list(self.public.moves[:ply]), final_racks=None, final_scores=None)
            self._state = rebuild_public(public.to_json(), engines.FACTORY_KWARGS.get(self.game, {}).get("word_list"))
            self._ply = ply
        return self._state

    def seat_name(self, seat: int | None) -> str:
        return self.names[seat] if seat is not None and 0 <= seat < len(self.names) else "?"

    def said(self, state: Any, result: Any) -> str | None:
        """A move of the record in words (``web.platform.events``), or None where the words cannot be
        made (the notation is shown then)."""
        try:
            return events.describe(self.t, self.game, state, result, self.names,
                                   events.you_seat(self.t, self.seats)).text
        except Exception as err:
            window.console.warn(f"review: no words for a move: {err!r}")
            return None

    # --- the analysis so far ---------------------------------------------------------------------
    def known(self) -> list[MoveAnalysis] | tuple[MoveAnalysis, ...]:
        """The moves analysed: the whole analysis, or the first moves of the one running."""
        if self.analysis is not None:
            return self.analysis.moves
        return self.progress.moves if self.progress is not None else []

    def move_analysis(self, step: int) -> MoveAnalysis | None:
        return review_model.move_in(self.known(), step)

    def thresholds(self) -> Thresholds:
        if self.analysis is not None:
            return self.analysis.thresholds
        return review_model.thresholds(self.game, self.end_state)

    # --- drawing -------------------------------------------------------------------------------
    def mount(self) -> None:
        self.gp.scope.on(document, "keydown", self.on_key)
        self.redraw()
        if self.startable() and self.refused is None:
            # the review never waits for a button: the analysis starts now, in slices, and the chart
            # and the classes fill in move by move while the person steps through the game
            asyncio.ensure_future(self.run())

    def startable(self) -> bool:
        """Whether there is an analysis to compute here (a watched game has none; a kept one is shown)."""
        return self.record is not None and self.total > 0 and self.analysis is None

    def redraw(self) -> None:
        try:
            self._redraw()
        except Exception as err:
            if self.analysis is None:
                raise
            # the analysis passed the engine's checks yet does not draw: it is set aside with its
            # reason, and the review goes on without it (never a traceback on the page)
            window.console.warn(f"review: the analysis does not draw: {err!r}")
            self.analysis, self.show_best = None, False
            self.refused = review_model.one_line_reason(err)
            self._redraw()

    def _redraw(self) -> None:
        gp = self.gp
        if gp.closed:
            return
        active = document.activeElement
        focused = str(active.id) if active and active.id else None
        gp.view_scope.close()
        gp.view_scope = Scope()
        clear(gp.root)
        if self.progress is not None:  # this drawing shows every move analysed so far
            self.shown_live = len(self.progress.moves)
        t = self.t
        head = h("header", {"class": "review-head"},
                 h("h1", {"id": "review-title", "text": t("review.title", title=self.session.save.title)}),
                 # on a phone an arrow (its name the whole words), so that the title beside it is whole
                 h("a", {"class": "button", "id": "review-back", "href": router.href(self.game, "play", self.session.save.id),
                         "aria-label": t("review.back")},
                   h("span", {"class": "review-back-words", "text": t("review.back")}),
                   h("span", {"class": "review-back-arrow", "aria-hidden": "true", "text": "←"})))
        # the board, then what the eye needs next to it: the moves' navigation and the advantage line
        # (beside the board on a wide screen, under it on a phone), then the move's detail
        layout = h("div", {"class": "review-layout"},
                   self.board_box(),
                   h("div", {"class": "review-side"},
                     self.controls(), self.chart(), self.detail(), self.analysis_box(), self.move_list()),
                   h("div", {"class": "review-more"}, self.summary()))
        append(gp.root, h("section", {"class": f"review-page review-{self.game}", "id": "review",
                                      "data-step": str(self.step), "data-total": str(self.total),
                                      "data-analysed": "1" if self.analysis is not None else "0",
                                      "data-analysing": "1" if self.progress is not None else "0",
                                      "data-cached": "1" if self.from_cache else "0",
                                      "aria-labelledby": "review-title"}, head, layout))
        if focused:
            again = document.getElementById(focused)
            if again:
                from pyscript.ffi import to_js

                again.focus(to_js({"preventScroll": True}))
        views = registry.get(self.game)
        if views is not None and views.center is not None:  # a phone's zoomed board (Scarabeo)
            views.center(document.getElementById("review-board"))
        current = document.querySelector("#review-moves [aria-current]")
        box = document.getElementById("review-moves")
        if current and box:  # the current move in the middle of the list, without scrolling the page
            offset = float(current.getBoundingClientRect().top) - float(box.getBoundingClientRect().top)
            box.scrollTop = max(0.0, float(box.scrollTop) + offset - float(box.clientHeight) / 2)

    def best_alternative(self) -> Alternative | None:
        m = self.move_analysis(self.step)
        return m.best[0] if m is not None and m.analysed and m.best else None

    def board_box(self) -> Any:
        t = self.t
        best = self.best_alternative() if self.show_best else None
        ply = self.step - 1 if best is not None else self.step
        state = self.state_at(ply)
        board = self.draw(state, best)
        if best is not None:
            label = t("review.board.best", n=self.step, move=best.move)
        elif self.step:
            label = t("review.board", n=self.step)
        else:
            label = t("review.board.start")
        grid = board if board.getAttribute("role") == "grid" else board.querySelector("[role=grid]")
        if grid:
            grid.setAttribute("aria-label", label)
        box = h("figure", {"class": "review-board", "id": "review-board", "data-best": "1" if best else "0"},
                board, h("figcaption", {"id": "review-caption", "aria-live": "polite", "text": self.caption()}))
        self.gp.view_scope.on(box, "pointerdown", self.on_pointerdown)
        self.gp.view_scope.on(box, "pointerup", self.on_pointerup)
        return box

    def caption(self) -> str:
        t = self.t
        resigned = getattr(self.session, "resigned", None)
        # the game's end after its last move: a resignation is not in the moves, so it is said here
        end = (" " + t.form("play.resigned", you=events.you_seat(t, self.seats) == resigned,
                            name=self.seat_name(resigned))
               if resigned is not None and self.step == self.total else "")
        if not self.step:
            return str(t("review.start")) + end
        return f"{t('review.step', n=self.step, total=self.total)} — {self.move_words(self.step)}{end}"

    def move_words(self, k: int) -> str:
        """Move ``k`` in words ("Ada took 3 at E5."), or by its notation where there are none."""
        words = self.words[k - 1] if k <= len(self.words) else None
        if words:
            return words
        text = self.moves[k - 1]
        return str(self.t("review.move.table", move=text) if text.startswith("!") else self.t.form(
            "review.played", name=self.seat_name(self.movers[k - 1]), move=text,
            you=self.movers[k - 1] is not None and self.movers[k - 1] == events.you_seat(self.t, self.seats)))

    def draw(self, state: Any, best: Alternative | None) -> Any:
        if self.game == "scarabeo":
            return self.draw_scarabeo(state, best)
        if self.game == "thot":
            selection: dict[str, Any] = {"hint_move": best.move} if best is not None else {}
            board = still_board(self.app, self.ui, state, self.seats, selection)
            return h("div", {"class": "thot-page review-thot"}, board)
        # Scarabya: the site of the move's mover (classic), or the shared board (Ruins)
        seat = self.movers[self.step - 1] if self.step else 0
        selection = {"site": seat, "_site_n": len(state.history())}
        squares = list((best.detail.get("squares") or []) if best is not None else [])

        def mark(board: Any) -> None:
            for name in squares:
                cell = board.querySelector(f"[id='sq-{name}']")
                if cell:
                    cell.classList.add("ghost", "ok")
                    cell.setAttribute("aria-label", f"{cell.getAttribute('aria-label')}, {self.t('review.show.best')}")

        board = still_board(self.app, self.ui, state, self.seats, selection, mark)
        return h("div", {"class": "sy-game review-scarabya"}, board)

    def draw_scarabeo(self, state: Any, best: Alternative | None) -> Any:
        views = registry.get("scarabeo")
        assert views is not None and views.still_grid is not None and views.ghost_of is not None
        ghost = views.ghost_of(best.detail.get("placements") or []) if best is not None else {}
        return h("div", {"class": "sc-page review-scarabeo"},
                 views.still_grid(self.app, self.ui, state, self.seats, ghost))

    # --- controls ------------------------------------------------------------------------------
    def controls(self) -> Any:
        t, scope = self.t, self.gp.view_scope
        buttons = []
        for key, target, symbol in (("first", 0, "|\u25c0"), ("prev", self.step - 1, "\u25c0"),
                                    ("next", self.step + 1, "\u25b6"), ("last", self.total, "\u25b6|")):
            target = review_model.clamp(target, self.total)
            buttons.append(h("button", {"type": "button", "id": f"review-{key}", "aria-label": t(f"review.{key}"),
                                        "title": t(f"review.{key}"), "text": symbol,
                                        "disabled": target == self.step,
                                        "on_click": lambda _e, target=target: self.go(target)}, scope=scope))
        counter = h("span", {"class": "review-counter", "id": "review-counter",
                             "text": t("review.step", n=self.step, total=self.total)})
        best = h("button", {"type": "button", "id": "review-best", "aria-pressed": "true" if self.show_best else "false",
                            "text": t("review.show.best"), "title": t("review.show.best.help"),
                            "disabled": self.best_alternative() is None,
                            "on_click": lambda _e: self.toggle_best()}, scope=scope)
        return h("div", {"class": "review-controls"},
                 h("div", {"class": "row", "role": "toolbar", "aria-label": t("review.nav")}, *buttons, counter),
                 h("div", {"class": "row"}, best),
                 h("p", {"class": "muted review-keys", "text": t("review.keys")}))

    def go(self, step: int) -> None:
        step = review_model.clamp(step, self.total)
        if step != self.step:
            self.step = step
            self.redraw()

    def toggle_best(self) -> None:
        self.show_best = not self.show_best
        self.redraw()

    def on_key(self, event: Any) -> None:
        if self.gp.closed or event.ctrlKey or event.metaKey or event.altKey:
            return
        target = event.target
        tag = str(target.tagName).lower() if target and target.tagName else ""
        if tag in ("input", "textarea", "select") or document.querySelector("dialog[open], .modal"):
            return
        step = review_model.step_for_key(str(event.key), self.step, self.total)
        if step is None:
            return
        event.preventDefault()
        self.go(step)

    def on_pointerdown(self, event: Any) -> None:
        self.touch = (float(event.clientX), float(event.clientY)) if str(event.pointerType) != "mouse" else None

    def on_pointerup(self, event: Any) -> None:
        if self.touch is None:
            return
        x0, y0 = self.touch
        self.touch = None
        step = review_model.step_for_swipe(float(event.clientX) - x0, float(event.clientY) - y0, self.step, self.total)
        if step is not None:
            self.go(step)

    # --- the move and its analysis ---------------------------------------------------------------
    def detail(self) -> Any:
        t = self.t
        box = h("section", {"class": "panel review-detail", "id": "review-detail", "aria-labelledby": "review-detail-title"})
        if not self.step:
            append(box, h("h2", {"id": "review-detail-title", "text": t("review.start")}),
                   h("p", {"class": "muted", "text": t("review.start.detail")}))
            return box
        append(box, h("h2", {"id": "review-detail-title", "text": self.caption()}),
               h("p", {"class": "muted review-notation", "id": "review-notation",
                       "text": t("review.notation", move=self.moves[self.step - 1])}))
        m = self.move_analysis(self.step)
        if m is None and self.record is None:  # a watched game: nothing is analysed (the scope note says why)
            return box
        if m is None:
            key = "review.not.yet.running" if self.progress is not None else "review.not.yet"
            append(box, h("p", {"class": "muted", "id": "review-reason", "text": t(key)}))
            return box
        if not m.analysed:
            append(box, h("p", {"class": "muted", "id": "review-reason", "text": t(f"review.reason.{m.reason}")}))
            return box
        klass = m.klass or "best"
        append(box, h("p", {"class": "review-verdict"},
                      h("span", {"class": f"review-class c-{klass}", "id": "review-class", "data-class": klass,
                                 "text": t(f"review.class.{klass}")}), " ",
                      t("review.forced") if m.forced else
                      t("review.loss", loss=review_model.number(m.loss, t.lang), unit=self.unit(m.loss))))
        if m.exact is not None:  # an exact solver was asked (Scarabeo's endgame): proved, or its budget ran out
            append(box, h("p", {"class": "muted review-exact", "id": "review-exact", "data-exact": str(m.exact).lower(),
                                "text": t("review.exact" if m.exact else "review.exact.not")}))
        append(box, self.alternatives(m))
        return box

    def unit(self, value: float | None = None) -> str:
        """The analysis's unit in words, singular for a value shown as 1 ("Loss 1 point", also for a
        0.999 the page prints as 1)."""
        raw = self.thresholds().unit
        key = f"review.unit.{raw}"
        if value is not None and review_model.number(abs(value), "en") == "1" and self.t.has(key + ".one"):
            key += ".one"
        return str(self.t(key)) if self.t.has(key) else raw

    def alternatives(self, m: MoveAnalysis) -> Any:
        t = self.t
        lang = t.lang
        game = self.game
        classic = any("now" in a.detail for a in m.best)
        cols = [t("review.col.move"), t("review.col.value")]
        if game == "scarabeo":
            cols += [t("review.col.score"), t("review.col.leave")]
        elif game == "thot":
            cols += [t("review.col.depth")]
        elif classic:
            cols += [t("review.col.now"), t("review.col.later")]
        shown = list(m.best[:5 if game == "scarabeo" else 3])
        rows = []
        played_key = m.played.move if m.played is not None else m.move

        def cells(a: Alternative) -> list[str]:
            value = review_model.number(a.value, lang)
            if game == "scarabeo":
                return [value, str(a.detail.get("score", "")), str(a.detail.get("leave", "")) or "—"]
            if game == "thot":
                return [value, str(a.detail.get("depth", ""))]
            if classic:
                return [value, str(a.detail.get("now", "")), review_model.number(a.detail.get("later"), lang)]
            return [value]

        seen_played = False
        for i, a in enumerate(shown):
            is_played = a.move == played_key or (m.klass == "best" and i == 0 and m.played is not None
                                                   and m.played.value == a.value and a.move == m.played.move)
            seen_played = seen_played or is_played
            name = t("review.row.played", move=a.move) if is_played else a.move
            rows.append(h("tr", {"class": "played" if is_played else None, "data-move": a.move},
                          h("th", {"scope": "row", "text": name}), *[h("td", {"text": c}) for c in cells(a)]))
        if not seen_played and m.played is not None:
            rows.append(h("tr", {"class": "played", "data-move": m.played.move},
                          h("th", {"scope": "row", "text": t("review.row.played", move=m.move)}),
                          *[h("td", {"text": c}) for c in cells(m.played)]))
        return h("div", {"class": "review-alts-wrap", "role": "region", "tabindex": "0",
                         "aria-label": t("review.alternatives")},
                 h("table", {"class": "scores review-alts", "id": "review-alts"},
                   h("caption", {"text": t("review.alternatives")}),
                   h("thead", {}, h("tr", {}, *[h("th", {"scope": "col", "text": c}) for c in cols])),
                   h("tbody", {}, *rows)))

    def analysis_box(self) -> Any:
        t, scope = self.t, self.gp.view_scope
        box = h("section", {"class": "panel review-analysis", "id": "review-analysis", "aria-label": t("review.analyse")})
        note = self.scope.note
        if note:
            seat = self.scope.viewer
            append(box, h("p", {"class": "review-scope", "id": "review-scope",
                                "text": t(note, name=self.seat_name(seat))}))
        if self.progress is not None:
            p = self.progress
            append(box, h("label", {"for": "review-progress", "id": "review-progress-text",
                                    "text": t("review.progress", done=p.done, total=p.total)}),
                   h("progress", {"id": "review-progress", "max": str(max(1, p.total)), "value": str(p.done),
                                  "aria-label": t("review.progress.label")}),
                   h("button", {"type": "button", "id": "review-cancel", "text": t("review.cancel"),
                                "on_click": lambda _e: self.cancel()}, scope=scope))
            return box
        if self.refused is not None and self.analysis is None and self.progress is None:
            append(box, h("p", {"id": "review-refused", "class": "error", "role": "alert",
                                "text": t("review.analysis.refused", reason=self.refused)}))
        if self.status:
            append(box, h("p", {"id": "review-status", "role": "status", "text": self.status}))
        elif self.analysis is not None and self.from_cache:
            append(box, h("p", {"id": "review-status", "class": "muted", "text": t("review.cached")}))
        if self.total and self.record is not None:  # a watched game has nothing to analyse
            append(box, h("button", {"type": "button", "class": "primary" if self.analysis is None else None,
                                     "id": "review-analyse",
                                     "text": t("review.analyse" if self.analysis is None else "review.analyse.again"),
                                     "on_click": lambda _e: asyncio.ensure_future(self.run())}, scope=scope))
        if self.analysis is not None:
            th = self.analysis.thresholds

            def n(value: float) -> str:
                return review_model.number(value, t.lang)

            append(box, h("p", {"class": "muted review-thresholds",
                                "text": t("review.thresholds", unit=self.unit(), best=n(th.best), good=n(th.good),
                                          inaccuracy=n(th.inaccuracy), mistake=n(th.mistake))}))
        return box

    def move_list(self) -> Any:
        t, scope = self.t, self.gp.view_scope
        items = h("ol", {"class": "review-moves", "id": "review-moves", "aria-label": t("review.moves")})
        if not self.total:
            append(items, h("li", {"class": "muted", "text": t("review.empty")}))
        known = self.known()
        for k, text in enumerate(self.moves, start=1):
            m = review_model.move_in(known, k)
            # the move in words, its notation beside it (smaller), and its class once analysed
            button = h("button", {"type": "button", "class": "review-move", "data-ply": str(k),
                                  "aria-current": "step" if k == self.step else None,
                                  "on_click": lambda _e, k=k: self.go(k)},
                       h("span", {"class": "review-move-words"},
                         h("span", {"class": "review-move-n", "text": t("review.move.n", n=k)}), " ",
                         self.move_words(k), " ",
                         h("span", {"class": "review-move-notation", "text": text})),
                       self.badge(m), scope=scope)
            append(items, h("li", {}, button))
        return h("section", {"class": "panel review-list"},
                 h("h2", {"text": t("review.moves")}), items)

    def badge(self, m: MoveAnalysis | None) -> Any:
        klass = m.klass if m is not None and m.analysed else None
        return h("span", {"class": f"review-class c-{klass}", "text": self.t(f"review.class.{klass}")}) if klass else None

    # --- the advantage chart and the summary -------------------------------------------------------
    def line(self) -> list[float | None]:
        """The chart's one line (``review_model.advantage``): of the analysis so far, or a watched
        game's public scores."""
        if self.record is None and self.public is not None:
            return review_model.public_advantage(self.public.moves, len(self.seats), self.side)
        return review_model.advantage(self.known(), self.game, self.side, self.total)

    def chart(self) -> Any:
        """The advantage chart, lichess-style: one line of the advantage of one side (``self.side``),
        the area between it and 0 filled (that side ahead above, behind below), the inaccuracies,
        mistakes and blunders marked on it; a click goes to that move. Its place is kept from the
        start (an empty line before the analysis reaches the first move), so nothing moves."""
        if not self.total:
            return None
        t = self.t
        values = self.line()
        figure = h("figure", {"class": "chart-figure review-chart-figure", "id": "review-chart-figure"},
                   h("figcaption", {"id": "review-chart-caption", "text": self.chart_title()}),
                   self.chart_svg(values), self.chart_legend(),
                   h("details", {"id": "review-chart-details"},
                     h("summary", {"text": t("review.chart.table")}), self.chart_table(values)))
        return figure

    def chart_title(self) -> str:
        you = self.side == events.you_seat(self.t, self.seats)
        return str(self.t.form("review.chart.adv", you=you, name=self.seat_name(self.side)))

    def chart_svg(self, values: list[float | None]) -> Any:
        t = self.t
        low, high = review_model.symmetric_range(values)
        left, right, top, bottom = PAD, W - 10, 8.0, H - 22.0
        known = [v for v in values[1:] if v is not None]
        marks = review_model.marks(self.known())
        mark_words = [t("review.chart.mark", n=ply, name=self.seat_name(self.movers[ply - 1]),
                        klass=t(f"review.class.{klass}")) for ply, klass in marks]
        what = t("review.chart.what.eval" if self.game == "thot" else "review.chart.what.score")
        desc = t("review.chart.desc.line", what=what[:1].upper() + what[1:], name=self.seat_name(self.side),
                 value=review_model.number(known[-1] if known else None, t.lang),
                 marks="; ".join(mark_words) if mark_words else t("review.chart.marks.none"))
        chart = svg("svg", {"viewBox": f"0 0 {W} {H}", "class": "chart review-chart", "id": "review-chart",
                            "role": "img", "data-points": str(len(known)), "data-marks": str(len(marks)),
                            "aria-labelledby": "review-chart-caption review-chart-desc"})
        append(chart, svg("desc", {"id": "review-chart-desc", "text": desc}))

        def y_of(v: float) -> float:
            return bottom - (bottom - top) * (v - low) / (high - low)

        zero = y_of(0.0)
        # the area between the line and 0, in two colours: clipped above and below the axis
        append(chart, svg("defs", {},
                          svg("clipPath", {"id": "adv-clip-up"},
                              svg("rect", {"x": 0, "y": 0, "width": W, "height": f"{zero:.1f}"})),
                          svg("clipPath", {"id": "adv-clip-down"},
                              svg("rect", {"x": 0, "y": f"{zero:.1f}", "width": W, "height": f"{H - zero:.1f}"}))))
        for v in (high, 0.0, low):
            y = y_of(v)
            append(chart, svg("line", {"x1": left, "y1": f"{y:.1f}", "x2": right, "y2": f"{y:.1f}",
                                       "class": "axis" if v == 0 else "grid"}),
                   svg("text", {"x": left - 6, "y": f"{y + 4:.1f}", "class": "tick", "text-anchor": "end",
                                "text": review_model.number(v, t.lang)}))
        pts = review_model.points(values, low, high, left, right, top, bottom)
        if len(pts) > 1:
            outline = " ".join(f"{x:.1f},{y:.1f}" for _, x, y in pts)
            area = f"{pts[0][1]:.1f},{zero:.1f} {outline} {pts[-1][1]:.1f},{zero:.1f}"
            append(chart, svg("polygon", {"points": area, "class": "adv-area adv-up", "clip-path": "url(#adv-clip-up)"}),
                   svg("polygon", {"points": area, "class": "adv-area adv-down", "clip-path": "url(#adv-clip-down)"}),
                   svg("polyline", {"points": outline, "class": "adv-line", "fill": "none"}))
        x_now = left + (right - left) * self.step / max(1, self.total)
        append(chart, svg("line", {"x1": f"{x_now:.1f}", "y1": top, "x2": f"{x_now:.1f}", "y2": bottom,
                                   "class": "review-now", "id": "review-now"}),
               svg("text", {"x": left, "y": H - 6, "class": "tick", "text": "0"}),
               svg("text", {"x": right, "y": H - 6, "class": "tick", "text-anchor": "end", "text": str(self.total)}))
        at = {k: y for k, _, y in pts}
        for (ply, klass), words in zip(marks, mark_words):
            x = left + (right - left) * ply / max(1, self.total)
            append(chart, svg("circle", {"cx": f"{x:.1f}", "cy": f"{at.get(ply, zero):.1f}", "r": "5",
                                         "class": f"adv-mark c-{klass}", "data-ply": str(ply)},
                              svg("title", {"text": words})))

        def on_click(event: Any) -> None:  # a click (or tap) on the chart goes to the nearest move
            rect = chart.getBoundingClientRect()
            if float(rect.width) <= 0:
                return
            x = (float(event.clientX) - float(rect.left)) / float(rect.width) * W
            self.go(review_model.step_at(x, left, right, self.total))

        self.gp.view_scope.on(chart, "click", on_click)
        return chart

    def chart_legend(self) -> Any:
        t = self.t
        return h("ul", {"class": "legend review-legend"}, *[
            h("li", {}, svg("svg", {"viewBox": "0 0 12 12", "width": "12", "height": "12", "aria-hidden": "true"},
                            svg("circle", {"cx": 6, "cy": 6, "r": 5, "class": f"adv-mark c-{klass}"})),
              f" {t(f'review.class.{klass}')}")
            for klass in review_model.MARKED])

    def chart_table(self, values: list[float | None]) -> Any:
        t, scope = self.t, self.gp.view_scope
        known = self.known()
        rows = []
        for k in range(self.total + 1):
            go = h("button", {"type": "button", "class": "link-button", "text": str(k),
                              "aria-label": t("review.chart.go", n=k), "on_click": lambda _e, k=k: self.go(k)},
                   scope=scope)
            m = review_model.move_in(known, k)
            klass = m.klass if m is not None and m.analysed else None
            rows.append(h("tr", {"aria-current": "step" if k == self.step else None}, h("th", {"scope": "row"}, go),
                          h("td", {"text": review_model.number(values[k], t.lang)}),
                          h("td", {"text": t(f"review.class.{klass}") if klass else ""})))
        return h("table", {"class": "data", "id": "review-chart-table"},
                 h("thead", {}, h("tr", {}, h("th", {"scope": "col", "text": t("review.col.move")}),
                                  h("th", {"scope": "col", "text": self.chart_title()}),
                                  h("th", {"scope": "col", "text": t("review.col.class")}))),
                 h("tbody", {}, *rows))

    def summary(self) -> Any:
        """Each player's moves by class: one column per player and a row per figure, so that it fits a
        phone's width with up to four players (a column per class did not)."""
        if self.analysis is None:
            return None
        t = self.t
        players = self.analysis.summary
        head = h("tr", {}, h("td", {}), *[h("th", {"scope": "col", "data-seat": str(s.seat),
                                                   "text": self.seat_name(s.seat)}) for s in players])
        figures: list[tuple[str, list[str]]] = [
            (t("review.col.analysed"), [str(s.analysed) for s in players]),
            (t("review.col.mean"), [review_model.number(s.mean_loss, t.lang) for s in players]),
            *[(t(f"review.class.{k}"), [str(s.classes.get(k, 0)) for s in players]) for k in CLASSES]]
        rows = [h("tr", {}, h("th", {"scope": "row", "text": label}), *[h("td", {"text": c}) for c in cells])
                for label, cells in figures]
        return h("section", {"class": "panel review-summary", "aria-labelledby": "review-summary-title"},
                 h("h2", {"id": "review-summary-title", "text": t("review.summary")}),
                 h("table", {"class": "scores review-summary-table", "id": "review-summary",
                             "aria-labelledby": "review-summary-title"},
                   h("thead", {}, head), h("tbody", {}, *rows)))

    # --- computing -------------------------------------------------------------------------------
    async def run(self) -> None:
        from web.ui.slices import run_in_slices

        if self.progress is not None or self.record is None:
            return
        progress = Progress(0, self.total)
        self.progress, self.cancelled, self.status = progress, False, None
        self.shown_live, self.live_at = 0, 0.0
        self.redraw()
        started = self.started = time.perf_counter()
        # for the bench: where the analysis starts on the page's clock (its long tasks are counted from there)
        document.body.setAttribute("data-analysis-start", str(round(float(window.performance.now()))))
        longest = [0.0]
        last = [time.perf_counter()]

        def wanted() -> bool:
            now = time.perf_counter()
            longest[0] = max(longest[0], now - last[0])
            last[0] = now  # what is drawn here counts in the next stretch, as the browser waits for it too
            if self.gp.closed or self.cancelled:
                return False
            bar = document.getElementById("review-progress")
            if bar:
                bar.value = progress.done
                label = document.getElementById("review-progress-text")
                if label:
                    label.textContent = self.t("review.progress", done=progress.done, total=progress.total)
            self.live(progress, now)
            return True

        try:
            lexicon = None
            if self.game == "scarabeo":  # the page loads the lexicon in the background: wait for it
                from web.ui import wordcheck

                await wordcheck.lexicon()
                lexicon = engines.FACTORY_KWARGS.get("scarabeo", {}).get("word_list")
            steps = review_model.analyse_steps(self.record, self.scope, progress, lexicon)
            done, result = await run_in_slices(steps, wanted)
        except Exception as err:  # the engine failing must leave the review as it was, and say so
            window.console.warn(f"analysis: {err!r}")
            self.progress = None
            self.status = str(self.t("review.failed", error=str(err)[:200]))
            self.redraw()
            return
        self.progress = None
        if not done:
            if not self.gp.closed:
                self.status = str(self.t("review.cancelled"))
                self.redraw()
            return
        seconds = time.perf_counter() - started
        document.body.setAttribute("data-analysis-ms", str(round(seconds * 1000)))
        document.body.setAttribute("data-analysis-longest-ms", str(round(longest[0] * 1000)))
        self.analysis, self.from_cache, self.refused = result, False, None
        review_model.remember(self.session.meta, result)
        try:
            self.session.autosave()
        except StorageError as err:
            self.app.storage_error(err)
        self.status = str(self.t("review.done", seconds=review_model.number(round(seconds, 1), self.t.lang)))
        self.redraw()

    def live(self, progress: Progress, now: float) -> None:
        """Show the moves analysed since the last time, without drawing the page again: their classes
        in the list, the chart (at most every ``LIVE_EVERY`` s), the move on the board once it is
        analysed. Stepping through the moves meanwhile redraws the page from the same analysis."""
        moves = progress.moves
        count = len(moves)
        if count <= self.shown_live or self.gp.closed:
            return
        current_came = self.shown_live < self.step <= count
        if not current_came and now - self.live_at < LIVE_EVERY and count < self.total:
            return
        if not self.shown_live:  # for the bench: how soon the first move is on the chart
            document.body.setAttribute("data-analysis-first-ms", str(round((now - self.started) * 1000)))
        for m in moves[self.shown_live:count]:
            button = document.querySelector(f"#review-moves [data-ply='{m.ply}']")
            badge = self.badge(m)
            if button and badge is not None:
                append(button, badge)
        self.shown_live, self.live_at = count, now
        old = document.getElementById("review-chart")
        if old:
            old.replaceWith(self.chart_svg(self.line()))
        details = document.getElementById("review-chart-details")
        table = document.getElementById("review-chart-table")
        if details and table and details.open:
            table.replaceWith(self.chart_table(self.line()))
        if current_came:
            detail = document.getElementById("review-detail")
            if detail:
                detail.replaceWith(self.detail())
            best = document.getElementById("review-best")
            if best:
                best.disabled = self.best_alternative() is None

    def cancel(self) -> None:
        self.cancelled = True


def show_review(gp: Any, save_id: str) -> None:
    """Mount the review on the game page ``gp`` (its ``closed`` flag stops an analysis when the
    player leaves; ``gp.session`` stays None, so no play-page hook runs)."""
    try:
        review = Review(gp, save_id)
    except Exception as err:  # a save is outside data: whatever fails, it is shown as damaged
        gp.show_broken(err, save_id)
        return
    gp.review = review
    review.mount()
