"""Scarabeo's vote mode by links: a play the lexicon refuses, or one the next seat contests, goes
to the vote; every voter's vote is a message of the chain, in the order ``voters`` gives (from the
player on; with 4 players the player abstains), so every device knows whose link comes next; the
last vote decides on every device (more Y than N: the play stands; a tie or fewer: withdrawn), and
a play voted down is withdrawn exactly as an upheld challenge (its tiles back on the rack, its draw
reshuffled by the last voter in the same message). Forged and out-of-turn votes are refused."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from game.remote.session import Device, Refused
from game.scarabeo.tiles import HIDDEN
from tests.remote.protocol_helpers import Table, state_of
from tests.remote.test_protocol_challenge import WORDS, _game, _play
from tests.remote.test_protocol_scarabeo import (
    _messages, _resigned, check_full_record, check_privacy, public_facts,
)

VOTE = {"check_mode": "vote"}


def _agree(table: Table) -> None:
    assert len({public_facts(d) for d in table.devices}) == 1
    assert len({d.hashes[-1] for d in table.devices}) == 1
    assert len({json.dumps(_game(d).votes, sort_keys=True) for d in table.devices}) == 1


def _vote_round(table: Table, rng: random.Random, stand: bool) -> bool:
    """Every voter votes, in turn, each on its own device (the majority as ``stand`` asks); whether
    the play was withdrawn. Checks who is awaited, the reshuffle of a withdrawn draw, the rack
    given back and that every device agrees after each vote."""
    game = _game(table.mover())
    pending = game.state.pending
    assert pending is not None and pending.kind == "vote"
    voters = game.voters()
    n = len(table.devices)
    assert voters[-1] != pending.player and (pending.player in voters) == (n == 3)
    # A strict majority of Y keeps the play; a tie withdraws it too (rulebook art. 10).
    yes = len(voters) // 2 + 1 if stand else rng.randint(0, len(voters) // 2)
    ballots = ["Y"] * yes + ["N"] * (len(voters) - yes)
    rng.shuffle(ballots)
    player = table.devices[pending.player]
    rack_before = sorted(_game(player).state.pending.before.racks[pending.player])  # type: ignore[union-attr]
    bag_before = len(pending.before.bag)
    board = list(game.state.board)
    link = ""
    for seat, ballot in zip(voters, ballots):
        mover = table.mover()
        assert mover.seat == seat and mover.show()["to_move"] == seat
        link = mover.play(f"!vote {ballot}")
        table.deliver(mover, link)
        _agree(table)
    withdrawn = _game(table.devices[0]).state.board != board
    assert withdrawn == (not stand)
    assert ("rt" in _messages(link)[0]["m"].get("x", {})) == (withdrawn and bag_before > 0)
    if withdrawn:
        assert sorted(_game(player).state.racks[pending.player]) == rack_before and HIDDEN not in rack_before
        assert all(len(_game(d).state.bag) == bag_before for d in table.devices)
        assert table.mover() is player  # the player tries again
        check_privacy(table)
    return withdrawn


def _play_with_votes(table: Table, rng: random.Random, until: Any) -> tuple[int, int]:
    """Play on, votes both ways and contests included, until ``until(stood, withdrawn)`` (the
    counts so far); (stood, withdrawn)."""
    stood = withdrawn = 0
    assert _game(table.devices[0]).state.contest  # a play of known words may be contested
    while not until(stood, withdrawn) and not table.devices[0].over():
        game = _game(table.mover())
        pending = game.state.pending
        if game.voters():
            if _vote_round(table, rng, stand=rng.random() < 0.5):
                withdrawn += 1
            else:
                stood += 1
        elif pending is not None and rng.random() < 0.3:  # every word known: the next seat contests
            mover = table.mover()
            table.deliver(mover, mover.play(f"!challenge {(mover.seat or 0) + 1}"))
            assert game.voters() and _game(table.devices[0]).state.pending.contested_by == mover.seat  # type: ignore[union-attr]
        else:
            _play(table, rng)
        _agree(table)
    return stood, withdrawn


def test_a_whole_three_player_game_with_votes_both_ways_agrees_verifies_and_replays() -> None:
    """Plays, contests and votes until a play stood and one was withdrawn, then every seat
    passes to the end."""
    table = Table("scarabeo", 3, VOTE, words=WORDS)
    stood, withdrawn = _play_with_votes(table, random.Random(21), lambda stood, withdrawn: stood and withdrawn)
    assert stood and withdrawn, (stood, withdrawn)
    table.pass_out()
    _agree(table)
    shown = [d.show() for d in table.devices]
    assert all(s["verified"] is True and s["failures"] == [] for s in shown), shown
    assert len({json.dumps(s["result"]) for s in shown}) == 1
    record = check_full_record(table.devices, WORDS)
    assert record.options["check_mode"] == "vote"
    # The record holds one !vote per decision, every voter's vote in it, like a local game's.
    assert any(m.startswith("!vote ") and "-" not in m for m in record.moves)


def test_four_players_vote_without_the_player_and_a_stored_device_resumes_a_vote() -> None:
    table = Table("scarabeo", 4, VOTE, words=WORDS)
    rng = random.Random(8)
    counts = [0, 0]

    def both() -> bool:
        return all(counts)

    while not both():
        stood, withdrawn = _play_with_votes(table, rng, lambda *_: bool(_game(table.mover()).voters()))
        # A vote half-way: every device stored and read back, the vote goes on.
        game = _game(table.mover())
        if game.voters():
            first = table.mover()
            table.deliver(first, first.play("!vote Y"))
            table.devices = [Device.from_json(json.loads(json.dumps(d.to_json())), WORDS) for d in table.devices]
            _agree(table)
            assert len(_game(table.devices[0]).votes) == 1
            rest = _game(table.mover()).voters()[1:]
            ballots = ["N"] * len(rest) if counts[1] == 0 else ["Y"] * len(rest)
            for ballot in ballots:
                mover = table.mover()
                table.deliver(mover, mover.play(f"!vote {ballot}"))
                _agree(table)
            counts[0 if ballots[0] == "Y" else 1] += 1
    mover = table.mover()
    table.deliver(mover, mover.resign())
    shown = [d.show() for d in table.devices]
    assert all(s["verified"] is True for s in shown), shown
    _agree(table)


def _refused_key(device: Device, text: str, key: str) -> None:
    before = state_of(device)
    with pytest.raises(Refused) as caught:
        device.open(text)
    assert caught.value.key == key, (caught.value.key, caught.value.reason)
    assert state_of(device) == before


def test_a_forged_vote_and_a_vote_out_of_turn_are_refused() -> None:
    table = Table("scarabeo", 4, VOTE, words=WORDS)
    rng = random.Random(5)
    _play_with_votes(table, rng, lambda *_: bool(_game(table.mover()).voters()))
    game = _game(table.mover())
    voters = game.voters()
    pending = game.state.pending
    assert pending is not None and len(voters) == 3
    first, second, last = (table.devices[s] for s in voters)
    player = table.devices[pending.player]
    link = first.play("!vote N")
    watcher = second

    def in_other_seat(m: dict[str, Any]) -> None:  # the first voter writes the second's vote
        m["t"] = "!vote " + "".join("Y" if s == second.seat else "-" for s in range(4))

    _refused_key(watcher, _resigned(first, link, in_other_seat), "vote_seat")

    def twice(m: dict[str, Any]) -> None:  # its own vote and another's at once
        m["t"] = "!vote " + "".join("N" if s in (first.seat, second.seat) else "-" for s in range(4))

    _refused_key(watcher, _resigned(first, link, twice), "vote_seat")
    # Neither the last voter nor the player (who abstains with 4) writes a vote out of turn.
    for early in (last, player):
        with pytest.raises(Refused) as caught:
            early.play("!vote Y")
        assert caught.value.key == "not_your_turn"
    table.deliver(first, link)
    # Signed by hand, their votes out of turn are refused by every other device.
    for early in (last, player):
        _refused_key(second, _vote_of(early, "Y"), "turn")
    _agree(table)
    # The second voter's own vote goes on; a vote when none is awaited is refused.
    table.deliver(second, second.play("!vote Y"))
    table.deliver(last, last.play("!vote Y"))  # 2-1: the play stands
    assert not _game(table.devices[0]).voters()
    _refused_key(table.devices[(table.mover().seat or 0) - 1], _vote_of(table.mover(), "Y"), "vote_seat")
    _agree(table)


def test_the_vote_mode_needs_three_players_and_takes_the_forms_contest() -> None:
    with pytest.raises(Refused) as caught:
        Device.invite("scarabeo", "Anna", 2, VOTE, WORDS)
    assert caught.value.key == "options.vote"
    device, _ = Device.invite("scarabeo", "Anna", 3, {**VOTE, "contest": True}, WORDS)
    assert device.options == VOTE  # what the game's own form says; by links the vote mode always contests
    for wrong in ({"contest": True}, {**VOTE, "contest": False}):
        with pytest.raises(Refused) as caught:
            Device.invite("scarabeo", "Anna", 3, wrong, WORDS)
        assert caught.value.key == "options.invalid"


def _vote_of(device: Device, ballot: str) -> str:
    """``device``'s vote signed by hand, next in the chain, whoever is awaited."""
    assert device.seat is not None
    m = device._header("move", device.seat)
    m["t"] = "!vote " + "".join(ballot if s == device.seat else "-" for s in range(device.players))
    return device._signed(m)
