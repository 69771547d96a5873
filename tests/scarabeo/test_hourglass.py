"""The hourglass as pure logic with an injected clock."""

from __future__ import annotations

import pytest

from game.scarabeo import Hourglass, Pass, ScarabeoState, SetWordList, Vote
from game.scarabeo import record


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


class TestHourglass:
    def test_two_minutes_a_turn(self, clock: Clock) -> None:
        h = Hourglass(clock)
        h.start_turn()
        clock.now += 119
        assert h.remaining() == pytest.approx(1) and not h.expired()
        clock.now += 1
        assert h.expired()

    def test_carry_over_of_the_running_minute(self, clock: Clock) -> None:
        h = Hourglass(clock)
        h.start_turn()
        clock.now += 35  # 85 s left: the first minute has 25 s left
        assert h.next_turn() == pytest.approx(25)
        assert h.allowance == pytest.approx(145) and h.remaining() == pytest.approx(145)

    def test_carry_in_the_second_minute(self, clock: Clock) -> None:
        h = Hourglass(clock)
        h.start_turn()
        clock.now += 100  # 20 s left
        assert h.finish_turn() == pytest.approx(20)

    def test_no_carry_after_time_out(self, clock: Clock) -> None:
        h = Hourglass(clock)
        h.start_turn(carry=10)
        clock.now += 500
        assert h.expired() and h.finish_turn() == 0

    def test_pause_stops_time(self, clock: Clock) -> None:
        h = Hourglass(clock)
        h.start_turn()
        clock.now += 30
        h.pause()
        assert not h.running
        clock.now += 1000  # a long dispute
        assert h.remaining() == pytest.approx(90)
        h.resume()
        clock.now += 10
        assert h.remaining() == pytest.approx(80)

    def test_json(self, clock: Clock) -> None:
        h = Hourglass(clock)
        h.start_turn(carry=5)
        assert h.to_json()["allowance"] == 125 and h.to_json()["running"]

    def test_saved_turn_resumes_with_the_time_left(self, clock: Clock) -> None:
        h = Hourglass(clock)
        h.start_turn(carry=25)
        clock.now += 40
        data = h.saved()
        assert data == {"active": True, "carry_in": 25, "used": 40, "paused": False}
        clock.now += 3600  # the page was closed for an hour: that does not count
        again = Hourglass(clock)
        again.restore(data)
        assert again.running and again.carry_in == 25 and again.allowance == 145
        assert again.remaining() == pytest.approx(105)
        clock.now += 5
        assert again.remaining() == pytest.approx(100)

    def test_saved_paused_turn_stays_paused(self, clock: Clock) -> None:
        h = Hourglass(clock)
        h.start_turn()
        clock.now += 30
        h.pause()
        again = Hourglass(clock)
        again.restore(h.saved())
        clock.now += 50
        assert not again.running and again.remaining() == pytest.approx(90)
        again.resume()
        clock.now += 10
        assert again.remaining() == pytest.approx(80)

    def test_saved_expired_turn_is_still_expired(self, clock: Clock) -> None:
        h = Hourglass(clock)
        h.start_turn()
        clock.now += 500
        again = Hourglass(clock)
        again.restore(h.saved())
        assert again.expired()

    def test_saved_round_trips_through_json(self, clock: Clock) -> None:
        import json

        h = Hourglass(clock)
        h.start_turn(carry=59.99999)  # the largest carry a turn can receive stays valid
        clock.now += 1 / 3
        again = Hourglass(clock)
        again.restore(json.loads(json.dumps(h.saved())))
        assert again.remaining() == pytest.approx(h.remaining())

    @pytest.mark.parametrize("data", [
        None, [], {}, {"active": False}, {"active": "yes", "carry_in": 0, "used": 0, "paused": False},
        {"active": True, "carry_in": 0, "used": 0},
        {"active": True, "carry_in": 0, "used": "10", "paused": False},
        {"active": True, "carry_in": True, "used": 0, "paused": False},
        {"active": True, "carry_in": 0, "used": float("nan"), "paused": False},
        {"active": True, "carry_in": 0, "used": float("inf"), "paused": False},
        {"active": True, "carry_in": -1, "used": 0, "paused": False},
        {"active": True, "carry_in": 60, "used": 0, "paused": False},
        {"active": True, "carry_in": 10, "used": 130.5, "paused": False},
        {"active": True, "carry_in": 0, "used": -0.5, "paused": False},
        {"active": True, "carry_in": 0, "used": 0, "paused": 1},
    ])
    def test_a_damaged_saved_turn_is_refused_untouched(self, clock: Clock, data: object) -> None:
        h = Hourglass(clock)
        h.start_turn(carry=12)
        clock.now += 7
        with pytest.raises(ValueError):
            h.restore(data)  # type: ignore[arg-type]
        assert h.carry_in == 12 and h.remaining() == pytest.approx(125) and h.running

    def test_an_inactive_hourglass_saves_nothing_to_resume(self, clock: Clock) -> None:
        h = Hourglass(clock)
        assert h.saved() == {"active": False}
        with pytest.raises(ValueError):
            Hourglass(clock).restore(h.saved())

    def test_bad_values(self, clock: Clock) -> None:
        with pytest.raises(ValueError):
            Hourglass(clock, turn_seconds=0)
        with pytest.raises(ValueError):
            Hourglass(clock).start_turn(carry=-1)


