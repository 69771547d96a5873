"""Issue 42's layout points on a phone (360×640 and 390×844) that the other layout modules do not
cover: no empty band between Scarabeo's last move and its board (the message line lies over the last
move's line, never over the board); notices (a toast: "Anna is here", "Settings saved.", "Copied.")
never over the board nor the hand under it, and "Settings saved." goes by itself; today's Thot
challenge with the game page's squares and its title whole.

Screenshots: ``tests/e2e/screenshots/phone-<what>-<w>x<h>.png``.
"""

from __future__ import annotations

from typing import Any, Iterator

import pytest

from game.core import GameRecord
from tests.e2e.conftest import Guard, booted_tab, shot
from tests.e2e.test_layout_boards import go, new_game
from tests.e2e.test_layout_fit import measure, open_save, played, python, save

pytestmark = pytest.mark.e2e

PHONES = [(360, 640), (390, 844)]
#: (JS) an element's box in the viewport, or null
BOX = """(sel) => { const e = document.querySelector(sel); if (!e || !e.getClientRects().length) return null;
  const r = e.getBoundingClientRect(); return {left: r.left, top: r.top, right: r.right, bottom: r.bottom,
  width: r.width, height: r.height}; }"""
BOARDS = {"scarabeo": "#sc-board-wrap", "thot": "#thot-board", "scarabya": "#sy-board"}
#: a notice as long as the catalogue's longer ones
LONG = "Bruno's phone did not get your move: it goes again when it reconnects."


@pytest.fixture(scope="module")
def tab(browser: Any, server: str) -> Iterator[tuple[Any, Guard]]:
    yield from booted_tab(browser, server, 360, 640)


def box(page: Any, selector: str) -> Any:
    return page.evaluate(BOX, selector)


def overlap(a: Any, b: Any) -> bool:
    return bool(a and b and a["left"] < b["right"] - 1 and b["left"] < a["right"] - 1
                and a["top"] < b["bottom"] - 1 and b["top"] < a["bottom"] - 1)


def in_view(b: Any, w: int, h: int) -> bool:
    return bool(b and b["left"] >= -1 and b["top"] >= -1 and b["right"] <= w + 1 and b["bottom"] <= h + 1)


def resize(page: Any, w: int, h: int) -> None:
    page.set_viewport_size({"width": w, "height": h})
    page.wait_for_timeout(150)
    page.evaluate("scrollTo(0, 0)")


def scarabeo_game(page: Any, lex: Any, save_id: str) -> None:
    """A game of a person against the computer six moves in: a last move to show."""
    moves = played("scarabeo", 2, 5, lex)[:6]
    seats = [{"name": "You", "computer": False, "level": 1}, {"name": "Computer", "computer": True, "level": 4}]
    save(page, save_id, GameRecord(game="scarabeo", options={"players": 2}, seed=5, moves=moves,
                                   meta={"seats": seats, "game_id": save_id}))
    open_save(page, "scarabeo", save_id)
    page.wait_for_selector("#sc-board #sq-0-0, #sc-board .sc-sq", timeout=60_000)


def test_scarabeo_no_band_between_the_last_move_and_the_board(tab: tuple[Any, Guard], lex: Any) -> None:
    """At 360×640 an empty band of 41 px lay between the last move's line and the board (the message
    line, empty), and a longer message lay over the board's top rows. Now the board follows the last
    move, larger; a message (two lines) lies over the last move's line and the scores, the board
    neither moves nor is covered."""
    page, _guard = tab
    scarabeo_game(page, lex, "phoneband")
    for w, h in PHONES:
        resize(page, w, h)
        python(page, "_page.message = None\n_page.redraw()")
        page.wait_for_timeout(100)
        last, board = box(page, "#sl-last"), box(page, "#sc-board-wrap")
        assert last is not None and board is not None
        band = board["top"] - last["bottom"]
        assert band <= 8, f"{w}×{h}: {band:.0f} px between the last move and the board"
        assert in_view(board, w, h) and in_view(box(page, "#sc-actions"), w, h), f"{w}×{h}: the board or Play out of view"
        python(page, f"_page.show_message({LONG!r} + ' ' + {LONG!r}, error=True)")
        message, again = box(page, "#play-message"), box(page, "#sc-board-wrap")
        shot(page, f"phone-scarabeo-message-{w}x{h}", full_page=False)
        assert again["top"] == board["top"] and again["height"] == board["height"], f"{w}×{h}: the board moved"
        assert message is not None and message["bottom"] <= board["top"] + 1, \
            f"{w}×{h}: the message lies over the board: {message} {board}"
        assert message["top"] >= 0, f"{w}×{h}: the message starts above the screen: {message}"
        measure(page, f"phone-scarabeo-message-{w}x{h}")
    resize(page, 360, 640)


