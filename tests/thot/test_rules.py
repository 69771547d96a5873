"""The rules of the Game of Thot, one class per rule (rules.md §2 and the rulebook)."""

from __future__ import annotations

import pytest

from game.core import IllegalMove
from game.thot import ThotMove, ThotState
from game.thot.board import ANKH, ANY, COLUMN, EMPTY, MARKED, ROW, VALUE, code_of, scarab_set

from tests.thot.helpers import build, texts


def sq(state: ThotState, name: str) -> int:
    index = state.geo.index(name)
    assert index is not None
    return index


class TestSetup:
    def test_full_game_has_96_scarabs_3_ankhs_and_the_priest(self) -> None:
        s = ThotState.new(seed=11)
        scarabs = [c for c in s.board if c not in (EMPTY, ANKH)]
        assert s.size == 10 and len(s.board) == 100
        assert len(scarabs) == 96 and s.board.count(ANKH) == 3
        assert s.board[s.priest] == EMPTY and s.board.count(EMPTY) == 1
        for v in [*range(-8, 0), *range(1, 9)]:
            assert sum(1 for c in scarabs if VALUE[c] == v) == 6

    def test_eight_marked_scarabs_one_of_each_small_value(self) -> None:
        s = ThotState.new(seed=2)
        marked = sorted(VALUE[c] for c in s.board if MARKED[c])
        assert marked == [-4, -3, -2, -1, 1, 2, 3, 4]
        assert len(s.view()["marked"]) == 8

    def test_short_game_counts_follow_the_rulebook_removals(self) -> None:
        s = ThotState.new(short=True, seed=5)
        scarabs = [c for c in s.board if c not in (EMPTY, ANKH)]
        assert s.size == 8 and len(scarabs) == 60 and s.board.count(ANKH) == 3
        for v in [*range(-8, 0), *range(1, 9)]:
            expected = 6 - (2 if abs(v) >= 3 else 3)
            assert sum(1 for c in scarabs if VALUE[c] == v) == expected, v
        # the yellow-marked pieces always stay
        assert sorted(VALUE[c] for c in scarabs if MARKED[c]) == [-4, -3, -2, -1, 1, 2, 3, 4]
        assert sum(scarab_set(True).values()) == 60

    def test_same_seed_same_board_other_seed_other_board(self) -> None:
        assert ThotState.new(seed=7).position() == ThotState.new(seed=7).position()
        assert ThotState.new(seed=7).position() != ThotState.new(seed=8).position()

    def test_players_and_teams_are_checked(self) -> None:
        with pytest.raises(ValueError, match="2 to 4"):
            ThotState.new(players=5)
        with pytest.raises(ValueError, match="team game needs 4"):
            ThotState.new(players=3, teams=True)
        assert ThotState.new(players=4, teams=True).side == [0, 0, 1, 1]


class TestSliding:
    def test_slides_over_pieces_and_gaps_to_any_piece_of_the_line(self) -> None:
        s = build({"C1": "+1", "E1": "+2", "H1": "-3", "A4": "+5", "A8": "A"}, "A1", axis=ROW)
        # row 1: C1, E1, H1 (over C1 and the gaps)
        assert texts(s) == {"C1", "E1", "H1"}
        s = build({"C1": "+1", "E1": "+2", "H1": "-3", "A4": "+5", "A8": "A"}, "A1", axis=COLUMN)
        # column A: A4 and the ankh on A8, over A4
        assert texts(s) == {"A4", "A8"}

    def test_cannot_stop_on_an_empty_square(self) -> None:
        s = build({"C1": "+1"}, "A1")
        with pytest.raises(IllegalMove) as err:
            s.check(ThotMove(sq(s, "B1")))
        assert err.value.code == "empty-square"

    def test_cannot_leave_the_line(self) -> None:
        s = build({"C1": "+1", "D4": "+8"}, "A1")
        with pytest.raises(IllegalMove) as err:
            s.push(s.parse_move("D4"))
        assert err.value.code == "not-in-line"

    def test_the_piece_taken_goes_to_the_mover(self) -> None:
        s = build({"C1": "+6", "A3": "-2"}, "A1")
        s.push(s.parse_move("C1"))
        assert s.score == [6, 0] and s.view()["collections"] == [[6], []]
        assert s.view()["priest"] == "C1" and s.view()["cells"][0][2] == "priest"


