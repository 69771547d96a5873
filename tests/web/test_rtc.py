"""Live play's table (web/platform/rtc.py): the protocol's messages over channels, relayed by the host,
duplicated, reordered and cut, with every device agreeing in the end."""

from __future__ import annotations

import asyncio
import importlib
import random
import types
from typing import Any, Iterator

import pytest

from game.remote.session import Device, Refused
from web.platform import rtc
from web.platform.i18n import Messages, load_catalogue
from web.platform.remote import RemoteSession
from web.platform.rtc import ChannelTransport, Table
from web.platform.storage import MemoryStore, SaveStore

from tests.web.standin import run_alone, stand_in_pyscript


class Net:
    """Channels between tables as queues of frames; ``deliver`` hands them over in an order (shuffled,
    some twice) chosen by ``rng``."""

    def __init__(self, rng: random.Random | None = None, duplicate: float = 0.0) -> None:
        self.queue: list[tuple[Table, dict[str, int], str, str]] = []
        self.rng, self.duplicate = rng, duplicate
        self.notes: list[rtc.Note] = []

    def link(self, a: Table, b: Table) -> tuple[int, int]:
        ids: dict[str, int] = {}  # each end's id for the other, known once both ends connected
        ids["a"] = a.connect(lambda text: self.queue.append((b, ids, "b", text)))
        ids["b"] = b.connect(lambda text: self.queue.append((a, ids, "a", text)))
        return ids["a"], ids["b"]

    def deliver(self, limit: int = 100_000) -> None:
        steps = 0
        while self.queue and steps < limit:
            steps += 1
            index = self.rng.randrange(len(self.queue)) if self.rng else 0
            table, ids, end, text = self.queue.pop(index)
            if self.rng and self.rng.random() < self.duplicate:
                self.queue.append((table, ids, end, text))
            self.notes += table.receive(ids[end], text)
        assert not self.queue, "the messages never settled"


def _store() -> SaveStore:
    return SaveStore(MemoryStore())


def _guest(name: str) -> Table:
    store = _store()

    def join(invitation: str) -> RemoteSession:
        device, _answer = Device.join(invitation, name)
        return RemoteSession.create(store, device, "live")

    return Table(False, name, join=join)


def _host(game: str, players: int) -> Table:
    device, _invitation = Device.invite(game, "Anna", players, {})
    return Table(True, "Anna", RemoteSession.create(_store(), device, "live"))


def _play_out(tables: list[Table], net: Net, rng: random.Random | None = None, limit: int = 400) -> None:
    for _ in range(limit):
        net.deliver()
        sessions = [t.session for t in tables]
        assert all(s is not None for s in sessions)
        anyone = sessions[0]
        assert anyone is not None
        if anyone.device.over():
            return
        mover = next(t for t in tables if t.session is not None and t.session.your_turn())
        assert mover.session is not None
        state = mover.session.state
        moves = state.legal_moves()
        move = moves[rng.randrange(len(moves))] if rng else moves[0]
        mover.played(mover.session.play(state.move_text(move)).send)
    raise AssertionError("the game did not end")


def _agree(tables: list[Table]) -> None:
    shown = [t.session.device.show() for t in tables if t.session is not None]
    assert len(shown) == len(tables)
    assert all(s["scores"] == shown[0]["scores"] and s["over"] for s in shown)
    assert all(s["verified"] is True for s in shown)
    assert len({t.session.device.hashes[-1] for t in tables if t.session is not None}) == 1


