"""A game stops on a proven cheat (issue 36): a deal part whose proof fails, signed by its writer
and due from it; two different messages signed by one seat for one place in the chain (a fork);
a deal this device finds broken while playing. Every honest device that sees it stops there,
keeps the signed messages as evidence, and writes nothing more for the game. And at the end, a
seat whose keys never come leaves the result shown, and recorded, as unverified."""

from __future__ import annotations

import base64
import json
import random
from pathlib import Path
from typing import Any

import pytest

from game.remote import cli, deal, sign
from game.remote.scarabeo import ScarabeoRemote
from game.remote.session import STOP_KINDS, STOP_TEXTS, Device, Refused
from game.remote.wire import b64, digest, unb64, unpack
from tests.remote.protocol_helpers import WORDS, Table, act_messages, fork_of, start, state_of, withheld_end

#: A share's element: a ristretto255 encoding.
ELEMENT = 32


def _messages(link: str) -> list[dict[str, Any]]:
    return act_messages(link)


def _resigned(writer: Device, link: str, change: Any) -> str:
    """``link``'s (first) message changed by ``change`` and signed again with its writer's key:
    what a cheating device itself would send."""
    m = json.loads(json.dumps(_messages(link)[0]["m"]))
    change(m)
    return writer._signed(m)


def _swap_two_shares(m: dict[str, Any]) -> None:
    """Two shares' elements swapped: each a valid element, for the other's card (the proof fails)."""
    raw = bytearray(base64.urlsafe_b64decode(m["x"]["sh"] + "=="))
    count = int.from_bytes(raw[:2], "big")
    assert count >= 2
    first = 2 + 2 * count
    a, b = bytes(raw[first:first + ELEMENT]), bytes(raw[first + ELEMENT:first + 2 * ELEMENT])
    raw[first:first + ELEMENT], raw[first + ELEMENT:first + 2 * ELEMENT] = b, a
    m["x"]["sh"] = b64(bytes(raw))


def _shares_in(link: str) -> int:
    x = _messages(link)[0]["m"].get("x", {})
    return int.from_bytes(base64.urlsafe_b64decode(x["sh"] + "==")[:2], "big") if x.get("sh") else 0


def _a_move_with_shares(table: Table, rng: random.Random) -> tuple[Device, str]:
    """Play on until the mover's link carries two shares or more; that link, not delivered."""
    from game.core import Rng
    from game.scarabeo import randomplay
    from game.scarabeo.moves import move_text

    for _ in range(60):
        mover = table.mover()
        state = mover.game.state  # type: ignore[union-attr]
        link = mover.play(move_text(randomplay.random_move(state, Rng(rng.getrandbits(64)))))
        if _shares_in(link) >= 2:
            return mover, link
        table.deliver(mover, link)
    raise AssertionError("no move carried two shares")


def _without_stop(device: Device) -> str:
    data = device.to_json()
    data.pop("stopped", None)
    data.pop("forks", None)
    return json.dumps(data, sort_keys=True)


def _writes_nothing(device: Device) -> None:
    """A stopped device refuses every act of its own with key ``stopped`` and sends nothing."""
    for act in (lambda: device.play("-"), device.resign, device.leave, device.ask_take_back,
                lambda: device.answer_take_back(True)):
        with pytest.raises(Refused) as caught:
            act()
        assert caught.value.key == "stopped", caught.value.reason
    assert device._auto_texts() == []
    shown = device.show()
    assert not shown["your_turn"] and shown["waiting_for"] is None and not shown["can_take_back"]


def test_a_false_share_stops_every_honest_device_with_the_evidence() -> None:
    table = Table("scarabeo", 3)
    rng = random.Random(4)
    cheater, link = _a_move_with_shares(table, rng)
    forged = _resigned(cheater, link, _swap_two_shares)
    honest = [d for d in table.devices if d is not cheater]
    for device in honest:
        before = _without_stop(device)
        event = device.open(forged)
        assert event.kind == "stopped" and event.changed and event.send is None
        assert _without_stop(device) == before  # nothing of the message applied
        stop = device.show()["stopped"]
        assert stop["seat"] == cheater.seat and stop["name"] == cheater.names()[cheater.seat or 0]
        assert stop["kind"] == "share" and stop["problem"]["key"] == "share_proof"
        assert stop["evidence"] == [forged] and stop["n"] == len(device.chain)
        assert stop["text"] == (f"{stop['name']}'s device sent a false unmasking (a share whose proof fails): "
                                "the game is stopped, and nothing more of yours is revealed")
        _writes_nothing(device)
        # The true link, and anything later, is refused as well: the game is stopped here.
        with pytest.raises(Refused) as caught:
            device.open(link)
        assert caught.value.key == "stopped"
        # Kept: the device as stored and read again is stopped, its evidence with it.
        again = Device.from_json(json.loads(json.dumps(device.to_json())), WORDS)
        assert again.show()["stopped"] == stop and state_of(again) == state_of(device)
        _writes_nothing(again)
        # The record says it too (an export carries the evidence, signed messages as sent).
        assert device.export()["meta"]["remote"]["stopped"]["evidence"] == [forged]
        # The evidence checks out for anyone: the writer's signature over the message.
        envelope = unpack(forged)
        key = device.hellos[cheater.me or 0].key
        assert sign.verify(key, digest(envelope["m"]), unb64(envelope["s"], sign.SIGNATURE_BYTES))


