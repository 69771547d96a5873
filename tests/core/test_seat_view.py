"""What each seat may know of Thot and Scarabya (game.core.view and each game's ``public``): the
view is the public state, no seed and no future draw leave it, and the public record rebuilds
the game."""

from __future__ import annotations

import json
from typing import Any, Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.core import RecordError, Rng
from game.core import view as V
from game.core.protocol import GameState
from game.scarabya import public as scarabya_public
from game.scarabya.ruins import RuinsState
from game.scarabya.state import ScarabyaState
from game.thot.state import ThotState

BIG = 10**15  # a seed long enough that its digits cannot turn up by chance


def play_random(state: GameState[Any], rng: Rng, moves: int) -> None:
    for _ in range(moves):
        if state.is_over():
            return
        legal = state.legal_moves()
        state.push(legal[rng.below(len(legal))])


def dumps(value: object) -> str:
    return json.dumps(value, sort_keys=True)


def without_seat(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k != "seat"}


GAMES: dict[str, Callable[[int, int], GameState[Any]]] = {
    "thot": lambda players, seed: ThotState.new(players=players, seed=seed),
    "thot-short-turnoff": lambda players, seed: ThotState.new(players=players, seed=seed,
                                                              short=True, turnoff=True),
    "scarabya": lambda players, seed: ScarabyaState.new(players=players, seed=seed),
    "ruins": lambda players, seed: RuinsState.new(players=players, seed=seed),
}


@settings(max_examples=10, deadline=None)
@given(st.sampled_from(sorted(GAMES)), st.integers(2, 4), st.integers(0, 2**40),
       st.integers(0, 2**30))
def test_every_seat_sees_the_public_state_and_no_seed_and_the_record_rebuilds_it(
        game: str, players: int, seed: int, play_seed: int) -> None:
    seed += BIG
    state = GAMES[game](players, seed)
    rng = Rng(play_seed)
    while True:
        record = V.public_record(state)
        text = dumps(record)
        assert str(seed) not in text
        rebuilt = V.load_public(json.dumps(record))
        spectator = V.seat_view(state, None)
        assert str(seed) not in dumps(spectator)
        for seat in range(players):
            assert without_seat(V.seat_view(state, seat)) == without_seat(spectator)
        if isinstance(state, ThotState):
            # Nothing in Thot is hidden: the view is the whole state's.
            assert without_seat(spectator) == state.view()
            assert rebuilt.position() == state.position()
        else:
            # Scarabya: everything but the order of the cards still to come.
            assert isinstance(rebuilt, (ScarabyaState, RuinsState))
            assert isinstance(state, (ScarabyaState, RuinsState))
            expected = rebuilt.view()
            del expected["seed"]
            assert without_seat(spectator) == expected
            real = state.view()
            for key in ("sites", "scores", "round", "tile", "to_move", "over", "outcome"):
                if key in real:
                    assert spectator[key] == real[key], key
            for key in ("rows", "pieces", "ruins", "hands", "scored", "tiles_drawn",
                        "tokens_left"):
                if key in real:
                    assert spectator[key] == real[key], key
        if state.is_over():
            break
        play_random(state, rng, 1 + rng.below(6))


def scarabya_twins(deck: str, drawn: int, rng: Rng) -> tuple[str, str]:
    rest = list(deck[drawn:])
    rng.shuffle(rest)
    return deck, deck[:drawn] + "".join(rest)


@settings(max_examples=10, deadline=None)
@given(st.integers(1, 4), st.integers(0, 2**40), st.integers(0, 2**30), st.integers(0, 47))
def test_a_scarabya_view_does_not_depend_on_the_cards_to_come(
        players: int, seed: int, play_seed: int, moves: int) -> None:
    state = ScarabyaState.new(players=players, seed=seed + BIG)
    rng = Rng(play_seed)
    play_random(state, rng, moves)
    drawn = len(scarabya_public.public_record(state).drawn)
    _, other_deck = scarabya_twins(state.deck, drawn, rng)
    twin = ScarabyaState.new(players=players, layout=state.layout, deck=other_deck, seed=seed + 1)
    for move in state.history():
        twin.push(move)
    for seat in [None, *range(players)]:
        assert dumps(V.seat_view(twin, seat)) == dumps(V.seat_view(state, seat))
    assert V.public_record(twin) == V.public_record(state)
    if not state.is_over():
        view = V.seat_view(state, None)
        # The cards still to come are shown in a fixed order, whatever the real one.
        assert view["position"].split()[3][drawn:] == "".join(sorted(
            state.deck[drawn:], key="FILNPTUVWXYZ".index))


