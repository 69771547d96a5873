"""The word-check modes as engine state: dictionary, challenge (pending play), vote."""

from __future__ import annotations

from typing import Any

import pytest

from game.core import IllegalMove
from game.scarabeo import Accept, Challenge, Pass, ScarabeoState, Vote

from tests.scarabeo.helpers import state_with

WORDS = ["CONTARE", "ORA", "RE"]


class TestDictionary:
    def test_refused_at_once_and_the_player_tries_again(self) -> None:
        s = state_with([], "CONTAREB", WORDS, others=("ABCDEFGH",))
        with pytest.raises(IllegalMove) as info:
            s.push(s.parse_move("9F CONTRA"))
        assert info.value.code == "invalid-words"
        assert s.to_move() == 0
        s.push(s.parse_move("9F CONTARE"))
        assert s.scores[0] == 56


class TestChallenge:
    def test_plays_go_down_unchecked_and_wait(self) -> None:
        s = state_with([], "CONTAREB", WORDS, others=("ABCDEFGH",), check_mode="challenge")
        r = s.push(s.parse_move("9F CONTRAB"))
        assert r.pending and s.pending is not None and s.pending.kind == "challenge"
        assert s.to_move() == 1 and s.scores[0] == r.score
        texts = [s.move_text(m) for m in s.legal_moves()]
        assert "!accept" in texts and "!challenge 2" in texts and "!challenge 1" not in texts

    def test_upheld_challenge_takes_the_play_back(self) -> None:
        s = state_with([], "CONTAREB", WORDS, others=("ABCDEFGH",), check_mode="challenge")
        bag = list(s.bag)
        r = s.push(s.parse_move("9F CONTRAB"))
        c = s.push(Challenge(1))
        assert c.score == -r.score and "CONTRAB" in c.note
        assert s.scores == [0, 0] and not any(s.board)
        assert sorted(s.racks[0]) == sorted("CONTAREB") and s.bag == bag
        assert s.to_move() == 1 and s.pending is None and s.idle == 1
        assert s.first_play  # the next play is still the first one

    def test_failed_challenge_lets_the_play_stand(self) -> None:
        s = state_with([], "CONTAREB", WORDS, others=("ABCDEFGH",), check_mode="challenge")
        s.push(s.parse_move("9F CONTARE"))
        c = s.push(Challenge(1))
        assert c.score == 0 and "valid" in c.note
        assert s.scores[0] == 56 and s.pending is None and s.to_move() == 1

    def test_unchallenged_play_stands_when_the_next_player_moves(self) -> None:
        s = state_with([], "CONTAREB", WORDS, others=("ABCDEFGH",), check_mode="challenge")
        s.push(s.parse_move("9F CONTRAB"))
        s.push(Pass())
        assert s.pending is None and s.scores[0] > 0 and s.to_move() == 0
        with pytest.raises(IllegalMove) as info:
            s.push(Challenge(1))
        assert info.value.code == "no-play-pending"

    def test_explicit_accept(self) -> None:
        s = state_with([], "CONTAREB", WORDS, others=("ABCDEFGH",), check_mode="challenge")
        s.push(s.parse_move("9F CONTRAB"))
        s.push(Accept())
        assert s.pending is None and s.to_move() == 1

    def test_any_opponent_may_challenge(self) -> None:
        s = state_with([], "CONTAREB", WORDS, others=("ABCDEFGH", "ILMNOPQS"),
                       check_mode="challenge")
        s.push(s.parse_move("9F CONTRAB"))
        with pytest.raises(IllegalMove) as info:
            s.push(Challenge(0))
        assert info.value.code == "own-play"
        s.push(Challenge(2))
        assert s.scores == [0, 0, 0] and s.to_move() == 1

    def test_pop_undoes_the_challenge_then_the_play(self) -> None:
        s = state_with([], "CONTAREB", WORDS, others=("ABCDEFGH",), check_mode="challenge")
        start = s.position()
        s.push(s.parse_move("9F CONTRAB"))
        pending = s.position()
        s.push(Challenge(1))
        s.pop()
        assert s.position() == pending and s.pending is not None
        s.pop()
        assert s.position() == start and s.pending is None

    def test_closing_play_waits_for_the_dispute(self) -> None:
        s = state_with(["9F CONTARE"], "B", WORDS + ["BA"], others=("Q",), check_mode="challenge")
        s.first_play = False
        s.bag.clear()
        s.push(s.parse_move("J8 BA"))
        assert not s.is_over()
        assert [s.move_text(m) for m in s.legal_moves()] == ["!accept", "!challenge 2"]
        s.push(Challenge(1))
        assert s.is_over() and s.outcome() is not None and s.outcome().reason == "closed"  # type: ignore[union-attr]

    def test_closing_play_awaiting_a_challenge_refuses_other_moves_as_pending(self) -> None:
        s = state_with(["9F CONTARE"], "B", WORDS + ["BA"], others=("Q",), check_mode="challenge")
        s.first_play = False
        s.bag.clear()
        s.push(s.parse_move("J8 BA"))
        waiting = s.position()
        for move in (Pass(), s.parse_move("8J Q.")):
            with pytest.raises(IllegalMove) as info:
                s.push(move)
            assert info.value.code == "challenge-pending" and "!accept" in str(info.value)
        assert not s.is_over() and s.pending is not None and s.position() == waiting
        s.push(Accept())
        assert s.is_over()
        with pytest.raises(IllegalMove) as info:
            s.push(Pass())
        assert info.value.code == "game-over"

    def test_closing_play_awaiting_a_challenge_is_not_timed_out(self) -> None:
        s = state_with(["9F CONTARE"], "B", WORDS + ["BA"], others=("Q",), check_mode="challenge")
        s.first_play, s.hourglass = False, True
        s.bag.clear()
        now = [0.0]
        s.attach_clock(lambda: now[0])
        s.push(s.parse_move("J8 BA"))
        now[0] += 500
        # the sand has run out for the next player, but only the table's decision can follow
        assert not s.timed_out() and s.time_out() is None and s.pending is not None


