"""The computer opponent: levels, equity, end-game care, slices, hints, command line."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from game.scarabeo import ScarabeoState, ai, ai_bench, ai_cli, leaves
from game.scarabeo.board import parse_square
from game.scarabeo.movegen import rack_after, tiles_placed, to_play
from game.scarabeo.moves import Challenge, Exchange, Pass, Play, Vote

from tests.scarabeo.helpers import position_with
from tests.scarabeo.test_movegen import GEN, LEX, random_state
from tests.stepping import run_counting


def state_of(words: list[str], racks: list[str]) -> ScarabeoState:
    return ScarabeoState.from_position(position_with(words, racks), word_list=LEX)


def plays_of(state: ScarabeoState) -> list[tuple[int, int, bool, str, tuple[int, ...]]]:
    return GEN.plays(state.board, state.racks[state.turn], state.first_play)


class TestLevels:
    def test_names_and_aliases(self) -> None:
        assert ai.level_of("max").name == "champion"
        assert ai.level_of("1").name == "beginner"
        assert ai.level_of("Greedy") is ai.GREEDY
        assert [ai.level_of(n).name for n in ai.LEVELS] == list(ai.LEVELS)
        assert len(ai.LEVELS) >= 4

    def test_a_word_list_without_automaton_is_refused_clearly(self) -> None:
        state = ScarabeoState.from_position(position_with([], ["CASA", ""]))  # AnyWord
        with pytest.raises(ValueError, match="lexicon"):
            ai.choose(state, "champion")

    def test_unknown_level_is_refused_with_the_choices(self) -> None:
        with pytest.raises(ValueError, match="beginner"):
            ai.level_of("emperor")


class TestChoices:
    @pytest.mark.parametrize("seed", [3, 11, 25])
    def test_greedy_takes_the_highest_score(self, seed: int) -> None:
        state = random_state(seed, 8, 5, 1)
        plays = plays_of(state)
        move = ai.choose(state, "greedy", LEX)
        if plays:
            assert isinstance(move, Play)
            assert state.preview(move).score == max(p[0] for p in plays)
        else:
            assert isinstance(move, (Pass, Exchange))

    @pytest.mark.parametrize("seed", [4, 12, 26])
    def test_champion_maximises_score_plus_leave(self, seed: int,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setattr(ai, "DANGER_WEIGHT", 0.0)  # the equity alone
        monkeypatch.setattr(ai, "SCARAB_EXPOSURE", 0.0)
        state = random_state(seed, 8, 6, 1)
        state.bag = state.bag[:40]  # the bag is not near its end: full leave weight
        rack = state.racks[0]
        w = ai.LEVELS["champion"].leave_weight
        plays = plays_of(state)
        move = ai.choose(state, "champion", LEX)
        equities = [p[0] + w * leaves.value(rack_after(state.board, rack, p)) for p in plays]
        if isinstance(move, Play):
            mine = state.preview(move).score + w * leaves.value(
                [t for t in rack_after(state.board, rack, _as_gen(state, move))])
            assert mine == pytest.approx(max(equities))

    @pytest.mark.parametrize("seed", [4, 12, 26, 31])
    def test_champion_charges_the_danger_among_its_best_plays(
            self, seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setattr(ai, "DANGER_WEIGHT", 12.0)  # off by default; the rule when on
        monkeypatch.setattr(ai, "SCARAB_EXPOSURE", 0.0)
        state = random_state(seed, 8, 6, 1)
        state.bag = state.bag[:40]
        rack, board = state.racks[0], state.board
        w = ai.LEVELS["champion"].leave_weight
        plays = plays_of(state)
        move = ai.choose(state, "champion", LEX)
        if not isinstance(move, Play):
            return
        before = ai._threat(board)

        def charged(p: tuple[int, int, bool, str, tuple[int, ...]]) -> float:
            new = frozenset(sq for sq in to_play(p).squares() if not board[sq])
            return (p[0] + w * leaves.value(rack_after(board, rack, p))
                    - ai.DANGER_WEIGHT * (ai._threat(board, new) - before))

        # the best, after the charge, of the DANGER_CANDIDATES best plays by equity
        ranked = sorted(plays, key=lambda p: -(p[0] + w * leaves.value(rack_after(board, rack, p))))
        top = ranked[:ai.DANGER_CANDIDATES]
        assert charged(_as_gen(state, move)) == pytest.approx(max(charged(p) for p in top))

    def test_beginner_plays_short_words_with_few_tiles(self) -> None:
        for seed in range(5):
            state = random_state(seed, 10, 8, 0)
            move = ai.choose(state, "beginner", LEX)
            if isinstance(move, Play):
                assert len(move.word) <= 5
                assert tiles_placed(state.board, _as_gen(state, move)) <= 4
                state.check(move)

    def test_choices_are_deterministic_and_legal(self) -> None:
        for level in ("beginner", "casual", "expert", "champion"):
            state = random_state(7, 10, 6, 1)
            first = ai.choose(state, level, LEX)
            assert ai.choose(state, level, LEX) == first
            state.check(first)

    def test_exchange_when_the_rack_is_hopeless(self) -> None:
        state = state_of(["9H ORA"], ["UUUUIIII", ""])
        move = ai.choose(state, "champion", LEX)
        assert isinstance(move, Exchange)


def _as_gen(state: ScarabeoState, move: Play) -> tuple[int, int, bool, str, tuple[int, ...]]:
    return (state.preview(move).score, move.start, move.across, move.word, move.swaps)


class TestLeaves:
    def test_shape_features(self) -> None:
        f = leaves.features("AAAEQ??")
        assert f["A"] == 3 and f["?"] == 2 and f["two_scarabs"] == 1
        assert f["vowel_dups"] == 2 and f["triples"] == 1 and "consonant_dups" not in f
        assert f["more_vowels"] == 4 - 1 - 1 and f["q_without_u"] == 1
        g = leaves.features("CCRTU")
        assert g["consonant_dups"] == 1 and g["more_consonants"] == 4 - 1 - 1
        assert "q_without_u" not in g and "more_vowels" not in g and "two_scarabs" not in g
        assert leaves.features("") == {}

    def test_value_is_linear_in_the_features(self) -> None:
        w = {"A": 2.0, "?": 10.0, "vowel_dups": -1.0, "two_scarabs": 5.0}
        assert leaves.value("AA??", w) == 2 * 2.0 + 2 * 10.0 - 1.0 + 5.0
        assert leaves.value("") == 0.0

    def test_tuned_values_rank_the_obvious_leaves(self) -> None:
        assert set(leaves.TUNED or {}) == set(leaves.FEATURES)
        assert leaves.value("?") > leaves.value("A") > leaves.value("Q")
        assert leaves.value("??") > leaves.value("?") > 10
        assert leaves.value("AE") > leaves.value("EE")  # a repeated vowel costs
        assert leaves.value("RA") > leaves.value("RRRA")
        assert leaves.max_value() >= max(leaves.value(r) for r in ("???", "AI??", "ARI??"))


class TestDanger:
    def test_a_tile_near_a_3p_square_opens_it(self) -> None:
        board = [""] * 289
        assert ai._threat(board) == 0.0
        board[parse_square("I9")] = "A"
        assert ai._threat(board) == 0.0  # the centre is 8 squares from every 3P square
        board[parse_square("I3")] = "A"
        # I1 is two squares up: a word covering I1 and reaching I3 needs 2 new tiles
        assert ai._threat(board) == pytest.approx((9 - 2) / 8)
        assert ai._threat(board, frozenset({parse_square("I2")})) == pytest.approx(1.0)
        assert ai._threat(board, frozenset({parse_square("I1")})) == 0.0  # covered: taken

    def test_the_play_that_opens_a_3p_square_is_charged(self) -> None:
        state = state_of(["9F CASA"], ["ORTE", ""])
        board = state.board
        safe = Play(parse_square("F9"), False, "CORTE")  # down to F13: no 3P line in reach
        wild = Play(parse_square("I9"), False, "ARTE")  # down to I12, five squares from I17
        far = ai.Choice(Play(parse_square("I2"), True, "AB"), 10, 10.0, "")  # next to I1
        choices = [ai.Choice(wild, 10, 10.0, ""), ai.Choice(safe, 10, 10.0, ""), far]
        ranked = ai._less_danger(board, choices, 6.0)
        assert [c.move for c in ranked] == [safe, wild, far.move]
        assert ranked[0].equity == 10.0
        assert ranked[1].equity == pytest.approx(10.0 - 6.0 * (9 - 5) / 8)
        assert ranked[2].equity <= 10.0 - 6.0
        assert ai._less_danger(board, choices, 6.0) == ranked  # deterministic


class TestScarabExposure:
    def test_the_chance_that_the_other_rack_holds_a_letter(self) -> None:
        state = state_of(["9F CASA"], ["ORTE", "BBDDFFGG"])
        chance = ai.held_chances(state)
        unseen = state.unseen_counts(0)  # the other rack's tiles are not read, only its size
        total = sum(unseen.values())
        for t, n in unseen.items():
            assert chance[t] == pytest.approx(1 - math.comb(total - n, 8) / math.comb(total, 8))
        assert set(chance) == set(unseen)

    def test_a_scarab_put_down_is_charged_and_one_taken_off_credited(self) -> None:
        board = [""] * 289
        board[parse_square("I9")] = "e"  # a scarab standing for E
        chance = {"A": 0.5, "E": 0.25}
        down = (10, parse_square("G9"), True, "CaeS", ())  # a scarab as A on H9
        assert ai.scarab_exposure(board, down, chance) == pytest.approx(0.5)
        swapped = (10, parse_square("G9"), True, "CaES", (parse_square("I9"),))
        assert ai.scarab_exposure(board, swapped, chance) == pytest.approx(0.5 - 0.25)
        assert ai.scarab_exposure(board, (10, parse_square("G9"), True, "CAES", ()), chance) == 0.0

    @pytest.mark.parametrize("seed", [4, 12, 26, 31])
    def test_champion_maximises_equity_less_the_exposure(
            self, seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setattr(ai, "DANGER_WEIGHT", 0.0)
        monkeypatch.setattr(ai, "SCARAB_EXPOSURE", 16.0)
        state = random_state(seed, 8, 6, 1, board_scarabs=True)
        state.racks[1] = state.bag[:8]  # the other rack's size is what counts
        state.bag = state.bag[8:48]
        rack, board = state.racks[0], state.board
        chance = ai.held_chances(state)
        plays = plays_of(state)
        move = ai.choose(state, "champion", LEX)
        if not isinstance(move, Play):
            return

        def equity(p: tuple[int, int, bool, str, tuple[int, ...]]) -> float:
            return (p[0] + ai.LEVELS["champion"].leave_weight * leaves.value(rack_after(board, rack, p))
                    - ai.SCARAB_EXPOSURE * ai.scarab_exposure(board, p, chance))

        assert equity(_as_gen(state, move)) == pytest.approx(max(equity(p) for p in plays))


class TestEndgame:
    def test_goes_out_rather_than_score_more_and_stay(self) -> None:
        # Bag empty: going out with CASO (the last four tiles) wins the opponent's rack twice.
        state = state_of(["9H TE"], ["CASOS", "QZZHV"])
        state.bag = []
        plays = plays_of(state)
        move = ai.choose(state, "champion", LEX)
        assert isinstance(move, Play)
        placed = tiles_placed(state.board, _as_gen(state, move))
        best_out = max((p[0] for p in plays if tiles_placed(state.board, p) == 5), default=None)
        if best_out is not None:
            assert placed == 5

    def test_blocks_the_opponents_big_reply(self) -> None:
        # The champion's choice is never worse, by its own end-game measure, than greedy's.
        state = state_of(["9G CASE", "G9 .ORSA"], ["TOR", "ASSE"])
        state.bag = []
        champ = ai.choose(state, "champion", LEX)
        greedy = ai.choose(state, "greedy", LEX)
        assert isinstance(champ, Play) and isinstance(greedy, Play)

        def value(move: Play) -> int:
            state.push(move)
            try:
                if state.is_over():
                    return state.scores[0] - state.scores[1]
                reply = ai.choose(state, "greedy", LEX)
                state.push(reply)
                diff = state.scores[0] - state.scores[1]
                state.pop()
                return diff
            finally:
                state.pop()

        assert value(champ) >= value(greedy)


class TestSlices:
    def test_think_yields_between_slices_and_returns_a_move(self) -> None:
        state = random_state(9, 10, 6, 2)
        move, steps = run_counting(ai.think(state, "champion", LEX))
        assert steps > 5
        assert move == ai.choose(state, "champion", LEX)

    def test_leaving_the_game_just_drops_the_generator(self) -> None:
        state = random_state(9, 10, 6, 2)
        gen = ai.think(state, "champion", LEX)
        next(gen)
        gen.close()  # interrupted: nothing left running, the state untouched
        assert state.history() == []


    def test_ranking_sorts_in_slices_in_the_same_order_as_one_sort(self) -> None:
        plays = [(s % 97, s % 289, bool(s & 1), f"W{s % 13}", ()) for s in range(3 * ai.SLICE + 5)]
        ranked, yields = run_counting(ai._sort_by_score(list(plays)))
        assert ranked == sorted(plays, key=lambda p: (-p[0], p[1], p[2], p[3], p[4]))
        assert yields >= 2 * 3  # the bucketing and the bucket sorts are both sliced

    def test_hints_in_slices_equal_the_blocking_hints(self) -> None:
        state = random_state(13, 10, 6, 1)
        assert run_counting(ai.think_hints(state, 5, LEX))[0] == ai.hints(state, 5, LEX)


class TestHints:
    def test_hints_give_words_and_tiles_to_place(self) -> None:
        state = random_state(13, 10, 6, 1)
        hints = ai.hints(state, 5, LEX)
        assert hints == sorted(hints, key=lambda h: -h["score"])
        for h in hints:
            move = state.parse_move(h["move"])
            assert isinstance(move, Play)
            again = state.play_from_placements([(sq, ch) for sq, ch in h["placements"]],
                                               h["swaps"])
            assert state.preview(again).score == h["score"]
            assert h["words"] and all(LEX.contains(w) for w in h["words"])

    def test_best_moves_at_max_are_by_score(self) -> None:
        state = random_state(21, 10, 6, 1)
        best = ai.best_moves(state, 8, "max", LEX)
        scores = [c.score for c in best]
        assert scores == sorted(scores, reverse=True)
        top = sorted((p[0] for p in plays_of(state)), reverse=True)[:8]
        assert scores[:len(top)] == top


class TestDisputes:
    def test_challenges_a_word_the_lexicon_refuses(self) -> None:
        state = ScarabeoState.from_position(position_with([], ["CASA", "ROSE"]),
                                            word_list=LEX, check_mode="challenge")
        state.push(Play(parse_square("H9"), True, "CASA"))
        assert isinstance(ai.choose(state, "champion", LEX), Play)  # CASA is a word
        state.pop()
        state.word_list = _Anything()
        state.push(Play(parse_square("H9"), True, "ACAS"))
        assert state.pending is not None
        assert ai.choose(state, "champion", LEX) == Challenge(1)

    def test_votes_by_the_lexicon(self) -> None:
        state = ScarabeoState.from_position(position_with([], ["CASA", "ROSE", "TORE"]),
                                            word_list=_Anything(), check_mode="vote")
        state.word_list = _Nothing()
        state.push(Play(parse_square("H9"), True, "ACAS"))
        assert state.pending is not None and state.pending.kind == "vote"
        assert ai.choose(state, "champion", LEX) == Vote("NNN")


class _Anything:
    def contains(self, word: str) -> bool:
        return True

    def abbreviation(self, word: str) -> str | None:
        return None


class _Nothing(_Anything):
    def contains(self, word: str) -> bool:
        return False


class TestSelfplayAndBench:
    def test_a_seeded_game_between_levels_ends(self) -> None:
        res = ai_cli.play_game([ai.level_of("champion"), ai.level_of("beginner")], 5, LEX)
        assert len(res["scores"]) == 2 and res["winners"]
        again = ai_cli.play_game([ai.level_of("champion"), ai.level_of("beginner")], 5, LEX)
        assert again["scores"] == res["scores"]

    def test_bench_summary_per_class(self) -> None:
        rows = [{"scarabs": c, "ms": float(10 * i + c), "plays": 100} for i in range(20)
                for c in (0, 1, 2)]
        table = ai_bench.summarise(rows)
        assert set(table) == {"0", "1", "2"}
        assert table["0"]["median_ms"] == pytest.approx(95.0)
        assert table["0"]["p95_ms"] == 180.0

    def test_the_fixed_positions_cover_every_rack_class(self) -> None:
        text = Path(ai_cli.POSITIONS_FILE).read_text(encoding="utf-8")
        positions = ai_bench.read_positions(text)
        assert len(positions) >= 50
        classes = [ai_bench.scarab_class(p) for p in positions]
        assert all(classes.count(c) >= 15 for c in (0, 1, 2))


class TestCommandLine:
    def run(self, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, object]:
        code = ai_cli.main(list(args))
        return code, json.loads(capsys.readouterr().out)

    def test_malformed_input_exits_2(self, capsys: pytest.CaptureFixture[str]) -> None:
        code, data = self.run(capsys, "best", "not a position")
        assert code == 2 and isinstance(data, dict) and data["error"]
        code, data = self.run(capsys, "best", position_with([], ["CASA", ""]), "--level", "x")
        assert code == 2 and "level" in str(data)
        code, data = self.run(capsys, "selfplay", "--levels", "champion")
        assert code == 2
        code, data = self.run(capsys, "frobnicate")
        assert code == 2

    def test_best_on_the_real_lexicon(self, capsys: pytest.CaptureFixture[str]) -> None:
        _real_lexicon()
        code, data = self.run(capsys, "best", position_with([], ["CONTARE", ""]), "--top", "3")
        assert code == 0 and isinstance(data, list) and len(data) == 3
        assert [d["score"] for d in data] == sorted((d["score"] for d in data), reverse=True)
        assert all(set(d) >= {"move", "score"} for d in data)
        state = ScarabeoState.from_position(position_with([], ["CONTARE", ""]))
        for d in data:
            state.parse_move(d["move"])

    def test_bench_on_two_positions(self, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
        _real_lexicon()
        lines = ai_bench.read_positions(Path(ai_cli.POSITIONS_FILE).read_text(encoding="utf-8"))
        small = tmp_path / "p.txt"
        small.write_text("\n".join(p for p in lines if ai_bench.scarab_class(p) == 0)[:2000]
                         .split("\n", 2)[0] + "\n")
        code, data = self.run(capsys, "bench", "--positions", str(small))
        assert code == 0 and isinstance(data, dict)
        assert data["classes"]["0"]["positions"] == 1


class TestTuning:
    def test_temporal_difference_target(self) -> None:
        from tools import tune_scarabeo_leaves as tune

        turns = [(0, 20, "AE", 50), (1, 30, "R", 45), (0, 40, "?", 40), (1, 10, None, 40),
                 (0, 50, "QQ", 3), (1, 0, None, 3)]
        hist = [{"seed": 5, "turns": turns, "final": [110, 40]}]
        nxt = tune.samples(hist, "next", 0.8, None)
        # one sample per play with 8+ tiles left in the bag and a later turn of the same player
        assert [(f, y) for f, y, _ in nxt] == [(leaves.features("AE"), 40.0),
                                               (leaves.features("R"), 10.0),
                                               (leaves.features("?"), 50.0)]
        val = {"?": 10.0, "Q": -1.0}
        td = tune.samples(hist, "td", 0.5, lambda leave: leaves.value(leave, val))
        # the next turn's points + gamma × the value of the leave it kept, at that bag's weight
        assert [y for _, y, _ in td] == [40.0 + 0.5 * 10.0, 10.0, 50.0 + 0.5 * 0.5 * -2.0]

    def test_the_fit_recovers_known_weights(self) -> None:
        from tools import tune_scarabeo_leaves as tune

        truth = {"A": 3.0, "?": 20.0, "C": -4.0}
        data = [(leaves.features(r), 70.0 + leaves.value(r, truth), i)
                for i, r in enumerate(["A", "C", "?", "AC", "A?", "CC", "AA?", "", "C?"] * 20)]
        b, w = tune.fit_weights(data, ridge=1e-6)
        assert b == pytest.approx(70.0, abs=1e-3)
        for k, v in truth.items():
            assert w[k] == pytest.approx(v, abs=1e-3)


def _real_lexicon() -> None:
    try:
        ai_cli._lexicon()
    except RuntimeError as err:
        pytest.skip(f"the real lexicon is not built ({err})")

