"""Today's challenge in the page: the chooser's section, the puzzle launcher (``#/daily/<game>``),
the attempt played on the game's own page, the result with its share text, and the streaks
section of Statistics.

The puzzles come from ``game.daily.generate_one`` run in slices on the device (never freezing the
page) and are cached for the day (``web.platform.daily_store``). An attempt is an ordinary save whose record
meta carries ``daily`` (``daily_store.daily_meta``), so it is listed under Continue, can be shared
and reviewed; the game page is the game's own (``DailyPage`` narrows ``GamePage``: the puzzle's
end, the computer's perfect answers in Thot, no hints, no take-back). Nothing here decides a rule:
moves go through the engine, and the result is read from its scores.
"""

from __future__ import annotations

import asyncio
import datetime
from typing import Any, Callable, Generator

from pyscript import document, window

from game import daily
from web.pages.play import GamePage
from web.platform import daily_store as ds
from web.platform import engines, router
from web.platform.i18n import date_text, signed
from web.platform.session import Seat, Session
from web.platform.storage import Save, StorageError
from web.ui import vdom
from web.ui.dom import append, h
from web.ui.slices import run_in_slices

HINT_BUTTONS = ("sc-hint", "thot-hint", "sy-hint")
#: The games' own end panels, which a daily attempt's one end (its banner) replaces.
END_PANELS = "#sy-end, .thot-end, .sc-end"


# --- the day ----------------------------------------------------------------------------
def local_today() -> datetime.date:
    """The device's local date (the browser's, not UTC)."""
    now = window.Date.new()
    return datetime.date(int(now.getFullYear()), int(now.getMonth()) + 1, int(now.getDate()))


def puzzle_day(app: Any) -> datetime.date:
    """The day whose puzzles are shown: ``?date=YYYY-MM-DD`` on the route (a past puzzle, a shared
    date, the tests), else the test hook ``scarab:daily:date`` when present and valid, else today."""
    asked = ds.parse_date(app.route.query.get("date"))
    if asked is not None:
        return asked
    try:
        override = ds.parse_date(app.store.kv.get(ds.DATE_OVERRIDE_KEY))
    except Exception:
        override = None
    return override or local_today()


def number_of(day: datetime.date) -> int | None:
    try:
        return daily.puzzle_number(day)
    except ValueError:
        return None


def date_query(app: Any, day: datetime.date) -> str:
    """The date carried on a link when the page was opened for another day than today."""
    return f"?date={day.isoformat()}" if "date" in app.route.query else ""


# --- the chooser's section ----------------------------------------------------------------
def chooser_section(app: Any) -> vdom.VNode:
    """The chooser's section of today's challenge, as a view tree (web/ui/vdom.py)."""
    t, vh = app.t, vdom.h
    day = puzzle_day(app)
    number = number_of(day)
    title = vh("h2", {"id": "daily-title", "text": t("daily.title")})
    if number is None:
        return vh("section", {"class": "daily", "id": "daily", "aria-labelledby": "daily-title"}, title,
                  vh("p", {"class": "muted", "text": t("daily.before", first=date_text(daily.FIRST_DAY, t.lang))}))
    stamp = int(window.Date.new(day.year, day.month - 1, day.day).getTime())
    when = app.when(stamp, date_only=True) if hasattr(app, "when") else date_text(day, t.lang)
    attempts = ds.load_attempts(app.store.kv)
    cards = []
    for game in ds.GAMES:
        entry = ds.counted(attempts, day.isoformat(), game)
        name = t(f"game.{game}.name")
        status = (t("daily.card.done", percent=entry["percent"]) if entry else t("daily.card.todo"))
        href = router.href("daily", game) + date_query(app, day)
        cards.append(vh("article", {"class": "card daily-card", "data-daily": game},
                        vh("h3", {"text": t(f"daily.kind.{game}")}),
                        vh("p", {"class": "daily-game", "text": f"{name} · #{number}"}),
                        vh("p", {"class": "daily-status", "text": status}),
                        vh("p", {"class": "daily-marks", "aria-hidden": "true", "text": entry["marks"]}) if entry else None,
                        vh("a", {"class": "button primary" if not entry else "button", "href": href,
                                 "id": f"daily-open-{game}",
                                 "aria-label": f"{t('daily.open.done' if entry else 'daily.open')}: {name} #{number}",
                                 "text": t("daily.open.done" if entry else "daily.open")}), key=game))
    return vh("section", {"class": "daily", "id": "daily", "aria-labelledby": "daily-title"}, title,
              vh("p", {"class": "muted", "id": "daily-number", "data-number": str(number),
                       "text": t("daily.number", number=number, date=when)}),
              vh("div", {"class": "cards daily-cards"}, cards))


