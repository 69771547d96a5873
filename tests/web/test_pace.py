"""The computers' moves in a row (web/ui/pace.py, shared by Thot and Scarabya): which of the latest
moves they made since the person's, and the hold-back of the next one while the last is fresh."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from game.core import Rng
from web.platform import engines
from web.ui import pace


def played(game: str, options: dict[str, Any], moves: int, seed: int = 3) -> Any:
    state = engines.factory(game)(options, seed)
    rng = Rng(seed)
    for _ in range(moves):
        state.push(rng.choice(list(state.legal_moves())))
    return state


def test_run_counts_the_computers_moves_since_the_persons() -> None:
    person_first = [False, True, True, True]
    for game, options in (("thot", {"players": 4}), ("scarabya", {"variant": "ruins", "players": 4})):
        assert pace.run(played(game, options, 0), person_first) == 0  # no move yet
        assert pace.run(played(game, options, 1), person_first) == 0  # the person's own move last
        assert pace.run(played(game, options, 2), person_first) == 1
        assert pace.run(played(game, options, 4), person_first) == 3  # three computers in a row
        assert pace.run(played(game, options, 4), [True] * 4) == 0  # computers alone: nobody to show
        assert pace.run(played(game, options, 4), [False, True, False, True]) == 1


class Page:
    """What ``pace.waits`` needs of a play page: the session's state, closed, maybe_computer."""

    def __init__(self, state: Any) -> None:
        self.session = type("S", (), {"state": state})()
        self.closed = False
        self.asked = 0

    def maybe_computer(self) -> None:
        self.asked += 1


def test_a_computer_waits_for_the_last_computers_move_to_be_seen_then_is_asked_again(monkeypatch: Any) -> None:
    monkeypatch.setattr(pace, "PACE", 0.05)  # the same hold-back, shorter

    async def scenario() -> None:
        computers = [False, True, True, True]
        page = Page(played("thot", {"players": 4}, 2))  # a computer's move last, the next a computer's
        assert pace.waits(page, page.session.state, computers) is False  # not drawn yet: nothing to wait for
        pace.drawn(page, 2)
        assert pace.waits(page, page.session.state, computers) is True  # just drawn: held back
        assert pace.waits(page, page.session.state, computers) is True  # asked again: one wake-up only
        await asyncio.sleep(pace.PACE + 0.05)
        assert page.asked == 1
        assert pace.waits(page, page.session.state, computers) is False  # seen long enough
        person = Page(played("thot", {"players": 4}, 1))  # the person's move last: never held
        pace.drawn(person, 1)
        assert pace.waits(person, person.session.state, computers) is False

    # A loop of its own in a thread of its own: in a worker that also runs the e2e tests, Playwright's
    # sync API keeps an event loop running in this thread, and asyncio.run() refuses to start inside it.
    with ThreadPoolExecutor(1) as thread:
        thread.submit(asyncio.run, scenario()).result()
