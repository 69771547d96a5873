"""Playing together at one table, each on their own phone: devices paired by a QR code, moves over WebRTC
(issue 28; docs/remote.md "Live play").

Routes: ``#/<game>/live`` the host's form (the invitation form of remote play); ``#/<game>/live/<save
id>`` a live game on this device; ``#/live?o=<code>`` a host's pairing code opened by a guest (scanned
with any camera app, or followed as a link); ``#/live?a=<code>`` a guest's answer opened on the host's
device in another tab: handed to the waiting host page (``BroadcastChannel``).

The game is a remote game (``web.pages.remote.RemotePage`` draws it; ``web.platform.remote`` stores
it); ``web.platform.rtc`` carries its messages over data channels. Pairing: the host shows an offer
(``web.platform.pairing`` code) as a QR code and a link; the guest answers with its own code shown
the same way; the host scans it or pastes it. When a channel is down the game is still the remote
game of the same saves: its last link is offered as by links, and a new pairing catches up.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any, Callable

from pyscript import document, window

from game.remote.session import Device, Refused, check_name
from web.pages.remote import NOTICES, RemotePage, said, words
from web.platform import events, pairing, router, rtc
from web.platform.remote import RemoteSession, find, game_id_of
from web.platform.storage import StorageError
from web.ui import vdom
from web.ui.dom import Scope, append, h

ROUTE = "#/live?"
BROADCAST = "scarab-live"
QR_SCRIPTS = {"QRCode": "vendor/qr/qrcode.js", "jsQR": "vendor/qr/jsQR.js"}


def site() -> str:
    base = str(window.location.href).split("#")[0].split("?")[0]
    return base.rsplit("/", 1)[0] + "/"


def code_link(kind: str, code: str, game_id: str | None = None) -> str:
    """``o`` an offer, ``a`` an answer: the link a camera app opens. An offer for a game under way
    names it (``g``): a device already in that game pairs again without being asked its name."""
    game = f"&g={game_id}" if game_id else ""
    return f"{site()}{ROUTE}{kind}={code}{game}"


def own_name(device: Device) -> str:
    """This device's player's name: its own hello's, by the order the players arrived in (the names
    by seat, ``Device.names()``, follow the seat order drawn at the start: issue 42, an inviter who
    drew the second seat greeted the others with the first seat's name after a reload)."""
    return device.hellos[device.me].name if device.me is not None and device.me < len(device.hellos) else ""


def code_of(text: str) -> str:
    """The pairing code in a pasted or scanned text: a whole link, or the code alone."""
    text = text.strip()
    for key in ("?o=", "?a=", "&o=", "&a="):
        if key in text:
            return text.split(key, 1)[1].split("&", 1)[0]
    return text


async def load_script(name: str) -> Any:
    """A vendored QR library (``tools/build.py`` puts it in ``vendor/qr/``), loaded on first use."""
    if not getattr(window, name, None):
        done = asyncio.get_event_loop().create_future()
        from pyscript.ffi import create_proxy

        script = document.createElement("script")
        script.src = QR_SCRIPTS[name]
        def settle(ok: bool) -> None:
            if not done.done():
                done.set_result(ok)

        loaded = create_proxy(lambda _e: settle(True))
        failed = create_proxy(lambda _e: settle(False))
        script.addEventListener("load", loaded)
        script.addEventListener("error", failed)
        document.head.appendChild(script)
        try:
            await done
        finally:
            loaded.destroy()
            failed.destroy()
    return getattr(window, name, None)


async def draw_qr(canvas: Any, text: str) -> int | None:
    """``text`` as a QR code on ``canvas``; its version (None: the encoder is missing)."""
    from pyscript.ffi import to_js

    encoder = await load_script("QRCode")
    if encoder is None:
        return None
    options = to_js({"errorCorrectionLevel": "M", "margin": 4, "scale": 5}, dict_converter=window.Object.fromEntries)
    await encoder.toCanvas(canvas, text, options)
    canvas.dataset.version = str(encoder.create(text, options).version)
    return int(canvas.dataset.version)


