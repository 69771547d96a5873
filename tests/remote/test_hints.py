"""Hints in a game between devices (issue 42): the invitation says whether they are allowed (signed,
no by default, an old invitation without the field: no); where they are, each seat's move carries
the hints its player used so far (``u``), never fewer than before, so every device knows every
seat's count; where they are not, no device gives one and no move may carry a count."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from game.remote import cli
from game.remote.session import Device, Refused
from game.remote.wire import unpack
from tests.remote.protocol_helpers import Table, repack

pytestmark = pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")


def move_contents(link: str) -> list[dict[str, Any]]:
    data = unpack(link)
    return [e["m"] for e in (data["b"] if "b" in data else [data]) if e["m"]["k"] == "move"]


def legal_move(device: Device) -> str:
    return str(device.show()["legal"][0])


@pytest.mark.parametrize("game", ["thot", "scarabya", "scarabeo"])
def test_no_hints_by_default_and_no_device_may_use_one(game: str) -> None:
    table = Table(game, 2)
    assert "hints" not in unpack(table.links[0])["m"]  # an invitation as before: no field at all
    for device in table.devices:
        shown = device.show()
        assert shown["hints"] is False and shown["hints_used"] is None
    mover = table.mover()
    with pytest.raises(Refused) as refused:
        mover.use_hint()
    assert refused.value.key == "hints_off"
    assert refused.value.reason == "hints are not allowed in this game: its invitation says so"
    if game != "scarabeo":
        link = mover.play(legal_move(mover))
        assert all("u" not in m for m in move_contents(link))


def test_a_move_that_reports_hints_where_none_are_allowed_is_refused() -> None:
    table = Table("thot", 2)
    mover = table.mover()
    other = next(d for d in table.devices if d is not mover)
    m = mover._header("move", mover.seat)  # type: ignore[arg-type]
    m["t"], m["u"] = legal_move(mover), 1
    before = other.to_json()
    with pytest.raises(Refused) as refused:
        other.open(mover._signed(m))  # signed by its writer: only the count is wrong
    assert refused.value.key == "hints_refused" and "allows no hints" in refused.value.reason
    assert other.to_json() == before


def test_the_invitation_says_hints_are_allowed_signed_and_every_device_knows() -> None:
    table = Table("thot", 3, hints=True)
    invitation = table.links[0]
    assert unpack(invitation)["m"]["hints"] is True
    for device in table.devices:
        assert device.show()["hints"] is True and device.show()["hints_used"] == [0, 0, 0]
    # the field is covered by the inviter's signature: dropped or changed, the invitation is altered
    for change in (lambda d: d["m"].pop("hints"), lambda d: d["m"].update(hints=False)):
        with pytest.raises(Refused) as refused:
            Device.join(repack(invitation, change), "Eve")
        assert refused.value.key == "altered"


def test_an_invitation_without_the_field_or_with_false_is_read_as_scarab_writes_it() -> None:
    inviter, invitation = Device.invite("thot", "Anna", 2)
    probe = Device({"inviter": False}, invitation)
    assert probe.hints_allowed is False
    # "hints": false is not how Scarab writes "no hints" (absent): refused, even if re-signed
    m = unpack(invitation)["m"]
    m["hints"] = False
    with pytest.raises(Refused) as refused:
        Device({"inviter": False}, inviter._signed(m))
    assert refused.value.key == "altered" and "hints" in refused.value.reason


@pytest.mark.parametrize("game", ["thot", "scarabya", "scarabeo"])
def test_each_move_carries_its_players_hints_and_every_device_sees_them(game: str) -> None:
    table = Table(game, 2, hints=True, seed=3)
    rng = random.Random(5)
    first = table.mover()
    seat = first.seat
    assert seat is not None
    assert first.use_hint() == 1 and first.use_hint() == 2
    assert first.show()["hints_used"][seat] == 2  # its own count at once, before any move reports it
    others = [d for d in table.devices if d is not first]
    assert all(d.show()["hints_used"] == [0, 0] for d in others)
    link = table.play(rng)
    assert [m["u"] for m in move_contents(link) if m["f"] == seat] == [2]
    for d in table.devices:
        assert d.show()["hints_used"][seat] == 2
    # the other seat's move reports its own count (0), and Anna's stays 2 on every device
    second = table.mover()
    link = table.play(rng)
    assert [m["u"] for m in move_contents(link) if m["f"] == second.seat] == [0]
    for d in table.devices:
        assert d.show()["hints_used"][seat] == 2 and d.show()["hints_used"][second.seat] == 0
    # stored and read again: the counts are rebuilt from the chain, the own count kept
    again = Device.from_json(json.loads(json.dumps(first.to_json())), first.words)
    assert again.show()["hints_used"] == first.show()["hints_used"]


def test_a_count_that_goes_down_or_is_missing_is_refused() -> None:
    table = Table("thot", 2, hints=True)
    rng = random.Random(1)
    mover = table.mover()
    mover.use_hint()
    table.play(rng)
    other = next(d for d in table.devices if d is not mover)
    table.play(rng)  # the other seat's move, so that the first seat is due again
    before = other.to_json()
    for u, key in ((0, "hints_fewer"), (None, "hints_count"), (True, "hints_count"), (-1, "hints_count"),
                   (10_000, "hints_count")):
        m = mover._header("move", mover.seat)  # type: ignore[arg-type]
        m["t"] = legal_move(mover)
        if u is not None:
            m["u"] = u
        with pytest.raises(Refused) as refused:
            other.open(mover._signed(m))
        assert refused.value.key == key, (u, refused.value.key)
        assert other.to_json() == before
    # the honest count (1, or more) goes through
    m = mover._header("move", mover.seat)  # type: ignore[arg-type]
    m["t"], m["u"] = legal_move(mover), 1
    other.open(mover._signed(m))
    assert other.show()["hints_used"][mover.seat] == 1


def test_a_hint_is_for_ones_own_turn_and_a_deal_or_resignation_carries_no_count() -> None:
    table = Table("thot", 2, hints=True)
    waiting = next(d for d in table.devices if d is not table.mover())
    with pytest.raises(Refused) as refused:
        waiting.use_hint()
    assert refused.value.key == "not_your_turn"
    m = waiting._header("resign", waiting.seat)  # type: ignore[arg-type]
    m["u"] = 0
    with pytest.raises(Refused) as refused:
        table.mover().open(waiting._signed(m))
    assert refused.value.key == "altered"


def test_a_stored_count_in_a_game_without_hints_is_damage() -> None:
    table = Table("thot", 2)
    data = table.devices[0].to_json()
    assert "hints_used" not in data  # nothing stored where nothing was used: the store as before
    data["hints_used"] = 3
    with pytest.raises(Refused):
        Device.from_json(data)


def run(capsys: Any, *argv: str) -> tuple[int, Any, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, json.loads(out) if out.startswith("{") else out.strip(), err


def test_the_command_line_invites_with_hints_shows_them_and_refuses_a_hint_where_none_are_allowed(
        tmp_path: Path, capsys: Any) -> None:
    for allowed in (False, True):
        anna, bruno = tmp_path / f"anna{allowed}", tmp_path / f"bruno{allowed}"
        code, invitation, _ = run(capsys, "new", "thot", "--name", "Anna", "--dir", str(anna),
                                  *(["--hints"] if allowed else []))
        assert code == 0
        code, answer, _ = run(capsys, "join", invitation, "--name", "Bruno", "--dir", str(bruno))
        code, opened, _ = run(capsys, "open", answer, "--dir", str(anna))
        run(capsys, "open", opened["send"], "--dir", str(bruno))
        shown = {d: run(capsys, "show", "--dir", str(d))[1] for d in (anna, bruno)}
        assert all(s["hints"] is allowed for s in shown.values())
        mover = anna if shown[anna]["your_turn"] else bruno
        other = bruno if mover is anna else anna
        code, out, err = run(capsys, "hint", "--dir", str(mover))
        if not allowed:
            assert code == 1 and err == "remote: hints are not allowed in this game: its invitation says so\n"
            assert out == {"error": "refused",
                           "message": "hints are not allowed in this game: its invitation says so"}
            assert all(s["hints_used"] is None for s in shown.values())
            continue
        assert code == 0 and out["hints_used"] == 1 and out["hint"]["move"] in shown[mover]["legal"]
        code, link, _ = run(capsys, "play", out["hint"]["move"], "--dir", str(mover))
        assert code == 0
        run(capsys, "open", link, "--dir", str(other))
        seat = shown[mover]["seat"]
        assert run(capsys, "show", "--dir", str(other))[1]["hints_used"][seat] == 1
        # the other device, not to move, is refused in words
        code, out, err = run(capsys, "hint", "--dir", str(mover))
        assert code == 1 and "a hint is for your own turn" in err