class TestFirstMove:
    def test_first_move_may_go_either_way(self) -> None:
        s = build({"C1": "+1", "A3": "+2"}, "A1")
        assert s.axis == ANY and s.view()["axis"] is None
        assert texts(s) == {"C1", "A3"}
        s.push(s.parse_move("A3"))
        assert s.view()["axis"] == "row"

    def test_first_move_takes_a_scarab_not_an_ankh(self) -> None:
        s = build({"C1": "A", "A3": "+2"}, "A1")
        assert texts(s) == {"A3"}
        with pytest.raises(IllegalMove) as err:
            s.check(s.parse_move("C1"))
        assert err.value.code == "first-move-ankh"
        later = build({"C1": "A", "A3": "+2"}, "A1", axis=ROW)
        assert texts(later) == {"C1"}


class TestAlternation:
    def test_after_a_horizontal_move_the_next_is_vertical(self) -> None:
        s = build({"C1": "+1", "C5": "+2", "H1": "+3", "F5": "+4"}, "A1")
        s.push(s.parse_move("C1"))
        assert s.axis == COLUMN
        assert texts(s) == {"C5"}  # H1 is in the row: not allowed now
        with pytest.raises(IllegalMove) as err:
            s.push(s.parse_move("H1"))
        assert err.value.code == "wrong-axis"
        s.push(s.parse_move("C5"))
        assert s.axis == ROW and texts(s) == {"F5"}

    def test_players_alternate_in_seat_order(self) -> None:
        s = build({"C1": "+1", "C5": "+2", "F5": "+4", "F8": "-1"}, "A1", players=3,
                  collections=[[], [], []])
        seats = []
        for m in ("C1", "C5", "F5"):
            seats.append(s.to_move())
            s.push(s.parse_move(m))
        assert seats == [0, 1, 2] and s.to_move() == 0

    def test_pop_takes_the_move_back_exactly(self) -> None:
        s = ThotState.new(seed=3, turnoff=True)
        before = (s.position(), s.hash)
        mv = s.legal_moves()[0]
        s.push(mv)
        assert s.pop() == mv
        assert (s.position(), s.hash) == before


class TestMustMove:
    def test_no_pass_move_exists(self) -> None:
        s = build({"C1": "-8", "E6": "+8"}, "A1")
        assert texts(s) == {"C1"}  # the only move loses 8 points, but it must be played
        with pytest.raises(ValueError):
            s.parse_move("-")

    def test_no_piece_in_the_line_to_use_ends_the_game(self) -> None:
        s = build({"C1": "+1", "E6": "+8"}, "A1")
        s.push(s.parse_move("C1"))
        assert s.is_over() and s.legal_moves() == []
        out = s.outcome()
        assert out is not None and out.reason == "no-move"
        assert out.winners == (0,) and s.view()["winner"] == 0
        with pytest.raises(IllegalMove) as err:
            s.check(ThotMove(sq(s, "E6")))
        assert err.value.code == "game-over"


class TestEnd:
    def test_no_scarab_left_ends_the_game_even_with_ankhs(self) -> None:
        s = build({"C1": "+3", "C4": "A"}, "A1")
        s.push(s.parse_move("C1"))
        assert s.is_over()
        out = s.outcome()
        assert out is not None and out.reason == "no-scarab" and out.scores == (3, 0)

    def test_game_goes_on_while_the_mover_has_a_move(self) -> None:
        s = build({"C1": "+3", "C4": "-1", "H4": "+2"}, "A1")
        s.push(s.parse_move("C1"))
        assert not s.is_over() and s.outcome() is None and s.view()["winner"] is None


