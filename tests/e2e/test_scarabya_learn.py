"""Scarabya's rules page and guided first game in Chromium.

The rules page renders in Italian (phone) and English (desktop) with its live diagrams and no raw
catalogue key on show. The guided game is played to its end with the mouse: one wrong placement is
refused with the step's retry text, and the tutorial is left and resumed mid-way (on a phone-sized
window). Which squares to click is worked out here with the engine and the tutorial's own data.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from game.scarabya.grid import SITE
from game.scarabya.sets import TILES
from game.scarabya.shapes import orient
from game.scarabya.state import ScarabyaState
from tests.e2e.conftest import SIZES, Guard, shot as save_shot, watch
from web.games.scarabya.tutorial import TUTORIAL

pytestmark = pytest.mark.e2e

MESSAGES = Path(__file__).resolve().parents[2] / "web" / "platform" / "messages"
#: Any visible text or accessible name that looks like a catalogue key (``scarabya.rules.aim``).
RAW_KEYS = """() => {
  const bad = [], re = /^(scarabya|rules|tutorial|play|game)(\\.[\\w-]+)+$/;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) { const s = walker.currentNode.textContent.trim(); if (re.test(s)) bad.push(s); }
  for (const el of document.querySelectorAll('[aria-label]')) {
    const s = el.getAttribute('aria-label').trim(); if (re.test(s) || s.includes('scarabya.')) bad.push(s); }
  return bad;
}"""


def text(key: str, lang: str = "en") -> str:
    for name in ("scarabya_learn.json", "shell.json"):
        data = json.loads((MESSAGES / name).read_text(encoding="utf-8"))
        if key in data:
            return str(data[key][lang])
    raise KeyError(key)


def handle_of(cells: Any) -> tuple[int, int]:
    """The square of a shape the page's ghost is held by (the cell nearest its middle), as the page does."""
    mx = sum(x for x, _ in cells) / len(cells)
    my = sum(y for _, y in cells) / len(cells)
    return min(cells, key=lambda c: ((c[0] - mx) ** 2 + (c[1] - my) ** 2, c[1], c[0]))


def click_square(move: str) -> str:
    """The square to click so that the ghost (held by its middle) lands on ``move``'s placement."""
    tile, k, anchor = move[0], int(move[1]), SITE.parse_square(move.split("@")[1])
    hx, hy = handle_of(orient(TILES[tile].cells, k))
    return SITE.name(anchor + hy * SITE.width + hx)


def place(page: Any, move: str) -> None:
    """Turn the ghost to the move's orientation with the buttons, then click where it goes."""
    k = int(move[1])
    if k >= 4:
        page.locator("#sy-flip").click()
    for _ in range(k % 4):
        page.locator("#sy-rotate").click()
    page.locator(f"#sy-board #sq-{click_square(move)}").click()


def note_is(page: Any, key: str) -> None:
    page.wait_for_function("t => (document.getElementById('tutorial-note') || {}).textContent === t",
                           arg=text(key), timeout=20_000)


def shot(page: Any, name: str) -> None:
    """A full-page screenshot taken from the top (the sticky top bar would otherwise sit mid-page)."""
    page.evaluate("() => window.scrollTo(0, 0)")
    save_shot(page, name)


def moves_played(page: Any) -> int:
    return int(page.locator(".sy-game").get_attribute("data-moves") or -1)