def code_refusal(t: Any, err: pairing.PairingRefused) -> str:
    """A pairing code refused, in the catalogue's words: a damaged code (its check fails) in words of
    its own — ask for it again — any other with the reason."""
    if err.key == "damaged":
        return str(t("live.failed.damaged"))
    return str(t("live.failed.code", reason=str(err)))


@dataclass
class Live:
    """One live game on this page: its table, the channels, and the work done one piece at a time
    (frames that came in, this device's moves), so the protocol's sliced work never interleaves."""

    table: rtc.Table
    app: Any
    links: dict[int, rtc.Link] = field(default_factory=dict)
    jobs: list[Callable[[], Any]] = field(default_factory=list)
    view: "LivePage | None" = None
    waiting: "Pairing | None" = None  # the host's offer waiting for its answer
    running: bool = False
    said: list[str] = field(default_factory=list)  # presence news for the page
    #: The players whose devices did not get this device's latest message (issue 37): said in the
    #: presence strip until they are connected again, when the table sends it to them.
    missed: list[str] = field(default_factory=list)

    def unreached(self) -> list[str]:
        """The players a message cannot reach now: no channel (``Table.absent``), or one the browser
        says is down (a blip: the message goes when it heals, or with everything at a new pairing)."""
        names = self.table.absent()
        for peer, link in self.links.items():
            name = self.table.peers[peer].name if peer in self.table.peers else None
            if name and name not in names and str(link.pc.connectionState) != "connected":
                names.append(name)
        return names

    def sent(self) -> None:
        """This device's own message went out: who did not get it, for the strip."""
        self.missed = self.unreached()

    def submit(self, job: Callable[[], Any]) -> None:
        self.jobs.append(job)
        if not self.running:
            self.running = True
            asyncio.ensure_future(self._pump())

    async def _pump(self) -> None:
        from web.ui.pause import sliced

        try:
            while self.jobs:
                job = self.jobs.pop(0)
                await asyncio.sleep(0)
                try:
                    with sliced():
                        result = job()
                    if asyncio.iscoroutine(result):
                        await result
                except Exception as err:  # the last net: said, never a traceback
                    window.console.warn(f"live play: {type(err).__name__}: {err}")
                    self.app.toast(self.app.t("remote.failed.internal", error=str(err)[:200]), error=True)
        finally:
            self.running = False

    def attach(self, link: rtc.Link) -> None:
        """A channel that opened: the table greets and sends all it has."""
        watch_visibility()
        peer = self.table.connect(link.send)
        self.links[peer] = link
        link.on_message = lambda _l, text: self.submit(lambda: self.receive(peer, text))
        link.on_close = lambda _l: self.submit(lambda: self.closed(peer))

    def check(self) -> None:
        """The page is visible again: each channel looked at (``rtc.Link.check``); one that ended
        while the page was frozen closes now, its player said to have left, the pairing offered."""
        for link in list(self.links.values()):
            link.check()

    def receive(self, peer: int, text: str) -> Any:
        if self.table.session is None and self.table.join is not None:
            return self._receive_first(peer, text)
        self.notes(self.table.receive(peer, text))
        return None

    async def _receive_first(self, peer: int, text: str) -> None:
        """Before this guest has its game: Scarabeo's lexicon first (its moves are checked against it)."""
        try:
            kind, data = rtc.read_frame(text)
        except Refused:
            kind, data = "", {}
        if kind == "msg" and str(data.get("p", "")).startswith("r1.") and _game_of(str(data["p"])) == "scarabeo":
            await self.app.scarabeo_ready(True)
        self.notes(self.table.receive(peer, text))

    def closed(self, peer: int) -> None:
        link = self.links.pop(peer, None)
        if link is not None:
            link.close()
        note = self.table.disconnect(peer)
        self.notes([note] if note is not None else [])

    def notes(self, notes: list[rtc.Note]) -> None:
        view = self.view
        t = self.app.t
        for note in notes:
            if note.kind in ("here", "left"):
                self.said.append(t(f"live.{note.kind}", name=note.name))
                self.app.toast(self.said[-1])
                if view is not None:
                    view.say(self.said[-1])
            elif note.kind == "refused":
                text = said(t, note.reason)
                if view is not None:
                    view.notice = (text, True)
                else:
                    self.app.toast(text, error=True)
            elif note.kind == "joined" and self.table.session is not None:
                session = self.table.session
                LIVE.pop("", None)
                LIVE[session.save.id] = self
                self.app.navigate(router.href(session.game, "live", session.save.id))
                return
            elif note.kind == "applied" and note.outcome is not None and view is not None and not view.closed:
                view.session = self.table.session
                view.notice, view.send = (view.describe(note.outcome), False), None
                view.selection = {}
                view.sound_arrival(note.outcome)
        if view is not None and not view.closed and notes:
            view.redraw()
            if view.notice is not None and any(n.kind == "applied" for n in notes):
                view.say(view.notice[0])


