"""Instant resume: a saved game is drawn from its snapshot before Python starts (web/shell/boot.js,
web/platform/snapshot.py), with its controls visibly waiting; a tap then is refused out loud; Python takes over
and the game plays. Python is held back by holding the request for ``app.zip`` until the test lets it go.
The games are played in the shared booted page; a browser of its own, given that storage, makes the load.
Pass-and-play privacy: the snapshot of a covered Scarabeo game shows the cover, never a rack.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.e2e.conftest import Guard, shot, watch
from tests.e2e.test_scarabeo import new_game

pytestmark = pytest.mark.e2e


def hold_python(page: Any) -> list[Any]:
    """Hold the request for the app's Python (app.zip) until the test continues it."""
    held: list[Any] = []
    page.route("**/app.zip", lambda route: held.append(route))
    return held


def release(page: Any, held: list[Any]) -> None:
    for _ in range(600):  # the snapshot may be drawn before the runtime even asks for app.zip
        if held:
            break
        page.wait_for_timeout(100)  # lets the route handler run
    assert held, "app.zip was not requested"
    for route in held:
        route.continue_()
    page.unroute("**/app.zip")


def device_with_storage_of(page: Any, context_factory: Any, guard: Guard, server: str) -> Any:
    """A page in a browser of its own whose storage holds what ``page``'s holds: the games are played
    in the shared page (booted already), and this browser's first load of the site comes next."""
    items = page.evaluate("() => Object.entries(localStorage)")
    state = {"cookies": [], "origins": [{"origin": server.rstrip("/"),
                                         "localStorage": [{"name": k, "value": v} for k, v in items]}]}
    return watch(context_factory(storage_state=state).new_page(), guard)


def save_of(page: Any) -> dict[str, Any]:
    save_id = page.url.split("/play/")[1]
    return json.loads(page.evaluate(f"localStorage.getItem('scarab:save:{save_id}')"))


def pass_turn(page: Any, done: str) -> None:
    """Pass, confirmed once (issue 26: Pass asks once), and wait until ``done`` holds.

    The dialog stays open until Python has handled the click, so it is never clicked twice: a second
    click could find it gone and wait for nothing."""
    page.click("#sc-pass")
    page.locator("dialog[open] button.primary").click()
    page.wait_for_function(done, timeout=60_000)


def test_board_first_then_python_takes_over_and_plays(page: Any, open_site: Any, context_factory: Any,
                                                      guard: Guard, server: str) -> None:
    # Hal opens (the draw for the start, seed 4242): a game is saved from its first move (issue 26)
    new_game(page, open_site, 4242, [("Anna", "person"), ("Hal", "computer:1")])
    page.wait_for_selector("#sc-rack .sc-tile:not([disabled])", timeout=60_000)  # Anna to move
    save_id = page.url.split("/play/")[1]
    assert page.evaluate(f"localStorage.getItem('scarab:snap:{save_id}') !== null")
    moves = len(save_of(page)["state"]["moves"])

    url, page = page.url, device_with_storage_of(page, context_factory, guard, server)
    held = hold_python(page)
    page.goto(url, wait_until="commit")  # the game's address, loaded with the game stored
    snap = page.wait_for_selector(f"[data-snapshot='{save_id}']", timeout=30_000)
    # the board and Anna's rack, drawn with Python still held back
    assert page.evaluate("document.body.dataset.ready") is None
    assert snap.get_attribute("aria-busy") == "true"
    assert page.locator("[data-snapshot] .sc-board .sc-sq").count() == 17 * 17
    assert page.locator("[data-snapshot] .sc-rack .sc-tile").count() == 8
    assert "Anna" in page.locator("[data-snapshot] .scoreline").text_content()
    wait = page.locator("[data-snapshot] .snapshot-wait")
    assert "Starting the engine" in wait.text_content()
    busy = page.locator("[data-snapshot] .snapshot-busy")
    assert busy.get_attribute("aria-disabled") == "true" and "Starting the engine" in busy.text_content()
    assert page.locator("#sc-board, #sc-play, #sc-pass").count() == 0  # nothing that looks playable
    # a tap while the engine starts is refused out loud
    page.locator("[data-snapshot] .sc-sq").nth(144).click()
    assert "not played" in wait.text_content()
    assert "refused" in str(wait.get_attribute("class"))
    shot(page, "resume-snapshot-scarabeo", full_page=False)

    release(page, held)
    page.wait_for_selector("body[data-ready='1']", timeout=60_000)
    page.wait_for_selector("#sc-rack .sc-tile:not([disabled])", timeout=60_000)
    assert page.locator("[data-snapshot]").count() == 0
    pass_turn(page, f"JSON.parse(localStorage.getItem('scarab:save:{save_id}')).state.moves.length > {moves}")

    # the chooser before Python: a static Continue list from the snapshots; a click draws the game
    base = page.url.split("#")[0]
    held = hold_python(page)
    page.goto("about:blank")
    page.goto(base, wait_until="commit")
    link = page.wait_for_selector(f".snapshot-continue a.title[href='#/scarabeo/play/{save_id}']", timeout=30_000)
    assert page.evaluate("document.body.dataset.ready") is None
    # told apart as Python's list tells them: who plays, the scores, the moves, whose turn
    assert link.text_content() == "Anna vs Hal"
    line = page.locator(".snapshot-continue .save .facts").first.text_content()
    # Anna passed; Hal may have answered before the page was left: the list says what the save says
    played = len(json.loads(page.evaluate(f"localStorage.getItem('scarab:save:{save_id}')"))["state"]["moves"])
    assert played in (moves + 1, moves + 2), (moves, played)
    to_play = "Hal" if played == moves + 1 else "Anna"
    assert line.startswith("Anna ") and "Hal " in line and f"{played} moves" in line, line
    assert line.endswith(f"{to_play} to play"), line
    link.click()
    page.wait_for_selector(f"[data-snapshot='{save_id}'] .sc-board", timeout=10_000)
    release(page, held)
    page.wait_for_selector("#sc-rack .sc-tile:not([disabled])", timeout=60_000)


