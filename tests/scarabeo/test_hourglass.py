"""The hourglass as pure logic with an injected clock."""

from __future__ import annotations

import pytest

from game.scarabeo import Hourglass, Pass, ScarabeoState, SetWordList, Vote


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

    def test_only_with_the_option(self, clock: Clock) -> None:

        with pytest.raises(ValueError):
            ScarabeoState.new(2, seed=3).attach_clock(clock)
