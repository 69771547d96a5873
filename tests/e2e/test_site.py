"""The platform in Chromium: first paint, takeover, language, saves, damaged entries, screenshots."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from tests.e2e.conftest import RUN_PYTHON, SIZES, Guard, shot, watch

pytestmark = pytest.mark.e2e

SAVE = {
    "schema": 1, "id": "e2e1", "game": "thot", "title": "Partita di prova", "created": 1, "updated": 2,
    "revision": 1, "state": {"format": "scarab-record", "version": 1, "game": "thot", "options": {}, "seed": 1,
                             "moves": []},
}


class TestFirstPaint:
    def test_chooser_paints_before_python_then_interactive(self, fresh_page: Any, server: str) -> None:
        page = fresh_page
        page.goto(server, wait_until="domcontentloaded")
        assert page.locator("body[data-ready='1']").count() == 0  # Python is still starting
        assert page.locator(".chooser h1").is_visible()
        assert page.locator(".card").count() == 3
        assert page.locator("#boot-progress").is_visible()
        page.wait_for_selector("body[data-ready='1']", timeout=60_000)
        # Behaviour, not a millisecond threshold (bench_startup.py measures the times): the chooser
        # painted before Python took over.
        painted, ready = page.evaluate("['scarab:chooser-painted', 'scarab:interactive'].map("
                                       "n => performance.getEntriesByName(n)[0].startTime)")
        assert painted < ready
        assert page.locator("#boot").is_hidden()
        page.get_by_role("link", name="Settings").click()
        page.get_by_role("heading", name="Settings").wait_for()
        page.go_back()
        page.wait_for_selector(".chooser")
        assert "#/settings" not in page.url

    def test_progress_bar_follows_the_download(self, context_factory: Any, guard: Guard, server: str) -> None:
        ctx = context_factory()
        page = watch(ctx.new_page(), guard)
        cdp = ctx.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.send("Network.emulateNetworkConditions", {"offline": False, "latency": 5,
                                                       "downloadThroughput": 4_000_000, "uploadThroughput": 4_000_000})
        page.goto(server, wait_until="domcontentloaded")
        seen: list[int] = []
        while page.locator("body[data-ready='1']").count() == 0 and len(seen) < 200:
            seen.append(page.evaluate("document.getElementById('boot-progress').value"))
            page.wait_for_timeout(50)
        page.wait_for_selector("body[data-ready='1']", timeout=60_000)
        # It moves forward only, through values between empty and full (how many depends on the load).
        # (0 is also what an indeterminate bar reads once Python is loading: leave those out)
        moving = [v for v in seen if v > 0]
        assert moving == sorted(moving), f"the bar went backwards: {seen}"
        assert any(0 < v < 99 for v in seen), f"the bar should move through the download, saw {seen}"

    def test_a_tap_during_the_start_is_said_at_once_and_acted_on_when_ready(
            self, context_factory: Any, guard: Guard, server: str) -> None:
        """Issue 42: "New game" tapped while Python starts used to change nothing on the screen. The
        page says at once that it opens when the games are ready, then opens the new-game form."""
        ctx = context_factory()
        page = watch(ctx.new_page(), guard)
        held: list[Any] = []
        page.route("**/app.zip", lambda route: held.append(route))  # the app waits until let go
        page.goto(server, wait_until="domcontentloaded")
        page.wait_for_selector(".card[data-game='scarabeo'] a")
        page.locator(".card[data-game='scarabeo'] a").click()
        pending = page.locator(".boot-pending [role='status']")
        pending.wait_for(timeout=5_000)
        assert pending.inner_text() == "One moment: it opens as soon as the games are ready…"
        assert page.locator("body[data-ready='1']").count() == 0
        while not held:
            page.wait_for_timeout(50)
        for route in held:
            route.continue_()
        page.unroute("**/app.zip")
        page.wait_for_selector("body[data-ready='1']", timeout=60_000)
        page.wait_for_selector("#start", timeout=60_000)  # the new-game form the tap asked for
        assert "#/scarabeo/new" in page.url and page.locator(".boot-pending").count() == 0

    def test_unknown_route(self, page: Any, open_site: Any) -> None:
        open_site(page, "#/nowhere")
        assert page.get_by_role("heading", name="Page not found").is_visible()


class TestBytecode:
    def test_our_modules_are_loaded_from_the_bytecode_in_app_zip(self, page: Any, open_site: Any) -> None:
        """app.zip carries each module's pyc for the page's Python (issue 25): the pyc of a module the page
        imported is in its file system where ``__cached__`` says (none is written in the page:
        ``sys.dont_write_bytecode``), and its loader takes the code from it without compiling the source,
        which is still there for tracebacks."""
        open_site(page)
        found = json.loads(page.evaluate(RUN_PYTHON, """