def test_two_devices_pair_and_play_a_whole_thot_game() -> None:
    host, guest = _host("thot", 2), _guest("Bruno")
    net = Net()
    net.link(host, guest)
    _play_out([host, guest], net)
    _agree([host, guest])
    assert {n.kind for n in net.notes} >= {"here", "joined", "applied"}
    assert not any(n.kind == "refused" for n in net.notes)
    assert sorted(n.name for n in net.notes if n.kind == "here") == ["Anna", "Bruno"]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_three_players_through_the_host_with_messages_duplicated_and_reordered(seed: int) -> None:
    """The host relays; every frame may arrive late or twice: the protocol's order and "already
    played" checks, and the table's waiting list, make every device end on the same chain."""
    rng = random.Random(seed)
    host, bruno, carla = _host("scarabya", 3), _guest("Bruno"), _guest("Carla")
    net = Net(rng, duplicate=0.3)
    net.link(host, bruno)
    net.link(host, carla)
    _play_out([host, bruno, carla], net, rng)
    _agree([host, bruno, carla])
    assert not any(n.kind == "refused" for n in net.notes), [n.reason for n in net.notes if n.kind == "refused"]
    assert not any(t.waiting for t in (host, bruno, carla))


def _paired() -> tuple[Table, Table, Net, int]:
    """Anna hosts a Thot game, Bruno's device joins over one channel; the host's end of it."""
    host, guest = _host("thot", 2), _guest("Bruno")
    net = Net()
    host_end, _guest_end = net.link(host, guest)
    net.deliver()
    assert host.session is not None and guest.session is not None
    return host, guest, net, host_end


def test_a_guest_that_reloads_reconnects_from_its_save_and_catches_up() -> None:
    host, guest, net, host_end = _paired()
    assert guest.session is not None
    for _ in range(3):  # a few moves, then the guest's page goes away
        mover = host if host.session is not None and host.session.your_turn() else guest
        assert mover.session is not None
        state = mover.session.state
        mover.played(mover.session.play(state.move_text(state.legal_moves()[0])).send)
        net.deliver()
    note = host.disconnect(host_end)
    assert note is not None and note.kind == "left" and note.name == "Bruno"
    # while the guest is away, the host moves if it is its turn: the move waits in its chain
    assert host.session is not None
    if host.session.your_turn():
        state = host.session.state
        host.played(host.session.play(state.move_text(state.legal_moves()[0])).send)
    old = guest.session
    reloaded = RemoteSession.open(old.store, old.save.id)
    again = Table(False, "Bruno", reloaded)
    net.queue.clear()
    net.link(host, again)
    net.deliver()
    assert again.session is not None
    assert again.session.device.hashes == host.session.device.hashes
    _play_out([host, again], net)
    _agree([host, again])


def test_who_a_message_cannot_reach_is_known_on_both_ends() -> None:
    """Issue 37: a move made while the other device is away is said to be missed by it (the page's
    "Bruno's phone did not get your move"); it reaches it at the next connection, with everything."""
    host, guest, net, host_end = _paired()
    assert host.absent() == [] and guest.absent() == []
    host.disconnect(host_end)
    assert host.absent() == ["Bruno"]
    guest.peers.clear()  # the guest's end closed too
    assert guest.absent() == ["Anna"]
    lone = _host("thot", 3)
    assert lone.absent() == []  # nobody joined yet: nobody to miss a message


def test_frames_from_outside_are_refused_with_a_reason_and_change_nothing() -> None:
    host, _guest, _net, host_end = _paired()
    assert host.session is not None
    before = list(host.session.device.chain)
    for text, reason in [("{", "unreadable frame"), ('{"k":"boo"}', "unknown kind"), ("[1]", "unknown kind"),
                         ('{"k":"msg"}', "without its message"), ('{"k":"msg","p":"r1.xyz"}', ""),
                         ('{"k":"hello","name":"","game":null}', "a name is"),
                         ('{"k":"hello","name":"X","game":"other"}', "another game"),
                         ("[" * 100 + "]" * 100, "unreadable frame"), (42, "not text")]:
        notes = host.receive(host_end, text)
        assert len(notes) == 1 and notes[0].kind == "refused" and reason in notes[0].reason, (text, notes)
    assert host.session.device.chain == before


def test_the_channel_transport_is_the_remote_seam() -> None:
    transport = ChannelTransport()
    assert transport.incoming(transport.outgoing("r1.abc")) == "r1.abc"
    with pytest.raises(Refused, match="not a message"):
        transport.incoming('{"k":"hello","name":"A","game":null}')


