"""Issue 26: Thot's and Scarabya's boards whole at rest, and the working set in view, on every screen.

At the seven sizes of issue 15 and in the two embed frames (400×600, 700×700), every square of the
board lies inside the viewport at scroll 0, and so do whose turn, the scores, the last move, the
current piece (Scarabya) and the actions (the main one, Hint, Take back) — at rest, while the
computer thinks, with a hint shown, after a take-back, in the daily puzzle and at the end; the board
does not move between those states. One booted page serves the site's tests, one the embeds'; a
state is reached once (a seed, a save written to storage) and checked at every size by resizing —
the computer's thinking too, its turn held in the page (``hold``) while the viewport is resized.
Screenshots: ``tests/e2e/screenshots/boards-<game>-<state>-<w>x<h>.png``.
"""

from __future__ import annotations

import json
from typing import Any, Iterator

import pytest

from game.core import GameRecord, Rng
from tests.e2e.conftest import Guard, booted_tab, shot, watch
from web.platform import engines

pytestmark = pytest.mark.e2e

SIZES = [(360, 640), (390, 844), (820, 1180), (1180, 820), (1366, 768), (1440, 900), (1920, 1080)]
EMBEDS = [(400, 600), (700, 700)]
DAY = "2026-12-01"
#: the squares of each board
SQUARES = {"thot": "#thot-board .thot-cell", "scarabya": "#sy-board .sq, #sy-board-view .sq"}
#: the working set: (name, selector list — one drawn element of it must lie in view)
THOT = [("status", "#thot-status"), ("scores", "#scoreline li, .thot-player .thot-score"),
        ("hint", "#thot-hint"), ("take back", "#takeback")]
THOT_TURN = ("turn", "#scoreline li.to-move, .thot-player.to-move")
THOT_LAST = ("last move", "#sl-last, #thot-log li:first-child")
SCARABYA = [("piece", ".sy-mission, .sy-pieces"), ("scores", "#scoreline li, .sy-sites tbody tr"),
            ("rotate", "#sy-rotate"), ("flip", "#sy-flip"), ("place", "#sy-place"), ("hint", "#sy-hint"),
            ("take back", "#takeback")]
SY_TURN = ("turn", "#scoreline li.to-move, .sy-sites tr.to-move")
SY_LAST = ("last move", "#sl-last, #sy-said, .sy-last li")
#: while the computer thinks: the working set, the thinking line, the actions disabled (never removed)
THOT_THINKING = [*THOT, THOT_TURN, ("thinking", "#thinking"), THOT_LAST, ("disabled", "#takeback:disabled"),
                 ("disabled hint", "#thot-hint:disabled")]
SY_THINKING = [*SCARABYA, SY_TURN, SY_LAST, ("thinking", "#thinking"), ("disabled", "#takeback:disabled"),
               ("disabled place", "#sy-place:disabled")]
#: at the end: the result, the scores, the last move and a way on
THOT_END = [("result", "#thot-status"), ("scores", "#scoreline li, .thot-player .thot-score"),
            ("ways on", ".thot-end .thot-end-actions a:last-child"), THOT_LAST]
