"""Learning Scarab — the Game of Thot in Chromium: the rules page in Italian and English (diagrams drawn
by the game page's own board, no raw message keys, no sideways scrolling on a phone), and the guided
first game completed by clicking the board — with a refused move, and leaving and resuming half-way.

The test process reads the tutorial game from the page's own save, replays it with the engine, and
asks the step's own suggestion (the moves its check accepts) which squares to click; the wrong move
is a legal one the check refuses.
"""

from __future__ import annotations

import json
import re
import time
from typing import Any

import pytest

from game.core import GameRecord
from game.thot.board import VALUE
from game.thot.notation import scarab_text
from game.thot.search import best_move
from game.thot.state import ThotState
from tests.e2e.conftest import SIZES, Guard, shot, watch
from web.platform.i18n import Messages, load_catalogue
from web.games.thot.tutorial import TUTORIAL

CATALOGUE = load_catalogue()
KEY = re.compile(r"^(thot|rules|tutorial|game|play)\.[\w.-]+$")
#: Collects every text the tutorial note shows, however briefly (the computer's reply redraws the page).
NOTE_WATCH = """() => { window.__notes = []; new MutationObserver(() => {
    const n = document.getElementById('tutorial-note');
    if (n && !window.__notes.includes(n.textContent)) window.__notes.push(n.textContent);
  }).observe(document.body, {childList: true, subtree: true}); }"""


def text(key: str, lang: str = "en", **params: Any) -> str:
    return str(Messages(CATALOGUE, lang)(key, **params))


def start_state() -> ThotState:
    return ThotState.from_options(dict(TUTORIAL.options), TUTORIAL.seed)


def passing(state: ThotState, step: int) -> list[str]:
    suggest = TUTORIAL.steps[step].suggest
    assert suggest is not None
    return suggest(state)


# --- the tutorial on the engine alone ---------------------------------------------------------------
class TestTutorialSteps:
    def test_every_step_has_its_texts_in_both_languages(self) -> None:
        keys = [f"thot.tutorial.{s.key}{end}" for s in TUTORIAL.steps for end in ("", ".done", ".retry")]
        for key in keys + [TUTORIAL.outro]:
            assert key in CATALOGUE and set(CATALOGUE[key]) >= {"it", "en"}, key

    def test_every_path_through_the_steps_can_be_finished(self) -> None:
        """Whichever accepted move the person makes, the next step still has an accepted move, and a
        legal move the step refuses exists (the one the browser test plays to see the retry text)."""
        paths = [start_state()]
        for step in range(len(TUTORIAL.steps)):
            following = []
            for state in paths:
                good = passing(state, step)
                assert good, f"step {step + 1} cannot be done"
                moves = [state.move_text(m) for m in state.legal_moves()]
                assert any(m not in good for m in moves), f"step {step + 1} refuses nothing"
                for move in good:
                    nxt = state.copy()
                    result = nxt.push_text(move)
                    assert TUTORIAL.steps[step].check(nxt, move, result)
                    if not nxt.is_over():
                        reply = best_move(nxt, 1).move  # the tutorial's computer is level 1
                        assert reply is not None
                        nxt.push(reply)
                    following.append(nxt)
            paths = following
        assert paths

    def test_the_lessons_hold_on_this_seed(self) -> None:
        """Step 2's greedy move is refused (it hands the computer a green scarab); step 3 gives back red."""
        state = start_state()
        state.push_text(passing(state, 0)[0])
        state.push(best_move(state, 1).move)  # type: ignore[arg-type]
        gains = {state.move_text(m): VALUE[state.board[m.dest]] for m in state.legal_moves()}
        greedy = max(gains, key=lambda m: gains[m])
        assert greedy not in passing(state, 1)
        assert all(gains[m] < gains[greedy] for m in passing(state, 1))


# --- helpers for the browser ----------------------------------------------------------------------
def raw_keys_shown(page: Any, root: str) -> list[str]:
    """Texts and accessible names under ``root`` that are a catalogue key (or look like one)."""
    texts = page.evaluate("""root => { const out = []; const w = document.createTreeWalker(
        document.querySelector(root), NodeFilter.SHOW_TEXT); let n;
        while ((n = w.nextNode())) { const s = n.textContent.trim(); if (s) out.push(s); }
        for (const e of document.querySelectorAll(root + ' [aria-label]')) out.push(e.getAttribute('aria-label'));
        return out; }""", root)
    return [s for s in texts if s in CATALOGUE or KEY.match(s) or re.search(r"\bthot\.(rules|tutorial)\.", s)]