class TestVote:
    def test_known_words_need_no_vote(self) -> None:
        s = state_with([], "CONTAREB", WORDS, others=("ABCDEFGH", "ILMNOPQS"), check_mode="vote")
        r = s.push(s.parse_move("9F CONTARE"))
        # no vote: the next player is to move, and the play stands when they move (or accept)
        assert r.pending and s.pending is not None and s.pending.kind == "challenge" and s.to_move() == 1
        s.push(Pass())
        assert s.pending is None and s.scores[0] == 56

    def test_unknown_word_goes_to_a_vote_and_majority_accepts(self) -> None:
        s = state_with([], "CONTAREB", WORDS, others=("ABCDEFGH", "ILMNOPQS"), check_mode="vote")
        r = s.push(s.parse_move("9F CONTRAB"))
        assert r.pending and s.to_move() == 0
        assert s.view()["pending"]["unknown_words"] == ["CONTRAB"]
        with pytest.raises(IllegalMove) as info:
            s.push(Pass())
        assert info.value.code == "vote-pending"
        s.push(Vote("YYN"))
        assert s.pending is None and "CONTRAB" in s.accepted and s.to_move() == 1
        assert s.scores[0] == r.score

    def test_rejected_play_comes_back_and_the_player_tries_again(self) -> None:
        s = state_with([], "CONTAREB", WORDS, others=("ABCDEFGH", "ILMNOPQS"), check_mode="vote")
        start = s.position()
        s.push(s.parse_move("9F CONTRAB"))
        v = s.push(Vote("YNN"))
        assert s.position() == start and s.to_move() == 0 and v.score < 0 and "rejected" in v.note
        s.push(s.parse_move("9F CONTARE"))
        assert s.scores[0] == 56

    def test_four_players_the_player_concerned_abstains_and_a_tie_rejects(self) -> None:
        s = state_with([], "CONTAREB", WORDS, others=("ABCDEFGH", "ILMNOPQS", "AEIOUAEI"),
                       check_mode="vote")
        s.push(s.parse_move("9F CONTRAB"))
        with pytest.raises(IllegalMove) as info:
            s.push(Vote("YYNN"))
        assert info.value.code == "bad-vote" and "abstains" in str(info.value)
        assert len(s.legal_moves()) == 8
        s.push(Vote("-YYN"))
        assert s.pending is None

    def test_accepted_words_count_for_the_rest_of_the_game(self) -> None:
        s = state_with([], "CONTAREB", WORDS, others=("ABCDEFGH", "ILMNOPQS"), check_mode="vote")
        s.push(s.parse_move("9F CONTRAB"))
        s.push(Vote("YYY"))
        assert "CONTRAB" in s.accepted
        assert s.view()["accepted_words"] == ["CONTRAB"]

    def test_vote_with_three_players_everyone_votes(self) -> None:
        s = state_with([], "CONTAREB", WORDS, others=("ABCDEFGH", "ILMNOPQS"), check_mode="vote")
        s.push(s.parse_move("9F CONTRAB"))
        with pytest.raises(IllegalMove):
            s.push(Vote("-YY"))
        with pytest.raises(IllegalMove):
            s.push(Vote("YY"))