SY_END = [("result", ".sy-end .sy-final"), ("scores", "#scoreline li, .sy-sites tbody tr"), ("again", "#sy-again")]
#: (JS) What the viewport shows of the page now: the board's squares lying outside it, how far the
#: page scrolls sideways, the board's top on the page, and for each selector list of the working set
#: the box of its first drawn element lying in the viewport as its scrolling parents clip it (else
#: the first drawn one's, else null).
MEASURE = """({squares, parts, board}) => {
  const clipped = el => { const b = el.getBoundingClientRect();
    let r = {left: b.left, top: b.top, right: b.right, bottom: b.bottom};
    for (let p = el.parentElement; p; p = p.parentElement) { const s = getComputedStyle(p);
      if (s.overflowX !== 'visible' || s.overflowY !== 'visible') { const c = p.getBoundingClientRect();
        r = {left: Math.max(r.left, c.left), top: Math.max(r.top, c.top), right: Math.min(r.right, c.right),
             bottom: Math.min(r.bottom, c.bottom)}; } }
    return r; };
  const box = sel => { const drawn = [...document.querySelectorAll(sel)].filter(
      e => e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden');
    if (!drawn.length) return null;
    const boxes = drawn.map(clipped);
    return boxes.find(r => r.right - r.left > 6 && r.bottom - r.top > 6 && r.left >= -1 && r.top >= -1
                           && r.right <= innerWidth + 1 && r.bottom <= innerHeight + 1) || boxes[0]; };
  const out = [];
  for (const el of document.querySelectorAll(squares)) { const b = el.getBoundingClientRect();
    if (b.left < -1 || b.top < -1 || b.right > innerWidth + 1 || b.bottom > innerHeight + 1 || b.width < 8)
      out.push([el.id || el.dataset.sq, Math.round(b.left), Math.round(b.top), Math.round(b.right), Math.round(b.bottom)]); }
  const top = document.querySelector(board);
  // a box as its element and its scrolling (or clipping) ancestors clip it
  const clip = (b, el) => { let r = {left: b.left, top: b.top, right: b.right, bottom: b.bottom};
    for (let p = el; p; p = p.parentElement) { const s = getComputedStyle(p);
      if (s.overflowX !== 'visible' || s.overflowY !== 'visible') { const c = p.getBoundingClientRect();
        r = {left: Math.max(r.left, c.left), top: Math.max(r.top, c.top), right: Math.min(r.right, c.right),
             bottom: Math.min(r.bottom, c.bottom)}; } }
    return r; };
  // Thot's status line: its text's extent against its box (not cut on either side, nor below)
  const st = document.querySelector('#thot-status');
  let status = null;
  if (st && st.getClientRects().length) { const range = document.createRange(); range.selectNodeContents(st);
    const t = range.getBoundingClientRect(), b = st.getBoundingClientRect();
    status = {text: st.textContent, scroll: st.scrollWidth - st.clientWidth,
              out: Math.round(Math.max(b.top - t.top, t.bottom - b.bottom, b.left - t.left, t.right - b.right))}; }
  // the blank band between the head's last text drawn (as its boxes clip it) and the board's box,
  // where the head lies above the board (one column)
  const head = document.querySelector('.game-head'), frame = document.querySelector('.game-board');
  let band = null;
  if (head && frame && head.getClientRects().length
      && head.getBoundingClientRect().bottom <= frame.getBoundingClientRect().top + 1) {
    let last = null;
    const walk = document.createTreeWalker(head, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      const el = n.parentElement;
      if (!n.textContent.trim() || !el.getClientRects().length || getComputedStyle(el).visibility === 'hidden') continue;
      const range = document.createRange(); range.selectNodeContents(n);
      for (const rect of range.getClientRects()) { const r = clip(rect, el);
        if (r.right - r.left > 2 && r.bottom - r.top > 4) last = Math.max(last ?? r.bottom, r.bottom); } }
    // with the score strip's last-move line still empty (before any move: reserved on a phone)
    band = last === null ? null : {gap: Math.round(frame.getBoundingClientRect().top - last),
                                   last: !!document.querySelector('.game-head #sl-last'),
                                   text: Math.round(last), head: Math.round(head.getBoundingClientRect().bottom),
                                   frame: Math.round(frame.getBoundingClientRect().top)}; }
  return {count: document.querySelectorAll(squares).length, out, scrollY,
          wide: document.documentElement.scrollWidth - innerWidth,
          top: top ? Math.round(top.getBoundingClientRect().top + scrollY) : null,
          boxes: parts.map(box), status, band}; }"""