@pytest.mark.parametrize("setting, servers", [
    ("", []), ("  ", []), (None, []), ("http://example.org", []), ("stun:stun.example.org:3478 x", []),
    ("stun:stun.example.org:3478", [{"urls": "stun:stun.example.org:3478"}]),
    ("turn:me:secret@turn.example.org:3478",
     [{"urls": "turn:turn.example.org:3478", "username": "me", "credential": "secret"}]),
])
def test_ice_servers_only_from_the_setting(setting: Any, servers: list[dict[str, Any]]) -> None:
    assert rtc.ice_servers(setting) == servers
    if isinstance(setting, str):
        assert (rtc.check_server(setting) is None) == (bool(servers) or not setting.strip())


def test_the_live_routes() -> None:
    from web.platform import router

    assert router.parse("#/thot/live") == router.Route("game", "thot", "live", None, {}, "/thot/live")
    assert router.parse("#/scarabeo/live/abc").save_id == "abc"
    code = router.parse("#/live?o=AQAE-_x")
    assert code.name == "live" and code.query == {"o": "AQAE-_x"}
    assert router.parse("#/live?a=AQME").query == {"a": "AQME"}
    assert router.parse("#/live/x").name == "not-found"


class _Connection:
    """A peer connection as ``Link`` reads it: its state only."""

    connectionState = "connected"


def _opened_link() -> tuple[rtc.Link, list[Any], list[Any]]:
    """A ``Link`` already open (made without a browser), its waits run by hand, its closes counted."""
    link = rtc.Link.__new__(rtc.Link)
    waits: list[Any] = []
    closes: list[Any] = []
    link.pc, link.opened, link.closed, link.failed, link._blip = _Connection(), True, False, None, 0
    link.on_close = closes.append
    link._later = lambda fn, seconds: waits.append((fn, seconds))  # type: ignore[method-assign]
    return link, waits, closes


def test_a_blip_that_heals_keeps_the_channel() -> None:
    link, waits, closes = _opened_link()
    link.pc.connectionState = "disconnected"
    link._state()
    assert closes == [] and [s for _f, s in waits] == [rtc.BLIP_SECONDS]  # waits, not closed at once
    link.pc.connectionState = "connected"  # ICE found the other phone again
    link._state()
    waits.pop()[0]()
    assert closes == [] and not link.closed


def test_a_connection_still_down_after_the_wait_is_closed_once() -> None:
    link, waits, closes = _opened_link()
    link.pc.connectionState = "disconnected"
    link._state()
    link._state()  # said twice: only the latest wait may close
    first, latest = waits[0][0], waits[1][0]
    first()
    assert closes == []
    latest()
    assert closes == [link] and link.closed
    link.pc.connectionState = "failed"
    link._state()
    assert closes == [link]  # closed once


def test_failed_or_closed_close_at_once() -> None:
    for state in ("failed", "closed"):
        link, waits, closes = _opened_link()
        link.pc.connectionState = state
        link._state()
        assert closes == [link] and waits == []


# --- the browser side, with a stand-in ``pyscript`` ------------------------------------------------
# ``Link`` made by its own constructor over a fake ``RTCPeerConnection``; ``web.pages.together``
# imported with the stand-in, its texts read from the catalogue in both languages.

CATALOGUE = load_catalogue()


class FakeConnection:
    """An ``RTCPeerConnection`` as ``Link`` uses it: a state, listeners the test fires by hand, and a
    ``close`` that (as a browser's) fires no event."""

    def __init__(self, _config: Any = None) -> None:
        self.connectionState = "new"
        self.listeners: dict[str, list[Any]] = {}

    def addEventListener(self, kind: str, fn: Any) -> None:  # noqa: N802 - the DOM's name
        self.listeners.setdefault(kind, []).append(fn)

    def removeEventListener(self, kind: str, fn: Any) -> None:  # noqa: N802
        self.listeners[kind].remove(fn)

    def fire(self, kind: str, event: Any = None) -> None:
        for fn in list(self.listeners.get(kind, [])):
            fn(event)

    def state(self, state: str) -> None:
        """The browser's ``connectionstatechange``."""
        self.connectionState = state
        self.fire("connectionstatechange")

    def close(self) -> None:
        self.connectionState = "closed"


