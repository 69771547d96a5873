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


# --- every event kind, in both languages ----------------------------------------------------------
# Each case makes a real engine result and says it with the messages given; EVERY_KIND holds what
# it must read in English and in Italian. test_every_event_text_is_said_by_a_case checks that the
# cases together use every "events.*" text of the catalogue, in both languages: a new kind of
# event needs its case here.
def _scarabeo(words: list[str], rack: str, others: tuple[str, ...] = ("ABCDEFGH",),
              check_mode: str = "dictionary") -> ScarabeoState:
    return state_with(words, rack, WORDS + ["ERA", "CORE"], others=others, check_mode=check_mode)


def _play_with_swaps(t: Messages, move: str, you: int | None) -> str:
    # the board's scarabs stand for the E at L9 and the O at F10; the player holds both letters
    s = _scarabeo(["9F CONTARe", "F9 CoRE"], "EOAIRSTN")
    return events.describe(t, "scarabeo", s, s.push(s.parse_move(move)), NAMES, you).text


def _exchange(t: Messages) -> str:
    # the whole rack goes back (an exchange with a scarab on the rack, so after a swap, is refused)
    s = _scarabeo([], "AEIOUAEI")
    move = next(m for m in s.legal_moves() if isinstance(m, Exchange))
    return events.describe(t, "scarabeo", s, s.push(move), NAMES, None).text


def _refused(t: Messages, you: int | None, play: str = "10F AB") -> str:
    # 10F AB under CONTARE makes AB, CA and OB: three words the lexicon lacks
    s = _scarabeo(["9F CONTARE"] if play == "10F AB" else [], "ABEIOUAE" if play == "10F AB" else "CONTAREB",
                  check_mode="challenge")
    s.push(s.parse_move(play))
    return events.describe(t, "scarabeo", s, s.push(Challenge(1)), NAMES, you).text


def _pending(t: Messages, mode: str) -> str:
    s = _scarabeo(["9F CONTARE"], "ABEIOUAE", others=("ABCDEFGH", "ILMNOPQS"), check_mode=mode)
    return events.describe(t, "scarabeo", s, s.push(s.parse_move("10F AB")), NAMES).text


def _vote(t: Messages, votes: str, you: int | None = None, play: str = "10F AB") -> str:
    s = _scarabeo(["9F CONTARE"] if play == "10F AB" else [], "ABEIOUAE" if play == "10F AB" else "CONTAREB",
                  others=("ABCDEFGH", "ILMNOPQS"), check_mode="vote")
    s.push(s.parse_move(play))
    return events.describe(t, "scarabeo", s, s.push(Vote(votes)), NAMES, you).text


def _contested(t: Messages, you: int | None) -> str:
    s = _scarabeo([], "CONTAREB", others=("ABCDEFGH", "ILMNOPQS"), check_mode="vote")
    s.push(s.parse_move("9F CONTARE"))
    return events.describe(t, "scarabeo", s, s.push(Challenge(2)), NAMES, you).text


def _failed(t: Messages, you: int | None) -> str:
    s = _scarabeo([], "CONTAREB", check_mode="challenge")
    s.push(s.parse_move("9F CONTARE"))
    return events.describe(t, "scarabeo", s, s.push(Challenge(1)), NAMES, you).text


def _accepted(t: Messages) -> str:
    s = _scarabeo([], "CONTAREB", check_mode="challenge")
    s.push(s.parse_move("9F CONTARE"))
    return events.describe(t, "scarabeo", s, s.push(Accept()), NAMES).text


def _pass_with_swap(t: Messages, you: int | None) -> str:
    s = _scarabeo(["9F CONTARe"], "ERAILNOS")
    move = next(m for m in s.legal_moves() if isinstance(m, Pass) and m.swaps)
    return events.describe(t, "scarabeo", s, s.push(move), NAMES, you).text