#: This page's live games by save id ("" : a guest still pairing). They outlive the page drawn.
LIVE: dict[str, Live] = {}


def watch_visibility() -> None:
    """Once per page: when it becomes visible again (``visibilitychange``; ``pageshow``, a page back
    from the back-forward cache), every live game's channels are looked at (a phone that locked its
    screen may have lost them without the page hearing it)."""
    if getattr(window, "scarabLiveWatch", None):
        return
    from pyscript.ffi import create_proxy

    proxy = create_proxy(lambda _e: page_visible())
    document.addEventListener("visibilitychange", proxy)
    window.addEventListener("pageshow", proxy)
    window.scarabLiveWatch = proxy


def page_visible() -> None:
    if str(document.visibilityState) != "visible":
        return
    for live in list(LIVE.values()):
        live.check()


def _game_of(payload: str) -> str | None:
    from game.remote.session import game_of

    return game_of(payload)


def servers(app: Any) -> list[dict[str, Any]]:
    return rtc.ice_servers(app.settings.get("ice_server", ""))


@dataclass
class Pairing:
    """A pairing under way on this device: its link, and the code to show."""

    link: rtc.Link
    code: str
    kind: str  # "o": this device's offer (host); "a": its answer (guest)
    error: str | None = None


def failure_text(t: Any, link: rtc.Link) -> str:
    return str(t("live.failed.timeout" if link.failed == "timeout" else "live.failed.network"))


