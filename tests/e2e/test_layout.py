"""The working set on one screen (issue 15): for each game against the computer, at seven screen
sizes from a 360×640 phone to a 1920×1080 desktop, at scroll 0 the board (its frame, clipped by its
scrolling parent), the rack or piece, the main action and whose turn with the scores lie inside the
viewport, and neither the new-game form nor the game page scrolls sideways.

One browser context and one game per game: the viewport is resized between sizes (every board is
whole at rest at each size: tests/e2e/test_layout_scarabeo.py and test_layout_boards.py check every square). Screenshots of what the viewport shows:
``tests/e2e/screenshots/layout-<game>-<form|play>-<w>x<h>.png``.
"""

from __future__ import annotations

from typing import Any, Iterator

import pytest

from tests.e2e.conftest import Guard, shot, watch

pytestmark = pytest.mark.e2e

SIZES = [(360, 640), (390, 844), (820, 1180), (1180, 820), (1366, 768), (1440, 900), (1920, 1080)]
GAMES = ["scarabeo", "thot", "scarabya"]
#: per game: the board frame, the rack / current piece, the main action, and where the scores say
#: whose turn it is (the one-line score strip, or the scores panel in the side column)
PARTS = {
    "scarabeo": {"board": "#sc-board-wrap", "hand": "#sc-rack", "action": "#sc-play",
                 "turn": "#scoreline li.to-move, #sc-scores tr.to-move"},
    "thot": {"board": "#thot-board", "hand": "#thot-board .priest", "action": "#thot-board .mark-legal",
             "turn": "#scoreline li.to-move, .thot-player.to-move"},
    "scarabya": {"board": "#sy-board", "hand": ".sy-mission", "action": "#sy-place",
                 "turn": "#scoreline li.to-move, .sy-sites tr.to-move"},
}
#: the box of an element of a selector list as its scrolling parents clip it: the first element left
#: at least 10 px square by the clipping (Thot's squares in reach: some may lie outside the phone's
#: frame, never all), else the first drawn one
BOX = """(sel) => { const clipped = el => { const b = el.getBoundingClientRect();
    let r = {left: b.left, top: b.top, right: b.right, bottom: b.bottom};
    for (let p = el.parentElement; p; p = p.parentElement) {
      const s = getComputedStyle(p);
      if (s.overflowX !== 'visible' || s.overflowY !== 'visible') { const c = p.getBoundingClientRect();
        r = {left: Math.max(r.left, c.left), top: Math.max(r.top, c.top), right: Math.min(r.right, c.right),
             bottom: Math.min(r.bottom, c.bottom)}; } }
    return r; };
  const drawn = [...document.querySelectorAll(sel)].filter(e => e.getClientRects().length);
  if (!drawn.length) return null;
  const boxes = drawn.map(clipped);
  return boxes.find(r => r.right - r.left > 10 && r.bottom - r.top > 10
                         && r.left >= -1 && r.top >= -1 && r.right <= innerWidth + 1 && r.bottom <= innerHeight + 1)
         || boxes[0]; }"""
WIDE = "[document.documentElement.scrollWidth, innerWidth]"


@pytest.fixture(scope="module")
def tables(browser: Any, server: str) -> Iterator[dict[str, Any]]:
    """One context per game, a game against the computer started in it on first use."""
    made: dict[str, Any] = {}
    yield made
    for ctx, _page, guard, _url in made.values():
        ctx.close()
        assert guard.blocked == [] and guard.errors == [], (guard.blocked, guard.errors)


def table(tables: dict[str, Any], browser: Any, server: str, game: str) -> tuple[Any, Guard, str]:
    if game not in tables:
        guard = Guard()
        ctx = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-GB", service_workers="block")
        ctx.route("**/*", guard.route)
        page = watch(ctx.new_page(), guard)
        page.goto(server + f"#/{game}/new")
        page.wait_for_selector("body[data-ready='1']", timeout=60_000)
        page.wait_for_selector("#start", timeout=60_000)
        page.select_option("#players", "2")
        page.select_option("#seat-1-kind", "computer:1")
        page.evaluate("document.getElementById('seed').closest('details')?.setAttribute('open', '')")  # seed box
        page.fill("#seed", "7")
        page.click("#start")
        page.wait_for_selector(PARTS[game]["action"], timeout=60_000)
        tables[game] = (ctx, page, guard, page.url)
    _ctx, page, guard, url = tables[game]
    return page, guard, url