class FakeChannel(FakeConnection):
    """An ``RTCDataChannel``: open, its frames sent kept."""

    def __init__(self) -> None:
        super().__init__()
        self.readyState = "open"
        self.sent: list[str] = []

    def send(self, text: str) -> None:
        self.sent.append(text)


class FakeWindow:
    """The page's ``window`` and ``document`` in one: what ``rtc`` and ``together`` read of them."""

    def __init__(self) -> None:
        self.RTCPeerConnection = types.SimpleNamespace(new=FakeConnection)
        self.Object = types.SimpleNamespace(fromEntries=dict)
        self.navigator = types.SimpleNamespace()
        self.timers: list[Any] = []
        self.listeners: dict[str, list[Any]] = {}
        self.visibilityState = "visible"
        self.console = types.SimpleNamespace(warn=lambda *_a: None)

    def setTimeout(self, fn: Any, _ms: int) -> int:  # noqa: N802
        self.timers.append(fn)
        return len(self.timers)

    def clearTimeout(self, _timer: int) -> None:  # noqa: N802
        pass

    def addEventListener(self, kind: str, fn: Any) -> None:  # noqa: N802
        self.listeners.setdefault(kind, []).append(fn)

    def fire(self, kind: str) -> None:
        for fn in list(self.listeners.get(kind, [])):
            fn(None)


class Proxy:
    """``create_proxy``: the function, callable until destroyed."""

    def __init__(self, fn: Any) -> None:
        self.fn: Any = fn

    def __call__(self, *args: Any) -> Any:
        assert self.fn is not None, "a destroyed proxy was called"
        return self.fn(*args)

    def destroy(self) -> None:
        self.fn = None


@pytest.fixture(scope="module")
def browser() -> Iterator[tuple[Any, FakeWindow]]:
    """``web.pages.together`` imported with a stand-in ``pyscript`` whose window (and document) is a
    ``FakeWindow``; the modules imported for it are dropped afterwards."""
    window = FakeWindow()
    with stand_in_pyscript(window, create_proxy=Proxy):
        yield importlib.import_module("web.pages.together"), window


class App:
    """What the live page asks of the app: texts in one language, and the toasts it shows."""

    def __init__(self, lang: str) -> None:
        self.t = Messages(CATALOGUE, lang)
        self.toasts: list[tuple[str, bool]] = []

    def toast(self, text: str, error: bool = False) -> None:
        self.toasts.append((text, error))


def _link(opened: list[rtc.Link] | None = None, closed: list[rtc.Link] | None = None) -> rtc.Link:
    return rtc.Link([], (opened if opened is not None else []).append, lambda _l, _t: None,
                    (closed if closed is not None else []).append)


@pytest.mark.parametrize("lang", ["en", "it"])
def test_a_connection_that_never_opens_is_said_to_have_taken_too_long(browser: Any, lang: str) -> None:
    together, _window = browser
    link = _link()
    link.pc.state("connecting")  # the other phone never answers (another network, no route)
    assert run_alone(link.wait_open(0.3)) is False
    assert link.failed == "timeout" and not link.opened
    said = together.failure_text(App(lang).t, link)
    assert said == CATALOGUE["live.failed.timeout"][lang]
    assert ("30 secondi" if lang == "it" else "30 seconds") in said  # the wait, and its likely cause
    assert ("stessa rete" if lang == "it" else "same network") in said


