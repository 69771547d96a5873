"""The endgame and pre-endgame solvers (``game.scarabeo.endgame``): the same value as an exhaustive
minimax over the engine's own moves on hundreds of small endgames, any-time under a budget, the
line legal and worth what it says, the refusals, the pre-endgame's draws."""

from __future__ import annotations

import json
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


class TestAnyTime:
    def test_a_cut_search_gives_its_best_line_and_says_it_is_not_proved(self) -> None:
        seed, state = next((s, st) for s, st in PROOF if sum(map(len, st.racks)) >= 4)
        full = endgame.solve(state, GEN)
        cut = endgame.solve(state, GEN, max_nodes=YIELD)
        assert full.complete and not cut.complete, seed
        assert cut.line and cut.nodes <= full.nodes

    def test_the_solver_yields_in_slices_and_can_be_stopped(self) -> None:
        _, state = PROOF[0]
        solver = endgame.EndgameSolver(state, GEN)
        run = solver.run()
        next(run)
        solver.stop()
        with pytest.raises(StopIteration) as stop:
            while True:
                next(run)
        sol = stop.value.value
        assert isinstance(sol, endgame.Solution) and sol is solver.solution

    def test_the_line_replays_on_the_engine_to_the_value(self) -> None:
        for seed, proof in PROOF[:40]:
            state = fresh(proof)
            sol = endgame.solve(state, GEN)
            me = state.turn
            for step in sol.line:
                state.push(step.move)
            assert state.is_over(), seed
            assert state.scores[me] - state.scores[1 - me] == sol.value, seed


YIELD = endgame.YIELD_EVERY


class TestMoveValues:
    """``EndgameSolver.values``: each move's own final spread (a full window, not a bound), as the
    analysis and the hints value the turn played and the alternatives (issue 39 point 5)."""

    def test_each_move_is_its_exhaustive_value(self) -> None:
        from game.scarabeo.moves import Exchange

        checked = 0
        for seed, proof in PROOF[:12]:
            state = fresh(proof)
            plays = GEN.plays(state.board, state.racks[0], False)
            moves = [(to_play(p), p[0]) for p in plays] + [(m, 0) for m in state.legal_moves()]
            solver = endgame.EndgameSolver(state, GEN)
            best = endgame.run_to_end(solver.run())
            values = endgame.run_to_end(solver.values(moves))
            assert [v.move for v in values] == [m for m, _ in moves]
            for v in values:
                after = fresh(proof)
                after.push(v.move)
                expected = (after.scores[0] - after.scores[1] if after.is_over()
                            else -endgame.exhaustive(after, GEN))
                assert v.complete and v.value == expected, (seed, v.move)
                assert v.gain == v.value - (state.scores[0] - state.scores[1])
                # an exchange with the bag empty gives the rack back: the pass it is
                assert not isinstance(v.move, Exchange) or v.value == values[-2].value
                checked += 1
            assert max(v.value for v in values) == best.value, seed
        assert checked > 40

    def test_a_proof_takes_at_least_its_floor_of_generations(self) -> None:
        for seed, proof in PROOF[:60]:
            solver = endgame.EndgameSolver(fresh(proof), GEN)
            floor = endgame.run_to_end(solver.proof_floor())
            generated = solver.search.generations
            sol = endgame.run_to_end(solver.run())
            assert generated == 1  # the root's moves, kept for the search
            assert sol.complete and solver.search.generations >= floor >= 1, seed

    def test_a_cut_budget_leaves_them_not_proved(self) -> None:
        seed, state = next((s, st) for s, st in PROOF if sum(map(len, st.racks)) >= 4)
        plays = GEN.plays(state.board, state.racks[0], False)
        solver = endgame.EndgameSolver(state, GEN, max_nodes=YIELD)
        values = endgame.run_to_end(solver.values([(to_play(p), p[0]) for p in plays]))
        assert not all(v.complete for v in values), seed
        assert solver.search.generations >= 1  # the replies it generated, counted for budgets


def fresh(state: ScarabeoState) -> ScarabeoState:
    """A copy of a proof position to play moves on (the proof's own states stay as they are)."""
    copy = ScarabeoState.from_position(state.position(), word_list=LEX)
    copy.bag = []
    return copy


class TestRefusals:
    def test_three_players_a_full_bag_and_a_finished_game_are_refused(self) -> None:
        three = ScarabeoState.new(3, 1)
        with pytest.raises(endgame.EndgameError, match="two players"):
            endgame.check_position(three)
        with pytest.raises(endgame.EndgameError, match="tiles in the bag"):
            endgame.check_position(ScarabeoState.new(2, 1))
        state = fresh(PROOF[0][1])
        while not state.is_over():
            state.push(state.legal_moves()[0])
        with pytest.raises(endgame.EndgameError, match="over"):
            endgame.check_position(state)

    def test_the_exact_solver_wants_the_bag_empty(self) -> None:
        state = fresh(PROOF[0][1])
        state.bag = ["A"]
        with pytest.raises(endgame.EndgameError, match="empty"):
            endgame.EndgameSolver(state, GEN)


