"""Playing a friend on another device, the moves travelling as links (issue 27; docs/remote.md "In the site").

Routes: ``#/<game>/remote`` the invitation form; ``#/<game>/remote/<save id>`` a remote game on this
device; ``#/remote?m=<payload>`` a link that came in (an invitation, an answer, a move …), applied to
the game it belongs to and then shown there.

The page only carries the protocol's messages (``game.remote`` checks every rule, order and
signature; ``web.platform.remote`` stores the device). The game is drawn by its own view
(``web/games/<game>``) on this seat's state: ``RemoteSession.computer_to_move`` is true while another
device's seat is to move, so the view's input is off, and ``seat_here`` tells whose rack to show
(Scarabeo's view is built from its masked state: the others' tiles are not on this device at all).
"""

from __future__ import annotations

import asyncio
from typing import Any, Callable

from pyscript import document, window

from game.core import IllegalMove, NotationError
from game.remote.games import MAX_PLAYERS, MIN_PLAYERS
from game.remote import ristretto
from game.remote.session import Device, Refused, game_of
from game.remote.wire import WireError, unpack
from web.pages.play import GamePage
from web.platform import events, router
from web.platform.remote import (
    LinkTransport, Outcome, RemoteSession, failure_texts, find, game_id_of, keys_texts, last_request, refusal,
    refusal_of, stop_text,
)
from web.platform.storage import StorageError
from web.ui import registry
from web.ui.context import GameUI
from web.ui.dom import Scope, append, clear, h
from web.ui.pause import sliced

#: What a page shows once it navigated to a game: (text, is_error, payload to send), by save id.
NOTICES: dict[str, tuple[str, bool, str | None]] = {}


def timed(kind: str, text: str, work: Callable[[], Outcome]) -> Outcome:
    """Run the protocol's work for one message and note its time and link length on the page, for
    ``tools/bench_remote_page.py`` (``body[data-remote-log]``: the last 50, as JSON)."""
    import json

    started = window.performance.now()
    outcome = work()
    ms = float(window.performance.now() - started)
    body = document.body
    try:
        log = json.loads(str(body.getAttribute("data-remote-log") or "[]"))
    except ValueError:
        log = []
    log.append({"kind": kind, "event": outcome.event.kind, "ms": round(ms, 1), "at": round(float(started), 1),
                "sliced": ristretto.PAUSE is not None, "in": len(text), "out": len(outcome.send or "")})
    body.setAttribute("data-remote-log", json.dumps(log[-50:]))
    return outcome


def transport() -> LinkTransport:
    base = str(window.location.href).split("#")[0].split("?")[0]
    return LinkTransport(base.rsplit("/", 1)[0] + "/")


def words() -> Any:
    """Scarabeo's word list, once ``UI.prepare`` loaded it (the other games need none)."""
    from web.platform import engines

    return engines.FACTORY_KWARGS.get("scarabeo", {}).get("word_list")


