"""Scarabeo's challenge mode by links: the seat after a play challenges it or plays on; the
dictionary decides; a withdrawn play's tiles go back to its player's rack (proven tiles of that
seat, proven again when laid) and the tiles it drew go back to the bag, reshuffled in the same
message by the challenger, so the bag keeps no order the player saw. Whole games between separate
device states agree, verify, and rebuild a full record that replays; cheating is caught at once."""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

import pytest

from game.remote.scarabeo import ScarabeoRemote
from game.remote.session import Device, Refused
from game.scarabeo.tiles import HIDDEN
from tests.remote.protocol_helpers import Table
from tests.remote.test_protocol_scarabeo import (
    _messages, _refused, _resigned, check_full_record, check_privacy, public_facts,
)

CHALLENGE = {"check_mode": "challenge"}


class HalfTheWords:
    """A word list that refuses about half of all words (fixed by a hash): plays that would be
    withdrawn come up often."""

    def contains(self, word: str) -> bool:
        return hashlib.sha256(word.encode()).digest()[0] % 2 == 0

    def abbreviation(self, word: str) -> str | None:
        return None


WORDS = HalfTheWords()


def _refused_play(pending: Any) -> bool:
    """The dictionary refuses a word the pending play forms (a challenge withdraws it)."""
    return any(not WORDS.contains(w.word) for w in pending.breakdown.words)


def _game(device: Device) -> ScarabeoRemote:
    game = device.game
    assert isinstance(game, ScarabeoRemote)
    return game


def _play(table: Table, rng: random.Random) -> None:
    """A random move; a pending play that closes the game is accepted first (no move before it)."""
    mover = table.mover()
    state = _game(mover).state
    if state.pending is not None and not state.bag and not state.racks[state.pending.player]:
        table.deliver(mover, mover.play("!accept"))
    else:
        table.play(rng)


def _challenge(table: Table) -> tuple[Device, str, bool]:
    """The mover challenges the pending play; (mover, link, whether it was withdrawn), delivered."""
    mover = table.mover()
    state = _game(mover).state
    assert state.pending is not None
    board = list(state.board)
    link = mover.play(f"!challenge {mover.seat + 1}")  # type: ignore[operator]
    withdrawn = _game(mover).state.board != board
    table.deliver(mover, link)
    return mover, link, withdrawn


def test_a_whole_game_with_challenges_agrees_verifies_and_replays() -> None:
    """Plays and challenges (withdrawn or not) until both kinds were seen, then every seat passes
    to the end (the closing play's decision is the engine's, tests/scarabeo/test_disputes.py)."""
    table = Table("scarabeo", 3, CHALLENGE, words=WORDS)
    rng = random.Random(3)
    upheld = failed = 0
    while not table.devices[0].over() and not (upheld and failed):
        game = _game(table.mover())
        pending = game.state.pending
        closing = pending is not None and not game.state.bag and not game.state.racks[pending.player]
        if closing and rng.random() < 0.5:  # a closing play must be accepted or challenged first
            mover = table.mover()
            table.deliver(mover, mover.play("!accept"))
        elif pending is not None and (closing or rng.random() < 0.7):
            player = table.devices[pending.player]
            own_pending = _game(player).state.pending
            assert own_pending is not None
            rack_before = sorted(own_pending.before.racks[pending.player])  # before the play, as its device saw it
            bag_before = len(pending.before.bag)
            mover, link, withdrawn = _challenge(table)
            upheld += withdrawn
            failed += not withdrawn
            message = _messages(link)[0]
            assert ("rt" in message["m"].get("x", {})) == (withdrawn and bag_before > 0)
            if withdrawn:
                # The player's rack is as before the play, every tile readable on its device; the
                # bag holds its draw again; every device agrees.
                assert sorted(_game(player).state.racks[pending.player]) == rack_before
                assert HIDDEN not in rack_before
                assert all(len(_game(d).state.bag) == bag_before for d in table.devices)
                if not table.devices[0].over():  # at the end every rack is public
                    check_privacy(table)
        else:
            _play(table, rng)
        assert len({public_facts(d) for d in table.devices}) == 1
        assert len({d.hashes[-1] for d in table.devices}) == 1
    assert upheld and failed, (upheld, failed)
    table.pass_out()
    assert len({public_facts(d) for d in table.devices}) == 1
    shown = [d.show() for d in table.devices]
    assert all(s["verified"] is True and s["failures"] == [] for s in shown), shown
    assert len({json.dumps(s["result"]) for s in shown}) == 1
    record = check_full_record(table.devices, WORDS)
    assert record.options["check_mode"] == "challenge" and record.options["mix"] is True
    assert len(record.options["bags"]) > 1  # every withdrawal's draw reshuffled


