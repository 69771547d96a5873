"""Issue 9: games in links between devices, correspondence play, embedding, hostile names.

Each browser context stands for a device of its own (its own localStorage)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.conftest import Guard, shot, watch

pytestmark = pytest.mark.e2e

LEGAL = "#thot-board .mark-legal, #thot-board .mark-turn, #thot-board .mark-stop"
HOSTILE = "<img src=x onerror=f()>"  # within the 24 characters a name may have


def new_thot(page: Any, base: str, names: tuple[str, str] = ("Alice", "Bruno"), seed: int = 21) -> None:
    page.goto(base + "#/thot/new")
    page.wait_for_selector("body[data-ready='1']", timeout=60_000)
    page.locator("#thot-short").check()
    for i, name in enumerate(names):
        page.locator(f"#seat-{i}-kind").select_option("person")
        page.locator(f"#seat-{i}-name").fill(name)
    page.locator("#seed").fill(str(seed))
    page.locator("#start").click()
    page.wait_for_selector("#thot-board")


def moves_played(page: Any) -> int:
    return page.locator("#thot-log li:not(.muted)").count()


def play_one(page: Any) -> None:
    before = moves_played(page)
    if page.locator("#thot-drop").count():
        page.locator("#thot-nodrop").click()
    else:
        page.locator(LEGAL).first.click()
    page.wait_for_function(
        f"document.querySelectorAll('#thot-log li:not(.muted)').length > {before} || document.getElementById('thot-drop')")
    if page.locator("#thot-drop").count():
        page.locator("#thot-nodrop").click()
        page.wait_for_function(f"document.querySelectorAll('#thot-log li:not(.muted)').length > {before}")


def share_link(page: Any) -> str:
    page.locator("#share").click()
    link = page.locator("#share-link").input_value()
    page.get_by_role("dialog").get_by_role("button", name="Close").click()
    page.get_by_role("dialog").wait_for(state="detached")
    return link


def open_link(page: Any, link: str) -> None:
    page.goto(link)
    page.wait_for_selector("body[data-ready='1']", timeout=60_000)


class TestLinks:
    def test_link_opens_the_same_game_on_another_device(self, page: Any, devices: Any, server: str) -> None:
        one = page
        new_thot(one, server)
        play_one(one)
        play_one(one)
        link = share_link(one)
        assert "#/open?d=s2." in link
        (other,) = devices(1)
        open_link(other, link)
        other.wait_for_selector("#thot-board")
        assert other.locator("#thot-log").inner_text() == one.locator("#thot-log").inner_text()
        assert other.locator("#thot-board").inner_text() == one.locator("#thot-board").inner_text()

    def test_tampered_link_refused(self, page: Any, server: str) -> None:
        new_thot(page, server)
        play_one(page)
        link = share_link(page)
        head, payload = link.split("d=")
        tampered = head + "d=" + payload[:-6] + ("A" if payload[-6] != "A" else "B") + payload[-5:]
        page.goto(tampered)
        page.reload()
        page.wait_for_selector("body[data-ready='1']", timeout=60_000)
        page.get_by_role("heading", name="Link refused").wait_for()
        assert page.locator(".link-refused p").inner_text()


class TestPrivateRacks:
    def test_scarabeo_link_watch_only_unless_moved(self, page: Any, devices: Any, server: str) -> None:
        """Issue 24: the Share link of a game in progress is a watch; "Move this game to another
        device", confirmed, gives the one link that continues it (every rack in it)."""
        one = page
        one.goto(server + "#/scarabeo/new")
        one.wait_for_selector("body[data-ready='1']", timeout=60_000)
        one.locator("#start").wait_for(timeout=60_000)
        one.locator("#mode-people").check()  # two people at this device (the form starts on the computer)
        one.locator("#seed").fill("4")
        one.locator("#start").click()
        one.locator("#reveal").click()
        one.locator("#sc-pass").click()
        one.locator("dialog[open] button.primary").click()  # Pass asks once (issue 26)
        one.locator("#reveal").wait_for()  # the cover for the next person
        one.locator("#reveal").click()
        one.locator("#share").click()
        watch_link = one.locator("#share-link").input_value()
        one.locator("#share-move").click()
        one.locator("#share-move-yes").click()
        play_link = one.locator("#share-link").input_value()
        assert play_link != watch_link
        other, third = devices(2)
        open_link(other, watch_link)
        other.locator(".replay-note").wait_for(timeout=30_000)
        open_link(third, play_link)
        third.locator("#reveal, #sc-board").first.wait_for(timeout=30_000)
        assert third.locator(".replay-note").count() == 0


