"""Issue 14 in Chromium: nothing a save, a link, a file, a tab or a host page does takes the site down
or loses a game. Each case corrupts something, reloads, and checks that the real saves are still
listed and playable and that the odd input was refused with its reason."""

from __future__ import annotations

import base64
import json
import zlib
from typing import Any

import pytest

from game.core import GameRecord, Rng
from tests.e2e.conftest import Guard, shot, watch
from tests.e2e.test_share_embed import play_thot_move
from web.platform import engines

pytestmark = pytest.mark.e2e

DEEP = "[" * 5000 + "]" * 5000
LEGAL = "#thot-board .mark-legal, #thot-board .mark-turn, #thot-board .mark-stop"


def envelope(save_id: str, title: str, record: dict[str, Any], **fields: Any) -> dict[str, Any]:
    return {"schema": 1, "id": save_id, "game": "thot", "title": title, "created": 1, "updated": 2,
            "revision": 1, "state": record, **fields}


def thot_record(moves: int = 0, seed: int = 7, seats: Any = None) -> dict[str, Any]:
    """A real Thot short game of two people after ``moves`` random legal moves."""
    state = engines.factory("thot")({"players": 2, "short": True}, seed)
    rng = Rng(seed)
    for _ in range(moves):
        state.push(rng.choice(list(state.legal_moves())))
    meta = {"seats": seats if seats is not None else [{"name": "Ada"}, {"name": "Bo"}], "game_id": f"g{seed}"}
    return GameRecord.of(state, **meta).to_json()


def real_saves(page: Any) -> None:
    for i in range(3):
        page.evaluate("([k, v]) => localStorage.setItem(k, v)",
                      [f"scarab:save:real{i}", json.dumps(envelope(f"real{i}", f"Real game {i}", thot_record(i)))])


def listed(page: Any) -> list[str]:
    return page.locator(".saves li.save:not(.damaged) .title").all_inner_texts()


def still_playable(page: Any, title: str = "Real game 0") -> None:
    """The chooser lists the real saves, and one of them opens and takes a move."""
    page.goto(page.url.split("#")[0] + "#/")
    page.wait_for_selector(".saves")
    assert {"Real game 0", "Real game 1", "Real game 2"} <= set(listed(page))
    page.get_by_role("link", name=title).click()
    page.wait_for_selector("#thot-board")
    before = page.locator("#thot-log li:not(.muted)").count()
    page.locator(LEGAL).first.click()
    page.wait_for_function(f"document.querySelectorAll('#thot-log li:not(.muted)').length > {before}")


def link_payload(text: str) -> str:
    return "s1." + base64.urlsafe_b64encode(zlib.compress(text.encode())).decode().rstrip("=")