@pytest.mark.parametrize("lang", ["en", "it"])
def test_a_connection_that_fails_is_said_to_be_two_networks(browser: Any, lang: str) -> None:
    together, _window = browser
    link = _link()

    async def pairing() -> bool:
        waiting = asyncio.ensure_future(link.wait_open(30))
        await asyncio.sleep(0.15)
        link.pc.state("failed")  # ICE tried every candidate pair: none reached the other phone
        return await waiting

    assert run_alone(pairing()) is False  # said at once, not after the whole wait
    assert link.failed == "failed"
    said = together.failure_text(App(lang).t, link)
    assert said == CATALOGUE["live.failed.network"][lang] != CATALOGUE["live.failed.timeout"][lang]
    assert ("reti diverse" if lang == "it" else "different networks") in said


def test_a_connection_that_opens_is_no_failure(browser: Any) -> None:
    opened: list[rtc.Link] = []
    link = _link(opened)

    async def pairing() -> bool:
        waiting = asyncio.ensure_future(link.wait_open(30))
        await asyncio.sleep(0.15)
        link.pc.fire("datachannel", types.SimpleNamespace(channel=FakeChannel()))
        return await waiting

    assert run_alone(pairing()) is True
    assert link.failed is None and opened == [link]


def test_a_pairing_that_stalls_is_said_once_before_it_fails() -> None:
    """Issue 37: a pairing still not open after ``stall`` seconds calls the page's ``on_stall`` (the
    page says it is still trying and what to do) once, well before the failure is said."""
    link = _link()
    link.pc.state("connecting")
    stalls: list[float] = []
    loop_time: list[float] = []

    async def pairing() -> bool:
        loop_time.append(asyncio.get_running_loop().time())
        return await link.wait_open(0.6, on_stall=lambda: stalls.append(asyncio.get_running_loop().time()),
                                    stall=0.2)

    assert run_alone(pairing()) is False and link.failed == "timeout"
    assert len(stalls) == 1 and stalls[0] - loop_time[0] < 0.5
    assert rtc.STALL_SECONDS < 15 < rtc.CONNECT_SECONDS


def test_a_channel_that_says_close_after_its_link_closed_calls_nothing_destroyed() -> None:
    """A pairing given up (``Link.close``): the browser's channel still fires "close" afterwards,
    which used to call a destroyed proxy ("Object has already been destroyed" on the page)."""
    closed: list[rtc.Link] = []
    link = _link(closed=closed)
    channel = FakeChannel()
    link.pc.fire("datachannel", types.SimpleNamespace(channel=channel))
    link.close()
    channel.fire("close")
    link.pc.state("closed")
    assert closed == [] and not any(channel.listeners.values()) and not any(link.pc.listeners.values())


class Refusal(Exception):
    """A JavaScript error in Pyodide: its name, then its message."""


@pytest.mark.parametrize("lang", ["en", "it"])
@pytest.mark.parametrize("error, key", [
    ("NotAllowedError: Permission denied", "live.camera.refused"),
    ("NotFoundError: Requested device not found", "live.camera.none"),
    (None, "live.camera.none"),  # no mediaDevices at all (a page not served over HTTPS)
])
def test_the_camera_refused_or_missing_is_said_and_nothing_is_scanned(
        browser: Any, monkeypatch: pytest.MonkeyPatch, lang: str, error: str | None, key: str) -> None:
    together, window = browser
    asked: list[Any] = []

    async def get_user_media(constraints: Any) -> Any:
        asked.append(constraints)
        raise Refusal(error)

    media = types.SimpleNamespace(getUserMedia=get_user_media) if error else None
    monkeypatch.setattr(window, "navigator", types.SimpleNamespace(mediaDevices=media))
    app, found = App(lang), []
    run_alone(together.scan(app, found.append))
    assert app.toasts == [(CATALOGUE[key][lang], True)]
    assert found == []
    assert asked == ([{"video": {"facingMode": "environment"}}] if error else [])
    said = app.toasts[0][0]
    assert ("incolla il codice" if lang == "it" else "paste the code") in said  # the other way, said