def no_horizontal_scroll(page: Any) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")


def engine_state(page: Any) -> ThotState:
    """The tutorial game as the page saved it, replayed by the engine."""
    save_id = page.url.split("/play/")[1]
    envelope = json.loads(page.evaluate(f"localStorage.getItem('scarab:save:{save_id}')"))
    state = GameRecord.from_json(envelope["state"]).replay(ThotState.from_options)
    assert isinstance(state, ThotState)
    return state


def wait_for_person(page: Any, moves: int) -> ThotState:
    """Wait until ``moves`` moves are saved, the person is to move and the board shows their moves."""
    deadline = time.time() + 60
    while time.time() < deadline:
        if page.locator("#thinking").count() == 0 and "/play/" in page.url:
            state = engine_state(page)
            if len(state.history()) == moves and state.to_move() == 0:
                page.wait_for_selector("#thot-board .mark-legal")
                return state
        page.wait_for_timeout(200)
    raise AssertionError(f"the game did not reach {moves} moves with the person to move")


def banner_step(page: Any, n: int) -> None:
    page.wait_for_function("t => (document.querySelector('#tutorial h2') || {}).textContent === t",
                           arg=text("tutorial.heading", n=n, total=len(TUTORIAL.steps)), timeout=30_000)


def click_move(page: Any, state: ThotState, move_text: str) -> None:
    """Make ``move_text`` by clicking: the destination, then (after an ankh) the scarab and its square."""
    move = state.parse_move(move_text)
    name = state.geo.name
    assert move.turn is None  # the tutorial is not the turn-off variant
    page.click(f"#thot-{name(move.dest)}")
    if move.drop is not None:
        page.wait_for_selector("#thot-drop")
        page.click(f"[id='thot-drop-{scarab_text(move.piece)}']")
        page.wait_for_selector(f"#thot-{name(move.drop)}.mark-drop")
        page.click(f"#thot-{name(move.drop)}")


# --- the rules page ----------------------------------------------------------------------------------
class TestRulesPage:
    @pytest.mark.e2e
    @pytest.mark.parametrize("lang,size", [("it", "phone"), ("en", "desktop")])
    def test_rules_render_with_live_diagrams(self, booted: Any, open_site: Any, lang: str, size: str) -> None:
        width, height = SIZES[size]
        page = booted(width, height, locale="it-IT" if lang == "it" else "en-GB")
        open_site(page, "#/thot/rules")
        page.wait_for_selector("#rules-thot figure .thot-board")
        title = text("rules.title", lang, game=text("game.thot.name", lang))
        assert page.locator("#rules-thot h1").text_content() == title
        for key in ("thot.rules.aim.title", "thot.rules.turn.title", "thot.rules.ankh.title",
                    "thot.rules.end.title", "thot.rules.variants.title", "rules.advice", "rules.decisions"):
            assert page.locator("#rules-thot h2", has_text=text(key, lang)).count() == 1, key
        # The rulebook's tricks for winning, all three.
        for key in ("thot.rules.advice.ankh", "thot.rules.advice.low", "thot.rules.advice.two"):
            assert page.locator("#thot-rules-advice li", has_text=text(key, lang)).count() == 1
        # Five diagrams, each a whole 8×8 board named by its caption; no ids clash with a game page.
        figures = page.locator("#rules-thot figure.thot-diagram")
        assert figures.count() == 5
        for i in range(5):
            fig = figures.nth(i)
            caption = fig.locator("figcaption").text_content() or ""
            assert caption and "{" not in caption
            grid = fig.locator("[role=grid]")
            assert grid.get_attribute("aria-label") == text("thot.rules.fig.label", lang, caption=caption)
            assert grid.locator("[role=gridcell]").count() == 64
            assert grid.locator("[id], [tabindex]").count() == 0
        # The priest move and the perpendicular reply: before, row 5 is marked; after H5, column H only.
        before = page.locator("#thot-fig-before")
        assert sorted(c.get_attribute("aria-label").split(",")[0]
                      for c in before.locator(".mark-legal").all()) == ["A5", "F5", "H5"]
        after = page.locator("#thot-fig-after")
        assert sorted(c.get_attribute("aria-label").split(",")[0]
                      for c in after.locator(".mark-legal").all()) == ["H2", "H4"]
        assert after.locator(".priest").get_attribute("aria-label").startswith("H5")
        # The trick: one piece left in the column, one legal reply.
        assert page.locator("#thot-fig-trick .mark-legal").count() == 1
        assert page.locator("#thot-fig-ankh .mark-drop").count() > 0
        assert page.locator("#thot-fig-turn .mark-legal").count() == 3
        assert raw_keys_shown(page, "#rules-thot") == []
        if size == "phone":
            no_horizontal_scroll(page)
        # Diagrams are pictures: clicking one does nothing and raises no error.
        page.locator("#thot-fig-before [data-sq]").first.click(force=True)
        shot(page, f"thot-rules-{lang}-{size}")
        if lang == "it":  # the guided game's first step in Italian too
            open_site(page, "#/thot/tutorial")
            page.wait_for_selector("#tutorial-task")
            assert page.locator("#tutorial-task").text_content() == text("thot.tutorial.take", "it")
            page.wait_for_selector("#thot-board .mark-legal")
            assert raw_keys_shown(page, "#tutorial") == []
            no_horizontal_scroll(page)
            shot(page, "thot-tutorial-it-phone")