def _time_out(t: Messages, you: int | None) -> str:
    from dataclasses import replace

    s = _scarabeo([], "CONTAREB")
    return events.describe(t, "scarabeo", s, replace(s.push(Pass()), note="time-out"), NAMES, you).text


def _game_over(t: Messages) -> str:
    s = _scarabeo([], "CONTAREB")
    result = None
    while not s.is_over():
        result = s.push(Pass())
    return events.describe(t, "scarabeo", s, result, NAMES).text


def _thot(t: Messages, pieces: dict[str, str], move: str, you: int | None = None,
          collections: list[list[str]] | None = None, turnoff: bool = False) -> str:
    s = build(pieces, "A1", axis=ROW, collections=collections, turnoff=turnoff)
    return events.describe(t, "thot", s, s.push(s.parse_move(move)), NAMES, you).text


def _scarabya(t: Messages, open_names: list[str], move: str, you: int | None = None) -> str:
    s = with_open(open_names)
    return events.describe(t, "scarabya", s, s.push(scarabya_move(move)), NAMES, you).text


def _ruins(t: Messages, moves: list[str], you: int | None = None) -> str:
    from tests.scarabya.test_ruins import game

    s: RuinsState = game()
    result = None
    for move in moves:
        result = s.push(parse_piece_move(move))
    return events.describe(t, "scarabya", s, result, NAMES, you).text


# round 1 of tests.scarabya.test_ruins.game(): Anna alone covers zone 1 (A1-B2); in the other
# round nobody covers a zone alone
RUINS_ZONE_WON = ["2I0@A1", "2I0@C1", "3I0@A2", "3I0@D2", "3L0@A3", "3L0@C3", "4I0@A5", "4I0@A6", "4O0@E3",
                  "4O0@E5"]
RUINS_NO_ZONE = ["4L7@E4", "4L7@C4", "4S5@A4", "4S5@A2", "4T3@E1", "4T3@C1", "3L0@A1", "2I1@F5", "2I1@D5"]

