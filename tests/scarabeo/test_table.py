"""What the Scarabeo page keeps on the table across a reload, and the challenge window's rule."""

from __future__ import annotations

import json
from typing import Any

import pytest

from game.scarabeo import Accept, Challenge, Pass, ScarabeoState
from game.scarabeo.board import parse_square
from game.scarabeo.tiles import sort_rack
from tests.scarabeo.helpers import state_with
from web.platform.session import Seat
from game.scarabeo.table import (
    challengers, computer_challenger, computer_vote, computer_waits, contest_words, dispute_on_cover, may_take_back,
    saved_clock, saved_last, saved_tentative, sheet, table, vote_on_cover,
)

WORDS = ["CONTARE", "ORA", "RE"]
CLOCK = {"active": True, "carry_in": 25.0, "used": 40.5, "paused": False}


def sq(name: str) -> int:
    return parse_square(name)


def round_trip(data: dict[str, Any]) -> Any:
    return json.loads(json.dumps(data))


class TestTable:
    def test_clock_and_tiles_come_back_for_the_same_turn(self) -> None:
        s = state_with(["9F CoNTARE"], "OORAZU?B", WORDS, others=("ABCDEFGH",))
        placed = {sq("H10"): "O", sq("H11"): "r", sq("I10"): "A"}  # a scarab standing for R
        saved = round_trip(table(s, CLOCK, placed, [sq("H11"), sq("H10")], [sq("G9")]))
        assert saved["move"] == 0 and saved["seat"] == 0
        assert saved["tentative"] == {"rack": sort_rack("OORAZU?B"), "placed": [["H11", "r"], ["H10", "O"], ["I10", "A"]],
                                      "swaps": ["G9"]}
        assert saved_clock(s, saved) == CLOCK
        back = saved_tentative(s, saved)
        assert back is not None
        placed_back, order, swaps = back
        assert placed_back == placed and order == [sq("H11"), sq("H10"), sq("I10")] and swaps == [sq("G9")]

    def test_swaps_alone_are_kept(self) -> None:
        s = state_with(["9F CoNTARE"], "OORAZU?B", WORDS, others=("ABCDEFGH",))
        back = saved_tentative(s, round_trip(table(s, None, {}, [], [sq("G9")])))
        assert back == ({}, [], [sq("G9")])

    def test_nothing_laid_saves_no_tiles(self) -> None:
        s = ScarabeoState.new(2, seed=3)
        saved = table(s, None)
        assert saved == {"move": 0, "seat": s.to_move()} and saved_tentative(s, saved) is None
        assert saved_clock(s, saved) is None

    def test_another_move_drops_both(self) -> None:
        s = ScarabeoState.new(2, seed=3)
        rack = s.racks[s.to_move()]
        saved = round_trip(table(s, CLOCK, {sq("I9"): rack[0]}))
        s.push(Pass())
        assert saved_clock(s, saved) is None and saved_tentative(s, saved) is None
        s.pop()
        assert saved_clock(s, saved) == CLOCK and saved_tentative(s, saved) is not None

    def test_another_rack_drops_the_tiles(self) -> None:
        s = ScarabeoState.new(2, seed=3)
        seat = s.to_move()
        saved = round_trip(table(s, CLOCK, {sq("I9"): s.racks[seat][0]}))
        s.racks[seat] = list(reversed(s.racks[seat]))  # the same tiles: still fine
        assert saved_tentative(s, saved) is not None
        s.racks[seat][0] = "Z" if s.racks[seat][0] != "Z" else "Q"
        assert saved_tentative(s, saved) is None
        assert saved_clock(s, saved) == CLOCK  # the clock belongs to the turn, not the rack

    def test_game_over_saves_no_turn(self) -> None:
        s = ScarabeoState.new(2, seed=3)
        for _ in range(4):
            s.push(Pass())
        assert s.is_over()
        assert table(s, CLOCK, {sq("I9"): "A"}) == {"move": 4}
        assert saved_clock(s, {"move": 4, "seat": 0, "clock": CLOCK}) is None

    @pytest.mark.parametrize("damage", [
        lambda t: None, lambda t: [], lambda t: {**t, "move": "0"}, lambda t: {**t, "move": False},
        lambda t: {**t, "seat": 1},
        lambda t: {**t, "tentative": "x"},
        lambda t: {**t, "tentative": {**t["tentative"], "placed": "H8A"}},
        lambda t: {**t, "tentative": {**t["tentative"], "placed": [["H8"]]}},
        lambda t: {**t, "tentative": {**t["tentative"], "placed": [["H8", 5]]}},
        lambda t: {**t, "tentative": {**t["tentative"], "placed": [["Z99", "O"]]}},
        lambda t: {**t, "tentative": {**t["tentative"], "placed": [["H10", "OO"]]}},
        lambda t: {**t, "tentative": {**t["tentative"], "placed": [["H10", "1"]]}},
        lambda t: {**t, "tentative": {**t["tentative"], "placed": [["F9", "O"]]}},  # a square taken
        lambda t: {**t, "tentative": {**t["tentative"], "placed": [["H10", "O"], ["H10", "R"]]}},
        lambda t: {**t, "tentative": {**t["tentative"], "placed": [["H10", "Q"]]}},  # not on the rack
        lambda t: {**t, "tentative": {**t["tentative"], "placed": [["H10", "x"], ["H11", "y"]]}},  # one scarab
        lambda t: {**t, "tentative": {**t["tentative"], "swaps": ["F9"]}},  # no scarab there
        lambda t: {**t, "tentative": {**t["tentative"], "swaps": ["G9", "G9"]}},
        lambda t: {**t, "tentative": {**t["tentative"], "swaps": "G9"}},
        lambda t: {**t, "tentative": {**t["tentative"], "rack": None}},
    ])
    def test_damaged_tiles_are_dropped(self, damage: Any) -> None:
        s = state_with(["9F CoNTARE"], "OORAZU?B", WORDS, others=("ABCDEFGH",))
        saved = round_trip(table(s, CLOCK, {sq("H10"): "O"}, swaps=[]))
        assert saved_tentative(s, saved) is not None
        assert saved_tentative(s, damage(saved)) is None

    def test_no_tiles_restored_during_a_vote(self) -> None:
        s = state_with([], "CONTAREB", WORDS, others=("ABCDEFGH", "ABCDEFGH"), check_mode="vote")
        s.push(s.parse_move("9F CONTRAB"))  # an unknown word: the table votes
        assert s.pending is not None and s.pending.kind == "vote"
        saved = {"move": 1, "seat": s.to_move(), "tentative": {"rack": "".join(sorted(s.racks[s.to_move()])),
                                                               "placed": [["A1", s.racks[s.to_move()][0]]]}}
        assert saved_tentative(s, saved) is None