# --- the guided first game ------------------------------------------------------------------------
class TestTutorial:
    @pytest.mark.e2e
    def test_guided_game_end_to_end(self, page: Any, open_site: Any, server: str) -> None:
        steps = TUTORIAL.steps
        open_site(page, "#/thot/new")
        page.wait_for_selector("#tutorial-offer", timeout=60_000)  # offered on the first visit
        page.click("#tutorial-start")
        page.wait_for_selector("#tutorial")
        banner_step(page, 1)
        assert page.locator("#tutorial-task").text_content() == text("thot.tutorial.take")
        state = wait_for_person(page, 0)

        # A legal move the step refuses: taken back, the retry text shown, the board as before.
        good = passing(state, 0)
        wrong = next(state.move_text(m) for m in state.legal_moves() if state.move_text(m) not in good)
        click_move(page, state, wrong)
        page.wait_for_function("t => (document.getElementById('tutorial-note') || {}).textContent === t",
                               arg=text("thot.tutorial.take.retry"))
        banner_step(page, 1)
        assert len(engine_state(page).history()) == 0
        assert page.locator("#thot-log li:not(.muted)").count() == 0

        # Step 1 done: the explanation is shown, then the computer answers across.
        page.evaluate(NOTE_WATCH)
        click_move(page, state, good[0])
        state = wait_for_person(page, 2)
        assert text("thot.tutorial.take.done") in page.evaluate("window.__notes")
        first, reply = state.history()
        assert (first.dest // state.size == reply.dest // state.size)  # the reply went along the row
        banner_step(page, 2)
        assert page.locator("#tutorial-task").text_content() == text("thot.tutorial.across")
        shot(page, "thot-tutorial-desktop")
        page.set_viewport_size({"width": SIZES["phone"][0], "height": SIZES["phone"][1]})
        no_horizontal_scroll(page)
        shot(page, "thot-tutorial-phone")
        page.set_viewport_size({"width": SIZES["desktop"][0], "height": SIZES["desktop"][1]})

        # Leave half-way (to the chooser, where the Continue list holds the tutorial), come back through
        # the tutorial link: it resumes at step 2.
        save_id = page.url.split("/play/")[1]
        open_site(page, "#/")
        page.wait_for_selector(f".saves [data-save='{save_id}'] a.title")
        open_site(page, "#/thot/tutorial")
        page.wait_for_url(re.compile(r"/play/"))
        page.wait_for_selector("#tutorial")
        banner_step(page, 2)
        state = wait_for_person(page, 2)

        # Steps 2 and 3 by the moves their checks accept.
        for n in range(1, len(steps)):
            page.evaluate(NOTE_WATCH)
            move = passing(state, n)[0]
            click_move(page, state, move)
            if n + 1 < len(steps):
                banner_step(page, n + 2)
                state = wait_for_person(page, 2 * (n + 1))
                assert page.locator("#tutorial-task").text_content() == text(f"thot.tutorial.{steps[n + 1].key}")
            assert text(f"thot.tutorial.{steps[n].key}.done") in page.evaluate("window.__notes")
        page.wait_for_function("t => (document.querySelector('#tutorial h2') || {}).textContent === t",
                               arg=text("tutorial.finished"))
        assert page.locator("#tutorial-task").text_content() == text(TUTORIAL.outro)
        final = engine_state(page)
        ankh_move = final.history()[4]
        assert ankh_move.drop is not None and VALUE[final.board[ankh_move.drop]] < 0  # back on the board
        assert all(VALUE[c] > 0 for c in final.collection(0))  # and no longer the person's
        assert raw_keys_shown(page, "#tutorial") == []
        assert page.locator("#tutorial a[href='#/thot/rules']").count() == 1
        shot(page, "thot-tutorial-done-desktop")
