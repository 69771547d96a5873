"""The page's side of remote play (web/platform/remote.py): two devices, each with its own browser
storage, play by the messages alone; what is stored where; refusals change nothing."""

from __future__ import annotations

import json
from typing import Any

import pytest

from game.remote.session import Device, Refused
from web.platform import engines, remote
from web.platform.remote import LinkTransport, RemoteSession, device_key, find, refusal, refusal_of, remote_meta
from web.platform.session import save_facts
from web.platform.storage import InvalidSave, MemoryStore, SaveStore


def _store() -> SaveStore:
    return SaveStore(MemoryStore())


def _pair(game: str, options: dict[str, Any] | None = None) -> tuple[RemoteSession, RemoteSession, str]:
    """Anna invites on her device, Bruno accepts on his; returns both and the start link."""
    a_store, b_store = _store(), _store()
    device, invitation = Device.invite(game, "Anna", 2, options or {})
    anna = RemoteSession.create(a_store, device, "with a friend")
    joined, answer = Device.join(invitation, "Bruno")
    bruno = RemoteSession.create(b_store, joined, "with Anna")
    start = anna.open_message(answer)
    assert start.send is not None
    return anna, bruno, start.send


def _first_legal(session: RemoteSession) -> str:
    state = session.state
    return str(state.move_text(state.legal_moves()[0]))


@pytest.mark.parametrize("game", ["thot", "scarabya"])
def test_a_whole_game_by_links_agrees_on_both_devices(game: str) -> None:
    anna, bruno, link = _pair(game)
    bruno.open_message(link)
    devices = {s.seat_here: s for s in (anna, bruno)}
    assert sorted(devices) == [0, 1]
    moves = 0
    while not anna.device.over():
        mover = devices[anna.to_move()]
        other = devices[1 - mover.seat_here]
        assert mover.your_turn() and not mover.computer_to_move()
        assert other.computer_to_move() and other.waiting_for() == mover.device.names()[mover.seat_here]
        played = mover.play(_first_legal(mover))
        assert played.send and played.moves and played.moves[0][0] == mover.seat_here
        opened = other.open_message(played.send)
        assert [m[1] for m in opened.moves] == [m[1] for m in played.moves]
        assert other.state.position() == mover.state.position() or game == "scarabya"
        moves += 1
        assert moves < 400
    assert anna.device.show()["scores"] == bruno.device.show()["scores"]
    assert anna.device.show()["verified"] is True and bruno.device.show()["verified"] is True
    # each device's save says the game is over, with the same moves, and replays for the review
    for s in (anna, bruno):
        state = s.store.load(s.save.id).state
        facts = save_facts(state)
        assert facts is not None and facts.over and facts.moves == moves
        replayed = engines.replay(state)
        assert replayed.is_over() and replayed.position() == s.state.position()


def test_the_keys_stay_in_the_device_entry_never_in_the_save() -> None:
    anna, bruno, link = _pair("scarabya")
    bruno.open_message(link)
    for s in (anna, bruno):
        saved = s.store.load(s.save.id)
        text = json.dumps(saved.state)
        secret = s.device.secret
        for value in (secret["key"], secret["value"], secret["game"]["onion"]):
            assert value not in text  # not in the save, hence not in an export
            assert value not in s.store.export(s.save.id)
        assert secret["key"] in (s.store.kv.get(device_key(s.store, s.save.id)) or "")
        meta = remote_meta(saved.state)
        assert meta is not None and meta["game_id"] == s.game_id and meta["seat"] == s.seat_here


def test_a_save_reopens_and_the_game_goes_on_from_it() -> None:
    anna, bruno, link = _pair("thot")
    bruno.open_message(link)
    mover = anna if anna.your_turn() else bruno
    other = bruno if mover is anna else anna
    played = mover.play(_first_legal(mover))
    again = RemoteSession.open(other.store, other.save.id)
    opened = again.open_message(played.send or "")
    assert opened.moves and again.state.position() == mover.state.position()
    assert find(other.store, other.game_id).id == other.save.id  # type: ignore[union-attr]
    assert find(other.store, "nope") is None


def _first_move(game: str) -> tuple[RemoteSession, RemoteSession, str]:
    """A started game: the device to move, the other, and the link of the first move (not opened)."""
    anna, bruno, link = _pair(game)
    bruno.open_message(link)
    mover = anna if anna.your_turn() else bruno
    other = bruno if mover is anna else anna
    return mover, other, mover.play(_first_legal(mover)).send or ""


