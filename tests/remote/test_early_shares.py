"""Live play's early shares (issue 42): after a play, the seat whose share is the last one missing
for the tiles drawn sends it at once, outside the chain; the drawer's rack fills before that seat
moves, and nothing of the chain changes (the same shares come with its next message)."""

from __future__ import annotations

import random

import pytest

from game.remote.ristretto import base_mul
from game.remote.scarabeo import ScarabeoRemote
from game.remote.session import Device, Refused
from game.scarabeo.tiles import HIDDEN
from tests.remote.protocol_helpers import Table, state_of


def _rack(device: Device) -> list[str]:
    game = device.game
    assert isinstance(game, ScarabeoRemote)
    return list(game.state.racks[device.seat or 0])


def test_the_drawers_rack_fills_before_the_other_moves_and_the_chain_is_unchanged() -> None:
    table = Table("scarabeo", 2)
    rng = random.Random(3)
    while True:  # a play that draws tiles
        mover = table.mover()
        before = len(table.links)
        link = table.play(rng)
        if HIDDEN in _rack(mover):
            break
        assert len(table.links) > before
    other = next(d for d in table.devices if d is not mover)
    assert other.seat is not None and mover.seat is not None
    assert HIDDEN in _rack(mover)  # the shares travel with the other's next message, by links
    part = other.early()
    assert part
    chain_before = state_of(other)
    assert state_of(other) == chain_before  # sending early changes nothing on the sender
    # a false part: refused, nothing changed on the drawer
    saved = state_of(mover)
    with pytest.raises(Refused):
        mover.read_early(other.seat, part[:-8] + "AAAAAAAA")
    with pytest.raises(Refused):
        mover.read_early(mover.seat, part)
    assert state_of(mover) == saved
    assert mover.read_early(other.seat, part) is True
    assert HIDDEN not in _rack(mover)
    # the other's next message carries the same shares, as the chain requires, and all agree
    table.play(rng)
    assert len({tuple(d.chain) for d in table.devices}) == 1
    assert HIDDEN not in _rack(mover)


def test_a_part_with_a_wrong_share_is_refused() -> None:
    table = Table("scarabeo", 2)
    rng = random.Random(5)
    while True:
        mover = table.mover()
        table.play(rng)
        if HIDDEN in _rack(mover):
            break
    other = next(d for d in table.devices if d is not mover)
    assert other.seat is not None
    import base64
    part = other.early()
    raw = bytearray(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)))
    count = int.from_bytes(raw[:2], "big")
    raw[2 + 2 * count:2 + 2 * count + 32] = base_mul(9).encode()
    forged = base64.urlsafe_b64encode(bytes(raw)).rstrip(b"=").decode()
    saved = state_of(mover)
    with pytest.raises(Refused):
        mover.read_early(other.seat, forged)
    assert state_of(mover) == saved and HIDDEN in _rack(mover)