#: The blank band under the head at rest at most (px): the message line's one line reserved (its
#: box 1.45em + 12px ≈ 35 px; 1.25em + 8px ≈ 25 px in Scarabya on a phone), the gaps between the
#: head's lines and the layout's rows (≤ 12 px) and the last line's leading (≈ 3 px): about one
#: line of text. Before the first move a phone's score strip also keeps its empty last-move line
#: (.95rem × 1.45 ≈ 22 px; the board must not move when it fills): ``BAND_FIRST`` more. (With a
#: message line two lines high, as before, Thot left some 90 px at 360×640 before the first move.)
BAND = 50
BAND_FIRST = 24


def inside(box: dict[str, float] | None, w: int, h: int) -> bool:
    return box is not None and box["left"] >= -1 and box["top"] >= -1 and box["right"] <= w + 1 \
        and box["bottom"] <= h + 1 and box["right"] - box["left"] > 6 and box["bottom"] - box["top"] > 6


@pytest.fixture(scope="module")
def tab(browser: Any, server: str) -> Iterator[tuple[Any, Guard]]:
    """One booted page of the site for the module's tests, resized between sizes."""
    yield from booted_tab(browser, server, 1280, 800)


@pytest.fixture(scope="module")
def embeds(browser: Any, server: str) -> Iterator[dict[str, Any]]:
    """The embed page of each game (``embed.html?game=…``, as a blog's frame loads it), one context."""
    guard = Guard()
    ctx = browser.new_context(viewport={"width": 400, "height": 600}, locale="en-GB", service_workers="block")
    ctx.route("**/*", guard.route)
    pages: dict[str, Any] = {}

    def get(game: str) -> Any:
        if game not in pages:
            page = watch(ctx.new_page(), guard)
            page.goto(server + f"embed.html?game={game}")
            page.wait_for_selector("body[data-ready='1']", timeout=60_000)
            page.wait_for_selector("#start", timeout=60_000)
            pages[game] = page
        return pages[game]

    yield {"get": get, "guard": guard}
    ctx.close()
    assert guard.blocked == [] and guard.errors == [], (guard.blocked, guard.errors)


def go(page: Any, route: str, ready: str) -> None:
    page.evaluate("r => { location.hash = r; }", route)
    page.wait_for_selector(ready, timeout=60_000)


def new_game(page: Any, game: str, seed: int = 7, level: str = "computer:1", players: int = 2,
             ruins: bool = False, computers: int = 1) -> None:
    go(page, f"#/{game}/new", "#start")
    page.select_option("#players", str(players))
    for seat in range(1, players):
        page.select_option(f"#seat-{seat}-kind", level if seat <= computers else "person")
    if ruins:
        page.check("#variant-ruins")
    page.evaluate("() => { const box = document.getElementById('seed').closest('details'); if (box) box.open = true; }")
    page.fill("#seed", str(seed))
    page.click("#start")


def write_save(page: Any, save_id: str, game: str, record: GameRecord, embed: bool = False) -> None:
    prefix = "scarab:embed:save:" if embed else "scarab:save:"
    envelope = {"schema": 1, "id": save_id, "game": game, "title": save_id, "created": 1, "updated": 2,
                "revision": 1, "state": record.to_json()}
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [prefix + save_id, json.dumps(envelope)])


def finished(game: str, options: dict[str, Any], seed: int) -> GameRecord:
    """A real game played to its end by random legal moves, a person against the computer."""
    state = engines.factory(game)(options, seed)
    rng = Rng(seed)
    while not state.is_over():
        state.push(rng.choice(list(state.legal_moves())))
    seats = [{"name": "Ada", "computer": False, "level": 1}] + [
        {"name": f"C{i}", "computer": True, "level": 1} for i in range(1, options["players"])]
    return GameRecord.of(state, seats=seats, game_id=f"end-{game}-{seed}")


BOARD = {"thot": "#thot-board", "scarabya": "#sy-board, #sy-board-view"}


