"""The simulating level (``game.scarabeo.sim``, ``grandmaster``): legal moves, the seat's view only
(another opponent rack with the same unseen tiles changes nothing), replays with the seed, the
exact endgame with the bag empty, the pre-endgame with 1-2 in the bag, the stopping rule."""

from __future__ import annotations

import json
from typing import Any

import pytest

from game.scarabeo import ScarabeoState, ai, ai_cli, endgame, sim
from game.scarabeo.moves import Pass, Play
from game.scarabeo.tiles import HIDDEN, RACK_SIZE

from tests.scarabeo.test_movegen import GEN, LEX, random_state
from tests.stepping import run_counting

BUDGET = 12.0


def with_bag(seed: int, opponent: int = RACK_SIZE, game_seed: int = 0) -> ScarabeoState:
    """A two-player mid-game position over the test lexicon whose unseen tiles are the other rack
    (``opponent`` tiles) and the bag, as in a real game."""
    base = random_state(seed, 10, RACK_SIZE, 0)
    state = ScarabeoState.from_position(base.position(), word_list=LEX, seed=game_seed or seed)
    bag = list(state.bag)
    state.racks[1] = bag[:opponent]
    state.bag = bag[opponent:]
    return state


def analysed(state: ScarabeoState, budget: float = BUDGET) -> sim.Analysis:
    return endgame.run_to_end(ai.simulate(state, LEX, budget=budget))


class TestSimulation:
    @pytest.mark.parametrize("seed", [3, 8, 22])
    def test_the_move_is_legal_and_one_of_the_champions_best(self, seed: int) -> None:
        state = with_bag(seed)
        found = analysed(state)
        assert found.kind == "simulation"
        best = endgame.run_to_end(ai.rank(state, "champion", LEX, sim.CANDIDATES))
        assert found.move in [c.move for c in best[:len(found.candidates)]]
        assert all(c.values for c in found.candidates)
        state.push(found.move)  # the engine takes it

    @pytest.mark.parametrize("seed", [3, 8])
    def test_another_opponent_rack_with_the_same_unseen_tiles_changes_nothing(self, seed: int) -> None:
        """The seat's view only: the other rack and the bag swapped around (the same tiles unseen)
        give the same deals, values and move with the same seed."""
        state = with_bag(seed)
        other = with_bag(seed)
        unseen = other.racks[1] + other.bag
        unseen.reverse()
        other.racks[1] = unseen[:RACK_SIZE]
        other.bag = unseen[RACK_SIZE:]
        assert sorted(other.racks[1]) != sorted(state.racks[1])
        a, b = analysed(state), analysed(other)
        assert a.to_json() == b.to_json()
        assert a.move == b.move

    def test_it_replays_with_the_seed_and_deals_otherwise_with_another(self) -> None:
        state = with_bag(5)
        assert analysed(state).to_json() == analysed(state).to_json()
        cands = endgame.run_to_end(ai.rank(state, "champion", LEX, 2))
        deals = sim.Simulation(state, GEN, cands).deal()
        assert sim.Simulation(state, GEN, cands).deal() == deals
        again = with_bag(5, game_seed=99)
        assert again.board == state.board and again.racks[0] == state.racks[0]
        assert sim.Simulation(again, GEN, cands).deal() != deals

    def test_it_runs_in_slices_through_think_and_the_level_ladder(self) -> None:
        state = with_bag(13)
        assert ai.level_of("5").name == "grandmaster" and ai.level_of("grandmaster").simulate
        move, steps = run_counting(ai.think(state, "grandmaster", LEX, seconds=None))
        assert steps > 1
        assert move == analysed(state, sim.BUDGET).move
        assert ai.choose(state, "5", LEX) == move

    def test_a_wall_clock_cap_cuts_it_with_a_legal_move(self) -> None:
        state = with_bag(3)
        found = endgame.run_to_end(ai.simulate(state, LEX, budget=10_000, seconds=0.0))
        assert found.cut and found.rounds <= 1
        state.push(found.move)

    def test_three_players_are_simulated(self) -> None:
        base = random_state(8, 10, RACK_SIZE, 0)
        rack = "".join(base.racks[0])
        state = ScarabeoState.from_position(
            base.position().replace(f" {rack}/ ", f" {rack}// ").replace(" 0/0 ", " 0/0/0 "),
            word_list=LEX, seed=4)
        bag = list(state.bag)
        state.racks[1], state.racks[2], state.bag = bag[:8], bag[8:16], bag[16:]
        found = analysed(state)
        assert found.kind == "simulation"
        assert len(found.candidates) >= 2
        state.push(found.move)