class TestPreEndgame:
    def test_draws_are_every_split_weighted_by_tiles(self) -> None:
        unseen = list("AAEB")
        one = endgame.draws(unseen, 1)
        assert sorted((b, o, w) for b, o, w in one) == [("A", "ABE", 2), ("B", "AAE", 1),
                                                         ("E", "AAB", 1)]
        two = endgame.draws(unseen, 2)
        assert sum(w for _, _, w in two) == 4 * 3
        assert ("AA", "BE", 2) in two and ("BA", "AE", 2) in two

    @pytest.mark.parametrize("seed", [3, 11])
    def test_each_candidate_is_the_mean_of_the_exhaustive_values_over_the_draws(
            self, seed: int) -> None:
        """The bag (1 tile, then 2) taken from the other rack's tiles: every draw's game after
        the candidate, pushed on the engine with that bag and solved by the exhaustive minimax."""
        base = next(st for s, st in PROOF if s >= seed and len(st.racks[1]) >= 3)
        for bag_len in (1, 2):
            state = ScarabeoState.from_position(base.position(), word_list=LEX)
            unseen = state.racks[1][:]
            state.bag = unseen[:bag_len]
            state.racks[1] = unseen[bag_len:]
            pre = endgame.PreEndgameSolver(state, GEN)
            pre.draws = endgame.draws(unseen, bag_len)
            sol = endgame.run_to_end(pre.run())
            assert sol.complete
            for cand in sol.candidates:
                total = 0
                for bag, other, weight in pre.draws:
                    s = ScarabeoState.from_position(base.position(), word_list=LEX)
                    s.racks[1] = list(other)
                    s.bag = list(bag)
                    s.push(cand.move)
                    total += weight * -endgame.exhaustive(s, GEN)
                assert cand.value == pytest.approx(total / sol.weight), cand.move


class TestCommandLine:
    """``python -m game scarabeo endgame POSITION [--time S]`` (routed to ai_cli)."""

    def run(self, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, Any]:
        from game.scarabeo import cli

        code = cli.main(list(args))
        return code, json.loads(capsys.readouterr().out)

    def test_a_position_with_a_full_bag_is_refused_in_one_line(
            self, capsys: pytest.CaptureFixture[str]) -> None:
        start = ScarabeoState.new(2, 3).position()
        code, out = self.run(capsys, "endgame", start)
        assert code == 2
        assert out["error"].startswith("position: 114 tiles in the bag") and "\n" not in out["error"]

    def test_three_players_and_bad_times_are_refused(self, capsys: pytest.CaptureFixture[str]) -> None:
        code, out = self.run(capsys, "endgame", ScarabeoState.new(3, 3).position())
        assert code == 2 and "two players" in out["error"]
        code, out = self.run(capsys, "endgame", f"{REAL_BOARD} TVE/CBT 960/831 0", "--time", "-1")
        assert code == 2 and "seconds" in out["error"]

    def test_a_cut_search_prints_its_line_and_says_so(self, real: tuple[Any, MoveGenerator],
                                                      capsys: pytest.CaptureFixture[str]) -> None:
        # A genuine endgame of a seeded game (the other rack is the unseen tiles), too big to
        # prove in 0.3 s.
        code, out = self.run(capsys, "endgame", f"{REAL_BOARD} TVE/CBT 960/831 0", "--time", "0.3")
        assert code == 0 and out["error"] is None
        assert out["kind"] == "endgame" and out["complete"] is False
        assert out["move"] == out["line"][0]["move"]
        assert {"value", "line", "final_scores", "depth", "nodes", "seconds"} <= set(out)
        if out["final_scores"] is not None:
            mine, theirs = out["final_scores"]
            assert mine - theirs == out["value"]

    def test_the_review_bench_compares_the_champions_losses_with_the_exact_ones(
            self, real: tuple[Any, MoveGenerator], capsys: pytest.CaptureFixture[str]) -> None:
        code, out = self.run(capsys, "endgame-review", "--count", "1", "--seed", "1", "--top", "3",
                             "--work", "5")
        assert code == 0 and out["error"] is None and out["positions"] == 1
        row = out["rows"][0]
        assert row["racks"] == "TVE/CBT" and row["proved"] is False  # 5 units prove nothing here
        assert [m["exact_loss"] for m in row["moves"]] == [None] * 3
        assert row["moves"][0]["champion_loss"] == 0 and out["moves_judged"] == 0
        assert len(out["load_average"]) == 2