class TestStoredEntries:
    @pytest.mark.parametrize("raw, reason", [
        (DEEP, "nested 5000 levels"),
        (json.dumps(envelope("odd", "odd", thot_record()))[:-1] + ',"updated":9007199254740993}', "updated"),
        (json.dumps(envelope("odd", "odd", thot_record(), updated=1e20)), "updated"),
        (json.dumps(envelope("odd", "odd", thot_record(), updated=-1e20)), "updated"),
        ('{"schema":1,"id":"odd","n":' + "9" * 5000 + "}", "digits"),
    ], ids=["deep", "beyond-2**53", "1e20", "-1e20", "5000-digits"])
    def test_one_odd_entry_hides_nothing(self, page: Any, open_site: Any, raw: str, reason: str) -> None:
        real_saves(page)
        page.evaluate("v => localStorage.setItem('scarab:save:odd', v)", raw)
        open_site(page)  # the site opened with them stored
        assert sorted(listed(page)) == ["Real game 0", "Real game 1", "Real game 2"]
        damaged = page.locator(".saves li.damaged")
        assert damaged.count() == 1 and reason in damaged.inner_text()
        # Export gives the entry exactly as stored; delete (confirmed) removes only it.
        with page.expect_download() as download:
            damaged.get_by_role("button", name="Export").click()
        assert open(download.value.path(), encoding="utf-8").read() == raw
        damaged.get_by_role("button", name="Delete").click()
        page.get_by_role("dialog").get_by_role("button", name="Delete").click()
        page.wait_for_function("!document.querySelector('.saves li.damaged')")
        still_playable(page)

    def test_a_save_the_engine_refuses_shows_as_damaged(self, page: Any, open_site: Any) -> None:
        open_site(page)
        real_saves(page)
        bad = {**thot_record(), "game": "scarabya", "options": {"players": 1, "layout": []}}
        page.evaluate("v => localStorage.setItem('scarab:save:bad', v)",
                      json.dumps({**envelope("bad", "Refused", bad), "game": "scarabya"}))
        seats = json.dumps(envelope("seats", "Seats", thot_record(seats=True)))
        page.evaluate("v => localStorage.setItem('scarab:save:seats', v)", seats)
        for save_id in ("bad", "seats"):
            page.goto(page.url.split("#")[0] + f"#/thot/play/{save_id}" if save_id == "seats"
                      else page.url.split("#")[0] + f"#/scarabya/play/{save_id}")
            page.wait_for_selector("#game-damaged")
            text = page.locator("#game-damaged").inner_text()
            assert "Traceback" not in text and ("layout" in text or "seats" in text)
            assert page.locator("#export-damaged").is_visible()
        shot(page, "trust-damaged-game")
        still_playable(page)


class TestLinksAndFiles:
    def test_deep_link_refused_and_the_site_goes_on(self, page: Any, open_site: Any) -> None:
        open_site(page)
        real_saves(page)
        page.goto(page.url.split("#")[0] + "#/open?d=" + link_payload(DEEP))
        page.get_by_role("heading", name="Link refused").wait_for()
        assert "nested" in page.locator(".link-refused p").inner_text()
        still_playable(page)

    def test_link_with_seats_true_refused(self, page: Any, open_site: Any) -> None:
        from web.platform.share import encode

        open_site(page)
        record = GameRecord.from_json(thot_record(seats=True))
        page.goto(page.url.split("#")[0] + "#/open?d=" + encode(record, "g1"))
        page.get_by_role("heading", name="Link refused").wait_for()
        assert "seats" in page.locator(".link-refused p").inner_text()

    def test_bad_imports_refused_then_a_good_one_works(self, page: Any, open_site: Any) -> None:
        real_saves(page)
        open_site(page)  # the site opened with them stored
        refused = {
            "deep": (DEEP, "nested"),
            "digits": ('{"schema":1,"n":' + "1" * 5000 + "}", "digits"),
            "layout": (json.dumps({**envelope("x", "x", {**thot_record(), "game": "scarabya",
                                                          "options": {"players": 1, "layout": []}}),
                                   "game": "scarabya"}), "does not replay"),
            "big": (" " * 1_000_001, "1,000,001 bytes"),
        }
        for name, (text, reason) in refused.items():
            page.locator("#import-file").set_input_files(
                files=[{"name": f"{name}.json", "mimeType": "application/json", "buffer": text.encode()}])
            page.wait_for_function("t => document.getElementById('toast').textContent.includes(t)", arg=reason)
            assert "Import failed" in page.locator("#toast").inner_text()
        good = envelope("", "Imported game", thot_record(2))  # an empty id gets a new one
        page.locator("#import-file").set_input_files(
            files=[{"name": "good.json", "mimeType": "application/json", "buffer": json.dumps(good).encode()}])
        page.get_by_role("link", name="Imported game").wait_for()
        href = page.get_by_role("link", name="Imported game").get_attribute("href") or ""
        assert href.startswith("#/thot/play/") and len(href) > len("#/thot/play/")
        page.get_by_role("link", name="Imported game").click()
        page.wait_for_selector("#thot-board")


