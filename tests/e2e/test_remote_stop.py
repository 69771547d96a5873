"""A game by links stopped on a proven cheat, in Chromium (issue 36): a friend's device signs two
different moves for one place in the chain (a fork); the other device opens both and stops, says
so in a banner, keeps both signed messages as evidence (shown, and in the save Export writes) and
offers no move. The forged pair is made in this process from the cheater's own stored device, as
a modified program on the cheater's phone would make it."""

from __future__ import annotations

from typing import Any

import pytest

from game.remote.session import Device as Protocol
from tests.e2e.test_layout_remote import at_rest
from tests.e2e.test_remote import friends, start

pytestmark = pytest.mark.e2e


def test_a_fork_stops_the_game_with_the_evidence(devices: Any, open_site: Any) -> None:
    anna, bruno = friends(devices, "Anna", "Bruno")
    start(anna, bruno, open_site, "thot", "Thot", lambda p: p.check("#thot-short"))
    cheater, honest = (anna, bruno) if anna.your_turn() else (bruno, anna)
    device = Protocol.from_json(cheater.stored("remote"))
    m = device._header("move", device.seat)  # type: ignore[arg-type]
    forged = []
    for move in device.show()["legal"][:2]:
        m["t"] = move
        forged.append(device._signed(m))
    site = str(honest.page.url).split("#", 1)[0]
    said = honest.open(f"{site}#/remote?m={forged[0]}")
    assert said.startswith(f"{cheater.name} moved the priest to "), said
    said = honest.open(f"{site}#/remote?m={forged[1]}")
    assert said == "", f"the stop is said twice above the board: {said}"
    page = honest.page
    banner = page.locator("#remote-stopped-text")
    assert banner.inner_text().startswith(f"{cheater.name} signed two different messages for message ")
    assert banner.inner_text().endswith("The game is stopped, and nothing more of yours is revealed.")
    assert honest.status() == "The game is stopped."
    assert page.locator("#thot-status").inner_text() == "The game is stopped."
    # The banner and its evidence leave the whole board in view, on a phone too.
    at_rest(honest, "thot", "stopped", [(360, 640), (390, 844), (1366, 768)])
    page.locator("#remote-evidence summary").click()
    shown = [str(area.input_value()) for area in page.locator("#remote-evidence textarea").all()]
    assert shown == forged
    assert page.locator("#remote-resign").is_disabled() and page.locator("#remote-leave").is_disabled()
    assert page.locator("#thot-board .mark-legal").count() == 0
    assert honest.stored("save")["state"]["meta"]["remote"]["stopped"]["evidence"] == forged
    # Kept: the page opened again says the same.
    honest.back_to_game()
    assert page.locator("#remote-stopped-text").inner_text() == banner.inner_text()