# --- the launcher: #/daily/<game> -----------------------------------------------------------
def view(app: Any) -> None:
    """Open the day's attempt of a game: the counted one (its result), an unfinished one, or a new
    one from the day's puzzle (computed here, with a visible state, when not cached)."""
    t = app.t
    game = str(app.route.game)
    day = puzzle_day(app)
    number = number_of(day)
    status = h("p", {"class": "thinking", "role": "status", "id": "daily-status", "text": t("daily.preparing")})
    section = h("section", {"class": "daily-page", "id": "daily-page"},
                h("h1", {"text": t("daily.page.title", game=t(f"game.{game}.name"), number=number or "—")}), status)
    append(app.root, section)
    if number is None:
        status.textContent = t("daily.before", first=date_text(daily.FIRST_DAY, t.lang))
        status.className = "error"
        return
    # a friend's result from their share link (``?r=``): kept with the attempt, shown after it
    friend = ds.parse_friend(app.route.query.get("r"))
    asyncio.ensure_future(_launch(app, game, day, status, again=app.route.query.get("again") == "1",
                                  friend=friend))


def _saves_of(app: Any, day: str, game: str) -> list[tuple[Save, dict[str, Any]]]:
    found = []
    for save in app.store.list():
        if isinstance(save, Save) and save.game == game:
            d = ds.daily_meta(save.state.get("meta"))
            if d is not None and d["date"] == day and d["game"] == game and not d["received"] \
                    and not save.state.get("meta", {}).get("replay"):
                found.append((save, d))
    return found


async def _launch(app: Any, game: str, day: datetime.date, status: Any, again: bool,
                  friend: dict[str, Any] | None = None) -> None:
    hash_ = app.route_hash

    def wanted() -> bool:  # the player may leave while it computes
        return bool(app.route_hash == hash_)

    key = day.isoformat()
    try:
        if not again:
            entry = ds.counted(ds.load_attempts(app.store.kv), key, game)
            saves = _saves_of(app, key, game)
            counted_save = next((s for s, _ in saves if entry and s.id == entry["save"]), None)
            unfinished = next((s for s, d in saves if not d["again"] and not _finished(s, d)), None)
            target = counted_save or unfinished
            if target is not None:
                _remember_friend(app, target, friend)
                window.location.replace(router.href(game, "play", target.id))
                return
        puzzle = await prepare_puzzle(app, game, day, wanted)
        if puzzle is None or not wanted():
            return
        session = start_session(app, puzzle, again or ds.counted(ds.load_attempts(app.store.kv), key, game) is not None,
                                friend)
    except StorageError as err:
        app.storage_error(err, "new")
        return
    except Exception as err:  # the puzzle failing must say so and leave the site working
        window.console.warn(f"daily puzzle: {err!r}")
        status.textContent = t_error(app, err)
        status.className = "error"
        status.setAttribute("role", "alert")
        return
    window.location.replace(router.href(game, "play", session.save.id))


def _remember_friend(app: Any, save: Save, friend: dict[str, Any] | None) -> None:
    """A friend's shared result, kept with this device's attempt of the same puzzle (shown once
    the attempt is over); never fails the launch."""
    meta = save.state.get("meta")
    if friend is None or not isinstance(meta, dict) or not isinstance(meta.get("daily"), dict):
        return
    try:
        app.store.update(save, {**save.state, "meta": {**meta, "daily": {**meta["daily"], "friend": friend}}})
    except StorageError as err:
        window.console.warn(f"daily: the friend's result was not kept: {err}")


def t_error(app: Any, err: BaseException) -> str:
    return str(app.t("daily.failed", error=(str(err) or type(err).__name__)[:200]))


def _finished(save: Save, d: dict[str, Any]) -> bool:
    moves = save.state.get("moves")
    n = len(moves) if isinstance(moves, list) else 0
    if d["game"] != "scarabya":
        return ds.puzzle_over(d, n, False)
    from web.platform import engines

    try:
        return bool(engines.replay(save.state).is_over())
    except Exception:
        return True  # a save that does not replay is not resumed as today's attempt


async def _lexicon() -> Any:
    from web.platform import engines
    from web.ui import wordcheck

    await wordcheck.lexicon()
    lex = engines.FACTORY_KWARGS.get("scarabeo", {}).get("word_list")
    if lex is None:
        raise RuntimeError("the lexicon is not available")
    return lex


