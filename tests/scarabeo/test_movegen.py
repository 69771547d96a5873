"""The move generator: its set of plays equals a brute-force generator's, scores are the engine's."""

from __future__ import annotations

from collections import Counter
from itertools import combinations
from typing import Iterable, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.core import IllegalMove, Rng
from game.scarabeo import ScarabeoState
from game.scarabeo.board import CENTRE, NEIGHBOURS, SIZE, SQUARES
from game.scarabeo.movegen import GenPlay, MoveGenerator, other_moves, rack_after, to_play
from game.scarabeo.moves import Exchange, Pass, Play
from game.scarabeo.tiles import SCARAB
from lexicon import Lexicon
from lexicon.dawg import build_dawg, serialise

from tests.scarabeo.helpers import position_with

WORDS = sorted({
    "AS", "SA", "SE", "ES", "RE", "ER", "TE", "ET", "AR", "RA", "TA", "AT", "OR", "TO", "OT",
    "CASA", "CASE", "CASO", "COSA", "COSE", "ASSE", "ESSE", "ROSA", "ROSE", "ROSTA", "TESO",
    "TESA", "ORA", "ORE", "ERA", "ARE", "ETA", "ATE", "RATE", "RETE", "TRE", "ORTO", "ARTE",
    "CARO", "CARE", "CORSA", "CORTE", "SCARABEO", "SCARABEI", "ACE", "SACRO", "ARCO", "ARCA",
})


def small_lexicon(words: Iterable[str] = WORDS) -> Lexicon:
    nodes, root, count = build_dawg(sorted(set(words)))
    return Lexicon.from_bytes(serialise(nodes, root, count, {}))


LEX = small_lexicon()
GEN = MoveGenerator(LEX)
LETTERS_USED = sorted({ch for w in WORDS for ch in w})


def brute_force(state: ScarabeoState) -> set[GenPlay]:
    """Every legal play, found by laying every lexicon word at every square in both directions
    with every way of using the scarabs and every flying-scarab swap, judged by the engine.

    Only two cheap filters run before the engine's own check (``preview``): the rack must hold
    the tiles, and the word must touch the board (or cover the centre on an empty board)."""
    board = state.board
    rack = state.racks[state.turn]
    swappable = [sq for sq in range(SQUARES) if board[sq].islower()]
    subsets = [c for k in range(len(swappable) + 1) for c in combinations(swappable, k)]
    empty_board = not any(board)
    found: dict[tuple[frozenset[tuple[int, str]], tuple[int, ...], int], GenPlay] = {}
    for swaps in subsets:
        after = list(rack)
        try:
            for sq in swaps:
                after.remove(board[sq].upper())
                after.append(SCARAB)
        except ValueError:
            continue
        have = Counter(after)
        for word in WORDS:
            for across in (True, False):
                step = 1 if across else SIZE
                for start in range(SQUARES):
                    col, row = start % SIZE, start // SIZE
                    if (col if across else row) + len(word) > SIZE:
                        continue
                    sqs = [start + k * step for k in range(len(word))]
                    if any(board[s] and board[s].upper() != word[k] for k, s in enumerate(sqs)):
                        continue
                    empty = [k for k, s in enumerate(sqs) if not board[s]]
                    if not empty or len(empty) > len(after):
                        continue
                    if empty_board:
                        if CENTRE not in sqs:
                            continue
                    elif not any(board[s] or any(board[n] for n in NEIGHBOURS[s]) for s in sqs):
                        continue
                    for n_scarabs in range(0, min(2, have[SCARAB]) + 1):
                        for low in combinations(empty, n_scarabs):
                            need = Counter(word[k] for k in empty if k not in low)
                            if any(have[t] < n for t, n in need.items()):
                                continue
                            chars = [board[s] or word[k] for k, s in enumerate(sqs)]
                            for k in low:
                                chars[k] = chars[k].lower()
                            play = Play(start, across, "".join(chars), tuple(swaps))
                            try:
                                result = state.preview(play)
                            except IllegalMove:
                                continue
                            placed = frozenset((sqs[k], chars[k]) for k in empty)
                            key = (placed, tuple(swaps), result.score)
                            assert isinstance(result.move, Play)  # written as push records it
                            gp = (result.score, start, across, result.move.word, tuple(swaps))
                            # One notation per single-tile play unless the two score differently.
                            if key not in found or (across and not found[key][2]):
                                found[key] = gp
    return set(found.values())


