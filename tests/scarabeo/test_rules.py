"""Play validation: every refusal has a code and a message naming the square, tile or word."""

from __future__ import annotations

import pytest

from game.core import IllegalMove
from game.scarabeo import Play, ScarabeoState
from game.scarabeo.board import parse_square

from tests.scarabeo.helpers import state_with

WORDS = ["CONTARE", "SCONTARE", "CANNA", "STAMPA", "ORA", "ORE", "RE", "TE", "ME", "MA", "AMO", "CANE"]
ABBREVIATIONS = ["TA", "AN", "MN", "PA"]


def refusal(state: ScarabeoState, move: str) -> IllegalMove:
    before = state.position()
    with pytest.raises(IllegalMove) as info:
        state.push(state.parse_move(move))
    assert state.position() == before, "a refused move must leave the state unchanged"
    assert state.history() == []
    return info.value


def place(state: ScarabeoState, *pairs: str) -> IllegalMove:
    with pytest.raises(IllegalMove) as info:
        state.play_from_placements([(p[:-1], p[-1]) for p in pairs])
    return info.value


class TestFirstPlay:
    def test_must_cover_the_centre(self) -> None:
        s = state_with([], "CONTARE?", WORDS)
        err = refusal(s, "9A CONTARE")
        assert err.code == "first-not-centre" and "I9" in str(err)

    def test_single_tile_is_no_word(self) -> None:
        s = state_with([], "CONTARE?", WORDS)
        assert place(s, "I9A").code == "no-word"

    def test_accepted_on_the_centre(self) -> None:
        s = state_with([], "CONTARE?", WORDS)
        assert s.push(s.parse_move("I5 CONTARE")).score == 56  # down through I9


class TestShape:
    def test_not_in_line(self) -> None:
        s = state_with([], "CONTARE?", WORDS)
        err = place(s, "I9C", "J10O")
        assert err.code == "not-in-line" and "I9" in str(err) and "J10" in str(err)

    def test_gap(self) -> None:
        s = state_with(["9F CONTARE"], "ORESTAMP", WORDS)
        err = place(s, "M5O", "M7E")
        assert err.code == "gap" and "M6" in str(err)

    def test_a_gap_filled_by_the_board_is_no_gap(self) -> None:
        s = state_with(["9F CONTARE"], "ORESTAMP", WORDS)
        play = s.play_from_placements([("K8", "O"), ("K10", "A")])
        assert play == Play(parse_square("K8"), False, "ORA")

    def test_not_touching(self) -> None:
        s = state_with(["9F CONTARE"], "ORESTAMP", WORDS)
        err = refusal(s, "2B ORA")
        assert err.code == "not-touching"

    def test_square_taken(self) -> None:
        s = state_with(["9F CONTARE"], "ORESTAMP", WORDS)
        err = refusal(s, "F9 SA")
        assert err.code == "square-taken" and "F9" in str(err) and "C" in str(err)
        assert place(s, "F9S").code == "square-taken"

    def test_dot_on_an_empty_square(self) -> None:
        s = state_with(["9F CONTARE"], "ORESTAMP", WORDS)
        err = refusal(s, "K8 .RA")
        assert err.code == "empty-dot" and "K8" in str(err)

    def test_word_must_be_written_whole(self) -> None:
        s = state_with(["9F CONTARE"], "ORESTAMP", WORDS)
        err = refusal(s, "9F CONTAR")
        assert err.code == "no-tiles"
        err = refusal(s, "9G ONTARES")
        assert err.code == "not-whole-word" and "F9" in str(err)

    def test_no_new_tile(self) -> None:
        s = state_with(["9F CONTARE"], "ORESTAMP", WORDS)
        assert refusal(s, "9F CONTARE").code == "no-tiles"

    def test_off_board_is_a_notation_error(self) -> None:
        s = state_with([], "CONTARE?", WORDS)
        with pytest.raises(Exception) as info:
            s.parse_move("9M CONTARE")
        assert "runs off the board" in str(info.value)


class TestRack:
    def test_tile_not_on_rack(self) -> None:
        s = state_with([], "CONTAREE", WORDS)
        err = refusal(s, "9I STAMPA")
        assert err.code == "tile-not-on-rack" and err.details["tile"] == "A"
        assert "needs 2 As" in str(err) and "holds 1" in str(err)

    def test_letter_twice_needs_two_tiles(self) -> None:
        s = state_with([], "CAANEOTR", WORDS)
        err = refusal(s, "9I CANNA")
        assert err.code == "tile-not-on-rack" and "2 Ns" in str(err)

    def test_lowercase_uses_a_scarab(self) -> None:
        s = state_with([], "CONTAR??", WORDS)
        r = s.push(s.parse_move("9F CONTARe"))
        assert r.breakdown is not None and r.breakdown.words[0].has_scarab
        assert s.racks[0].count("?") == 1  # both scarabs were on the rack: none to draw

    def test_lowercase_without_a_scarab(self) -> None:
        s = state_with([], "CONTARES", WORDS)
        assert refusal(s, "9F CONTARe").code == "tile-not-on-rack"


