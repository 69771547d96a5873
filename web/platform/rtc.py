"""Live play over a WebRTC data channel (issue 28): the correspondence protocol's messages, carried live.

The game is the remote game of issue 27 (``web.platform.remote.RemoteSession`` over a
``game.remote.session.Device``): the same hash chain, hidden racks, signatures and verification. Only
the carrier changes: instead of a link a person passes on, each payload goes over a data channel.
The host (the inviter) has one channel per guest and relays what one guest sends to the others, so
every device opens every message, as with links in a group chat.

A channel carries *frames*, JSON objects (outside input: read through ``game.core.safejson``)::

    {"k": "hello", "name": NAME, "game": GAME_ID | null}    who is at the other end (presence)
    {"k": "msg", "p": PAYLOAD}                             one protocol message (any device's)

A duplicated message is refused by the protocol as "already played" and changes nothing; one that
arrives before an earlier one ("open Bruno's previous link first") waits here and is opened once the
earlier one came. When a channel opens (the first pairing, or a new one after a reload or a blip) both
ends send every message they have: the protocol skips what the other side has already, so a device
that missed moves catches up and a move made while the channel was down is never lost.

``Table`` is that logic in pure Python (tested in CPython with channels that are plain lists);
``Link`` is the browser side (``RTCPeerConnection``, ``iceServers: []`` unless the player set one).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Callable

from game.core.safejson import JSONRefused, loads
from game.remote.session import Refused, check_name, game_of
from game.remote.wire import MAX_MESSAGE_CHARS
from web.platform import pairing
from web.platform.remote import Outcome, RemoteSession

#: A frame: a payload (at most a link's length) in a small JSON object.
MAX_FRAME_CHARS = MAX_MESSAGE_CHARS + 200
#: Messages kept while waiting for an earlier one: a whole game's worth (beyond that: not this game's).
MAX_WAITING = 400
LABEL = "scarab"
#: Seconds a pairing may take before it is said to have failed (the usual cause: two networks).
CONNECT_SECONDS = 30.0
#: Seconds a pairing waits in silence before the page says it is still trying and what to do
#: (issue 37: a pairing that stalls says so within 15 s, never waits without a word).
STALL_SECONDS = 12.0
#: Seconds the browser gathers candidates before the offer or answer is shown with those it has.
GATHER_SECONDS = 4.0
#: Seconds a connection may stay "disconnected" (a network blip, a phone's Wi-Fi waking up) before it is
#: given up: ICE finds the other phone again by itself within that time, and the channel's messages
#: sent meanwhile arrive then (SCTP retransmits them), so a blip needs no new pairing.
BLIP_SECONDS = 20.0


@dataclass(frozen=True)
class ChannelTransport:
    """The ``web.platform.remote.Transport`` seam for a data channel: a payload in a frame, and back."""

    def outgoing(self, payload: str) -> str:
        return frame("msg", p=payload)

    def incoming(self, text: str) -> str:
        kind, data = read_frame(text)
        if kind != "msg":
            raise Refused(f"this is a {kind} frame, not a message", malformed=True)
        return str(data["p"])


def frame(kind: str, **fields: Any) -> str:
    return json.dumps({"k": kind, **fields}, separators=(",", ":"))


def read_frame(text: Any) -> tuple[str, dict[str, Any]]:
    """A frame's kind and fields (``Refused``, malformed: not a frame this site writes)."""
    if not isinstance(text, str):
        raise Refused("the channel carried something that is not text", malformed=True)
    try:
        data = loads(text, max_bytes=MAX_FRAME_CHARS, max_depth=2)
    except JSONRefused as err:
        raise Refused(f"the channel carried an unreadable frame: {err}", malformed=True) from None
    if not isinstance(data, dict) or data.get("k") not in ("hello", "msg", "early"):
        raise Refused("the channel carried a frame of an unknown kind", malformed=True)
    if data["k"] == "msg":
        if not isinstance(data.get("p"), str) or set(data) != {"k", "p"}:
            raise Refused("the channel carried a message frame without its message", malformed=True)
    elif data["k"] == "early":  # shares sent ahead of a message (issue 42): checked by their proof
        seat = data.get("f")
        if not isinstance(data.get("p"), str) or set(data) != {"k", "f", "p"} or not isinstance(seat, int) \
                or isinstance(seat, bool) or not 0 <= seat < 8:
            raise Refused("the channel carried an early part this site does not write", malformed=True)
    else:
        game = data.get("game")
        if set(data) != {"k", "name", "game"} or not (game is None or isinstance(game, str) and len(game) <= 64):
            raise Refused("the channel carried a greeting this site does not write", malformed=True)
        data["name"] = check_name(data.get("name"))
    return str(data["k"]), data