def test_a_false_share_with_two_players() -> None:
    table = Table("scarabeo", 2)
    cheater, link = _a_move_with_shares(table, random.Random(5))
    forged = _resigned(cheater, link, _swap_two_shares)
    honest = next(d for d in table.devices if d is not cheater)
    assert honest.open(forged).kind == "stopped"
    assert honest.show()["stopped"]["kind"] == "share"


def test_shares_withheld_stop_the_game() -> None:
    table = Table("scarabeo", 2)
    cheater, link = _a_move_with_shares(table, random.Random(6))
    forged = _resigned(cheater, link, lambda m: m["x"].pop("sh"))
    honest = next(d for d in table.devices if d is not cheater)
    event = honest.open(forged)
    assert event.kind == "stopped" and honest.show()["stopped"]["kind"] == "shares"


def test_an_ordinary_refusal_does_not_stop() -> None:
    """A message damaged on its way, or out of turn, is refused and the device waits for a good one."""
    table = Table("scarabeo", 2)
    rng = random.Random(7)
    cheater, link = _a_move_with_shares(table, rng)
    honest = next(d for d in table.devices if d is not cheater)
    before = state_of(honest)
    cut = _resigned(cheater, link, lambda m: m["x"].update(sh=m["x"]["sh"][:-8]))  # unreadable, not false
    with pytest.raises(Refused) as caught:
        honest.open(cut)
    assert caught.value.key != "stopped" and caught.value.stop is None
    assert state_of(honest) == before and honest.stopped is None
    honest.open(link)
    assert honest.stopped is None


def test_a_fork_stops_the_game_and_both_messages_are_kept() -> None:
    a, b, c = start("thot", 3, {"short": True})
    devices = (a, b, c)
    mover = next(d for d in devices if d.seat == a.game.state.to_move())  # type: ignore[union-attr]
    n = len(mover.chain)  # the place the fork's two messages both claim
    one, two = fork_of(mover)
    watcher, other = [d for d in devices if d is not mover]
    watcher.open(one)
    before = _without_stop(watcher)
    event = watcher.open(two)
    assert event.kind == "stopped" and _without_stop(watcher) == before
    shown = watcher.show()
    name = mover.names()[mover.seat or 0]
    assert shown["stopped"]["kind"] == "fork" and shown["stopped"]["evidence"] == [one, two]
    assert shown["forks"] == [{"n": n, "seat": mover.seat, "name": name, "messages": [one, two]}]
    assert shown["stopped"]["text"].startswith(f"{name} signed two different messages for message {n}")
    _writes_nothing(watcher)
    # Opening the same fork again changes nothing (the evidence is kept once).
    with pytest.raises(Refused, match="stopped"):
        watcher.open(two)
    assert len(Device.from_json(watcher.to_json()).forks) == 1
    # A device that saw one message only plays on: it cannot know.
    other.open(two)
    assert other.stopped is None


def test_own_key_fork_is_a_conflict_not_a_cheat() -> None:
    """A message signed with this device's own key that conflicts with its own (a copy of the
    device wrote it: a storage restored, another tab) is refused as before, nothing stopped."""
    a, b = start("thot", 2, {"short": True})
    mover, other = (a, b) if a.seat == a.game.state.to_move() else (b, a)  # type: ignore[union-attr]
    copy = Device.from_json(mover.to_json())
    legal = mover.show()["legal"]
    first = mover.play(legal[0])
    second = copy.play(legal[1])
    with pytest.raises(Refused) as caught:
        mover.open(second)
    assert caught.value.key == "conflict" and mover.stopped is None
    other.open(first)
    assert other.open(second).kind == "stopped"  # the others see equivocation, and stop


def test_a_crossed_resignation_is_no_fork() -> None:
    """Thot: a resignation written while another seat moved (different writers) still ends the game."""
    a, b = start("thot", 2, {"short": True})
    mover, quitter = (a, b) if a.seat == a.game.state.to_move() else (b, a)  # type: ignore[union-attr]
    move = mover.play(mover.show()["legal"][0])
    resign = quitter.resign()
    mover.open(resign)
    assert mover.over() and mover.stopped is None and mover.show()["forks"] == []