class LivePage(RemotePage):
    """A remote game whose messages go over data channels while a device is paired, by links otherwise."""

    PAGE = "live"
    INVITE = "live.invite"

    def __init__(self, app: Any, root: Any, route: router.Route, ui: Any) -> None:
        super().__init__(app, root, route, ui)
        self.live: Live | None = None
        self.pair_scope = Scope()
        self.answer_input: Any = None

    # --- the game -------------------------------------------------------------------
    def show_game(self, save_id: str) -> None:
        live = LIVE.get(save_id)
        if live is not None and live.table.session is not None:
            self.session = live.table.session
        else:
            try:
                self.session = RemoteSession.open(self.app.store, save_id, words())
            except Exception as err:  # a damaged save is shown as such, never a traceback
                self.show_broken(err, save_id)
                return
            device = self.session.device
            live = Live(rtc.Table(device.me == 0, own_name(device) or str(self.app.settings.get("remote_name", "")),
                                  self.session), self.app)
            LIVE[save_id] = live
        self.live = live
        live.view = self
        notice = NOTICES.pop(save_id, None)
        if notice is not None:
            text, error, send = notice
            invitation = self.session.device.me == 0 and send == self.session.device.chain[0]
            # the invitation goes over the channel once a guest is paired: no link to send for it
            self.notice, self.send = (None, None) if invitation else ((text, error), send)
        self.redraw()
        if self.notice is not None:
            self.say(self.notice[0])

    def unmount(self) -> None:
        if self.live is not None and self.live.view is self:
            self.live.view = None
        self.pair_scope.close()
        super().unmount()

    def working(self, run: Callable[[], Any]) -> None:
        """This device's own work (a move, a resignation) in the table's queue, after what came in."""
        live = self.live
        if live is None:
            super().working(run)
            return
        if not self.begin_work():
            return
        sent = self.session.device.sent

        def job() -> None:
            try:
                run()
            finally:
                self.busy = False
            if self.session is not None and self.session.device.sent != sent:
                for payload in self.session.outgoing():
                    live.table.played(payload)
                live.sent()
                if live.table.here() or live.missed:  # the link box goes, or who missed it is said
                    if live.table.here():
                        self.send = None
                    if not self.closed:
                        self.redraw()

        live.submit(job)

    async def quit(self, kind: str) -> None:
        """A resignation or a leave (after its confirmation): over the channel like a move."""
        sent = self.session.device.sent if self.session is not None else None
        await super().quit(kind)
        self.sent_live(sent)

    def resend(self) -> None:
        super().resend()
        if self.live is not None and self.send:
            for payload in self.session.outgoing():
                self.live.table.played(payload)
            self.sent_live(self.session.device.sent)

    def sent_live(self, before: str | None) -> None:
        live = self.live
        if live is None or self.session is None:
            return
        if self.session.device.sent != before:
            for payload in self.session.outgoing():
                live.table.played(payload)
            live.sent()
        if (live.table.here() and self.send) or live.missed:
            if live.table.here():
                self.send = None
            if not self.closed:
                self.redraw()

    def status_text(self) -> str:
        """"Waiting for Bruno." while Bruno is connected: no link to wait for; before the game, phones
        to pair (the links' "the game starts with the inviter's link" is not how a live game starts)."""
        shown = self.session.device.show()
        if shown["phase"] == "joining":
            return str(self.t("live.status.joining"))
        if self.live is not None and shown["waiting_for"] in self.live.table.here() and shown["phase"] == "play" \
                and self.session.started:
            return str(self.t("live.status.waiting", name=shown["waiting_for"]))
        return super().status_text()

    def sends_links(self) -> bool:
        return self.live is None or not self.live.table.here()

    def send_box(self, payload: str) -> Any:
        """By links only while no device is connected (the game goes on as a game by links)."""
        if self.live is not None and self.live.table.here():
            return None
        return super().send_box(payload)

    def panel(self) -> Any:
        box = super().panel()
        if self.live is not None:
            box.insertBefore(self.live_box(), box.firstChild)
        return box

    # --- presence and pairing ---------------------------------------------------------
    def live_box(self) -> Any:
        t, live = self.t, self.live
        assert live is not None and self.session is not None
        self.pair_scope.close()
        self.pair_scope = Scope()
        here = live.table.here()
        device = self.session.device
        parts: list[Any] = [h("p", {"id": "live-presence", "class": "live-presence", "role": "status",
                                    "text": t("live.present", names=", ".join(here)) if here else t("live.alone")})]
        unreached = live.unreached()
        live.missed = [name for name in live.missed if name in unreached]  # those back have it now
        if live.missed and not device.over():
            parts.append(h("p", {"id": "live-missed", "class": "live-presence", "role": "status",
                                 "text": t.plural("live.missed", len(live.missed),
                                                  names=events.join(t, live.missed))}))
        if live.table.host:
            missing = device.players - 1 - len(here)
            if missing > 0 and not device.over():
                parts.append(self.host_pairing(live, missing))
        elif not here and not device.over():
            parts.append(self.guest_pairing())
        return h("section", {"class": "live-box", "id": "live-box", "aria-label": t("live.title")}, *parts)

    def host_pairing(self, live: Live, missing: int) -> Any:
        t, scope = self.t, self.pair_scope
        pairing_ = live.waiting
        if pairing_ is None:
            return h("div", {"class": "live-pair"},
                     h("p", {"text": t.plural("live.host.missing", missing)}),
                     h("button", {"type": "button", "class": "primary", "id": "live-offer", "text": t("live.offer"),
                                  "on_click": lambda _e: asyncio.ensure_future(self.offer())}, scope=scope))
        answer = h("textarea", {"id": "live-answer", "rows": "2", "aria-label": t("live.answer.paste")})
        self.answer_input = answer
        return h("div", {"class": "live-pair"},
                 self.code_box(pairing_.code, "o", t("live.offer.show")),
                 h("div", {"class": "share-field"},
                   h("label", {"for": "live-answer", "text": t("live.answer.paste")}), answer,
                   h("div", {"class": "row"},
                     h("button", {"type": "button", "id": "live-answer-open", "class": "primary", "text": t("live.answer.use"),
                                  "on_click": lambda _e: asyncio.ensure_future(self.accept(str(answer.value)))},
                       scope=scope),
                     self.scan_button(lambda text: asyncio.ensure_future(self.accept(text))))),
                 h("p", {"id": "live-pair-error", "class": "play-message error", "role": "alert",
                         "text": pairing_.error}) if pairing_.error else None)

    def guest_pairing(self) -> Any:
        t, scope = self.t, self.pair_scope
        field_ = h("textarea", {"id": "live-offer-paste", "rows": "2", "aria-label": t("live.again.paste")})
        return h("div", {"class": "live-pair"},
                 h("p", {"text": t("live.again")}),
                 h("div", {"class": "share-field"},
                   h("label", {"for": "live-offer-paste", "text": t("live.again.paste")}), field_,
                   h("div", {"class": "row"},
                     h("button", {"type": "button", "id": "live-offer-open", "class": "primary", "text": t("live.again.use"),
                                  "on_click": lambda _e: self.app.navigate(self.again_route(str(field_.value)))},
                       scope=scope),
                     self.scan_button(lambda text: self.app.navigate(self.again_route(text))))))

    def again_route(self, text: str) -> str:
        """The join route for the host's new code, pasted or scanned on this game's page: with this
        game's id, so this device pairs as the player it is (no name asked)."""
        game = f"&g={self.session.game_id}" if self.session is not None else ""
        return f"{ROUTE}o={code_of(text)}{game}"

    def code_box(self, code: str, kind: str, label: str) -> Any:
        game_id = self.session.game_id if kind == "o" and self.session is not None and self.session.device.started \
            else None
        return code_box(self.t, self.pair_scope, self.app, code, kind, label, game_id)

    def scan_button(self, found: Callable[[str], Any]) -> Any:
        return scan_button(self.t, self.pair_scope, self.app, found)

    async def offer(self) -> None:
        live = self.live
        if live is None or live.waiting is not None:
            return
        link = rtc.Link(servers(self.app), lambda l: self.opened(l), lambda _l, _t: None, lambda _l: None)
        try:
            code = await link.offer()
        except Exception as err:  # no WebRTC in this browser, or it refused
            link.close()
            self.app.toast(self.t("live.failed.browser", error=str(err)[:160]), error=True)
            return
        live.waiting = Pairing(link, code, "o")
        listen_for_answers(self.app)
        self.redraw()

    async def accept(self, text: str) -> None:
        live = self.live
        if live is None or live.waiting is None:
            return
        waiting = live.waiting
        try:
            await waiting.link.accept(code_of(text))
        except pairing.PairingRefused as err:
            waiting.error = code_refusal(self.t, err)
            self.redraw()
            return
        waiting.error = None
        status = document.getElementById("live-presence")
        if status:
            status.textContent = self.t("live.connecting")

        def stalled() -> None:  # still nothing after a while: said, with what to do
            now = document.getElementById("live-presence")
            if now and live.waiting is waiting:
                now.textContent = self.t("live.stalled")

        if not await waiting.link.wait_open(on_stall=stalled):
            waiting.link.close()
            live.waiting = None
            self.app.toast(failure_text(self.t, waiting.link), error=True)
            if not self.closed:
                self.redraw()
                await self.offer()  # a new code at once: the next try is one scan away

    def opened(self, link: rtc.Link) -> None:
        live = self.live
        if live is None:
            return
        if live.waiting is not None and live.waiting.link is link:
            live.waiting = None
        live.attach(link)
        if not self.closed:
            self.redraw()


