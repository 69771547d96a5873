"""A Scarabeo game by links whose end does not verify, in Chromium (issue 37's "the end with its
failures"): the player who resigns reveals keys that are not the ones its deal used — as a modified
program on the cheater's phone would send them, made here from the cheater's own stored device. The
other phone ends the game unverified, lists what failed in the catalogue's words, and keeps the whole
board, the strip and the hand on the screen at every size."""

from __future__ import annotations

import base64
from typing import Any

import pytest

from game.remote.session import Device as Protocol
from game.remote.wire import b64
from tests.e2e.test_layout_remote import at_rest
from tests.e2e.test_remote import friends, start
from tests.remote.protocol_helpers import act_messages

pytestmark = pytest.mark.e2e

SIZES = [(360, 640), (390, 844), (820, 1180), (1180, 820), (1366, 768), (1440, 900), (1920, 1080)]


def test_keys_that_do_not_match_end_the_game_unverified_with_its_failures(devices: Any, open_site: Any,
                                                                          lex: Any) -> None:
    anna, bruno = friends(devices, "Anna", "Bruno")
    start(anna, bruno, open_site, "scarabeo", "Scarabeo")
    for d in (anna, bruno):
        d.page.wait_for_selector("#sc-rack")
    cheater, honest = (anna, bruno) if anna.your_turn() else (bruno, anna)
    link = cheater.quit("resign")
    # the resignation as the cheater's device wrote it, its revealed keys altered and signed again
    device = Protocol.from_json(cheater.stored("remote"), lex)
    m = dict(act_messages(link.split("?m=", 1)[1])[-1]["m"])
    m["x"] = dict(m["x"])
    keys = bytearray(base64.urlsafe_b64decode(m["x"]["k"] + "=="))
    keys[0] ^= 1
    m["x"]["k"] = b64(bytes(keys))
    forged = device._signed(m)
    site = str(honest.page.url).split("#", 1)[0]
    honest.open(f"{site}#/remote?m={forged}")
    page = honest.page
    page.wait_for_selector("#remote-verified.remote-failed", timeout=60_000)
    items = [str(t) for t in page.locator("#remote-verified li").all_inner_texts()]
    assert items and any(cheater.name in item for item in items), items
    assert page.locator("#remote-verified > p").first.inner_text().strip() != ""
    assert page.locator("#sc-status").text_content() == "Game over"
    at_rest(honest, "scarabeo", "unverified", SIZES)