class RemotePage(GamePage):
    """A ``GamePage`` whose session is a ``RemoteSession``: moves go out as links, and come in as links."""

    session: Any
    #: The route of this page's games, and its invitation form's texts (web/pages/together.py: live play).
    PAGE = "remote"
    INVITE = "remote.invite"

    def __init__(self, app: Any, root: Any, route: router.Route, ui: GameUI, payload: str | None = None) -> None:
        super().__init__(app, root, route, ui)
        self.payload = payload
        self.send: str | None = None  # the payload to pass on now
        self.busy = False  # protocol work under way (a click meanwhile is ignored)
        self.notice: tuple[str, bool] | None = None
        #: the link shared or copied from the bottom sheet: the sheet folds away until the next link
        self.handed: str | None = None

    # --- routes ---------------------------------------------------------------------
    def show_route(self) -> None:
        # Scarabeo's page calls this from a task (after its lexicon loaded): its deal's work is
        # sliced there; elsewhere ``sliced`` is a no-op and the work (Thot, Scarabya) is short.
        with sliced():
            if self.payload is not None:
                self.open_link(self.payload)
            elif self.route.save_id:
                self.show_game(self.route.save_id)
            else:
                self.show_invite()

    def begin_work(self) -> bool:
        """One piece of protocol work at a time: False while one is under way; else "working" shown."""
        if self.busy:
            return False
        self.busy = True
        status = document.getElementById("remote-status")
        if status:
            status.textContent = self.t("remote.working")
        return True

    def working(self, run: Callable[[], Any]) -> None:
        """Run protocol work as a task of the page's event loop, sliced (``web.ui.pause``); one at a time."""
        if not self.begin_work():
            return

        async def task() -> None:
            try:
                await asyncio.sleep(0)  # "working" is drawn first
                with sliced():
                    run()
            except Exception as err:  # the last net: a line for the player, never a traceback
                window.console.warn(f"remote play: {type(err).__name__}: {err}")
                self.app.toast(self.t("remote.failed.internal", error=str(err)[:200]), error=True)
            finally:
                self.busy = False

        asyncio.ensure_future(task())

    def store_snapshot(self) -> None:
        """Never: a remote game has no resume snapshot (the rack must not be drawn before Python)."""

    # --- inviting -------------------------------------------------------------------
    def show_invite(self) -> None:
        t, ui, scope = self.t, self.ui, self.scope
        game_name = t(f"game.{ui.GAME}.name")
        low, high = max(MIN_PLAYERS, ui.MIN_PLAYERS), min(MAX_PLAYERS, ui.MAX_PLAYERS)
        count = h("select", {"id": "remote-players"})
        for n in range(low, high + 1):
            append(count, h("option", {"value": str(n), "text": str(n), "selected": n == low}))
        name = h("input", {"type": "text", "id": "remote-name", "maxlength": "40", "autocomplete": "nickname",
                           "required": True, "value": str(self.app.settings.get("remote_name", ""))})
        options_box, read_options = ui.options_form(self)
        # hints in a game between devices (issue 42): the invitation says so, signed; no by default
        hints = h("input", {"type": "checkbox", "id": "remote-hints", "aria-describedby": "remote-hints-help"})

        def invite(event: Any) -> None:
            event.preventDefault()
            self.working(make)

        def make() -> None:
            players = int(count.value)
            try:
                options = {k: v for k, v in read_options(players).items() if k not in ("players", "names")}
                device, invitation = Device.invite(ui.GAME, str(name.value), players, options, words(),
                                                   hints=bool(hints.checked))
                session = RemoteSession.create(self.app.store, device, t("remote.title", game=game_name))
            except Refused as err:  # the protocol's refusal, in the catalogue's words
                self.app.toast(said(t, err), error=True)
                return
            except ValueError as err:  # the form's own (already in the catalogue's words)
                self.app.toast(str(err), error=True)
                return
            except StorageError as err:
                self.app.storage_error(err, "new")
                return
            self.remember_name(str(name.value))
            NOTICES[session.save.id] = (t("remote.invited", n=players - 1), False, invitation)
            self.app.navigate(router.href(ui.GAME, self.PAGE, session.save.id))

        form = h("form", {"class": "new-game remote-invite", "on_submit": invite}, scope=scope)
        append(form,
               h("fieldset", {}, h("legend", {"text": t("remote.you")}),
                 h("div", {"class": "row"}, h("label", {"for": "remote-name", "text": t("remote.name")}), name),
                 h("div", {"class": "row"}, h("label", {"for": "remote-players", "text": t("play.players.count")}),
                   count)),
               options_box,
               h("fieldset", {"class": "remote-hints"}, h("legend", {"text": t("hints.legend")}),
                 h("label", {"class": "choice", "for": "remote-hints"}, hints, t("hints.allow")),
                 h("p", {"class": "muted", "id": "remote-hints-help", "text": t("hints.allow.help")})),
               h("button", {"type": "submit", "class": "primary", "id": "remote-invite", "text": t(self.INVITE)}))
        append(self.root, h("section", {"class": "new-game-page remote-page"},
                            h("h1", {"text": f"{game_name} — {t(self.INVITE + '.title')}"}),
                            h("p", {"class": "muted", "text": t(self.INVITE + ".help")}),
                            # only Scarabeo's deal has keys to reveal at the end
                            h("p", {"class": "muted", "id": "remote-trust", "text": t("remote.invite.trust")})
                            if ui.GAME == "scarabeo" else None, form))

    def remember_name(self, name: str) -> None:
        self.app.settings = {**self.app.store.settings(), "remote_name": " ".join(name.split())[:40]}
        try:
            self.app.store.save_settings(self.app.settings)
        except StorageError:  # a name not remembered is no failure
            pass

    # --- a link that came in --------------------------------------------------------
    def open_link(self, payload: str) -> None:
        store = self.app.store
        if game_of(payload) is not None:
            existing = find(store, game_id_of(payload) or "")
            if existing is not None:
                self.go(existing.id, self.t("remote.refused.played"), True, None)
                return
            self.show_accept(payload)
            return
        save = find(store, game_id_of(payload) or "")
        if save is None:
            self.refused(self.t("remote.refused.unknown"))
            return
        try:
            session = RemoteSession.open(store, save.id, words())
        except Exception as err:  # a damaged device is shown as such, never a traceback
            self.show_broken(err, save.id)
            return
        self.session = session
        try:
            outcome = timed("open", payload, lambda: session.open_message(payload))
        except Refused as err:
            text, notice = self.late_answer(err, payload)
            self.go(save.id, text, True, notice)
            return
        except StorageError as err:
            self.app.storage_error(err, session=session)
            return
        self.sound_arrival(outcome)
        self.go(save.id, self.describe(outcome), outcome.event.kind == "stopped", outcome.send)

    def late_answer(self, err: Refused, payload: str) -> tuple[str, str | None]:
        """A refusal in words and, for an answer that came when the table was full, the notice to
        send its writer (issue 42: a third person who accepted an invitation for two waited for
        ever): the inviter's link box offers it."""
        if err.key == "full" and self.session is not None:
            try:
                notice = self.session.device.full_notice(payload)
            except Refused:
                return self.refusal_text(err), None
            return str(self.t("remote.full.send", n=self.session.device.players)), notice
        return self.refusal_text(err), None

    def go(self, save_id: str, text: str, error: bool, send: str | None) -> None:
        NOTICES[save_id] = (text, error, send)
        window.location.replace(router.href(self.ui.GAME, self.PAGE, save_id))

    def refused(self, text: str) -> None:
        append(self.root, h("section", {"role": "alert", "class": "link-refused", "id": "remote-refused"},
                            h("h1", {"text": self.t("share.refused")}), h("p", {"text": text}),
                            h("a", {"class": "button", "href": "#/", "text": self.t("nav.back")})))

    def show_accept(self, payload: str) -> None:
        t, scope = self.t, self.scope
        try:
            probe = Device({"inviter": False}, payload, words())
        except Refused as err:
            self.refused(self.refusal_text(err))
            return
        game_name = t(f"game.{probe.game_name}.name")
        inviter = probe.names()[0]
        name = h("input", {"type": "text", "id": "remote-name", "maxlength": "40", "required": True,
                           "autocomplete": "nickname", "value": str(self.app.settings.get("remote_name", ""))})

        def accept(event: Any) -> None:
            event.preventDefault()
            self.working(join)

        def join() -> None:
            try:
                device, answer = Device.join(payload, str(name.value), words())
                session = RemoteSession.create(self.app.store, device, t("remote.title.with", game=game_name,
                                                                           name=inviter))
            except Refused as err:
                self.app.toast(self.refusal_text(err), error=True)
                return
            except StorageError as err:
                self.app.storage_error(err, "new")
                return
            self.remember_name(str(name.value))
            self.go(session.save.id, t("remote.accepted", name=inviter), False, answer)

        form = h("form", {"class": "remote-accept", "on_submit": accept}, scope=scope)
        append(form, h("div", {"class": "row"}, h("label", {"for": "remote-name", "text": t("remote.name")}), name),
               h("button", {"type": "submit", "class": "primary", "id": "remote-accept", "text": t("remote.accept")}))
        append(self.root, h("section", {"class": "remote-page", "id": "remote-invitation"},
                            h("h1", {"text": t("remote.invitation", name=inviter, game=game_name)}),
                            h("p", {"id": "remote-invitation-detail",
                                    "text": t.plural("remote.invitation.players", probe.players, name=inviter)}),
                            h("p", {"id": "remote-invitation-hints",
                                    "text": t("hints.invitation.yes" if probe.hints_allowed else "hints.invitation.no")}),
                            form))
        name.focus()

    # --- the game -------------------------------------------------------------------
    def show_game(self, save_id: str) -> None:
        try:
            self.session = RemoteSession.open(self.app.store, save_id, words())
        except Exception as err:  # a save is outside data: whatever fails, it is shown as damaged
            self.show_broken(err, save_id)
            return
        notice = NOTICES.pop(save_id, None)
        if notice is not None:
            text, error, self.send = notice
            self.notice = (text, error)
        self.redraw()
        if self.notice is not None:
            self.say(self.notice[0])
        self.count_in_stats()

    def count_in_stats(self) -> None:
        """A game by links counts in Statistics once over here (unverified until its keys are in)."""
        if self.session is None or not self.counts_in_stats():
            return
        from web.platform import stats_store

        try:
            stats_store.record_remote(self.app, self.session)
        except Exception as err:  # statistics must never break the game
            window.console.warn(f"statistics not recorded: {err!r}")

    def banner(self) -> Any:
        return self.panel()

    def redraw(self) -> None:
        """The game's own view under the panel (``banner``) once it started; before, a heading and the panel."""
        if self.closed or self.session is None:
            return
        if self.session.started:
            super().redraw()
            # the strip heads the game's own head: above the board on one column, at the top of
            # the side column on a wide screen (it never takes the board's height there)
            strip, head = document.getElementById("remote-panel"), self.root.querySelector(".game-head")
            if strip and head:
                head.insertBefore(strip, head.firstChild)
            return
        self.view_scope.close()
        self.view_scope = Scope()
        clear(self.root)
        # the page's one heading (the game's view has its own once the game started)
        title = f"{self.t(f'game.{self.ui.GAME}.name')} — {self.t(self.INVITE + '.title')}"
        append(self.root, h("h1", {"id": "remote-title", "text": title}), self.panel())

    def halted(self) -> str | None:
        """A game stopped on a proven cheat, or ended by a resignation or a leave: nobody is to play,
        whatever the position says."""
        if self.session is None:
            return None
        device = self.session.device
        if device.stopped is not None:
            return str(self.t("remote.status.stopped"))
        state = self.session.state_or_none()
        if device.ended is not None and state is not None and not state.is_over():
            return str(self.t("play.over"))
        return None

    def status_text(self) -> str:
        session = self.session
        shown = session.device.show()
        if shown["stopped"] is not None:
            key = "remote.status.stopped"
        elif shown["shut_out"]:
            return str(self.t("remote.status.full", name=session.device.names()[0], n=shown["players"]))
        elif shown["keys_awaited"] is not None:
            return str(self.t("remote.status.keys", name=shown["keys_awaited"]["name"]))
        elif shown["phase"] in ("joining", "over"):
            key = f"remote.status.{shown['phase']}"
        elif not session.started:
            key = "remote.status.dealing"
        elif shown.get("takeback") is not None and shown["takeback"]["your_answer"]:
            return str(self.t("remote.status.answer", name=shown["takeback"]["name"]))
        else:
            key = "remote.status.yours" if shown["your_turn"] else "remote.status.waiting"
        return str(self.t(key, name=shown["waiting_for"] or ""))

    def panel(self) -> Any:
        """Whose turn, what the last link did, the link to send now, and the remote actions.

        Once the game started (issue 37) the page is the local game page plus this one compact
        strip above its head: whose link is awaited (live: who is connected), a request to answer,
        the verification; the last link's news is said in the game's message line
        (``message_line``), the link to send lies in a sheet at the screen's foot (``sheet``), and
        the actions are the game's tools (``toolbar``, on a phone the app bar's menu) and the
        drawer's Links panel (``drawer``). Before it started, the page is this panel alone."""
        t, session, scope = self.t, self.session, self.view_scope
        started = bool(session.started)
        parts: list[Any] = [h("p", {"id": "remote-status", "class": "remote-status", "text": self.status_text()})]
        if self.notice is not None and not started:
            parts.append(self.notice_box())
        if self.send:
            parts.append(self.sheet(self.send) if started else self.send_box(self.send))
        shown = session.device.show()
        if shown.get("round_pending") and not shown["over"]:  # Ruins: the round is drawn with its opener's link
            parts.append(h("p", {"id": "remote-round-pending", "class": "hint",
                                 "text": t("remote.ruins.pending", name=shown["waiting_for"] or "")}))
        if shown["verified"] is not None or shown["failures"]:
            if shown["verified"]:
                parts.append(h("p", {"id": "remote-verified", "class": "remote-verified", "text": t("remote.verified")}))
            else:
                box = h("div", {"id": "remote-verified", "class": "remote-failed", "role": "alert"},
                        h("p", {"text": t("remote.failed")}))
                items = h("ul", {})
                for failure in failure_texts(t, shown["problems"], session.device.names(),
                                             session.seat_here):
                    append(items, h("li", {"text": failure}))
                append(box, items)
                parts.append(box)
        if shown["stopped"] is not None:
            parts.append(self.stopped_box(shown["stopped"]))
        awaited = keys_texts(t, shown)
        if awaited:
            parts.append(h("div", {"id": "remote-keys-awaited", "class": "remote-failed", "role": "status"},
                           *[h("p", {"text": line}) for line in awaited]))
        if shown.get("takeback") is not None:
            parts.append(self.request_box(shown["takeback"]))
        if shown["over"] and session.device.ended is not None:  # a resignation or a leave: no end panel
            parts.append(self.hints_line())
        if not started:
            parts.append(self.actions(shown))
            return h("section", {"class": "remote-panel", "id": "remote-panel", "aria-label": t("remote.panel")},
                     *parts)
        return h("section", {"class": "remote-panel remote-strip", "id": "remote-panel",
                             "aria-label": t("remote.panel")}, *parts)

    def notice_box(self) -> Any:
        """What the last link (or this device's own act) did, in words (``#remote-notice``)."""
        assert self.notice is not None
        text, error = self.notice
        return h("p", {"id": "remote-notice", "class": "play-message error" if error else "play-message",
                       "role": "alert" if error else "status", "text": text})

    def message_line(self) -> Any:
        """The game's message line, saying the last link's news under a message of the game's own
        (a refused play lies over it until the next act): nothing above the board grows with it."""
        line = super().message_line()
        stopped = self.session.device.stopped if self.session is not None else None
        if stopped is not None and self.notice is not None and self.notice[0] == stop_text(self.t, stopped):
            return line  # the stopped banner says it, with its evidence: not twice above the board
        if self.notice is not None and self.session is not None and self.session.started:
            line.insertBefore(self.notice_box(), line.firstChild)
            line.classList.add("has-notice")
        return line

    def drawer(self, *panels: Any) -> Any:
        """The game's panels, and the Links panel: paste a link received, why no review."""
        if self.session is None or not self.session.started:
            return super().drawer(*panels)
        return super().drawer(*panels, self.links_panel())

    def sheet(self, payload: str) -> Any:
        """The link to send, with Share and Copy, in a sheet at the screen's foot on one column (over
        the hand, never over the board: it is the others' turn), in the side column on a wide
        screen; folded away on a phone once shared or copied (``handed``), the strip's button
        showing it again."""
        t, scope = self.t, self.view_scope
        try:
            yours = bool(self.session.your_turn())
        except Exception:
            yours = False
        # on this device's turn the sheet starts folded: the rack and Play stay in view, and the
        # link made by the move carries this one's news too (docs/remote.md "Resynchronising")
        folded = self.handed == payload or yours
        box = h("section", {"class": "remote-sheet folded" if folded else "remote-sheet", "id": "remote-sheet",
                            "aria-label": t("remote.link.show")}, self.send_box(payload))
        again = h("button", {"type": "button", "id": "remote-show-link", "class": "remote-show-link",
                             "text": t("remote.link.show"), "aria-controls": "remote-sheet",
                             "aria-expanded": "false" if folded else "true"}, scope=scope)

        def unfold(_e: Any) -> None:
            box.classList.remove("folded")
            again.setAttribute("aria-expanded", "true")
            self.handed = None

        scope.on(again, "click", unfold)
        return h("div", {"class": "remote-send-strip"}, again, box)

    def handed_over(self, payload: str) -> None:
        """The link was shared or copied: the sheet folds away (on a phone) until the next link."""
        self.handed = payload
        sheet = document.getElementById("remote-sheet")
        if sheet:
            sheet.classList.add("folded")
        button = document.getElementById("remote-show-link")
        if button:
            button.setAttribute("aria-expanded", "false")

    def stopped_box(self, stop: dict[str, Any]) -> Any:
        """The game stopped on a proven cheat: who, what, and the signed messages that prove it
        (Export writes them with the game)."""
        t = self.t
        box = h("div", {"id": "remote-stopped", "class": "remote-failed", "role": "alert"},
                h("p", {"id": "remote-stopped-text", "text": stop_text(t, stop)}))
        if stop["evidence"]:
            evidence = h("details", {"id": "remote-evidence"}, h("summary", {"text": t("remote.stopped.evidence")}))
            for k, text in enumerate(stop["evidence"]):
                area = h("textarea", {"readonly": True, "rows": "3", "class": "remote-evidence",
                                      "aria-label": f"{t('remote.stopped.evidence')} {k + 1}"})
                area.value = text
                append(evidence, area)
            append(evidence, h("p", {"class": "hint", "text": t("remote.stopped.export")}))
            append(box, evidence)
        return box

    def send_box(self, payload: str) -> Any:
        t = self.t
        links = self.session.outgoing() if self.session is not None else []
        if len(links) < 2 or links[-1] != payload:
            return self.one_link_box(payload)
        # What the others may lack does not fit one link (docs/remote.md "Resynchronising"):
        # every link, in the order to send them, none hidden behind another.
        return h("div", {"class": "remote-send-several", "id": "remote-send-several"},
                 h("p", {"id": "remote-send-order", "class": "hint",
                         "text": t("remote.send.order", n=str(len(links)))}),
                 *[self.one_link_box(link, k + 1 if k < len(links) - 1 else None) for k, link in enumerate(links)])

    def one_link_box(self, payload: str, number: int | None = None) -> Any:
        """One link to send, with Share and Copy; ``number``: its place among several (the last
        keeps the ids the page always had)."""
        t, scope = self.t, self.view_scope
        suffix = "" if number is None else f"-{number}"
        link = transport().outgoing(payload)
        box = h("textarea", {"id": f"remote-link{suffix}", "readonly": True, "rows": "3",
                             "aria-label": t("remote.link")})
        box.value = link

        def copy(_e: Any) -> None:
            box.select()
            try:
                window.navigator.clipboard.writeText(link)
                self.app.toast(t("share.copied"))
            except Exception:  # a browser without a clipboard: the link stays selected to copy by hand
                self.app.toast(t("remote.copy.select"))
                return
            if self.send is not None:
                self.handed_over(self.send)

        async def share() -> None:
            from pyscript.ffi import to_js

            try:
                await window.navigator.share(to_js({"title": t("app.title"), "text": t("remote.share.text"), "url": link}))
            except Exception:  # dismissed, or refused: the link is still there to copy
                return
            if self.send is not None:
                self.handed_over(self.send)

        can_share = bool(getattr(window.navigator, "share", None))
        label = t.plural("remote.send", self.session.device.players - 1) if number is None \
            else t("remote.send.nth", n=str(number))
        return h("div", {"class": "share-field remote-send", "id": f"remote-send{suffix}"},
                 h("label", {"for": f"remote-link{suffix}", "text": label}),
                 box,
                 h("div", {"class": "row"},
                   h("button", {"type": "button", "class": "primary", "id": f"remote-share{suffix}",
                                "text": t("share.button"),
                                "on_click": lambda _e: asyncio.ensure_future(share())}, scope=scope)
                   if can_share else None,
                   h("button", {"type": "button", "id": f"remote-copy{suffix}", "text": t("share.copy"),
                                "on_click": copy}, scope=scope)))

    def actions(self, shown: dict[str, Any]) -> Any:
        t, scope = self.t, self.view_scope
        paste = h("textarea", {"id": "remote-paste", "rows": "2", "aria-label": t("remote.paste")})

        def open_pasted(_e: Any) -> None:
            text = str(paste.value).strip()
            if text:
                self.open_here(text)

        over = shown["over"] or shown["stopped"] is not None  # a stopped game: nothing more to send
        started = shown["phase"] != "joining"
        resend = h("button", {"type": "button", "id": "remote-resend", "text": t("remote.resend"),
                              "disabled": self.session.device.sent is None,
                              "on_click": lambda _e: self.resend()}, scope=scope)
        # A device not in the game yet (its answer sent, no start seen) has no move to take back
        # and nothing to resign or leave: those actions are not shown at all (issue 42).
        buttons = [] if shown["shut_out"] else [resend] if not started else [
            h("button", {"type": "button", "id": "remote-takeback", "text": t("remote.takeback"),
                         "title": t("remote.takeback.help"),
                         "disabled": not shown.get("can_take_back"),
                         "on_click": lambda _e: self.take_back()}, scope=scope),
            resend,
            h("button", {"type": "button", "id": "remote-resign", "class": "danger", "text": t("remote.resign"),
                         "disabled": over,
                         "on_click": lambda _e: asyncio.ensure_future(self.quit("resign"))}, scope=scope),
            h("button", {"type": "button", "id": "remote-leave", "text": t("remote.leave"),
                         "disabled": over,
                         "on_click": lambda _e: asyncio.ensure_future(self.quit("leave"))}, scope=scope),
        ]
        why_not = self.session.review_refusal if over else None
        if over and why_not is None:
            buttons.append(h("a", {"class": "button", "id": "review", "text": t("review.button"),
                                   "href": router.href(self.ui.GAME, "review", self.session.save.id)}))
        buttons.append(h("button", {"type": "button", "id": "export", "text": t("continue.export"),
                                    "on_click": lambda _e: self.app.export_save(self.session.save.id)}, scope=scope))
        return h("div", {"class": "remote-actions"},
                 h("div", {"class": "row"}, *buttons),
                 h("p", {"id": "review-why-not", "class": "hint", "text": t(f"remote.review.{why_not}")})
                 if why_not is not None else None,
                 h("div", {"class": "share-field"}, h("label", {"for": "remote-paste", "text": t("remote.paste")}),
                   paste, h("button", {"type": "button", "id": "remote-open", "text": t("remote.open"),
                                       "on_click": open_pasted}, scope=scope)))

    def request_box(self, request: dict[str, Any]) -> Any:
        """A take-back asked: what, and whose answer is awaited; Accept / Decline on the device
        whose answer it is."""
        t, scope = self.t, self.view_scope
        name, mine = str(request["name"]), request["seat"] == self.session.seat_here
        move = self.move_words(str(request["move"]))
        asked = t("remote.takeback.asked.you", move=move) if mine else t("remote.takeback.asked", name=name, move=move)
        box = h("div", {"id": "remote-takeback-request", "class": "remote-request", "role": "group",
                        "aria-label": t("remote.takeback.group")},
                h("p", {"id": "remote-takeback-asked", "text": asked}))
        if request["your_answer"]:
            append(box, h("div", {"class": "row"},
                          h("button", {"type": "button", "class": "primary", "id": "remote-takeback-accept",
                                       "text": t("remote.takeback.accept"),
                                       "aria-label": t("remote.takeback.accept.label", name=name),
                                       "on_click": lambda _e: self.answer(True)}, scope=scope),
                          h("button", {"type": "button", "id": "remote-takeback-decline",
                                       "text": t("remote.takeback.decline"),
                                       "aria-label": t("remote.takeback.decline.label", name=name),
                                       "on_click": lambda _e: self.answer(False)}, scope=scope)))
        else:
            append(box, h("p", {"class": "hint", "text": t("remote.takeback.waiting", name=request["waiting_for"])}))
        return box

    def move_words(self, move_text: str) -> str:
        """A move still on the board in words: Scarabeo's as it was announced (word, square,
        points), the others' in their notation."""
        state = self.session.state_or_none()
        results = getattr(state, "results", None)
        if self.ui.GAME == "scarabeo" and state is not None and results is not None and state.history():
            try:
                return str(self.ui.announce(self, move_text, results()[-1])).rstrip(". ")
            except Exception:  # words are a courtesy: the notation says it too
                return move_text
        return move_text

    # --- take-back requests -------------------------------------------------------------
    def take_back(self) -> None:
        """Ask the others to take back this device's last move (the page's take-back, a view's
        button too): nothing is undone here until every other device accepted."""
        if self.session is None or self.busy or not self.session.can_take_back():
            return
        self.working(lambda: self.request_or_answer(lambda: self.session.ask_take_back()))

    def answer(self, accept: bool) -> None:
        if self.session is None or self.busy:
            return
        self.working(lambda: self.request_or_answer(lambda: self.session.answer_take_back(accept)))

    def request_or_answer(self, work: Callable[[], Outcome]) -> None:
        self.act("takeback", "", work)

    def act(self, kind: str, text: str, work: Callable[[], Outcome],
            wrong: tuple[type[Exception], ...] = ()) -> None:
        """This device's own act (a move, a take-back request or answer), timed, refused in words, or
        made and shown; ``wrong``: the errors whose own text says what is wrong with it."""
        if self.closed:
            return
        try:
            outcome = timed(kind, text, work)
        except wrong as err:
            self.show_message(str(err), error=True)
            return
        except Refused as err:
            self.show_message(self.refusal_text(err), error=True)
            return
        except StorageError as err:
            self.app.storage_error(err, session=self.session)
            return
        self.show_outcome(outcome)

    # --- acting -----------------------------------------------------------------------
    def refusal_text(self, err: Refused) -> str:
        return said(self.t, err)

    def open_here(self, text: str) -> None:
        """A link pasted on this game's page: applied here when it is this game's."""
        self.working(lambda: self.apply_pasted(text))

    def apply_pasted(self, text: str) -> None:
        payload = ""
        try:
            payload = transport().incoming(text)
            outcome = self.session.open_message(payload)
        except Refused as err:
            said, notice = self.late_answer(err, payload) if payload else (self.refusal_text(err), None)
            self.notice = (said, True)
            if notice is not None:
                self.send = notice
            self.redraw()
            return
        except StorageError as err:
            self.app.storage_error(err, session=self.session)
            return
        self.notice, self.send = (self.describe(outcome), outcome.event.kind == "stopped"), outcome.send
        self.selection = {}
        self.redraw()
        self.say(self.notice[0])
        self.sound_arrival(outcome)
        self.count_in_stats()

    def resend(self) -> None:
        self.handed = None  # asked for again: the sheet shows it
        try:
            self.send = self.session.resend_all()[-1]  # the box shows them all (``outgoing``)
        except Refused as err:
            self.notice = (self.refusal_text(err), True)
        else:
            self.notice = (self.t("remote.resent"), False)
        self.redraw()

    async def quit(self, kind: str) -> None:
        from web.ui.dom import modal

        scope = Scope()
        try:
            choice = await modal(self.t(f"remote.{kind}.confirm"), h("p", {"text": self.t(f"remote.{kind}.help")}),
                                 [("yes", self.t(f"remote.{kind}"), "danger"), ("no", self.t("dialog.cancel"), "")],
                                 scope)
        finally:
            scope.close()
        if choice != "yes":
            return
        try:
            self.send = self.session.resign() if kind == "resign" else self.session.leave()
        except Refused as err:
            self.notice = (self.refusal_text(err), True)
        except StorageError as err:
            self.app.storage_error(err, session=self.session)
            return
        else:
            self.notice = (self.t(f"remote.{kind}.done"), False)
        self.redraw()

    def commit(self, move_text: str, by_computer: bool = False) -> bool:
        """This seat's move: the engine's refusal at once, in its words; then the protocol's work as
        a sliced task (Scarabeo's proofs and shares), and its link offered as soon as it is made."""
        if self.session is None or by_computer or self.busy:
            return False
        state = self.session.state
        try:
            move = state.parse_move(move_text)
            # a vote by links is one seat's, which the engine cannot check alone: the protocol does
            if not move_text.startswith("!vote"):
                state.check(move)
        except (IllegalMove, NotationError) as err:
            self.show_message(str(err), error=True)
            return False
        self.working(lambda: self.play(move_text))
        return True

    def play(self, move_text: str) -> None:
        self.act("play", move_text, lambda: self.session.play(move_text), (IllegalMove, NotationError))

    def show_outcome(self, outcome: Outcome) -> None:
        """This device's own message made: its link to send (by links), said in words, the view redrawn."""
        self.send = outcome.send
        self.notice = (self.describe(outcome), False)
        self.message = None
        self.selection = {}
        self.redraw()
        self.say(self.notice[0])
        self.count_in_stats()

    def describe(self, outcome: Outcome) -> str:
        """What a message did, in words (the catalogue's), from the protocol's event and the moves."""
        t, session = self.t, self.session
        event = outcome.event
        device = session.device
        said: list[str] = []
        names = device.names()
        for seat, move_text, result in outcome.moves:
            if result is not None:  # as at the table, the reader's own move in the second person
                said.append(events.move_event(t, self.ui.GAME, session.state, result, names, device.seat).text)
            else:
                said.append(t("remote.event.move", name=names[seat], move=move_text))
        kind = event.kind
        if kind == "stopped" and device.stopped is not None:  # the link proved a cheat: nothing applied
            return stop_text(t, device.stopped)
        if kind == "full":  # the inviter's notice: this device's answer came too late
            return str(t("remote.status.full", name=device.names()[0], n=device.players))
        if kind == "move" and not outcome.moves and device.chain:  # a vote before the last: kept, nothing decided
            said.append(t("remote.event.vote", name=device.name_of_seat(int(unpack(device.chain[-1])["m"]["f"]))))
        if kind == "join" or (kind == "start" and device.me == 0):  # the inviter: an answer came in
            joined = [unpack(text)["m"]["h"]["name"] for text in device.joins]
            said.append(t("remote.event.join", name=joined[-1] if joined else ""))
        if kind == "start":
            said.append(t("remote.event.start", names=", ".join(device.names())))
        elif kind in ("resign", "leave") and device.ended is not None:
            said.append(t(f"remote.event.{kind}", name=device.ended["name"]))
        elif kind.startswith("takeback"):
            said.append(self.describe_take_back(kind))
        elif kind == "deal" and not outcome.moves:
            said.append(t("remote.event.keys") if device.over() else
                        t("remote.event.deal") if not session.started else t("remote.event.dealt"))
        if device.over() and not any(t("play.over") in s for s in said):
            said.append(t("play.over") + ".")
        if outcome.send and self.sends_links():
            said.append(t("remote.event.send"))
        return " ".join(said)

    def sends_links(self) -> bool:
        """Whether this device's messages go by links now (a live page: only while no channel is open),
        so that a notice speaks of a link to send only when there is one."""
        return True

    def describe_take_back(self, kind: str) -> str:
        """A take-back request's news in words: asked, accepted by one, taken back, declined, or
        withdrawn (the next move came first)."""
        t, device = self.t, self.session.device
        asked = last_request(device)
        if kind == "takeback_withdrawn" or asked is None:
            # the request this device held was dropped: the move written before it came stands
            return str(t("remote.event.takeback.withdrawn"))
        seat, move = asked
        name = device.name_of_seat(seat)
        writer = device.name_of_seat(int(unpack(device.chain[-1])["m"]["f"]))
        if kind == "takeback_accepted":
            return str(t("remote.event.takeback.done", name=name, move=move))
        if kind == "takeback_declined":
            return str(t("remote.event.takeback.declined", by=writer, name=name, move=move))
        request = device.show()["takeback"] or {}
        # whose answer is awaited (this device's own: its buttons say it)
        waiting = "" if request.get("your_answer") else \
            " " + str(t("remote.takeback.waiting", name=request.get("waiting_for", "")))
        if request.get("accepted"):
            return f"{t('remote.event.takeback.accepted', name=writer)}{waiting}"
        words = self.move_words(move)
        if seat == device.seat:
            return f"{t('remote.takeback.asked.you', move=words)}{waiting}"
        return f"{t('remote.takeback.asked', name=name, move=words)}{waiting}"

    def title_text(self) -> str:
        """Whose turn, in the tab's title: "Your turn" only on the device whose seat is to move (every
        seat here is a person's, so the play page's "the one person against the computer" never holds)."""
        t, session = self.t, self.session
        game = t(f"game.{self.ui.GAME}.name")
        if session is None or session.device.over():
            return str(t("title.over", game=game))
        mover = session.to_move()
        if mover is None:  # still dealing, or waiting for a player to join
            return str(t("app.title"))
        return str(t.form("title.turn", you=mover == session.seat_here, name=session.device.name_of_seat(mover),
                          game=game))

    def sound_arrival(self, outcome: Outcome) -> None:
        """Another device's move arrived (by a link or live): its sound, and "your turn" when it is
        this device's now; the end's at the end (``web.ui.sounds``, off with the setting)."""
        from web.ui import sounds

        session = self.session
        if session is None or not sounds.enabled(self.app.settings):
            return
        over = bool(session.device.over())
        if not outcome.moves and not over:
            return  # a deal step, a join, keys: no move to hear
        try:
            yours = bool(session.your_turn())
        except Exception:
            yours = False
        sounds.SOUNDS.play(sounds.cues(self.ui.GAME, 0, over, yours, True), True)

    # --- hints (issue 42: only where the invitation allows them; every device sees each count) ----
    def hints_allowed(self) -> bool:
        return self.session is not None and bool(self.session.device.hints_allowed)

    def hint_taken(self) -> bool:
        """This device's player takes a hint: counted (stored; its next move reports it to the
        others), or refused in the catalogue's words (none allowed, not its turn)."""
        if self.session is None:
            return False
        try:
            self.session.device.use_hint()
            self.session.autosave()
        except Refused as err:
            self.show_message(self.refusal_text(err), error=True)
            return False
        except StorageError as err:
            self.app.storage_error(err, session=self.session)
            return False
        return True

    def hint_counts(self) -> list[int] | None:
        return None if self.session is None else self.session.device.hints_used()

    def hints_line(self) -> Any:
        """The hints each player used, as each device reported them (the end panel's line)."""
        counts = self.hint_counts()
        if counts is None:
            return None
        names = self.session.device.names()
        said = ", ".join(f"{names[s]} {counts[s]}" for s in range(min(len(names), len(counts))))
        return h("p", {"class": "hints-end", "id": "hints-end", "text": self.t("hints.end", counts=said)})

    def maybe_computer(self) -> None:
        """No computer here: the other seats are people on their own devices."""

    def needs_cover(self) -> bool:
        return False  # one seat per device: nothing to hide from the person holding it

    def toolbar(self, *extra: Any) -> Any:
        """The game's tools, as a local game has them (on a phone in the app bar's menu): the view's
        own, Ask to take back, Send my last link again, Paste a link, Resign, Leave, Review (at the
        end), Export, the rules."""
        t, scope = self.t, self.view_scope
        rules = h("a", {"class": "button", "href": router.href(self.ui.GAME, "rules"), "text": t("rules.link")})
        if self.session is None or not self.session.started:
            return h("div", {"class": "toolbar row"}, *extra, rules)
        shown = self.session.device.show()
        over = shown["over"] or shown["stopped"] is not None  # a stopped game: nothing more to send
        buttons: list[Any] = [] if shown["shut_out"] else [
            h("button", {"type": "button", "id": "remote-takeback", "text": t("remote.takeback"),
                         "title": t("remote.takeback.help"),
                         "disabled": not shown.get("can_take_back"),
                         "on_click": lambda _e: self.take_back()}, scope=scope),
            h("button", {"type": "button", "id": "remote-resend", "text": t("remote.resend"),
                         "disabled": self.session.device.sent is None,
                         "on_click": lambda _e: self.resend()}, scope=scope),
            h("button", {"type": "button", "id": "remote-paste-open", "text": t("remote.paste.button"),
                         "aria-controls": "remote-paste", "on_click": lambda _e: self.to_paste()}, scope=scope),
            h("button", {"type": "button", "id": "remote-resign", "class": "danger", "text": t("remote.resign"),
                         "disabled": over,
                         "on_click": lambda _e: asyncio.ensure_future(self.quit("resign"))}, scope=scope),
            h("button", {"type": "button", "id": "remote-leave", "text": t("remote.leave"),
                         "disabled": over,
                         "on_click": lambda _e: asyncio.ensure_future(self.quit("leave"))}, scope=scope),
        ]
        if over and self.session.review_refusal is None:
            buttons.append(h("a", {"class": "button", "id": "review", "text": t("review.button"),
                                   "href": router.href(self.ui.GAME, "review", self.session.save.id)}))
        buttons.append(h("button", {"type": "button", "id": "export", "text": t("continue.export"),
                                    "on_click": lambda _e: self.app.export_save(self.session.save.id)}, scope=scope))
        return h("div", {"class": "toolbar row remote-tools"}, *extra, *buttons, rules)

    def links_panel(self) -> Any:
        """The drawer's Links panel: a link received pasted here and opened; why there is no review."""
        t, scope = self.t, self.view_scope
        shown = self.session.device.show()
        over = shown["over"] or shown["stopped"] is not None
        why_not = self.session.review_refusal if over else None
        paste = h("textarea", {"id": "remote-paste", "rows": "2", "aria-label": t("remote.paste")})

        def open_pasted(_e: Any) -> None:
            text = str(paste.value).strip()
            if text:
                self.open_here(text)

        return h("section", {"class": "panel remote-links", "id": "remote-links", "aria-labelledby": "remote-links-title"},
                 h("h2", {"id": "remote-links-title", "text": t("remote.links.title")}),
                 h("p", {"id": "review-why-not", "class": "hint", "text": t(f"remote.review.{why_not}")})
                 if why_not is not None else None,
                 h("div", {"class": "share-field"}, h("label", {"for": "remote-paste", "text": t("remote.paste")}),
                   paste, h("button", {"type": "button", "id": "remote-open", "text": t("remote.open"),
                                       "on_click": open_pasted}, scope=scope)))

    def to_paste(self) -> None:
        """Paste a link (the tools, the app bar's menu): the drawer opened at the Links panel's field."""
        if not bool(getattr(self, "drawer_open", False)):
            button = document.getElementById("drawer-button")
            if button is not None and str(button.getAttribute("aria-expanded")) == "false":
                button.click()
        field_ = document.getElementById("remote-paste")
        if field_ is not None:
            field_.scrollIntoView()
            field_.focus()