def code_box(t: Any, scope: Scope, app: Any, code: str, kind: str, label: str, game_id: str | None = None) -> Any:
    """A pairing code as a QR code (drawn once the encoder loaded), a link to copy, and its size."""
    link = code_link(kind, code, game_id)
    canvas = h("canvas", {"id": f"live-qr-{kind}", "class": "live-qr", "role": "img", "aria-label": label,
                          "style": "max-width:100%;height:auto;image-rendering:pixelated"})
    text = h("textarea", {"id": f"live-code-{kind}", "readonly": True, "rows": "3", "aria-label": t("live.code")})
    text.value = link

    async def draw() -> None:
        try:
            await draw_qr(canvas, link)
        except Exception as err:  # no canvas: the link is still there
            window.console.warn(f"QR code: {err!r}")

    def copy(_e: Any) -> None:
        text.select()
        try:
            window.navigator.clipboard.writeText(link)
            app.toast(t("share.copied"))
        except Exception:
            app.toast(t("remote.copy.select"))

    asyncio.ensure_future(draw())
    return h("div", {"class": "live-code", "id": f"live-code-box-{kind}", "data-code": code},
             h("p", {"text": label}), canvas,
             h("div", {"class": "share-field"}, text,
               h("button", {"type": "button", "id": f"live-copy-{kind}", "text": t("share.copy"), "on_click": copy},
                 scope=scope)))