EVERY_KIND: dict[str, tuple[Any, str, str]] = {
    # Scarabeo: the "Player 2 plays *H1 *A11 D1 sV: 91 points" is a play with two swaps
    "play with swaps": (lambda t: _play_with_swaps(t, "*L9 *F10 12F ERa", None),
                        "Anna played ERA at 12F for 6 points, taking the scarabs at L9 and F10.",
                        "Anna ha giocato ERA in 12F per 6 punti, prendendo gli scarabei in L9 e F10."),
    "your play with a swap": (lambda t: _play_with_swaps(t, "*L9 12F ERA", 0),
                              "You played ERA at 12F for 6 points, taking the scarab at L9.",
                              "Hai giocato ERA in 12F per 6 punti, prendendo lo scarabeo in L9."),
    "a play that may be challenged": (lambda t: _pending(t, "challenge"),
                                      "Anna played AB at 10F for 12 points. It may be challenged before the next move.",
                                      "Anna ha giocato AB in 10F per 12 punti. Si può contestare prima della prossima "
                                      "mossa."),
    "a play put to the vote": (lambda t: _pending(t, "vote"),
                               "Anna played AB at 10F for 12 points. The table votes on its words.",
                               "Anna ha giocato AB in 10F per 12 punti. Il tavolo vota le sue parole."),
    "an exchange": (_exchange, "Anna exchanged 8 tiles.", "Anna ha cambiato 8 tessere."),
    "one tile exchanged": (lambda t: t.form("events.scarabeo.exchange", n=1, name="Anna", swaps=""),
                           "Anna exchanged 1 tile.", "Anna ha cambiato 1 tessera."),
    "your tile exchanged": (lambda t: t.form("events.scarabeo.exchange", you=True, n=1, swaps=""),
                            "You exchanged 1 tile.", "Hai cambiato 1 tessera."),
    "your tiles exchanged": (lambda t: t.form("events.scarabeo.exchange", you=True, n=8, swaps=""),
                             "You exchanged 8 tiles.", "Hai cambiato 8 tessere."),
    "a time-out": (lambda t: _time_out(t, None),
                   "Anna ran out of time: the turn passes.", "Tempo scaduto per Anna: il turno passa."),
    "your time-out": (lambda t: _time_out(t, 0),
                      "You ran out of time: the turn passes.", "Tempo scaduto: il tuo turno passa."),
    "a challenge upheld, several words": (lambda t: _refused(t, None),
                                          "Computer (expert) challenged AB: upheld, the play is taken back "
                                          "(AB, CA and OB are not in the lexicon).",
                                          "Computer (expert) ha contestato AB: contestazione accolta, la giocata è "
                                          "ritirata (AB, CA e OB non sono nel lessico)."),
    "your challenge upheld": (lambda t: _refused(t, 1),
                              "You challenged AB: upheld, the play is taken back (AB, CA and OB are not in the "
                              "lexicon).",
                              "Hai contestato AB: contestazione accolta, la giocata è ritirata (AB, CA e OB non "
                              "sono nel lessico)."),
    "a challenge upheld, one word": (lambda t: _refused(t, None, "9F CONTRAB"),
                                     "Computer (expert) challenged CONTRAB: upheld, the play is taken back "
                                     "(CONTRAB is not in the lexicon).",
                                     "Computer (expert) ha contestato CONTRAB: contestazione accolta, la giocata è "
                                     "ritirata (CONTRAB non è nel lessico)."),
    "a play accepted": (_accepted, "The play CONTARE is accepted.", "La giocata CONTARE è accettata."),
    "your pass with a swap": (lambda t: _pass_with_swap(t, 0),
                              "You passed, taking the scarab at L9.", "Hai passato, prendendo lo scarabeo in L9."),
    "a contest": (lambda t: _contested(t, None),
                  "Carla contested CONTARE: the table votes on CONTARE.",
                  "Carla ha contestato CONTARE: si vota su CONTARE."),
    "a vote accepting one word": (lambda t: _vote(t, "YYY", None, "9F CONTRAB"),
                                  "Vote on CONTRAB: accepted (3 for, 0 against); the play CONTRAB stands.",
                                  "Voto su CONTRAB: accettata (3 a favore, 0 contro); la giocata CONTRAB resta."),
    "a challenge that fails": (lambda t: _failed(t, None),
                               "Computer (expert) challenged CONTARE: failed, the play stands.",
                               "Computer (expert) ha contestato CONTARE: contestazione respinta, la giocata resta."),
    "your challenge that fails": (lambda t: _failed(t, 1),
                                  "You challenged CONTARE: failed, the play stands.",
                                  "Hai contestato CONTARE: contestazione respinta, la giocata resta."),
    "your contest": (lambda t: _contested(t, 2),
                     "You contested CONTARE: the table votes on CONTARE.",
                     "Hai contestato CONTARE: si vota su CONTARE."),
    "a vote rejecting several words": (lambda t: _vote(t, "NNN"),
                                       "Vote on AB, CA and OB: rejected (0 for, 3 against); the play AB is taken "
                                       "back and Anna plays again.",
                                       "Voto su AB, CA e OB: respinte (0 a favore, 3 contro); la giocata AB è "
                                       "ritirata e Anna rigioca."),
    "a vote rejecting your words": (lambda t: _vote(t, "NNN", 0),
                                    "Vote on AB, CA and OB: rejected (0 for, 3 against); the play AB is taken back "
                                    "and you play again.",
                                    "Voto su AB, CA e OB: respinte (0 a favore, 3 contro); la giocata AB è ritirata "
                                    "e tocca di nuovo a te."),
    "a vote accepting several words": (lambda t: _vote(t, "YYY"),
                                       "Vote on AB, CA and OB: accepted (3 for, 0 against); the play AB stands.",
                                       "Voto su AB, CA e OB: accettate (3 a favore, 0 contro); la giocata AB resta."),
    "a vote rejecting one word": (lambda t: t.form("events.scarabeo.vote.rejected", n=1, name="Anna", word="AB",
                                                   words="AB", tally=t("events.scarabeo.tally", yes=1, no=2)),
                                  "Vote on AB: rejected (1 for, 2 against); the play AB is taken back and Anna "
                                  "plays again.",
                                  "Voto su AB: respinta (1 a favore, 2 contro); la giocata AB è ritirata e Anna "
                                  "rigioca."),
    "a vote rejecting your word": (lambda t: t.form("events.scarabeo.vote.rejected", you=True, n=1, word="AB",
                                                    words="AB", tally=t("events.scarabeo.tally", yes=1, no=2)),
                                   "Vote on AB: rejected (1 for, 2 against); the play AB is taken back and you "
                                   "play again.",
                                   "Voto su AB: respinta (1 a favore, 2 contro); la giocata AB è ritirata e tocca di "
                                   "nuovo a te."),
    "the last move": (_game_over, "Computer (expert) passed. Game over.",
                      "Computer (expert) ha passato. Partita finita."),
    # Thot
    "a turning move": (lambda t: _thot(t, {"C1": "+3*", "C6": "+8", "C3": "-1", "F6": "+1"}, "C1>C6",
                                       turnoff=True),
                       "Anna moved the priest to C6 (turning on C1) and took a +8 scarab.",
                       "Anna ha portato il sacerdote in C6 (svoltando su C1) e ha preso uno scarabeo +8."),
    "your turning move": (lambda t: _thot(t, {"C1": "+3*", "C6": "-2", "C3": "-1", "F6": "+1"}, "C1>C6", 0,
                                          turnoff=True),
                          f"You moved the priest to C6 (turning on C1) and took a {MINUS}2 scarab.",
                          f"Hai portato il sacerdote in C6 (svoltando su C1) e hai preso uno scarabeo {MINUS}2."),
    "your take": (lambda t: _thot(t, {"C1": "+3", "C5": "-2"}, "C1", 0),
                  "You moved the priest to C1 and took a +3 scarab.",
                  "Hai portato il sacerdote in C1 e hai preso uno scarabeo +3."),
    "an ankh": (lambda t: _thot(t, {"C1": "A", "C5": "+1"}, "C1", None, [["-8"], []]),
                "Anna moved the priest to C1 and took the ankh.",
                "Anna ha portato il sacerdote in C1 e ha preso l'ankh."),
    "your ankh": (lambda t: _thot(t, {"C1": "A", "C5": "+1"}, "C1", 0, [["-8"], []]),
                  "You moved the priest to C1 and took the ankh.",
                  "Hai portato il sacerdote in C1 e hai preso l'ankh."),
    "an ankh and a drop": (lambda t: _thot(t, {"C1": "A", "C5": "+1"}, "C1@E5:-8", None, [["-8", "+5"], []]),
                           f"Anna moved the priest to C1, took the ankh and put a {MINUS}8 scarab back on E5.",
                           f"Anna ha portato il sacerdote in C1, ha preso l'ankh e ha rimesso uno scarabeo {MINUS}8 "
                           "in E5."),
    "your ankh and drop": (lambda t: _thot(t, {"C1": "A", "C5": "+1"}, "C1@E5:+5", 0, [["-8", "+5"], []]),
                           "You moved the priest to C1, took the ankh and put a +5 scarab back on E5.",
                           "Hai portato il sacerdote in C1, hai preso l'ankh e hai rimesso uno scarabeo +5 in E5."),
    # Scarabya
    "a placement closing one area": (lambda t: _scarabya(t, ["A3"] + row_squares(3, 1, 5) + ["G3", "H3"], "I0@D3"),
                                     "Anna placed tile I at D3 and closed an area: 3 points.",
                                     "Anna ha posato la tessera I in D3 e ha chiuso un'area: 3 punti."),
    "your placement closing one area": (lambda t: _scarabya(t, ["A3"] + row_squares(3, 1, 5) + ["G3", "H3"], "I0@D3", 0),
                                        "You placed tile I at D3 and closed an area: 3 points.",
                                        "Hai posato la tessera I in D3 e hai chiuso un'area: 3 punti."),
    "your placement closing two areas": (lambda t: _scarabya(t, ["A3"] + row_squares(3, 1, 5) + ["G3", "H3"],
                                                             "I0@B3", 0),
                                         "You placed tile I at B3 and closed 2 areas: 5 points.",
                                         "Hai posato la tessera I in B3 e hai chiuso 2 aree: 5 punti."),
    "a placement closing two areas": (lambda t: _scarabya(t, ["A3"] + row_squares(3, 1, 5) + ["G3", "H3"],
                                                          "I0@B3"),
                                      "Anna placed tile I at B3 and closed 2 areas: 5 points.",
                                      "Anna ha posato la tessera I in B3 e ha chiuso 2 aree: 5 punti."),
    "a discard": (lambda t: events.describe(t, "scarabya", (s := with_open(["A1", "B1", "A2", "C1"])),
                                            s.push(DISCARD), NAMES).text,
                  "Anna discarded tile I: it fits nowhere.",
                  "Anna ha scartato la tessera I: non entra da nessuna parte."),
    "your placement": (lambda t: _scarabya(t, row_squares(3, 0, 5) + row_squares(3, 5, 5), "I0@F3", 0),
                       "You placed tile I at F3.", "Hai posato la tessera I in F3."),
    "your discard": (lambda t: events.describe(t, "scarabya", (s := with_open(["A1", "B1", "A2", "C1"])),
                                               s.push(DISCARD), NAMES, 0).text,
                     "You discarded tile I: it fits nowhere.",
                     "Hai scartato la tessera I: non entra da nessuna parte."),
    "a round won in the Ruins": (lambda t: _ruins(t, RUINS_ZONE_WON),
                                 "Computer (expert) placed piece 4O at E5. End of round 1: zone 1 to Anna (1 point).",
                                 "Computer (expert) ha posato il pezzo 4O in E5. Fine del turno 1: zona 1 ad Anna "
                                 "(1 punto)."),
    "a round you won in the Ruins": (lambda t: _ruins(t, RUINS_ZONE_WON[:-1], 0) + " / " + _ruins(t, RUINS_ZONE_WON, 0),
                                     "You placed piece 4O at E3. / Computer (expert) placed piece 4O at E5. "
                                     "End of round 1: zone 1 to you (1 point).",
                                     "Hai posato il pezzo 4O in E3. / Computer (expert) ha posato il pezzo 4O in E5. "
                                     "Fine del turno 1: zona 1 a te (1 punto)."),
    "a round nobody won in the Ruins": (lambda t: _ruins(t, RUINS_NO_ZONE),
                                        "Anna placed piece 2I at D5. End of round 1: no zone won.",
                                        "Anna ha posato il pezzo 2I in D5. Fine del turno 1: nessuna zona "
                                        "conquistata."),
}


@pytest.mark.parametrize("kind", list(EVERY_KIND))
@pytest.mark.parametrize("lang", ["en", "it"])
def test_every_event_kind_in_words(kind: str, lang: str) -> None:
    case, en, it = EVERY_KIND[kind]
    assert case(T[lang]) == {"en": en, "it": it}[lang]


def test_every_event_text_is_said_by_a_case() -> None:
    class Recording(Strict):
        used: set[str] = set()

        def __call__(self, key: str, **params: object) -> str:
            self.used.add(key)
            return super().__call__(key, **params)

    texts = {k for k in CATALOGUE if k.startswith("events.")}
    for lang in ("en", "it"):
        t = Recording(CATALOGUE, lang)
        t.used = set()
        for case, _, _ in EVERY_KIND.values():
            case(t)
        assert texts - t.used == set(), lang
