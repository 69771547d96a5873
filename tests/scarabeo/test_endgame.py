"""The endgame and pre-endgame solvers (``game.scarabeo.endgame``): the same value as an exhaustive
minimax over the engine's own moves on hundreds of small endgames, any-time under a budget, the
line legal and worth what it says, the refusals, the pre-endgame's draws."""

from __future__ import annotations

from typing import Any

import pytest

from game.core import Rng
from game.scarabeo import ScarabeoState, endgame
from game.scarabeo.board import SIZE, SQUARES
from game.scarabeo.movegen import MoveGenerator, to_play
from game.scarabeo.tiles import SCARAB

from tests.scarabeo.test_movegen import GEN, LETTERS_USED, LEX, _row


def small_endgame(seed: int) -> ScarabeoState:
    """A small random endgame over the test lexicon: a board of a few random plays (scarabs on it
    now and then, for the swaps), two racks of 1-4 tiles (a scarab now and then), an idle-turn
    count of 0-3, and the bag emptied (the engine's rules with an empty bag are what the solver
    must match; the racks need not be the set's complement)."""
    rng = Rng(seed)
    board = [""] * SQUARES
    board_scarabs = rng.below(3) == 0
    for _ in range(4 + rng.below(5)):
        rack = [rng.choice(LETTERS_USED) for _ in range(5)]
        if board_scarabs and sum(1 for c in board if c.islower()) < 2:
            rack.append(SCARAB)
        plays = GEN.plays(board, rack, not any(board), swaps=False)
        if plays:
            p = rng.choice(sorted(plays))
            for sq, ch in zip(to_play(p).squares(), p[3]):
                if not board[sq]:
                    board[sq] = ch
    board_text = "/".join(_row(board[r * SIZE:(r + 1) * SIZE]) for r in range(SIZE))
    on_board = sum(1 for c in board if c.islower())
    # Racks small enough for the exhaustive minimax: 2-5 tiles in all, at most 4 on one.
    total = 2 + rng.below(4)
    first = 1 + rng.below(min(4, total - 1))
    sizes = (first, total - first) if total - first <= 4 else (total - 4, 4)
    racks = []
    scarabs_left = 2 - on_board
    for n in sizes:
        rack = [rng.choice(LETTERS_USED) for _ in range(n)]
        if scarabs_left and rng.below(5) == 0:
            rack[0] = SCARAB
            scarabs_left -= 1
        racks.append("".join(rack))
    scores = f"{rng.below(100)}/{rng.below(100)}"
    state = ScarabeoState.from_position(f"{board_text} {'/'.join(racks)} {scores} {rng.below(4)}",
                                        word_list=LEX)
    state.bag = []
    return state


def proof_positions(count: int) -> list[tuple[int, ScarabeoState]]:
    """The first ``count`` small endgames (seeds 0, 1, …) where the player to move has a play and
    the two racks' plays at the start multiply to at most ``TREE_BOUND`` and add up to at most a
    quarter of it: the exhaustive minimax is exponential, and a rack of common letters (or a
    scarab) on these hook-rich boards has a hundred plays."""
    out = []
    seed = 0
    while len(out) < count:
        state = small_endgame(seed)
        mine = len(GEN.plays(state.board, state.racks[0], False))
        theirs = len(GEN.plays(state.board, state.racks[1], False))
        if mine and (mine + 1) * (theirs + 1) <= TREE_BOUND and mine + theirs <= TREE_BOUND // 4:
            out.append((seed, state))
        seed += 1
    return out


TREE_BOUND = 100
PROOF = proof_positions(300)


@pytest.mark.parametrize("chunk", range(10))
def test_the_solver_matches_the_exhaustive_minimax(chunk: int) -> None:
    for seed, state in PROOF[chunk::10]:
        expected = endgame.exhaustive(state, GEN)
        sol = endgame.solve(state, GEN)
        assert sol.complete, seed
        assert sol.value == expected, (seed, state.position())


#: A board from a seeded game on the real lexicon (the bag emptied, racks made small).
REAL_BOARD = ("3P2IPERCUBI2F/1MORBIDE2STANCHE/2ME8C3L/2OG4Z3H3Z/2Ph4O2SE3E/2LI4L2VR4/2A5FM1IO4/"
              "2TA4EQ1N5/qUADRI1SR2A5/GE1A3BO2N3ED/2FG3O3D3QI/1RIIMPOSTAVO4S/2LA3C3M4F/"
              "1CONTUMACI1E4O/2SO3N3L4N/2I4O1SVALUTAI/13ERGA")


@pytest.fixture(scope="module")
def real() -> tuple[Any, MoveGenerator]:
    lexicon = pytest.importorskip("lexicon")
    try:
        lex = lexicon.load()
    except Exception as err:  # noqa: BLE001 - not built: the real-lexicon tests are skipped
        pytest.skip(f"the lexicon is not built: {err}")
    from game.scarabeo import ai
    return lex, ai.generator_for(lex)


@pytest.mark.parametrize("racks", ["E/T", "T/E", "ET/V", "V/ET"])
def test_the_solver_matches_the_exhaustive_minimax_on_the_real_lexicon(
        real: tuple[Any, MoveGenerator], racks: str) -> None:
    lex, gen = real
    state = ScarabeoState.from_position(f"{REAL_BOARD} {racks} 960/831 0", word_list=lex)
    state.bag = []
    sol = endgame.solve(state, gen)
    assert sol.complete
    assert sol.value == endgame.exhaustive(state, gen)