def scan_button(t: Any, scope: Scope, app: Any, found: Callable[[str], Any]) -> Any:
    return h("button", {"type": "button", "class": "live-scan", "text": t("live.scan"),
                        "on_click": lambda _e: asyncio.ensure_future(scan(app, found))}, scope=scope)


async def scan(app: Any, found: Callable[[str], Any]) -> None:
    """The camera, read for a QR code: ``BarcodeDetector`` where the browser has it, jsQR on the frames
    otherwise. A camera refused or missing is said, and the link or paste path stays."""
    from pyscript.ffi import to_js

    t = app.t
    media = getattr(window.navigator, "mediaDevices", None)
    if media is None:
        app.toast(t("live.camera.none"), error=True)
        return
    try:
        stream = await media.getUserMedia(to_js({"video": {"facingMode": "environment"}},
                                                dict_converter=window.Object.fromEntries))
    except Exception as err:
        refused = "NotAllowed" in str(err) or "Permission" in str(err)
        app.toast(t("live.camera.refused" if refused else "live.camera.none"), error=True)
        return
    video = h("video", {"class": "live-video", "autoplay": True, "playsinline": True, "muted": True,
                        "aria-label": t("live.scan"), "style": "max-width:90vw;max-height:70vh"})
    video.srcObject = stream
    close = h("button", {"type": "button", "text": t("dialog.cancel")})
    box = h("div", {"class": "live-scanner", "role": "dialog", "aria-label": t("live.scan"),
                    "style": "position:fixed;inset:0;z-index:50;display:flex;flex-direction:column;gap:1em;"
                             "align-items:center;justify-content:center;background:rgba(0,0,0,.85)"}, video, close)
    document.body.appendChild(box)
    stop = {"now": False}
    from pyscript.ffi import create_proxy

    cancel = create_proxy(lambda _e: stop.update(now=True))
    close.addEventListener("click", cancel)
    detector = None
    if getattr(window, "BarcodeDetector", None):
        try:
            detector = window.BarcodeDetector.new(to_js({"formats": ["qr_code"]}, dict_converter=window.Object.fromEntries))
        except Exception:
            detector = None
    decoder = None if detector is not None else await load_script("jsQR")
    canvas = document.createElement("canvas")
    text = None
    try:
        for _ in range(1200):  # two minutes at most
            if stop["now"]:
                break
            await asyncio.sleep(0.1)
            if int(video.readyState) < 2:
                continue
            if detector is not None:
                codes = await detector.detect(video)
                if codes.length:
                    text = str(codes[0].rawValue)
                    break
            elif decoder is not None:
                width, height = int(video.videoWidth), int(video.videoHeight)
                canvas.width, canvas.height = width, height
                ctx = canvas.getContext("2d")
                ctx.drawImage(video, 0, 0, width, height)
                result = decoder(ctx.getImageData(0, 0, width, height).data, width, height)
                if result:
                    text = str(result.data)
                    break
    finally:
        tracks = stream.getTracks()
        for i in range(tracks.length):
            tracks[i].stop()
        box.remove()
        cancel.destroy()
    if text:
        found(text)