@pytest.mark.parametrize("game", ["thot", "scarabya", "scarabeo"])
def test_notices_never_over_the_board_nor_the_hand(tab: tuple[Any, Guard], game: str, lex: Any) -> None:
    """A notice ("Anna is here", a long one) on a game page at 360×640 and 390×844 lies over the app
    bar: never over the board, nor the rack, the piece and the actions under it (it sat at the
    bottom, over the hand, and over the board's top rows where a panel pushed the board down)."""
    page, _guard = tab
    if game == "scarabeo":
        scarabeo_game(page, lex, "phonetoast")
    else:
        resize(page, 360, 640)
        new_game(page, game, seed=11)
        page.wait_for_selector(BOARDS[game], timeout=60_000)
    for w, h in PHONES:
        resize(page, w, h)
        for text in ("Anna is here", LONG):
            python(page, f"_page.app.toast({text!r})")
            toast = box(page, "#toast")
            shot(page, f"phone-toast-{game}-{w}x{h}", full_page=False)
            assert in_view(toast, w, h), f"{game} {w}×{h}: the notice is not in view: {toast}"
            for part in (BOARDS[game], ".game-hand"):
                assert not overlap(toast, box(page, part)), \
                    f"{game} {w}×{h}: the notice {text!r} lies over {part}: {toast} {box(page, part)}"
        python(page, "_page.app.hide_toast()")
    resize(page, 360, 640)


def test_settings_saved_at_the_top_and_gone_by_itself(tab: tuple[Any, Guard]) -> None:
    page, _guard = tab
    for w, h in PHONES:
        resize(page, w, h)
        go(page, "#/settings", "input[name=theme]")
        theme = "dark" if page.evaluate("document.documentElement.dataset.theme") != "dark" else "light"
        page.locator(f"input[name=theme][value={theme}]").check()
        toast = page.locator("#toast")
        # the handler runs after the event, as every view tree's does (patch.js delivers in a microtask)
        toast.wait_for(state="visible", timeout=10_000)
        assert toast.inner_text() == "Settings saved."
        b = box(page, "#toast")
        assert b["bottom"] <= 60, f"{w}×{h}: 'Settings saved.' is not over the app bar: {b}"
        toast.wait_for(state="hidden", timeout=10_000)
    page.locator("input[name=theme][value=light]").check()
    page.locator("#toast").wait_for(state="hidden", timeout=10_000)
    resize(page, 360, 640)


def test_the_daily_thot_board_as_large_as_the_game_page(tab: tuple[Any, Guard]) -> None:
    """Today's Thot challenge at 360×640 and 390×844: its squares the game page's size (21.6 px
    against 31.3 at 360×640), the whole board, the task, whose turn and a move in view at rest, and
    the banner's title whole ("Today's challenge #1 — Scarab —…" was cut)."""
    page, _guard = tab
    resize(page, 360, 640)
    new_game(page, "thot", seed=11)
    page.wait_for_selector("#thot-board .mark-legal", timeout=60_000)
    local = {}
    for w, h in PHONES:
        resize(page, w, h)
        local[(w, h)] = box(page, "#thot-board .thot-cell")["width"]
    resize(page, 360, 640)
    go(page, "#/daily/thot?date=2026-12-01", "#daily-banner #daily-task")
    page.wait_for_selector("#thot-board .mark-legal", timeout=60_000)
    for w, h in PHONES:
        resize(page, w, h)
        shot(page, f"phone-daily-thot-{w}x{h}", full_page=False)
        square = box(page, "#thot-board .thot-cell")["width"]
        assert abs(square - local[(w, h)]) <= .5, \
            f"{w}×{h}: the daily's squares are {square:.1f} px, the game page's {local[(w, h)]:.1f}"
        for part in ("#thot-board", "#daily-banner-title", "#daily-task", "#thot-status", "#scoreline li.to-move",
                     "#sl-last", "#daily-show-answer"):
            assert in_view(box(page, part), w, h), f"{w}×{h}: {part} not in view at rest: {box(page, part)}"
        title = page.evaluate("""() => { const e = document.getElementById('daily-banner-title');
          const s = getComputedStyle(e); return {text: e.textContent, cut: e.scrollWidth > e.clientWidth + 1
            || e.scrollHeight > e.clientHeight + 1, ellipsis: s.textOverflow === 'ellipsis' && s.overflow !== 'visible'}; }""")
        assert not title["cut"] and not title["ellipsis"], f"{w}×{h}: the title is cut: {title}"
        assert title["text"].startswith("Today's challenge #") and "Thot" in title["text"], title
        measure(page, f"phone-daily-thot-{w}x{h}")
    resize(page, 360, 640)
