"""What the Scarabeo page keeps on the table across a reload, and the challenge window's rule."""

from __future__ import annotations

import json
from typing import Any

import pytest

from game.scarabeo import Accept, Challenge, Pass, ScarabeoState
from game.scarabeo.board import parse_square
from game.scarabeo.tiles import sort_rack
from tests.scarabeo.helpers import state_with
from web.session import Seat
from web.views.scarabeo_table import challengers, computer_waits, saved_clock, saved_tentative, table

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


def challenge_state(players: int) -> ScarabeoState:
    """Seat 1 has just played CONTARE (a word) in challenge mode; seat 2 is to move."""
    others = ("ABCDEFGI", "ABCDEFLM", "ABCDEFNO")[:players - 1]
    s = state_with([], "CONTAREB", WORDS, others=others, check_mode="challenge")
    s.push(s.parse_move("9F CONTARE"))
    assert s.pending is not None and s.to_move() == 1
    return s


def seats(*kinds: str) -> list[Seat]:
    return [Seat(f"P{i + 1}", computer=k == "C") for i, k in enumerate(kinds)]


class TestChallengeWindow:
    def test_people_get_the_window_when_the_computer_is_next(self) -> None:
        s = challenge_state(3)
        table_ = seats("P", "C", "P")
        assert challengers(s, table_) == [2]
        assert computer_waits(s, table_, computer_would_challenge=False)

    def test_a_computer_that_would_challenge_does_so_at_once(self) -> None:
        s = challenge_state(3)
        assert not computer_waits(s, seats("P", "C", "P"), computer_would_challenge=True)

    def test_alone_with_the_computer_it_decides(self) -> None:
        s = challenge_state(2)
        assert challengers(s, seats("P", "C")) == []
        assert not computer_waits(s, seats("P", "C"), computer_would_challenge=False)
        s3 = challenge_state(3)
        assert not computer_waits(s3, seats("P", "C", "C"), computer_would_challenge=False)

    def test_a_computer_play_gives_the_people_the_window(self) -> None:
        s = challenge_state(3)  # seat 1, a computer, made the play; seat 2 (a computer) is next
        assert challengers(s, seats("C", "C", "P")) == [2]
        assert computer_waits(s, seats("C", "C", "P"), computer_would_challenge=False)
        s4 = challenge_state(4)
        assert challengers(s4, seats("C", "C", "P", "P")) == [2, 3]
        assert computer_waits(s4, seats("C", "C", "P", "P"), computer_would_challenge=False)

    def test_a_person_to_move_is_no_wait(self) -> None:
        s = challenge_state(3)
        assert challengers(s, seats("P", "P", "C")) == [1]
        assert not computer_waits(s, seats("P", "P", "C"), computer_would_challenge=False)

    def test_the_window_closes_with_the_decision(self) -> None:
        for decision in (Accept(), Challenge(2)):
            s = challenge_state(3)
            s.push(decision)  # a failed challenge (CONTARE is a word) or an accept: the play stands
            assert s.pending is None and s.to_move() == 1
            assert challengers(s, seats("P", "C", "P")) == []
            assert not computer_waits(s, seats("P", "C", "P"), computer_would_challenge=False)

    def test_no_window_without_a_pending_challenge(self) -> None:
        s = ScarabeoState.new(3, seed=3, check_mode="challenge")
        assert not computer_waits(s, seats("P", "C", "P"), computer_would_challenge=False)