class TestSettingsAndStatistics:
    def test_odd_settings_do_not_stop_a_new_game(self, page: Any, open_site: Any) -> None:
        open_site(page)
        page.evaluate("localStorage.setItem('scarab:settings', JSON.stringify({tutorials_seen: 5, theme: 7}))")
        page.goto(page.url.split("#")[0] + "#/thot/new")
        page.wait_for_selector("#start")
        page.locator("#seat-1-kind").select_option("person")
        page.locator("#start").click()
        page.wait_for_selector("#thot-board")

    def test_odd_statistics_still_count_a_finished_game(self, page: Any, open_site: Any) -> None:
        open_site(page)
        page.evaluate("localStorage.setItem('scarab:stats', JSON.stringify("
                      "{version: 1, counted: 5, players: {ada: 'x', bo: {name: 'Bo', games: {thot: 'x'}}}}))")
        # A real game a few moves from its end, the computer on both seats: it plays itself out.
        state = engines.factory("thot")({"players": 2, "short": True}, 5)
        rng = Rng(5)
        while not state.is_over():
            state.push(rng.choice(list(state.legal_moves())))
        record = GameRecord.of(state)
        record.moves = record.moves[:-3]
        record.meta = {"seats": [{"name": "Ada", "computer": True, "level": 1},
                                 {"name": "Bo", "computer": True, "level": 1}], "game_id": "end"}
        page.evaluate("v => localStorage.setItem('scarab:save:end', v)",
                      json.dumps(envelope("end", "Ending", record.to_json())))
        page.goto(page.url.split("#")[0] + "#/thot/play/end")
        page.wait_for_selector("#thot-result", timeout=60_000)
        page.get_by_role("link", name="Statistics").click()
        page.get_by_role("heading", name="Player statistics").wait_for()
        assert page.locator(".stats-table tbody tr").count() >= 1

    def test_malformed_statistics_import_refused_page_keeps_working(self, page: Any, open_site: Any) -> None:
        open_site(page, "#/stats")
        page.get_by_role("heading", name="Player statistics").wait_for()
        bad = json.dumps({"version": 1, "players": {"x": {"name": "X", "games": {"thot": "x"}}}})
        page.locator("#stats-import-file").set_input_files(
            files=[{"name": "s.json", "mimeType": "application/json", "buffer": bad.encode()}])
        page.wait_for_function("document.getElementById('toast').textContent.includes('thot')")
        assert "Statistics imported" not in page.locator("#toast").inner_text()
        page.reload()
        page.get_by_role("heading", name="Player statistics").wait_for()

    def test_settings_not_called_saved_when_storage_is_full(self, page: Any, open_site: Any) -> None:
        open_site(page, "#/settings")
        page.get_by_role("heading", name="Settings").wait_for()
        # Fill to the last character: big chunks first, then ever smaller ones.
        filled = page.evaluate("""() => {
            let size = 1 << 20, i = 0, full = false;
            while (size >= 1 && i < 400) {
                try { localStorage.setItem('filler' + i, 'x'.repeat(size)); i++; }
                catch (e) { full = true; size >>= 1; }
            }
            return full ? i : -1;
        }""")
        assert filled > 0, "the storage quota was never reached"
        try:
            page.get_by_label("Dark").check()
            page.wait_for_function("document.getElementById('toast').textContent.includes('full')")
            assert "Settings saved" not in page.locator("#toast").inner_text()
        finally:
            page.evaluate("() => { for (let i = 0; i < 400; i++) localStorage.removeItem('filler' + i); }")


def tab_in_game(tab: Any, open_site: Any, save_id: str) -> Any:
    """Tab A with the real saves stored, in the game ``save_id``."""
    real_saves(tab)
    open_site(tab, f"#/thot/play/{save_id}")
    tab.wait_for_selector("#thot-board")
    return tab