def inside(box: dict[str, float] | None, w: int, h: int) -> bool:
    return box is not None and box["left"] >= -1 and box["top"] >= -1 and box["right"] <= w + 1 and box["bottom"] <= h + 1 \
        and box["right"] - box["left"] > 10 and box["bottom"] - box["top"] > 10


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
@pytest.mark.parametrize("game", GAMES)
def test_working_set_on_one_screen(tables: dict[str, Any], browser: Any, server: str, game: str,
                                   size: tuple[int, int]) -> None:
    w, h = size
    page, guard, url = table(tables, browser, server, game)
    page.set_viewport_size({"width": w, "height": h})
    # the new-game form: nothing scrolls sideways (Scarabeo's word-check select on a phone)
    page.evaluate(f"location.hash = '#/{game}/new'")
    page.wait_for_selector("#start", timeout=30_000)
    page.evaluate("scrollTo(0, 0)")
    width, inner = page.evaluate(WIDE)
    shot(page, f"layout-{game}-form-{w}x{h}", full_page=False)
    assert width <= inner, f"the form is {width} px wide in {inner}"
    start = page.locator("#start").bounding_box()
    assert start is not None and start["x"] >= 0 and start["x"] + start["width"] <= w
    # the game page at scroll 0
    page.evaluate(f"location.hash = {url.split('#', 1)[1]!r}")
    page.wait_for_selector(PARTS[game]["action"], timeout=30_000)
    page.wait_for_timeout(200)  # a resize redraw (Scarabeo's zoom) and the scroll to the cursor
    page.evaluate("scrollTo(0, 0)")
    shot(page, f"layout-{game}-play-{w}x{h}", full_page=False)
    width, inner = page.evaluate(WIDE)
    assert width <= inner, f"the game page is {width} px wide in {inner}"
    bar = page.locator(".topbar").bounding_box()
    assert bar is not None and (w >= 700 or bar["height"] <= 56), f"the app bar is {bar['height']} px high"
    if w < 700:  # the navigation behind one menu button, every link keeping its name
        menu = page.locator("#menu-button")
        assert menu.get_attribute("aria-expanded") == "false" and not page.locator("#main-nav").is_visible()
        menu.click()
        assert menu.get_attribute("aria-expanded") == "true"
        for name in ("Games", "Statistics", "Settings", "About"):
            assert page.locator("#main-nav").get_by_role("link", name=name, exact=True).is_visible()
        # in a game its own controls come first: the toolbar's, by name, enabled as they are there
        first = page.locator("#main-nav button, #main-nav a").first
        assert first.evaluate("e => !!e.closest('#bar-game')"), "the game's controls are not first in the menu"
        group = page.get_by_role("group", name="This game")
        mirrored = group.get_by_role("button").all_text_contents()
        toolbar = page.evaluate("[...document.querySelectorAll('#app div.toolbar.row button, #app div.toolbar.row a.button')]"
                                ".map(e => [e.textContent.trim(), !!e.disabled])")
        assert mirrored == [name for name, _ in toolbar] and {"Review", "How to play", "Take back"} <= set(mirrored)
        for name, disabled in toolbar:
            assert group.get_by_role("button", name=name, exact=True).is_disabled() == disabled, name
        page.keyboard.press("Escape")
        assert menu.get_attribute("aria-expanded") == "false" and not page.locator("#main-nav").is_visible()
    for part, sel in PARTS[game].items():
        box = page.evaluate(BOX, sel)
        assert inside(box, w, h), f"{part} ({sel}) is not inside the {w}×{h} viewport at scroll 0: {box}"
    if w == 360:  # a control pressed from the menu does what the toolbar's does
        page.click("#menu-button")
        page.get_by_role("group", name="This game").get_by_role("button", name="How to play", exact=True).click()
        page.wait_for_function("location.hash.endsWith('/rules')", timeout=10_000)
        assert page.locator("#menu-button").get_attribute("aria-expanded") == "false"
        page.evaluate(f"location.hash = {url.split('#', 1)[1]!r}")
        page.wait_for_selector(PARTS[game]["action"], timeout=30_000)
    assert guard.blocked == [] and guard.errors == [], (guard.blocked, guard.errors)


def test_continue_list_says_which_game_is_which(booted: Any, open_site: Any, guard: Guard) -> None:
    """Players with their scores, the moves, whose turn, a date in the interface's locale (Italian:
    "1 dic 2026", never the US "12/1/2026"), and "ad Anna" — read from the saves, no game replayed."""
    import re

    page = booted(390, 844, locale="it-IT")
    open_site(page, "#/thot/new")
    page.wait_for_selector("#start", timeout=60_000)
    page.fill("#seat-0-name", "Anna")
    page.select_option("#seat-1-kind", "computer:1")
    page.fill("#seat-1-name", "Bruno")
    page.click("#start")
    page.locator("#thot-board .mark-legal").first.click()
    page.wait_for_function("document.querySelectorAll('#thot-log li:not(.muted)').length >= 2", timeout=60_000)
    page.wait_for_selector("#thot-board .mark-legal", timeout=60_000)
    scores = page.evaluate("[...document.querySelectorAll('#scoreline .sl-score')].map(e => e.textContent)")
    page.evaluate("location.hash = '#/'")
    item = page.locator(".saves .save").first
    item.wait_for(timeout=30_000)
    item.scroll_into_view_if_needed()
    shot(page, "layout-continue-390x844", full_page=False)
    facts = item.locator(".facts").inner_text()
    assert f"Anna {scores[0]}" in facts and f"Bruno {scores[1]}" in facts, facts
    assert "2 mosse" in facts and "tocca ad Anna" in facts, facts
    assert item.locator(".save-seat.to-move").inner_text().startswith("Anna")
    title, meta = item.locator(".title").inner_text(), item.locator(".meta").inner_text()
    assert title == "Anna contro Bruno", title  # a title the site made gives way to who plays
    assert not re.search(r"\d{1,2}/\d{1,2}/\d{4}", meta), meta  # "1 dic 2026", not "12/1/2026"
    assert re.search(r"\d{1,2} [a-z]{3} \d{4}", meta), meta
    width, inner = page.evaluate(WIDE)
    assert width <= inner
    assert guard.blocked == [] and guard.errors == [], (guard.blocked, guard.errors)