def verify(found: dict[str, Any], game: str, label: str, parts: list[tuple[str, str]], size: tuple[int, int],
           board_top: dict[tuple[int, int], int] | None) -> None:
    w, h = size
    assert found["count"] in (36, 100), f"{label} {w}×{h}: {found['count']} squares"
    assert not found["out"], f"{label} {w}×{h}: squares outside the viewport: {found['out'][:6]}"
    assert found["wide"] <= 0, f"{label} {w}×{h}: the page scrolls sideways by {found['wide']} px"
    for (name, sel), box in zip(parts, found["boxes"]):
        assert inside(box, w, h), f"{label} {w}×{h}: {name} ({sel}) is not in the viewport: {box}"
    status = found["status"]
    if status is not None:  # whose turn whole: which row or column the priest moves along is its end
        assert status["scroll"] <= 0 and status["out"] <= 1, \
            f"{label} {w}×{h}: the status line is cut ({status}): {status['text']!r}"
    band = found["band"]
    if band is not None:
        bound = BAND + (0 if band["last"] else BAND_FIRST)
        assert band["gap"] <= bound, \
            f"{label} {w}×{h}: {band['gap']} px blank between the head's last text and the board (at most {bound}): {band}"
    if board_top is not None and size in board_top:
        assert abs(found["top"] - board_top[size]) <= 1, \
            f"{label} {w}×{h}: the board moved from {board_top[size]} to {found['top']}"


def check(page: Any, game: str, label: str, parts: list[tuple[str, str]], sizes: list[tuple[int, int]],
          board_top: dict[tuple[int, int], int] | None = None, scrolled: bool = True) -> dict[tuple[int, int], int]:
    """At each size: every square in the viewport at scroll 0, the working set too; a screenshot.
    With ``board_top`` (per size), the board must lie where it did (nothing jumped); with
    ``scrolled=False`` the page must not have scrolled by itself. Returns the board's top at each size."""
    tops: dict[tuple[int, int], int] = {}
    for w, h in sizes:
        page.set_viewport_size({"width": w, "height": h})
        page.wait_for_timeout(120)  # the resize's redraws
        if scrolled:
            page.evaluate("scrollTo(0, 0)")
        else:  # the page itself must not have scrolled away
            assert page.evaluate("scrollY") == 0, f"{label} {w}×{h}: the page scrolled to {page.evaluate('scrollY')}"
        shot(page, f"boards-{game}-{label}-{w}x{h}", full_page=False)
        found = page.evaluate(MEASURE, {"squares": SQUARES[game], "parts": [sel for _n, sel in parts],
                                        "board": BOARD[game]})
        verify(found, game, label, parts, (w, h), board_top)
        tops[(w, h)] = found["top"]
    return tops


#: (Python, in the page) The open game's next computer turn waits, its engine's steps held, until
#: ``_page.boards_release`` is set; then it plays as ever and the game's own ``computer`` is back.
HOLD = """
import types
_ui = _page.ui
_think = type(_ui).computer
def _held(self, page, level):
    while not getattr(page, "boards_release", False):
        yield
    del self.computer
    return (yield from _think(self, page, level))
_ui.computer = types.MethodType(_held, _ui)
"""


#: (JS) Run Python in the page's interpreter: the site's page loads PyScript's core with a script
#: tag, the embed's from embed_start.js (the same module: one interpreter either way).
RUN_PYTHON = """async (code) => {
  const { whenDefined } = await import(new URL('vendor/pyscript/core.js', document.baseURI).href);
  return (await whenDefined('py')).interpreter.runPython(code); }"""


def python(page: Any, code: str) -> Any:
    """Run Python in the page: the open game page is ``_page``."""
    prelude = ("import gc\nfrom web.pages.play import GamePage\n"
               "_page = [o for o in gc.get_objects() if isinstance(o, GamePage) and not o.closed][-1]\n")
    return page.evaluate(RUN_PYTHON, prelude + code)