class TestOtherTabs:
    def test_newer_version_in_another_tab_is_never_overwritten(self, page: Any, guard: Guard,
                                                             open_site: Any) -> None:
        a = tab_in_game(page, open_site, "real0")
        # Tab B, a newer release, rewrites the game with schema 2, a higher revision, an extra field.
        newer = {**envelope("real0", "Real game 0", thot_record(0)), "schema": 2, "revision": 9, "extra": [1]}
        b = watch(a.context.new_page(), guard)  # another tab of the same browser: the same storage
        try:
            open_site(b)
            b.evaluate("v => localStorage.setItem('scarab:save:real0', v)", json.dumps(newer))
            a.bring_to_front()
            a.locator(LEGAL).first.click()
            dialog = a.get_by_role("dialog")
            dialog.wait_for()
            assert "newer version" in dialog.inner_text()
            assert json.loads(a.evaluate("localStorage.getItem('scarab:save:real0')")) == newer
            dialog.get_by_role("button", name="Keep this one as a new game").click()
            a.wait_for_function("!location.hash.endsWith('/real0') && document.getElementById('thot-board')")
            assert a.locator("#thot-log li:not(.muted)").count() == 1  # the move made in tab A is kept
            assert json.loads(a.evaluate("localStorage.getItem('scarab:save:real0')")) == newer
        finally:
            b.close()

    def test_deleted_in_another_tab_is_not_recreated(self, page: Any, open_site: Any) -> None:
        a = tab_in_game(page, open_site, "real1")
        a.evaluate("localStorage.removeItem('scarab:save:real1')")
        a.locator(LEGAL).first.click()
        dialog = a.get_by_role("dialog")
        dialog.wait_for()
        assert "deleted" in dialog.inner_text()
        dialog.get_by_role("button", name="Leave it").click()
        assert a.evaluate("localStorage.getItem('scarab:save:real1')") is None


#: What Safari, Brave and strict Firefox do to a frame from another site: storage refused on first touch.
REFUSE_STORAGE = """
if (window.top !== window && location.hostname === '127.0.0.1') {
  const refuse = () => { throw new DOMException("The operation is insecure.", "SecurityError"); };
  Object.defineProperty(window, 'localStorage', { get: refuse, configurable: true });
  Object.defineProperty(window, 'indexedDB', { get: refuse, configurable: true });
  Object.defineProperty(Navigator.prototype, 'serviceWorker', { get: refuse, configurable: true });
}
"""


class TestCrossSiteEmbed:
    def test_embed_on_another_site_plays_without_storage(self, context_factory: Any, guard: Guard,
                                                          own_server: Any) -> None:
        base = own_server("site")  # http://127.0.0.1:PORT/site/
        (own_server.root / "site" / "blog.html").write_text(
            '<!doctype html><meta charset="utf-8"><title>A blog</title><h1>A blog</h1>'
            f'<iframe id="game" src="{base}embed.html?game=thot" width="400" height="600" '
            'title="Scarab — the Game of Thot"></iframe>')
        page = watch(context_factory(width=900, height=800).new_page(), guard)
        page.add_init_script(REFUSE_STORAGE)  # in every frame of this page (the context serves other tests)
        page.goto(base.replace("127.0.0.1", "localhost") + "blog.html")  # localhost and 127.0.0.1: two different sites
        frame = page.frame_locator("#game")
        frame.locator("body[data-ready='1']").wait_for(timeout=60_000)
        play_thot_move(frame)
        note = frame.locator("#ephemeral-note")
        assert "lasts only for this visit" in note.inner_text()
        href = frame.locator("#ephemeral-open").get_attribute("href") or ""
        assert "index.html#/open?d=s2." in href  # the full site opens this very game
        shot(page, "trust-embed-no-storage")

    def test_embed_of_an_unknown_game_says_so(self, fresh_page: Any, server: str) -> None:
        page = fresh_page
        page.goto(server + "embed.html?game=bogus")
        page.wait_for_selector("body[data-ready='1']", timeout=60_000)
        assert "Unknown game" in page.locator(".embed-unknown h1").inner_text()
        assert page.locator("#thot-board, #start").count() == 0