class TestAnkh:
    def test_taking_an_ankh_without_a_drop(self) -> None:
        s = build({"C1": "A", "C5": "+1"}, "A1", axis=ROW, collections=[["-8"], []])
        s.push(s.parse_move("C1"))
        assert s.ankhs == 0 and s.score == [-8, 0]
        assert s.board[sq(s, "C1")] == EMPTY

    def test_drop_puts_a_collected_scarab_on_an_empty_square(self) -> None:
        s = build({"C1": "A", "C5": "+1"}, "A1", axis=ROW, collections=[["-8", "+5"], []])
        result = s.push(s.parse_move("C1@E5:-8"))
        assert result == {"move": "C1@E5:-8", "taken": "ankh", "dropped": -8,
                          "seat": 0, "from": "A1", "to": "C1", "turn": None, "drop_at": "E5"}
        assert s.board[sq(s, "E5")] == -8
        # the dropped scarab leaves the collection: it no longer counts for the dropper
        assert s.score == [5, 0] and s.view()["collections"][0] == [5]
        assert s.scarabs == 2

    def test_drop_on_the_square_the_priest_just_left(self) -> None:
        s = build({"C1": "A", "C5": "+1"}, "A1", axis=ROW, collections=[["-3"], []])
        s.push(s.parse_move("C1@A1:-3"))
        assert s.board[sq(s, "A1")] == -3

    def test_drop_on_an_occupied_square_or_the_priest_is_refused(self) -> None:
        s = build({"C1": "A", "C5": "+1"}, "A1", axis=ROW, collections=[["-3"], []])
        for text in ("C1@C5:-3", "C1@C1:-3"):
            with pytest.raises(IllegalMove) as err:
                s.check(s.parse_move(text))
            assert err.value.code == "drop-occupied"

    def test_drop_of_a_scarab_not_held_is_refused(self) -> None:
        s = build({"C1": "A", "C5": "+1"}, "A1", axis=ROW, collections=[["-3"], ["-8"]])
        with pytest.raises(IllegalMove) as err:
            s.check(s.parse_move("C1@E5:-8"))
        assert err.value.code == "drop-not-held"

    def test_drop_only_after_an_ankh(self) -> None:
        s = build({"C1": "+2", "C5": "+1"}, "A1", collections=[["-3"], []])
        with pytest.raises(IllegalMove) as err:
            s.check(s.parse_move("C1@E5:-3"))
        assert err.value.code == "drop-without-ankh"

    def test_every_empty_square_accepted_and_all_drops_listed_on_request(self) -> None:
        s = build({"C1": "A", "C5": "+1"}, "A1", axis=ROW, collections=[["-3", "+2"], []])
        empties = [i for i, c in enumerate(s.board) if c == EMPTY]
        for i in empties:
            s.check(ThotMove(sq(s, "C1"), None, i, -3))
        full = [m for m in s.legal_moves(all_drops=True) if m.drop is not None]
        assert len(full) == 2 * len(empties)
        # the default list holds the search's candidates, all legal
        for m in s.legal_moves():
            s.check(m)

    def test_marked_copy_is_dropped_only_when_named_or_the_only_one(self) -> None:
        s = build({"C1": "A", "C5": "+1"}, "A1", axis=ROW, collections=[["-4", "-4*"], []])
        assert s.parse_move("C1@E5:-4").piece == -4
        assert s.parse_move("C1@E5:-4*").piece == code_of(-4, True)
        t = build({"C1": "A", "C5": "+1"}, "A1", axis=ROW, collections=[["-4*"], []])
        mv = t.parse_move("C1@E5:-4")
        assert mv.piece == code_of(-4, True)
        t.push(mv)
        assert t.view()["marked"] == ["E5"]


class TestTurnOff:
    def test_turning_on_a_marked_scarab_passed_over(self) -> None:
        s = build({"C1": "+3*", "C6": "+8", "C3": "-1", "F1": "+1"}, "A1", turnoff=True)
        moves = texts(s)
        assert {"C1>C6", "C1>C3"} <= moves
        s.push(s.parse_move("C1>C6"))
        # the marked scarab was passed over, not taken; the last leg was vertical
        assert s.board[sq(s, "C1")] == code_of(3, True) and s.score == [8, 0]
        assert s.axis == ROW

    def test_no_turning_without_the_variant(self) -> None:
        s = build({"C1": "+3*", "C6": "+8"}, "A1")
        assert "C1>C6" not in texts(s)
        with pytest.raises(IllegalMove) as err:
            s.check(s.parse_move("C1>C6"))
        assert err.value.code == "no-turnoff"

    def test_turning_only_on_marked_scarabs(self) -> None:
        s = build({"C1": "+3", "C6": "+8"}, "A1", turnoff=True)
        with pytest.raises(IllegalMove) as err:
            s.check(s.parse_move("C1>C6"))
        assert err.value.code == "turn-unmarked"

    def test_the_turn_is_a_right_angle_once(self) -> None:
        s = build({"C1": "+3*", "E1": "+8", "C6": "-2*", "F6": "+7"}, "A1", turnoff=True)
        with pytest.raises(IllegalMove) as err:
            s.check(s.parse_move("C1>E1"))
        assert err.value.code == "turn-not-square"
        assert "C1>F6" not in texts(s)  # a second turn (on C6) is not allowed

    def test_first_leg_must_use_the_required_axis(self) -> None:
        s = build({"C1": "+3*", "C6": "+8", "A5": "+1"}, "A1", turnoff=True, axis=COLUMN)
        assert "C1>C6" not in texts(s)
        with pytest.raises(IllegalMove) as err:
            s.check(s.parse_move("C1>C6"))
        assert err.value.code == "wrong-axis"

    def test_turning_onto_an_ankh_with_a_drop(self) -> None:
        s = build({"C1": "+3*", "C6": "A", "H6": "+2"}, "A1", turnoff=True, axis=ROW,
                  collections=[["-5"], []])
        s.push(s.parse_move("C1>C6@D2:-5"))
        assert s.board[sq(s, "D2")] == -5 and s.score == [0, 0] and s.axis == ROW