def test_refusals_change_nothing_and_say_why() -> None:
    mover, other, first = _first_move("thot")
    other.open_message(first)
    reply = other.play(_first_legal(other)).send or ""
    mover.open_message(reply)
    second = mover.play(_first_legal(mover)).send or ""
    third_owner = other
    stored = third_owner.store.kv.get(device_key(third_owner.store, third_owner.save.id))
    revision = third_owner.store.load(third_owner.save.id).revision
    cases = {
        "remote.refused.played": first,
        "remote.refused.other": _pair("thot")[2],
    }
    for key, text in cases.items():
        with pytest.raises(Refused) as err:
            other.open_message(text)
        assert refusal(err.value.reason)[0] == key, err.value.reason
    body = second[3:]
    altered = second[:3] + body[:40] + ("A" if body[40] != "A" else "B") + body[41:]
    with pytest.raises(Refused) as err:
        other.open_message(altered)
    assert refusal(err.value.reason)[0] == "remote.refused.altered", err.value.reason
    assert third_owner.store.kv.get(device_key(third_owner.store, third_owner.save.id)) == stored
    assert third_owner.store.load(third_owner.save.id).revision == revision
    # the move that was missed, sent again, applies
    assert other.open_message(mover.resend()).moves


def test_a_link_out_of_order_names_whose_link_is_missing() -> None:
    mover, other, first = _first_move("thot")
    # the same device a step ahead (as a third player's would be): it opened the first move and replied
    ahead = RemoteSession.create(_store(), Device.from_json(other.device.to_json()), "a step ahead")
    ahead.open_message(first)
    link = ahead.play(_first_legal(ahead)).send or ""
    second = ahead.device.chain[-1]  # the reply alone
    stored = other.store.kv.get(device_key(other.store, other.save.id))
    with pytest.raises(Refused) as err:
        other.open_message(second)
    key, params = refusal(err.value.reason)
    name = mover.device.names()[mover.seat_here or 0]
    assert (key, params) == ("remote.refused.order", {"name": name, "n": str(len(other.device.chain))})
    assert refusal_of(err.value) == ("remote.refused.order", {"name": name, "n": str(len(other.device.chain))})
    assert other.store.kv.get(device_key(other.store, other.save.id)) == stored
    other.open_message(first)
    assert other.open_message(link).moves


def test_refusal_keys() -> None:
    assert refusal("already played") == ("remote.refused.played", {})
    assert refusal("open Bruno's previous link first") == ("remote.refused.order.any", {"name": "Bruno"})
    assert refusal("this link is not from this game") == ("remote.refused.other", {})
    assert refusal("this link was altered (its signature does not match)")[0] == "remote.refused.altered"
    assert refusal("the game is over (Anna resigned)")[0] == "remote.refused.over"
    assert refusal("something else") == ("remote.refused.reason", {"detail": "something else"})


def test_the_link_transport_round_trips_a_payload() -> None:
    link = LinkTransport("https://example.org/scarab/")
    out = link.outgoing("r1.abc")
    assert out == "https://example.org/scarab/#/remote?m=r1.abc"
    assert link.incoming(out) == "r1.abc"
    assert link.incoming("  r1.abc\n") == "r1.abc"
    with pytest.raises(Refused):
        link.incoming(12)  # type: ignore[arg-type]


def test_a_save_without_its_keys_is_refused_plainly() -> None:
    anna, _bruno, _link = _pair("thot")
    anna.store.kv.remove(device_key(anna.store, anna.save.id))
    with pytest.raises(InvalidSave):
        RemoteSession.open(anna.store, anna.save.id)
    anna.store.kv.set(device_key(anna.store, anna.save.id), "{not json")
    with pytest.raises(InvalidSave):
        RemoteSession.open(anna.store, anna.save.id)


def test_game_id_of() -> None:
    anna, _bruno, link = _pair("thot")
    assert remote.game_id_of(link) == anna.game_id
    assert remote.game_id_of("r1.!!") is None


