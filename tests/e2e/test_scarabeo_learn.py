"""Learning Scarabeo in Chromium: the rules page in Italian and English (diagrams drawn by the game's
renderer, no raw message keys), and the guided first game completed through the board — with a
refused move, and leaving and resuming half-way.

The test process reads the tutorial game from the page's own save, replays it with the engine and the
real lexicon, and asks the move generator for a play that does (or, once, does not) do what the step
asks, judged by the tutorial's own checks; it then types that play on the board like a person would.
"""

from __future__ import annotations

import re
import time
from typing import Any, Callable

import pytest

from tests.e2e.conftest import Guard, shot, watch

pytestmark = pytest.mark.e2e


from game.scarabeo.board import SIZE, square_name  # noqa: E402
from game.scarabeo.game import ScarabeoState  # noqa: E402
from game.scarabeo.movegen import GenPlay, MoveGenerator, to_play  # noqa: E402
from web.platform.i18n import Messages, load_catalogue  # noqa: E402
from tests.e2e.test_scarabeo import engine_state  # noqa: E402
from web.games.scarabeo.tutorial import TUTORIAL  # noqa: E402

CATALOGUE = load_catalogue()


# --- helpers -----------------------------------------------------------------------------------------
def raw_keys_shown(page: Any, root: str) -> list[str]:
    """Texts under ``root`` that are a catalogue key (a key with no text) or look like one."""
    texts = page.evaluate("""root => { const out = []; const w = document.createTreeWalker(
        document.querySelector(root), NodeFilter.SHOW_TEXT); let n;
        while ((n = w.nextNode())) { const s = n.textContent.trim(); if (s) out.push(s); }
        for (const e of document.querySelectorAll(root + ' [aria-label]')) out.push(e.getAttribute('aria-label'));
        return out; }""", root)
    pattern = re.compile(r"^(scarabeo|rules|tutorial|game|play)\.[\w.-]+$")
    return [s for s in texts if s in CATALOGUE or pattern.match(s)]


def find_play(state: ScarabeoState, gen: MoveGenerator, wanted: Callable[[Any], bool]) -> GenPlay:
    """The best-scoring scarab-free play whose engine result ``wanted`` accepts."""
    plays = [p for p in gen.plays(state.board, state.racks[state.to_move()], state.first_play)
             if not p[4] and p[3].isupper()]
    plays.sort(key=lambda p: (-p[0], p[1], p[2], p[3]))
    for p in plays:
        if wanted(state.preview(to_play(p))):
            return p
    raise AssertionError("no play for this step: the tutorial's seed should always offer one")


def type_play(page: Any, state: ScarabeoState, p: GenPlay) -> None:
    """Lay a play with the keyboard (focus its first square, set the direction, type the new letters;
    the page skips filled squares), then Enter plays it."""
    want = "→" if p[2] else "↓"
    if want not in page.locator("#sc-dir").text_content():
        page.click("#sc-dir")
        page.wait_for_function(f"document.getElementById('sc-dir').textContent.includes('{want}')")
    page.locator(f"#sq-{square_name(p[1])}").focus()
    step = 1 if p[2] else SIZE
    for k, ch in enumerate(p[3]):
        if not state.board[p[1] + k * step]:
            page.keyboard.press(ch.lower())
    page.wait_for_selector("#sc-score")
    page.keyboard.press("Enter")


def wait_for_person(page: Any, lex: Any, moves: int) -> ScarabeoState:
    """Wait until the computer has answered and ``moves`` moves are in the save."""
    deadline = time.time() + 60
    while time.time() < deadline:
        if page.locator("#thinking").count() == 0:
            state = engine_state(page, lex)
            if len(state.history()) == moves and state.to_move() == 0:
                page.wait_for_selector("#sc-rack [data-tile]")
                return state
        page.wait_for_timeout(200)
    raise AssertionError("the computer did not answer")


def note(page: Any, text: str) -> None:
    page.wait_for_function("t => { const n = document.getElementById('tutorial-note'); "
                           "return n && n.textContent === t; }", arg=text, timeout=30_000)


def no_horizontal_scroll(page: Any) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")