def challenge_state(players: int, play: str = "9F CONTARE") -> ScarabeoState:
    """Seat 1 has just played ``play`` (CONTARE, a word; CONTRAB is not one) in challenge mode;
    seat 2 is to move."""
    others = ("ABCDEFGI", "ABCDEFLM", "ABCDEFNO")[:players - 1]
    s = state_with([], "CONTAREB", WORDS, others=others, check_mode="challenge")
    s.push(s.parse_move(play))
    assert s.pending is not None and s.to_move() == 1
    return s


def seats(*kinds: str) -> list[Seat]:
    return [Seat(f"P{i + 1}", computer=k == "C") for i, k in enumerate(kinds)]


class TestChallengeWindow:
    def test_people_get_the_window_when_the_computer_is_next(self) -> None:
        s = challenge_state(3)
        table_ = seats("P", "C", "P")
        assert challengers(s, table_) == [2]
        assert computer_waits(s, table_)

    def test_a_computer_that_challenges_does_not_wait(self) -> None:
        s = challenge_state(3, "9F CONTRAB")
        assert not computer_waits(s, seats("P", "C", "P"))

    def test_alone_with_the_computer_it_decides(self) -> None:
        s = challenge_state(2)
        assert challengers(s, seats("P", "C")) == []
        assert not computer_waits(s, seats("P", "C"))
        s3 = challenge_state(3)
        assert not computer_waits(s3, seats("P", "C", "C"))

    def test_a_computer_play_gives_the_people_the_window(self) -> None:
        s = challenge_state(3)  # seat 1, a computer, made the play; seat 2 (a computer) is next
        assert challengers(s, seats("C", "C", "P")) == [2]
        assert computer_waits(s, seats("C", "C", "P"))
        s4 = challenge_state(4)
        assert challengers(s4, seats("C", "C", "P", "P")) == [2, 3]
        assert computer_waits(s4, seats("C", "C", "P", "P"))

    def test_a_person_to_move_is_no_wait(self) -> None:
        s = challenge_state(3)
        assert challengers(s, seats("P", "P", "C")) == [1]
        assert not computer_waits(s, seats("P", "P", "C"))

    def test_the_window_closes_with_the_decision(self) -> None:
        for decision in (Accept(), Challenge(2)):
            s = challenge_state(3)
            s.push(decision)  # a failed challenge (CONTARE is a word) or an accept: the play stands
            assert s.pending is None and s.to_move() == 1
            assert challengers(s, seats("P", "C", "P")) == []
            assert not computer_waits(s, seats("P", "C", "P"))

    def test_no_window_without_a_pending_challenge(self) -> None:
        s = ScarabeoState.new(3, seed=3, check_mode="challenge")
        assert not computer_waits(s, seats("P", "C", "P"))


