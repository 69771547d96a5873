"""Scoring, rule by rule (rules.md §1 "Play" and the rulebook's examples).

Expected values are worked out by hand from the layout (comments say which squares count).
"""

from __future__ import annotations

from game.scarabeo import score_play
from game.scarabeo.board import parse_square
from game.scarabeo.moves import Play, parse_move
from game.scarabeo.rules import resolve_play

from tests.scarabeo.helpers import board_with


def placements(board: list[str], move: str) -> list[tuple[int, str]]:
    play = parse_move(move)
    assert isinstance(play, Play)
    return resolve_play(board, play)


def at(*pairs: str) -> list[tuple[int, str]]:
    """``at("H8Z", "I8A")`` → placements."""
    return [(parse_square(p[:-1]), p[-1]) for p in pairs]


class TestRulebookExamples:
    def test_contare_is_worth_8_before_premiums_and_doubled_as_first_play(self) -> None:
        board = board_with([])
        bd = score_play(board, placements(board, "9F CONTARE"))
        (word,) = bd.words
        # C1 O1 N2 T1 A1 R1 E1 = 8; F9..L9 hold no premium.
        assert word.word == "CONTARE" and word.letter_sum == 8 and word.word_mult == 1
        assert bd.first_play_doubled and bd.words_total == 16
        # 7 tiles: +30, and +10 more because CONTARE holds no scarab.
        assert bd.bonus == 40 and bd.total == 56

    def test_scontare_scores_the_whole_word(self) -> None:
        board = board_with(["9F CONTARE"])
        bd = score_play(board, placements(board, "9E SCONTARE"))
        assert [w.word for w in bd.words] == ["SCONTARE"]
        assert bd.total == 1 + 8 and bd.tiles_placed == 1 and not bd.first_play_doubled

    def test_stampa_scores_every_crossing_abbreviation(self) -> None:
        board = board_with(["9E SCONTARE", "F9 CANNA"])
        bd = score_play(board, placements(board, "E9 STAMPA"))
        words = {w.word: w.score for w in bd.words}
        assert list(words) == ["STAMPA", "TA", "AN", "MN", "PA"]
        # E13 is 2P: STAMPA (1+1+1+2+3+1) ×2 and PA (3+1) ×2; F12 is 2P: MN (2+2) ×2.
        assert words == {"STAMPA": 18, "TA": 2, "AN": 3, "MN": 8, "PA": 8}
        assert bd.total == 39 and bd.bonus == 0


class TestPremiums:
    def test_letter_premium_counts_in_each_word_through_it(self) -> None:
        # H8 is 2L; Z there forms ZO across (with I8) and ZA down (with H9).
        board = board_with(["9H AI", "I8 OI"])
        bd = score_play(board, at("H8Z"), first_play=False)
        by = {w.word: w.score for w in bd.words}
        assert by == {"ZO": 8 * 2 + 1, "ZA": 8 * 2 + 1}
        assert bd.total == 34

    def test_premium_covered_earlier_counts_again(self) -> None:
        # D9 (2L) holds the P of PANE from an earlier turn: PANEL counts it doubled again.
        board = board_with(["9D PANE"])
        bd = score_play(board, at("H9L"), first_play=False)
        assert bd.words[0].word == "PANEL"
        assert bd.total == 3 * 2 + 1 + 2 + 1 + 2

    def test_two_double_words_multiply_by_4(self) -> None:
        # F6 and L6 are both 2P.
        bd = score_play(board_with([]), placements(board_with([]), "6F CONTARE"), first_play=False)
        assert bd.words[0].word_mult == 4 and bd.words[0].score == 8 * 4

    def test_word_covering_an_old_double_word_is_multiplied_again(self) -> None:
        board = board_with(["6F CONTA"])  # F6 (2P) covered earlier
        bd = score_play(board, at("K6R", "L6E"), first_play=False)
        assert bd.words[0].word_mult == 4  # F6 again and L6

    def test_two_triple_words_multiply_by_9(self) -> None:
        # A1 and I1 are 3P, E1 is 2L (the R of MOTORISTA).
        bd = score_play(board_with([]), placements(board_with([]), "1A MOTORISTA"), first_play=False)
        w = bd.words[0]
        assert w.word_mult == 9
        assert w.letter_sum == 2 + 1 + 1 + 1 + 1 * 2 + 1 + 1 + 1 + 1
        assert w.score == 11 * 9

    def test_three_triple_words_multiply_by_27(self) -> None:
        bd = score_play(board_with([]), placements(board_with([]), "1A AAAAAAAAAAAAAAAAA"),
                        first_play=False)
        assert bd.words[0].word_mult == 27

    def test_premiums_listed_in_the_breakdown(self) -> None:
        bd = score_play(board_with([]), placements(board_with([]), "1A MOTORISTA"), first_play=False)
        assert bd.words[0].premiums == ["3P@A1", "2L@E1", "3P@I1"]