def mount(app: Any, root: Any, route: router.Route, ui: GameUI) -> Callable[[], None]:
    """``#/<game>/remote`` and ``#/<game>/remote/<save id>``."""
    return RemotePage(app, root, route, ui).mount()


def mount_link(app: Any, root: Any, route: router.Route) -> Callable[[], None] | None:
    """``#/remote?m=<payload>``: the game the link belongs to opens it (None: refused, said on the page)."""
    t = app.t
    payload: str | None = None
    game = reason = None
    try:
        payload = transport().incoming(route.query.get("m", ""))
        unpack(payload)
    except Refused as err:
        payload, reason = None, said(t, err)
    except WireError as err:
        payload, reason = None, said(t, err.message)
    if payload is not None:
        game = game_of(payload)
        if game is None:
            save = find(app.store, game_id_of(payload) or "")
            game = save.game if save is not None else None
            if save is None:
                reason = t("remote.refused.unknown")
    views = registry.get(game) if game else None
    if payload is None or views is None:
        append(root, h("section", {"role": "alert", "class": "link-refused", "id": "remote-refused"},
                       h("h1", {"text": t("share.refused")}),
                       h("p", {"text": reason or t("remote.refused.unknown")}),
                       h("a", {"class": "button", "href": "#/", "text": t("nav.back")})))
        return None
    return RemotePage(app, root, route, views.ui, payload).mount()




def said(t: Any, reason: str | Refused) -> str:
    """A protocol refusal in the catalogue's words (by its stable key when it has one)."""
    key, params = refusal_of(reason) if isinstance(reason, Refused) else refusal(reason)
    return str(t(key, **params))