class TestComputerChallenger:
    def test_a_word_is_not_challenged(self) -> None:
        s = challenge_state(3)
        assert computer_challenger(s, seats("P", "C", "C")) is None

    def test_the_next_computer_challenges_a_non_word(self) -> None:
        s = challenge_state(3, "9F CONTRAB")
        assert computer_challenger(s, seats("P", "C", "P")) == 1

    def test_a_computer_that_is_not_next_challenges_too(self) -> None:
        s = challenge_state(3, "9F CONTRAB")
        assert computer_challenger(s, seats("P", "P", "C")) == 2
        s4 = challenge_state(4, "9F CONTRAB")
        assert computer_challenger(s4, seats("P", "P", "C", "C")) == 2  # the first after the player
        assert computer_challenger(s4, seats("C", "P", "P", "C")) == 3  # not the one who played

    def test_no_computer_at_the_table(self) -> None:
        s = challenge_state(3, "9F CONTRAB")
        assert computer_challenger(s, seats("P", "P", "P")) is None

    def test_the_challenge_is_upheld(self) -> None:
        s = challenge_state(3, "9F CONTRAB")
        seat = computer_challenger(s, seats("P", "P", "C"))
        assert seat is not None
        result = s.push(Challenge(seat))
        assert result.score < 0 and s.pending is None and not any(s.board)
        assert computer_challenger(s, seats("P", "P", "C")) is None


class TestDisputeOnCover:
    def test_other_people_may_challenge_the_next_person(self) -> None:
        s = challenge_state(3)
        assert dispute_on_cover(s, seats("P", "P", "P"))
        assert dispute_on_cover(challenge_state(4), seats("P", "P", "C", "P"))

    def test_only_the_next_person_may_challenge(self) -> None:
        s = challenge_state(3)
        assert not dispute_on_cover(s, seats("P", "P", "C"))  # they decide with their rack in view
        assert not dispute_on_cover(challenge_state(2), seats("P", "P"))

    def test_a_computer_play_with_two_people(self) -> None:
        s = challenge_state(3)
        assert dispute_on_cover(s, seats("C", "P", "P"))

    def test_a_computer_to_move_has_the_window_instead(self) -> None:
        assert not dispute_on_cover(challenge_state(3), seats("P", "C", "P"))

    def test_a_computer_challenge_comes_first(self) -> None:
        s = challenge_state(4, "9F CONTRAB")
        assert not dispute_on_cover(s, seats("P", "P", "P", "C"))

    def test_settled(self) -> None:
        for decision in (Accept(), Challenge(2)):
            s = challenge_state(3)
            s.push(decision)
            assert not dispute_on_cover(s, seats("P", "P", "P"))


class TestSheet:
    def test_a_challenge_is_written_under_the_challenger(self) -> None:
        s = challenge_state(3, "9F CONTRAB")
        assert sheet(s)[0]["note"] == "pending"
        s.push(Challenge(2))
        rows = sheet(s)
        assert [r["seat"] for r in rows] == [0, 2]
        assert rows[0]["note"] == "withdrawn" and rows[0]["score"] > 0
        assert rows[1] == {"index": 1, "seat": 2, "move": "!challenge 3", "note": "upheld", "score": None,
                           "total": None, "player": 0, "lost": rows[0]["score"]}

    def test_a_failed_challenge(self) -> None:
        s = challenge_state(3)
        s.push(Challenge(1))
        rows = sheet(s)
        assert rows[0]["note"] is None and rows[1]["seat"] == 1 and rows[1]["note"] == "failed"
        assert rows[1]["lost"] == 0

    def test_an_accept_is_a_note_on_the_play(self) -> None:
        s = challenge_state(3)
        s.push(Accept())
        s.push(Pass())
        rows = sheet(s)
        assert [(r["index"], r["move"], r["note"]) for r in rows] == [(0, "9F CONTARE", "accepted"), (2, "-", None)]
        assert [m for m in (s.move_text(x) for x in s.history())] == ["9F CONTARE", "!accept", "-"]

    def test_playing_on_accepts_without_a_note(self) -> None:
        s = challenge_state(3)
        s.push(Pass())
        assert [r["note"] for r in sheet(s)] == [None, None]