def test_pass_and_play_snapshot_shows_the_cover_and_no_rack(page: Any, open_site: Any, context_factory: Any,
                                                            guard: Guard, server: str) -> None:
    new_game(page, open_site, 777, [("Anna", "person"), ("Bruno", "person")])
    page.wait_for_selector("#reveal")
    save_id = page.url.split("/play/")[1]
    # saved from the first move: Anna passes (confirmed where the game asks), and Bruno is to play
    page.click("#reveal")
    pass_turn(page, f"localStorage.getItem('scarab:save:{save_id}') !== null")
    page.wait_for_selector("#reveal")
    cover_name = page.locator("#cover-title").text_content()
    raw = page.evaluate(f"localStorage.getItem('scarab:snap:{save_id}')")
    assert raw and "sc-tile" not in raw and "sc-rack" not in raw

    url, page = page.url, device_with_storage_of(page, context_factory, guard, server)
    held = hold_python(page)
    page.goto(url, wait_until="commit")  # the game's address, loaded with the game stored
    page.wait_for_selector(f"[data-snapshot='{save_id}']", timeout=30_000)
    assert page.evaluate("document.body.dataset.ready") is None
    assert page.locator("[data-snapshot] .snapshot-cover-title").text_content() == cover_name
    assert "Pass the device to" in cover_name
    assert page.locator(".sc-tile, .sc-rack, .sc-sq, #sc-rack").count() == 0
    shot(page, "resume-snapshot-cover", full_page=False)

    release(page, held)
    page.wait_for_selector("#reveal", timeout=60_000)
    assert page.locator("[data-snapshot]").count() == 0


def test_thot_and_scarabya_boards_drawn_before_python(page: Any, open_site: Any, context_factory: Any,
                                                      guard: Guard, server: str) -> None:
    games = (("thot", "#thot-board", "[data-snapshot] .thot-board .thot-cell"),
             ("scarabya", ".sy-game", "[data-snapshot] .sy-board .sq"))
    urls = []
    for game, ready, _cells in games:
        open_site(page, f"#/{game}/new")
        page.wait_for_selector("#start", timeout=60_000)
        # the computer opens: a game is saved (and its snapshot kept) from its first move
        page.locator("#seat-0-kind").select_option("computer:1")
        page.locator("#seat-1-kind").select_option("person")
        page.click("#start")
        page.wait_for_selector(ready, timeout=60_000)
        save_id = page.url.split("/play/")[1]
        page.wait_for_function(f"localStorage.getItem('scarab:snap:{save_id}') !== null", timeout=60_000)
        urls.append((page.url, save_id))
    device = device_with_storage_of(page, context_factory, guard, server)
    for (game, ready, cells), (url, save_id) in zip(games, urls):
        held = hold_python(device)
        device.goto("about:blank")
        device.goto(url, wait_until="commit")  # the game's address, loaded with the games stored
        device.wait_for_selector(f"[data-snapshot='{save_id}']", timeout=30_000)
        assert device.evaluate("document.body.dataset.ready") is None
        assert device.locator(cells).count() == 100
        assert device.locator("[data-snapshot] .snapshot-busy").count() == 1
        shot(device, f"resume-snapshot-{game}", full_page=False)
        release(device, held)
        device.wait_for_selector(ready, timeout=60_000)
        device.wait_for_selector("body[data-ready='1']", timeout=60_000)
        assert device.locator("[data-snapshot]").count() == 0


def test_a_game_never_played_is_not_saved(page: Any, open_site: Any) -> None:
    """Start, leave without a move: not listed, no resume picture, and dropped once another game is
    started; come back to it (the rules read) and it is there; a first move keeps it, named by who
    plays."""
    legal = "#thot-board .mark-legal, #thot-board .mark-turn, #thot-board .mark-stop"
    saves = "Object.keys(localStorage).filter(k => k.startsWith('scarab:save:'))"
    open_site(page, "#/thot/new")
    page.wait_for_selector("#start", timeout=60_000)
    page.click("#start")  # You against the computer, you first
    page.wait_for_selector(legal, timeout=60_000)
    first = page.evaluate("location.hash")
    save_id = first.split("/play/")[1]
    assert page.evaluate(f"localStorage.getItem('scarab:snap:{save_id}')") is None  # no resume picture
    page.evaluate("location.hash = '#/'")
    page.get_by_text("No saved games.").wait_for()  # not a game to continue
    page.evaluate("location.hash = '#/thot/rules'")
    page.wait_for_selector(".rules-page")
    page.evaluate(f"location.hash = {first!r}")  # back from the rules: the same game, still unplayed
    page.wait_for_selector(legal, timeout=60_000)
    page.evaluate("location.hash = '#/thot/new'")
    page.wait_for_selector("#start", timeout=60_000)
    page.click("#start")
    page.wait_for_function(f"!location.hash.endsWith({save_id!r})")
    page.wait_for_selector(legal, timeout=60_000)
    assert page.evaluate(f"localStorage.getItem('scarab:save:{save_id}')") is None  # the first one dropped
    page.locator(legal).first.click()
    page.wait_for_function(f"{saves}.length === 1 && !JSON.parse(localStorage.getItem({saves}[0]))"
                           ".state.meta.unplayed", timeout=30_000)
    page.evaluate("location.hash = '#/'")
    item = page.locator(".save").first
    item.wait_for()
    assert item.locator(".title").inner_text() == "You vs Computer (intermediate)"
    assert page.locator(".save").count() == 1
