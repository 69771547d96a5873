"""Scarabeo pass-and-play privacy around take-back: no action shows a rack to anyone but its owner.

Issue 15's case: two people, dictionary mode, seed 777. A plays, the cover says "Pass the device to
B", B shows their tiles and taps Take back. A's move comes back, so A is to move again — but B holds
the device: the cover goes up first, and no tile of A's rack is ever put in the page before A lifts it.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.conftest import shot
from tests.e2e.test_scarabeo import best_play, engine_state, new_game, type_play

pytestmark = pytest.mark.e2e

# Every rack tile added to the page from now on, as "seat:letters" of the rack it belonged to.
WATCH_RACKS = """() => { window.__racks = [];
  new MutationObserver(records => { for (const r of records) for (const n of r.addedNodes) {
      if (!(n instanceof Element)) continue;
      const racks = n.matches('#sc-rack') ? [n] : [...n.querySelectorAll('#sc-rack')];
      const tiles = n.matches('.sc-tile') ? [n] : [...n.querySelectorAll('.sc-tile')];
      for (const rack of racks) window.__racks.push(rack.getAttribute('aria-label'));
      if (tiles.length && !racks.length) window.__racks.push('tile');
  } }).observe(document.getElementById('app'), {childList: true, subtree: true}); }"""


def test_take_back_covers_before_showing_the_other_rack(page: Any, open_site: Any, lex: Any, gen: Any) -> None:
    new_game(page, open_site, 777, [("Anna", "person"), ("Bruno", "person")])
    page.click("#reveal")
    page.wait_for_selector("#sc-rack")
    state = engine_state(page, lex)
    first = state.to_move()
    names = ["Anna", "Bruno"]
    anna_rack = sorted(state.racks[first])
    play = best_play(state, gen)
    assert play is not None
    type_play(page, state, play)
    page.keyboard.press("Enter")
    # the cover for the next person; nothing of the rack just played from, nor of theirs
    page.wait_for_selector("#reveal")
    assert page.locator("#sc-rack, .sc-tile").count() == 0
    assert names[1 - first] in page.locator("#cover-title").text_content()
    page.click("#reveal")
    page.wait_for_selector("#sc-rack")
    assert names[1 - first] in str(page.locator("#sc-rack").get_attribute("aria-label"))
    page.evaluate(WATCH_RACKS)
    page.click("#takeback")
    page.locator("dialog[open] button.danger").click()  # pass-and-play take-back asks (issue 26)
    # the cover goes up for the first player, with nothing of any rack in the page
    page.wait_for_selector("#reveal")
    assert names[first] in page.locator("#cover-title").text_content()
    assert page.locator("#sc-rack, .sc-tile, #sc-board").count() == 0
    page.wait_for_timeout(100)  # let the observer report
    assert page.evaluate("window.__racks") == [], "a rack was put in the page before the cover was lifted"
    shot(page, "scarabeo-takeback-cover")
    page.click("#reveal")
    page.wait_for_selector("#sc-rack")
    assert names[first] in str(page.locator("#sc-rack").get_attribute("aria-label"))
    shown = sorted(str(x) for x in page.locator("#sc-rack [data-tile]").evaluate_all("ns => ns.map(n => n.dataset.tile)"))
    assert shown == anna_rack
