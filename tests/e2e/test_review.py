"""The review of a game (web/pages/review.py, issues 19 and 26): the analysis starts as the review opens
and fills the chart and the classes move by move while the moves are stepped through with buttons and
keys; one advantage line with the mistakes marked; the moves in words; board, moves' buttons and chart
in view from a phone to a wide screen, every table inside a 360 px screen; see the classes, the best
move on the board and the chart, find it cached
after a reload; a Scarabeo game shared to be watched shows no analysis; a finished Thot game
analysed to its end, its deliberate blunder found with the engine's move on the board, and shared
with its analysis so the receiver's review opens without computing; a Scarabya game played through
the page against the computer to its end, reviewed from the end panel, its costliest move the same
in the page as in the command line's analysis."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from game.core import GameRecord, Rng
from tests.e2e.conftest import RUN_PYTHON, shot
from web.platform import engines

pytestmark = pytest.mark.e2e

SEATS = [{"name": "Ada"}, {"name": "Scarabot", "computer": True, "level": 1}]


def envelope(save_id: str, game: str, record: GameRecord) -> str:
    return json.dumps({"schema": 1, "id": save_id, "game": game, "title": save_id, "created": 1, "updated": 2,
                       "revision": 1, "state": record.to_json()})


def scarabya_record(moves: int) -> GameRecord:
    state = engines.factory("scarabya")({"players": 2}, 3)
    rng = Rng(3)
    while len(state.history()) < moves:
        state.push(rng.choice(list(state.legal_moves())))
    return GameRecord.of(state, seats=SEATS, game_id="rv-sy")


def scarabeo_watch(lex: Any) -> GameRecord:
    from game.scarabeo import ai
    from game.scarabeo.game import ScarabeoState

    state = ScarabeoState.from_options({"players": 2}, 5, word_list=lex)
    while len(state.history()) < 4:
        state.push(ai.choose(state, "beginner", lex))
    return GameRecord.of(state, seats=[{"name": "Anna"}, {"name": "Bea"}], game_id="rv-sc", replay=True)


#: Thot: the record's one deliberately bad move (Ada's sixth), and the game's seed (8×8 board).
THOT_BAD_PLY, THOT_SEED = 11, 7


def thot_giveaway(state: Any) -> Any:
    """The move that hands the opponent the biggest capture next, net of what it takes itself."""
    me, worst = state.mover, None
    for move in state.legal_moves():
        state.push(move)
        taken, reply = state.score[me], 0
        if not state.is_over():
            other = state.mover
            before = state.score[other]
            for answer in state.legal_moves():
                state.push(answer)
                reply = max(reply, state.score[other] - before)
                state.pop()
        state.pop()
        key = (reply - taken, move.code)
        if worst is None or key > worst[0]:
            worst = (key, move)
    assert worst is not None
    return worst[1]


def thot_record() -> GameRecord:
    """A finished short Thot game, Ada against the computer, greedy moves but one giveaway."""
    from game.thot import match
    from game.thot.state import ThotState

    state = ThotState.from_options({"short": True}, THOT_SEED)
    rng = Rng(THOT_SEED)
    while not state.is_over():
        bad = len(state.history()) + 1 == THOT_BAD_PLY
        state.push(thot_giveaway(state) if bad else match.choose(state, "greedy", rng))
    return GameRecord.of(state, seats=SEATS, game_id="rv-th")


def step(page: Any) -> int:
    return int(page.get_attribute("#review", "data-step"))


def wait_step(page: Any, n: int) -> None:
    page.wait_for_selector(f"#review[data-step='{n}']", timeout=10_000)


def test_review_steps_analyses_caches_and_hides(page: Any, open_site: Any, lex: Any) -> None:
    open_site(page)
    saves = {"scarab:save:rv-sy": envelope("rv-sy", "scarabya", scarabya_record(8)),
             "scarab:save:rv-sc": envelope("rv-sc", "scarabeo", scarabeo_watch(lex))}
    page.evaluate("items => { for (const [k, v] of Object.entries(items)) localStorage.setItem(k, v); }", saves)

    # the game page's toolbar opens the review
    open_site(page, "#/scarabya/play/rv-sy")
    page.click("#review")
    page.wait_for_selector("#review[data-total='8']")
    assert step(page) == 8
    assert page.locator("#review-board .sy-board").count() == 1

    # buttons, keys
    page.click("#review-first")
    wait_step(page, 0)
    assert page.is_disabled("#review-prev")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    wait_step(page, 2)
    page.click("#review-next")
    wait_step(page, 3)
    assert "3" in page.locator("#review-moves [aria-current]").inner_text()
    page.keyboard.press("End")
    wait_step(page, 8)
    page.click("#review-moves [data-ply='1']")
    wait_step(page, 1)
    assert "Ada" in page.inner_text("#review-caption")

    # in progress against the computer: only Ada's moves are analysed, and the page says so; the
    # analysis started by itself when the review opened
    assert "Ada" in page.inner_text("#review-scope")
    page.wait_for_selector("#review[data-analysed='1']", timeout=60_000)
    ms = int(page.get_attribute("body", "data-analysis-ms"))
    longest = int(page.get_attribute("body", "data-analysis-longest-ms"))
    print(f"scarabya, 4 of 8 moves analysed: {ms} ms, longest task {longest} ms")
    assert page.locator("#review-moves .review-class").count() == 4
    assert page.get_attribute("#review-class", "data-class") in ("best", "good", "inaccuracy", "mistake", "blunder")
    assert page.locator("#review-alts tbody tr").count() >= 1
    # the engine's best drawn on the board (the position before the move, its squares marked)
    page.click("#review-best")
    page.wait_for_selector("#review-board[data-best='1'] .sq.ghost.ok")
    page.click("#review-next")
    wait_step(page, 2)
    assert "another player" in page.inner_text("#review-reason")
    # the chart: one line; a click at its right end goes to the last move; its table names every step
    assert page.locator("#review-chart polyline.adv-line").count() == 1
    assert page.locator("#review-chart polyline").count() == 1
    assert page.locator("#review-chart-table tbody tr").count() == 9
    box = page.locator("#review-chart").bounding_box()
    page.locator("#review-chart").click(position={"x": box["width"] - 12, "y": box["height"] / 2})
    wait_step(page, 8)
    assert page.locator("#review-summary thead th[data-seat]").count() == 2  # a column per player

    # cached in the save: a reload shows it at once, without computing
    page.reload()
    page.wait_for_selector("body[data-ready='1']", timeout=60_000)
    page.wait_for_selector("#review[data-analysed='1'][data-cached='1']", timeout=20_000)
    assert page.locator("#review-progress").count() == 0
    assert page.locator("#review-moves .review-class").count() == 4
    stored = json.loads(page.evaluate("localStorage.getItem('scarab:save:rv-sy')"))
    assert stored["state"]["meta"]["analysis"]["format"] == "scarab-analysis"

    # a Scarabeo game shared to be watched: stepped through as the table saw it, nothing analysed
    # (issue 24: the watch kept whole by an older version is kept as its public record from now on)
    open_site(page, "#/scarabeo/review/rv-sc")
    page.wait_for_selector("#review[data-total='4']", timeout=60_000)
    assert "racks are private" in page.inner_text("#review-scope")
    assert page.locator("#review-board .sc-board").count() == 1
    assert page.locator("#review-analyse").count() == 0
    page.click("#review-first")
    wait_step(page, 0)
    page.keyboard.press("ArrowRight")
    wait_step(page, 1)
    assert page.locator("#review-board .sc-sq.last").count() > 0
    stored = json.loads(page.evaluate("localStorage.getItem('scarab:save:rv-sc')"))
    assert stored["state"]["format"] == "scarab-watch" and "seed" not in json.dumps(stored)
    assert page.locator("#review-chart polyline.adv-line").count() == 1  # the scores, which are public


def test_thot_review_to_the_end_the_blunder_and_a_shared_analysis(page: Any, open_site: Any,
                                                                  context_factory: Any, guard: Any) -> None:
    from tests.e2e.conftest import watch

    record = thot_record()
    total = len(record.moves)
    open_site(page)
    page.evaluate("([k, v]) => localStorage.setItem(k, v)",
                  ["scarab:save:rv-th", envelope("rv-th", "thot", record)])
    open_site(page, "#/thot/review/rv-th")
    page.wait_for_selector(f"#review[data-total='{total}']")
    assert page.locator("#review-board .thot-board").count() == 1
    assert page.locator("#review-scope").count() == 0  # the game is over: everything is analysed

    # the whole game analysed in slices as the review opens, the progress bar moving, to the end
    page.wait_for_selector("#review-progress, #review[data-analysed='1']")
    page.wait_for_function("document.getElementById('review-progress') === null "
                           "|| document.getElementById('review-progress').value > 0", timeout=30_000)
    page.wait_for_selector("#review[data-analysed='1']", timeout=180_000)
    ms = int(page.get_attribute("body", "data-analysis-ms"))
    longest = int(page.get_attribute("body", "data-analysis-longest-ms"))
    print(f"thot, {total} moves analysed: {ms} ms, longest task {longest} ms")
    assert page.locator("#review-moves .review-class").count() == total

    # a point on the chart goes to the blunder
    box = page.locator("#review-chart").bounding_box()
    left, right = 44 / 600 * box["width"], (600 - 10) / 600 * box["width"]
    page.locator("#review-chart").click(position={"x": left + (right - left) * THOT_BAD_PLY / total,
                                                  "y": box["height"] / 2})
    wait_step(page, THOT_BAD_PLY)
    assert page.locator("#review-chart-table tbody tr[aria-current='step'] th").text_content() == str(THOT_BAD_PLY)
    assert page.get_attribute("#review-class", "data-class") in ("mistake", "blunder")
    played = record.moves[THOT_BAD_PLY - 1]
    best = page.get_attribute("#review-alts tbody tr:first-child", "data-move")
    assert best and best != played
    assert page.locator("#review-alts tr.played").count() == 1

    # the engine's move drawn on the board before the blunder: its squares hinted
    page.click("#review-best")
    page.wait_for_selector("#review-board[data-best='1'] .thot-cell.hinted")
    hinted = page.locator("#review-board .thot-cell.hinted").evaluate_all(
        "cells => cells.map(c => c.getAttribute('aria-label').split(',')[0])")
    assert set(hinted) == set(re.findall(r"[A-J](?:10|[1-9])", best)), (best, hinted)
    assert best in page.get_attribute("#review-board [role=grid]", "aria-label")
    shot(page, "review-thot-best")

    # shared with its analysis: the receiver's review opens analysed, nothing computed
    page.click("#review-back")
    page.wait_for_selector("#share")
    page.click("#share")
    page.wait_for_selector("#share-analysis")
    assert not page.is_checked("#share-analysis") and not page.is_disabled("#share-analysis")
    plain = page.locator("#share-link").input_value()
    page.check("#share-analysis")
    page.wait_for_function(f"document.getElementById('share-link').value.length > {len(plain)}")
    link = page.locator("#share-link").input_value()
    shot(page, "review-thot-share", full_page=False)
    print(f"thot link: {len(plain)} characters, {len(link)} with its analysis")
    other = watch(context_factory().new_page(), guard)
    other.goto(link)
    other.wait_for_selector("body[data-ready='1']", timeout=60_000)
    other.wait_for_selector("#review")
    other.click("#review")
    other.wait_for_selector("#review[data-analysed='1'][data-cached='1']", timeout=20_000)
    assert other.locator("#review-progress").count() == 0
    assert other.locator("#review-moves .review-class").count() == total
    other.click(f"#review-moves [data-ply='{THOT_BAD_PLY}']")
    wait_step(other, THOT_BAD_PLY)
    assert other.get_attribute("#review-alts tbody tr:first-child", "data-move") == best


def test_scarabya_game_played_to_its_end_against_the_computer_then_reviewed(page: Any, open_site: Any) -> None:
    """Ada places every tile where the ghost starts (the first fit in reading order: a weak player),
    the computer answers, the game ends; the end panel's Review opens it, the page analyses it, and
    Ada's costliest placement — found by the command line's analysis of the saved record — shows
    the same class and the same best placement, drawn on the board, and its point on the chart."""
    from game.scarabya import analysis

    open_site(page, "#/scarabya/new")
    page.select_option("#players", "2")
    page.fill("#seat-0-name", "Ada")
    page.select_option("#seat-1-kind", "computer:2")
    page.fill("#seed", "11")
    page.click("#start")
    person_or_end = ("() => !document.getElementById('thinking') && (document.getElementById('sy-end') || "
                     "document.getElementById('sy-discard') || (document.getElementById('sy-place') "
                     "&& !document.getElementById('sy-place').disabled))")
    for _ in range(60):
        page.wait_for_function(person_or_end, timeout=60_000)
        if page.locator("#sy-end").count():
            break
        moves = int(page.get_attribute(".sy-game", "data-moves"))
        page.click("#sy-discard" if page.locator("#sy-discard").count() else "#sy-place")
        page.wait_for_function(f"() => {{ const g = document.querySelector('.sy-game');"
                               f" return g && (+g.dataset.moves > {moves} || g.dataset.over === '1'); }}",
                               timeout=60_000)
    else:
        pytest.fail("the game did not end")
    save_id = page.evaluate("location.hash.split('/').pop()")
    record = GameRecord.from_json(json.loads(page.evaluate(f"localStorage.getItem('scarab:save:{save_id}')"))["state"])
    expected = analysis.analyse(record)
    ada = [m for m in expected.moves if m.seat == 0 and m.analysed]
    worst = max(ada, key=lambda m: (m.loss or 0, -m.ply))
    assert worst.loss and worst.loss > 0, "a first-fit player makes at least one costly placement"

    page.click("#end-review")
    page.wait_for_selector(f"#review[data-total='{len(record.moves)}']", timeout=30_000)
    assert page.locator("#review-scope").count() == 0  # over: every move is analysed
    page.wait_for_selector("#review[data-analysed='1']", timeout=120_000)
    assert page.locator("#review-moves .review-class").count() == sum(1 for m in expected.moves if m.analysed)

    # the chart's table row of that move, then the move itself: the command line's numbers
    assert page.locator(f"#review-chart-table tbody tr:nth-child({worst.ply + 1}) th").text_content() == str(worst.ply)
    page.click(f"#review-moves [data-ply='{worst.ply}']")
    wait_step(page, worst.ply)
    assert page.get_attribute("#review-class", "data-class") == worst.klass
    best = worst.best[0]
    assert page.get_attribute("#review-alts tbody tr:first-child", "data-move") == best.move
    assert page.locator("#review-alts tr.played").count() == 1
    page.click("#review-best")
    page.wait_for_selector("#review-board[data-best='1'] .sq.ghost.ok")
    ghost = page.locator("#review-board .sq.ghost.ok").evaluate_all(  # ids are dropped on a still board
        "cells => cells.map(c => (c.getAttribute('aria-label') || '').split(/[,:]/)[0].trim())")
    assert sorted(ghost) == sorted(best.detail["squares"]), (ghost, best.detail)
    shot(page, "review-scarabya-played-best")


def in_view(page: Any, selector: str) -> bool:
    return bool(page.evaluate("s => { const b = document.querySelector(s).getBoundingClientRect();"
                              " return b.width > 0 && b.left >= -1 && b.top >= -1 && b.right <= innerWidth + 1"
                              " && b.bottom <= innerHeight + 1; }", selector))


#: How many moves the held analysis may analyse before it waits for the test.
HELD = 30
#: (page Python) wrap the review's analysis generator: past HELD moves it pauses until released
HOLD_ANALYSIS = f"""
from web.platform import review_model as _rm
_e2e_gate = {{"hold": True, "plain": _rm.analyse_steps}}

