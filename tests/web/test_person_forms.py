"""Issue 42, "Words": every catalogue sentence that takes a name, rendered with the reader ("You",
"Tu"), one name and two names in both languages, and its person forms checked; who won said as a
person would say it (``events.winner_line``)."""

from __future__ import annotations

import re

import pytest

from web.platform import events
from web.platform.i18n import LANGUAGES, Messages, load_catalogue
from web.platform.session import Seat

CATALOGUE = load_catalogue()
T = {lang: Messages(CATALOGUE, lang) for lang in LANGUAGES}
#: Who a sentence may be about: the reader, one person, two people (as ``events.join`` says them).
YOU = {"it": "Tu", "en": "You"}
ONE = "Anna"
TWO = {"it": "Anna e Bruno", "en": "Anna and Bruno"}
#: The placeholders that stand for people.
PEOPLE = ("name", "names")
PLACEHOLDER = re.compile(r"\{(\w+)\}")
#: {name} as the subject of an English verb in the third person or the past (Italian's differs by person).
SUBJECT = re.compile(r"\{name\} (?:is|has|was|does|\w+s|\w+ed)\b")
#: Sentences with {name} as subject that are only ever said of someone other than the reader, and why:
#: a game by links or live names another device's player; only the computer thinks; only another's
#: play is challenged; a review's chart line names the seat whose lead it plots, not the reader.
OTHERS = {
    "live.here", "remote.invitation", "remote.event.vote", "remote.event.move", "remote.event.join",
    "remote.event.resign", "remote.event.takeback.accepted", "remote.event.takeback.done",
    "remote.refused.takeback_waits", "remote.status.answer", "remote.refused.fork", "remote.stopped.fork",
    "remote.keys.awaited", "remote.failure.step_key", "play.thinking", "scarabeo.challenge.body.one",
    "scarabeo.challenge.body.other", "scarabeo.challenge.help.cover", "scarabeo.contest.help.cover",
    "review.chart.desc.line",
}


def base_of(key: str) -> str:
    for suffix in (".one", ".other"):
        if key.endswith(suffix):
            return key[: -len(suffix)]
    return key


def you_form(key: str) -> str | None:
    """The key's person form for the reader, if the catalogue has one ("x.you", "x.you.one")."""
    base = base_of(key)
    suffix = key[len(base):]
    for candidate in (f"{base}.you{suffix}", f"{base}.you"):
        if candidate in CATALOGUE:
            return candidate
    return None


def render(lang: str, key: str, who: str) -> str:
    text = CATALOGUE[key][lang]
    params = {p: "X" for p in PLACEHOLDER.findall(text)}
    params.update({p: who for p in PEOPLE if p in params})
    return T[lang](key, **params)


NAMED = sorted(k for k, v in CATALOGUE.items() if ".you" not in k
               and any("{" + p + "}" in v.get(lang, "") for p in PEOPLE for lang in LANGUAGES))


def test_there_are_sentences_with_names() -> None:
    assert len(NAMED) > 100


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_named_sentence_with_one_and_two_names(lang: str) -> None:
    for key in NAMED:
        for who in (ONE, TWO[lang]):
            text = render(lang, key, who)
            assert who in text, (key, text)
            assert not re.search(r"\{(?:name|names)\}", text), (key, text)
            if lang == "it":  # euphony: "ad Anna", never "a Anna"
                assert not re.search(r"(?<![\w'])a Anna", text), (key, text)


