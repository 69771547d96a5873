"""Scarabya's Ruins variant by links: whole games between separate devices agree on every position
and score; each round's tiles are drawn when it begins, from values revealed in turn, so that no
device knows a round's tiles before the previous round is over (the opener of a round learns them
as its turn comes); a wrong or missing value is refused."""

from __future__ import annotations

import json
import random

import pytest

from game.core import GameRecord
from game.remote.games import RuinsRemote
from game.remote.session import Device, Refused
from game.remote.wire import b64
from game.scarabya.ruins import ROUNDS, RuinsState
from tests.remote.protocol_helpers import Table, state_of
from tests.remote.test_protocol_scarabeo import _messages, _resigned

RUINS = {"variant": "ruins"}


def _game(device: Device) -> RuinsRemote:
    game = device.game
    assert isinstance(game, RuinsRemote)
    return game


@pytest.mark.parametrize("players", [2, 3, 4])
def test_whole_ruins_games_agree_and_rounds_stay_unknown_until_they_begin(players: int) -> None:
    table = Table("scarabya", players, RUINS)
    rng = random.Random(players)
    openings = 0
    while not table.devices[0].over():
        game = _game(table.devices[0])
        state = game.state
        if state.round_index < ROUNDS and state.round_index >= len(game.rounds):
            # A round begins: only its opener can draw it, with its own value (never sent before).
            openings += 1
            opener = table.devices[state.round_index % players]
            value = b64(_game(opener)._value(opener.secret["game"], state.round_index))
            for device in table.devices:
                assert len(_game(device).rounds) == state.round_index
                if device is not opener:
                    assert value not in json.dumps(device.to_json())
            assert opener.show()["legal"] and not any(d.show()["legal"] for d in table.devices if d is not opener)
            expected = _game(opener).seat_state(opener.secret["game"]).revealed()
            table.play(rng)
            # Its move carries its value: every device draws the same round the opener saw.
            assert all(_game(d).state.revealed() == expected for d in table.devices)
        else:
            table.play(rng)
        assert len({d.game.state.position() for d in table.devices}) == 1  # type: ignore[union-attr]
    assert openings == ROUNDS - 1
    shown = [d.show() for d in table.devices]
    assert len({json.dumps(s["scores"]) for s in shown}) == 1 and all(s["verified"] is True for s in shown)
    # Every device exports the same record: the tiles and zones as drawn, replayed by the engine.
    exports = {json.dumps(d.export(), sort_keys=True) for d in table.devices}
    assert len(exports) == 1
    record = GameRecord.from_json(json.loads(exports.pop()))
    replayed = RuinsState.from_options(record.options, record.seed)
    for text in record.moves:
        replayed.push(replayed.parse_move(text))
    assert replayed.scores == shown[0]["scores"] and replayed.is_over()
    assert len({z for z in record.options["zones"][:4]}) == 4


def test_a_missing_or_wrong_round_value_is_refused() -> None:
    table = Table("scarabya", 2, RUINS)
    rng = random.Random(9)
    while True:
        mover = table.mover()
        link = mover.play(str(rng.choice(mover.show()["legal"])))
        if _messages(link)[0]["m"].get("x", {}).get("r"):
            break
        table.deliver(mover, link)
    other = next(d for d in table.devices if d is not mover)
    for change, reason in ((lambda m: m.pop("x"), "values due"),
                           (lambda m: m["x"]["r"].update({k: b64(bytes(32)) for k in m["x"]["r"]}), "committed")):
        before = state_of(other)
        with pytest.raises(Refused) as caught:
            other.open(_resigned(mover, link, change))
        assert reason in caught.value.reason and state_of(other) == before
    table.deliver(mover, link)
    assert len({d.game.state.position() for d in table.devices}) == 1  # type: ignore[union-attr]


def test_the_ruins_tiles_cannot_be_chosen() -> None:
    with pytest.raises(Refused, match="cannot be chosen"):
        Device.invite("scarabya", "Anna", 2, {"variant": "ruins", "deck": "0123456789ABCDEF"})
