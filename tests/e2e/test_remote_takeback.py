"""A take-back request by links between two devices (issue 28, docs/remote.md "Take-back requests"):
Anna plays, asks to take back her move; Bruno's device says what she asks, with Accept and Decline;
he accepts, and both devices are back where they were, Anna to play again."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.test_remote import friends, mover, start

pytestmark = pytest.mark.e2e


def test_thot_a_move_taken_back_when_the_other_accepts(devices: Any, open_site: Any) -> None:
    anna, bruno = friends(devices, "Anna", "Bruno")
    start(anna, bruno, open_site, "thot", "Thot", lambda p: p.check("#thot-short"))
    player = mover([anna, bruno])
    assert player is not None
    other = bruno if player is anna else anna
    page = player.page
    assert page.locator("#remote-takeback").is_disabled()  # nothing of this seat's to take back yet
    board = page.locator("#thot-board").inner_html()
    page.locator("#thot-board .mark-legal, #thot-board .mark-turn, #thot-board .mark-stop").first.click()
    page.wait_for_function("() => { const b = document.getElementById('remote-link');"
                           " return (b && b.value) || document.getElementById('thot-drop'); }", timeout=30_000)
    if page.locator("#thot-drop").count():  # the ankh taken: one of this player's scarabs goes back
        page.locator("#thot-drop button.chip").first.click()
        page.locator("#thot-board .mark-drop").first.click()
    move = player.link()
    assert other.open(move).startswith(f"{player.name} moved the priest to ")
    assert other.page.locator("#remote-takeback").is_disabled()  # not the other's move
    # The player asks: a new link for the other.
    page.get_by_role("button", name="Ask to take back").click()
    ask = player.link(other_than=move)
    assert "You asked to take back your move" in player.notice()
    said = other.open(ask)
    assert said.startswith(f"{player.name} asks to take back their move: "), said
    request = other.page.get_by_role("group", name="Take-back request")
    assert request.is_visible()
    assert other.page.locator("#remote-takeback-asked").inner_text().startswith(f"{player.name} asks")
    assert other.status() == f"Your answer: {player.name} asks to take back a move."
    assert player.status() == f"Waiting for {other.name}'s link."
    other.page.get_by_role("button", name=f"Accept {player.name}'s take-back").click()
    answer = other.link(other_than=ask)
    assert other.notice().startswith("Move taken back:"), other.notice()
    said = player.open(answer)
    assert said.startswith("Move taken back:") and f"{player.name} plays again" in said, said
    assert player.your_turn() and not other.your_turn()
    for device in (anna, bruno):
        assert device.stored("save")["state"]["moves"] == []
        assert device.page.locator("#remote-takeback-request").count() == 0
    assert player.page.locator("#thot-board").inner_html() == board
