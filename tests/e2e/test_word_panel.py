"""The word panel in a Scarabeo game (issue 40): a word tapped on the board, in the log or in a refusal
says whether it counts and why (its source, its lemma and other forms, or the rule that leaves it out),
who played it, on which move, where and for how many points, with a link to look it up that a person
follows (the page itself requests nothing from elsewhere: the guard fails the test on any request that
is not to this site)."""

from __future__ import annotations

from typing import Any

import pytest

from game.core import IllegalMove
from game.scarabeo.board import SQUARES, neighbours, square_name
from game.scarabeo.game import ScarabeoState
from game.scarabeo.movegen import GenPlay, MoveGenerator, to_play
from game.scarabeo.wordinfo import played, words_through
from tests.e2e.test_scarabeo import MY_TURN, engine_state, new_game, type_play

pytestmark = pytest.mark.e2e

DIALOG = "dialog[open]"


@pytest.fixture(scope="module")
def word_data(lex: Any) -> tuple[Any, dict[str, tuple[str, str]]]:
    """The build's forms file and excluded list (what the page fetches), read by the lexicon's code."""
    from lexicon.build import EXCLUDED, FORMS, read_exclusions
    from lexicon.forms import Forms

    return Forms.from_bytes(FORMS.read_bytes(), lex), read_exclusions(EXCLUDED)


def excluded_single(state: ScarabeoState, lex: Any, excluded: dict[str, tuple[str, str]]) -> tuple[int, str, str] | None:
    """A square and a rack letter whose lone tile there makes one word that a rule leaves out (a name,
    an abbreviation not in the appendix, a foreign word …: not merely unknown), and that word."""
    from lexicon.sources import exclusion

    for sq in range(SQUARES):
        if state.board[sq] or not any(state.board[n] for n in neighbours(sq)):
            continue
        for letter in sorted({t for t in state.racks[state.to_move()] if t != "?"}):
            try:
                state.preview(state.play_from_placements([(sq, letter)]))
            except IllegalMove as err:
                words = (getattr(err, "details", None) or {}).get("words") or []
                if getattr(err, "code", "") == "invalid-words" and len(words) == 1:
                    why = exclusion(lex, excluded, words[0])
                    if why is not None and why[0] != "unknown":
                        return sq, letter, words[0]
    return None


def explained_play(state: ScarabeoState, gen: MoveGenerator, lex: Any, forms: Any,
                   excluded: dict[str, tuple[str, str]]) -> GenPlay:
    """The best first play whose word is a form of another root (a plural, a verb form: the panel has a
    lemma and forms to show) and after which a lone tile makes a word a rule leaves out."""
    plays = sorted((p for p in gen.plays(state.board, state.racks[state.turn], state.first_play) if not p[4]),
                   key=lambda p: (-p[0], p[1], p[2], p[3]))
    for p in plays:
        lemmas = forms.lemmas(p[3].upper())
        if not lemmas or (lemmas[0].root == p[3].upper() and not lemmas[0].prefix):
            continue
        state.push(to_play(p))
        try:
            if excluded_single(state, lex, excluded) is not None:
                return p
        finally:
            state.pop()
    raise AssertionError("no play of a word with a lemma that leaves a refusal by a rule")


class TestWordPanel:
    def test_a_word_on_the_board_in_the_log_and_in_a_refusal(self, booted: Any, open_site: Any, lex: Any,
                                                             gen: MoveGenerator, word_data: tuple) -> None:
        from web.platform.i18n import Messages, load_catalogue

        forms, excluded = word_data
        page = booted(1280, 800)
        new_game(page, open_site, 5, [("Anna", "person"), ("Bruno", "person")])
        page.click("#reveal")
        page.wait_for_selector("#sc-board")
        state = engine_state(page, lex)
        p = explained_play(state, gen, lex, forms, excluded)
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
        # its lemma and a few of the lemma's forms, as the build's forms file gives them
        lemma = forms.lemmas(word.word)[0]
        said = dialog.locator(".wordpanel-lemma").first.inner_text()
        assert said.startswith("A form of ") and lemma.lemma in said and lemma.root in said
        listed = dialog.locator(".wordpanel-forms").first.inner_text()
        assert listed.startswith(f"{lemma.root} has {lemma.form_count:,} forms in the lexicon")
        assert all(f in listed for f in lemma.shortest(3, leave_out=word.word))
        assert dialog.locator(".wordpanel-rule").count() == 0
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
        # a refusal: the word refused opens the panel, which says it does not count and the rule that
        # leaves it out (a name, an abbreviation not in the appendix, a foreign word …)
        from lexicon.sources import exclusion

        found_refusal = excluded_single(after, lex, excluded)
        assert found_refusal is not None
        sq, letter, refused = found_refusal
        rule, note = exclusion(lex, excluded, refused) or ("", "")
        page.locator(f"#sq-{square_name(sq)}").focus()
        page.keyboard.press(letter.lower())
        page.locator("#sc-reason").wait_for()
        link = page.locator("#sc-preview .sc-word-link").first
        assert link.inner_text() == refused
        link.click()
        page.locator(f"{DIALOG} .wordpanel-rule").wait_for(timeout=30_000)
        assert page.locator(f"{DIALOG} .verdict").first.inner_text() == f"{refused}: not valid"
        why = page.locator(f"{DIALOG} .wordpanel-rule")
        assert why.get_attribute("data-rule") == rule
        assert why.inner_text() == Messages(load_catalogue(), "en")(f"wordpanel.rule.{rule}",
                                                                     detail=f" ({note})" if note else "")
        assert page.locator(f"{DIALOG} .wordpanel-lemma").count() == 0
        assert page.locator(f"{DIALOG} .wordpanel-played").count() == 0
        page.keyboard.press("Escape")
        page.keyboard.press("Escape")
