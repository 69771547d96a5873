"""Random self-play with invariants, game records, and make/unmake consistency."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.core import GameRecord, IllegalMove, RecordError, Rng
from game.thot import ThotMove, ThotState
from game.thot.board import ANKH, ANKHS, EMPTY, SCARAB_CODES, VALUE, scarab_set

games = st.tuples(
    st.integers(0, 2**32),
    st.sampled_from([2, 3, 4]),
    st.booleans(),
    st.booleans(),
    st.booleans(),
)


def random_game(seed: int, players: int, short: bool, turnoff: bool, teams: bool) -> ThotState:
    s = ThotState.new(players=players, short=short, turnoff=turnoff, teams=teams and players == 4, seed=seed)
    rng = Rng(seed)
    while not s.is_over():
        # now and then pick among every possible drop, not only the search's candidates
        moves = s.legal_moves(all_drops=rng.below(4) == 0)
        s.push(rng.choice(moves))
    return s


def assert_whole_set(s: ThotState) -> None:
    on_board = {c: 0 for c in SCARAB_CODES}
    for c in s.board:
        if c not in (EMPTY, ANKH):
            on_board[c] += 1
    for code, n in scarab_set(s.size == 8).items():
        held = sum(counts[code] for counts in s.counts)
        assert on_board[code] + held == n, code
    assert s.board.count(ANKH) == s.ankhs


class TestRandomGames:
    @settings(max_examples=25, deadline=None)
    @given(games)
    def test_random_games_end_and_keep_the_whole_set(self, game: tuple[int, int, bool, bool, bool]) -> None:
        seed, players, short, turnoff, teams = game
        s = ThotState.new(players=players, short=short, turnoff=turnoff, teams=teams and players == 4, seed=seed)
        limit = s.scarabs + 2 * s.ankhs  # every move lowers scarabs + 2 × ankhs
        rng = Rng(seed)
        plies = ankhs_taken = 0
        while not s.is_over():
            moves = s.legal_moves(all_drops=rng.below(4) == 0)
            assert moves
            move = rng.choice(moves)
            ankhs_taken += s.board[move.dest] == ANKH
            s.push(move)
            plies += 1
            assert s.ankhs + ankhs_taken == ANKHS
            assert plies <= limit
            assert_whole_set(s)
            assert s.hash == s._full_hash()
            assert s.score == [sum(VALUE[c] for c in s.collection(p)) for p in range(players)]
        out = s.outcome()
        assert out is not None and list(out.scores) == s.score
        assert s.view()["over"] and s.view()["legal"] == []

    @settings(max_examples=15, deadline=None)
    @given(games)
    def test_pop_undoes_every_move(self, game: tuple[int, int, bool, bool, bool]) -> None:
        s = random_game(*game)
        history = s.history()
        snapshots = []
        replay = ThotState.new(**s.options(), seed=s.seed)
        for m in history:
            snapshots.append((replay.position(), replay.hash))
            replay.push(m)
        for m, snap in zip(reversed(history), reversed(snapshots), strict=True):
            assert s.pop() == m
            assert (s.position(), s.hash) == snap
        with pytest.raises(IndexError):
            s.pop()

    @settings(max_examples=5, deadline=None)
    @given(st.integers(0, 2**32), st.booleans())
    def test_legal_list_agrees_with_check(self, seed: int, turnoff: bool) -> None:
        s = ThotState.new(seed=seed, turnoff=turnoff, short=True)
        rng = Rng(seed)
        n = s.size * s.size
        while not s.is_over():
            legal = {(m.dest, m.turn) for m in s.legal_moves()}
            for dest in range(n):
                for turn in [None, *range(n)] if turnoff else [None]:
                    mv = ThotMove(dest, turn)
                    try:
                        s.check(mv)
                        ok = True
                    except IllegalMove:
                        ok = False
                    assert ok == ((dest, turn) in legal), s.move_text(mv)
            s.push(rng.choice(s.legal_moves()))


class TestRecords:
    @settings(max_examples=10, deadline=None)
    @given(games)
    def test_a_record_replays_exactly(self, game: tuple[int, int, bool, bool, bool]) -> None:
        s = random_game(*game)
        text = s.record(note="test").dumps()
        back = ThotState.replay(GameRecord.loads(text))
        assert back.position() == s.position()
        assert back.outcome() == s.outcome()
        assert GameRecord.loads(text).to_json()["version"] == 1

    def test_a_bad_move_in_a_record_names_its_turn(self) -> None:
        s = ThotState.new(seed=9)
        s.push(s.legal_moves()[0])
        rec = s.record()
        rec.moves.append("Z99")
        with pytest.raises(RecordError, match="turn 2"):
            ThotState.replay(rec)
        rec.moves[-1] = s.move_text(ThotMove(s.priest))
        with pytest.raises(RecordError, match="turn 2: .*already on"):
            ThotState.replay(rec)

    def test_bad_options_are_refused(self) -> None:
        rec = GameRecord("thot", {"players": 9}, 1, [])
        with pytest.raises(RecordError, match="2 to 4 players"):
            ThotState.replay(rec)
        rec = GameRecord("thot", {"colour": "red"}, 1, [])
        with pytest.raises(RecordError, match="unknown option"):
            ThotState.replay(rec)