class TestLastMover:
    """``last_mover`` (what ``Session.can_take_back`` asks) names the seat that popping the last
    move would give back, without pushing it again (which would restart an attached hourglass)."""

    @staticmethod
    def popped(st: ScarabeoState) -> int:
        move = st.pop()
        seat = st.to_move()
        st.push(move)
        return seat

    def test_plays_disputes_and_passes(self) -> None:
        for play, decision in (("9F CONTRAB", Challenge(2)), ("9F CONTARE", Challenge(1)),
                               ("9F CONTARE", Accept()), ("9F CONTARE", Pass())):
            s = state_with([], "CONTAREB", WORDS, others=("ABCDEFGI", "ABCDEFLM"), check_mode="challenge")
            s.push(s.parse_move(play))
            assert s.last_mover() == self.popped(s) == 0
            s.push(decision)
            assert s.last_mover() == self.popped(s) == 1
            s.push(Pass())
            assert s.last_mover() == self.popped(s)

    def test_a_rejected_vote_and_no_move(self) -> None:
        v = state_with([], "CONTAREB", WORDS, others=("ABCDEFGH", "ABCDEFGH"), check_mode="vote")
        v.push(v.parse_move("9F CONTRAB"))
        v.push(v.parse_move("!vote YNN"))  # rejected: the same player again
        assert v.last_mover() == self.popped(v) == 0
        assert ScarabeoState.new(2, seed=3).last_mover() is None

    def test_the_hourglass_is_not_restarted(self) -> None:
        now = [0.0]
        s = ScarabeoState.new(2, seed=3, hourglass=True)
        s.attach_clock(lambda: now[0])
        s.push(Pass())
        now[0] = 50.0
        left = s.timer.remaining() if s.timer is not None else None
        assert s.last_mover() == 0
        assert s.timer is not None and s.timer.remaining() == left


