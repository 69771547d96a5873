"""The slice scheduler (web/ui/slices.py) and its pauses (issue 25).

A sliced generator yields ``None`` to carry on, or a number of seconds to pause: the scheduler then
sleeps (``asyncio.sleep``) instead of resuming the generator until the clock has passed, so a wait
costs no work; ``wanted()`` turning false during a pause still stops the work. Scarabeo's computer
shows its tiles one by one with such pauses (web/games/scarabeo/anim.py), one pause per tile.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Generator, Iterator

import pytest

from game.scarabeo import ScarabeoState
from game.scarabeo.board import CENTRE
from game.scarabeo.tiles import SCARAB
from game.scarabeo.words import SetWordList
from web.platform.i18n import Messages, load_catalogue
from web.platform.session import Seat
from web.ui import slices

from tests.web.standin import run_alone, stand_in_pyscript

ROOT = Path(__file__).resolve().parents[2]
CATALOGUE = load_catalogue(ROOT / "web" / "platform" / "messages")


def counted(log: list[str], pauses: list[float | None], result: str = "done") -> Generator[float | None, None, str]:
    """A generator that notes every resumption in ``log`` and yields ``pauses`` in turn; its end
    is noted too (``"closed"`` when it is closed early)."""
    try:
        for pause in pauses:
            log.append("resumed")
            yield pause
        log.append("resumed")
        return result
    except GeneratorExit:
        log.append("closed")
        raise


class TestPauses:
    def test_a_pause_sleeps_once_instead_of_resuming_the_generator_all_along(self) -> None:
        log: list[str] = []
        asked: list[int] = []

        def wanted() -> bool:
            asked.append(1)
            return True

        async def run() -> tuple[bool, Any]:
            return await slices.run_in_slices(counted(log, [0.2]), wanted)

        started = time.perf_counter()
        done, value = run_alone(run())
        waited = time.perf_counter() - started
        assert (done, value) == (True, "done")
        # once to reach the pause, once after it to finish: not thousands of times through the wait
        assert log == ["resumed", "resumed"]
        assert asked == [1]  # wanted() asked after the pause
        assert waited >= 0.2  # the pause was kept (at least as long as asked)

    def test_every_pause_asked_is_slept_in_order(self, monkeypatch: pytest.MonkeyPatch) -> None:
        slept: list[float] = []
        real_sleep = asyncio.sleep

        async def sleep(seconds: float) -> None:
            slept.append(seconds)
            await real_sleep(0)

        monkeypatch.setattr(slices, "asyncio", SimpleNamespace(sleep=sleep))
        log: list[str] = []
        done, value = run_alone(slices.run_in_slices(counted(log, [None, 0.18, None, None, 0.5]), lambda: True))
        assert (done, value) == (True, "done")
        assert [s for s in slept if s > 0] == [0.18, 0.5]
        assert log.count("resumed") == 6

    def test_leaving_during_a_pause_stops_the_work(self) -> None:
        log: list[str] = []
        here = [True]

        async def run() -> tuple[bool, Any]:
            asyncio.get_running_loop().call_later(0.05, lambda: here.__setitem__(0, False))  # leaves mid-pause
            return await slices.run_in_slices(counted(log, [0.3, None, None]), lambda: here[0])

        done, value = run_alone(run())
        assert (done, value) == (False, None)
        assert log == ["resumed", "closed"]  # nothing after the pause: the generator closed

    def test_carrying_on_still_runs_the_work_in_slices_to_its_end(self, monkeypatch: pytest.MonkeyPatch) -> None:
        slept: list[float] = []
        real_sleep = asyncio.sleep

        async def sleep(seconds: float) -> None:
            slept.append(seconds)
            await real_sleep(0)

        def work(log: list[str]) -> Generator[None, None, str]:
            for _ in range(5):
                time.sleep(slices.SLICE_SECONDS)  # a step of engine work as long as a slice
                log.append("resumed")
                yield
            return "end"

        monkeypatch.setattr(slices, "asyncio", SimpleNamespace(sleep=sleep))
        log: list[str] = []
        done, value = run_alone(slices.run_in_slices(work(log), lambda: True))
        assert (done, value) == (True, "end")
        assert log.count("resumed") == 5
        assert slept and set(slept) == {0}  # the thread handed back between slices, never a pause


class Document:
    """What the tiles' drawing asks of the page's document: no zoomed board here."""

    def getElementById(self, _id: str) -> None:
        return None


@pytest.fixture(scope="module")
def anim() -> Iterator[Any]:
    """web/games/scarabeo/anim.py, imported with a stand-in ``pyscript``."""
    import importlib

    with stand_in_pyscript(window=Document(), drop=("web.games", "web.ui.dom")):
        yield importlib.import_module("web.games.scarabeo.anim")


class TestComputerTiles:
    def test_each_tile_is_followed_by_one_pause_of_the_tile_time(self, anim: Any) -> None:
        from web.games.scarabeo.context import COMPUTER_TILE_SECONDS

        state = ScarabeoState.new(players=2, seed=7, check_mode="challenge", word_list=SetWordList([]))
        rack = state.racks[state.turn]
        letters = ["a" if t == SCARAB else t for t in rack[:3]]
        text = state.move_text(state.play_from_placements([(CENTRE + k, letters[k]) for k in range(3)]))
        page = SimpleNamespace(session=SimpleNamespace(state=state, seats=[Seat("Hal", computer=True, level=1),
                                                                             Seat("Anna")]),
                               t=Messages(CATALOGUE, "en"), selection={})
        shown: list[int] = []

        class Tiles(anim.Anim):  # type: ignore[misc]
            def refresh(self, page: Any) -> None:
                shown.append(len(page.selection["ghost"]))

        steps = Tiles()._show_computer_tiles(page, text)
        yielded = list(steps)
        assert shown == [1, 2, 3]  # the tiles appear one by one
        assert yielded == [COMPUTER_TILE_SECONDS] * 3  # one pause after each, no spinning
        assert page.selection == {}