class TestWords:
    def test_every_invalid_word_named(self) -> None:
        s = state_with(["9E SCONTARE", "F9 CANNA"], "TAMPAEIO", WORDS)
        err = refusal(s, "E9 STAMPA")
        assert err.code == "invalid-words"
        assert err.details["words"] == ["TA", "AN", "MN", "PA"]
        assert "TA, AN, MN, PA" in str(err)

    def test_stampa_through_abbreviations(self) -> None:
        s = state_with(["9E SCONTARE", "F9 CANNA"], "TAMPAEIO", WORDS, ABBREVIATIONS)
        r = s.push(s.parse_move("E9 STAMPA"))
        assert r.breakdown is not None
        assert [w.word for w in r.breakdown.words] == ["STAMPA", "TA", "AN", "MN", "PA"]

    def test_parallel_play_checks_every_crossing(self) -> None:
        s = state_with(["9F CONTARE"], "ORESTAMP", ["CONTARE", "ORE", "RE"], [])
        # OR under C O → crossings CO and OR: CO is not a word here.
        err = refusal(s, "10F OR")
        assert err.code == "invalid-words" and "CO" in err.details["words"]

    def test_extension_creating_a_non_word(self) -> None:
        s = state_with(["9F CONTARE"], "ORESTAMP", WORDS)
        err = refusal(s, "9F CONTAREO")
        assert err.code == "invalid-words" and err.details["words"] == ["CONTAREO"]


class TestSwaps:
    def test_flying_scarab_swap_then_play(self) -> None:
        s = state_with(["9F CONTaRE"], "AMORESTP", WORDS)
        r = s.push(s.parse_move("*J9 -"))
        assert s.board[parse_square("J9")] == "A"
        assert sorted(s.racks[0]) == sorted("?MORESTP") and r.score == 0

    def test_two_swaps_in_one_turn(self) -> None:
        s = state_with(["9F CoNTaRE"], "AOBBBBCC", WORDS)
        s.push(s.parse_move("*J9 *G9 -"))
        assert s.board[parse_square("J9")] == "A" and s.board[parse_square("G9")] == "O"
        assert sorted(s.racks[0]).count("?") == 2

    def test_swap_needs_a_scarab(self) -> None:
        s = state_with(["9F CONTARE"], "AMORESTP", WORDS)
        err = refusal(s, "*J9 -")
        assert err.code == "swap-not-scarab" and "J9" in str(err)

    def test_swap_needs_the_letter(self) -> None:
        s = state_with(["9F CONTaRE"], "EMORESTP", WORDS)
        err = refusal(s, "*J9 -")
        assert err.code == "swap-letter-not-on-rack" and "A" in str(err)

    def test_swapped_scarab_can_be_played_in_the_same_turn(self) -> None:
        s = state_with(["9F CONTaRE"], "AAOBBBBC", ["CONTARE", "AMA"])
        r = s.push(s.parse_move("*J9 J9 AmA"))
        assert r.breakdown is not None
        assert [w.word for w in r.breakdown.words] == ["AMA"]
        assert s.board[parse_square("J10")] == "m" and "?" not in s.racks[0]


class TestExchange:
    def test_all_vowels(self) -> None:
        s = state_with(["9F CONTARE"], "AAEEIIOU", WORDS)
        before_bag = len(s.bag)
        s.push(s.parse_move("-AAEEIIOU"))
        assert len(s.racks[0]) == 8 and len(s.bag) == before_bag

    def test_all_consonants(self) -> None:
        s = state_with(["9F CONTARE"], "BCDFGLMN", WORDS)
        s.push(s.parse_move("-BCDFGLMN"))
        assert s.scores[0] == 0

    def test_mixed_rack_refused(self) -> None:
        s = state_with(["9F CONTARE"], "AAEEIIOT", WORDS)
        err = refusal(s, "-AAEEIIOT")
        assert err.code == "exchange-not-allowed" and "7 vowels and 1 consonant" in str(err)

    def test_scarab_refused(self) -> None:
        s = state_with(["9F CONTARE"], "AAEEIIO?", WORDS)
        assert refusal(s, "-AAEEIIO?").code == "exchange-not-allowed"

    def test_short_rack_refused(self) -> None:
        s = state_with(["9F CONTARE"], "AAEEIIO", WORDS)
        err = refusal(s, "-AAEEIIO")
        assert err.code == "exchange-not-allowed" and "holds 7" in str(err)

    def test_must_return_the_whole_rack(self) -> None:
        s = state_with(["9F CONTARE"], "AAEEIIOU", WORDS)
        assert refusal(s, "-AAEEIIOO").code == "exchange-not-allowed"


class TestArticlesTheAppMakesMoot:
    def test_art31_no_one_can_forget_to_draw(self) -> None:
        # Art. 31's lost turn for drawing late never applies: every play refills the rack at once.
        s = state_with([], "CONTAREB", ["CONTARE"], others=("ABCDEFGH",))
        bag = len(s.bag)
        s.push(s.parse_move("9F CONTARE"))
        assert len(s.racks[0]) == 8 and len(s.bag) == bag - 7 and s.to_move() == 1