class TestInTheGame:
    def test_the_hourglass_passes_on_with_the_carry(self, clock: Clock) -> None:

        s = ScarabeoState.new(2, seed=3, hourglass=True)
        timer = s.attach_clock(clock)
        clock.now += 70  # 50 s left, all of them in the running minute
        s.push(Pass())
        assert timer.carry_in == pytest.approx(50) and timer.remaining() == pytest.approx(170)
        assert s.view()["clock"]["allowance"] == pytest.approx(170)

    def test_time_out_is_a_pass(self, clock: Clock) -> None:

        s = ScarabeoState.new(2, seed=3, hourglass=True)
        s.attach_clock(clock)
        assert s.time_out() is None
        clock.now += 121
        first = s.to_move()
        result = s.time_out()
        assert result is not None and result.player == first and s.move_text(result.move) == "-"
        assert s.to_move() != first

    def test_art18_late_play_becomes_timeout_pass(self, clock: Clock) -> None:
        s = ScarabeoState.new(2, seed=3, hourglass=True)
        s.attach_clock(clock)
        player = s.to_move()
        rack = [t for t in s.racks[player] if t != "?"]
        play = s.parse_move(f"9I {rack[0]}{rack[1]}")
        before = s.position()
        clock.now += 121  # the page's ticker has not passed the turn yet: the engine does
        result = s.push(play)
        assert isinstance(result.move, Pass) and result.note == "time-out" and result.score == 0
        assert s.history() == [Pass()] and s.to_move() != player and s.scores == [0, 0]
        assert not any(s.board) and s.position() != before  # the turn passed, nothing was laid
        assert s.timer is not None and s.timer.remaining() == pytest.approx(120)  # no carry-over
        # the record holds the pass the engine made of it, so it replays without the clock
        for text in (record.to_text(s), record.to_json(s)):
            again = record.load(text, None)
            assert again.history() == [Pass()] and again.position() == s.position()

    def test_art18_play_in_time_stands(self, clock: Clock) -> None:
        s = ScarabeoState.new(2, seed=3, hourglass=True)
        s.attach_clock(clock)
        rack = [t for t in s.racks[s.to_move()] if t != "?"]
        clock.now += 119.5
        result = s.push(s.parse_move(f"9I {rack[0]}{rack[1]}"))
        assert result.note == "play" and result.score > 0

    @pytest.mark.parametrize("late", ["-", "*late-exchange"])
    def test_art18_late_pass_or_exchange_is_the_timeout_pass(self, clock: Clock, late: str) -> None:
        s = ScarabeoState.from_position(
            "17/17/17/17/17/17/17/17/17/17/17/17/17/17/17/17/17 AAEEIIOU/BCDFGLMN 0/0 0")
        s.hourglass = True
        s.attach_clock(clock)
        move = s.parse_move("-AAEEIIOU" if late.startswith("*") else late)
        clock.now += 130
        result = s.push(move)
        assert result.move == Pass() and result.note == "time-out" and s.racks[0] == list("AAEEIIOU")

    def test_art18_without_a_clock_nothing_is_late(self) -> None:
        s = ScarabeoState.new(2, seed=3, hourglass=True)  # a record being replayed: no clock
        rack = [t for t in s.racks[s.to_move()] if t != "?"]
        assert s.push(s.parse_move(f"9I {rack[0]}{rack[1]}")).note == "play"

    def test_a_vote_pauses_the_hourglass(self, clock: Clock) -> None:

        s = ScarabeoState.new(3, seed=3, hourglass=True, check_mode="vote",
                              word_list=SetWordList([]))
        timer = s.attach_clock(clock)
        rack = s.racks[s.to_move()]
        clock.now += 20
        s.push(s.parse_move(f"9I {rack[0]}{rack[1]}"))
        assert s.pending is not None and not timer.running
        clock.now += 500
        s.push(Vote("NNN"))  # rejected: the same player goes on with 100 s
        assert timer.running and timer.remaining() == pytest.approx(100)

    def test_check_does_not_touch_the_clock(self, clock: Clock) -> None:

        s = ScarabeoState.new(2, seed=3, hourglass=True)
        timer = s.attach_clock(clock)
        clock.now += 10
        s.check(Pass())
        assert timer.remaining() == pytest.approx(110)

    def test_attach_resumes_a_saved_turn(self, clock: Clock) -> None:
        s = ScarabeoState.new(2, seed=3, hourglass=True)
        timer = s.attach_clock(clock)
        clock.now += 70
        s.push(Pass())  # the next player has 120 + 50 s
        clock.now += 20
        data = timer.saved()
        again = ScarabeoState.new(2, seed=3, hourglass=True)
        again.push(Pass())
        resumed = again.attach_clock(clock, data)
        assert resumed.carry_in == pytest.approx(50) and resumed.remaining() == pytest.approx(150)

    @pytest.mark.parametrize("data", [None, {"active": True, "carry_in": "x"}, {"active": False}])
    def test_attach_with_a_missing_or_damaged_turn_starts_afresh(self, clock: Clock, data: object) -> None:
        s = ScarabeoState.new(2, seed=3, hourglass=True)
        timer = s.attach_clock(clock, data)  # type: ignore[arg-type]
        assert timer.running and timer.carry_in == 0 and timer.remaining() == pytest.approx(120)

    def test_attach_during_a_vote_lays_the_hourglass_down(self, clock: Clock) -> None:
        s = ScarabeoState.new(3, seed=3, hourglass=True, check_mode="vote", word_list=SetWordList([]))
        rack = [t for t in s.racks[s.to_move()] if t != "?"]
        s.push(s.parse_move(f"9I {rack[0]}{rack[1]}"))
        timer = s.attach_clock(clock)  # a reload while the table votes, nothing saved
        assert s.pending is not None and not timer.running and timer.remaining() == pytest.approx(120)

    def test_only_with_the_option(self, clock: Clock) -> None:

        with pytest.raises(ValueError):
            ScarabeoState.new(2, seed=3).attach_clock(clock)