class TestCorrespondence:
    def test_moves_go_back_and_forth(self, page: Any, devices: Any, server: str) -> None:
        alice = page
        (bruno,) = devices(1)
        new_thot(alice, server, seed=33)
        play_one(alice)
        link = share_link(alice)
        open_link(bruno, link)
        for _ in range(3):
            bruno.wait_for_selector("#thot-board")
            play_one(bruno)
            open_link(alice, share_link(bruno))
            alice.get_by_text("Move received: your turn.").wait_for()
            alice.wait_for_selector("#thot-board")
            play_one(alice)
            link = share_link(alice)
            open_link(bruno, link)
            bruno.get_by_text("Move received: your turn.").wait_for()
        assert moves_played(alice) == moves_played(bruno) == 7
        # An old link (out of order) is refused with an explanation.
        bruno.wait_for_selector("#thot-board")
        play_one(bruno)
        open_link(bruno, link)
        bruno.get_by_role("heading", name="Link refused").wait_for()
        assert "older" in bruno.locator(".link-refused p").inner_text()


def embedded(context_factory: Any, guard: Guard, own_server: Any, game: str, title: str) -> tuple[Any, Any]:
    """A host page (another site's blog) with the game in a 400×600 frame; (host page, frame) once ready."""
    base = own_server("site")
    (own_server.root / "site" / f"host-{game}.html").write_text(
        f'<!doctype html><meta charset="utf-8"><title>My blog</title><h1>My blog</h1>'
        f'<iframe id="game" src="embed.html?game={game}" width="400" height="600" title="{title}"></iframe>')
    page = watch(context_factory(width=900, height=800).new_page(), guard)
    page.goto(base + f"host-{game}.html")
    frame = page.frame_locator("#game")
    frame.locator("body[data-ready='1']").wait_for(timeout=60_000)
    return page, frame


def play_thot_move(frame: Any) -> None:
    """In an embedded frame: a short Thot game of two people, and its first move."""
    frame.locator("#thot-short").check()
    frame.locator("#seat-1-kind").select_option("person")
    frame.locator("#start").click()
    frame.locator("#thot-board").wait_for()
    frame.locator(LEGAL).first.click()
    # attached, not visible: in a 400 px frame the move log sits in the closed drawer
    frame.locator("#thot-log li:not(.muted)").first.wait_for(state="attached")


def fits_frame(page: Any) -> bool:
    return bool(page.evaluate("document.getElementById('game').contentDocument.documentElement.scrollWidth <= 400"))


class TestEmbedding:
    def test_host_page_embeds_thot_and_plays(self, context_factory: Any, guard: Guard, own_server: Any) -> None:
        page, frame = embedded(context_factory, guard, own_server, "thot", "Scarab — the Game of Thot")
        assert frame.locator(".topbar").count() == 0
        play_thot_move(frame)
        # The embedded game is saved apart from the main site's games.
        keys = page.evaluate("Object.keys(localStorage)")
        assert any(k.startswith("scarab:embed:save:") for k in keys)
        assert not any(k.startswith("scarab:save:") for k in keys)
        assert fits_frame(page)
        shot(page, "embed-thot-host")

    def test_host_page_embeds_scarabya_and_plays(self, context_factory: Any, guard: Guard,
                                                 own_server: Any) -> None:
        page, frame = embedded(context_factory, guard, own_server, "scarabya", "Scarabya")
        frame.locator("#players").select_option("1")
        frame.locator("#start").click()
        frame.locator(".sy-game").wait_for()
        frame.locator("#sy-hint").click()
        frame.locator("#sy-hint-box").wait_for()
        frame.locator("#sy-board .sq.handle").first.click()
        frame.locator(".sy-game[data-moves='1']").wait_for()
        assert fits_frame(page)
        shot(page, "embed-scarabya-host")

    def test_host_page_embeds_scarabeo_and_plays(self, context_factory: Any, guard: Guard,
                                                 own_server: Any) -> None:
        page, frame = embedded(context_factory, guard, own_server, "scarabeo", "Scarabeo")
        frame.locator("#start").wait_for(timeout=60_000)
        frame.locator("#seat-1-kind").select_option("computer:1")
        frame.locator("#seed").fill("4")
        frame.locator("#start").click()
        frame.locator("#sc-board").wait_for(timeout=30_000)
        moves = ("() => { const k = Object.keys(localStorage).find(k => k.startsWith('scarab:embed:save:'));"
                 " return k ? JSON.parse(localStorage.getItem(k)).state.moves.length : -1; }")
        frame.locator("#sc-pass:not([disabled])").wait_for(timeout=60_000)  # the person's turn
        before = page.evaluate(moves)
        frame.locator("#sc-pass").click()
        frame.locator("dialog[open] button.primary").click()  # Pass asks once (issue 26)
        page.wait_for_function(f"({moves})() > {before}", timeout=30_000)
        assert fits_frame(page)
        shot(page, "embed-scarabeo-host")


class TestHostileNames:
    def test_name_is_text_everywhere(self, page: Any, server: str) -> None:
        alerts: list[str] = []

        def on_dialog(dialog: Any) -> None:
            alerts.append(dialog.message)
            dialog.dismiss()

        page.on("dialog", on_dialog)
        new_thot(page, server, names=(HOSTILE, "Bruno"))
        play_one(page)
        assert HOSTILE in page.locator("#app").inner_text()
        assert page.locator("#app img").count() == 0
        page.goto(server + "#/")
        page.locator(".save").first.wait_for()
        assert page.locator(".save img").count() == 0
        assert alerts == []
        page.remove_listener("dialog", on_dialog)  # the page serves the next test