class TestScarabs:
    def test_a_scarab_is_worth_its_letter(self) -> None:
        plain = score_play(board_with(["9H AI"]), at("H8Z"), first_play=False)
        wild = score_play(board_with(["9H AI"]), at("H8z"), first_play=False)
        assert plain.words_total == wild.words_total

    def test_scarab_already_on_the_board_keeps_its_value(self) -> None:
        bd = score_play(board_with(["9H qI"]), at("H8A"), first_play=False)
        assert bd.total == 1 * 2 + 10  # H8 2L under A, Q (scarab) worth 10


class TestBonuses:
    def test_first_play_doubled_before_bonuses(self) -> None:
        board = board_with([])
        bd = score_play(board, placements(board, "9E SCARABEO"))
        # 11 ×2 = 22; 8 tiles +50+10; SCARABEO +100+10.
        assert bd.words_total == 22
        assert [(b.code, b.points) for b in bd.bonuses] == [("tiles-8", 60), ("scarabeo", 110)]
        assert bd.total == 192

    def test_bonuses_without_the_extra_ten_when_the_main_word_has_a_scarab(self) -> None:
        board = board_with([])
        bd = score_play(board, placements(board, "9E SCARAbEI"))
        assert [(b.code, b.points) for b in bd.bonuses] == [("tiles-8", 50), ("scarabeo", 100)]
        assert bd.total == 2 * (1 + 1 + 1 + 1 + 1 + 4 + 1 + 1) + 150

    def test_six_and_seven_tile_bonuses(self) -> None:
        b6 = score_play(board_with([]), placements(board_with([]), "9I TARATA"))
        assert [(b.code, b.points) for b in b6.bonuses] == [("tiles-6", 20)]
        b7 = score_play(board_with([]), placements(board_with([]), "9I TARATAe"))
        assert [(b.code, b.points) for b in b7.bonuses] == [("tiles-7", 30)]

    def test_five_tiles_no_bonus(self) -> None:
        bd = score_play(board_with([]), placements(board_with([]), "9I TARTA"))
        assert bd.bonuses == ()

    def test_old_scarab_in_the_main_word_cancels_the_extra(self) -> None:
        board = board_with(["I9 eR"])  # a scarab standing for E on I9
        bd = score_play(board, placements(board, "9E CANTeRA"), first_play=False)
        assert bd.tiles_placed == 6
        assert [(b.code, b.points) for b in bd.bonuses] == [("tiles-6", 10)]

    def test_scarab_only_in_a_cross_word_keeps_the_extra(self) -> None:
        board = board_with(["I9 ea"])  # I9 scarab E, I10 scarab A
        bd = score_play(board, placements(board, "11F CORTILE"), first_play=False)
        assert bd.tiles_placed == 7 and not bd.words[0].has_scarab
        assert [(b.code, b.points) for b in bd.bonuses] == [("tiles-7", 40)]

    def test_score_is_the_sum_of_words_plus_bonuses(self) -> None:
        board = board_with(["9E SCONTARE", "F9 CANNA"])
        bd = score_play(board, placements(board, "E9 STAMPA"))
        assert bd.total == sum(w.score for w in bd.words) + bd.bonus
        assert bd.to_json()["score"] == bd.total


class TestSingleTile:
    def test_completing_scarabeo_gets_the_bonus_whichever_way_it_is_written(self) -> None:
        # SCARABE. down column I from I2, and an A at J9 so the O at I9 also forms OA across.
        board = board_with(["I2 SCARABE", "J9 AL"])
        for across in (True, False, None):
            bd = score_play(board, at("I9O"), across=across, first_play=False)
            assert bd.words[0].word == "SCARABEO" and bd.words[0].main
            assert [(b.code, b.points) for b in bd.bonuses] == [("scarabeo", 110)]

    def test_the_longer_word_is_the_main_one_for_placements(self) -> None:
        board = board_with(["I5 CANT", "J9 AL"])
        bd = score_play(board, at("I9O"), first_play=False)
        assert bd.words[0].word == "CANTO" and [w.word for w in bd.words] == ["CANTO", "OA"]