def random_state(seed: int, tiles_on_board: int, rack_size: int, scarabs: int,
                 board_scarabs: bool = False) -> ScarabeoState:
    """A position reached by random generated plays (at most 2 scarabs in all), then a random
    small rack drawn from what is left of the set."""
    rng = Rng(seed)
    board = [""] * SQUARES
    scarabs_left = 2 - scarabs
    for _ in range(12):
        if sum(1 for c in board if c) >= tiles_on_board:
            break
        rack = [rng.choice(LETTERS_USED) for _ in range(5)]
        if board_scarabs and scarabs_left:
            rack.append(SCARAB)
        plays = GEN.plays(board, rack, not any(board), swaps=False)
        if not plays:
            continue
        p = rng.choice(sorted(plays))
        for sq, ch in zip(to_play(p).squares(), p[3]):
            if not board[sq]:
                board[sq] = ch
                if ch.islower():
                    scarabs_left -= 1
    board_text = "/".join(_row(board[r * SIZE:(r + 1) * SIZE]) for r in range(SIZE))
    bag = ScarabeoState.from_position(f"{board_text} / 0/0 0").bag
    pool = sorted(t for t in bag if t in LETTERS_USED)
    rng.shuffle(pool)
    rack = pool[:rack_size - scarabs] + [SCARAB] * scarabs
    return ScarabeoState.from_position(f"{board_text} {''.join(rack)}/ 0/0 0", word_list=LEX)


def _row(cells: Sequence[str]) -> str:
    out, run = "", 0
    for ch in cells:
        if ch:
            out += (str(run) if run else "") + ch
            run = 0
        else:
            run += 1
    return out + (str(run) if run else "")


def generated(state: ScarabeoState) -> list[GenPlay]:
    return GEN.plays(state.board, state.racks[state.turn], state.first_play)


class TestAgainstBruteForce:
    @pytest.mark.parametrize("rack", ["CASA", "ROS?", "TE??", "ORTA"])
    def test_first_play(self, rack: str) -> None:
        state = ScarabeoState.from_position(position_with([], [rack, ""]), word_list=LEX)
        plays = generated(state)
        assert len(plays) == len(set(plays)), "a play is generated twice"
        assert set(plays) == brute_force(state)
        assert all(to_play(p).squares().count(CENTRE) == 1 for p in plays)

    @settings(max_examples=12, deadline=None)
    @given(seed=st.integers(0, 10_000), scarabs=st.integers(0, 2), size=st.integers(1, 4),
           tiles=st.integers(2, 14))
    def test_mid_game(self, seed: int, scarabs: int, size: int, tiles: int) -> None:
        state = random_state(seed, tiles, max(size, scarabs), scarabs)
        plays = generated(state)
        assert len(plays) == len(set(plays)), "a play is generated twice"
        assert set(plays) == brute_force(state)

    @settings(max_examples=6, deadline=None)
    @given(seed=st.integers(0, 10_000))
    def test_flying_scarab_swaps(self, seed: int) -> None:
        state = random_state(seed, 10, 3, 0, board_scarabs=True)
        rack = state.racks[0]
        # Give the rack the letter of a scarab on the board, if any, so a swap is possible.
        on_board = [c for c in state.board if c.islower()]
        if on_board and rack:
            rack[0] = on_board[0].upper()
        plays = generated(state)
        assert set(plays) == brute_force(state)

    def test_scarabeo_bonus_and_eight_tiles(self) -> None:
        state = ScarabeoState.from_position(position_with(["9I RE"], ["SCARABEO", ""]),
                                            word_list=LEX)
        plays = generated(state)
        assert set(plays) == brute_force(state)
        best = max(plays)
        assert best[3] in ("SCARABEO", "SCARABEI") or best[0] >= 100