def in_srcdoc(page: Any, src: str, sandbox: str) -> None:
    """The embed inside a frame made from a ``srcdoc`` (sandboxed with ``sandbox`` unless it is empty)."""
    page.evaluate("([src, sandbox]) => { const f = document.createElement('iframe'); f.width = 420; f.height = 620;"
                  " if (sandbox) f.sandbox = sandbox;"
                  " f.srcdoc = '<iframe src=\"' + src + '\" width=\"400\" height=\"600\"></iframe>';"
                  " document.body.appendChild(f); }", [src, sandbox])

def no_origin_host(context_factory: Any, guard: Guard, own_server: Any, name: str, body: str,
                   script: str = "") -> Any:
    """A host page (another site: localhost, the game being at 127.0.0.1) whose own content ``body``
    (and ``script``, its script file) builds the frame that embeds the game; (page, the embed's address)."""
    base = own_server("site")
    src = base + "embed.html?game=thot"
    (own_server.root / "site" / f"{name}.js").write_text(script.replace("{src}", src))
    (own_server.root / "site" / f"{name}.html").write_text(
        f'<!doctype html><meta charset="utf-8"><title>Preview</title>{body}<script src="{name}.js"></script>')
    page = watch(context_factory(width=900, height=800).new_page(), guard)
    page.goto(base.replace("127.0.0.1", "localhost") + f"{name}.html")
    return page, src


def embed_frame(page: Any) -> Any:
    """The game's frame, however deep the host put it."""
    deadline = 600
    for _ in range(deadline):
        frames = [f for f in page.frames if "embed.html" in f.url]
        if frames:
            return frames[0]
        page.wait_for_timeout(100)
    raise AssertionError(f"no embed frame in {[f.url for f in page.frames]}")


def starts(frame: Any) -> None:
    frame.wait_for_selector("body[data-ready='1']", timeout=90_000)
    frame.wait_for_selector("#start", timeout=30_000)
    assert frame.evaluate("document.getElementById('boot').hidden")


class TestHostsWithNoOriginOfTheirOwn:
    """Issue 26: the embed inside a frame made from about:blank or from a srcdoc (sandboxed previews,
    some embed services) starts as it does on a blog; in a sandbox without allow-same-origin, where
    the browser refuses it its files and storage, it says so plainly at once."""

    def test_in_a_frame_made_from_about_blank(self, context_factory: Any, guard: Guard, own_server: Any) -> None:
        page, src = no_origin_host(context_factory, guard, own_server, "blank",
                                   '<iframe id="outer" width="420" height="620"></iframe>',
                                   "const d = document.getElementById('outer').contentDocument; d.open();"
                                   "d.write('<iframe src=\"{src}\" width=\"400\" height=\"600\"></iframe>');"
                                   " d.close();")
        assert page.frames[1].url == "about:blank"
        starts(embed_frame(page))

    def test_top_page_about_blank(self, context_factory: Any, guard: Guard, own_server: Any) -> None:
        page, src = no_origin_host(context_factory, guard, own_server, "opener", "<p>opener</p>")
        with page.context.expect_page() as popup:
            page.evaluate("src => { const w = window.open(''); w.document.write("
                          "'<iframe src=\"' + src + '\" width=\"400\" height=\"600\"></iframe>'); w.document.close(); }", src)
        top = watch(popup.value, guard)
        assert top.url == "about:blank"
        starts(embed_frame(top))
        shot(top, "embed-about-blank-top", full_page=False)

    def test_in_a_srcdoc_frame(self, context_factory: Any, guard: Guard, own_server: Any) -> None:
        page, src = no_origin_host(context_factory, guard, own_server, "srcdoc", "")
        in_srcdoc(page, src, "")
        starts(embed_frame(page))

    def test_in_a_sandboxed_srcdoc_that_allows_its_origin(self, context_factory: Any, guard: Guard,
                                                          own_server: Any) -> None:
        page, src = no_origin_host(context_factory, guard, own_server, "sandbox-so", "")
        in_srcdoc(page, src, "allow-scripts allow-same-origin")
        starts(embed_frame(page))

    def test_in_a_sandbox_without_an_origin_it_says_why(self, context_factory: Any, guard: Guard,
                                                         own_server: Any) -> None:
        page, src = no_origin_host(context_factory, guard, own_server, "sandbox", "")
        in_srcdoc(page, src, "allow-scripts")
        frame = embed_frame(page)
        frame.wait_for_selector("body[data-boot-failed='sandboxed']", timeout=30_000)
        assert frame.evaluate("String(window.origin)") == "null"
        text = frame.inner_text("#boot")
        assert "cannot start in this frame" in text and 'sandbox="allow-scripts allow-same-origin"' in text
        assert "%" not in text
        assert frame.get_attribute("#boot", "role") == "alert"
        assert frame.get_attribute("#boot-open", "href") == src
        page.wait_for_timeout(1500)  # nothing else is loaded or tried: no request refused, no error
        assert frame.get_attribute("body", "data-ready") is None
        shot(page, "embed-sandboxed-reason", full_page=False)
