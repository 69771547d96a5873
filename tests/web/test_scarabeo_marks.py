"""Which Scarabeo plays the board outlines (web/games/scarabeo/marks.py, issue 26): the last play, or
every turn the computers took in a row since the person's, numbered in the order played — a pass
or a play a challenge took off counts as a turn and outlines nothing — until the person's turn."""

from __future__ import annotations

from game.scarabeo import ScarabeoState
from game.scarabeo.board import parse_square
from tests.scarabeo.helpers import state_with
from web.games.scarabeo import marks

WORDS = ["CONTARE", "ORA", "RE"]
#: the person in seat 1, three computers after them
PERSON_FIRST = [False, True, True, True]


def sq(*names: str) -> set[int]:
    return {parse_square(n) for n in names}


def table(check_mode: str = "dictionary", seat_two: str = "RAEIOUSL") -> ScarabeoState:
    return state_with([], "CONTAREB", WORDS, others=(seat_two, "EIOUPPAA", "EAIOUMMB"), check_mode=check_mode)


def played(*moves: str, check_mode: str = "dictionary", seat_two: str = "RAEIOUSL") -> ScarabeoState:
    state = table(check_mode, seat_two)
    for move in moves:
        state.push(state.parse_move(move))
    return state


def test_the_computers_turns_since_the_persons_each_numbered() -> None:
    # the person's play, then a computer's play, a computer's pass, a computer's play
    state = played("9F CONTARE", "G9 ORA", "-", "K9 RE")
    run = marks.computer_run(state, PERSON_FIRST)
    assert [set(r) for r in run] == [sq("G10", "G11"), set(), sq("K10")]
    last, order, of, badges = marks.board_marks(state, PERSON_FIRST)
    assert last == sq("G10", "G11", "K10") and of == 3
    assert order == {parse_square("G10"): 1, parse_square("G11"): 1, parse_square("K10"): 3}
    assert badges == sq("G10", "K10")  # each play's number on its first tile
    # two turns in: the first play numbered 1 of 2 (the pass outlines nothing)
    state = played("9F CONTARE", "G9 ORA", "-")
    last, order, of, _badges = marks.board_marks(state, PERSON_FIRST)
    assert last == sq("G10", "G11") and of == 2 and set(order.values()) == {1}


def test_one_computers_reply_or_the_persons_play_is_the_last_play_unnumbered() -> None:
    state = played("9F CONTARE", "G9 ORA")
    assert marks.board_marks(state, PERSON_FIRST) == (sq("G10", "G11"), {}, 1, set())
    # the person's own play last: outlined, unnumbered
    contare = sq("F9", "G9", "H9", "I9", "J9", "K9", "L9")
    assert marks.board_marks(played("9F CONTARE"), PERSON_FIRST) == (contare, {}, 0, set())
    # the person's turn again (a pass): the computers' marks go, and a pass outlines nothing
    state = played("9F CONTARE", "G9 ORA", "-", "K9 RE", "-")
    assert marks.computer_run(state, PERSON_FIRST) == []
    assert marks.board_marks(state, PERSON_FIRST) == (set(), {}, 0, set())


def test_nobody_to_show_when_computers_or_people_play_alone() -> None:
    state = played("9F CONTARE", "G9 ORA", "-", "K9 RE")
    for computers in ([True] * 4, [False] * 4):
        assert marks.computer_run(state, computers) == []
        assert marks.board_marks(state, computers) == (sq("K10"), {}, 0, set())
    # two people and two computers: the run is since the latest person's turn
    assert [set(r) for r in marks.computer_run(state, [False, True, False, True])] == [sq("K10")]


def test_a_challenged_off_play_counts_as_a_turn_and_outlines_nothing() -> None:
    # challenge mode: the computer in seat 2 plays a word the lexicon lacks, the person challenges
    # it (upheld: its tiles come off), the next computer plays
    state = played("9F CONTARE", "!accept", "G9 OZR", "!challenge 1", "-", check_mode="challenge",
                   seat_two="RZEIOUSL")
    assert not state.board[parse_square("G10")]
    run = marks.computer_run(state, PERSON_FIRST)
    assert run == [[], []]  # the play taken off, then a pass: two turns, nothing to outline
    assert marks.board_marks(state, PERSON_FIRST)[0] == set()
    # a play the dispute lets stand stays outlined and numbered
    state = played("9F CONTARE", "!accept", "G9 ORA", "!accept", "-", check_mode="challenge")
    last, order, of, _badges = marks.board_marks(state, PERSON_FIRST)
    assert last == sq("G10", "G11") and of == 2 and set(order.values()) == {1}


def test_the_last_play_survives_an_accepted_challenge_and_goes_with_an_upheld_one() -> None:
    state = played("9F CONTARE", "!accept", check_mode="challenge")
    assert marks.last_play_squares(state) == sq("F9", "G9", "H9", "I9", "J9", "K9", "L9")
    state = played("9F CONTARE", "!accept", "G9 OZR", "!challenge 1", check_mode="challenge", seat_two="RZEIOUSL")
    assert marks.last_play_squares(state) == set()