async def prepare_puzzle(app: Any, game: str, day: datetime.date, wanted: Callable[[], bool]) -> dict[str, Any] | None:
    """The day's puzzle: from the cache, or computed in slices (and cached); None if the player left."""
    key = day.isoformat()
    cached = ds.read_puzzle(app.store.kv, key, game)
    if cached is not None:
        return cached
    lex = await _lexicon() if game == "scarabeo" else None
    started = window.performance.now()
    done, puzzle = await run_in_slices(daily.generate_one(game, day, lex), wanted)
    if not done:
        return None
    ms = window.performance.now() - started
    document.body.setAttribute("data-daily-ms", f"{game}:{ms:.0f}")
    window.console.log(f"daily {game} {key}: generated in {ms:.0f} ms")
    import json

    stored: dict[str, Any] = json.loads(json.dumps(puzzle))  # the cached form exactly (tuples as lists)
    ds.write_puzzle(app.store.kv, stored)
    return stored


def _thot_start(puzzle: dict[str, Any]) -> Any:
    """The Thot puzzle's game: the seeded game replayed up to the puzzle (the engine's own moves),
    so the attempt is an ordinary record from the game's start; checked against the puzzle."""
    from game.core import Rng
    from game.daily import thot as dthot
    from game.thot.search import greedy_move

    state = dthot.candidate(puzzle["seed"])
    rng = Rng(puzzle["seed"] ^ dthot.GO_ON)
    for _ in range(puzzle["turns_on"]):
        state.push(greedy_move(state, rng))
    if state.position() != puzzle["position"]:
        raise ValueError("the Thot puzzle does not match its game")
    return state


def start_session(app: Any, puzzle: dict[str, Any], again: bool, friend: dict[str, Any] | None = None) -> Session:
    """A new saved attempt of ``puzzle`` (``again``: a replay, not counted; ``friend``: the result of
    the friend whose link opened it, shown after the attempt)."""
    from web.platform import engines

    t = app.t
    game = puzzle["game"]
    you = Seat(t("daily.you"))
    title = t("daily.save.title", game=t(f"game.{game}.name"), number=puzzle["number"])
    prefix: list[str] = []
    top: list[dict[str, Any]] = []
    line: list[str] = []
    plies = 0
    if game == "scarabeo":
        options: dict[str, Any] = {"position": puzzle["position"]}
        seed = puzzle["seed"]
        state = engines.factory(game)(options, seed)
        best = puzzle["best"]["score"]
        top = [{"move": p["move"], "score": p["score"]} for p in puzzle["top"]]
    elif game == "thot":
        state = _thot_start(puzzle)
        options, seed = state.options(), state.seed
        prefix = [state.move_text(m) for m in state.history()]
        best = puzzle["points"]
        line = list(puzzle["line"])
        plies = puzzle["plies"]
    else:
        options = {"players": 1, "layout": puzzle["layout"], "deck": puzzle["deck"]}
        seed = puzzle["seed"]
        state = engines.factory(game)(options, seed)
        best = puzzle["best"]["score"]
        line = list(puzzle["best"]["placements"])
    me = state.to_move()
    seats = [you]
    if state.num_players == 2:
        from web.ui import registry

        views = registry.get(game)
        levels = (getattr(views.ui, "LEVELS", ()) if views is not None else ()) or (2,)
        computer = Seat(t("daily.computer"), True, levels[-1])
        seats = [you, computer] if me == 0 else [computer, you]
    session = Session.create(app.store, game, options, seed, seats, title)
    for text in prefix:
        session.state.push(session.state.parse_move(text))
    session.meta["daily"] = {"game": game, "date": puzzle["date"], "number": puzzle["number"], "start": len(prefix),
                             "me": me, "best": best, "plies": plies, "base": list(session.state.view()["scores"]),
                             "top": top, "line": line, "again": again}
    if friend is not None:
        session.meta["daily"]["friend"] = friend
    session.autosave()
    return session


# --- the attempt on the game's page ---------------------------------------------------------
def top_item(t: Any, move: str, score: int, lexicon: Any = None) -> str:
    """One of the best plays in words: "C15 PN — 42 points (PN: abbreviation of Pordenone)". A play
    whose word is one of the rulebook's abbreviations says what it stands for: "PN" alone means
    nothing to a player (``lexicon`` is Scarabeo's, once loaded; without it the play as it is)."""
    text = str(t.plural("daily.top.item", score, move=move, score=signed(score, plus=False)))
    word = move.split()[-1] if move.split() else ""
    meaning = lexicon.abbreviation(word) if lexicon is not None and word else None
    return f"{text} ({t('daily.top.abbreviation', word=word.upper(), meaning=meaning)})" if meaning else text