@dataclass
class Peer:
    """A device at the other end of one channel (the host's guests, or a guest's host)."""

    send: Callable[[str], None]
    name: str | None = None
    here: bool = True


@dataclass
class Note:
    """What happened, for the page to say: ``here``/``left`` (a name), ``applied`` (an outcome),
    ``joined`` (this device joined: its session), ``refused`` (a reason), ``early`` (tiles read sooner:
    another device's shares sent ahead of its message)."""

    kind: str
    name: str = ""
    outcome: Outcome | None = None
    reason: str = ""


@dataclass
class Table:
    """One device's end of a live game: its channels, the messages waiting for an earlier one, who is here.

    ``join`` (a guest not yet in the game): makes this device's session from the invitation that came
    over the channel (``Device.join`` and a new save); its join then goes to the host.
    """

    host: bool
    name: str
    session: RemoteSession | None = None
    join: Callable[[str], RemoteSession] | None = None
    peers: dict[int, Peer] = field(default_factory=dict)
    waiting: list[str] = field(default_factory=list)
    transport: ChannelTransport = field(default_factory=ChannelTransport)
    _next: int = 0

    # --- channels ----------------------------------------------------------------------
    def connect(self, send: Callable[[str], None]) -> int:
        """A channel opened: greet, then send every message this device has (the other end skips
        what it has); the peer's id for ``receive`` and ``disconnect``."""
        peer_id = self._next
        self._next += 1
        self.peers[peer_id] = Peer(send)
        game_id = self.session.game_id if self.session is not None else None
        self._send(peer_id, frame("hello", name=self.name, game=game_id))
        for payload in self.history():
            self._send(peer_id, self.transport.outgoing(payload))
        return peer_id

    def disconnect(self, peer_id: int) -> Note | None:
        peer = self.peers.pop(peer_id, None)
        return Note("left", peer.name) if peer is not None and peer.name else None

    def here(self) -> list[str]:
        return [p.name for p in self.peers.values() if p.name]

    def absent(self) -> list[str]:
        """The players whose devices a message from here cannot reach now: for the host, every other
        player with no channel open; for a guest, the host (who relays to the others) when its channel
        is down. Their devices get the message when they connect again (``connect`` sends everything)."""
        if self.session is None:
            return []
        device = self.session.device
        names = [hello.name for i, hello in enumerate(device.hellos) if i != device.me]
        here = self.here()
        if not self.host:
            names = names[:1]  # the host: the others are reached through it
        return [name for name in names if name not in here]

    def history(self) -> list[str]:
        """Every message this device has, in order: the chain (the invitation first), and a guest's
        join while the game has not started (the host may not have it yet)."""
        if self.session is None:
            return []
        device = self.session.device
        out = list(device.chain)
        if device.own_join is not None and not device.started:
            out.append(device.own_join)
        return out

    def _send(self, peer_id: int, text: str) -> None:
        peer = self.peers.get(peer_id)
        if peer is None:
            return
        try:
            peer.send(text)
        except Exception:  # a channel that closed meanwhile: its close event says so
            peer.here = False

    def broadcast(self, payload: str, but: int | None = None) -> None:
        """A message for every other device (a guest has one peer: the host, who relays)."""
        text = self.transport.outgoing(payload)
        for peer_id in list(self.peers):
            if peer_id != but:
                self._send(peer_id, text)

    # --- what comes in -------------------------------------------------------------------
    def receive(self, peer_id: int, text: Any) -> list[Note]:
        """A frame from ``peer_id``: presence, or a message relayed (host) and applied here."""
        peer = self.peers.get(peer_id)
        if peer is None:
            return []
        try:
            kind, data = read_frame(text)
        except Refused as err:
            return [Note("refused", peer.name or "", reason=err.reason)]
        if kind == "hello":
            game = data["game"]
            if game is not None and self.session is not None and game != self.session.game_id:
                return [Note("refused", data["name"], reason="the other device is in another game")]
            first = peer.name is None
            peer.name = data["name"]
            return [Note("here", peer.name)] if first else []
        if kind == "early":
            if self.host:
                for other in list(self.peers):  # a guest's shares may be for another guest's tiles
                    if other != peer_id:
                        self._send(other, text)
            return self._read_early(int(data["f"]), str(data["p"]))
        payload = str(data["p"])
        if self.host:
            self.broadcast(payload, but=peer_id)  # the others get it even if this device is behind
        return self.apply(payload)

    def apply(self, payload: str) -> list[Note]:
        notes: list[Note] = []
        if self.session is None:
            if game_of(payload) is None or self.join is None:
                self._wait(payload)  # before the invitation: kept for when this device has joined
                return notes
            try:
                self.session = self.join(payload)
            except Refused as err:
                return [Note("refused", reason=err.reason)]
            notes.append(Note("joined"))
            for message in self.history()[1:]:  # this device's join, for the host
                self.broadcast(message)
            payload = ""
        if payload:
            notes += self._open(payload)
        progress = True
        while progress and self.waiting:
            progress = False
            for waiting in list(self.waiting):
                self.waiting.remove(waiting)
                opened = self._open(waiting)
                if any(n.kind == "applied" for n in opened):
                    notes += opened
                    progress = True
        return notes

    def _read_early(self, seat: int, part: str) -> list[Note]:
        if self.session is None:
            return []
        try:
            changed = self.session.read_early(seat, part)
        except Refused:
            return []  # not for this device's tiles, or stale: the chain's message brings them anyway
        return [Note("early")] if changed else []

    def _early(self) -> None:
        """After a message applied here: this device's shares of tiles just drawn, at once."""
        if self.session is None:
            return
        early = self.session.early()
        if early is not None:
            text = frame("early", f=early[0], p=early[1])
            for peer_id in list(self.peers):
                self._send(peer_id, text)

    def _wait(self, payload: str) -> None:
        if payload not in self.waiting and len(self.waiting) < MAX_WAITING:
            self.waiting.append(payload)

    def _open(self, payload: str) -> list[Note]:
        assert self.session is not None
        try:
            outcome = self.session.open_message(payload)
        except Refused as err:
            if err.reason.startswith("already played"):
                return []  # a duplicate (a relay, a resync): changes nothing
            if err.reason.startswith("open ") or "previous link first" in err.reason:
                self._wait(payload)
                return []
            return [Note("refused", reason=err.reason)]
        for payload in outcome.links or ([outcome.send] if outcome.send else []):
            self.broadcast(payload)
        self._early()
        return [Note("applied", outcome=outcome)]

    def played(self, payload: str | None) -> None:
        """This device's own message (a move, a resignation): to everyone."""
        if payload:
            self.broadcast(payload)