def _live_with_bruno(together: Any, app: App) -> tuple[Any, rtc.Link, FakeChannel]:
    """Anna's live Thot game, Bruno's phone connected over a ``Link`` and greeted."""
    device, _invitation = Device.invite("thot", "Anna", 2, {})
    live = together.Live(Table(True, "Anna", RemoteSession.create(_store(), device, "live")), app)
    link = rtc.Link([], live.attach, lambda _l, _t: None, lambda _l: None)
    channel = FakeChannel()
    link.pc.state("connected")
    link.pc.fire("datachannel", types.SimpleNamespace(channel=channel))
    channel.fire("message", types.SimpleNamespace(data=rtc.frame("hello", name="Bruno", game=None)))
    return live, link, channel


async def _drained(live: Any) -> None:
    for _ in range(100):
        await asyncio.sleep(0)
        if not live.jobs and not live.running:
            return
    raise AssertionError("the live game's work never ended")


@pytest.mark.parametrize("lang", ["en", "it"])
def test_a_phone_back_from_a_locked_screen_finds_its_dead_channel_and_offers_to_pair_again(
        browser: Any, monkeypatch: pytest.MonkeyPatch, lang: str) -> None:
    """The page was frozen while the channel died: no event came. Shown again, it looks: the player
    is said to have left, the table holds nobody (the page's pairing offer), the connection closed."""
    together, window = browser
    monkeypatch.setattr(window, "listeners", {})
    monkeypatch.setattr(window, "scarabLiveWatch", None, raising=False)
    monkeypatch.setattr(together, "LIVE", {})
    app = App(lang)

    async def scenario() -> tuple[Any, rtc.Link, FakeChannel]:
        live, link, channel = _live_with_bruno(together, app)
        together.LIVE["g1"] = live
        await _drained(live)
        assert live.table.here() == ["Bruno"]
        assert app.toasts == [(CATALOGUE["live.here"][lang].format(name="Bruno"), False)]
        assert channel.sent[0].startswith('{"k":"hello","name":"Anna"')  # greeted, the game sent
        # the screen locks; the page freezes; meanwhile the connection ends, unheard
        window.visibilityState = "hidden"
        window.fire("visibilitychange")
        await _drained(live)
        assert live.table.here() == ["Bruno"]  # hidden: nothing looked at
        link.pc.connectionState, channel.readyState = "failed", "closed"
        window.visibilityState = "visible"
        window.fire("visibilitychange")
        await _drained(live)
        return live, link, channel

    live, link, _channel = run_alone(scenario())
    assert live.table.here() == [] and live.links == {}
    assert link.closed and link.pc.connectionState == "closed"
    assert app.toasts[1:] == [(CATALOGUE["live.left"][lang].format(name="Bruno"), False)]
    window.fire("pageshow")  # shown again (the back-forward cache): nothing more to close
    assert len(app.toasts) == 2


def test_a_channel_still_open_or_only_disconnected_when_the_page_shows_again(
        browser: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Healthy: untouched. "disconnected" (the phone's Wi-Fi waking up): a blip's wait from now,
    closed only if the connection is still down when it ends."""
    together, window = browser
    monkeypatch.setattr(window, "listeners", {})
    monkeypatch.setattr(window, "scarabLiveWatch", None, raising=False)
    monkeypatch.setattr(window, "timers", [])
    monkeypatch.setattr(window, "visibilityState", "visible")
    monkeypatch.setattr(together, "LIVE", {})
    app = App("en")

    async def scenario() -> tuple[Any, rtc.Link]:
        live, link, _channel = _live_with_bruno(together, app)
        together.LIVE["g1"] = live
        await _drained(live)
        window.fire("pageshow")
        await _drained(live)
        assert live.table.here() == ["Bruno"] and not link.closed and window.timers == []
        link.pc.connectionState = "disconnected"  # its event came while the page was frozen
        window.fire("visibilitychange")
        await _drained(live)
        assert live.table.here() == ["Bruno"] and len(window.timers) == 1  # waits: ICE may heal it
        window.timers.pop()()
        await _drained(live)
        return live, link

    live, link = run_alone(scenario())
    assert live.table.here() == [] and link.closed
    assert [text for text, _e in app.toasts] == ["Bruno is here", "Bruno left"]
