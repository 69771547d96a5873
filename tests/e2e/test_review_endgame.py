"""Scarabeo's exact endgame in the page (issue 39 point 5): the review of a finished game says which
endgame turns were solved exactly (their loss proved) and which were too large for the analysis's
budget; a hint with the bag empty lays the solver's best play and says the final spread it leads to.

The game: seed 2 played greedily by both seats to its end (27 turns; the bag is empty from turn 25
on). In CPython its analysis finds turn 25 (8 tiles against 3) too large, turn 26 an inaccuracy
proved (Bea's K11 LE, 7 points of final spread below C13 TELA, which goes out) and turn 27 best;
before turn 27 the hints are the solver's, 6L MENE first, ending the game +170 for Ada."""

from __future__ import annotations

import json
from typing import Any

import pytest

from game.core import GameRecord

pytestmark = pytest.mark.e2e

SEED = 2


def greedy_game(lex: Any, plies: int | None = None) -> Any:
    from game.scarabeo import ai
    from game.scarabeo.game import ScarabeoState

    state = ScarabeoState.from_options({"players": 2}, SEED, word_list=lex)
    while not state.is_over() and (plies is None or len(state.history()) < plies):
        state.push(ai.choose(state, "greedy", lex))
    return state


def envelope(save_id: str, record: GameRecord) -> str:
    return json.dumps({"schema": 1, "id": save_id, "game": "scarabeo", "title": save_id, "created": 1,
                       "updated": 2, "revision": 1, "state": record.to_json()})


def go_to(page: Any, ply: int) -> None:
    page.click(f"#review-moves [data-ply='{ply}']")
    page.wait_for_selector(f"#review[data-step='{ply}']", timeout=10_000)


def test_the_review_says_which_endgame_turns_are_proved(page: Any, open_site: Any, lex: Any) -> None:
    state = greedy_game(lex)
    assert len(state.history()) == 27
    record = GameRecord.of(state, seats=[{"name": "Ada"}, {"name": "Bea"}], game_id="rv-eg")
    open_site(page)
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", ["scarab:save:rv-eg", envelope("rv-eg", record)])
    open_site(page, "#/scarabeo/review/rv-eg")
    page.wait_for_selector("#review[data-total='27']")
    page.wait_for_selector("#review[data-analysed='1']", timeout=180_000)
    print(f"scarabeo, 27 turns with 3 endgame turns: {page.get_attribute('body', 'data-analysis-ms')} ms")

    go_to(page, 26)
    exact = page.locator("#review-exact")
    assert exact.get_attribute("data-exact") == "true"
    assert exact.inner_text().startswith("Endgame solved exactly")
    assert page.get_attribute("#review-class", "data-class") == "inaccuracy"
    assert page.locator("#review-alts tbody tr").first.get_attribute("data-move") == "C13 TELA"

    go_to(page, 25)
    assert page.get_attribute("#review-exact", "data-exact") == "false"
    assert page.inner_text("#review-exact").startswith("Endgame too large")

    go_to(page, 24)  # two tiles still in the bag: no exact solver asked, nothing said
    assert page.locator("#review-exact").count() == 0
    stored = json.loads(page.evaluate("localStorage.getItem('scarab:save:rv-eg')"))
    moves = stored["state"]["meta"]["analysis"]["moves"]
    assert [m.get("exact") for m in moves[23:]] == [None, False, True, True]


def test_a_hint_with_the_bag_empty_is_the_solvers(page: Any, open_site: Any, lex: Any) -> None:
    state = greedy_game(lex, 26)
    assert not state.bag and state.turn == 0 and len(state.racks[0]) == 1
    record = GameRecord.of(state, seats=[{"name": "Ada"}, {"name": "Scarabot", "computer": True, "level": 1}],
                           game_id="eg-hint")
    open_site(page)
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", ["scarab:save:eg-hint", envelope("eg-hint", record)])
    open_site(page, "#/scarabeo/play/eg-hint")
    page.click("#sc-hint")
    page.wait_for_selector("#sc-hint-0", timeout=60_000)
    assert page.locator("#sc-hint-0 .sc-hint-notation").inner_text() == "6L MENE"
    message = page.inner_text("#play-message")
    assert "Hint 1 of 5" in message and "Endgame solved" in message and "final spread is +170" in message, message