def listen_for_answers(app: Any) -> None:
    """A guest's answer opened as a link on the host's device lands in another tab: that tab passes it
    here (``BroadcastChannel``, this site's tabs only), to the page whose offer waits."""
    if getattr(window, "scarabLiveChannel", None) or not getattr(window, "BroadcastChannel", None):
        return
    from pyscript.ffi import create_proxy

    channel = window.BroadcastChannel.new(BROADCAST)

    def message(event: Any) -> None:
        code = str(event.data)
        for live in LIVE.values():
            view = live.view
            if live.waiting is not None and view is not None and not view.closed:
                asyncio.ensure_future(view.accept(code))
                return

    channel.onmessage = create_proxy(message)
    window.scarabLiveChannel = channel


# --- the guest's side: a host's code opened here ----------------------------------------
class JoinPage:
    """``#/live?o=<code>``: a name, then this device's answer to show the host; the game once paired.
    ``#/live?a=<code>``: an answer opened in another tab of the host's device, passed to its page."""

    def __init__(self, app: Any, root: Any, route: router.Route) -> None:
        self.app, self.root, self.route, self.t = app, root, route, app.t
        self.scope = Scope()

    def mount(self) -> Callable[[], None]:
        query = self.route.query
        if "a" in query:
            self.pass_answer(query["a"])
        else:
            self.show(query.get("o", ""), query.get("g", ""))
        return self.scope.close

    def refused(self, text: str) -> None:
        append(self.root, h("section", {"role": "alert", "class": "link-refused", "id": "live-refused"},
                            h("h1", {"text": self.t("live.refused")}), h("p", {"text": text}),
                            h("a", {"class": "button", "href": "#/", "text": self.t("nav.back")})))

    def pass_answer(self, code: str) -> None:
        try:
            pairing.decode(code_of(code))
        except pairing.PairingRefused as err:
            self.refused(code_refusal(self.t, err))
            return
        if getattr(window, "BroadcastChannel", None):
            channel = window.BroadcastChannel.new(BROADCAST)
            channel.postMessage(code_of(code))
            channel.close()
        append(self.root, h("section", {"class": "remote-page", "id": "live-passed"},
                            h("h1", {"text": self.t("live.passed")}), h("p", {"text": self.t("live.passed.help")})))

    def show(self, raw: str, game_id: str = "") -> None:
        t, scope = self.t, self.scope
        code = code_of(raw)
        try:
            if pairing.decode(code).answer:
                raise pairing.PairingRefused("this is a device's answer: open it on the device that showed the offer")
        except pairing.PairingRefused as err:
            self.refused(code_refusal(t, err))
            return
        mine = self.player_of(game_id)
        if mine:  # already in this game (a reload, a new pairing): its own player, no name asked
            status = h("div", {"id": "live-join-status"})
            append(self.root, h("section", {"class": "remote-page", "id": "live-join-page"},
                                h("h1", {"text": t("live.join.title")}),
                                h("p", {"id": "live-rejoin", "text": t("live.rejoin", name=mine)}), status))
            asyncio.ensure_future(self.answer(code, mine, status))
            return
        name = h("input", {"type": "text", "id": "live-name", "maxlength": "40", "required": True,
                           "autocomplete": "nickname", "value": str(self.app.settings.get("remote_name", ""))})
        status = h("div", {"id": "live-join-status"})

        def submit(event: Any) -> None:
            event.preventDefault()
            try:
                who = check_name(str(name.value))
            except Refused as err:
                self.app.toast(err.reason, error=True)
                return
            button.disabled = True
            asyncio.ensure_future(self.answer(code, who, status))

        button = h("button", {"type": "submit", "class": "primary", "id": "live-join", "text": t("live.join")})
        form = h("form", {"class": "remote-accept", "on_submit": submit}, scope=scope)
        append(form, h("div", {"class": "row"}, h("label", {"for": "live-name", "text": t("remote.name")}), name), button)
        append(self.root, h("section", {"class": "remote-page", "id": "live-join-page"},
                            h("h1", {"text": t("live.join.title")}), h("p", {"text": t("live.join.help")}),
                            form, status))
        name.focus()

    def player_of(self, game_id: str) -> str:
        """This device's player's name in the live game ``game_id`` ("" if it has none here)."""
        if not game_id:
            return ""
        save = find(self.app.store, game_id)
        if save is None:
            return ""
        try:
            return own_name(RemoteSession.open(self.app.store, save.id, words()).device)
        except Exception:  # a damaged save: join as anyone would, by name
            return ""

    async def answer(self, code: str, name: str, status: Any) -> None:
        t, app = self.t, self.app
        store = app.store
        self.remember(name)

        def join(invitation: str) -> RemoteSession:
            existing = find(store, game_id_of(invitation) or "")
            if existing is not None:  # a device back at its table (a reload, a new pairing)
                return RemoteSession.open(store, existing.id, words())
            device, _answer = Device.join(invitation, name, words())
            game = t(f"game.{device.game_name}.name")
            return RemoteSession.create(store, device, t("remote.title.with", game=game, name=device.names()[0]))

        previous = LIVE.pop("", None)
        if previous is not None:
            for link in previous.links.values():
                link.close()
        live = Live(rtc.Table(False, name, join=join), app)
        LIVE[""] = live
        link = rtc.Link(servers(app), lambda l: live.attach(l), lambda _l, _t: None, lambda _l: None)
        try:
            answer = await link.answer(code)
        except pairing.PairingRefused as err:
            link.close()
            append(status, h("p", {"class": "play-message error", "role": "alert",
                                   "text": code_refusal(t, err)}))
            return
        except Exception as err:  # no WebRTC in this browser
            link.close()
            append(status, h("p", {"class": "play-message error", "role": "alert",
                                   "text": t("live.failed.browser", error=str(err)[:160])}))
            return
        wait = h("p", {"id": "live-join-wait", "role": "status", "text": t("live.connecting")})
        append(status, code_box(t, self.scope, app, answer, "a", t("live.answer.show")), wait)

        def stalled() -> None:  # still nothing after a while: said, with what to do
            wait.textContent = t("live.stalled.guest")

        if not await link.wait_open(on_stall=stalled):
            link.close()
            append(status, h("p", {"class": "play-message error", "role": "alert", "id": "live-join-failed",
                                   "text": failure_text(t, link)}))

    def remember(self, name: str) -> None:
        self.app.settings = {**self.app.store.settings(), "remote_name": name}
        try:
            self.app.store.save_settings(self.app.settings)
        except StorageError:
            pass


