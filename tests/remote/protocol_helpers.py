"""Devices that play through messages alone, for the protocol's tests."""

from __future__ import annotations

import json
import random
import zlib
from typing import Any

from game.remote.bench import Table as BenchTable
from game.remote.games import SeatRandom
from game.remote.scarabeo import ScarabeoRemote
from game.remote.session import Device
from game.remote.wire import b64, canonical, pack, unpack
from game.scarabeo.words import AnyWord, WordList

WORDS: WordList = AnyWord()


class Table(BenchTable):
    """The bench's table (devices in a group chat), Scarabeo with every word accepted."""

    def __init__(self, game: str, players: int, options: dict[str, Any] | None = None,
                 words: WordList | None = WORDS, seed: int | None = None, hints: bool = False) -> None:
        self._opened: list[str] = []
        super().__init__(game, players, options, words, None if seed is None else seeded(seed), hints)

    def pass_out(self) -> None:
        """Scarabeo: every seat passes until the game ends (2n passes in a row), after a test's
        events instead of playing out the bag (a vote waiting is voted Y first), then the keys go
        round and every device verifies the deal."""
        while not self.devices[0].over():
            mover = self.mover()
            game = mover.game
            assert isinstance(game, ScarabeoRemote)
            if game.voters():
                text = "!vote Y"
            elif (pending := game.state.pending) is not None and not game.state.bag \
                    and not game.state.racks[pending.player]:
                text = "!accept"  # a closing play waits for its decision; any other, passing accepts
            else:
                text = "-"
            self.deliver(mover, mover.play(text))

    def link_contents(self) -> list[str]:
        """What each link sent so far carries (its JSON), unpacked once per link."""
        self._opened += [json.dumps(unpack(link)) for link in self.links[len(self._opened):]]
        return self._opened


def seeded(seed: int) -> SeatRandom:
    """Each seat's deal shuffled from ``seed``: the same racks whoever sits where."""
    return lambda seat: random.Random(seed * 10 + seat)


def start(game: str, players: int, options: dict[str, Any] | None = None) -> list[Device]:
    """A started game's devices, in seat order, every setup message passed by hand."""
    return Table(game, players, options).devices


def deliver(devices: list[Device], sender: Device, text: str) -> None:
    for device in devices:
        if device is not sender:
            device.open(text)


def play_one(devices: list[Device], rng: random.Random) -> str:
    first = devices[0]
    assert first.game is not None
    mover = devices[first.game.state.to_move()]
    text = mover.play(str(rng.choice(mover.show()["legal"])))
    deliver(devices, mover, text)
    return text


def act_messages(link: str) -> list[dict[str, Any]]:
    """The messages of ``link`` that the act which made it wrote (and the deal steps written with
    it): a link also carries the earlier messages some seat may lack (``Device.catch_up``), which
    these tests delivered already. The last run of its writer's messages, less the deal steps it
    wrote on its own before the act."""
    data = unpack(link)
    messages: list[dict[str, Any]] = data["b"] if "b" in data else [data]
    writer = messages[-1]["m"].get("f")
    first = len(messages)
    while first > 0 and messages[first - 1]["m"].get("f") == writer:
        first -= 1
    run = messages[first:]
    while len(run) > 1 and run[0]["m"]["k"] == "deal":
        run = run[1:]
    return run


def repack(text: str, change: Any) -> str:
    """``text`` with its JSON changed by ``change(data)`` and packed again, signature untouched."""
    data = unpack(text)
    change(data)
    return pack(data)


def raw_repack(text: str, raw: bytes) -> str:
    """A message whose deflated body is ``raw`` (not necessarily canonical JSON)."""
    return text[:3] + b64(zlib.compress(raw))


def flip(text: str, index: int) -> str:
    """``text`` with one base64url character changed."""
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    c = text[index]
    return text[:index] + alphabet[(alphabet.index(c) + 17) % 64] + text[index + 1:]


def state_of(device: Device) -> str:
    return str(canonical(device.to_json()))


def deliver_withholding(table: Table, sender: Device, text: str) -> list[Device]:
    """Table.deliver, but whatever a device sends on its own once the game is over (its keys) is
    not passed on: the devices whose keys never come."""
    withheld: list[Device] = []
    queue = [(sender, text)]
    while queue:
        sender, text = queue.pop(0)
        for device in table.devices:
            if device is not sender:
                event = device.open(text)
                if event.send is not None and device.over():
                    withheld.append(device)
                elif event.send is not None:
                    queue.append((device, event.send))
    return withheld


def played_to_the_end_withholding(table: Table) -> tuple[Device, str]:
    """Every seat passes until the game ends; the first keys sent after the end are withheld.
    Returns the device that withholds and its keys' link."""
    while True:
        mover = table.mover()
        link = mover.play("-")
        if not mover.over():
            table.deliver(mover, link)
            continue
        withheld = deliver_withholding(table, mover, link)
        assert len(withheld) == 1
        keys = withheld[0].resend()
        return withheld[0], keys


def fork_of(mover: Device) -> tuple[str, str]:
    """Two different moves ``mover`` signs for the same place in the chain (a fork)."""
    legal = mover.show()["legal"]
    m = mover._header("move", mover.seat)  # type: ignore[arg-type]
    m["t"] = legal[0]
    one = mover._signed(m)
    m["t"] = legal[1]
    return one, mover._signed(m)


def withheld_end(table: Table) -> tuple[Device, str, str, Device, dict[str, Any]]:
    """A Scarabeo game played to its end whose first keys are withheld: the withholder, its keys,
    its name, another device and what that device shows."""
    withholder, keys = played_to_the_end_withholding(table)
    name = withholder.names()[withholder.seat or 0]
    other = next(d for d in table.devices if d is not withholder)
    return withholder, keys, name, other, other.show()