class TestScoresAndLegality:
    """On the real lexicon (when built): every generated play is legal and scores as push says."""

    @pytest.fixture(scope="class")
    def real(self) -> MoveGenerator:
        import lexicon

        try:
            return MoveGenerator(lexicon.load())
        except lexicon.LexiconError as err:
            pytest.skip(f"the real lexicon is not built ({err})")

    @pytest.mark.parametrize("seed", [1, 2])
    def test_game_plays_score_as_the_engine(self, real: MoveGenerator, seed: int) -> None:
        state = ScarabeoState.new(2, seed, word_list=real.lexicon)
        rng = Rng(seed)
        for _ in range(8):
            rack = state.racks[state.turn]
            plays = real.plays(state.board, rack, state.first_play)
            assert len(plays) == len(set(plays))
            sample = [plays[rng.below(len(plays))] for _ in range(25)] if plays else []
            for p in sample:
                assert state.preview(to_play(p)).score == p[0], p
                left = rack_after(state.board, rack, p)
                assert len(left) == len(rack) - sum(
                    1 for k, sq in enumerate(to_play(p).squares()) if not state.board[sq])
            if not plays:
                break
            state.push(to_play(max(plays)))

    def test_no_play_on_a_board_without_room(self, real: MoveGenerator) -> None:
        state = ScarabeoState.from_position(position_with([], ["QQ", ""]), word_list=real.lexicon)
        assert generated_with(real, state) == []


    @pytest.mark.parametrize("board_word, rack, play", [
        ("9B APPRESENTAZIONE", "RBCDFGLM", "9A RAPPRESENTAZIONE"),
        ("9B ARATTERIZZAzIONE", "CBDFGLMN", "9A CARATTERIZZAzIONE")  # three Z: one a scarab,
    ])
    def test_words_of_16_and_17_letters_are_generated(self, real: MoveGenerator, board_word: str,
                                                      rack: str, play: str) -> None:
        # The lexicon holds words as long as the board (17): the generator and the computer find
        # them, and a word from edge to edge covers both 3P squares of its row (x9).
        state = ScarabeoState.from_position(position_with([board_word], [rack, "AEIOUAEI"]),
                                            word_list=real.lexicon)
        plays = {state.move_text(to_play(p)): p for p in generated_with(real, state)}
        assert play in plays
        result = state.preview(state.parse_move(play))
        main = result.breakdown.words[0]  # type: ignore[union-attr]
        assert result.score == plays[play][0] and main.word == play.split()[1].upper()
        if len(main.word) == 17:
            assert main.word_mult == 9
        from game.scarabeo import ai

        # the computer's best turn makes the long word (maybe as the cross word of a better play)
        chosen = state.preview(ai.choose(state, "champion"))
        assert main.word in [w.word for w in chosen.breakdown.words]  # type: ignore[union-attr]
        assert chosen.score >= result.score


def generated_with(gen: MoveGenerator, state: ScarabeoState) -> list[GenPlay]:
    return gen.plays(state.board, state.racks[state.turn], state.first_play)


class TestOtherMoves:
    def test_exchange_offered_only_when_allowed(self) -> None:
        assert other_moves([""] * SQUARES, list("AEIOUAEI")) == [Pass(), Exchange("AAEEIIOU")]
        assert other_moves([""] * SQUARES, list("AEIOUAE?")) == [Pass()]
        assert other_moves([""] * SQUARES, list("AEIOUAB")) == [Pass()]


class TestSlicing:
    def test_iter_plays_yields_and_gives_the_same_plays(self) -> None:
        state = random_state(5, 10, 4, 1)
        out: list[GenPlay] = []
        steps = sum(1 for _ in GEN.iter_plays(state.board, state.racks[0], out, state.first_play))
        assert steps > 1
        assert sorted(out) == sorted(generated(state))


class TestLimits:
    @pytest.mark.parametrize("seed", [2, 8])
    def test_limited_search_equals_filtering(self, seed: int) -> None:
        state = random_state(seed, 10, 6, 1)
        board, rack = state.board, state.racks[0]
        full = GEN.plays(board, rack, state.first_play)
        short = GEN.plays(board, rack, state.first_play, max_tiles=2, max_len=4)
        from game.scarabeo.movegen import tiles_placed

        assert set(short) == {p for p in full if tiles_placed(board, p) <= 2 and len(p[3]) <= 4}
