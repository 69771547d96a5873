"""Random self-play with invariants: scores never fall, scored areas stay closed, undo and replay."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from game.core import Rng
from game.scarabya import ScarabyaState, new, record, replay
from game.scarabya.grid import SITE
from game.scarabya.rules import neighbours
from game.scarabya.tokens import TOKENS_PER_VALUE

seeds = st.integers(min_value=0, max_value=2**32)
players = st.integers(min_value=1, max_value=4)


def check_invariants(s: ScarabyaState) -> None:
    paid = [0, 0, 0, 0]
    for seat in range(s.num_players):
        open_ = s.open_squares(seat)
        for area in s.areas[seat]:
            # still open, and closed off: the area is a whole component of the open squares
            assert area.squares & open_ == area.squares
            assert not neighbours(area.squares) & open_ & ~area.squares
            assert 1 <= area.size <= 4
            for tokens in area.tokens:
                assert sum(tokens) in (0, area.size)
                for t in tokens:
                    paid[t - 1] += 1
        # every open area of 1-4 squares has scored (once a tile is down)
        if s.covered[seat]:
            for comp in SITE.components(open_):
                if comp.bit_count() <= 4:
                    assert comp & s.closed[seat] == comp
        assert s.scores[seat] == sum(a.points for a in s.areas[seat])
    assert [TOKENS_PER_VALUE - paid[i] for i in range(4)] == s.supply


@settings(max_examples=60, deadline=None)
@given(seed=seeds, n=players)
def test_random_games_keep_the_invariants(seed: int, n: int) -> None:
    s = ScarabyaState.new(n, seed=seed)
    rng = Rng(seed)
    before = list(s.scores)
    while not s.is_over():
        s.push(rng.choice(s.legal_moves()))
        assert all(a >= b for a, b in zip(s.scores, before))  # scores never fall
        before = list(s.scores)
        check_invariants(s)
    assert len(s.history()) == 12 * n


@settings(max_examples=30, deadline=None)
@given(seed=seeds, n=players)
def test_pop_restores_every_position(seed: int, n: int) -> None:
    s = ScarabyaState.new(n, seed=seed)
    rng = Rng(seed ^ 1)
    positions = [s.position()]
    views = [s.view()]
    while not s.is_over():
        s.push(rng.choice(s.legal_moves()))
        positions.append(s.position())
        views.append(s.view())
    while s.history():
        s.pop()
        positions.pop()
        views.pop()
        assert s.position() == positions[-1]
        assert s.view() == views[-1]


@settings(max_examples=30, deadline=None)
@given(seed=seeds, n=players)
def test_replays_match(seed: int, n: int) -> None:
    s = ScarabyaState.new(n, seed=seed)
    rng = Rng(seed ^ 2)
    while not s.is_over():
        s.push(rng.choice(s.legal_moves()))
    again = replay(record(s).dumps())
    assert again.position() == s.position()
    assert again.view() == s.view()
    assert ScarabyaState.from_position(s.position()).scores == s.scores


@settings(max_examples=20, deadline=None)
@given(seed=seeds, n=st.integers(min_value=2, max_value=4))
def test_ruins_random_games(seed: int, n: int) -> None:
    s = new(n, seed=seed, variant="ruins")
    rng = Rng(seed)
    before = list(s.scores)
    positions = [s.position()]
    while not s.is_over():
        s.push(rng.choice(s.legal_moves()))
        assert all(a >= b for a, b in zip(s.scores, before))
        before = list(s.scores)
        positions.append(s.position())
    assert replay(record(s).dumps()).position() == s.position()
    while s.history():
        s.pop()
        positions.pop()
        assert s.position() == positions[-1]