class TestRulesPage:
    @pytest.mark.parametrize("lang,size", [("it", "phone"), ("en", "desktop")])
    def test_renders_with_diagrams(self, booted: Any, open_site: Any, lang: str, size: str) -> None:
        width, height = SIZES[size]
        page = booted(width, height, locale="it-IT" if lang == "it" else "en-GB")
        open_site(page, "#/scarabya/rules")
        page.wait_for_selector("#rules-scarabya .sy-rules")
        assert page.locator("#sy-rules-aim-h").inner_text() == text("scarabya.rules.aim", lang)
        for fig in ("sy-fig-site", "sy-fig-tiles", "sy-fig-area", "sy-fig-ruins"):
            assert page.locator(f"#{fig} figcaption").inner_text().strip(), fig
        # the diagrams are the engine's states drawn by the page's board
        assert page.locator("#sy-fig-site-board .sq").count() == 100
        assert page.locator("#sy-fig-site-board .sq.rock").count() == 8
        assert page.locator("#sy-fig-site-board .sq.sym").count() == 24
        area = page.locator("#sy-fig-area-board")
        assert area.get_attribute("aria-label") == text("scarabya.rules.fig.area.label", lang)
        a3 = area.locator(".sq.token.v3")
        assert a3.count() == 1 and a3.inner_text() == "3"
        assert area.locator(".sq.closed").count() == 2 + 3 + 1  # B5–C5, A1–A3, C2
        assert page.locator("#sy-fig-tiles .sy-shape").count() == 12
        assert page.locator("#sy-fig-ruins-board .sq").count() == 36
        assert page.locator("#sy-fig-ruins-board .sq.zone").count() == 16
        assert page.locator("#sy-rules-decisions li").count() == 9
        assert page.evaluate(RAW_KEYS) == []
        assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
        assert page.locator("[id='sq-A1']").count() == 0  # diagrams carry no game-board ids
        shot(page, f"scarabya-rules-{size}-{lang}")

        # the page's own link opens the guided game, in the same language
        page.locator("#rules-scarabya a[href='#/scarabya/tutorial']").click()
        page.wait_for_selector("#tutorial .tutorial-task")
        assert page.locator("#tutorial-task").inner_text() == text("scarabya.tutorial.first", lang)
        assert page.evaluate(RAW_KEYS) == []
        assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
        shot(page, f"scarabya-tutorial-{size}-{lang}")


class TestTutorial:
    def test_guided_game_end_to_end(self, booted: Any, open_site: Any) -> None:
        page = booted(*SIZES["desktop"])
        open_site(page, "#/scarabya/new")
        page.locator("#tutorial-offer").wait_for()
        page.locator("#tutorial-start").click()
        page.wait_for_selector("#tutorial .tutorial-task")
        assert page.locator("#tutorial-task").inner_text() == text("scarabya.tutorial.first")
        assert moves_played(page) == 0

        # a wrong first tile (legal, but not where the step asks) is taken back with the retry text
        first, close, three = (step.suggest(None)[0] for step in TUTORIAL.steps)  # type: ignore[misc]
        state = ScarabyaState.from_options(TUTORIAL.options, TUTORIAL.seed)
        wrong = next(m for m in (f"Z{k}@{SITE.name(a)}" for k, a, _ in state.placements())
                     if m[1] == "0" and m != first)
        place(page, wrong)
        note_is(page, "scarabya.tutorial.first.retry")
        assert moves_played(page) == 0
        assert page.locator("#tutorial-task").inner_text() == text("scarabya.tutorial.first")
        shot(page, "scarabya-tutorial-retry-desktop")

        place(page, first)
        note_is(page, "scarabya.tutorial.first.done")
        assert moves_played(page) == 1
        assert page.locator("#tutorial-task").inner_text() == text("scarabya.tutorial.close")

        # leave mid-tutorial, come back on a phone: the guided game resumes at step 2
        open_site(page, "#/")
        page.set_viewport_size({"width": SIZES["phone"][0], "height": SIZES["phone"][1]})
        open_site(page, "#/scarabya/tutorial")
        page.wait_for_selector("#tutorial .tutorial-task")
        assert page.locator("#tutorial-task").inner_text() == text("scarabya.tutorial.close")
        assert moves_played(page) == 1
        assert page.locator("#tutorial h2").inner_text() == "Guided game — step 2 of 3"
        assert page.locator("#sy-board #sq-C4").get_attribute("class").split().count("tile") == 1
        assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
        shot(page, "scarabya-tutorial-phone")

        place(page, close)
        note_is(page, "scarabya.tutorial.close.done")
        assert page.locator("#sy-board #sq-C5").inner_text() == "2"  # the scarab's 2-point token

        page.set_viewport_size({"width": SIZES["desktop"][0], "height": SIZES["desktop"][1]})
        place(page, three)
        note_is(page, "scarabya.tutorial.three.done")
        assert page.locator("#sy-board #sq-A3").inner_text() == "3"
        assert page.locator("#tutorial h2").inner_text() == text("tutorial.finished")
        assert page.locator("#tutorial-task").inner_text() == text("tutorial.complete")
        assert moves_played(page) == 3
        assert page.evaluate(RAW_KEYS) == []
        shot(page, "scarabya-tutorial-done-desktop")

        # finished: the tutorial link now starts a fresh guided game
        open_site(page, "#/scarabya/tutorial")
        page.wait_for_selector("#tutorial .tutorial-task")
        assert moves_played(page) == 0