class TestStoppingRule:
    def cands(self, values: list[list[float]]) -> sim.Simulation:
        state = with_bag(3)
        ranked = endgame.run_to_end(ai.rank(state, "champion", LEX, len(values)))
        s = sim.Simulation(state, GEN, ranked[:len(values)])
        for c, v in zip(s.cands, values):
            c.values = list(v)
        s.rounds = len(values[0])
        return s

    def test_a_hopeless_candidate_is_dropped_and_a_close_one_kept(self) -> None:
        s = self.cands([[50, 60, 55, 58], [10, 22, 15, 20], [49, 61, 54, 59]])
        s.prune()
        assert [c.dropped for c in s.cands] == [0, 4, 0]

    def test_nothing_is_dropped_before_the_minimum_deals(self) -> None:
        s = self.cands([[50, 60], [10, 22]])
        s.prune()
        assert not any(c.dropped for c in s.cands)

    def test_the_champions_choice_stays_unless_clearly_beaten(self) -> None:
        s = self.cands([[50, 60, 55], [90, 20, 60]])  # higher mean, no clear edge
        assert not s.beats(s.cands[1], s.cands[0])
        s = self.cands([[50, 60, 55], [60, 71, 64]])  # above it in every deal
        assert s.beats(s.cands[1], s.cands[0])


# --- the endgame and the pre-endgame, on real positions -----------------------------------------

@pytest.fixture(scope="module")
def real() -> tuple[Any, Any]:
    lexicon = pytest.importorskip("lexicon")
    try:
        lex = lexicon.load()
    except Exception as err:  # noqa: BLE001 - not built: the real-lexicon tests are skipped
        pytest.skip(f"the lexicon is not built: {err}")
    return lex, ai.generator_for(lex)


def test_the_bag_empty_the_exact_endgame_decides(real: tuple[Any, Any]) -> None:
    lex, gen = real
    text = endgame.sample_endgames(gen, 1, 2, max_rack=3, deals=1)[0]
    state = ScarabeoState.from_position(text, word_list=lex)
    solved = endgame.solve(state, gen)
    assert solved.complete
    found = endgame.run_to_end(ai.simulate(state, lex, budget=1_000))
    assert found.kind == "endgame" and found.detail["complete"]
    assert found.detail["value"] == solved.value
    # the seat's view: the other rack hidden, the same analysis (the solver is given the unseen
    # tiles, equal to the other rack in a real game)
    masked = ScarabeoState.from_position(text, word_list=lex)
    masked.racks[1 - masked.turn] = [HIDDEN] * len(masked.racks[1 - masked.turn])
    assert endgame.run_to_end(ai.simulate(masked, lex, budget=1_000)).to_json() == found.to_json()


def test_with_one_or_two_in_the_bag_the_pre_endgame_decides(real: tuple[Any, Any]) -> None:
    lex, gen = real
    text = endgame.sample_endgames(gen, 1, 2, max_rack=3, deals=1)[0]
    state = ScarabeoState.from_position(text, word_list=lex)
    other = 1 - state.turn
    rack = state.racks[other]  # one tile stays, the rest go back to the bag: the same unseen tiles
    state.racks[other], state.bag = rack[:1], rack[1:]
    assert 1 <= len(state.bag) <= 2
    found = endgame.run_to_end(ai.simulate(state, lex, budget=60))
    assert found.kind == "pre-endgame" and found.detail["depth"] >= 2
    assert isinstance(found.move, (Play, Pass))
    state.push(found.move)


def test_selfplay_plays_the_new_level(capsys: pytest.CaptureFixture[str],
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ai_cli, "_lexicon", lambda: LEX)
    code = ai_cli.main(["selfplay", "--games", "2", "--levels", "grandmaster,champion",
                        "--seed", "7", "--budget", "3"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["levels"] == ["grandmaster", "champion"] and data["budget"] == 3
    assert sum(data["wins"].values()) == 2
    code = ai_cli.main(["selfplay", "--levels", "5,champion", "--budget", "0"])
    assert code == 2 and "budget" in json.loads(capsys.readouterr().out)["error"]