def test_scarabeo_each_device_draws_its_own_rack_only_and_verifies_at_the_end() -> None:
    import lexicon

    from game.scarabeo.tiles import HIDDEN

    words = lexicon.load()
    a_store, b_store = _store(), _store()
    device, invitation = Device.invite("scarabeo", "Anna", 2, {"check_mode": "dictionary"}, words)
    anna = RemoteSession.create(a_store, device, "with a friend")
    joined, answer = Device.join(invitation, "Bruno", words)
    bruno = RemoteSession.create(b_store, joined, "with Anna")
    link: str | None = anna.open_message(answer).send
    receiver, sender = bruno, anna
    while link is not None:  # the deal's steps travel until both racks are dealt
        assert not receiver.started or not sender.started
        link = receiver.open_message(link).send
        receiver, sender = sender, receiver
    for s in (anna, bruno):
        assert s.started and s.state_or_none() is not None
        racks = s.state.racks
        mine = racks[s.seat_here]
        assert len(mine) == 8 and HIDDEN not in mine  # its own tiles, read by this device alone
        assert all(set(r) == {HIDDEN} for i, r in enumerate(racks) if i != s.seat_here)
        text = json.dumps(s.store.load(s.save.id).state)
        assert s.device.secret["key"] not in text and "".join(mine) not in text
    devices = {s.seat_here: s for s in (anna, bruno)}
    mover = devices[anna.to_move()]
    other = devices[1 - mover.seat_here]
    assert other.computer_to_move() and not mover.computer_to_move()
    played = mover.play("-")  # a pass
    assert played.moves == [(mover.seat_here, "-", played.moves[0][2])]
    opened = other.open_message(played.send or "")
    assert [m[1] for m in opened.moves] == ["-"]
    receiver, link = mover, other.resign()
    while link is not None:  # the keys follow in turn, then every device verifies the deal
        link = receiver.open_message(link).send
        receiver = other if receiver is mover else mover
    for s in (anna, bruno):
        assert s.device.show()["verified"] is True, s.device.show()["failures"]
        assert remote_meta(s.store.load(s.save.id).state)["verified"] is True  # type: ignore[index]


def test_the_remote_routes() -> None:
    from web.platform import router

    assert router.parse("#/remote?m=r1.abc") == router.Route("remote", query={"m": "r1.abc"}, path="/remote")
    assert router.parse("#/thot/remote").page == "remote" and router.parse("#/thot/remote").save_id is None
    route = router.parse("#/scarabeo/remote/abc123")
    assert (route.name, route.game, route.page, route.save_id) == ("game", "scarabeo", "remote", "abc123")
    assert router.parse("#/nogame/remote/abc").name == "not-found"


def test_deleting_a_remote_save_deletes_its_keys() -> None:
    anna, _bruno, _link = _pair("thot")
    key = device_key(anna.store, anna.save.id)
    assert anna.store.kv.get(key) is not None
    anna.store.delete(anna.save.id)
    assert anna.store.kv.get(key) is None


def test_sliced_cannot_pause_in_cpython_and_leaves_the_group_alone() -> None:
    from game.remote import ristretto
    from web.ui.pause import sliced

    with sliced() as can:
        assert can is False and ristretto.PAUSE is None


def test_the_order_refusal_is_read_with_or_without_the_missing_message() -> None:
    assert refusal("open Bruno's previous link first (message 4 of this game is missing)") == \
        ("remote.refused.order", {"name": "Bruno", "n": "4"})


@pytest.mark.parametrize("game", ["thot", "scarabya"])
def test_a_move_that_arrives_is_said_in_the_words_of_the_table(game: str) -> None:
    """Issue 37: a move opened from a link carries the engine's result, so the other phone says
    "Bruno moved the priest to B1 and took a +2 scarab.", never the bare "Bruno played B1."; the
    state the page draws is left as it was."""
    from web.platform.events import move_event
    from web.platform.i18n import Messages, load_catalogue

    t = Messages(load_catalogue(), "en")
    anna, bruno, link = _pair(game)
    bruno.open_message(link)
    devices = {s.seat_here: s for s in (anna, bruno)}
    mover = devices[anna.to_move()]
    other = devices[1 - mover.seat_here]
    played = mover.play(_first_legal(mover))
    assert played.send is not None
    position = other.state.position()
    opened = other.open_message(played.send)
    [(seat, text, result)] = opened.moves
    assert seat == mover.seat_here and isinstance(result, dict) and result["move"] == text
    assert other.state.position() != position and len(other.state.history()) == 1  # the state drawn, whole
    names = other.device.names()
    said = move_event(t, game, other.state, result, names, other.seat_here).text
    words = "moved the priest to" if game == "thot" else "placed"
    assert said.startswith(f"{names[seat]} {words}"), said
    # the mover's own page says it in the second person
    mine = move_event(t, game, mover.state, played.moves[0][2], names, mover.seat_here).text
    assert mine.startswith("You "), mine