@settings(max_examples=10, deadline=None)
@given(st.integers(2, 4), st.integers(0, 2**40), st.integers(0, 2**30), st.integers(0, 40))
def test_a_ruins_view_does_not_depend_on_the_tiles_to_come(
        players: int, seed: int, play_seed: int, moves: int) -> None:
    state = RuinsState.new(players=players, seed=seed + BIG)
    rng = Rng(play_seed)
    play_random(state, rng, moves)
    record = scarabya_public.public_record(state)
    n = len(record.drawn)
    options = state.options()
    rest = list(options["deck"][n:])
    rng.shuffle(rest)
    zones = options["zones"][:n] + "".join(
        "".join(str(z) for z in sorted(range(1, 10), key=lambda _: rng.below(100))[:4])
        for _ in range((16 - n) // 4))
    twin = RuinsState.new(players=players, seed=seed, deck=options["deck"][:n] + "".join(rest),
                          zones=zones)
    for move in state.history():
        twin.push(move)
    for seat in [None, *range(players)]:
        assert dumps(V.seat_view(twin, seat)) == dumps(V.seat_view(state, seat))
    assert V.public_record(twin) == V.public_record(state)


# --- forged or malformed records -----------------------------------------------------------------
def thot_record(moves: int = 6) -> dict[str, Any]:
    state = ThotState.new(players=2, seed=3)
    play_random(state, Rng(4), moves)
    return V.public_record(state)


def scarabya_record(moves: int = 5) -> dict[str, Any]:
    state = ScarabyaState.new(players=2, seed=3)
    play_random(state, Rng(4), moves)
    return V.public_record(state)


def ruins_record(moves: int = 5) -> dict[str, Any]:
    state = RuinsState.new(players=2, seed=3)
    play_random(state, Rng(4), moves)
    return V.public_record(state)


def refuse(data: dict[str, Any], match: str) -> None:
    with pytest.raises(RecordError, match=match):
        V.load_public(json.dumps(data))


def test_a_thot_start_that_is_not_a_start_is_refused() -> None:
    data = thot_record()
    later = ThotState.new(players=2, seed=3)
    play_random(later, Rng(4), 2)
    data["start"] = later.position()
    refuse(data, "not a game's start")


def test_a_thot_start_that_does_not_match_its_options_is_refused() -> None:
    data = thot_record()
    data["options"]["turnoff"] = True
    refuse(data, "does not match the options")


def test_an_illegal_thot_move_is_refused_with_its_turn() -> None:
    data = thot_record()
    data["moves"].append(data["moves"][-1])
    refuse(data, f"turn {len(data['moves'])}")


def test_a_scarabya_record_may_not_carry_the_deck_or_a_future_card() -> None:
    data = scarabya_record()
    data["options"]["deck"] = "FILNPTUVWXYZ"
    refuse(data, "not the deck")
    data = scarabya_record()
    future = next(c for c in "FILNPTUVWXYZ" if c not in data["drawn"])
    data["drawn"] += future
    refuse(data, "reveals")
    data = scarabya_record()
    data["drawn"] = data["drawn"][:1] * 2
    refuse(data, "distinct")


def test_a_scarabya_move_with_another_card_than_the_one_drawn_is_refused() -> None:
    data = scarabya_record(0)
    drawn = data["drawn"]
    other = next(c for c in "FILNPTUVWXYZ" if c != drawn)
    data["drawn"] = other
    state = ScarabyaState.new(players=2, seed=3)
    play_random(state, Rng(4), 1)
    # On an empty site a tile always fits: the first move places the card really drawn.
    data["moves"] = [state.move_text(state.history()[0])]
    refuse(data, "turn 1.*mission card")


def test_a_ruins_record_reveals_whole_rounds_with_their_zones() -> None:
    data = ruins_record()
    data["zones"] = data["zones"][:3]
    refuse(data, "whole rounds")
    data = ruins_record()
    data["drawn"] = "0" * len(data["drawn"])
    refuse(data, "distinct")


@pytest.mark.parametrize("edit,match", [
    (lambda d: d.update(game="chess"), "unknown game"),
    (lambda d: d.update(seed=5), "unknown field"),
    (lambda d: d.update(version=2), "newer"),
    (lambda d: d.update(moves=["A1"] * 500), "at most"),
    (lambda d: d.update(start="x" * 5000), "start"),
])
def test_a_malformed_thot_record_is_refused(edit: Callable[[dict[str, Any]], None],
                                           match: str) -> None:
    data = thot_record()
    edit(data)
    refuse(data, match)


def test_outside_text_goes_through_the_guarded_boundary() -> None:
    with pytest.raises(RecordError, match="digits"):
        V.load_public('{"format": "scarab-public-record", "version": ' + "9" * 50 + "}")
    with pytest.raises(RecordError, match="not valid JSON"):
        V.load_public("{")
    with pytest.raises(RecordError, match="a public record must be a JSON object"):
        V.load_public("[]")


def test_a_seat_that_does_not_exist_is_refused() -> None:
    with pytest.raises(ValueError, match="no seat"):
        V.seat_view(ThotState.new(players=2), 5)
    with pytest.raises(ValueError, match="no seat"):
        V.seat_view(RuinsState.new(players=2), 2)
