"""The word panel in a Scarabeo game (issue 40): a word tapped on the board, in the log or in a refusal
says whether it counts and why, who played it, on which move, where and for how many points, with a
link to look it up that a person follows (the page itself requests nothing from elsewhere: the guard
fails the test on any request that is not to this site)."""

from __future__ import annotations

from typing import Any

import pytest

from game.core import IllegalMove
from game.scarabeo.board import SQUARES, neighbours, square_name
from game.scarabeo.movegen import MoveGenerator
from game.scarabeo.wordinfo import played, words_through
from tests.e2e.test_scarabeo import MY_TURN, best_play, engine_state, new_game, type_play

pytestmark = pytest.mark.e2e

DIALOG = "dialog[open]"


def refused_single(state: Any) -> tuple[int, str]:
    """A square and a rack letter whose lone tile there makes a word the lexicon refuses."""
    rack = [t for t in state.racks[state.to_move()] if t != "?"]
    for sq in range(SQUARES):
        if state.board[sq] or not any(state.board[n] for n in neighbours(sq)):
            continue
        for letter in rack:
            try:
                state.preview(state.play_from_placements([(sq, letter)]))
            except IllegalMove as err:
                if getattr(err, "code", "") == "invalid-words":
                    return sq, letter
    raise AssertionError("every lone tile makes words")


class TestWordPanel:
    def test_a_word_on_the_board_in_the_log_and_in_a_refusal(self, booted: Any, open_site: Any, lex: Any,
                                                             gen: MoveGenerator) -> None:
        page = booted(1280, 800)
        new_game(page, open_site, 5, [("Anna", "person"), ("Bruno", "person")])
        page.click("#reveal")
        page.wait_for_selector("#sc-board")
        state = engine_state(page, lex)
        p = best_play(state, gen)
        assert p is not None
        type_play(page, state, p)
        page.keyboard.press("Enter")
        page.wait_for_selector("#reveal")
        page.click("#reveal")
        page.wait_for_selector(MY_TURN)
        after = engine_state(page, lex)
        [word] = [w for w in words_through(after.board, p[1]) if w.across == p[2]]
        found = played(after.results(), word)
        assert found is not None and found.turn == 1
        # the board: a tap on one of its tiles (not a tile being laid)
        page.click(f"#sq-{square_name(p[1])}")
        dialog = page.locator(DIALOG)
        dialog.locator(".wordpanel-played").wait_for(timeout=30_000)
        assert dialog.locator("#dialog-title").inner_text() == word.word
        assert dialog.locator(".verdict").first.inner_text() in (f"{word.word}: valid",) or \
            dialog.locator(".verdict").first.inner_text().startswith(f"{word.word}: allowed abbreviation")
        assert dialog.locator(".wordpanel-source").first.inner_text()  # its source, in words
        assert dialog.locator(".wordpanel-played").first.inner_text() == \
            f"Anna played it on move 1, at {word.where}, for {found.points} points."
        look = dialog.locator("a.wordpanel-look").first
        assert look.get_attribute("href") == f"https://it.wiktionary.org/wiki/{word.word.lower()}"
        assert look.get_attribute("target") == "_blank" and "noopener" in (look.get_attribute("rel") or "")
        dialog.get_by_role("button", name="Close").click()
        page.locator(DIALOG).wait_for(state="detached")
        # the log: each word of the play is a button
        page.locator("#sc-sheet .sc-word-link", has_text=word.word).first.click()
        page.locator(f"{DIALOG} .wordpanel-played").wait_for(timeout=30_000)
        assert page.locator(f"{DIALOG} .wordpanel-played").first.inner_text().startswith("Anna played it on move 1")
        page.keyboard.press("Escape")
        page.locator(DIALOG).wait_for(state="detached")
        # a refusal: the word refused opens the panel, which says it does not count and why
        sq, letter = refused_single(after)
        page.locator(f"#sq-{square_name(sq)}").focus()
        page.keyboard.press(letter.lower())
        page.locator("#sc-reason").wait_for()
        link = page.locator("#sc-preview .sc-word-link").first
        refused = link.inner_text()
        link.click()
        page.locator(f"{DIALOG} .wordpanel-source").wait_for(timeout=30_000)
        assert page.locator(f"{DIALOG} .verdict").first.inner_text() == f"{refused}: not valid"
        assert page.locator(f"{DIALOG} .wordpanel-source").first.inner_text().startswith("Not in Scarabeo's lexicon")
        assert page.locator(f"{DIALOG} .wordpanel-played").count() == 0
        page.keyboard.press("Escape")