def thinking(page: Any, game: str, parts: list[tuple[str, str]], sizes: list[tuple[int, int]], act: Any,
             board_top: dict[tuple[int, int], int], label: str = "thinking") -> None:
    """``act()`` makes the computer think, its turn held in the page: at every size the page has
    not scrolled, the board is where it was at rest, the working set is in view (``check``); then
    the computer is let go and plays."""
    python(page, HOLD)
    try:
        act()
        page.wait_for_selector("#thinking", timeout=30_000)
        check(page, game, label, parts, sizes, board_top, scrolled=False)
        assert page.locator("#thinking").count() == 1  # held all along: the same thinking state measured
    finally:
        python(page, "_page.boards_release = True")
    page.wait_for_selector("#thinking", state="detached", timeout=60_000)


LOG = "document.querySelectorAll('#thot-log li:not(.muted)').length"


class TestThot:
    def test_at_rest_hint_and_take_back_at_every_size(self, tab: Any) -> None:
        page, _guard = tab
        new_game(page, "thot")
        page.wait_for_selector("#thot-board .mark-legal", timeout=60_000)
        rest = check(page, "thot", "start", [*THOT, THOT_TURN, ("a move", "#thot-board .mark-legal")], SIZES)
        page.set_viewport_size({"width": 390, "height": 844})
        page.locator("#thot-board .mark-legal").first.click()
        page.wait_for_function(f"{LOG} >= 2", timeout=60_000)
        page.wait_for_selector("#thot-board .mark-legal", timeout=60_000)
        check(page, "thot", "play", [*THOT, THOT_TURN, THOT_LAST, ("marked", "#thot-board .last")], SIZES, rest)
        page.evaluate("scrollTo(0, 0)")
        page.locator("#thot-hint").click()
        page.wait_for_selector("#thot-board .hinted", timeout=60_000)
        check(page, "thot", "hint", [*THOT, THOT_TURN, THOT_LAST, ("hinted", "#thot-board .hinted"),
                                     ("message", "#play-message:not([hidden])")], SIZES, rest, scrolled=False)
        page.set_viewport_size({"width": 360, "height": 640})
        page.locator("#takeback").click()
        page.wait_for_function(f"{LOG} == 0", timeout=30_000)
        check(page, "thot", "takeback", [*THOT, THOT_TURN], SIZES, rest, scrolled=False)

    def test_while_the_computer_thinks_at_every_size(self, tab: Any) -> None:
        page, _guard = tab
        page.set_viewport_size({"width": 360, "height": 640})
        new_game(page, "thot", seed=11, level="computer:3")
        page.wait_for_selector("#thot-board .mark-legal", timeout=60_000)
        rest = check(page, "thot", "rest", THOT, SIZES)
        page.set_viewport_size({"width": 360, "height": 640})
        thinking(page, "thot", THOT_THINKING, SIZES, lambda: page.locator("#thot-board .mark-legal").first.click(), rest)
        page.wait_for_function(f"{LOG} >= 2", timeout=60_000)

    def test_daily_at_every_size(self, tab: Any) -> None:
        page, _guard = tab
        go(page, f"#/daily/thot?date={DAY}", "#daily-banner #daily-task")
        page.wait_for_selector("#thot-board .mark-legal", timeout=60_000)
        check(page, "thot", "daily", [("status", "#thot-status"), THOT_TURN, ("task", "#daily-task"),
                                      ("a move", "#thot-board .mark-legal")], SIZES)

    def test_end_at_every_size(self, tab: Any) -> None:
        page, _guard = tab
        write_save(page, "thotend", "thot", finished("thot", {"players": 2}, 3))
        go(page, "#/thot/play/thotend", "#thot-result")
        check(page, "thot", "end", THOT_END, SIZES)

    def test_embeds(self, embeds: dict[str, Any]) -> None:
        """The embed frames in every state a game there reaches: at rest, the computer thinking, a
        hint, after a take-back, at the end (an embed has no daily)."""
        page = embeds["get"]("thot")
        new_game(page, "thot")
        page.wait_for_selector("#thot-board .mark-legal", timeout=60_000)
        rest = check(page, "thot", "embed", [*THOT, THOT_TURN], EMBEDS)
        page.set_viewport_size({"width": 400, "height": 600})
        thinking(page, "thot", THOT_THINKING, EMBEDS, lambda: page.locator("#thot-board .mark-legal").first.click(),
                 rest, "embed-thinking")
        page.wait_for_function(f"{LOG} >= 2", timeout=60_000)
        page.wait_for_selector("#thot-board .mark-legal", timeout=60_000)
        check(page, "thot", "embed-play", [*THOT, THOT_TURN, THOT_LAST, ("marked", "#thot-board .last")], EMBEDS, rest)
        page.set_viewport_size({"width": 400, "height": 600})
        page.locator("#thot-hint").click()
        page.wait_for_selector("#thot-board .hinted", timeout=60_000)
        check(page, "thot", "embed-hint", [*THOT, THOT_TURN, THOT_LAST, ("hinted", "#thot-board .hinted")], EMBEDS,
              rest, scrolled=False)
        page.locator("#takeback").click()
        page.wait_for_function(f"{LOG} == 0", timeout=30_000)
        check(page, "thot", "embed-takeback", [*THOT, THOT_TURN], EMBEDS, rest, scrolled=False)
        write_save(page, "thotend", "thot", finished("thot", {"players": 2}, 3), embed=True)
        go(page, "#/thot/play/thotend", ".thot-end .thot-end-actions")
        check(page, "thot", "embed-end", THOT_END, EMBEDS)