def mount(app: Any, root: Any, route: router.Route, ui: Any) -> Callable[[], None]:
    """``#/<game>/live`` and ``#/<game>/live/<save id>``."""
    return LivePage(app, root, route, ui).mount()


def mount_code(app: Any, root: Any, route: router.Route) -> Callable[[], None]:
    """``#/live?o=…`` (a guest) and ``#/live?a=…`` (an answer for this device's waiting host page)."""
    return JoinPage(app, root, route).mount()


def settings_field(app: Any, state: dict[str, Any]) -> vdom.VNode:
    """Settings: a STUN or TURN server for live play, none by default (the site then reaches nothing
    outside the local network). ``state`` is the settings page's: whether the last entry was refused."""
    t, vh = app.t, vdom.h

    def changed(event: vdom.Event) -> None:
        text = (event.value or "").strip()
        refused = rtc.check_server(text) is not None
        state["ice_refused"] = refused
        if not refused:
            app.set_setting("ice_server", text)

    refused = bool(state.get("ice_refused"))
    return vh("fieldset", {"id": "live-settings"}, vh("legend", {"text": t("live.server")}),
              vh("label", {"for": "ice-server", "text": t("live.server.label")}),
              vh("input", {"type": "text", "id": "ice-server", "value": str(app.settings.get("ice_server", "")),
                           "spellcheck": "false", "autocomplete": "off", "placeholder": "stun:stun.example.org:3478",
                           "on_change": changed}),
              vh("p", {"class": "muted", "text": t("live.server.help")}),
              vh("p", {"class": "error", "id": "ice-server-error", "role": "alert", "hidden": not refused,
                       "text": t("live.server.bad") if refused else None}))