class TestTakeBack:
    def test_the_last_move_is_saved_with_the_table(self) -> None:
        s = challenge_state(3)
        s.push(Accept())
        s.push(Pass())
        saved = round_trip(table(s, CLOCK, last={"clock": CLOCK, "timeout": True}))
        assert saved_last(s, saved) == {"clock": CLOCK, "timeout": True}
        assert not may_take_back(s, saved_last(s, saved))
        assert may_take_back(s, {"clock": None, "timeout": False}) and may_take_back(s, None)

    def test_only_for_this_position(self) -> None:
        s = ScarabeoState.new(2, seed=3)
        s.push(Pass())
        saved = round_trip(table(s, CLOCK, last={"clock": None, "timeout": True}))
        s.push(Pass())
        assert saved_last(s, saved) is None
        assert saved_last(s, {**saved, "move": 2, "seat": s.to_move()}) is not None

    @pytest.mark.parametrize("last", [[], {"timeout": "yes"}, {"timeout": True, "clock": 3}, {"clock": {}}])
    def test_damaged_is_ignored(self, last: Any) -> None:
        s = ScarabeoState.new(2, seed=3)
        s.push(Pass())
        assert saved_last(s, {"move": 1, "seat": s.to_move(), "last": last}) is None

    def test_no_last_before_any_move(self) -> None:
        s = ScarabeoState.new(2, seed=3)
        assert "last" not in table(s, None, last={"clock": None, "timeout": False})

    def test_a_dispute_is_not_taken_back(self) -> None:
        for decision in (Accept(), Challenge(2)):
            s = challenge_state(3)
            s.push(decision)
            assert not may_take_back(s, None)
        s = challenge_state(3)
        assert may_take_back(s, None)  # the play itself may be



class TestAnyWordCanBeContested:
    """Vote mode: any play can be contested at the table, lexicon words too (docs/scarabeo.md)."""

    def vote_state(self) -> ScarabeoState:
        s = state_with([], "CONTAREB", WORDS, others=("ABCDEFGI", "ABCDEFLM"), check_mode="vote")
        s.contest = True
        s.push(s.parse_move("9F CONTARE"))  # a lexicon word
        return s

    def test_vote_mode_a_lexicon_word_gets_the_contest_panel(self) -> None:
        s = self.vote_state()
        assert contest_words(s) == ["CONTARE"]
        assert challengers(s, seats("P", "P", "P")) == [1, 2]
        assert dispute_on_cover(s, seats("P", "P", "P"))  # Carla may contest on Bruno's cover
        assert computer_challenger(s, seats("P", "C", "P")) is None  # the lexicon knows it
        assert computer_waits(s, seats("P", "C", "P"))

    def test_vote_mode_the_computer_votes_yes_on_a_lexicon_word(self) -> None:
        s = self.vote_state()
        s.push(s.parse_move("!challenge 3 CONTARE"))
        assert computer_vote(s) == "Y"
        rows = sheet(s)
        assert rows[1]["note"] == "contested" and rows[1]["words"] == ["CONTARE"] and rows[1]["seat"] == 2

    def test_vote_mode_a_computer_whose_play_is_contested_waits_for_the_ballot(self) -> None:
        s = self.vote_state()
        s.push(s.parse_move("!challenge 2 CONTARE"))
        assert s.to_move() == 0 and computer_waits(s, seats("C", "P", "P"))
        assert not computer_waits(s, seats("C", "C", "C"))  # no person: the computers decide

    def test_vote_mode_an_unknown_word_gets_a_no(self) -> None:
        s = state_with([], "CONTAREB", WORDS, others=("ABCDEFGI", "ABCDEFLM"), check_mode="vote")
        s.push(s.parse_move("9F CONTRAB"))
        assert computer_vote(s) == "N" and contest_words(s) == []

    def test_challenge_mode_has_no_words_to_contest(self) -> None:
        assert contest_words(challenge_state(3)) == []


class TestVoteOnCover:
    """Issue 24: the table votes with every rack covered (the ballot was on the player's screen with
    their rack below the board)."""

    def vote_pending(self) -> ScarabeoState:
        s = state_with([], "CONTAREB", WORDS, others=("ABCDEFGI", "ABCDEFLM"), check_mode="vote")
        s.push(s.parse_move("9F CONTRAB"))  # an unknown word: the table votes
        assert s.pending is not None and s.pending.kind == "vote"
        return s

    def test_two_or_more_people_vote_on_the_cover(self) -> None:
        s = self.vote_pending()
        assert vote_on_cover(s, seats("P", "P", "P"))
        assert vote_on_cover(s, seats("P", "C", "P"))

    def test_one_person_votes_with_their_own_rack(self) -> None:
        assert not vote_on_cover(self.vote_pending(), seats("P", "C", "C"))

    def test_a_computer_play_voted_on_is_the_waiting_panel(self) -> None:
        assert not vote_on_cover(self.vote_pending(), seats("C", "P", "P"))

    def test_no_vote_no_cover(self) -> None:
        s = state_with([], "CONTAREB", WORDS, others=("ABCDEFGI", "ABCDEFLM"), check_mode="vote")
        assert not vote_on_cover(s, seats("P", "P", "P"))
        s = self.vote_pending()
        s.push(s.parse_move("!vote NNN"))
        assert s.pending is None and not vote_on_cover(s, seats("P", "P", "P"))