def test_withdrawn_tiles_are_laid_again_with_a_new_proof() -> None:
    """The tiles of a withdrawn play are the player's again: laying them again proves them again."""
    table = Table("scarabeo", 2, CHALLENGE, words=WORDS)
    rng = random.Random(5)
    for _ in range(200):
        game = _game(table.mover())
        pending = game.state.pending
        if pending is not None and _refused_play(pending):
            player = table.devices[pending.player]
            _mover, _link, withdrawn = _challenge(table)
            assert withdrawn
            challenger = table.mover()
            table.deliver(challenger, challenger.play("-"))  # the challenger passes; the player lays it again
            assert table.mover() is player
            again = player.play(_game(player).state.move_text(pending.move))
            assert "tp" in _messages(again)[0]["m"]["x"]
            table.deliver(player, again)
            assert len({public_facts(d) for d in table.devices}) == 1
            return
        _play(table, rng)
    pytest.fail("no play was withdrawn")


def _pending_play(table: Table, rng: random.Random) -> Device:
    """Play on until a play waits for a challenge that the dictionary upholds; the seat to decide."""
    for _ in range(200):
        pending = _game(table.mover()).state.pending
        if pending is not None and _refused_play(pending) and table.mover().seat != pending.player:
            return table.mover()
        _play(table, rng)
    pytest.fail("no refused play came up")


def test_cheating_on_a_challenge_is_caught_and_changes_nothing() -> None:
    table = Table("scarabeo", 3, CHALLENGE, words=WORDS)
    rng = random.Random(7)
    challenger = _pending_play(table, rng)
    pending = _game(challenger).state.pending
    assert pending is not None
    link = challenger.play(f"!challenge {challenger.seat + 1}")  # type: ignore[operator]
    watcher = next(d for d in table.devices if d is not challenger and d.seat != pending.player)
    x = _messages(link)[0]["m"].get("x", {})
    if "rt" in x:
        # The withdrawn play's draw kept in its order (no reshuffle): refused.
        _refused(watcher, _resigned(challenger, link, lambda m: m["x"].pop("rt")), "reshuffle")
    # Challenging in another seat's name.
    other = next(s for s in range(3) if s not in (challenger.seat, pending.player))

    def as_other(m: dict[str, Any]) -> None:
        m["t"] = f"!challenge {other + 1}"

    _refused(watcher, _resigned(challenger, link, as_other), "challenges for itself")
    # A vote by links.
    _refused(watcher, _resigned(challenger, link, lambda m: m.update(t="!vote YNY")), "no vote by links outside the vote mode")
    table.deliver(challenger, link)
    assert len({public_facts(d) for d in table.devices}) == 1
    # The writer's own device refuses a challenge in another's name before writing anything.
    with pytest.raises(Refused):
        table.mover().play(f"!challenge {(table.mover().seat or 0) % 3 + 1}")


def test_a_stored_device_resumes_a_pending_play_and_its_challenge() -> None:
    table = Table("scarabeo", 2, CHALLENGE, words=WORDS)
    rng = random.Random(11)
    _pending_play(table, rng)
    table.devices = [Device.from_json(json.loads(json.dumps(d.to_json())), WORDS) for d in table.devices]
    _mover, _link, withdrawn = _challenge(table)
    assert withdrawn
    for _ in range(4):
        _play(table, rng)
    assert len({public_facts(d) for d in table.devices}) == 1
    check_privacy(table)