class TestTieBreaks:
    def _over(self, colls: list[list[str]], players: int = 2, teams: bool = False) -> ThotState:
        s = build({"C1": "+1"}, "A1", size=10, axis=COLUMN, collections=colls, players=players,
                  teams=teams)
        assert s.is_over()
        return s

    def test_highest_total_wins(self) -> None:
        s = self._over([["+5"], ["+2", "+2"]])
        out = s.outcome()
        assert out is not None and out.winners == (0,) and out.detail["tiebreak"] is None

    @pytest.mark.parametrize("step", range(8, 0, -1))
    def test_each_step_from_plus_8_down(self, step: int) -> None:
        # equal totals, the same pieces above ``step``; seat 1 holds two +step, seat 0 one
        high = [f"+{v}" for v in range(8, step, -1)]
        s = self._over([high + [f"+{step}"], high + [f"+{step}", f"+{step}", f"-{step}"]])
        assert s.score[0] == s.score[1]
        out = s.outcome()
        assert out is not None
        assert out.winners == (1,) and out.detail["tiebreak"] == f"+{step}"
        assert s.view()["tiebreak"] == f"+{step}" and s.view()["winner"] == 1

    def test_a_higher_step_decides_before_a_lower_one(self) -> None:
        # seat 1 has more +1s, but seat 0's +2 is looked at first
        s = self._over([["+2", "-1"], ["+1", "+1", "-1"]])
        out = s.outcome()
        assert out is not None and out.winners == (0,) and out.detail["tiebreak"] == "+2"

    def test_still_equal_is_a_draw(self) -> None:
        s = self._over([["+5", "-2"], ["+5", "-2"]])
        out = s.outcome()
        assert out is not None and out.winners == () and out.detail["tiebreak"] == "draw"
        assert s.view()["winner"] == [0, 1]

    def test_three_players_two_share(self) -> None:
        s = self._over([["+3"], ["+3"], ["+1"]], players=3)
        out = s.outcome()
        assert out is not None and out.winners == (0, 1) and s.view()["winner"] == [0, 1]

    def test_tie_break_among_the_leaders_only(self) -> None:
        # seat 2 has the +8 but a lower total: it takes no part in the tie-break
        s = self._over([["+4", "+2"], ["+6"], ["+8", "-8", "+1"]], players=3)
        out = s.outcome()
        assert out is not None and out.winners == (1,) and out.detail["tiebreak"] == "+6"


class TestTeams:
    def test_team_totals_decide(self) -> None:
        s = build({"C1": "+1"}, "A1", axis=COLUMN, players=4, teams=True,
                  collections=[["+8"], ["-7"], ["+3"], []])
        out = s.outcome()
        assert out is not None
        assert out.detail["totals"] == [1, 3] and out.winners == (2, 3)
        v = s.view()
        assert v["team_scores"] == [1, 3] and v["winner"] == [2, 3] and v["teams"] == [[0, 1], [2, 3]]

    def test_team_tie_break_adds_the_partners_pieces(self) -> None:
        s = build({"C1": "+1"}, "A1", axis=COLUMN, players=4, teams=True,
                  collections=[["+8"], ["-1"], ["+4"], ["+3"]])
        out = s.outcome()
        assert out is not None and out.detail["totals"] == [7, 7]
        assert out.winners == (0, 1) and out.detail["tiebreak"] == "+8"

    def test_team_play_order_is_seat_order(self) -> None:
        s = ThotState.new(players=4, teams=True, seed=1)
        order = []
        for _ in range(5):
            order.append(s.to_move())
            s.push(s.legal_moves()[0])
        assert order == [0, 1, 2, 3, 0]