def test_a_sentence_about_the_reader_has_its_person_form() -> None:
    # "You wins", "Tu ha giocato": a {name} that is the subject of a verb needs the reader's own form
    missing = [k for k in NAMED if k not in OTHERS and SUBJECT.search(CATALOGUE[k]["en"]) and you_form(k) is None]
    assert missing == []
    assert all(k in CATALOGUE for k in OTHERS), sorted(k for k in OTHERS if k not in CATALOGUE)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_person_form_speaks_to_the_reader(lang: str) -> None:
    forms = [k for k in CATALOGUE if re.search(r"\.you(\.|$)", k)]
    assert len(forms) > 30
    for key in forms:
        text = render(lang, key, YOU[lang])
        base = key.replace(".you", "", 1)
        assert "{name}" not in CATALOGUE[key][lang] or base not in CATALOGUE, key  # the reader is not a name
        if base in CATALOGUE and lang == "it":  # Italian's verb differs by person ("Hai giocato", "Tu ha giocato")
            assert text != render(lang, base, YOU[lang]), key
        if lang == "en" and "{name}" in CATALOGUE.get(base, {}).get("en", ""):  # the name becomes "you"
            assert re.search(r"\b(you|your|yours)\b", text, re.I), (key, text)
        if lang == "en":
            assert not re.search(r"\bYou (?:is|has|was|does|wins|plays|scores)\b", text), (key, text)
        else:
            assert not re.search(r"\bTu (?:ha|è|vince|gioca)\b", text), (key, text)


SEATS = [Seat("You", False), Seat("Computer (intermediate)", True, 2)]


@pytest.mark.parametrize(("lang", "winner", "game", "said"), [
    ("en", 0, "scarabeo", "You win"), ("it", 0, "scarabeo", "Hai vinto"),
    ("en", 1, "scarabeo", "The computer (intermediate) wins"),
    ("it", 1, "scarabeo", "Ha vinto il computer (intermedio)"),
    ("it", 1, "thot", "Ha vinto il computer (intermedio)"),
    ("en", 1, "scarabya", "The computer (intermediate) wins"),
])
def test_who_won_as_a_person_says_it(lang: str, winner: int, game: str, said: str) -> None:
    seats = [Seat(YOU[lang], False), SEATS[1]]
    assert events.winner_line(T[lang], game, seats, winner) == said


def test_who_won_between_named_people() -> None:
    seats = [Seat("Anna"), Seat("Bruno")]
    assert events.winner_line(T["en"], "thot", seats, 1) == "Bruno wins"
    assert events.winner_line(T["it"], "thot", seats, 0) == "Ha vinto Anna"
    # a computer the player named is called by that name
    named = [Seat("Anna"), Seat("Hal", True, 3)]
    assert events.winner_line(T["it"], "scarabeo", named, 1) == "Ha vinto Hal"
    # "You" names the reader only when they are the one person at the table
    two = [Seat("You"), Seat("Bruno", True, 2)]
    assert events.winner_line(T["en"], "thot", two, 0) == "You win"
    assert events.winner_line(T["en"], "thot", [Seat("You"), Seat("Bruno"), Seat("Carla")], 1) == "Bruno wins"


@pytest.mark.parametrize(("lang", "key", "you", "said"), [
    ("en", "scarabeo.end.closed", True, "You closed the game and receive the other racks' value."),
    ("it", "scarabeo.end.closed", True, "Hai chiuso la partita: ricevi il valore dei leggii altrui."),
    ("en", "scarabya.end.solo", True, "You scored 43 points."),
    ("en", "scarabya.end.solo", False, "Player 1 scored 43 points."),
    ("it", "scarabya.end.solo", False, "Giocatore 1 ha totalizzato 43 punti."),
    ("it", "review.played", True, "Hai giocato X"),
    ("en", "thot.end.reason.no-move", True, "You have no move: the game ends."),
    ("it", "scarabeo.vote.abstains", True, "Ti astieni (giocata tua)."),
])
def test_the_reader_s_forms(lang: str, key: str, you: bool, said: str) -> None:
    name = "Giocatore 1" if lang == "it" else "Player 1"
    n = 43 if key == "scarabya.end.solo" else None
    assert T[lang].form(key, you=you, n=n, name=name, move="X") == said


def test_payments_said_to_the_reader() -> None:
    en, it = T["en"], T["it"]
    assert en("scarabeo.end.pays.you", winner="Computer (expert)", amount=12) == "You pay Computer (expert) 12"
    assert en("scarabeo.end.pays.to_you", loser="Anna", amount=12) == "Anna pays you 12"
    assert it("scarabeo.end.pays.you", winner="Anna", amount=12) == "Paghi 12 ad Anna"
    assert it("scarabeo.end.pays.to_you", loser="Anna", amount=12) == "Anna ti paga 12"