# --- the tutorial's checks on the engine, without a browser ---------------------------------------
class TestTutorialSteps:
    def test_every_step_can_be_done_and_the_checks_tell_moves_apart(self, lex: Any, gen: MoveGenerator) -> None:
        from game.scarabeo import ai

        state = ScarabeoState.from_options(dict(TUTORIAL.options), TUTORIAL.seed, word_list=lex)
        assert state.to_move() == 0, "the person starts the guided game"
        for step in TUTORIAL.steps:
            ok = find_play(state, gen, lambda r, s=step: s.check(state, "", r))
            plays = [p for p in gen.plays(state.board, state.racks[0], state.first_play) if not p[4]]
            if step.key != "first":  # a later step refuses some legal plays (the first is always the first)
                assert any(not step.check(state, "", state.preview(to_play(p))) for p in plays), step.key
            state.push(to_play(ok))
            state.push(ai.choose(state, "1"))
        assert not step.check(state, "-", state.push_text("-"))  # a pass does no step

    def test_every_step_has_its_texts_in_both_languages(self) -> None:
        for step in TUTORIAL.steps:
            for suffix in ("", ".done", ".retry"):
                entry = CATALOGUE[f"scarabeo.tutorial.{step.key}{suffix}"]
                assert entry["it"].strip() and entry["en"].strip() and entry["it"] != entry["en"]


# --- the rules page ------------------------------------------------------------------------------------
class TestRulesPage:
    @pytest.mark.parametrize("lang,size", [("it", (360, 740)), ("en", (1280, 800))])
    def test_rules_in_both_languages_with_live_diagrams(self, booted: Any, open_site: Any, lang: str,
                                                         size: tuple[int, int]) -> None:
        t = Messages(CATALOGUE, lang)
        page = booted(*size, locale="it-IT" if lang == "it" else "en-GB")
        open_site(page, "#/")
        # reachable from the chooser
        page.locator("a[href='#/scarabeo/rules']").first.click()
        page.wait_for_selector("#rules-scarabeo")
        assert page.locator("#rules-scarabeo h1").text_content() == t("rules.title", game=t("game.scarabeo.name"))
        page.wait_for_selector("#sc-rules-stampa", timeout=60_000)  # the examples wait for the lexicon
        # three diagrams drawn square by square by the game's renderer, each with a name and a caption
        for fig, squares in (("premiums", 81), ("first", 45), ("stampa", 72), ("flying", 27)):
            grid = page.locator(f"#sc-rules-{fig} [role='grid']")
            assert grid.get_attribute("aria-label"), fig
            assert grid.locator("[role='gridcell'].sc-sq").count() == squares, fig
            assert page.locator(f"#sc-rules-{fig} figcaption").text_content().strip(), fig
        assert page.locator("#sc-rules-premiums .sc-legend li").count() == 5
        assert page.locator("#sc-rules-premiums [aria-label^='A1,']").get_attribute("aria-label") == \
            f"A1, {t('scarabeo.premium.3P')}, {t('scarabeo.sq.empty')}"
        # the captions carry the engine's figures (the rulebook: CONTARE 56; STAMPA and its four crossings)
        first = page.locator("#sc-rules-first figcaption").text_content()
        assert "56" in first and "16" in first
        stampa = page.locator("#sc-rules-stampa figcaption").text_content()
        assert all(w in stampa for w in ("STAMPA", "TA", "AN", "MN", "PA"))
        assert page.locator("#sc-rules-stampa .sc-sq.placed").count() == 5  # T A M P A laid, the S was there
        # the flying scarab: the engine says which board scarab the rack's T can take
        assert page.locator("#sc-rules-flying .sc-sq.scarab.swappable").get_attribute("aria-label") == \
            f"I9, {t('scarabeo.premium.centre')}, {t('scarabeo.sq.scarab', letter='T')}, {t('scarabeo.sq.swappable')}"
        for section in ("aim", "setup", "turn", "scoring", "scarab", "end", "variants", "notation",
                        "decisions", "advice"):
            assert page.locator(f"#sc-rules-{section} h2").text_content().strip(), section
        assert page.locator("#sc-rules-decisions li").count() >= 10
        assert raw_keys_shown(page, "#rules-scarabeo") == []
        assert t("scarabeo.rules.mode.vote.name") in page.locator("#sc-rules-variants").text_content()
        no_horizontal_scroll(page)
        page.evaluate("window.scrollTo(0, 0)")
        shot(page, f"scarabeo-rules-{lang}-{'phone' if size[0] < 600 else 'desktop'}")
        # the link works as an address, and leads to the guided game
        page.goto(page.url.split("#")[0] + "#/")
        page.goto(page.url.split("#")[0] + "#/scarabeo/rules")
        page.wait_for_selector("#rules-scarabeo a[href='#/scarabeo/tutorial']")