#: The live tables of this page, by save id (or "" for a guest still pairing): a table outlives the
#: page that drew it, so moving between routes keeps the channels open.
TABLES: dict[str, Table] = {}


def ice_servers(setting: Any) -> list[dict[str, Any]]:
    """The ``iceServers`` of ``RTCPeerConnection``: none unless the player entered a STUN or TURN URL
    in Settings (``turn:user:password@host:port`` for a TURN server with its credentials)."""
    if not isinstance(setting, str) or not setting.strip():
        return []
    url = setting.strip()
    scheme, _, rest = url.partition(":")
    if scheme not in ("stun", "stuns", "turn", "turns") or not rest or len(url) > 300 or any(c.isspace() for c in url):
        return []
    if scheme.startswith("turn") and "@" in rest:
        credentials, _, host = rest.rpartition("@")
        user, _, password = credentials.partition(":")
        return [{"urls": f"{scheme}:{host}", "username": user, "credential": password}]
    return [{"urls": url}]


def check_server(setting: str) -> str | None:
    """Why a STUN/TURN setting cannot be used (None: it can, or it is empty)."""
    if setting.strip() and not ice_servers(setting):
        return "a server is written stun:host:port or turn:user:password@host:port"
    return None


class Link:
    """One ``RTCPeerConnection`` with one data channel, in the browser. ``on_open``, ``on_message``
    and ``on_close`` are called from the browser's events; ``failed`` says why a pairing did not
    connect (``"timeout"``, ``"failed"``), for the page to put in words."""

    def __init__(self, servers: list[dict[str, Any]], on_open: Callable[["Link"], None],
                 on_message: Callable[["Link", str], None], on_close: Callable[["Link"], None]) -> None:
        from pyscript import window
        from pyscript.ffi import create_proxy, to_js

        self.on_open, self.on_message, self.on_close = on_open, on_message, on_close
        self.channel: Any = None
        self.opened = False
        self.closed = False
        self.failed: str | None = None
        self._blip = 0  # the number of the latest "disconnected": only the latest one's wait may close
        self._timers: list[Any] = []  # cleared on close: no wait outlives its connection
        self._proxies: list[Any] = []
        self._listening: list[tuple[Any, str, Any]] = []
        self._proxy = create_proxy
        self.pc = window.RTCPeerConnection.new(to_js({"iceServers": servers}, dict_converter=window.Object.fromEntries))
        self._listen(self.pc, "connectionstatechange", lambda _e: self._state())
        self._listen(self.pc, "datachannel", lambda e: self._channel(e.channel))

    def _listen(self, target: Any, kind: str, fn: Callable[[Any], None]) -> None:
        """``fn`` on ``target``'s ``kind`` events, taken off again at ``close``: a closed connection's
        channel still says "close" afterwards, and a destroyed proxy must never be called."""
        proxy = self._keep(fn)
        target.addEventListener(kind, proxy)
        self._listening.append((target, kind, proxy))

    def _keep(self, fn: Callable[[Any], None]) -> Any:
        proxy = self._proxy(fn)
        self._proxies.append(proxy)
        return proxy

    def _state(self) -> None:
        state = str(self.pc.connectionState)
        if state == "failed" and not self.opened:
            self.failed = "failed"
        if state == "disconnected" and self.opened and not self.closed:
            # a blip: the browser's ICE may find the other phone again; closed only if it has not since
            self._blip += 1
            blip = self._blip
            self._later(lambda: self._blip_over(blip), BLIP_SECONDS)
        elif state in ("failed", "closed") and self.opened:
            self._closed()

    def check(self) -> None:
        """The connection looked at again when the page is visible (a phone back from a locked screen,
        a page back from the browser's back-forward cache), in case its events did not come while the
        page was frozen: a connection that ended meanwhile is closed now, as at a blip's end (the page
        then says who left and offers to pair again); one still "disconnected" gets a blip's whole wait
        from now, for ICE to find the other phone once this one's Wi-Fi is back."""
        if not self.opened or self.closed:
            return
        state = str(self.pc.connectionState)
        if state in ("failed", "closed") or self.channel is None or str(self.channel.readyState) != "open":
            self._closed()
        elif state == "disconnected":
            self._state()

    def _blip_over(self, blip: int) -> None:
        if blip == self._blip and str(self.pc.connectionState) != "connected":
            self._closed()

    def _later(self, fn: Callable[[], None], seconds: float) -> None:
        from pyscript import window

        proxy = self._keep(lambda *_a: fn())
        self._timers.append(window.setTimeout(proxy, int(seconds * 1000)))

    def _channel(self, channel: Any) -> None:
        self.channel = channel
        self._listen(channel, "open", lambda _e: self._opened())
        self._listen(channel, "message", lambda e: self.on_message(self, str(e.data)))
        self._listen(channel, "close", lambda _e: self._closed())
        if str(channel.readyState) == "open":
            self._opened()

    def _opened(self) -> None:
        if not self.opened:
            self.opened = True
            self.on_open(self)

    def _closed(self) -> None:
        if self.opened and not self.closed:
            self.closed = True
            self.on_close(self)

    async def _gathered(self) -> str:
        import asyncio

        waited = 0.0
        while str(self.pc.iceGatheringState) != "complete" and waited < GATHER_SECONDS:
            await asyncio.sleep(0.05)
            waited += 0.05
        return str(self.pc.localDescription.sdp)

    async def offer(self) -> str:
        """This device's offer, as a pairing code."""
        from pyscript.ffi import to_js
        from pyscript import window

        self._channel(self.pc.createDataChannel(LABEL, to_js({"ordered": True},
                                                             dict_converter=window.Object.fromEntries)))
        await self.pc.setLocalDescription(await self.pc.createOffer())
        return pairing.compact(await self._gathered(), answer=False)

    async def answer(self, offer_code: str) -> str:
        """The answer to another device's offer code, as a pairing code (``PairingRefused``)."""
        sdp = pairing.expand(offer_code, answer=False)
        await self._describe("offer", sdp)
        await self.pc.setLocalDescription(await self.pc.createAnswer())
        return pairing.compact(await self._gathered(), answer=True)

    async def accept(self, answer_code: str) -> None:
        """The other device's answer to this device's offer (``PairingRefused``)."""
        await self._describe("answer", pairing.expand(answer_code, answer=True))

    async def _describe(self, kind: str, sdp: str) -> None:
        from pyscript.ffi import to_js
        from pyscript import window

        try:
            await self.pc.setRemoteDescription(to_js({"type": kind, "sdp": sdp}, dict_converter=window.Object.fromEntries))
        except Exception as err:  # the browser's own refusal of a description
            raise pairing.PairingRefused(f"the browser refused the {kind}: {str(err)[:160]}") from None

    async def wait_open(self, seconds: float = CONNECT_SECONDS, on_stall: Callable[[], None] | None = None,
                        stall: float = STALL_SECONDS) -> bool:
        """Whether the channel opened within ``seconds``; ``on_stall`` is called once if it has not
        after ``stall`` seconds (the page says it is still trying, and what to do)."""
        import asyncio

        waited = 0.0
        while not self.opened and self.failed is None and waited < seconds:
            await asyncio.sleep(0.1)
            waited += 0.1
            if on_stall is not None and waited >= stall and not self.opened:
                on_stall()
                on_stall = None
        if not self.opened and self.failed is None:
            self.failed = "timeout"
        return self.opened

    def send(self, text: str) -> None:
        if self.channel is None or str(self.channel.readyState) != "open":
            raise ConnectionError("the channel is not open")
        self.channel.send(text)

    def close(self) -> None:
        try:
            if self._timers:
                from pyscript import window

                for timer in self._timers:
                    window.clearTimeout(timer)
                self._timers = []
            for target, kind, proxy in self._listening:
                target.removeEventListener(kind, proxy)
            self._listening = []
            self.pc.close()
        finally:
            for proxy in self._proxies:
                proxy.destroy()
            self._proxies = []
