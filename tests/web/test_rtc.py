"""Live play's table (web/platform/rtc.py): the protocol's messages over channels, relayed by the host,
duplicated, reordered and cut, with every device agreeing in the end."""

from __future__ import annotations

import random
from typing import Any

import pytest

from game.remote.session import Device, Refused
from web.platform import rtc
from web.platform.remote import RemoteSession
from web.platform.rtc import ChannelTransport, Table
from web.platform.storage import MemoryStore, SaveStore


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