class TestAnyWordCanBeContested:
    """The rulebook's "words not accepted" (archaic, literary, diminutives, pejoratives …) cannot be
    decided by a word list: in vote mode any play can be put to the vote, lexicon words too."""

    def three(self, mode: str = "vote", contest: bool = True) -> ScarabeoState:
        s = state_with([], "CONTAREB", WORDS, others=("ABCDEFGH", "ILMNOPQS"), check_mode=mode)
        s.contest = contest and mode == "vote"
        return s

    def test_vote_mode_a_lexicon_word_voted_down_is_refused_for_the_rest_of_the_game(self) -> None:
        s = self.three()
        start = s.position()
        s.push(s.parse_move("9F CONTARE"))  # CONTARE is a lexicon word: it stands at once…
        c = s.push(s.parse_move("!challenge 3 CONTARE"))  # …unless someone contests it
        assert c.pending and c.score == 0 and "Player 3" in c.note
        assert s.pending is not None and s.pending.kind == "vote" and s.to_move() == 0
        view = s.view()["pending"]
        assert view["unknown_words"] == ["CONTARE"] and view["contested_by"] == 2
        v = s.push(Vote("YNN"))
        assert v.score == -56 and s.position() == start and s.to_move() == 0
        assert s.rejected == {"CONTARE"} and s.view()["rejected_words"] == ["CONTARE"]
        with pytest.raises(IllegalMove) as info:
            s.push(s.parse_move("9F CONTARE"))
        assert info.value.code == "voted-down" and info.value.details["words"] == ["CONTARE"]

    def test_vote_mode_a_contested_play_accepted_by_majority_stands(self) -> None:
        s = self.three()
        s.push(s.parse_move("9F CONTARE"))
        s.push(Challenge(1))  # no word named: every word of the play goes to the vote
        assert s.pending is not None and s.pending.unknown == ("CONTARE",)
        s.push(Vote("YYN"))
        assert s.pending is None and s.scores[0] == 56 and s.to_move() == 1
        assert "CONTARE" in s.accepted

    def test_vote_mode_contest_names_only_words_of_the_play(self) -> None:
        s = self.three()
        s.push(s.parse_move("9F CONTARE"))
        for text, code in (("!challenge 2 ORA", "bad-challenge"), ("!challenge 1", "own-play")):
            with pytest.raises(IllegalMove) as info:
                s.push(s.parse_move(text))
            assert info.value.code == code
        assert s.pending is not None and s.pending.kind == "challenge"

    def test_vote_mode_a_closing_play_can_be_contested(self) -> None:
        s = state_with(["9F CONTARE"], "B", WORDS + ["BA"], others=("Q", "E"), check_mode="vote")
        s.first_play = False
        s.bag.clear()
        s.push(s.parse_move("J8 BA"))
        assert not s.is_over() and s.pending is not None
        s.push(s.parse_move("!challenge 2 BA"))
        s.push(Vote("NNY"))
        assert not s.is_over() and s.racks[0] == ["B"] and s.to_move() == 0

    def test_challenge_mode_any_play_can_be_challenged_and_the_lexicon_decides(self) -> None:
        s = self.three("challenge")
        s.push(s.parse_move("9F CONTARE"))
        assert "!challenge 2" in [s.move_text(m) for m in s.legal_moves()]
        with pytest.raises(IllegalMove) as info:
            s.push(s.parse_move("!challenge 2 CONTARE"))
        assert info.value.code == "bad-challenge"
        c = s.push(Challenge(1))
        assert c.score == 0 and s.scores[0] == 56  # a lexicon word: the challenge fails

    def test_dictionary_mode_keeps_the_lexicon_verdict(self) -> None:
        s = self.three("dictionary")
        s.push(s.parse_move("9F CONTARE"))
        assert s.pending is None and s.scores[0] == 56
        with pytest.raises(IllegalMove) as info:
            s.push(Challenge(1))
        assert info.value.code == "no-play-pending"

    def test_records_from_before_the_rule_replay_as_played(self) -> None:
        from game.scarabeo import record

        s = ScarabeoState.new(3, seed=5, check_mode="vote", contest=False)
        assert "contest" not in s.options()
        rack = [t for t in s.racks[s.to_move()] if t != "?"]
        r = s.push(s.parse_move(f"9I {rack[0]}{rack[1]}"))
        assert not r.pending  # known words (no word list: all known) stand at once, as before
        again = record.load(record.to_text(s), None)
        assert not again.contest and again.position() == s.position()

    def test_a_contest_replays_from_both_record_formats(self) -> None:
        from game.scarabeo import record

        s = ScarabeoState.new(3, seed=5, check_mode="vote")
        assert s.options()["contest"] is True
        player = s.to_move()
        rack = [t for t in s.racks[player] if t != "?"]
        s.push(s.parse_move(f"9I {rack[0]}{rack[1]}"))
        word = s.pending.move.word  # type: ignore[union-attr]
        s.push(s.parse_move(f"!challenge {(player + 1) % 3 + 1} {word}"))
        s.push(Vote("NNN"))
        assert s.rejected == {word}
        for text in (record.to_text(s), record.to_json(s)):
            again = record.load(text, None)
            assert again.position() == s.position() and again.rejected == {word}
            assert again.history() == s.history()

    def test_a_contest_lays_the_hourglass_down_and_a_rejection_gives_the_turn_back(self) -> None:
        s, timer, now, player = contested_after_30_seconds()
        assert not timer.running
        now[0] += 300  # the table argues: no one's time runs
        s.push(Vote("NNN"))
        assert s.to_move() == player and timer.running and timer.remaining() == pytest.approx(90)

    def test_a_contested_play_accepted_lets_the_next_turn_go_on(self) -> None:
        s, timer, now, player = contested_after_30_seconds()  # the next player gets 120 + 30 s
        now[0] += 300
        s.push(Vote("YYY"))
        assert s.to_move() == (player + 1) % 3 and timer.remaining() == pytest.approx(140)