def _e2e_held(record, scope, progress, lexicon=None):
    steps = _e2e_gate["plain"](record, scope, progress, lexicon)
    while True:
        while _e2e_gate["hold"] and len(progress.moves) >= {HELD}:
            yield 0.05
        try:
            pause = next(steps)
        except StopIteration as stop:
            return stop.value
        yield pause

_rm.analyse_steps = _e2e_held
"""
#: (page Python) let the held analysis go on, and put the plain generator back for the next tests
RELEASE_ANALYSIS = """
_e2e_gate["hold"] = False
_rm.analyse_steps = _e2e_gate["plain"]
"""


def test_the_analysis_starts_at_once_and_the_review_is_usable_meanwhile(page: Any, open_site: Any) -> None:
    """Issue 26: no button to press. The 90-move Thot game of the bench: the chart has points and the
    list classes while the analysis still runs; the moves are stepped through meanwhile, and a move
    reached by the analysis shows its class where the person stands; one line, the mistakes marked
    on it as the list classes them; the moves in words with their notation beside."""
    from tools.bench_review import record_of

    record = record_of("thot")
    total = len(record.moves)
    open_site(page)
    # the analysis (~7 s) is held after HELD moves until the test lets it go: what happens while it
    # runs is then seen whatever the machine's speed
    page.evaluate(RUN_PYTHON, HOLD_ANALYSIS)
    try:
        review_while_analysing(page, open_site, record, total)
    finally:
        page.evaluate(RUN_PYTHON, RELEASE_ANALYSIS)


def review_while_analysing(page: Any, open_site: Any, record: GameRecord, total: int) -> None:
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", ["scarab:save:rv-90", envelope("rv-90", "thot", record)])
    open_site(page, "#/thot/review/rv-90")
    page.wait_for_selector(f"#review[data-total='{total}']")
    # nothing pressed: the analysis runs, and the chart draws the moves analysed so far
    page.wait_for_function("() => { const c = document.getElementById('review-chart');"
                           " return c && +c.dataset.points >= 2; }", timeout=60_000)
    assert page.get_attribute("#review", "data-analysing") == "1"
    assert page.locator("#review-moves .review-class").count() < total
    # stepping while it analyses: keys and buttons answer, the analysis goes on
    page.keyboard.press("Home")
    wait_step(page, 0)
    page.keyboard.press("ArrowRight")
    wait_step(page, 1)
    page.click("#review-next")
    wait_step(page, 2)
    assert page.get_attribute("#review", "data-analysing") == "1"
    page.wait_for_selector("#review-class", timeout=60_000)  # move 2's class, once analysed
    page.click("#review-moves [data-ply='60']")
    wait_step(page, 60)
    assert page.get_attribute("#review", "data-analysing") == "1"
    assert page.locator("#review-moves .review-class").count() <= HELD
    page.evaluate(RUN_PYTHON, RELEASE_ANALYSIS)
    # more moves analysed after the page was drawn again: each classed once
    page.wait_for_function(f"document.querySelectorAll('#review-moves .review-class').length > {HELD}",
                           timeout=60_000)
    assert page.evaluate("[...document.querySelectorAll('#review-moves button')]"
                         ".every(b => b.querySelectorAll('.review-class').length <= 1)")
    page.wait_for_selector("#review[data-analysed='1']", timeout=180_000)
    assert step(page) == 60  # the end of the analysis leaves the person where they are
    assert page.locator("#review-moves .review-class").count() == total
    assert page.locator("#review-cancel").count() == 0 and page.locator("#review-progress").count() == 0

    # one line (with its area), the mistakes marked on it as the list classes them
    assert page.locator("#review-chart polyline").count() == 1
    assert page.get_attribute("#review-chart", "data-points") == str(total)
    marked = page.locator("#review-moves .c-inaccuracy, #review-moves .c-mistake, #review-moves .c-blunder").count()
    assert marked > 0 and page.locator("#review-chart circle.adv-mark").count() == marked
    assert page.locator("#review-chart .adv-up").count() == 1 and page.locator("#review-chart .adv-down").count() == 1
    assert page.inner_text("#review-chart-caption") == "Ada's advantage"

    # the moves in words, the notation beside
    first = page.locator("#review-moves [data-ply='1']")
    assert "moved the priest" in first.inner_text() and "Ada" in first.inner_text()
    assert first.locator(".review-move-notation").inner_text() == record.moves[0]
    assert page.inner_text("#review-notation") == f"Notation: {record.moves[59]}"
    shot(page, "review-thot-90", full_page=False)


SIZES = ((360, 640), (390, 844), (1366, 768), (1920, 1080))


def test_board_moves_and_chart_in_view_and_tables_fit_a_phone(booted: Any, open_site: Any, lex: Any) -> None:
    """Issue 26: at 360×640, 390×844, 1366×768 and 1920×1080 the board, the moves' buttons and the
    chart are in view as the review opens; at 360 px no table is wider than the screen (the Scarabeo
    summary was cut at 390 px): a Scarabeo game of Ada against the computer, her moves analysed."""
    from game.scarabeo import ai
    from game.scarabeo.game import ScarabeoState

    state = ScarabeoState.from_options({"players": 2}, 6, word_list=lex)
    while len(state.history()) < 6:
        state.push(ai.choose(state, "casual", lex))
    record = GameRecord.of(state, seats=[{"name": "Ada Lovelace-Byron"},
                                         {"name": "Scarabot", "computer": True, "level": 4}], game_id="rv-fit")
    page = booted(360, 640, has_touch=True)
    open_site(page)
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", ["scarab:save:rv-fit", envelope("rv-fit", "scarabeo", record)])
    open_site(page, "#/scarabeo/review/rv-fit")
    page.wait_for_selector("#review[data-total='6']")
    page.wait_for_selector("#review[data-analysed='1']", timeout=120_000)
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate("window.scrollTo(0, 0)")
        # drawn again at this size
        page.keyboard.press("Home")
        wait_step(page, 0)
        page.keyboard.press("End")
        wait_step(page, 6)
        page.wait_for_timeout(300)
        for part in ("#review-board > :first-child", "#review-last", "#review-chart"):  # the board, not its caption
            assert in_view(page, part), (width, height, part, page.evaluate(
                "s => JSON.stringify(document.querySelector(s).getBoundingClientRect())", part))
        # the whole board at rest, as the game page shows it: every square in view, none zoomed away
        out = page.evaluate("""() => [...document.querySelectorAll('#review-board [data-sq]')].filter(c => {
            const b = c.getBoundingClientRect(); return b.left < -1 || b.top < -1 || b.right > innerWidth + 1
              || b.bottom > innerHeight + 1 || b.width < 12; }).length""")
        assert page.locator("#review-board [data-sq]").count() == 289 and out == 0, (width, height, out)
        shot(page, f"review-scarabeo-{width}x{height}", full_page=False)
    page.set_viewport_size({"width": 360, "height": 640})
    page.click("#review-moves [data-ply='1']")
    wait_step(page, 1)
    page.locator("#review-chart-details summary").click()
    tables = page.evaluate("() => [...document.querySelectorAll('#review table')].map(t => ({id: t.id,"
                           " right: t.getBoundingClientRect().right, wide: t.parentElement.scrollWidth,"
                           " box: t.parentElement.clientWidth}))")
    assert {t["id"] for t in tables} >= {"review-alts", "review-summary", "review-chart-table"}
    for t in tables:
        assert t["right"] <= 360 and t["wide"] <= t["box"], t
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.locator("#review-summary").scroll_into_view_if_needed()
    shot(page, "review-scarabeo-360-tables", full_page=False)
