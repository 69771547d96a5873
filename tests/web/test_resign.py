"""Issue 42: resigning against the computer (``Session.resign``): the game ends as the person's loss,
the save, the Continue list, a reopened game and the statistics keep it."""

from __future__ import annotations

from itertools import count

import pytest

from game.core import Rng
from web.platform import engines, stats
from web.platform.i18n import Messages, load_catalogue
from web.platform.session import RESIGNED, Seat, Session, listing, save_facts
from web.platform.storage import MemoryStore, SaveStore

T = Messages(load_catalogue(), "en")


def store() -> SaveStore:
    ticks, ids = count(1), count(1)
    return SaveStore(MemoryStore(), clock=lambda: next(ticks), new_id=lambda: f"s{next(ids)}",
                     validate_state=engines.validate_state)


def against_computer(s: SaveStore, game: str = "thot", players: int = 2) -> Session:
    options = {"players": players}
    seats = [Seat("You")] + [Seat(f"Computer ({lv})", True, 2) for lv in ("intermediate", "beginner", "expert")][:players - 1]
    session = Session.create(s, game, options, 7, seats, "test")
    rng = Rng(3)
    for _ in range(4):  # a few moves, the computer's among them
        session.play_move(rng.choice(list(session.state.legal_moves())))
    return session


@pytest.mark.parametrize("game", ["thot", "scarabya"])
def test_resigning_ends_the_game_as_the_person_s_loss(game: str) -> None:
    s = store()
    session = against_computer(s, game)
    assert session.resigner() == 0 and not session.over()
    moves = len(session.state.history())
    session.resign()
    assert session.resigned == 0 and session.over() and not session.state.is_over()
    assert session.winners() == [1]
    assert session.resigner() is None  # once only
    assert session.computer_to_move() and session.seat_to_move() is None  # nobody plays on, no input
    assert session.take_back_count() == 0
    with pytest.raises(ValueError):
        session.resign()
    # the save keeps it: reopened, the game is still resigned, after the same moves
    again = Session.open(s, session.save.id)
    assert again.resigned == 0 and again.over() and len(again.state.history()) == moves
    assert again.record().meta[RESIGNED] == {"seat": 0, "moves": moves}
    facts = save_facts(again.save.state)
    assert facts is not None and facts.over and facts.to_move is None
    assert listing(T, game, again.save.title, again.save.state).line.endswith("game over")


def test_the_statistics_count_a_loss() -> None:
    s = store()
    session = against_computer(s)
    session.resign()
    summary = stats.summarise(session.record(), engines.factory("thot"), session.resigned)
    assert summary["winners"] == [1]
    assert summary["scores"] == [int(x) for x in session.state.view()["scores"]]
    assert len(summary["timeline"]) == len(session.state.history()) + 1
    data = stats.empty()
    assert stats.record_game(data, session.save.id, "thot", [x.name for x in session.seats], summary, 1)
    you = data["players"]["you"]["games"]["thot"]
    assert (you["played"], you["won"], you["lost"]) == (1, 0, 1)
    assert you["results"][-1]["result"] == "loss"
    computer = data["players"]["computer (intermediate)"]["games"]["thot"]
    assert (computer["won"], computer["lost"]) == (1, 0)
    # counted once, however often the page asks
    assert not stats.record_game(data, session.save.id, "thot", [x.name for x in session.seats], summary, 2)


def test_several_computers_win_together() -> None:
    session = against_computer(store(), "thot", players=4)
    session.resign()
    assert session.winners() == [1, 2, 3]


def test_who_may_resign() -> None:
    s = store()
    people = Session.create(s, "thot", {"players": 2}, 7, [Seat("Ada"), Seat("Bo")], "people")
    assert people.resigner() is None  # pass-and-play: no one against the computer
    solo = Session.create(s, "scarabya", {"players": 1}, 7, [Seat("You")], "solo")
    assert solo.resigner() is None  # alone: nobody to resign to
    daily = against_computer(s)
    daily.meta["daily"] = {"game": "thot"}
    assert daily.resigner() is None  # a daily challenge has its own way out (show the answer)
    watched = against_computer(s)
    watched.meta["replay"] = True
    assert watched.resigner() is None


def test_a_resignation_naming_no_seat_is_none() -> None:
    session = against_computer(store())
    for bad in ({"seat": 5}, {"seat": "0"}, {"seat": True}, "0", None):
        session.meta[RESIGNED] = bad
        assert session.resigned is None and not session.over()
