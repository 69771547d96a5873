"""Issue 10: the statistics page with its SVG charts and their text equivalents."""

from __future__ import annotations

from typing import Any

import pytest

from game.core import GameRecord, Rng
from tests.e2e.conftest import SIZES, shot
from web.platform import engines, stats

pytestmark = pytest.mark.e2e


def stored_stats() -> str:
    data = stats.empty()
    for i, seed in enumerate((3, 4, 5)):
        state = engines.factory("thot")({"players": 2, "short": True}, seed)
        rng = Rng(seed)
        while not state.is_over():
            state.push(rng.choice(list(state.legal_moves())))
        record = GameRecord.of(state)
        stats.record_game(data, f"s{i}", "thot", ["Ada", "Bruno"], stats.summarise(record, engines.factory("thot")), i)
    return stats.dumps(data)


class TestStatistics:
    def test_charts_with_text_and_reset(self, page: Any, open_site: Any) -> None:
        open_site(page)
        page.evaluate("data => localStorage.setItem('scarab:stats', data)", stored_stats())
        page.get_by_role("link", name="Statistics").click()
        page.get_by_role("heading", name="Player statistics").wait_for()
        turn = page.locator("#turn-chart svg[role=img]")
        assert turn.count() == 1
        desc = page.locator("#turn-chart desc").text_content() or ""
        assert "Ada" in desc and "Bruno" in desc
        assert page.locator("#turn-chart polyline").count() == 2
        row = page.locator(".stats-table tbody tr").first
        assert row.locator("td").nth(0).inner_text() == "3"  # played
        assert page.locator("figure svg rect.bar").count() == 3
        page.get_by_label("Player", exact=True).select_option("Bruno")
        page.get_by_role("heading", name="Bruno").wait_for()
        page.get_by_role("button", name="Reset").click()
        page.get_by_role("dialog").get_by_role("button", name="Reset").click()
        page.get_by_role("heading", name="Ada").wait_for()
        assert page.locator("#stats-player option").count() == 1

    @pytest.mark.parametrize("size", ["phone", "desktop"])
    def test_screens(self, booted: Any, open_site: Any, size: str) -> None:
        width, height = SIZES[size]
        page = booted(width, height)
        open_site(page)
        page.evaluate("data => localStorage.setItem('scarab:stats', data)", stored_stats())
        page.evaluate("document.documentElement.dataset.theme = 'dark'")
        page.goto(page.url.split("#")[0] + "#/stats")
        page.get_by_role("heading", name="Player statistics").wait_for()
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        shot(page, f"stats-{size}-dark")
