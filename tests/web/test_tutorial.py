"""The tutorial runner, with a small tutorial over the real Thot engine."""

from __future__ import annotations

from itertools import count

from web.platform.session import Seat, Session
from web.platform.storage import MemoryStore, SaveStore
from web.platform.tutorial import Progress, Step, Tutorial, find, start


TUT = Tutorial("thot", {"players": 2, "short": True}, 11, (Seat("You"), Seat("Friend")),
               (Step("first", lambda s, m, r: True), Step("second", lambda s, m, r: m.endswith("1"))))


def store() -> SaveStore:
    ticks, ids = count(1), count(1)
    return SaveStore(MemoryStore(), clock=lambda: next(ticks), new_id=lambda: f"t{next(ids)}")


class TestTutorial:
    def test_steps_advance_and_wrong_moves_are_taken_back(self) -> None:
        s = store()
        session = start(s, TUT, "tutorial")
        progress = Progress(session, TUT)
        assert progress.step == 0 and find(s, "thot") == session.save.id
        first = session.state.move_text(session.state.legal_moves()[0])
        session.play(first)
        assert progress.judge(first, None) == (True, "thot.tutorial.first.done")
        moves = [session.state.move_text(m) for m in session.state.legal_moves()]
        wrong = next(m for m in moves if not m.endswith("1"))
        before = session.state.position()
        session.play(wrong)
        assert progress.judge(wrong, None) == (False, "thot.tutorial.second.retry")
        assert session.state.position() == before
        resumed = Progress(Session.open(s, session.save.id), TUT)
        assert resumed.step == 1 and resumed.session.state.position() == before

    def test_finished_tutorial_is_not_resumed(self) -> None:
        s = store()
        session = start(s, Tutorial("thot", TUT.options, 11, TUT.seats, (Step("only", lambda *a: True),)), "t")
        move = session.state.move_text(session.state.legal_moves()[0])
        session.play(move)
        Progress(session, Tutorial("thot", TUT.options, 11, TUT.seats, (Step("only", lambda *a: True),))).judge(move, None)
        assert find(s, "thot") is None
