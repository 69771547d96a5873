"""Shared machinery of every game page.

A game's views (``web/games/<game>/``, registered by the shell in ``web.ui.registry``) draw its board and turns clicks into moves in the
engine's notation; everything else lives here, once: the new-game form (seats, computer levels,
seed), opening a save, committing a move and reporting the engine's refusal, autosave, the computer's
turn run in short slices so the page never freezes, the pass-and-play cover that hides private
information, take-back, and the end of the game.
"""

from __future__ import annotations

import asyncio
from typing import Any, Callable, Iterator

from pyscript import document, window

from game.core import IllegalMove, NotationError
from web.platform import events, router
from web.platform.i18n import signed
from web.platform.session import MAX_NAME, Seat, Session, drop_unplayed, rematch_start
from web.platform.storage import StorageError
from web.ui import registry
from web.ui.context import GameUI
from web.ui.dom import Scope, append, clear, h, svg
from web.ui.slices import run_in_slices

#: How many moves in a row the message line keeps (a four-player table's three computer replies).
EVENTS_SHOWN = 3


class GamePage:
    def __init__(self, app: Any, root: Any, route: router.Route, ui: GameUI) -> None:
        self.app = app
        self.t = app.t
        self.root = root
        self.route = route
        self.ui = ui
        self.scope = Scope()
        self.view_scope = Scope()
        self.session: Session | None = None
        self.closed = False
        self.thinking = False
        self.revealed: tuple[int, int] | None = None  # (seat, moves played) the cover was lifted for
        self.selection: dict[str, Any] = {}  # the view's own transient input state (selected tile …)
        self.message: tuple[str, bool] | None = None  # (text, is_error) shown above the board
        #: The moves since a person last moved, in words (``web.platform.events``): each stays in the
        #: message line until that person's next move, so a dispute's outcome is not replaced by the
        #: computer's reply a second later, and several computer moves in a row are all read.
        self.events: list[str] = []
        self.news = True  # the move being committed is news for the message line (``commit``)
        self.notable = False  # the moves in ``events`` hold an outcome or a move for another person
        #: The guided game's last explanation (catalogue key); it survives the computer's reply.
        self.tutorial_note: str | None = None
        #: Each move said in words, by the number of moves once it was played (a take-back says what it undid).
        self.said_moves: dict[int, str] = {}
        self.asking = False  # a confirmation is open (take-back): a second tap does not open another
        self.cover_note: str | None = None  # said on the pass-and-play cover: what a take-back undid

    # --- lifecycle ------------------------------------------------------------------
    def mount(self) -> Callable[[], None]:
        # optional UI.on_resize(page): a rotated tablet or a resized window (Scarabeo's automatic zoom)
        if hasattr(self.ui, "on_resize"):
            self.scope.on(window, "resize", lambda _e: None if self.closed or self.session is None
                          else self.ui.on_resize(self))  # type: ignore[attr-defined]
        if hasattr(self.ui, "prepare"):  # optional async hook awaited first (Scarabeo loads its lexicon)
            if self.route.page == "play" and self.route.save_id:
                # meanwhile the game's resume snapshot (web/platform/snapshot.py), drawn by boot.js, waiting
                try:
                    window.scarabBoot.drawSnapshot(self.route.save_id)
                except Exception:
                    pass
            asyncio.ensure_future(self.mount_prepared())
        else:
            self.show_route()
        return self.unmount

    async def mount_prepared(self) -> None:
        try:
            await self.ui.prepare(self)  # type: ignore[attr-defined]
        except Exception as err:
            self.show_broken(err)
            return
        if not self.closed:
            self.show_route()

    def show_broken(self, err: BaseException, save_id: str | None = None) -> None:
        """A game that cannot be shown is shown as damaged — with its reason, a way to export it as
        stored and a way home — and never takes the rest of the site with it."""
        window.console.warn(f"game page: {type(err).__name__}: {err}")
        self.view_scope.close()
        self.view_scope = Scope()
        clear(self.root)
        save_id = save_id or (self.session.save.id if self.session is not None else self.route.save_id)
        reason = str(err) or type(err).__name__
        export = h("button", {"type": "button", "id": "export-damaged", "text": self.t("continue.export"),
                              "on_click": lambda _e: self.app.export_save(save_id)},
                   scope=self.view_scope) if save_id else None
        append(self.root, h("section", {"role": "alert", "class": "game-damaged", "id": "game-damaged"},
                            h("h1", {"text": self.t("play.open.failed")}),
                            h("p", {"text": reason[:500]}),
                            h("div", {"class": "row"}, export,
                              h("a", {"class": "button", "href": "#/", "text": self.t("nav.back")}))))

    def show_route(self) -> None:
        if self.route.page == "new":
            self.show_new()
        elif self.route.page == "play" and self.route.save_id:
            self.show_play(self.route.save_id)
        elif self.route.page == "tutorial":
            self.start_tutorial()
        elif self.route.page == "review" and self.route.save_id:
            from web.pages.review import show_review  # step through the moves, analyse them (web/pages/review.py)

            show_review(self, self.route.save_id)

    # --- guided first game --------------------------------------------------------------
    def start_tutorial(self) -> None:
        """Resume this game's unfinished tutorial, or start it on its fixed seed."""
        from web.platform import tutorial

        spec = registry.tutorial(self.ui.GAME)
        if spec is None:
            append(self.root, h("p", {"role": "alert", "text": self.t("tutorial.missing")}))
            return
        save_id = tutorial.find(self.app.store, self.ui.GAME)
        if save_id is None:
            try:
                title = self.t("tutorial.title", game=self.t(f"game.{self.ui.GAME}.name"))
                save_id = tutorial.start(self.app.store, spec, title, lambda key: self.t(key)).save.id
            except StorageError as err:
                self.app.storage_error(err, "new")
                return
        self.app.mark_tutorial_seen(self.ui.GAME)
        window.location.replace(router.href(self.ui.GAME, "play", save_id))

    def tutorial_progress(self) -> Any:
        from web.platform import tutorial

        if self.session is None or "tutorial" not in self.session.meta:
            return None
        spec = registry.tutorial(self.ui.GAME)
        return None if spec is None else tutorial.Progress(self.session, spec)

    def banner(self) -> Any:
        """What the page shows above the game: a resigned game's end, or the guided game's banner (a
        game by links: its links, ``web.pages.remote``)."""
        return self.resigned_banner() or self.tutorial_banner()

    def resigned_banner(self) -> Any:
        """A game the person resigned: who resigned and who won, and the way on (a new game, the
        review). The engine's own end panel never shows: the position was not played out."""
        session = self.session
        seat = getattr(session, "resigned", None)
        if session is None or seat is None:
            return None
        t, game = self.t, self.ui.GAME
        names = events.seat_names(t, game, session.seats)
        winners = session.winners()
        won = (events.winner_line(t, game, session.seats, winners[0]) if len(winners) == 1
               else t("play.winners", names=events.join(t, [names[s] for s in winners])))
        said = t.form("play.resigned", you=events.you_seat(t, session.seats) == seat, name=names[seat])
        return h("section", {"class": "panel resigned-end", "id": "resigned-end", "role": "status",
                             "aria-labelledby": "resigned-title"},
                 h("h2", {"id": "resigned-title", "class": "visually-hidden", "text": t("play.over")}),
                 h("p", {"id": "resigned-result", "text": f"{said} {won}."}),
                 h("div", {"class": "row"},
                   h("a", {"class": "button primary", "id": "resigned-again", "href": router.href(game, "new"),
                           "text": t("play.again")}),
                   h("a", {"class": "button", "id": "end-review", "text": t("review.button"),
                           "href": router.href(game, "review", session.save.id)})))

    def tutorial_banner(self) -> Any:
        progress = self.tutorial_progress()
        if progress is None:
            return None
        t = self.t
        game = self.ui.GAME
        step = progress.current()
        total = len(progress.tutorial.steps)
        note = self.tutorial_note
        parts = [h("h2", {"text": t("tutorial.heading", n=min(progress.step + 1, total), total=total)
                          if step else t("tutorial.finished")})]
        if note:
            parts.append(h("p", {"class": "tutorial-note", "id": "tutorial-note", "text": t(note)}))
        if step is not None:
            parts.append(h("p", {"class": "tutorial-task", "id": "tutorial-task", "text": t(f"{game}.tutorial.{step.key}")}))
        else:
            parts.append(h("p", {"id": "tutorial-task", "text": t(progress.tutorial.outro)}))
            parts.append(h("div", {"class": "row"},
                           h("a", {"class": "button primary", "href": router.href(game, "new"), "text": t("game.new")}),
                           h("a", {"class": "button", "href": router.href(game, "rules"), "text": t("rules.link")})))
        return h("section", {"class": "tutorial-banner", "id": "tutorial", "aria-live": "polite"}, *parts)

    def unmount(self) -> None:
        if hasattr(self.ui, "unmount") and self.session is not None:  # optional: a view's last save
            self.ui.unmount(self)
        self.closed = True  # stops a computer turn in progress at its next slice
        self.view_scope.close()
        self.scope.close()
        document.title = self.t("app.title")

    # --- the tab's title ------------------------------------------------------------------
    def title_text(self) -> str:
        """Whose turn, in the tab's title, so a player in another tab sees it is theirs: "Your
        turn — Scarabeo" (the one person against the computer, or the daily's You), "Bruno to play
        — Scarabeo", "Game over — Scarabeo"."""
        assert self.session is not None
        t, session = self.t, self.session
        game = t(f"game.{self.ui.GAME}.name")
        state = session.state
        if state.is_over() or getattr(session, "resigned", None) is not None:
            return str(t("title.over", game=game))
        mover = state.to_move()
        seat = session.seats[mover]
        you = not seat.computer and (session.humans() == 1 or events.you_seat(t, session.seats) == mover)
        name = events.seat_names(t, self.ui.GAME, session.seats)[mover]
        return str(t.form("title.turn", you=you, name=name, game=game))

    def update_title(self) -> None:
        if self.session is None or self.closed:
            return
        try:
            document.title = self.title_text()
        except Exception as err:  # the title must never take the page down
            window.console.warn(f"title: {err!r}")

    # --- new game -------------------------------------------------------------------
    def show_new(self) -> None:
        """The new-game form: "You against the computer" first (one person, the others the
        computer at the ladder's middle level), or people at this device; the seats below say
        exactly who plays and can be changed one by one. Start stays in view at every size."""
        t, ui, scope = self.t, self.ui, self.scope
        game_name = t(f"game.{ui.GAME}.name")
        you_names = {text.casefold() for text in t.catalogue.get("daily.you", {}).values()}
        can_computer = bool(ui.LEVELS) and ui.MAX_PLAYERS >= 2
        level = ui.LEVELS[len(ui.LEVELS) // 2] if ui.LEVELS else 2
        count = h("select", {"id": "players", "name": "players"}, scope=scope)
        for n in range(ui.MIN_PLAYERS, ui.MAX_PLAYERS + 1):
            append(count, h("option", {"value": str(n), "text": str(n), "selected": n == max(ui.MIN_PLAYERS, 2)
                                       if ui.MAX_PLAYERS >= 2 else n == ui.MIN_PLAYERS}))
        seats_box = h("div", {"class": "seats"})
        options_box, read_options = ui.options_form(self)
        seed_field = h("input", {"type": "number", "id": "seed", "min": "0", "inputmode": "numeric",
                                 "placeholder": t("play.seed.random")})
        mode = {"value": "computer" if can_computer else "people"}

        def is_default(name: str, i: int) -> bool:
            return events.is_default_name(t, name, i) or (i == 0 and name.casefold() in you_names)

        def name_seat(i: int) -> None:
            """A seat keeps a name the player typed; a default name follows its kind: the computer
            by its level ("Computer (expert)", never "Player 2"), the one person against the
            computer or alone "You", people at this device "Player N"."""
            field = document.getElementById(f"seat-{i}-name")
            kind = document.getElementById(f"seat-{i}-kind")
            if not field or not kind or not is_default(str(field.value).strip(), i):
                return
            choice = str(kind.value)
            kinds = [str(document.getElementById(f"seat-{k}-kind").value)
                     for k in range(int(count.value)) if document.getElementById(f"seat-{k}-kind")]
            # one person at the table, against the computer or alone (Scarabya's solo): "You" in
            # every line of the game, never "Player 1" in the header and "You" at the end
            alone = sum(1 for k in kinds if not k.startswith("computer:")) == 1
            if choice.startswith("computer:"):
                field.value = events.computer_name(t, ui.GAME, int(choice.split(":")[1]))
            elif i == 0 and alone:
                field.value = t("daily.you")
            else:
                field.value = t("play.seat.default", n=i + 1)

        def name_all() -> None:
            for i in range(int(count.value)):
                name_seat(i)

        def seat_rows(_e: Any = None) -> None:
            n = int(count.value)
            existing = seats_box.querySelectorAll(".seat")
            for i in range(existing.length, n):
                kind = h("select", {"id": f"seat-{i}-kind", "aria-label": t("play.seat.kind", n=i + 1)})
                append(kind, h("option", {"value": "person", "text": t("play.person")}))
                for lv in ui.LEVELS:
                    append(kind, h("option", {"value": f"computer:{lv}",
                                              "text": t("play.computer", level=events.level_name(t, ui.GAME, lv))}))
                kind.value = f"computer:{level}" if i > 0 and mode["value"] == "computer" and can_computer else "person"
                name_field = h("input", {"type": "text", "id": f"seat-{i}-name", "maxlength": str(MAX_NAME),
                                         "value": t("play.seat.default", n=i + 1)})
                scope.on(kind, "change", lambda _e: name_all())
                append(seats_box, h("div", {"class": "seat row"},
                                    h("label", {"for": f"seat-{i}-name", "text": t("play.seat", n=i + 1)}),
                                    name_field, kind))
            for i in range(existing.length - 1, n - 1, -1):
                existing.item(i).remove()
            name_all()

        def set_mode(value: str) -> None:
            # the whole table at once; each seat can still be changed below
            mode["value"] = value
            for i in range(int(count.value)):
                kind = document.getElementById(f"seat-{i}-kind")
                if kind:
                    kind.value = f"computer:{level}" if value == "computer" and i > 0 else "person"
            name_all()

        scope.on(count, "change", seat_rows)
        modes = None
        if can_computer:
            modes = h("div", {"class": "modes", "role": "radiogroup", "aria-label": t("play.mode")})
            for value in ("computer", "people"):
                radio = h("input", {"type": "radio", "name": "mode", "id": f"mode-{value}", "value": value,
                                    "checked": value == mode["value"]})
                scope.on(radio, "change", lambda e: set_mode(str(e.target.value)))
                append(modes, h("label", {"class": "choice mode", "for": f"mode-{value}"}, radio,
                                t(f"play.mode.{value}")))

        def start(event: Any) -> None:
            event.preventDefault()
            n = int(count.value)
            seats = []
            for i in range(n):
                name = str(document.getElementById(f"seat-{i}-name").value)
                kind = str(document.getElementById(f"seat-{i}-kind").value)
                computer = kind.startswith("computer:")
                seats.append(Seat.from_json({"name": name or t("play.seat.default", n=i + 1), "computer": computer,
                                             "level": int(kind.split(":")[1]) if computer else 2}))
            raw_seed = str(seed_field.value).strip()
            seed = int(raw_seed) if raw_seed.isdigit() else self.random_seed()
            try:
                options = read_options(n)
            except ValueError as err:
                self.app.toast(str(err), error=True)
                return
            self.start_game(options, seed, seats)

        form = h("form", {"class": "new-game", "on_submit": start}, scope=scope)
        append(form,
               h("fieldset", {}, h("legend", {"text": t("play.players")}),
                 modes,
                 h("div", {"class": "row"}, h("label", {"for": "players", "text": t("play.players.count")}), count),
                 seats_box),
               options_box,
               h("fieldset", {}, h("legend", {"text": t("play.seed")}),
                 h("label", {"for": "seed", "class": "muted", "text": t("play.seed.help")}), seed_field),
               h("div", {"class": "start-row"},
                 h("button", {"type": "submit", "class": "primary", "id": "start", "text": t("play.start")})))
        append(self.root, h("section", {"class": "new-game-page"},
                            h("h1", {"text": f"{game_name} — {t('game.new')}"}),
                            self.tutorial_offer(),
                            h("p", {}, h("a", {"href": router.href(ui.GAME, "rules"), "id": "rules-link",
                                               "text": t("rules.link")})),
                            form,
                            None if self.app.embed else h(
                                "p", {"class": "remote-offer"},
                                h("a", {"class": "button", "href": router.href(ui.GAME, "remote"), "id": "remote-offer",
                                        "text": t("remote.invite.link")}),
                                h("a", {"class": "button", "href": router.href(ui.GAME, "live"), "id": "live-offer-link",
                                        "text": t("live.link")}))))
        seat_rows()

    # --- rematch ----------------------------------------------------------------------
    def can_rematch(self) -> bool:
        """A finished game played here (not a watched or received replay, a guided game, a game by
        links or a daily, which have their own ways on)."""
        s = self.session
        return (s is not None and s.state.is_over() and not s.replay_only and not s.watch
                and self.route.page == "play" and "tutorial" not in s.meta and "daily" not in s.meta)

    def rematch_button(self) -> Any:
        """The end panel's Rematch (a game's end panel places it): the same players and options,
        a new deal, the other side starts."""
        if not self.can_rematch():
            return None
        return h("button", {"type": "button", "class": "primary", "id": "rematch", "text": self.t("play.rematch"),
                            "on_click": lambda _e: self.rematch()}, scope=self.view_scope)

    def rematch(self) -> None:
        if not self.can_rematch():
            return
        assert self.session is not None
        record = self.session.record()

        def seeds() -> Iterator[int]:
            while True:
                yield self.random_seed()

        try:
            options, seats, seed = rematch_start(self.ui.GAME, record.options, record.seed,
                                                 list(self.session.seats), seeds())
        except ValueError as err:  # options an older version wrote, which this one refuses
            self.app.toast(str(err), error=True)
            return
        self.start_game(options, seed, seats)

    def random_seed(self) -> int:
        return int(window.crypto.getRandomValues(window.Uint32Array.new(1))[0])

    def start_game(self, options: dict[str, Any], seed: int, seats: list[Seat]) -> None:
        """A new game, marked unplayed until its first move: never listed under Continue (the
        page can be left and come back to, the rules read); the one unplayed before it is dropped."""
        game_name = self.t(f"game.{self.ui.GAME}.name")
        try:
            title = self.t("play.title.default", game=game_name, date=self.app.when(None, date_only=True))
            session = Session.create(self.app.store, self.ui.GAME, options, seed, seats, title, unplayed=True)
        except StorageError as err:
            self.app.storage_error(err, "new")
            return
        except ValueError as err:
            self.app.toast(str(err), error=True)
            return
        drop_unplayed(self.app.store, keep=session.save.id)
        self.app.navigate(router.href(self.ui.GAME, "play", session.save.id))

    def tutorial_offer(self) -> Any:
        """On the first visit to a game, offer its guided first game."""
        game = self.ui.GAME
        if self.app.embed or registry.tutorial(game) is None or game in self.app.settings.get("tutorials_seen", []):
            return None
        box = h("aside", {"class": "tutorial-offer", "id": "tutorial-offer", "aria-labelledby": "tutorial-offer-title"})

        def dismiss(_e: Any) -> None:
            self.app.mark_tutorial_seen(game)
            box.remove()

        append(box, h("h2", {"id": "tutorial-offer-title", "text": self.t("tutorial.offer", game=self.t(f"game.{game}.name"))}),
               h("div", {"class": "row"},
                 h("a", {"class": "button primary", "id": "tutorial-start", "href": router.href(game, "tutorial"),
                         "text": self.t("tutorial.start")}),
                 h("button", {"type": "button", "id": "tutorial-dismiss", "text": self.t("tutorial.no"),
                              "on_click": dismiss}, scope=self.scope)))
        return box

    # --- playing --------------------------------------------------------------------
    def show_play(self, save_id: str) -> None:
        try:
            self.session = Session.open(self.app.store, save_id)
        except Exception as err:  # a save is outside data: whatever fails, it is shown as damaged
            self.show_broken(err, save_id)
            return
        self.session.after_save = self.store_snapshot
        self.redraw()
        self.store_snapshot()
        self.maybe_computer()

    def store_snapshot(self) -> None:
        """Keep the game's resume snapshot, drawn by boot.js before Python starts (never fails a save)."""
        from web.platform import snapshot

        if self.session is not None and not self.closed and not getattr(self.session, "unplayed", False):
            snapshot.store(self.app.store.kv, self.app.store.prefix, self)

    def listing(self) -> Any:
        """How the Continue list names this game (kept in its resume snapshot for boot.js)."""
        from web.platform import daily_store
        from web.platform.session import listing

        if self.session is None or self.session.watch:
            return None
        try:
            return listing(self.t, self.session.game, self.session.save.title, self.session.save.state,
                           self.session.save.id, daily_store.load_attempts(self.app.store.kv))
        except Exception as err:  # a convenience: never fails the save it follows
            window.console.warn(f"listing: {err!r}")
            return None

    def redraw(self) -> None:
        if self.closed or self.session is None:
            return
        focused = document.activeElement.id if document.activeElement else None
        self.view_scope.close()
        self.view_scope = Scope()
        clear(self.root)
        self.update_title()
        if self.needs_cover():
            self.draw_cover()
            return
        try:
            append(self.root, self.app.ephemeral_note(self.session), self.banner(), self.ui.render(self))
        except Exception as err:
            self.closed = True  # no computer turn, no autosave on top of a game that cannot be drawn
            self.show_broken(err)
            return
        self.restore_focus(focused)

    #: Where focus goes when the control that had it is gone: the board's focus stop first.
    FOCUS_STOPS = ("[role=grid] [tabindex='0']", ".sy-board[tabindex]", "[data-autofocus]", "[role=grid]", "h1")

    def restore_focus(self, focused: str | None) -> None:
        """Focus follows play, without scrolling the page: back on the control that had it; but when
        that was a board square that is no longer the board's focus stop (the priest moved away, the
        computer replied), or when focus fell to the page itself (the game just started, the button
        pressed is gone after a placement), on the board's focus stop."""
        from pyscript.ffi import to_js

        quiet = to_js({"preventScroll": True})
        # getElementById gives JavaScript's null (a JsNull, not None) when the element is gone
        again = (document.getElementById(focused) or None) if focused else None
        stale_square = (again is not None and again.getAttribute("role") == "gridcell"
                        and again.getAttribute("tabindex") != "0")
        if again and not stale_square:
            again.focus(quiet)
            return
        active = document.activeElement
        if not stale_square and active and active != document.body:
            return  # focus is somewhere the player put it (the site's menu, another control): leave it
        for selector in self.FOCUS_STOPS:
            target = self.root.querySelector(selector)
            if target:
                if not target.hasAttribute("tabindex") and selector in ("[role=grid]", "h1"):
                    target.setAttribute("tabindex", "-1")
                target.focus(quiet)
                return

    # --- pass-and-play privacy --------------------------------------------------------
    def needs_cover(self) -> bool:
        s = self.session
        if s is None or not self.ui.PRIVATE or s.state.is_over() or s.humans() < 2 or s.replay_only:
            return False  # a shared replay shows no rack, so there is nothing to hide
        seat = s.state.to_move()
        if s.seats[seat].computer:
            return False
        return self.revealed != (seat, len(s.state.history()))

    def draw_cover(self) -> None:
        assert self.session is not None
        seat = self.session.state.to_move()
        name = self.session.seats[seat].name

        def reveal(_e: Any) -> None:
            assert self.session is not None
            self.revealed = (seat, len(self.session.state.history()))
            self.redraw()

        # optional UI.cover(page) -> (content or None, may_reveal): what the view adds to the cover,
        # and whether the player may show their tiles yet (Scarabeo: a pending play is disputed first)
        hook = getattr(self.ui, "cover", None)
        content, may_reveal = hook(self) if hook is not None else (None, True)
        button = h("button", {"type": "button", "class": "primary", "id": "reveal",
                              "text": self.t("play.cover.show", name=name), "on_click": reveal},
                   scope=self.view_scope) if may_reveal else None
        append(self.root, h("section", {"class": "cover", "role": "dialog", "aria-modal": "true",
                                        "aria-labelledby": "cover-title"},
                            h("h1", {"id": "cover-title", "text": self.t("play.cover.title", name=name)}),
                            h("p", {"text": self.t("play.cover.body")}),
                            # what just happened at the table (a take-back: what it undid)
                            h("p", {"class": "cover-message", "id": "cover-message", "role": "status",
                                    "text": self.cover_note}) if self.cover_note else None,
                            content, button))
        first = button
        if first is None and content is not None:  # the content's [data-autofocus], else its first button
            first = content.querySelector("[data-autofocus]") or content.querySelector("button")
        if first:
            first.focus()

    # --- moves ----------------------------------------------------------------------
    def commit(self, move_text: str, by_computer: bool = False) -> bool:
        """Play a move for the person to move; on refusal show the engine's reason and keep the board."""
        assert self.session is not None
        if getattr(self.session, "resigned", None) is not None:
            return False  # a computer's move found after the person resigned: the game is over
        if self.session.replay_only:
            self.show_message(self.t("share.replay.note"), error=True)
            return False
        state = self.session.state
        mover = None if state.is_over() else state.to_move()
        before = list(state.view()["scores"]) if mover is not None else []
        try:
            result = self.session.play(move_text)
        except (IllegalMove, NotationError) as err:
            self.show_message(str(err), error=True)
            return False
        except StorageError as err:
            self.app.storage_error(err, session=self.session)
            result = None
        progress = self.tutorial_progress()
        if progress is not None and not by_computer:
            accepted, note = progress.judge(move_text, result)
            self.tutorial_note = note
            if not accepted:
                self.selection = {}
                self.say(self.t(note))
                self.redraw()
                return False
        if not by_computer:
            self.events, self.notable = [], False
        self.cover_note = None
        # The working set's "Last move" line says the last move in words; the message line adds what
        # that line cannot: an outcome its maker could not know (a challenge, a vote, a time-out), a
        # person's move for the next person at the table, and several moves in a row. A person's own
        # plain move against the computer is not repeated to them (the live region says it).
        notable = events.is_outcome(result) or (not by_computer and self.session.humans() >= 2)
        self.news = by_computer or notable
        self.notable = self.notable or notable
        self.sound_move(mover, before, by_computer)
        self.after_move(move_text, result)
        return True

    def sound_move(self, mover: int | None, before: list[Any], by_computer: bool) -> None:
        """The move's sounds (``web.ui.sounds``): a move or a big play, your turn after the computer's, the end."""
        from web.ui import sounds

        session = self.session
        if session is None or mover is None or not sounds.enabled(self.app.settings):
            return
        try:
            after = list(session.state.view()["scores"])
            gain = int(after[mover]) - int(before[mover]) if mover < min(len(after), len(before)) else 0
        except Exception:
            gain = 0
        over = session.state.is_over()
        nxt = session.seat_to_move()
        sounds.SOUNDS.play(sounds.cues(self.ui.GAME, gain, over, nxt is not None and not nxt.computer, by_computer),
                           True)

    def halted(self) -> str | None:
        """What stops play short of the position's end, said where whose turn it is: a resignation
        (the engines know none: the position would still name a player to move), or a game between
        devices that ended or stopped on a proven cheat; None: play goes on as the rules say."""
        session = self.session
        if session is not None and getattr(session, "resigned", None) is not None and not session.state.is_over():
            return str(self.t("play.over"))
        return None

    def counts_in_stats(self) -> bool:
        """A finished game counts in Statistics (a daily attempt does not: it has its own)."""
        return True

    def after_move(self, move_text: str, result: Any) -> None:
        if self.session is not None and self.session.state.is_over() and self.counts_in_stats():
            from web.platform import stats_store

            try:
                stats_store.record_finished(self.app, self.session)
            except Exception as err:  # statistics must never break the game
                window.console.warn(f"statistics not recorded: {err!r}")
        self.selection = {}
        said = self.ui.announce(self, move_text, result)
        if self.session is not None:
            self.said_moves[len(self.session.state.history())] = said or move_text
        if said and (self.news or self.session is None or self.session.state.is_over()):
            self.events = [*self.events, said][-EVENTS_SHOWN:]
        shown = self.notable or len(self.events) >= 2 or (self.session is not None and self.session.state.is_over())
        self.message = (" ".join(self.events), False) if self.events and shown else None
        self.say(said)
        self.redraw()
        self.maybe_computer()

    def can_take_back(self) -> bool:
        """The session's rule (``Session.can_take_back``), which a view may narrow (optional
        ``UI.can_take_back(page)``: Scarabeo refuses a time-out pass and a dispute's decision)."""
        assert self.session is not None
        if not self.session.can_take_back():
            return False
        hook = getattr(self.ui, "can_take_back", None)
        return bool(hook(self)) if hook is not None else True

    def take_back(self) -> None:
        """Take back (the page's API: a view's button calls it). In pass-and-play it asks first —
        another person's move is undone, and their turn given back — and says what it undid."""
        if self.session is None or not self.can_take_back() or self.asking:
            return
        if self.session.humans() >= 2:
            asyncio.ensure_future(self.ask_take_back())
        else:
            self.do_take_back()

    # --- hints (a game between devices: web.pages.remote, where the invitation decides) ---------
    def hints_allowed(self) -> bool:
        """Whether the game's views offer a hint (their Hint control is drawn): always in a game on
        this device; in a game between devices, only where the invitation allows hints."""
        return True

    def hint_taken(self) -> bool:
        """A view is about to give a hint: whether it may (a game between devices counts it first,
        and refuses it in words where none are allowed)."""
        return True

    def hint_counts(self) -> list[int] | None:
        """The hints each seat used, shown beside the scores: None where nobody counts them (a game
        on this device; a game between devices that allows no hints)."""
        return None

    def hints_line(self) -> Any:
        """The end panel's line of hints used (a game between devices that allows them), or None."""
        return None

    def hint_badge(self, seat: int, count: int, name: str) -> Any:
        """The compact count beside a seat's score: a bulb and the number, its words (whose device
        reports it) as the title and for screen readers."""
        assert self.session is not None
        here = getattr(self.session, "seat_here", None)
        said = self.t.form("hints.seat", you=seat == here, n=count, name=name)
        bulb = svg("svg", {"class": "sl-bulb", "viewBox": "0 0 24 24", "width": "13", "height": "13",
                           "aria-hidden": "true", "focusable": "false", "fill": "currentColor",
                           "fill-opacity": ".35", "stroke": "currentColor",
                           "stroke-width": "2", "stroke-linecap": "round", "stroke-linejoin": "round"},
                   svg("path", {"d": HINT_ICON}))
        return h("span", {"class": "sl-hints", "id": f"sl-hints-{seat}", "title": said, "data-hints": str(count)},
                 h("span", {"aria-hidden": "true"}, bulb, str(count)),
                 h("span", {"class": "visually-hidden", "text": said}))

    def undone_words(self) -> str:
        """The person's move a take-back would undo, in words (as it was said when played; after a
        reload, in the engine's notation)."""
        assert self.session is not None
        state = self.session.state
        n = self.session.take_back_count()
        played = len(state.history())
        said = self.said_moves.get(played - n + 1)
        if said:  # said as a sentence; here it stands inside one ("Taken back: …, with the reply after it.")
            return said.rstrip(". ")
        try:
            return str(state.move_text(state.history()[played - n]))
        except Exception:
            return str(self.t("play.takeback.last"))

    async def ask_take_back(self) -> None:
        from web.ui.dom import modal

        assert self.session is not None
        t, scope = self.t, Scope()
        self.asking = True
        try:
            choice = await modal(t("play.takeback.ask.title"),
                                 h("p", {"id": "takeback-what", "text": t("play.takeback.ask", move=self.undone_words())}),
                                 [("cancel", t("dialog.cancel"), ""), ("takeback", t("play.takeback"), "danger")], scope)
        finally:
            scope.close()
            self.asking = False
        if choice == "takeback" and not self.closed and self.session is not None and self.can_take_back():
            self.do_take_back()

    def do_take_back(self) -> None:
        assert self.session is not None
        if not self.can_take_back():
            return
        n = self.session.take_back_count()
        what = self.undone_words()
        # who holds the device: the seat whose rack was shown (None under a cover)
        holder = self.revealed[0] if self.revealed is not None else None
        try:
            self.session.take_back()
        except StorageError as err:
            self.app.storage_error(err, session=self.session)
        hook = getattr(self.ui, "after_take_back", None)
        if hook is not None:  # optional: the view puts back what the move changed (Scarabeo's hourglass)
            hook(self)
        self.selection = {}
        played = len(self.session.state.history())
        self.said_moves = {k: v for k, v in self.said_moves.items() if k <= played}
        # what was said of the moves undone is no longer true: the message says what was undone
        self.events, self.notable = [], False
        done = (self.t("play.takeback.undone", move=what) if n == 1
                else self.t.plural("play.takeback.undone.with", n - 1, move=what))
        self.message = (done, False)
        self.cover_note = done
        # Privacy first: the seat to move again is, in pass-and-play, someone other than the
        # person holding the device; their rack is shown only after the cover ("Pass the device
        # to NAME"). Only the holder's own seat stays uncovered.
        seat = self.session.state.to_move()
        self.revealed = (seat, len(self.session.state.history())) if seat == holder else None
        self.say(done)
        self.redraw()

    def show_message(self, text: str, error: bool = False) -> None:
        self.message = (text, error)
        node = document.getElementById("play-message")
        if node:
            node.textContent = text
            node.className = "play-message error" if error else "play-message"
            node.hidden = False
        self.say(text)

    def message_box(self) -> Any:
        text, error = self.message or ("", False)
        return h("p", {"id": "play-message", "class": "play-message error" if error else "play-message",
                       "role": "alert" if error else "status", "hidden": not text, "text": text})

    def say(self, text: str) -> None:
        """Announce to screen readers through the page's live region."""
        region = document.getElementById("announce")
        if not region:  # a missing element is JS null (jsnull), not None
            region = h("div", {"id": "announce", "class": "visually-hidden", "aria-live": "polite"})
            document.body.appendChild(region)
        region.textContent = text

    # --- computer turns ---------------------------------------------------------------
    def maybe_computer(self) -> None:
        if self.session is None or self.thinking or self.session.replay_only or self.closed:
            return
        if getattr(self.session, "resigned", None) is not None:
            return
        interjects = getattr(self.ui, "computer_interjects", None)
        move_text = interjects(self) if interjects is not None else None
        if move_text:  # a computer seat's move out of turn, at once (Scarabeo: a challenge)
            self.commit(move_text, by_computer=True)  # after_move asks again
            return
        if self.session.computer_to_move() and not self.computer_waits():
            asyncio.ensure_future(self.computer_turn())

    def computer_waits(self) -> bool:
        """A view may hold the computer back (optional ``UI.computer_waits(page)``: Scarabeo's
        computer waits while the people at the table decide on a challenge)."""
        waits = getattr(self.ui, "computer_waits", None)
        return bool(waits(self)) if waits is not None else False

    async def computer_turn(self) -> None:
        assert self.session is not None
        session = self.session
        self.thinking = True
        seat = session.seat_to_move()
        assert seat is not None
        moves_before = len(session.state.history())
        self.redraw()
        try:
            await asyncio.sleep(0.05)  # let the board show "thinking" first
            steps = self.ui.computer(self, seat.level)
            done, value = await run_in_slices(
                steps, lambda: not self.closed and len(session.state.history()) == moves_before
                and getattr(session, "resigned", None) is None)  # a resignation stops the search
            if not done:
                return  # the player left the game, or the position changed under us
            move_text = str(value)
        except Exception as err:  # the computer failing must leave the game as it was, and say so
            window.console.warn(f"computer turn: {err!r}")
            self.thinking = False
            self.redraw()
            self.show_message(self.t("play.computer.failed", error=str(err)[:200]), error=True)
            return
        finally:
            self.thinking = False
        self.commit(move_text, by_computer=True)

    # --- common widgets -----------------------------------------------------------------
    def toolbar(self, *extra: Any) -> Any:
        """Take-back, export and a link home; views add their own buttons."""
        assert self.session is not None
        t = self.t
        back = h("button", {"type": "button", "id": "takeback", "text": t("play.takeback"),
                            "disabled": not self.can_take_back() or self.thinking,
                            "on_click": lambda _e: self.take_back()}, scope=self.view_scope)
        # the owner's own full copy (every rack of a private game); a watch exports as a watch
        watch = self.session.watch
        export = h("button", {"type": "button", "id": "export",
                              "text": t("continue.export" if watch else "continue.export.backup"),
                              "title": None if watch else t("continue.export.backup.help"),
                              "on_click": lambda _e: self.app.export_save(self.session.save.id)},
                   scope=self.view_scope)
        share = h("button", {"type": "button", "id": "share", "text": t("share.button"),
                             "on_click": lambda _e: asyncio.ensure_future(self.share())}, scope=self.view_scope)
        review = h("a", {"class": "button", "id": "review", "text": t("review.button"),
                         "href": router.href(self.ui.GAME, "review", self.session.save.id)})
        if self.session.replay_only:
            return h("div", {"class": "toolbar row"},
                     h("p", {"class": "replay-note", "text": t("share.replay.note")}),
                     review, share if watch else None, export)
        rules = h("a", {"class": "button", "href": router.href(self.ui.GAME, "rules"), "text": t("rules.link")})
        return h("div", {"class": "toolbar row"}, *extra, back, self.resign_button(), review, share, export, rules)

    # --- resigning against the computer -----------------------------------------------------
    def resign_button(self) -> Any:
        """Resign, where the one person plays the computer (``Session.resigner``); drawn while the
        computer thinks too, since a player who gives up should not have to wait for its move."""
        session = self.session
        if session is None or getattr(session, "resigner", lambda: None)() is None:
            return None
        return h("button", {"type": "button", "id": "resign", "class": "danger", "text": self.t("play.resign"),
                            "on_click": lambda _e: asyncio.ensure_future(self.ask_resign())}, scope=self.view_scope)

    async def ask_resign(self) -> None:
        """One confirmation (a tap too many must not lose a game), then the game ends as a loss."""
        from web.ui.dom import modal

        if self.session is None or self.asking:
            return
        t, scope = self.t, Scope()
        self.asking = True
        try:
            choice = await modal(t("play.resign.title"), h("p", {"id": "resign-what", "text": t("play.resign.ask")}),
                                 [("cancel", t("dialog.cancel"), ""), ("resign", t("play.resign"), "danger")], scope)
        finally:
            scope.close()
            self.asking = False
        session = self.session
        if choice != "resign" or self.closed or session is None or session.resigner() is None:
            return
        try:
            session.resign()
        except StorageError as err:  # the resignation holds on screen; the storage problem is said
            self.app.storage_error(err, session=session)
        if self.counts_in_stats():
            from web.platform import stats_store

            try:
                stats_store.record_finished(self.app, session)
            except Exception as err:  # statistics must never break the game
                window.console.warn(f"statistics not recorded: {err!r}")
        self.thinking = False  # a computer turn under way finds the game over and plays nothing
        self.selection = {}
        self.message = None
        banner = self.resigned_banner()
        self.say(str(banner.querySelector("#resigned-result").textContent) if banner else "")
        self.redraw()

    async def share(self) -> None:
        """The Share dialog: a link to this game (the move to send, in correspondence play) and the
        snippet that embeds the game in another site. A private game in progress is shared to be
        watched (``web.platform.share.link_for``: its public record, no rack); handing it over to be
        continued on another device is a separate choice, confirmed, and only that link carries
        every rack."""
        from web.platform import review_model
        from web.ui.dom import modal
        from web.platform.review_model import CACHE_KEY
        from web.platform.share import MAX_LINK_CHARS, AnalysisTooLong, ShareError, encode, link_for, with_analysis
        from web.platform.watch import is_private, public_of

        assert self.session is not None
        session = self.session
        t, scope = self.t, Scope()
        base = str(window.location.href).split("#")[0]
        site = base.rsplit("/", 1)[0] + "/"
        over = session.state.is_over()
        private = is_private(self.ui.GAME) and not over

        def shared_link(move: bool = False) -> str:
            if session.watch:  # a watched game is passed on as the watch it is
                from web.platform.share import encode_watch

                return encode_watch(public_of(session.state), [{"name": s.name, "computer": s.computer,
                                                                "level": s.level} for s in session.seats],
                                    session.game_id)
            return link_for(session.state, session.record(shared=True), session.game_id, move=move)

        try:
            link = f"{site}#/open?d={shared_link()}"
            link_note = t("share.link.private" if private else "share.link.public")
        except ShareError as err:
            link, link_note = "", str(err)
        game_name = t(f"game.{self.ui.GAME}.name")
        snippet = (f'<iframe src="{site}embed.html?game={self.ui.GAME}" width="400" height="600" '
                   f'title="{game_name}" style="border:0;max-width:100%"></iframe>')

        def field(value: str, field_id: str, label: str) -> Any:
            box = h("textarea", {"id": field_id, "readonly": True, "rows": "3", "aria-label": label})
            box.value = value

            def copy(_e: Any) -> None:
                box.select()
                window.navigator.clipboard.writeText(str(box.value))
                self.app.toast(t("share.copied"))

            return h("div", {"class": "share-field"}, h("label", {"for": field_id, "text": label}), box,
                     h("button", {"type": "button", "text": t("share.copy"), "aria-label": f"{t('share.copy')}: {label}",
                                  "on_click": copy}, scope=scope))

        analysis_box: Any = None  # the checkbox, when the game has an analysis to include
        link_status = h("p", {"class": "muted", "id": "share-status", "role": "status"})
        note = h("p", {"class": "muted", "id": "share-note", "text": link_note})

        def rebuild(_e: Any = None) -> None:
            # the link again, with the review's analysis as chosen
            assert self.session is not None
            link_status.textContent = ""
            try:
                record = session.record(shared=True)
                if analysis_box is not None and analysis_box.checked:
                    record = with_analysis(record, session.meta.get(CACHE_KEY), True)
                text = f"{site}#/open?d={encode(record, session.game_id)}"
            except AnalysisTooLong as err:
                analysis_box.checked = False
                link_status.textContent = t("review.share.too.long", chars=err.chars, max=MAX_LINK_CHARS)
                rebuild()
                return
            except ShareError as err:
                link_status.textContent = str(err)
                return
            document.getElementById("share-link").value = text

        confirm_box = h("div", {"class": "share-confirm", "id": "share-move-confirm", "hidden": True})

        def ask_move(_e: Any = None) -> None:
            # handing the game over: said plainly, confirmed, and only then the link with every rack
            confirm_box.hidden = False
            button = document.getElementById("share-move-yes")
            if button:
                button.focus()

        def move_here(_e: Any = None) -> None:
            confirm_box.hidden = True
            try:
                text = f"{site}#/open?d={shared_link(move=True)}"
            except ShareError as err:
                link_status.textContent = str(err)
                return
            document.getElementById("share-link").value = text
            note.textContent = t("share.move.note")
            link_status.textContent = t("share.move.done")

        move = None
        if link and private and not session.replay_only and not session.watch:
            append(confirm_box, h("p", {"role": "alert", "text": t("share.move.warning")}),
                   h("div", {"class": "row"},
                     h("button", {"type": "button", "id": "share-move-yes", "class": "danger",
                                  "text": t("share.move.confirm"), "on_click": move_here}, scope=scope),
                     h("button", {"type": "button", "id": "share-move-no", "text": t("dialog.cancel"),
                                  "on_click": lambda _e: setattr(confirm_box, "hidden", True)}, scope=scope)))
            move = h("div", {"class": "share-option"},
                     h("button", {"type": "button", "id": "share-move",
                                  "text": t("share.move.button"), "aria-describedby": "share-move-help",
                                  "on_click": ask_move}, scope=scope),
                     h("p", {"class": "muted", "id": "share-move-help", "text": t("share.move.help")}),
                     confirm_box)
        include = None
        if link and over and not session.watch:
            # The review's analysis may travel too (off by default): only a finished game's, complete.
            record = session.record()
            complete = review_model.cached(record.meta, record, review_model.Scope(True, None)) is not None
            analysis_box = h("input", {"type": "checkbox", "id": "share-analysis", "disabled": not complete,
                                       "aria-describedby": "share-analysis-help"})
            scope.on(analysis_box, "change", rebuild)
            include = h("div", {"class": "share-option"},
                        h("label", {"class": "choice"}, analysis_box, t("review.share.include")),
                        h("p", {"class": "muted", "id": "share-analysis-help",
                                "text": t("review.share.include.help" if complete else "review.share.include.none")}))
        body = h("div", {"class": "share"},
                 note,
                 include,
                 field(link, "share-link", t("share.link")) if link else None,
                 link_status,
                 move,
                 h("p", {"class": "muted", "text": t("share.embed.help")}),
                 field(snippet, "share-embed", t("share.embed")))
        try:
            await modal(t("share.title"), body, [("close", t("dialog.close"), "")], scope)
        finally:
            scope.close()

    def scoreline(self, scores: list[Any], last: str | None = None) -> Any:
        """The working set's one line of scores (the seat to move marked) and the last move's summary:
        where the full panels sit in a drawer (phones) or below the board (tablets), this line keeps
        whose turn and the scores in view."""
        assert self.session is not None
        state = self.session.state
        mover = None if state.is_over() else state.to_move()
        seats = h("ul", {"class": "scoreline-seats", "aria-label": self.t("play.scoreline")})
        names = events.seat_names(self.t, self.ui.GAME, self.session.seats)  # a computer by its level
        hints = self.hint_counts()  # a game between devices that allows hints: each seat's count
        for i, score in enumerate(scores):
            badge = self.hint_badge(i, hints[i], names[i]) if hints is not None and i < len(hints) else None
            append(seats, h("li", {"class": "to-move" if i == mover else None},
                            h("span", {"class": "sl-name", "text": names[i]}), " ",
                            h("b", {"class": "sl-score", "text": signed(score, plus=False)}),
                            " " if badge is not None else None, badge))
        if not last:
            return h("div", {"class": "scoreline", "id": "scoreline"}, seats)
        # One line, cut with "…" where it is long (a phone), and a tap on it opens the move list,
        # where the move is whole (issue 42); its name is the whole line for a screen reader.
        whole = self.t("play.last", text=last)
        line = h("button", {"type": "button", "class": "sl-last", "id": "sl-last", "text": whole, "title": whole,
                            "aria-controls": "game-drawer"}, scope=self.view_scope)
        self.view_scope.on(line, "click", lambda _e: self.show_move_list())
        return h("div", {"class": "scoreline", "id": "scoreline"}, seats, line)

    def show_move_list(self) -> None:
        """The game's move list in view: the drawer opened where it is folded (a phone), the list
        (each game marks it ``data-move-list``) scrolled into view and focused."""
        if not bool(getattr(self, "drawer_open", False)):
            button = document.getElementById("drawer-button")
            if button is not None and str(button.getAttribute("aria-expanded")) == "false":
                button.click()
        target = document.querySelector("[data-move-list]")
        if target is not None:
            target.scrollIntoView()
            target.focus()

    def drawer(self, *panels: Any) -> Any:
        """The secondary panels (score sheet, log, bag, tools): a side column where there is width,
        and on a phone behind one button (aria-expanded) so that the working set stays on one screen."""
        is_open = bool(getattr(self, "drawer_open", False))
        box = h("div", {"class": "game-drawer open" if is_open else "game-drawer", "id": "game-drawer"}, *panels)
        button = h("button", {"type": "button", "class": "drawer-button", "id": "drawer-button",
                              "aria-expanded": "true" if is_open else "false", "aria-controls": "game-drawer",
                              "text": self.t("play.more")}, scope=self.view_scope)

        def toggle(_e: Any) -> None:
            self.drawer_open = not bool(getattr(self, "drawer_open", False))
            button.setAttribute("aria-expanded", "true" if self.drawer_open else "false")
            box.classList.toggle("open", self.drawer_open)

        self.view_scope.on(button, "click", toggle)
        return h("div", {"class": "drawer-wrap"}, button, box)

    def message_line(self) -> Any:
        """The computer thinking or the last message, in one line of fixed height."""
        return h("div", {"class": "message-line"}, self.thinking_box(), self.message_box())

    def thinking_box(self) -> Any:
        if not self.thinking or self.session is None:
            return None
        state = self.session.state
        name = "" if state.is_over() else events.seat_names(self.t, self.ui.GAME, self.session.seats)[state.to_move()]
        return h("p", {"class": "thinking", "role": "status", "id": "thinking",
                       "text": self.t("play.thinking", name=name)})


#: A hint's bulb (the icon of Scarabeo's Hint button), beside a seat's score.
HINT_ICON = "M9 18h6M10 21h4M12 3a6 6 0 0 0-3.5 10.9c.6.5 1 1.2 1 2.1h5c0-.9.4-1.6 1-2.1A6 6 0 0 0 12 3z"


def mount_game(app: Any, root: Any, route: router.Route, ui: GameUI) -> Callable[[], None]:
    return GamePage(app, root, route, ui).mount()