import importlib.util, json, os, sys

def probe(name):
    module = sys.modules[name]
    pyc = importlib.util.cache_from_source(module.__file__)
    compiled = []  # the loader compiles the source only when the pyc is missing or unusable
    loader = module.__spec__.loader
    loader.source_to_code = lambda *args, **kwargs: compiled.append(name) or type(loader).source_to_code(
        loader, *args, **kwargs)
    try:
        code = loader.get_code(name)
    finally:
        del loader.source_to_code
    with open(pyc, "rb") as f:
        head = f.read(8)
    return {"name": name, "cached": module.__cached__, "pyc": pyc, "exists": os.path.exists(pyc),
            "source": os.path.exists(module.__file__), "compiled": compiled, "code": code.co_filename,
            "magic": head[:4] == importlib.util.MAGIC_NUMBER, "flags": head[4:8].hex()}

json.dumps({"dont_write": sys.dont_write_bytecode,
            "mods": [probe(name) for name in ("web.shell.app", "web.platform.i18n", "game.core")]})
"""))
        assert found["dont_write"]  # so every pyc in the page's file system came from app.zip
        for mod in found["mods"]:
            assert mod["exists"] and mod["source"], mod
            assert mod["cached"] == mod["pyc"] and "/__pycache__/" in mod["pyc"], mod
            assert mod["compiled"] == [], mod  # the code came from the pyc
            assert mod["magic"] and mod["flags"] == "01000000", mod  # this Python's; unchecked hash


class TestLanguage:
    def test_italian_by_default_when_preferred(self, booted: Any, open_site: Any) -> None:
        page = booted(locale="it-IT")  # a browser that prefers Italian, nothing stored
        open_site(page)
        assert page.locator("html").get_attribute("lang") == "it"
        assert page.get_by_role("link", name="Impostazioni").is_visible()

    def test_switch_language_persists(self, page: Any, open_site: Any) -> None:
        open_site(page, "#/settings")
        page.get_by_label("Italiano").check()
        page.get_by_role("heading", name="Impostazioni").wait_for()
        assert page.get_by_role("link", name="Informazioni").is_visible()
        page.reload()
        page.wait_for_selector("body[data-ready='1']", timeout=60_000)
        assert page.get_by_role("heading", name="Impostazioni").is_visible()
        page.get_by_label("English").check()
        page.get_by_role("heading", name="Settings").wait_for()

    def test_theme_switch(self, page: Any, open_site: Any) -> None:
        open_site(page, "#/settings")
        page.get_by_label("Dark").check()
        assert page.locator("html").get_attribute("data-theme") == "dark"
        page.reload()
        page.wait_for_selector("body[data-ready='1']", timeout=60_000)
        assert page.locator("html").get_attribute("data-theme") == "dark"


class TestSaves:
    def import_save(self, page: Any, save: dict[str, Any]) -> None:
        page.locator("#import-file").set_input_files(
            files=[{"name": "game.json", "mimeType": "application/json", "buffer": json.dumps(save).encode()}])

    def test_imported_save_survives_reload_and_can_be_renamed_and_deleted(self, page: Any, open_site: Any) -> None:
        open_site(page)
        self.import_save(page, SAVE)
        item = page.locator(".save", has_text="Partita di prova")
        item.wait_for()
        page.reload()
        page.wait_for_selector("body[data-ready='1']", timeout=60_000)
        assert item.is_visible()
        page.get_by_role("button", name="Rename: Partita di prova").click()
        page.locator("#rename-field").fill("Sunday <b>game</b>")
        page.get_by_role("button", name="OK").click()
        renamed = page.locator(".save .title", has_text="Sunday <b>game</b>")
        renamed.wait_for()
        assert page.locator(".save b").count() == 0  # a title is text, never markup
        page.get_by_role("button", name="Delete: Sunday <b>game</b>").click()
        page.get_by_role("dialog").get_by_role("button", name="Delete").click()
        page.get_by_text("No saved games.").wait_for()

    def test_bad_import_is_reported_and_loses_nothing(self, page: Any, open_site: Any) -> None:
        open_site(page)
        self.import_save(page, SAVE)
        page.locator(".save", has_text="Partita di prova").wait_for()
        self.import_save(page, {**SAVE, "schema": 7})
        # the first import's toast is still up: wait for the second one's words, not for a toast
        page.locator("#toast", has_text="newer version").wait_for()
        assert page.locator(".save").count() == 1

    def test_corrupt_entry_listed_as_damaged_app_still_works(self, page: Any, open_site: Any) -> None:
        page.evaluate("localStorage.setItem('scarab:save:broken', '{half a save')")
        page.evaluate(f"localStorage.setItem('scarab:save:e2e1', {json.dumps(json.dumps(SAVE))})")
        open_site(page)  # the site opened with them stored
        damaged = page.locator(".save.damaged")
        assert damaged.count() == 1
        assert "Damaged save" in damaged.inner_text()
        assert page.locator(".save:not(.damaged)").count() == 1
        with page.expect_download() as download:
            page.get_by_role("button", name="Export: broken").click()
        assert download.value.suggested_filename == "scarab-broken.json"
        page.get_by_role("link", name="About").click()
        page.get_by_role("heading", name="About").wait_for()

    def test_other_tab_change_refreshes_list(self, page: Any, guard: Guard, open_site: Any) -> None:
        first, second = page, watch(page.context.new_page(), guard)  # two tabs of one browser
        try:
            open_site(first)
            open_site(second)
            first.locator("#import-file").set_input_files(
                files=[{"name": "g.json", "mimeType": "application/json", "buffer": json.dumps(SAVE).encode()}])
            second.locator(".save", has_text="Partita di prova").wait_for()
        finally:
            second.close()


class TestScreens:
    @pytest.mark.parametrize("size", list(SIZES))
    def test_screenshots(self, booted: Any, open_site: Any, size: str) -> None:
        width, height = SIZES[size]
        page = booted(width, height, locale="it-IT")
        open_site(page)
        page.locator("#import-file").set_input_files(
            files=[{"name": "g.json", "mimeType": "application/json", "buffer": json.dumps(SAVE).encode()}])
        page.locator(".save").wait_for()
        # Nothing may need horizontal scrolling.
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        shot(page, f"home-{size}")
        page.goto(page.url.split("#")[0] + "#/settings")
        page.get_by_role("heading", name="Impostazioni").wait_for()
        shot(page, f"settings-{size}")


class TestWordCheck:
    def test_check_a_word_panel(self, page: Any, open_site: Any) -> None:
        open_site(page)
        page.get_by_role("button", name="Check a word").click()
        field = page.get_by_label("Words to check")
        field.fill("città ta qwerty")
        field.press("Enter")
        results = page.locator("#wordcheck-results li.verdict")
        results.nth(2).wait_for(timeout=30_000)
        texts = results.all_inner_texts()
        assert texts[0] == "CITTÀ: valid"
        assert texts[1].startswith("TA: allowed abbreviation — Taranto")
        assert texts[2] == "QWERTY: not valid"
        page.get_by_role("button", name="Close").click()
        page.get_by_role("dialog").wait_for(state="detached")

    def test_word_tools_anagrams_patterns_and_first_plays(self, page: Any, open_site: Any) -> None:
        """Issue 40: the panel's tools, offline from the lexicon, by keyboard (the radios' arrows,
        Enter) and by pointer; a rack it cannot read is said, in words."""
        open_site(page)
        page.get_by_role("button", name="Check a word").click()
        results = page.locator("#wordcheck-results li.verdict")
        page.get_by_role("radio", name="Anagrams").check()
        rack = page.get_by_role("textbox", name="Rack")
        rack.fill("cane?")
        rack.press("Enter")
        results.nth(1).wait_for(timeout=30_000)
        texts = results.all_inner_texts()
        assert re.fullmatch(r"\d+ results; the first 120:", texts[0]), texts[0]  # all counted, not all shown
        assert texts[1].startswith("5 letters: ") and "CANOE\u00a0(?O)" in texts[1], texts[1]
        assert any(line.startswith("4 letters: ") and "CANE," in line for line in texts)
        page.get_by_role("radio", name="Anagrams").focus()
        page.keyboard.press("ArrowRight")  # the next tool, as radios go
        assert page.get_by_role("radio", name="Pattern").is_checked()
        field = page.get_by_role("textbox", name="Pattern to match")
        field.fill("c?sa")
        field.press("Enter")
        page.wait_for_function("() => document.querySelectorAll('#wordcheck-results li.verdict').length >= 2"
                               " && document.querySelector('#wordcheck-results li.verdict').textContent.endsWith('results.')",
                               timeout=30_000)
        words = results.nth(1).inner_text().split(", ")
        assert {"CASA", "COSA"} <= set(words) and all(len(w) == 4 and w[0] == "C" and w[2:] == "SA" for w in words)
        page.get_by_role("radio", name="First play").click()
        field = page.get_by_role("textbox", name="Rack")
        field.fill("casa")
        page.locator("#wordcheck-go").click()
        page.wait_for_function("() => { const l = document.querySelectorAll('#wordcheck-results li.verdict');"
                               " return l.length >= 2 && l[1].textContent.includes('points'); }", timeout=30_000)
        first = results.nth(1).inner_text()
        assert re.fullmatch(r"[A-Z]+ — \S+ [A-Z]+, \d+ points", first), first
        field.fill("casa???")
        field.press("Enter")
        page.wait_for_function("() => document.querySelector('#wordcheck-results li.verdict.invalid')", timeout=30_000)
        assert results.first.inner_text() == "A rack is 1 to 8 tiles: letters, and ? for a scarab (at most two)."
        page.get_by_role("button", name="Close").click()


class TestSubPath:
    def test_built_folder_works_under_a_sub_path(self, own_server: Any, fresh_page: Any) -> None:
        page = fresh_page
        base = own_server("games/scarab")
        page.goto(base + "#/about")
        page.wait_for_selector("body[data-ready='1']", timeout=60_000)
        assert page.get_by_role("heading", name="About").is_visible()


# --- issue 26: the new-game form, Rematch, take-back, the tab's title, sounds ---------------------
FORM_SIZES = [(360, 640), (390, 844), (820, 1180), (1180, 820), (1366, 768), (1440, 900), (1920, 1080)]  # the seven sizes


class TestNewGameForm:
    def test_starts_on_you_against_the_computer_with_start_in_view(self, page: Any, open_site: Any) -> None:
        open_site(page, "#/thot/new")
        for w, h in FORM_SIZES:
            page.set_viewport_size({"width": w, "height": h})
            for game in ("scarabeo", "thot", "scarabya"):
                page.evaluate(f"location.hash = '#/{game}/new'")
                page.wait_for_selector("#start", timeout=60_000)
                page.evaluate("scrollTo(0, 0)")
                assert page.locator("#mode-computer").is_checked()
                assert page.locator("#seat-1-kind").input_value().startswith("computer:")
                assert page.locator("#seat-0-kind").input_value() == "person"
                assert page.locator("#seat-0-name").input_value() == "You"
                assert page.locator("#seat-1-name").input_value().startswith("Computer (")
                box = page.locator("#start").bounding_box()
                assert box is not None and 0 <= box["y"] and box["y"] + box["height"] <= h, (game, w, h, box)
                assert 0 <= box["x"] and box["x"] + box["width"] <= w
                if game == "scarabeo" and (w, h) in ((360, 640), (1366, 768)):
                    shot(page, f"new-game-{w}x{h}", full_page=False)
        # people at this device: every seat a person, numbered; a name the player typed is kept
        page.set_viewport_size({"width": 1280, "height": 800})
        page.locator("#seat-1-name").fill("Bruno")
        page.locator("#mode-people").check()
        assert page.locator("#seat-1-kind").input_value() == "person"
        assert [page.locator(f"#seat-{i}-name").input_value() for i in (0, 1)] == ["Player 1", "Bruno"]
        page.locator("#mode-computer").check()
        assert page.locator("#seat-0-name").input_value() == "You"


def thot_game(page: Any, open_site: Any, seats: tuple[tuple[str, str], ...], seed: int = 11) -> None:
    open_site(page, "#/thot/new")
    page.wait_for_selector("#start", timeout=60_000)
    page.locator("#players").select_option(str(len(seats)))
    for i, (name, kind) in enumerate(seats):
        page.locator(f"#seat-{i}-kind").select_option(kind)
        page.locator(f"#seat-{i}-name").fill(name)
    page.locator("#thot-short").check()
    page.locator("#seed").fill(str(seed))
    page.locator("#start").click()
    page.wait_for_selector("#thot-board")


def thot_move(page: Any) -> None:
    from tests.e2e.test_thot import LEGAL, wait_turn

    wait_turn(page)
    before = page.evaluate("document.querySelectorAll('#thot-log li:not(.muted)').length")
    if page.locator("#thot-drop").count():
        page.locator("#thot-drop button.chip").first.click()
        page.locator("#thot-board .mark-drop").first.click()
    else:
        page.locator(LEGAL).first.click()
    page.wait_for_function(f"document.querySelectorAll('#thot-log li:not(.muted)').length > {before}"
                           " || document.getElementById('thot-drop')", timeout=10_000)


def saves(page: Any) -> list[dict[str, Any]]:
    return page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('scarab:save:'))"
                         ".map(k => JSON.parse(localStorage.getItem(k)))")


class TestTurns:
    def test_tab_title_says_whose_turn(self, page: Any, open_site: Any) -> None:
        from tests.e2e.test_thot import wait_turn

        thot_game(page, open_site, (("Anna", "person"), ("Bruno", "person")))
        page.wait_for_function("document.title === 'Anna to play — Scarab — the Game of Thot'")
        thot_move(page)
        page.wait_for_function("document.title === 'Bruno to play — Scarab — the Game of Thot'")
        thot_game(page, open_site, (("You", "person"), ("Computer", "computer:1")))
        wait_turn(page)
        assert page.title() == "Your turn — Scarab — the Game of Thot"
        thot_move(page)
        wait_turn(page)  # the computer replied: the tab says so
        assert page.title() == "Your turn — Scarab — the Game of Thot"
        page.evaluate("location.hash = '#/'")
        page.get_by_role("heading", name="Continue").wait_for()
        assert page.title() == "Scarab — games of the scarab"

    def test_take_back_in_pass_and_play_asks_and_says_what_it_undid(self, page: Any, open_site: Any) -> None:
        thot_game(page, open_site, (("Carla", "person"), ("Bruno", "person")))
        log = "document.querySelectorAll('#thot-log li:not(.muted)').length"
        thot_move(page)
        page.click("#takeback")
        dialog = page.get_by_role("dialog")
        dialog.wait_for()
        asked = page.locator("#takeback-what").inner_text()
        assert asked.startswith("This will be taken back: Carla ")
        dialog.get_by_role("button", name="Cancel").click()  # asked, not done
        dialog.wait_for(state="detached")
        assert page.evaluate(log) == 1
        page.click("#takeback")
        page.get_by_role("dialog").get_by_role("button", name="Take back").click()
        page.wait_for_function(f"{log} === 0")
        message = page.locator("#play-message").inner_text()
        assert message.startswith("Taken back: Carla "), message
        assert page.title() == "Carla to play — Scarab — the Game of Thot"
        assert len(saves(page)[0]["state"]["moves"]) == 0  # the save says so too


class TestRematch:
    def test_rematch_same_players_and_options_new_deal_other_side_starts(self, page: Any, open_site: Any) -> None:
        from tests.e2e.test_thot import wait_turn

        thot_game(page, open_site, (("You", "person"), ("Computer", "computer:1")), seed=11)
        first = page.url.split("/play/")[1]
        for _ in range(80):
            wait_turn(page)
            if page.locator("#thot-result").count():
                break
            thot_move(page)
        else:
            pytest.fail("the game did not end")
        assert page.title() == "Game over — Scarab — the Game of Thot"
        page.get_by_role("button", name="Rematch").click()
        page.wait_for_function(f"!location.hash.endsWith('{first}') && !!document.getElementById('thot-board')")
        wait_turn(page)  # the computer, second last time, moved first
        second = page.url.split("/play/")[1]
        assert second != first
        assert page.locator("[role=gridcell]").count() == 64  # the short board again
        stored = {s["id"]: s for s in saves(page)}
        old, new = stored[first]["state"], stored[second]["state"]
        assert [(s["name"], s["computer"]) for s in new["meta"]["seats"]] == [("Computer", True), ("You", False)]
        assert new["meta"]["seats"][0]["level"] == 1
        assert new["options"] == old["options"] and new["seed"] != old["seed"]
        assert len(new["moves"]) == 1  # the computer's opening move, then yours
        assert page.title() == "Your turn — Scarab — the Game of Thot"


class TestSounds:
    SPY = """() => {
      window.__audio = {made: 0, notes: 0};
      window.__realAudio = window.AudioContext;
      window.AudioContext = class {
        constructor() { window.__audio.made++; this.state = 'running'; this.currentTime = 0; this.destination = {}; }
        createOscillator() { return {type: '', frequency: {setValueAtTime() {}}, connect() {},
                                     start() { window.__audio.notes++; }, stop() {}}; }
        createGain() { return {gain: {setValueAtTime() {}, exponentialRampToValueAtTime() {}}, connect() {}}; }
        resume() {} close() {}
      };
    }"""

    def test_moves_sound_unless_turned_off_and_off_makes_no_audio_context(self, page: Any, open_site: Any) -> None:
        open_site(page, "#/settings")
        sounds = page.locator("#sounds")
        assert sounds.is_checked()  # on by default
        sounds.uncheck()
        assert json.loads(page.evaluate("localStorage.getItem('scarab:settings')"))["sounds"] is False
        try:
            page.evaluate(self.SPY)
            thot_game(page, open_site, (("You", "person"), ("Computer", "computer:1")))
            thot_move(page)
            thot_move(page)  # after the computer's reply
            assert page.evaluate("window.__audio") == {"made": 0, "notes": 0}  # off: no AudioContext at all
            game = page.evaluate("location.hash")
            page.evaluate("location.hash = '#/settings'")
            page.locator("#sounds").check()
            page.evaluate(f"location.hash = {game!r}")
            page.wait_for_selector("#thot-board")
            thot_move(page)
            from tests.e2e.test_thot import wait_turn

            wait_turn(page)
            audio = page.evaluate("window.__audio")
            # one context for the page; the move, the computer's move and the turn each sound
            assert audio["made"] == 1 and audio["notes"] >= 3, audio
        finally:
            page.evaluate("() => { if (window.__realAudio) window.AudioContext = window.__realAudio;"
                          " delete window.__realAudio; delete window.__audio; }")


class TestTakeBackUnderTheCover:
    def test_scarabeo_take_back_asks_and_the_cover_says_what_was_undone(self, page: Any, open_site: Any) -> None:
        """Pass-and-play with secret racks: Bruno, handed the device, takes back Anna's pass — asked
        first, with Anna's move in words; then the device goes back to Anna, and her cover says
        what was undone (never the move as if it still stood)."""
        from tests.e2e.test_scarabeo import new_game

        new_game(page, open_site, 5, [("Anna", "person"), ("Bruno", "person")])
        first = page.locator("#cover-title").inner_text().removeprefix("Pass the device to ")
        second = "Bruno" if first == "Anna" else "Anna"
        page.click("#reveal")
        page.click("#sc-pass")
        confirm = page.locator("dialog[open] button.primary")  # Pass asks once
        confirm.wait_for()
        confirm.click()
        page.wait_for_function(f"document.getElementById('cover-title')?.textContent.endsWith({second!r})")
        page.click("#reveal")
        page.locator("#sc-takeback, #takeback").first.click()
        dialog = page.get_by_role("dialog")
        dialog.wait_for()
        asked = page.locator("#takeback-what").inner_text()
        assert asked.startswith(f"This will be taken back: {first} ") and "pass" in asked.lower(), asked
        dialog.get_by_role("button", name="Take back").click()
        page.wait_for_function(f"document.getElementById('cover-title')?.textContent.endsWith({first!r})")
        note = page.locator("#cover-message").inner_text()
        assert note.startswith(f"Taken back: {first} ") and "pass" in note.lower(), note
        assert page.locator("#sc-rack, .sc-tile").count() == 0  # the cover, nothing of a rack
        assert page.title() == f"{first} to play — Scarabeo"
