"""The device-to-device protocol for Thot and Scarabya: whole games through messages alone, the
hash chain's refusals (each leaving the device as it was), joins, resign/leave, shared randomness."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.core import GameRecord
from game.remote import sign
from game.remote.ristretto import L
from game.remote.session import Device, Refused
from game.remote.wire import b64, digest, pack, unb64, unpack
from game.scarabya.state import ScarabyaState
from game.thot.state import ThotState
from tests.remote.protocol_helpers import deliver, flip, fork_of, play_one, raw_repack, repack, start, state_of

GAMES = [("thot", 2, {}), ("thot", 3, {"short": True}), ("thot", 4, {"short": True, "teams": True}),
         ("scarabya", 2, {}), ("scarabya", 3, {}), ("scarabya", 4, {})]


@pytest.mark.parametrize(("game", "players", "options"), GAMES)
def test_whole_game_through_messages(game: str, players: int, options: dict[str, Any]) -> None:
    devices = start(game, players, options)
    assert sorted(d.seat for d in devices) == list(range(players))
    assert len({d.seed for d in devices}) == 1
    rng = random.Random(players)
    while not devices[0].over():
        play_one(devices, rng)
        positions = {d.game.state.position() for d in devices if d.game is not None}
        assert len(positions) == 1
        assert len({d.hashes[-1] for d in devices}) == 1
    shown = [d.show() for d in devices]
    assert all(s["over"] and s["verified"] is True for s in shown)
    assert len({str(s["scores"]) for s in shown}) == 1
    assert len({str(s["result"]) for s in shown}) == 1
    # Every device exports the same record, and it replays to the same end as a local game.
    records = {json.dumps(d.export()) for d in devices}
    assert len(records) == 1
    record = GameRecord.from_json(json.loads(records.pop()))
    replayed = record.replay(ThotState.from_options if game == "thot" else ScarabyaState.from_options)
    assert replayed.position() == devices[0].game.state.position()  # type: ignore[union-attr]
    assert record.meta["names"] == devices[0].names()


def test_a_stored_device_is_the_same_device() -> None:
    devices = start("scarabya", 3)
    rng = random.Random(5)
    for _ in range(7):
        play_one(devices, rng)
    for device in devices:
        again = Device.from_json(device.to_json())
        assert again.show() == device.show()
        assert again.hashes == device.hashes


# --- refusals: each leaves the device exactly as it was ------------------------------------------

def _refused(device: Device, text: str, expected: str) -> str:
    before = state_of(device)
    shown = device.show()
    with pytest.raises(Refused) as caught:
        device.open(text)
    assert expected in caught.value.reason, caught.value.reason
    assert state_of(device) == before
    assert device.show() == shown
    return caught.value.reason


def test_duplicate_gap_foreign_conflict() -> None:
    a, b, c = start("thot", 3, {"short": True})
    rng = random.Random(1)
    first = a.play(random.Random(0).choice(a.show()["legal"]))
    b.open(first)
    _refused(b, first, "already played")
    second = b.play(rng.choice(b.show()["legal"]))
    # c missed a's move: b's link carries it too (c has not answered since), so c catches up.
    assert unpack(second)["b"][-2:] == [unpack(a.chain[-1]), unpack(b.chain[-1])]
    # b's message alone, without a's: c is told whose link to open first, and which message.
    reason = _refused(c, b.chain[-1], f"open {a.names()[0]}'s previous link first")
    assert f"message {len(c.chain)} of this game is missing" in reason
    c.open(second)
    assert c.hashes == b.hashes
    a.open(second)
    # A message of another game.
    other = start("thot", 3, {"short": True})
    foreign = other[0].play(other[0].show()["legal"][0])
    _refused(a, foreign, "this link is not from this game")
    # The same seat signing two different messages for one place in the chain.
    mover = [d for d in (a, b, c) if d.seat == a.game.state.to_move()][0]  # type: ignore[union-attr]
    one, two = fork_of(mover)
    watcher = [d for d in (a, b, c) if d is not mover][0]
    watcher.open(one)
    # Equivocation proves a cheat (issue 36): the game stops there, both messages kept as
    # evidence, nothing of the second applied (tests/remote/test_stop.py has the rest).
    before = watcher.chain[:]
    assert watcher.open(two).kind == "stopped"
    assert watcher.chain == before and watcher.forks[0]["messages"] == [one, two]


def test_altered_and_truncated_links() -> None:
    a, b = start("scarabya", 2)
    mover, other = (a, b) if a.seat == 0 else (b, a)
    mover.play(mover.show()["legal"][0])
    text = mover.chain[-1]  # the move alone (its link may carry the start too)
    for i in range(3, len(text), max(1, len(text) // 25)):
        _refused(other, flip(text, i), "")  # any reason: it must not be applied
    for cut in (len(text) - 1, len(text) // 2, 10):
        _refused(other, text[:cut], "")
    # A well-packed message whose move was edited: the signature no longer matches.
    legal = other.show()["legal"]
    edited = repack(text, lambda d: d["m"].update(t=legal[-1]))
    assert _refused(other, edited, "this link was altered").endswith("(its signature does not match)")
    # The same content, not written as Scarab writes it (spaces): refused before anything else.
    _refused(other, raw_repack(text, b'{"m": 1}'), "this link was altered")
    other.open(text)


def test_a_message_in_another_seats_name_is_refused() -> None:
    a, b, c = start("thot", 3, {"short": True})
    to_move = a.game.state.to_move()  # type: ignore[union-attr]
    forger = [d for d in (a, b, c) if d.seat != to_move][0]
    victim = [d for d in (a, b, c) if d is not forger and d.seat != to_move][0]
    m = forger._header("move", to_move)
    m["t"] = victim.show()["legal"][0]
    _refused(victim, forger._signed(m), "its signature does not match")
    # In its own name, out of turn.
    m = forger._header("move", forger.seat)  # type: ignore[arg-type]
    m["t"] = "A1"
    _refused(victim, forger._signed(m), "is to play")


def test_an_illegal_move_is_refused() -> None:
    a, b = start("thot", 2)
    mover, other = (a, b) if a.seat == 0 else (b, a)
    m = mover._header("move", 0)
    m["t"] = "A1"  # the priest's own row and column hold the legal targets; A1 is not one of them here
    if "A1" in mover.show()["legal"]:
        m["t"] = "Z9"
    _refused(other, mover._signed(m), "is not legal here")
    with pytest.raises(Refused):
        mover.play("A1" if "A1" not in mover.show()["legal"] else "Z9")
    with pytest.raises(Refused, match="turn"):
        other.play(other.show()["legal"][0] if other.show()["legal"] else "A1")


def test_resend_resynchronises() -> None:
    a, b = start("thot", 2, {"short": True})
    mover, other = (a, b) if a.seat == 0 else (b, a)
    text = mover.play(mover.show()["legal"][0])
    assert mover.resend() == text  # the very same link, not a new message
    other.open(mover.resend())
    assert other.hashes == mover.hashes
    assert other.resend() == other.own_join or other.me == 0


# --- joining --------------------------------------------------------------------------------------

def test_joins_for_three_reach_everyone() -> None:
    inviter, invitation = Device.invite("scarabya", "Anna", 3, {"layout": "1.0-2.3-3.1-4.2"})
    bruno, from_bruno = Device.join(invitation, "Bruno")
    carla, from_carla = Device.join(invitation, "Carla")
    # A group chat: Carla's device sees Bruno's answer; it notes it and waits for the start.
    assert carla.open(from_bruno).kind == "join"
    assert inviter.open(from_bruno).send is None
    with pytest.raises(Refused, match="already played"):
        inviter.open(from_bruno)
    event = inviter.open(from_carla)
    assert event.kind == "start" and event.send is not None
    dario, from_dario = Device.join(invitation, "Dario")
    with pytest.raises(Refused, match="already has its 3 players"):
        inviter.open(from_dario)
    with pytest.raises(Refused, match="started without you"):
        dario.open(event.send)
    for device in (bruno, carla):
        device.open(event.send)
    assert bruno.names() == carla.names() == inviter.names()
    assert inviter.game.state.layout.text() == "1.0-2.3-3.1-4.2"  # type: ignore[union-attr]
    # An answer to another invitation.
    _, elsewhere = Device.invite("scarabya", "Eva", 3)
    _, stray = Device.join(elsewhere, "Fede")
    with pytest.raises(Refused, match="not from this game"):
        inviter.open(stray)


def test_the_inviter_cannot_change_its_value_after_the_joins() -> None:
    inviter, invitation = Device.invite("thot", "Anna", 2)
    bruno, answer = Device.join(invitation, "Bruno")
    inviter.open(answer)
    m = {"v": 1, "k": "start", "g": inviter.game_id, "n": 1, "p": b64(inviter.hashes[0]),
         "j": [unpack(answer)], "r": b64(bytes(32))}
    forged = inviter._signed(m)
    _refused(bruno, forged, "not the one committed to")


def test_the_seed_and_seats_depend_on_every_value() -> None:
    seeds = set()
    for _ in range(4):
        devices = start("thot", 2)
        seeds.add(devices[0].seed)
    assert len(seeds) == 4


@pytest.mark.parametrize(("game", "players", "options", "reason"), [
    ("scarabya", 2, {"variant": "ruins", "deck": "0123456789ABCDEF"}, "Ruins tiles and their zones cannot be chosen"),
    ("scarabya", 2, {"deck": "FILNPTUVWXYZ"}, "cannot be chosen"),
    ("thot", 3, {"teams": True}, "4 players"),
    ("thot", 2, {"colour": 1}, "unknown option"),
    ("thot", 5, {}, "2-4 players"),
    ("chess", 2, {}, "unknown game"),
])
def test_options_remote_play_cannot_carry(game: str, players: int, options: dict[str, Any], reason: str) -> None:
    with pytest.raises(Refused, match=reason):
        Device.invite(game, "Anna", players, options)


def test_names_are_checked() -> None:
    for name in ("", "   ", "x" * 41, "a\x00b"):
        with pytest.raises(Refused):
            Device.invite("thot", name, 2)


# --- resign and leave -----------------------------------------------------------------------------

@pytest.mark.parametrize("kind", ["resign", "leave"])
def test_resign_or_leave_ends_the_game_everywhere(kind: str) -> None:
    devices = start("thot", 3, {"short": True})
    rng = random.Random(2)
    play_one(devices, rng)
    quitter = devices[2]
    text = quitter.resign() if kind == "resign" else quitter.leave()
    deliver(devices, quitter, text)
    results = [d.show()["result"] for d in devices]
    assert all(r == results[0] for r in results)
    assert results[0]["reason"] == ("resigned" if kind == "resign" else "left")
    assert results[0]["by"] == 2
    if kind == "resign":
        assert 2 not in results[0]["winners"] and results[0]["winners"]
    else:
        assert results[0]["winners"] == []
    assert all(d.show()["over"] for d in devices)
    assert len({json.dumps(d.export()) for d in devices}) == 1
    with pytest.raises(Refused, match="over"):
        devices[0].play("A1")


def test_a_resignation_crossing_a_move() -> None:
    a, b = start("thot", 2)
    mover, other = (a, b) if a.seat == 0 else (b, a)
    move = mover.play(mover.show()["legal"][0])
    resignation = other.resign()  # before it saw the move
    event = mover.open(resignation)
    assert event.kind == "resign" and mover.over()
    _refused(other, move, "the game is over")
    assert mover.show()["result"]["winners"] == [mover.seat] == [other.show()["result"]["winners"][0]]
    assert Device.from_json(mover.to_json()).over()


# --- Scarabya's mission cards ---------------------------------------------------------------------

def test_each_card_is_drawn_when_its_round_begins() -> None:
    devices = start("scarabya", 3)
    rng = random.Random(3)
    drawn: list[str] = []
    while not devices[0].over():
        state = devices[0].game.state  # type: ignore[union-attr]
        at_round_start = len(state.history()) % 3 == 0 and len(state.history()) > 0
        if at_round_start:
            # Only seat 0, to move, can draw the round's card; everyone else waits for its move.
            assert [d.show()["card"] is None for d in devices] == [False, True, True]
            card = devices[0].show()["card"]
            play_one(devices, rng)
            assert {d.show()["cards_drawn"][-1] for d in devices} == {card}
        else:
            play_one(devices, rng)
        drawn = list(devices[0].show()["cards_drawn"])
    assert sorted(drawn) == sorted("FILNPTUVWXYZ")
    # No device ever holds another's secret values: each stores its own, the messages only the
    # values already revealed.
    for device in devices:
        mine = device.secret["game"]["onion"]
        for other in devices:
            if other is not device:
                assert mine not in str(other.to_json())


def test_a_value_not_committed_to_is_refused() -> None:
    devices = start("scarabya", 2)
    seat1 = devices[1]
    play_one(devices, random.Random(0))  # seat 0's first move (round 1 needs no value from it)
    m = seat1._header("move", 1)
    m["t"] = seat1.show()["legal"][0]
    m["x"] = {"d": b64(bytes(32))}
    _refused(devices[0], seat1._signed(m), "not the one committed to")
    del m["x"]
    _refused(devices[0], seat1._signed(m), "does not carry the value")


def test_signatures() -> None:
    key = sign.new_secret()
    public = sign.public(key)
    sig = sign.sign(key, b"message")
    assert sign.verify(public, b"message", sig)
    assert not sign.verify(public, b"messagf", sig)
    assert not sign.verify(sign.public(sign.new_secret()), b"message", sig)
    assert not sign.verify(public, b"message", sig[:32] + bytes(32))
    assert not sign.verify(public, b"message", sig[:-1])
    assert not sign.verify(bytes(32), b"message", sig)  # the identity is no key
    bad_s = (int.from_bytes(sig[32:], "little") + L).to_bytes(32, "little")  # the same s, not canonical
    assert not sign.verify(public, b"message", sig[:32] + bad_s)


def test_wire_refuses_what_is_not_a_message() -> None:
    for text in ("", "hello", "s1.abc", "https://example.org/#nothing"):
        with pytest.raises(Refused) as caught:
            Device.join(text, "Bruno")
        assert caught.value.malformed
    with pytest.raises(Refused, match="newer version"):
        Device.join("r9.abc", "Bruno")
    # A deflate bomb stops at the bound, refused with a reason.
    import zlib

    bomb = "r1." + b64(zlib.compress(b"[" + b"0," * 150_000 + b"0]"))
    with pytest.raises(Refused, match="too much data"):
        Device.join(bomb, "Bruno")
    assert unb64(b64(b"\x00\x01"), 2) == b"\x00\x01"
    assert digest({"a": 1}) == digest({"a": 1})
    assert pack({"a": 1}).startswith("r1.")


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-2**53, 2**53) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=60, deadline=None)
@given(_JSON)
def test_wire_round_trip(value: Any) -> None:
    assert unpack(pack(value)) == value


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_any_changed_character_of_a_link_is_refused(data: st.DataObject) -> None:
    other = _PAIR[0] if _PAIR[0].seat == 1 else _PAIR[1]  # seat 1 has not opened seat 0's move
    text = _LINK
    i = data.draw(st.integers(3, len(text) - 1))
    c = data.draw(st.sampled_from("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"))
    if c == text[i]:
        return
    changed = text[:i] + c + text[i + 1:]
    before = state_of(other)
    with pytest.raises(Refused):
        other.open(changed)
    assert state_of(other) == before


# One game for every example (hypothesis runs a test function many times; the device is left
# unchanged by each refusal, which is what the test checks).
_PAIR = start("thot", 2, {"short": True})
_FIRST = _PAIR[0] if _PAIR[0].seat == 0 else _PAIR[1]
_LINK = _FIRST.play(_FIRST.show()["legal"][0])


def test_any_device_passes_on_what_another_missed() -> None:
    devices = start("scarabya", 3)  # in seat order: seats 0 and 1 play before seat 2
    first, second, late = devices
    rng = random.Random(7)
    texts = []
    for mover in (first, second):  # the seat-2 device misses both moves
        text = mover.play(rng.choice(mover.show()["legal"]))
        texts.append(text)
        for device in (first, second):
            if device is not mover:
                device.open(text)
    missing = len(late.chain)
    with pytest.raises(Refused, match=f"message {missing} of this game is missing"):
        late.open(second.chain[-1])  # the last move alone (its link carries the first too)
    # Whoever has them sends them in one link, each message still its writer's (signatures).
    relay = second.resend(missing)
    event = late.open(relay)
    assert late.hashes == first.hashes and event.kind == "move"
    assert late.show()["your_turn"]
    with pytest.raises(Refused, match="already played"):
        late.open(relay)


def test_a_late_answer_gets_the_inviters_notice_that_the_table_is_full() -> None:
    """Issue 42: a third person who accepts an invitation for two used to wait for ever. The inviter
    refuses the late answer ('already has its 2 players') and can send its writer a signed notice;
    that device then knows it is not in the game. Nobody else can write the notice."""
    from game.remote.session import Device, Refused

    anna, invitation = Device.invite("thot", "Anna", 2)
    bruno, answer = Device.join(invitation, "Bruno")
    carla, late = Device.join(invitation, "Carla")
    anna.open(answer)
    with pytest.raises(Refused) as caught:
        anna.open(late)
    assert caught.value.key == "full"
    notice = anna.full_notice(late)
    with pytest.raises(Refused):
        anna.full_notice(answer)  # an answer the table took: no notice for it
    with pytest.raises(Refused):
        bruno.open(notice)  # not Bruno's answer
    assert carla.show()["shut_out"] is False
    event = carla.open(notice)
    assert event.kind == "full" and "already has its 2 players" in event.text
    assert carla.show()["shut_out"] is True and carla.show()["phase"] == "joining"
    assert Device.from_json(carla.to_json()).shut_out is True
    # the notice signed by anyone but the inviter is refused
    forged = bruno._signed(unpack(notice)["m"])
    with pytest.raises(Refused, match="signature"):
        Device.from_json(carla.to_json()).open(forged)
