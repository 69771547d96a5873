"""Every event in words (web/platform/events.py), in Italian and English, from real engine results;
the catalogue's event texts (same placeholders and forms in both languages); one minus sign."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from game.scarabeo import Accept, Challenge, Pass, ScarabeoState, Vote
from game.scarabeo.moves import Exchange
from game.scarabya import DISCARD
from game.scarabya.moves import parse_move as scarabya_move
from game.scarabya.ruins import RuinsState, parse_piece_move
from game.thot.board import ROW
from web.platform import events
from web.platform.i18n import MINUS, Messages, load_catalogue, signed
from web.platform.session import Seat

from tests.scarabeo.helpers import state_with
from tests.scarabya.helpers import row_squares, with_open
from tests.thot.helpers import build

CATALOGUE = load_catalogue()
WORDS = ["CONTARE", "ORA", "RE"]
NAMES = ["Anna", "Computer (expert)", "Carla"]


class Strict(Messages):
    """The real catalogue, failing on a key it does not hold (the page would show the bare key)."""

    def __call__(self, key: str, **params: object) -> str:
        assert key in self.catalogue, f"missing message {key}"
        text = super().__call__(key, **params)
        assert not re.search(r"\{\w+\}", text), f"{key}: a placeholder left unfilled in {text!r}"
        return text


T = {lang: Strict(CATALOGUE, lang) for lang in ("it", "en")}


def say(lang: str, result: Any, state: Any, game: str = "scarabeo", you: int | None = None,
        names: list[str] = NAMES) -> str:
    return events.describe(T[lang], game, state, result, names, you).text


# --- Scarabeo -----------------------------------------------------------------------------------
class TestScarabeo:
    def test_a_play_with_word_square_and_score(self) -> None:
        s = state_with([], "CONTAREB", WORDS, others=("ABCDEFGH",))
        r = s.push(s.parse_move("9F CONTARE"))
        assert say("en", r, s) == "Anna played CONTARE at 9F for 56 points."
        assert say("it", r, s) == "Anna ha giocato CONTARE in 9F per 56 punti."
        assert events.describe(T["en"], "scarabeo", s, r, NAMES).notation == "9F CONTARE"

    def test_the_reader_is_spoken_to(self) -> None:
        s = state_with([], "CONTAREB", WORDS, others=("ABCDEFGH",))
        r = s.push(s.parse_move("9F CONTARE"))
        assert say("en", r, s, you=0) == "You played CONTARE at 9F for 56 points."
        assert say("it", r, s, you=0) == "Hai giocato CONTARE in 9F per 56 punti."

    def test_a_scarab_swap(self) -> None:
        # the scarab on the board stands for the E of CONTARE; the player holds an E and takes it
        s = state_with(["9F CONTARe"], "ERAILNOS", WORDS + ["ERA"], others=("ABCDEFGH",))
        move = next(m for m in s.legal_moves() if getattr(m, "swaps", ()) and type(m).__name__ == "Pass")
        r = s.push(move)
        assert say("en", r, s) == "Anna passed, taking the scarab at L9."
        assert say("it", r, s) == "Anna ha passato, prendendo lo scarabeo in L9."

    def test_an_exchange_and_a_pass(self) -> None:
        s = state_with([], "AEIOUAEI", WORDS, others=("BCDFGLMN",))
        exchanges = [m for m in s.legal_moves() if isinstance(m, Exchange) and not m.swaps]
        r = s.push(max(exchanges, key=lambda m: len(m.tiles)))
        n = len(r.move.tiles)
        assert say("en", r, s) == f"Anna exchanged {n} tiles."
        assert say("it", r, s) == f"Anna ha cambiato {n} tessere."
        r = s.push(Pass())
        assert say("en", r, s) == "Computer (expert) passed."
        assert say("it", r, s) == "Computer (expert) ha passato."
        r = s.push(Pass())
        assert say("en", r, s, you=0) == "You passed."
        assert say("it", r, s, you=0) == "Hai passato."

    def test_a_time_out(self) -> None:
        s = state_with([], "CONTAREB", WORDS, others=("ABCDEFGH",))
        r = s.push(Pass())
        from dataclasses import replace

        r = replace(r, note="time-out")
        assert say("en", r, s) == "Anna ran out of time: the turn passes."
        assert say("it", r, s, you=0) == "Tempo scaduto: il tuo turno passa."

    def test_a_challenge_upheld_and_one_that_fails(self) -> None:
        s = state_with([], "CONTAREB", WORDS, others=("ABCDEFGH",), check_mode="challenge")
        r = s.push(s.parse_move("9F CONTRAB"))
        assert say("en", r, s) == (f"Anna played CONTRAB at 9F for {r.score} points. "
                                   "It may be challenged before the next move.")
        c = s.push(Challenge(1))
        assert say("en", c, s) == ("Computer (expert) challenged CONTRAB: upheld, the play is taken back "
                                   "(CONTRAB is not in the lexicon).")
        assert say("it", c, s) == ("Computer (expert) ha contestato CONTRAB: contestazione accolta, la giocata "
                                   "è ritirata (CONTRAB non è nel lessico).")
        s = state_with([], "CONTAREB", WORDS, others=("ABCDEFGH",), check_mode="challenge")
        s.push(s.parse_move("9F CONTARE"))
        c = s.push(Challenge(1))
        assert say("en", c, s, you=1) == "You challenged CONTARE: failed, the play stands."
        assert say("it", c, s) == "Computer (expert) ha contestato CONTARE: contestazione respinta, la giocata resta."
        s = state_with([], "CONTAREB", WORDS, others=("ABCDEFGH",), check_mode="challenge")
        s.push(s.parse_move("9F CONTARE"))
        a = s.push(Accept())
        assert say("en", a, s) == "The play CONTARE is accepted."
        assert say("it", a, s) == "La giocata CONTARE è accettata."

    def test_votes_accepted_and_rejected(self) -> None:
        s = state_with([], "CONTAREB", WORDS, others=("ABCDEFGH", "ILMNOPQS"), check_mode="vote")
        r = s.push(s.parse_move("9F CONTRAB"))
        assert say("en", r, s).endswith("The table votes on its words.")
        v = s.push(Vote("YNN"))
        assert say("en", v, s) == ("Vote on CONTRAB: rejected (1 for, 2 against); the play CONTRAB is taken "
                                   "back and Anna plays again.")
        assert say("it", v, s, you=0) == ("Voto su CONTRAB: respinta (1 a favore, 2 contro); la giocata CONTRAB "
                                          "è ritirata e tocca di nuovo a te.")
        s = state_with([], "CONTAREB", WORDS, others=("ABCDEFGH", "ILMNOPQS"), check_mode="vote")
        s.push(s.parse_move("9F CONTRAB"))
        v = s.push(Vote("YYN"))
        assert say("en", v, s) == "Vote on CONTRAB: accepted (2 for, 1 against); the play CONTRAB stands."
        assert say("it", v, s) == "Voto su CONTRAB: accettata (2 a favore, 1 contro); la giocata CONTRAB resta."

    def test_a_contest_in_vote_mode(self) -> None:
        s = state_with([], "CONTAREB", WORDS, others=("ABCDEFGH", "ILMNOPQS"), check_mode="vote")
        s.push(s.parse_move("9F CONTARE"))
        c = s.push(Challenge(2))
        assert say("en", c, s) == "Carla contested CONTARE: the table votes on CONTARE."
        assert say("it", c, s) == "Carla ha contestato CONTARE: si vota su CONTARE."

    def test_the_last_move_says_game_over(self) -> None:
        s = state_with([], "CONTAREB", WORDS, others=("ABCDEFGH",))
        r = None
        while not s.is_over():
            r = s.push(Pass())
        assert say("en", r, s).endswith("passed. Game over.")
        assert say("it", r, s).endswith("ha passato. Partita finita.")


# --- Thot ---------------------------------------------------------------------------------------
class TestThot:
    def test_a_capture(self) -> None:
        s = build({"C1": "+3", "C5": "-2"}, "A1", axis=ROW)
        r = s.push(s.parse_move("C1"))
        assert say("en", r, s, "thot") == "Anna moved the priest to C1 and took a +3 scarab."
        assert say("it", r, s, "thot") == "Anna ha portato il sacerdote in C1 e ha preso uno scarabeo +3."

    def test_a_negative_capture_has_the_minus_sign(self) -> None:
        s = build({"C1": "-2", "C5": "+1"}, "A1", axis=ROW)
        r = s.push(s.parse_move("C1"))
        assert say("en", r, s, "thot", you=0) == f"You moved the priest to C1 and took a {MINUS}2 scarab."

    def test_an_ankh_and_a_drop(self) -> None:
        s = build({"C1": "A", "C5": "+1"}, "A1", axis=ROW, collections=[["-8", "+5"], []])
        r = s.push(s.parse_move("C1@E5:-8"))
        assert say("en", r, s, "thot") == (f"Anna moved the priest to C1, took the ankh and put a {MINUS}8 scarab "
                                           "back on E5.")
        assert say("it", r, s, "thot") == (f"Anna ha portato il sacerdote in C1, ha preso l'ankh e ha rimesso uno "
                                           f"scarabeo {MINUS}8 in E5.")
        s = build({"C1": "A", "C5": "+1"}, "A1", axis=ROW, collections=[["-8"], []])
        r = s.push(s.parse_move("C1"))
        assert say("en", r, s, "thot") == "Anna moved the priest to C1 and took the ankh."
        assert say("it", r, s, "thot", you=0) == "Hai portato il sacerdote in C1 e hai preso l'ankh."


# --- Scarabya -----------------------------------------------------------------------------------
class TestScarabya:
    def test_a_placement_that_closes_areas(self) -> None:
        s = with_open(["A3"] + row_squares(3, 1, 5) + ["G3", "H3"])
        r = s.push(scarabya_move("I0@B3"))
        tile = r["tile"]
        assert say("en", r, s, "scarabya") == f"Anna placed tile {tile} at B3 and closed 2 areas: 5 points."
        assert say("it", r, s, "scarabya", you=0) == f"Hai posato la tessera {tile} in B3 e hai chiuso 2 aree: 5 punti."

    def test_a_placement_that_closes_nothing(self) -> None:
        area = row_squares(3, 0, 5)
        s = with_open(area + row_squares(3, 5, 5))
        r = s.push(scarabya_move("I0@F3"))
        assert say("en", r, s, "scarabya") == "Anna placed tile I at F3."
        assert say("it", r, s, "scarabya") == "Anna ha posato la tessera I in F3."

    def test_a_tile_that_does_not_fit(self) -> None:
        s = with_open(["A1", "B1", "A2", "C1"])
        r = s.push(DISCARD)
        assert say("en", r, s, "scarabya") == f"Anna discarded tile {r['tile']}: it fits nowhere."
        assert say("it", r, s, "scarabya") == f"Anna ha scartato la tessera {r['tile']}: non entra da nessuna parte."

    def test_the_ruins_piece_and_the_round_end(self) -> None:
        from tests.scarabya.test_ruins import game

        s: RuinsState = game()
        r = s.push(parse_piece_move("2I0@A1"))
        assert say("en", r, s, "scarabya") == "Anna placed piece 2I at A1."
        assert say("it", r, s, "scarabya") == "Anna ha posato il pezzo 2I in A1."
        rnd = s.round_index
        while s.round_index == rnd:
            r = s.push(s.legal_moves()[0])
        text = say("en", r, s, "scarabya")
        assert f"End of round {rnd + 1}: " in text
        won = [e for e in r["scored"] if e["seat"] is not None]
        if won:
            assert f"zone {won[0]['zone']} to {NAMES[won[0]['seat']]}" in text
        else:
            assert text.endswith("no zone won.")


# --- names and levels -----------------------------------------------------------------------------
class TestNamesAndLevels:
    def test_one_ladder_for_every_game(self) -> None:
        for game, rungs in events.RUNGS.items():
            assert set(rungs.values()) <= set(events.LADDER), game
            # weakest first: the ladder's order is kept by every game's levels
            ranks = [events.LADDER.index(rungs[level]) for level in sorted(rungs)]
            assert ranks == sorted(ranks) and len(set(ranks)) == len(ranks), game
        assert events.computer_name(T["en"], "scarabeo", 3) == "Computer (expert)"
        assert events.computer_name(T["it"], "scarabeo", 3) == "Computer (esperto)"
        assert events.computer_name(T["en"], "thot", 3) == "Computer (champion)"
        assert events.computer_name(T["it"], "scarabya", 1) == "Computer (principiante)"

    def test_every_game_view_level_is_on_the_ladder(self) -> None:
        from game.scarabeo import ai
        from game.scarabya.solver import LEVELS as SCARABYA
        from game.thot.search import LEVELS as THOT

        assert set(events.RUNGS["thot"]) == set(THOT)
        assert set(events.RUNGS["scarabya"]) == set(SCARABYA)
        assert set(events.RUNGS["scarabeo"]) == {int(k) for k in ai.ALIASES if k.isdigit()}

    def test_a_computer_seat_is_never_player_2(self) -> None:
        seats = [Seat("Anna"), Seat("Player 2", True, 3), Seat("Giocatore 3", True, 1), Seat("HAL", True, 4)]
        assert events.seat_names(T["en"], "scarabeo", seats) == [
            "Anna", "Computer (expert)", "Computer (beginner)", "HAL"]
        assert events.seat_names(T["it"], "scarabeo", seats)[1] == "Computer (esperto)"

    def test_you_is_the_only_person_named_you(self) -> None:
        assert events.you_seat(T["en"], [Seat("You"), Seat("Computer", True)]) == 0
        assert events.you_seat(T["it"], [Seat("Tu"), Seat("Computer", True)]) == 0
        assert events.you_seat(T["en"], [Seat("Anna"), Seat("Computer", True)]) is None
        assert events.you_seat(T["en"], [Seat("You"), Seat("You")]) is None


# --- the catalogue and the minus sign ------------------------------------------------------------
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def test_event_texts_have_the_same_placeholders_and_forms_in_both_languages() -> None:
    keys = [k for k in CATALOGUE if k.startswith(("events.", "level.", "computer."))]
    assert keys
    for key in keys:
        entry = CATALOGUE[key]
        assert set(PLACEHOLDER.findall(entry["it"])) == set(PLACEHOLDER.findall(entry["en"])), key
        for a, b in ((".one", ".other"), (".other", ".one")):
            if key.endswith(a):
                assert key[: -len(a)] + b in CATALOGUE, f"{key} without its {b} form"
    for rung in events.LADDER:
        assert f"level.{rung}" in CATALOGUE


def test_every_event_key_the_module_names_exists() -> None:
    source = Path(events.__file__).read_text(encoding="utf-8")
    named = set(re.findall(r'"((?:events|level|computer)\.[\w.]+)"', source))
    for key in named:
        forms = [k for k in CATALOGUE if k == key or k.startswith(key + ".")]
        assert forms, f"{key} is not in the catalogue"


@pytest.mark.parametrize("n, plus, shown", [(-14, True, "\u221214"), (-1, False, "\u22121"), (3, True, "+3"),
                                            (3, False, "3"), (0, True, "0"), (-0.5, True, "\u22120.5")])
def test_one_minus_sign(n: float, plus: bool, shown: str) -> None:
    assert signed(n, plus) == shown


def test_no_shown_negative_number_uses_the_hyphen_minus() -> None:
    # a negative score said in words: a vote rejected takes points away
    s = state_with([], "CONTAREB", WORDS, others=("ABCDEFGH", "ILMNOPQS"), check_mode="vote")
    s.push(s.parse_move("9F CONTRAB"))
    assert events.points(T["en"], -56) == "\u221256 points"
    result = s.push(Vote("YNN"))
    for lang in ("it", "en"):
        assert not re.search(r"(?<![\w])-\d", say(lang, result, s))
    # the views format signed numbers with i18n.signed, never with a "+d"/"+g" format of their own
    web = Path(events.__file__).parents[1]
    offenders = [f"{p.relative_to(web.parent)}:{i}" for p in web.rglob("*.py")
                 for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
                 if re.search(r"\{[^{}]*:\+[dg]\}", line)]
    assert offenders == [], offenders


def test_person_and_plural_forms() -> None:
    t = T["en"]
    assert t.form("events.points", n=1) == "1 point"
    assert t.form("events.points", n=-1) == "\u22121 point"
    assert t.form("events.scarabeo.exchange", you=True, n=2, swaps="") == "You exchanged 2 tiles."
    assert T["it"].form("events.scarabeo.exchange", you=False, n=1, name="Anna", swaps="") == "Anna ha cambiato 1 tessera."


def test_scarabeo_state_names_unused() -> None:
    # the names shown come from the seats, not from the engine's own (English) labels
    s = ScarabeoState.new(2, seed=1, names=["A", "B"])
    r = s.push(Pass())
    assert "B" not in say("en", r, s, names=["Anna", "Bruno"])


def test_every_plural_and_person_form_has_its_pair() -> None:
    # the whole catalogue: "1 days played" came from a text with no singular form
    for key in CATALOGUE:
        if key.endswith(".one"):  # a unit's plural is its plain key ("review.unit.points")
            assert any(key[:-4] + form in CATALOGUE for form in (".other", ".many", "")), key
        base = key[:-4]
        if key.endswith(".you") and base in CATALOGUE:  # a person form says what its base says, to "you"
            for lang in ("it", "en"):
                assert set(PLACEHOLDER.findall(CATALOGUE[key][lang])) <= set(PLACEHOLDER.findall(CATALOGUE[base][lang])), key
    t = T["en"]
    assert t.plural("daily.chart.desc", 1, played=1, current=1, best=1).startswith("1 day played;")
    assert t.plural("daily.result.thot", 1, score="1", best="3", percent=33).startswith("You gained a margin of 1 point;")
    assert T["it"].plural("daily.top.item", 1, move="C5", score="1") == "C5 — 1 punto"
    assert t.form("scarabya.site.of", you=True, name="You") == "Your site"
    assert T["it"].form("play.winner", you=True, name="Tu") == "Hai vinto"
    assert t.form("thot.collection.of", you=False, name="Anna") == "Anna's scarabs"


def test_one_date_format_per_language() -> None:
    import datetime

    from web.platform.i18n import date_text

    day = datetime.date(2026, 12, 2)
    assert date_text(day, "en") == "2 Dec 2026"
    assert date_text(day, "it") == "2 dic 2026"


def test_sentence_case() -> None:
    from web.platform.i18n import sentence

    assert sentence("claims 2 of 4 squares of zone 3") == "Claims 2 of 4 squares of zone 3."
    assert sentence("Done.") == "Done." and sentence("") == ""


def test_the_old_per_game_level_names_are_gone() -> None:
    # one ladder: the names shown come from level.<rung>, never from a game's own list
    assert not [k for k in CATALOGUE if re.fullmatch(r"(scarabeo|thot|scarabya)\.level\.\d", k)]


def test_a_title_the_site_made_is_shown_in_the_pages_language() -> None:
    from web.platform.i18n import shown_title

    assert shown_title(CATALOGUE, "Scarab — il gioco di Thot del 2 dic 2026", "thot", "en") == \
        "Scarab — the Game of Thot on 2 Dec 2026"
    assert shown_title(CATALOGUE, "Scarab — the Game of Thot on 2 Dec 2026", "thot", "it") == \
        "Scarab — il gioco di Thot del 2 dic 2026"
    assert shown_title(CATALOGUE, "Scarabeo: prima partita guidata", "scarabeo", "en") == "Scarabeo: guided first game"
    assert shown_title(CATALOGUE, "Partita con Bruno", "thot", "en") == "Partita con Bruno"  # the player's own


def test_what_is_news_to_the_player_who_moved() -> None:
    # the message line repeats a person's own move only when its outcome was not theirs to know
    s = state_with([], "CONTAREB", WORDS, others=("ABCDEFGH",), check_mode="challenge")
    play = s.push(s.parse_move("9F CONTRAB"))
    assert not events.is_outcome(play)
    assert events.is_outcome(s.push(Challenge(1)))
    from dataclasses import replace

    assert events.is_outcome(replace(s.push(Pass()), note="time-out"))
    assert not events.is_outcome({"seat": 0, "move": "C1"})  # a Thot or Scarabya move