class DailyUI:
    """The game's own interface, with the puzzle's computer (Thot: the perfect answer over the
    plies left) and no take-back; everything else is the game's."""

    def __init__(self, base: Any) -> None:
        self._base = base

    def __getattr__(self, name: str) -> Any:
        return getattr(self._base, name)

    def can_take_back(self, page: Any) -> bool:
        return False

    def computer(self, page: Any, level: int) -> Generator[float | None, None, str]:
        session = page.session
        d = page.daily
        if d is None or d["game"] != "thot":
            result: str = yield from self._base.computer(page, level)
            return result
        from game.daily import thot as dthot

        yield None
        state = session.state.copy()
        left = d["plies"] - (len(session.state.history()) - d["start"])
        move = dthot.reply(state, left)
        if move is None:
            raise ValueError("no move")
        return str(session.state.move_text(move))


class DailyPage(GamePage):
    @property
    def daily(self) -> dict[str, Any] | None:
        return ds.daily_meta(self.session.meta) if self.session is not None else None

    def over(self) -> bool:
        d = self.daily
        s = self.session
        return d is not None and s is not None and ds.puzzle_over(d, len(s.state.history()), s.state.is_over())

    def counts_in_stats(self) -> bool:
        return False  # a daily attempt has its own results (streaks), never among the games played

    def title_text(self) -> str:
        if self.over():  # past the puzzle's end nothing is to be played, though the game goes on
            puzzle = self.t("daily.page.title", game=self.t(f"game.{self.ui.GAME}.name"),
                            number=self.daily["number"] if self.daily else "—")
            return str(self.t("title.over", game=puzzle))
        return super().title_text()

    def commit(self, move_text: str, by_computer: bool = False) -> bool:
        if self.over():
            self.show_message(self.t("daily.over"), error=True)
            return False
        return super().commit(move_text, by_computer)

    def after_move(self, move_text: str, result: Any) -> None:
        if self.over():
            self.finish()
            self.show_end = True  # the next drawing brings the result and its share text into view
        super().after_move(move_text, result)

    def maybe_computer(self) -> None:
        if not self.over():
            super().maybe_computer()

    def redraw(self) -> None:
        super().redraw()
        if self.closed or self.session is None or self.needs_cover():
            return
        # a hint would give the answer away, and so would the review's analysis of a move of an
        # attempt still going on (the best alternatives are the answer's moves)
        for node_id in HINT_BUTTONS + (() if self.over() else ("review",)):
            node = document.getElementById(node_id)
            if node:
                node.remove()
        d = self.daily
        if d is not None and d["game"] == "thot":
            self.label_setup(d["start"])
            if self.over() and not self.session.state.is_over():
                self.marks_off()
        if d is not None and self.over() and not self.session.state.is_over():
            status = document.getElementById("sc-status")  # it said the computer is to play
            if status:
                status.textContent = self.t("daily.over")
        try:
            banner = self.daily_banner()
        except Exception as err:  # the banner must never take the game down
            window.console.warn(f"daily banner: {err!r}")
            return
        self.root.insertBefore(banner, self.root.firstChild)
        if self.over():
            # one end: the banner's result, share text and ways on; the game's own end panel (its
            # Play again, its personal best) is not the puzzle's
            for node in list(self.root.querySelectorAll(END_PANELS)):
                node.remove()
            if getattr(self, "show_end", False):
                self.show_end = False
                from pyscript.ffi import to_js

                banner.scrollIntoView(to_js({"block": "start"}))

    def label_setup(self, start: int) -> None:
        """The seeded moves before the puzzle are its setup, nobody's choice: the log says so
        (the view names the seats, which are You and the Computer only from the puzzle on)."""
        items = list(document.querySelectorAll("#thot-log li:not(.muted)"))
        for li in items[max(0, len(items) - start):]:  # latest first: the setup is at the end
            notation = li.querySelector(".movelog-notation")  # the move's notation, beside its words
            move = str(notation.textContent) if notation else str(li.textContent)
            li.textContent = self.t("daily.setup.move", move=move)
            li.classList.add("daily-setup")

    def marks_off(self) -> None:
        """Past the puzzle's end nothing is to be played, though the game itself goes on: the
        view's move marks (and the priest's line) go, from the squares and from their names."""
        kinds = ("legal", "turn", "stop", "drop")
        words = [f", {self.t(f'thot.mark.{k}')}" for k in kinds]
        for cell in list(document.querySelectorAll(", ".join(f"#thot-board .mark-{k}" for k in kinds))):
            for k in kinds:
                cell.classList.remove(f"mark-{k}")
            label = str(cell.getAttribute("aria-label") or "")
            for w in words:
                label = label.replace(w, "")
            cell.setAttribute("aria-label", label)
            dot = cell.querySelector(".dot")
            if dot:
                dot.remove()
        for node in list(document.querySelectorAll("#thot-board .line, #thot-board .on")):
            node.classList.remove("line")
            node.classList.remove("on")
        status = document.getElementById("thot-status")
        if status:  # it said whose turn it is and along which line
            status.textContent = self.t("daily.over")

    # --- the result ---------------------------------------------------------------------
    def outcome(self) -> dict[str, Any]:
        assert self.session is not None
        d = self.daily
        assert d is not None
        score = ds.result_score(d, list(self.session.state.view()["scores"]))
        pct = ds.percent(score, d["best"])
        return {"score": score, "best": d["best"], "percent": pct, "marks": self.marks(pct)}

    def marks(self, pct: int) -> str:
        d = self.daily
        assert d is not None and self.session is not None
        if d["game"] != "thot":
            return ds.bar_marks(pct)
        cached = getattr(self, "_thot_marks", None)
        if cached is not None:
            return str(cached)
        self._thot_marks = ds.move_marks(thot_losses(self.session, d))
        return self._thot_marks

    def finish(self) -> None:
        """The attempt just ended here: count it when it is the puzzle's first."""
        assert self.session is not None
        d = self.daily
        if d is None or not ds.counts(d) or self.session.replay_only or self.app.embed:
            return  # a replay, an attempt received in a link, one whose answer was shown: never counted
        out = self.outcome()
        data = ds.load_attempts(self.app.store.kv)
        entry = {"date": d["date"], "game": d["game"], "number": d["number"], "percent": out["percent"],
                 "score": out["score"], "best": out["best"], "marks": out["marks"], "save": self.session.save.id}
        try:
            if ds.record_attempt(data, entry):
                ds.save_attempts(self.app.store.kv, data)
        except StorageError as err:
            self.app.storage_error(err, "stats")
        except ValueError as err:
            window.console.warn(f"daily attempt not recorded: {err!r}")

    def counted_here(self) -> bool:
        d = self.daily
        assert d is not None and self.session is not None
        entry = ds.counted(ds.load_attempts(self.app.store.kv), d["date"], d["game"])
        return entry is not None and entry["save"] == self.session.save.id

    def daily_banner(self) -> Any:
        t = self.t
        d = self.daily
        assert d is not None and self.session is not None
        game = d["game"]
        # the game's short name: the app bar names the game in full; the title is whole on a phone
        # (issue 42: "Today's challenge #1 — Scarab — the Game of Thot" was cut with "…")
        title = t("daily.page.title", game=t(f"daily.short.{game}"), number=d["number"])
        box = h("section", {"class": "daily-banner", "id": "daily-banner", "aria-labelledby": "daily-banner-title"},
                h("h2", {"id": "daily-banner-title", "text": title}))
        over = self.over()
        someone = ds.counted(ds.load_attempts(self.app.store.kv), d["date"], game)
        replay = d["again"] or (over and someone is not None and not self.counted_here())
        if d["shown"]:
            append(box, h("p", {"class": "daily-replay", "id": "daily-spoiled", "text": t("daily.answer.shown")}))
        elif self.session.replay_only or d["received"] or (over and someone is None and not d["again"]):
            # an attempt received in a link (or one this device could not count): shown, not counted
            append(box, h("p", {"class": "muted", "id": "daily-shared", "text": t("daily.shared")}))
        elif replay:
            append(box, h("p", {"class": "daily-replay", "id": "daily-replay", "text": t("daily.replay")}))
        friend = d["friend"]
        if not self.over():
            left = ""
            if game == "thot":
                done = len(self.session.state.history()) - d["start"]
                left = t("daily.thot.left", n=max(0, (d["plies"] - done + 1) // 2))
            append(box, h("p", {"class": "daily-task", "id": "daily-task",
                                "text": t(f"daily.task.{game}", best=d["best"], moves=d["plies"] // 2)}),
                   h("p", {"class": "muted", "text": left}) if left else None,
                   h("p", {"class": "muted", "id": "daily-friend-later", "text": t("daily.friend.later")})
                   if friend is not None else None)
            if d["shown"]:
                answer = self.answer_list()
                if answer is not None:
                    append(box, answer)
            else:
                append(box, h("button", {"type": "button", "id": "daily-show-answer", "text": t("daily.answer.show"),
                                         "on_click": lambda _e: asyncio.ensure_future(self.show_answer())},
                              scope=self.view_scope))
            return box
        out = self.outcome()
        result = t.plural(f"daily.result.{game}", out["score"], score=signed(out["score"], plus=False),
                          best=signed(out["best"], plus=False), percent=out["percent"])
        append(box, h("p", {"class": "daily-result", "id": "daily-result", "data-percent": str(out["percent"]),
                            "data-score": str(out["score"]), "text": result}),
               h("p", {"class": "daily-marks", "aria-hidden": "true", "text": out["marks"]}))
        if friend is not None:
            append(box, h("p", {"class": "daily-friend", "id": "daily-friend",
                                "text": t("daily.friend.result", score=friend["score"], best=friend["best"],
                                          percent=friend["percent"], marks=friend["marks"])}))
        link = self.share_link(out)
        text = ds.share_text(t("daily.share.head", game=t(f"daily.short.{game}")), d["number"],
                             t("daily.share.result", score=out["score"], best=out["best"], percent=out["percent"]),
                             out["marks"], link, t("daily.share.replay") if replay else "")
        share = h("textarea", {"id": "daily-share-text", "readonly": True, "rows": "4",
                               "aria-label": t("daily.share.label")})
        share.value = text

        def copy(_e: Any) -> None:
            share.select()
            try:
                window.navigator.clipboard.writeText(str(share.value))
            except Exception:  # no clipboard (an insecure context): the text stays selected to copy by hand
                pass
            self.app.toast(t("share.copied"))

        again = router.href("daily", game) + f"?date={d['date']}&again=1"
        append(box, h("div", {"class": "share-field"},
                      h("label", {"for": "daily-share-text", "text": t("daily.share.label")}), share,
                      h("button", {"type": "button", "id": "daily-copy", "text": t("share.copy"),
                                   "aria-label": f"{t('share.copy')}: {t('daily.share.label')}", "on_click": copy},
                        scope=self.view_scope)),
               h("div", {"class": "row"},
                 h("a", {"class": "button", "id": "daily-again", "href": again, "text": t("daily.again")}),
                 h("a", {"class": "button", "href": "#/", "text": t("nav.back")})),
               # the answer after the result and its share text, which stay in view at the end
               self.answer_list())
        return box

    def answer_list(self) -> Any:
        t = self.t
        d = self.daily
        assert d is not None
        if d["game"] == "scarabeo" and d["top"]:
            shown = getattr(self, "top_shown", None)
            items = []
            for i, p in enumerate(d["top"]):
                items.append(h("li", {}, h("button", {
                    "type": "button", "class": "daily-top-play", "id": f"daily-top-{i}", "data-move": p["move"],
                    "aria-pressed": "true" if i == shown else "false", "aria-controls": "daily-top-board",
                    "text": top_item(t, p["move"], int(p["score"]), engines.word_list("scarabeo")),
                    "on_click": lambda _e, i=i: self.show_top(i)}, scope=self.view_scope)))
            board = None
            if shown is not None and 0 <= shown < len(d["top"]):
                try:
                    board = self.top_board(d, d["top"][shown]["move"])
                except Exception as err:  # a play that does not draw leaves the list as it was
                    window.console.warn(f"daily top play: {err!r}")
            return h("div", {"class": "daily-answer"}, h("h3", {"text": t("daily.top.scarabeo")}),
                     h("p", {"class": "muted", "text": t("daily.top.show.help")}),
                     h("ol", {"class": "daily-top"}, *items), board)
        if d["game"] == "thot" and d["line"]:
            return h("p", {"class": "daily-line", "id": "daily-line",
                           "text": t("daily.top.thot", line=" ".join(d["line"]), points=d["best"])})
        if d["game"] == "scarabya" and d["line"]:
            return h("p", {"class": "daily-line", "text": t("daily.top.scarabya", line=" ".join(d["line"]),
                                                             score=d["best"])})
        return None

    def show_top(self, i: int) -> None:
        """Select one of the top plays to see it on the board (again: unselect it)."""
        from web.ui import registry

        self.top_shown = None if getattr(self, "top_shown", None) == i else i
        self.redraw()
        views = registry.get("scarabeo")
        if views is not None and views.center is not None:
            views.center(document.getElementById("daily-top-board"))
        button = document.getElementById(f"daily-top-{i}")
        if button:
            button.focus()

    def top_board(self, d: dict[str, Any], move: str) -> Any:
        """The puzzle's board as it was before the player's play, with ``move`` (one of the top
        plays, in the engine's notation) as ghost tiles: the review's still Scarabeo board."""
        from game.core import GameRecord
        from game.scarabeo.game import ScarabeoState
        from game.scarabeo.moves import Play
        from game.scarabeo.rules import resolve_play
        from web.platform import engines
        from web.ui import registry

        assert self.session is not None
        record = self.session.record()
        before = engines.replay_record(GameRecord(record.game, record.options, record.seed,
                                                  record.moves[:d["start"]], {}))
        play = before.parse_move(move)
        assert isinstance(before, ScarabeoState) and isinstance(play, Play)  # a top play of the puzzle
        ghost = dict(resolve_play(before.board, play))
        views = registry.get("scarabeo")
        assert views is not None and views.still_grid is not None
        board = views.still_grid(self.app, self.ui, before, self.session.seats, ghost)
        grid = board.querySelector("[role=grid]")
        label = self.t("daily.top.board", move=move)
        if grid:
            grid.setAttribute("aria-label", label)
        return h("figure", {"class": "daily-top-board sc-page", "id": "daily-top-board", "data-move": move},
                 board, h("figcaption", {"text": label}))

    def share_link(self, out: dict[str, Any] | None = None) -> str:
        """The puzzle's link (``#/daily/<game>?date=…``) with the result ``out`` when given: it
        opens the same puzzle, unplayed, on the receiver's device — never the attempt's record
        (its moves, and its meta's best plays, are the answer)."""
        d = self.daily
        assert d is not None
        site = str(window.location.href).split("#")[0].rsplit("/", 1)[0] + "/"
        query = (ds.share_query(d["date"], out["score"], out["best"], out["percent"], out["marks"])
                 if out is not None else f"date={d['date']}")
        return f"{site}{router.href('daily', d['game'])}?{query}"

    async def share(self) -> None:
        """The toolbar's Share on an attempt: the puzzle's link (with the result once it is over),
        the same as the banner's — a daily attempt never leaves the device as a game record."""
        from web.ui.dom import Scope, modal

        d = self.daily
        if d is None:
            await super().share()
            return
        t, scope = self.t, Scope()
        link = self.share_link(self.outcome() if self.over() else None)
        box = h("textarea", {"id": "share-link", "readonly": True, "rows": "3", "aria-label": t("share.link")})
        box.value = link
        body = h("div", {"class": "share"}, h("p", {"class": "muted", "text": t("daily.share.private")}),
                 h("label", {"for": "share-link", "text": t("share.link")}), box)
        try:
            await modal(t("share.title"), body, [("close", t("dialog.close"), "")], scope)
        finally:
            scope.close()

    async def show_answer(self) -> None:
        """"Show the answer" before the attempt is over: confirmed, then the attempt is marked as
        not counted (``daily.shown``) and the best plays are shown (from this device's puzzle)."""
        from web.ui.dom import Scope, modal

        t, scope = self.t, Scope()
        try:
            choice = await modal(t("daily.answer.show"), h("p", {"text": t("daily.answer.confirm")}),
                                 [("cancel", t("dialog.cancel"), ""), ("show", t("daily.answer.show"), "danger")],
                                 scope)
        finally:
            scope.close()
        if choice != "show" or self.session is None or self.closed:
            return
        daily_part = self.session.meta.get("daily")
        if isinstance(daily_part, dict):
            daily_part["shown"] = True
            try:
                self.session.autosave()
            except StorageError as err:
                self.app.storage_error(err, session=self.session)
        self.redraw()


def thot_losses(session: Any, d: dict[str, Any]) -> list[int]:
    """Points each of the player's moves lost against the best over the plies left (exact search;
    the computer's answers are perfect, so they lose nothing)."""
    from game.daily import thot as dthot
    from game.thot.state import ThotState

    moves = [session.state.move_text(m) for m in session.state.history()]
    from game.core import GameRecord
    from web.platform import engines

    record = GameRecord.of(session.state)
    start = GameRecord(record.game, record.options, record.seed, record.moves[:d["start"]], {})
    state = engines.replay_record(start)
    assert isinstance(state, ThotState)
    lost = []
    for k, text in enumerate(moves[d["start"]:d["start"] + d["plies"]]):
        left = d["plies"] - k
        me = state.to_move()
        if k % 2 == 0:
            before = dthot.solve(state, left).value
            scores = list(state.view()["scores"])
            state.push(state.parse_move(text))
            gain = state.view()["scores"][me] - scores[me]
            after = dthot.solve(state, left - 1).value if left > 1 and not state.is_over() else 0
            lost.append(before - (gain - after))
        else:
            state.push(state.parse_move(text))
        if state.is_over():
            break
    return lost


def mount_if_daily(app: Any, root: Any, route: router.Route, ui: Any) -> bool:
    """The game page of a save that is a daily attempt (``view_game`` asks first); False otherwise."""
    if route.page != "play" or not route.save_id:
        return False
    try:
        save = app.store.load(route.save_id)
    except Exception:
        return False  # the ordinary page shows what is wrong with it
    if ds.daily_meta(save.state.get("meta") if isinstance(save.state, dict) else None) is None:
        return False
    app.unmount = DailyPage(app, root, route, DailyUI(ui)).mount()
    return True


# --- Statistics: streaks and history ------------------------------------------------------
def stats_section(app: Any) -> vdom.VNode:
    from web.ui.charts import H, MARKERS, PAD, W, axes, marker, scale
    h, svg = vdom.h, vdom.svg
    t = app.t
    data = ds.load_attempts(app.store.kv)
    today = puzzle_day(app)
    section = h("section", {"class": "daily-stats", "id": "daily-stats", "aria-labelledby": "daily-stats-title"},
                h("h2", {"id": "daily-stats-title", "text": t("daily.stats.title")}))
    if not data["entries"]:
        section.append(h("p", {"class": "muted", "text": t("daily.stats.empty")}))
        return section
    rows = []
    for game in (*ds.GAMES, None):
        s = ds.streaks(data, today, game)
        name = t(f"game.{game}.name") if game else t("daily.stats.all")
        mean = "—" if s["mean"] is None else f"{s['mean']:.0f}%"
        rows.append(h("tr", {"data-daily-game": game or "all"}, h("th", {"scope": "row", "text": name}),
                      *[h("td", {"text": str(v)}) for v in (s["played"], s["current"], s["best"], mean)]))
    heads = [t(k) for k in ("daily.stats.played", "daily.stats.current", "daily.stats.best", "daily.stats.mean")]
    table = h("table", {"class": "scores stats-table", "id": "daily-streaks"},
              h("thead", {}, h("tr", {}, h("th", {"text": t("stats.game")}), *[h("th", {"text": x}) for x in heads])),
              h("tbody", {}, *rows))
    section.append(h("div", {"class": "stats-table-wrap", "tabindex": "0", "role": "region",
                              "aria-label": t("daily.stats.table")}, table))
    days = ds.history(data, today, 30)
    chart = svg("svg", {"viewBox": f"0 0 {W} {H}", "class": "chart", "role": "img",
                        "aria-labelledby": "daily-chart-title daily-chart-desc"})
    overall = ds.streaks(data, today)
    desc = t.plural("daily.chart.desc", overall["played"], played=overall["played"], current=overall["current"],
                    best=overall["best"])
    chart.append(svg("title", {"id": "daily-chart-title", "text": t("daily.chart.title")}),
           svg("desc", {"id": "daily-chart-desc", "text": desc}), *axes(100, 0, "%"))
    step = (W - 8 - PAD) / max(1, len(days) - 1)
    for i, game in enumerate(ds.GAMES):
        for k, (_d, pcts) in enumerate(days):
            if game in pcts:
                chart.append(marker(MARKERS[i % 4], PAD + k * step, scale(min(100, pcts[game]), 0, 100),
                                      f"marker series-{i}"))
    legend = h("ul", {"class": "legend"}, *[
        h("li", {}, svg("svg", {"viewBox": "0 0 16 16", "width": "16", "height": "16", "aria-hidden": "true"},
                        marker(MARKERS[i % 4], 8, 8, f"marker series-{i}")), f" {t(f'game.{g}.name')}")
        for i, g in enumerate(ds.GAMES)])
    played_days = [(d, p) for d, p in days if p]
    data_table = h("table", {"class": "data"},
                   h("thead", {}, h("tr", {}, h("th", {"text": t("daily.stats.date")}),
                                    *[h("th", {"text": t(f"game.{g}.name")}) for g in ds.GAMES])),
                   h("tbody", {}, *[h("tr", {}, h("td", {"text": date_text(d, t.lang)}),
                                      *[h("td", {"text": f"{p[g]}%" if g in p else "—"}) for g in ds.GAMES])
                                    for d, p in played_days]))
    section.append(h("figure", {"class": "chart-figure", "id": "daily-chart"},
                      h("figcaption", {"text": t("daily.chart.title")}), chart, legend,
                      h("p", {"class": "muted", "text": desc}),
                      h("details", {}, h("summary", {"text": t("stats.data")}), data_table)))
    return section


__all__ = ["DailyPage", "DailyUI", "chooser_section", "mount_if_daily", "puzzle_day", "stats_section", "view"]
