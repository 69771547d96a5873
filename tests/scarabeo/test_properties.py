"""Properties over random games: tiles conserved, scores add up, notation and records round-trip,
undo restores, every game reaches its end. Random legal plays come from ``randomplay`` with a
deterministic pseudo-lexicon, so challenges and votes really happen."""

from __future__ import annotations

import json
from collections import Counter

from hypothesis import example, given, settings
from hypothesis import strategies as st

from game.core import IllegalMove, NotationError, Rng
from game.scarabeo import Accept, Challenge, ScarabeoState, Vote, record
from game.scarabeo.moves import Move
from game.scarabeo.randomplay import random_move, random_placement_play
from game.scarabeo.rules import apply_swaps, resolve_play
from game.scarabeo.scoring import play_score, score_play
from game.scarabeo.tiles import RACK_SIZE, full_set

FULL_SET = Counter(full_set())
MAX_MOVES = 1500


class ParityWords:
    """A stable pseudo-lexicon: about three words in four are 'valid'."""

    def contains(self, word: str) -> bool:
        return sum(map(ord, word)) % 4 != 0

    def abbreviation(self, word: str) -> str | None:
        return None


def next_move(s: ScarabeoState, rng: Rng) -> Move:
    p = s.pending
    if p is not None:
        disputes = [m for m in s.legal_moves() if isinstance(m, (Accept, Challenge, Vote))]
        closing = not s.bag and not s.racks[p.player]
        if p.kind == "vote" or closing or rng.below(2):
            return rng.choice(disputes)
    return random_move(s, rng)


def check_invariants(s: ScarabeoState) -> None:
    assert Counter(s.tiles_everywhere()) == FULL_SET
    assert all(len(r) <= RACK_SIZE for r in s.racks)
    if s.bag:
        # Racks are refilled after every turn while the bag lasts.
        assert all(len(r) == RACK_SIZE for i, r in enumerate(s.racks)
                   if s.pending is None or i != s.pending.player)
    text = s.position()
    assert ScarabeoState.from_position(text).position() == text
    view = json.loads(json.dumps(s.view()))  # JSON-able in every situation
    assert view["scores"] == s.scores and view["to_move"] == s.to_move()
    totals = [0] * s.num_players
    for r in s.results():
        totals[r.player] += r.score
        assert r.total == totals[r.player]
    out = s.outcome()
    if out is not None:
        totals = [t + a for t, a in zip(totals, out.detail["adjustments"])]
    assert totals == s.scores


def random_game(players: int, seed: int, mode: str) -> ScarabeoState:
    s = ScarabeoState.new(players, seed, check_mode=mode, word_list=ParityWords())
    rng = Rng(seed * 7919 + players)
    moves = 0
    while not s.is_over():
        s.push(next_move(s, rng))
        moves += 1
        assert moves < MAX_MOVES, "the game does not end"
        if moves % 5 == 0:
            check_invariants(s)
    check_invariants(s)
    return s


modes = st.sampled_from(["dictionary", "challenge", "vote"])


@settings(max_examples=12, deadline=None)
@given(st.integers(2, 4), st.integers(0, 2**32), modes)
@example(4, 21424, "vote")  # a play of words all accepted by vote earlier: no challenge is legal
def test_random_games_keep_every_invariant_and_replay(players: int, seed: int, mode: str) -> None:
    if mode == "vote" and players == 2:
        mode = "challenge"
    s = random_game(players, seed, mode)
    out = s.outcome()
    assert out is not None and out.reason in ("closed", "passes")
    assert set(out.winners) == {i for i, v in enumerate(out.scores) if v == max(out.scores)}
    # Both record formats replay to the same game, checking every score.
    for replayed in (record.from_text(record.to_text(s), ParityWords()),
                     record.from_json(record.to_json(s), ParityWords())):
        assert replayed.scores == s.scores
        assert replayed.position() == s.position()
        assert [r.score for r in replayed.results()] == [r.score for r in s.results()]
        assert replayed.outcome() == out


@settings(max_examples=6, deadline=None)
@given(st.integers(2, 4), st.integers(0, 2**32))
def test_undo_everything_returns_to_the_start(players: int, seed: int) -> None:
    start = ScarabeoState.new(players, seed, word_list=ParityWords())
    s = ScarabeoState.new(players, seed, word_list=ParityWords())
    rng = Rng(seed)
    for _ in range(40):
        if s.is_over():
            break
        s.push(next_move(s, rng))
    while s.history():
        s.pop()
    assert s.view() == start.view()


@settings(max_examples=6, deadline=None)
@given(st.integers(0, 2**32))
def test_every_move_text_round_trips(seed: int) -> None:
    s = random_game(2, seed, "challenge")
    for m in s.history():
        assert s.parse_move(s.move_text(m)) == m


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 2**32))
def test_fast_score_equals_the_breakdown_total(seed: int) -> None:
    s = ScarabeoState.new(2, seed)
    rng = Rng(seed)
    checked = 0
    while not s.is_over():
        play = random_placement_play(s, rng)
        if play is not None:
            board = s.board[:]
            apply_swaps(board, s.racks[s.turn][:], play.swaps)
            pl = resolve_play(board, play)
            assert play_score(board, pl, play.across) == score_play(board, pl, play.across).total
            checked += 1
        s.push(random_move(s, rng))
    assert checked > 0


def mid_game(seed: int, moves: int = 12) -> ScarabeoState:
    s = ScarabeoState.new(2, seed, word_list=ParityWords())
    rng = Rng(seed)
    for _ in range(moves):
        if s.is_over():
            break
        s.push(next_move(s, rng))
    return s


@settings(max_examples=150, deadline=None)
@given(
    st.integers(0, 50),
    st.integers(0, 16),
    st.integers(0, 16),
    st.booleans(),
    st.text(alphabet="ACEINORST.aeo", min_size=2, max_size=8),
    st.sampled_from(["", "*I9 ", "*H9 *J9 "]),
)
def test_a_refused_move_changes_nothing(seed: int, row: int, col: int, across: bool, word: str,
                                        swaps: str) -> None:
    s = mid_game(seed)
    coord = f"{row + 1}{'ABCDEFGHIJKLMNOPQ'[col]}" if across else f"{'ABCDEFGHIJKLMNOPQ'[col]}{row + 1}"
    text = f"{swaps}{coord} {word}"
    before = (s.position(), len(s.history()), s.view())
    try:
        move = s.parse_move(text)
        s.push(move)
    except (NotationError, IllegalMove):
        assert (s.position(), len(s.history()), s.view()) == before
        return
    assert len(s.history()) == before[1] + 1
    check_invariants(s)


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 50), st.lists(st.tuples(st.integers(0, 288), st.sampled_from("AEIOSTce")),
                                     min_size=1, max_size=8, unique_by=lambda p: p[0]))
def test_placements_become_the_play_they_describe(seed: int, pairs: list[tuple[int, str]]) -> None:
    s = mid_game(seed)
    try:
        play = s.play_from_placements(pairs)
    except IllegalMove as err:
        assert err.code in ("square-taken", "not-in-line", "gap", "first-not-centre", "not-touching",
                            "no-word")
        return
    assert sorted(resolve_play(s.board, play)) == sorted(pairs)
    assert s.parse_move(s.move_text(play)) == play
