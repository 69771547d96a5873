"""Pass-and-play sessions over real engines, saved through the envelope store."""

from __future__ import annotations

from itertools import count

import pytest

from game.core import IllegalMove
from web.session import Seat, Session
from web.storage import MemoryStore, SaveConflict, SaveStore
from web import engines


def store() -> SaveStore:
    ticks, ids = count(1), count(1)
    return SaveStore(MemoryStore(), clock=lambda: next(ticks), new_id=lambda: f"s{next(ids)}",
                     validate_state=engines.validate_state)


def thot(s: SaveStore, seats: list[Seat] | None = None) -> Session:
    return Session.create(s, "thot", {"players": 2}, 7, seats or [Seat("Ada"), Seat("Bo")], "Thot test")


class TestSession:
    def test_every_move_is_autosaved_and_resumes_exactly(self) -> None:
        s = store()
        session = thot(s)
        for _ in range(4):
            session.play(session.state.move_text(session.state.legal_moves()[0]))
        again = Session.open(s, session.save.id)
        assert again.state.position() == session.state.position()
        assert again.seats == session.seats
        assert again.save.revision == 5

    def test_illegal_move_changes_nothing(self) -> None:
        s = store()
        session = thot(s)
        before = (session.state.position(), session.save.revision)
        legal = {session.state.move_text(m) for m in session.state.legal_moves()}
        bad = next(f"{c}{r}" for c in "ABCDEFGHIJ" for r in range(1, 11) if f"{c}{r}" not in legal)
        with pytest.raises(IllegalMove):
            session.play(bad)
        assert (session.state.position(), s.load(session.save.id).revision) == before

    def test_take_back_between_people_only(self) -> None:
        s = store()
        people = thot(s)
        assert not people.can_take_back()
        start = people.state.position()
        people.play(people.state.move_text(people.state.legal_moves()[0]))
        assert people.can_take_back()
        people.take_back()
        assert people.state.position() == start
        assert Session.open(s, people.save.id).state.position() == start

        versus = thot(s, [Seat("Ada"), Seat("CPU", computer=True)])
        versus.play(versus.state.move_text(versus.state.legal_moves()[0]))
        assert versus.computer_to_move() and not versus.can_take_back()

    def test_the_engine_names_the_last_mover(self) -> None:
        s = store()
        session = thot(s)
        session.play(session.state.move_text(session.state.legal_moves()[0]))
        pushes: list[int] = []
        real_push = session.state.push

        def counting_push(move: object) -> object:
            pushes.append(1)
            return real_push(move)

        session.state.push = counting_push  # type: ignore[method-assign]
        assert session.can_take_back() and len(pushes) == 1  # the default: popped and pushed again
        session.state.last_mover = lambda: 0  # type: ignore[method-assign]  # an engine that keeps it
        assert session.can_take_back() and len(pushes) == 1  # nothing pushed
        session.seats[0] = Seat("Ada", computer=True)
        assert not session.can_take_back()

    def test_stale_tab_cannot_overwrite(self) -> None:
        s = store()
        tab1 = thot(s)
        tab2 = Session.open(s, tab1.save.id)
        tab2.play(tab2.state.move_text(tab2.state.legal_moves()[0]))
        with pytest.raises(SaveConflict):
            tab1.play(tab1.state.move_text(tab1.state.legal_moves()[0]))

    def test_import_replays_the_record(self) -> None:
        s = store()
        session = thot(s)
        session.play(session.state.move_text(session.state.legal_moves()[0]))
        copy = s.import_text(s.export(session.save.id))
        assert Session.open(s, copy.id).state.position() == session.state.position()

    def test_table_meta_is_saved_and_kept_out_of_links(self) -> None:
        s = store()
        session = thot(s)
        calls: list[int] = []

        def before_save() -> None:  # a view brings its table up to date before each write
            calls.append(len(session.state.history()))
            session.meta["table"] = {"move": len(session.state.history())}

        session.before_save = before_save
        session.play(session.state.move_text(session.state.legal_moves()[0]))
        assert calls == [1]  # after the move, before the write
        again = Session.open(s, session.save.id)
        assert again.meta["table"] == {"move": 1}
        assert again.record().meta["table"] == {"move": 1}
        shared = again.record(shared=True)
        assert "table" not in shared.meta and shared.meta["game_id"] == again.game_id
        assert shared.moves == again.record().moves
        session.autosave()  # a write with no move (the view's periodic save)
        assert calls == [1, 1] and s.load(session.save.id).revision == 3