def test_a_deal_found_broken_stops_the_device_that_found_it() -> None:
    """A card of this device's own that unmasks to no tile (a setup or reshuffle step cheated,
    whose is known only from the keys): the message that showed it stands, the game stops here."""
    table = Table("scarabeo", 2)
    rng = random.Random(8)
    mover, link = _a_move_with_shares(table, rng)
    drawer = next(d for d in table.devices if d is not mover)
    game = drawer.game
    assert isinstance(game, ScarabeoRemote)
    # What Deal._read finds for such a card (the deal's own test has the forged setup step).
    game.deal.broken = "card 3 does not unmask to a tile: a setup or reshuffle step cheated"
    game.deal.broken_problem = deal.problem("cheated_card", card=3)
    length = len(drawer.chain)
    event = drawer.open(link)
    assert event.kind == "stopped" and event.send is None and len(drawer.chain) == length + 1
    stop = drawer.show()["stopped"]
    assert stop["kind"] == "broken" and stop["seat"] is None and stop["evidence"] == []
    assert stop["problem"] == {"key": "cheated_card", "card": 3}
    _writes_nothing(drawer)


def test_every_stop_kind_has_words() -> None:
    assert set(STOP_KINDS.values()) | {"other"} == set(STOP_TEXTS)
    catalogue = json.loads((Path(__file__).resolve().parents[2] / "web/platform/messages/remote.json")
                           .read_text(encoding="utf-8"))
    for kind in STOP_TEXTS:
        assert {"it", "en"} <= set(catalogue[f"remote.stopped.{kind}"]), kind


# --- keys not revealed at the end ----------------------------------------------------------

def test_keys_not_revealed_leave_the_result_unverified() -> None:
    table = Table("scarabeo", 2)
    withholder, keys, name, other, shown = withheld_end(table)
    assert shown["over"] and shown["result"] is not None and shown["verified"] is None
    assert shown["keys_awaited"] == {"seat": withholder.seat, "name": name}
    assert shown["waiting_for"] == name and shown["stopped"] is None
    assert other.export()["meta"]["remote"]["keys_awaited"] == {"seat": withholder.seat, "name": name}
    # The withholder's own device knows its keys went out (as far as it knows): nothing awaited there.
    assert withholder.show()["keys_awaited"] is None
    # When they come, the game is verified and nothing is awaited any more.
    other.open(keys)
    shown = other.show()
    assert shown["keys_awaited"] is None and shown["verified"] is True
    assert "keys_awaited" not in other.export()["meta"]["remote"]


def test_a_stored_device_from_before_stops_reads_as_not_stopped() -> None:
    a, _ = start("thot", 2, {"short": True})
    data = a.to_json()
    assert "stopped" not in data and "forks" not in data  # a device that saw no cheat stores as before
    again = Device.from_json(data)
    assert again.stopped is None and again.forks == [] and again.show()["stopped"] is None


@pytest.mark.parametrize("damage", [
    {"stopped": {"seat": 0}},
    {"stopped": "yes"},
    {"forks": [{"n": 1}]},
    {"forks": "many"},
])
def test_a_damaged_stop_is_refused_like_a_damaged_store(damage: dict[str, Any]) -> None:
    a, _ = start("thot", 2, {"short": True})
    with pytest.raises(Refused, match="damaged"):
        Device.from_json({**a.to_json(), **damage})


def test_the_command_line_says_the_stop_and_keeps_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a, b, c = start("thot", 3, {"short": True})
    mover = next(d for d in (a, b, c) if d.seat == a.game.state.to_move())  # type: ignore[union-attr]
    watcher = next(d for d in (a, b, c) if d is not mover)
    m = mover._header("move", mover.seat)  # type: ignore[arg-type]
    m["t"] = mover.show()["legal"][0]
    one = mover._signed(m)
    m["t"] = mover.show()["legal"][1]
    two = mover._signed(m)
    watcher.open(one)
    directory = tmp_path / "watcher"
    directory.mkdir(mode=0o700)
    cli._save(str(directory), watcher)
    assert cli.main(["open", two, "--dir", str(directory)]) == 1
    out, err = capsys.readouterr()
    assert json.loads(out)["event"] == "stopped" and "signed two different messages" in err
    assert cli.main(["show", "--dir", str(directory)]) == 0
    shown = json.loads(capsys.readouterr()[0])
    assert shown["stopped"]["evidence"] == [one, two] and shown["forks"][0]["messages"] == [one, two]
    assert cli.main(["play", shown["legal"][0] if shown["legal"] else "a1", "--dir", str(directory)]) == 1
    assert "stopped" in capsys.readouterr()[1]