class TestScarabya:
    def test_at_rest_hint_and_take_back_at_every_size(self, tab: Any) -> None:
        page, _guard = tab
        new_game(page, "scarabya")
        page.wait_for_selector("#sy-place", timeout=60_000)
        rest = check(page, "scarabya", "start", [*SCARABYA, SY_TURN], SIZES)
        page.set_viewport_size({"width": 390, "height": 844})
        page.locator("#sy-hint").click()
        page.wait_for_selector("#sy-hint-box", timeout=60_000)
        # the hint: the ghost on the hinted squares, its line under the board, and (but on a short
        # phone) the hint's panel
        hint = [("ghost", "#sy-board .sq.ghost.ok"), ("ghost line", "#sy-ghost-status")]
        check(page, "scarabya", "hint", [*SCARABYA, SY_TURN, *hint], SIZES, rest, scrolled=False)
        for size in SIZES[1:]:
            check(page, "scarabya", "hint", [("hint", "#sy-hint-box")], [size])
        page.set_viewport_size({"width": 390, "height": 844})
        page.locator("#sy-place").click()
        page.wait_for_selector(".sy-game[data-moves='2'] #sy-place", timeout=60_000)
        check(page, "scarabya", "play", [*SCARABYA, SY_TURN, SY_LAST], SIZES, rest)
        page.set_viewport_size({"width": 360, "height": 640})
        page.locator("#takeback").click()
        page.wait_for_selector(".sy-game[data-moves='0'] #sy-place", timeout=30_000)
        check(page, "scarabya", "takeback", [*SCARABYA, SY_TURN], SIZES, rest, scrolled=False)

    def test_ruins_at_every_size(self, tab: Any) -> None:
        page, _guard = tab
        new_game(page, "scarabya", ruins=True)
        page.wait_for_selector("#sy-place", timeout=60_000)
        check(page, "scarabya", "ruins", [("pieces", ".sy-pieces"), ("place", "#sy-place"), ("take back", "#takeback"),
                                          ("turn", "#scoreline li.to-move, #sy-turn")], SIZES)

    def test_while_the_computer_thinks_at_every_size(self, tab: Any) -> None:
        page, _guard = tab
        page.set_viewport_size({"width": 360, "height": 640})
        new_game(page, "scarabya", seed=5, level="computer:4")
        page.wait_for_selector("#sy-place", timeout=60_000)
        rest = check(page, "scarabya", "rest", SCARABYA, SIZES)
        page.set_viewport_size({"width": 360, "height": 640})
        page.locator("#sy-hint").click()
        page.wait_for_selector("#sy-hint-box", timeout=60_000)
        thinking(page, "scarabya", SY_THINKING, SIZES, lambda: page.locator("#sy-place").click(), rest)
        page.wait_for_selector(".sy-game[data-moves='2'] #sy-place", timeout=60_000)

    def test_daily_at_every_size(self, tab: Any) -> None:
        page, _guard = tab
        go(page, f"#/daily/scarabya?date={DAY}", "#daily-banner #daily-task")
        page.wait_for_selector("#sy-place", timeout=60_000)
        daily = [("task", "#daily-task"), ("piece", ".sy-mission"), ("rotate", "#sy-rotate"), ("flip", "#sy-flip"),
                 ("place", "#sy-place"), SY_TURN]
        rest = check(page, "scarabya", "daily", daily, SIZES)
        # the piece turned, then its outline shown by a finger's first tap (the two-step touch
        # placement): nothing placed, nothing moved, the outline's line under the board
        page.set_viewport_size({"width": 360, "height": 640})
        page.locator("#sy-rotate").click()
        page.evaluate("""() => { const sq = document.getElementById('sq-E5');
          sq.dispatchEvent(new PointerEvent('pointerdown', {pointerType: 'touch', bubbles: true, isPrimary: true}));
          sq.dispatchEvent(new MouseEvent('click', {bubbles: true})); }""")
        page.wait_for_selector("#sy-board .sq.ghost#sq-E5", timeout=10_000)
        assert page.locator(".sy-game").get_attribute("data-moves") == "0"
        check(page, "scarabya", "daily-outline", [*daily, ("outline", "#sy-board .sq.ghost"),
                                                  ("outline line", "#sy-ghost-status")], SIZES, rest)

    def test_end_at_every_size(self, tab: Any) -> None:
        page, _guard = tab
        write_save(page, "syend", "scarabya", finished("scarabya", {"variant": "classic", "players": 2}, 3))
        go(page, "#/scarabya/play/syend", ".sy-end")
        check(page, "scarabya", "end", SY_END, SIZES)

    def test_embeds(self, embeds: dict[str, Any]) -> None:
        """The embed frames in every state a game there reaches: at rest, a hint, the computer
        thinking, its placement, after a take-back, at the end (an embed has no daily)."""
        page = embeds["get"]("scarabya")
        new_game(page, "scarabya")
        page.wait_for_selector("#sy-place", timeout=60_000)
        rest = check(page, "scarabya", "embed", [*SCARABYA, SY_TURN], EMBEDS)
        page.set_viewport_size({"width": 400, "height": 600})
        page.locator("#sy-hint").click()
        page.wait_for_selector("#sy-hint-box", timeout=60_000)
        check(page, "scarabya", "embed-hint", [*SCARABYA, SY_TURN], EMBEDS, rest, scrolled=False)
        thinking(page, "scarabya", SY_THINKING, EMBEDS, lambda: page.locator("#sy-place").click(), rest,
                 "embed-thinking")
        page.wait_for_selector(".sy-game[data-moves='2'] #sy-place", timeout=60_000)
        check(page, "scarabya", "embed-play", [*SCARABYA, SY_TURN, SY_LAST], EMBEDS, rest)
        page.locator("#takeback").click()
        page.wait_for_selector(".sy-game[data-moves='0'] #sy-place", timeout=30_000)
        check(page, "scarabya", "embed-takeback", [*SCARABYA, SY_TURN], EMBEDS, rest, scrolled=False)
        write_save(page, "syend", "scarabya", finished("scarabya", {"variant": "classic", "players": 2}, 3), embed=True)
        go(page, "#/scarabya/play/syend", ".sy-end")
        check(page, "scarabya", "embed-end", SY_END, EMBEDS)