def contested_after_30_seconds() -> tuple[ScarabeoState, Any, list[float], int]:
    """A vote-mode game with the hourglass: a play after 30 s (90 s left, 30 carried over), contested
    10 s later by the next seat. Returns (state, timer, the clock's time, the player)."""
    s = ScarabeoState.new(3, seed=5, check_mode="vote", hourglass=True)
    now = [0.0]
    timer = s.attach_clock(lambda: now[0])
    player = s.to_move()
    rack = [t for t in s.racks[player] if t != "?"]
    now[0] += 30
    s.push(s.parse_move(f"9I {rack[0]}{rack[1]}"))
    now[0] += 10
    s.push(Challenge((player + 1) % 3))
    return s, timer, now, player


class TestDecisionInStructuredForm:
    """A dispute's result names the play it decided and the words at issue (for its words on screen)."""

    def test_challenge_upheld_failed_and_accept_name_the_play(self) -> None:
        s = state_with([], "CONTAREB", WORDS, others=("ABCDEFGH",), check_mode="challenge")
        r = s.push(s.parse_move("9F CONTRAB"))
        upheld = s.push(Challenge(1))
        assert upheld.disputed == r.move and upheld.words == ("CONTRAB",)
        assert upheld.to_json()["disputed"] == "9F CONTRAB" and upheld.to_json()["words"] == ["CONTRAB"]
        s = state_with([], "CONTAREB", WORDS, others=("ABCDEFGH",), check_mode="challenge")
        r = s.push(s.parse_move("9F CONTARE"))
        failed = s.push(Challenge(1))
        assert failed.disputed == r.move and failed.words == ()
        s = state_with([], "CONTAREB", WORDS, others=("ABCDEFGH",), check_mode="challenge")
        r = s.push(s.parse_move("9F CONTARE"))
        assert s.push(Accept()).disputed == r.move

    def test_votes_and_contests_name_the_words_voted_on(self) -> None:
        s = state_with([], "CONTAREB", WORDS, others=("ABCDEFGH", "ILMNOPQS"), check_mode="vote")
        r = s.push(s.parse_move("9F CONTRAB"))
        v = s.push(Vote("YNN"))
        assert v.disputed == r.move and v.words == ("CONTRAB",) and v.score == -r.score
        r = s.push(s.parse_move("9F CONTARE"))
        c = s.push(Challenge(2))
        assert c.disputed == r.move and c.words == ("CONTARE",) and c.pending
        a = s.push(Vote("YYN"))
        assert a.disputed == r.move and a.words == ("CONTARE",) and a.score == 0
        assert s.push(s.parse_move("-")).disputed is None
