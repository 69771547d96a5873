"""The engine's hook for games dealt by remote play's deal: a record's ``bags`` (the bag's order at
the start and after each mixing, in draw order) replay the draws exactly, and a record whose bags
do not fit is refused. (Whole remote games rebuilt into full records: test_protocol_scarabeo.py.)"""

from __future__ import annotations

import random

import pytest

from game.core import GameRecord, IllegalMove
from game.scarabeo import public
from game.scarabeo.game import ScarabeoState
from game.scarabeo.moves import Exchange
from game.scarabeo.record import ReplayError, replay_record, to_record
from game.scarabeo.tiles import RACK_SIZE, full_set
from tests.remote.protocol_helpers import WORDS


def _order(seed: int, tiles: list[str] | None = None) -> str:
    tiles = list(full_set() if tiles is None else tiles)
    random.Random(seed).shuffle(tiles)
    return "".join(tiles)


def _exchangeable(start: str) -> str:
    """``start`` with 16 consonants first: both racks may be exchanged whole."""
    consonants = [t for t in start if t in "BCDFGLMNPRSTVZ"][:2 * RACK_SIZE]
    rest = list(start)
    for t in consonants:
        rest.remove(t)
    return "".join(consonants + rest)


def test_the_racks_and_draws_follow_the_bags() -> None:
    start = _exchangeable(_order(1))
    state = ScarabeoState.new(2, 7, word_list=WORDS, bags=[start])
    first, second = state.starter, 1 - state.starter
    assert "".join(state.racks[first]) == start[:8] and "".join(state.racks[second]) == start[8:16]
    assert "".join(reversed(state.bag)) == start[16:]
    # An exchange mixes the bag: the next of the bags, whose first 8 tiles the exchanger draws.
    rack = "".join(state.racks[first])
    mixed = _order(2, list(start[16:]) + list(rack))
    with pytest.raises(IllegalMove, match="dealt bags are 1"):
        state.push(Exchange(rack))
    assert "".join(state.racks[first]) == rack  # refused: nothing changed
    state = ScarabeoState.new(2, 7, word_list=WORDS, bags=[start, mixed])
    state.push(Exchange(rack))
    assert "".join(state.racks[first]) == mixed[:8]
    # The record carries the bags and replays the same racks; the public record drops them.
    record = to_record(state)
    assert record.options["bags"] == [start, mixed]
    again = replay_record(GameRecord.from_json(record.to_json()), WORDS)
    assert again.racks == state.racks and again.bag == state.bag
    assert "bags" not in public.public_record(state).to_json()["options"]


def test_bags_that_do_not_fit_are_refused() -> None:
    start = _order(3)
    record = to_record(ScarabeoState.new(2, 7, word_list=WORDS, bags=[start])).to_json()
    for bags, why in (([start[1:]], "whole tile set"), ([start, "AB"], None), ("ABC", "list of texts")):
        bad = GameRecord.from_json({**record, "options": {**record["options"], "bags": bags}})
        if why is None:
            replay_record(bad, WORDS)  # an unused bag is not read until the bag is mixed
            continue
        with pytest.raises(ReplayError, match=why):
            replay_record(bad, WORDS)
    rack_tiles = sorted(start[:8])
    wrong = _order(4, list(start[16:]) + ["A" if t != "A" else "E" for t in rack_tiles])
    state = ScarabeoState.new(2, 7, word_list=WORDS, bags=[_exchangeable(start), wrong])
    with pytest.raises(IllegalMove, match="does not hold the tiles"):
        state.push(Exchange("".join(state.racks[state.starter])))