# --- the guided first game ------------------------------------------------------------------------
class TestGuidedGame:
    def test_guided_game_to_the_end_with_a_refusal_and_a_resume(self, page: Any, open_site: Any, lex: Any,
                                                               gen: MoveGenerator) -> None:
        t = Messages(CATALOGUE, "en")
        steps = {s.key: s for s in TUTORIAL.steps}
        open_site(page, "#/scarabeo/new")
        page.wait_for_selector("#tutorial-offer", timeout=60_000)  # offered on the first visit
        page.click("#tutorial-start")
        page.wait_for_selector("#sc-board", timeout=60_000)
        assert page.locator("#tutorial-task").text_content() == t("scarabeo.tutorial.first")
        assert page.locator("#tutorial h2").text_content() == t("tutorial.heading", n=1, total=3)
        assert page.locator(".toolbar a[href='#/scarabeo/rules']").count() == 1  # rules from inside the game
        save_url = page.url
        shot(page, "scarabeo-tutorial-start-desktop")

        # step 1: the first word through the centre star
        state = engine_state(page, lex)
        type_play(page, state, find_play(state, gen, lambda r: steps["first"].check(state, "", r)))
        note(page, t("scarabeo.tutorial.first.done"))
        state = wait_for_person(page, lex, 2)
        assert page.locator("#tutorial-task").text_content() == t("scarabeo.tutorial.premium")

        # a legal play that covers no premium square is taken back, with the step's retry text
        before = state.position()
        type_play(page, state, find_play(state, gen, lambda r: not steps["premium"].check(state, "", r)))
        note(page, t("scarabeo.tutorial.premium.retry"))
        assert engine_state(page, lex).position() == before
        assert page.locator("#tutorial-task").text_content() == t("scarabeo.tutorial.premium")

        # leave the game half-way, come back through the guided-game link: the same game, the same step
        page.goto(save_url.split("#")[0] + "#/")
        page.wait_for_selector("#continue, .chooser, main", timeout=30_000)
        page.goto(save_url.split("#")[0] + "#/scarabeo/tutorial")
        page.wait_for_function("u => location.href === u", arg=save_url, timeout=60_000)
        page.wait_for_selector("#tutorial-task", timeout=60_000)
        assert page.locator("#tutorial h2").text_content() == t("tutorial.heading", n=2, total=3)
        assert engine_state(page, lex).position() == before

        # step 2: a word over a premium square
        state = engine_state(page, lex)
        type_play(page, state, find_play(state, gen, lambda r: steps["premium"].check(state, "", r)))
        note(page, t("scarabeo.tutorial.premium.done"))
        state = wait_for_person(page, lex, 4)
        assert page.locator("#tutorial-task").text_content() == t("scarabeo.tutorial.cross")

        # step 3: two words with one play
        type_play(page, state, find_play(state, gen, lambda r: steps["cross"].check(state, "", r)))
        note(page, t("scarabeo.tutorial.cross.done"))
        page.wait_for_function("t => document.querySelector('#tutorial h2').textContent === t",
                               arg=t("tutorial.finished"))
        assert page.locator("#tutorial-task").text_content() == t("tutorial.complete")
        assert raw_keys_shown(page, "body") == []
        shot(page, "scarabeo-tutorial-done-desktop")

    def test_guided_game_in_italian_on_a_phone(self, booted: Any, open_site: Any) -> None:
        t = Messages(CATALOGUE, "it")
        page = booted(360, 740, locale="it-IT", has_touch=True)
        open_site(page, "#/scarabeo/tutorial")
        page.wait_for_selector("#tutorial-task", timeout=60_000)
        assert page.locator("#tutorial-task").text_content() == t("scarabeo.tutorial.first")
        assert page.locator("#tutorial h2").text_content() == t("tutorial.heading", n=1, total=3)
        assert raw_keys_shown(page, "body") == []
        no_horizontal_scroll(page)
        shot(page, "scarabeo-tutorial-start-phone")
