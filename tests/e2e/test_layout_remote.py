"""Issue 37, parts 1 and 2: a game with friends on their own devices is the local game page plus one
compact strip, and the whole board is in view at rest in its every state.

Two (live: two) browser contexts are the friends' phones. In each state reached — the game just
started (your turn / waiting), a move made and its link to send, the move arrived, a take-back asked,
the end — every phone's page is measured at the sizes below, at rest (scroll 0): how many of the
board's squares lie wholly inside the viewport (today's figure before the change: Thot by links
0/100 and 10/100 at 360×640), the strip above the board, the link to send with Share and Copy in
view beside the board (a sheet at the screen's foot on one column, never over the board), the
game's tools holding Paste a link, Send my last link again, Ask to take back, Resign, Leave and
Export. Screenshots: ``tests/e2e/screenshots/remote-<game>-<state>-<device>-<w>x<h>.png``.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.conftest import shot
from tests.e2e.test_remote import Device, accept, friends, invite, relay, start

pytestmark = pytest.mark.e2e

# the screen standard's seven sizes (DEVELOPERS.md "Every screen"): every state of every game at each
SIZES = [(360, 640), (390, 844), (820, 1180), (1180, 820), (1366, 768), (1440, 900), (1920, 1080)]
SQUARES = {"thot": "#thot-board .thot-cell", "scarabeo": "#sc-board .sc-sq", "scarabya": "#sy-board .sq, #sy-board-view .sq"}
BOARDS = {"thot": "#thot-board", "scarabeo": "#sc-board-wrap", "scarabya": "#sy-board, #sy-board-view"}
TOOLS = ["#remote-takeback", "#remote-resend", "#remote-paste-open", "#remote-resign", "#remote-leave", "#export"]
#: (JS) the board's squares wholly in the viewport, their number, and the boxes of the named parts
MEASURE = """([squares, board, parts]) => {
  const inside = r => r.width > 0 && r.left >= -0.5 && r.top >= -0.5 && r.right <= innerWidth + 0.5
                      && r.bottom <= innerHeight + 0.5;
  const cells = [...document.querySelectorAll(squares)];
  const box = sel => { const e = document.querySelector(sel); if (!e || !e.getClientRects().length) return null;
    const r = e.getBoundingClientRect();
    return {left: r.left, top: r.top, right: r.right, bottom: r.bottom, inside: inside(r)}; };
  return {seen: cells.filter(c => inside(c.getBoundingClientRect())).length, total: cells.length,
          board: box(board), parts: Object.fromEntries(parts.map(p => [p, box(p)])),
          wide: document.documentElement.scrollWidth - innerWidth}; }"""


def overlap(a: Any, b: Any) -> bool:
    return bool(a and b and a["left"] < b["right"] - 1 and b["left"] < a["right"] - 1
                and a["top"] < b["bottom"] - 1 and b["top"] < a["bottom"] - 1)


def at_rest(device: Any, kind: str, state: str, sizes: list[tuple[int, int]] = SIZES,
            link: bool = False, game: str = "") -> dict[tuple[int, int], Any]:
    """The device's page at each size, scrolled to its top: every square in view, the strip above
    the board, nothing sideways; ``link``: a link to send, Share/Copy in view and not over the board.
    ``kind``: the screenshots' name for the game (``game``: its board, when that differs)."""
    page = device.page
    game = game or kind
    found = {}
    for w, h in sizes:
        page.set_viewport_size({"width": w, "height": h})
        page.wait_for_timeout(150)
        page.evaluate("scrollTo(0, 0)")
        parts = ["#remote-panel", "#remote-sheet", "#remote-copy", "#remote-notice", ".game-hand", "#live-box .live-pair"]
        m = page.evaluate(MEASURE, [SQUARES[game], BOARDS[game], parts])
        found[(w, h)] = m
        label = f"remote-{kind}-{state}-{device.name.lower()}-{w}x{h}"
        shot(page, label, full_page=False)
        assert m["total"] > 0, f"{label}: no board"
        assert m["seen"] == m["total"], f"{label}: {m['seen']}/{m['total']} squares in view at rest"
        assert m["wide"] <= 0, f"{label}: the page scrolls sideways by {m['wide']} px"
        strip = m["parts"]["#remote-panel"]
        assert strip is not None and strip["inside"], f"{label}: the strip is not in view: {strip}"
        assert not overlap(strip, m["board"]), f"{label}: the strip lies over the board"
        notice = m["parts"]["#remote-notice"]
        assert notice is None or not overlap(notice, m["board"]), f"{label}: the notice lies over the board"
        assert not overlap(m["parts"]["#remote-sheet"], m["board"]), f"{label}: the link's sheet lies over the board"
        assert not overlap(m["parts"]["#live-box .live-pair"], m["board"]), f"{label}: the pairing lies over the board"
        hand = m["parts"][".game-hand"]
        assert hand is None or hand["inside"], f"{label}: the hand (rack or piece, the main action) is cut: {hand}"
        if link:
            copy = m["parts"]["#remote-copy"]
            assert copy is not None and copy["inside"], f"{label}: Copy is not in view beside the board: {copy}"
    page.set_viewport_size({"width": 1280, "height": 800})
    return found


PHONES = [(360, 640), (390, 844)]
#: (JS) a Web Share API in the page (headless Chromium has none, and without it there is no Share
#: button to measure); set before the panel is drawn, taken away once measured
SHARE = "() => Object.defineProperty(navigator, 'share', {configurable: true, value: async () => {}})"
UNSHARE = "() => { delete navigator.share; }"


def before_the_board(device: Any, kind: str, state: str, sizes: list[tuple[int, int]] = PHONES) -> None:
    """A state before the game's start (the invitation made, the answers awaited; Scarabeo's deal
    under way): the page is the remote panel alone, with no board yet (``RemotePage.redraw``), so
    there are no squares to count. What must be in view at rest instead: the status line, the link
    to send and its Share and Copy buttons, with nothing sideways (and any square shown, none
    today, wholly in view)."""
    page = device.page
    game = kind.split("-")[0]
    wanted = ["#remote-status", "#remote-link", "#remote-share", "#remote-copy"]
    for w, h in sizes:
        page.set_viewport_size({"width": w, "height": h})
        page.wait_for_timeout(150)
        page.evaluate("scrollTo(0, 0)")
        m = page.evaluate(MEASURE, [SQUARES[game], BOARDS[game], wanted])
        label = f"remote-{kind}-{state}-{device.name.lower()}-{w}x{h}"
        shot(page, label, full_page=False)
        assert m["seen"] == m["total"], f"{label}: {m['seen']}/{m['total']} squares in view at rest"
        assert m["wide"] <= 0, f"{label}: the page scrolls sideways by {m['wide']} px"
        for part in wanted:
            box = m["parts"][part]
            assert box is not None and box["inside"], f"{label}: {part} is not wholly in view at rest: {box}"
    page.set_viewport_size({"width": 1280, "height": 800})


def still(before: dict[tuple[int, int], Any], after: dict[tuple[int, int], Any], what: str) -> None:
    """Nothing jumps: the board lies where it did at each size."""
    for size, m in before.items():
        a, b = m["board"], after[size]["board"]
        assert abs(a["top"] - b["top"]) <= 1 and abs((a["right"] - a["left"]) - (b["right"] - b["left"])) <= 1, \
            f"{what} {size}: the board moved from {a} to {b}"


def tools_hold_the_remote_actions(device: Device) -> None:
    """Paste a link, Send my last link again, Ask to take back, Resign, Leave and Export are the
    game's tools (the toolbar the app bar's menu mirrors on a phone), not a panel above the board."""
    page = device.page
    for tool in TOOLS:
        assert page.locator(f"#app div.toolbar.row {tool}").count() == 1, f"{tool} is not among the game's tools"
    assert page.locator("#remote-panel #remote-paste, #remote-panel #remote-resign").count() == 0
    # on a phone, the app bar's menu lists them; its Paste a link opens the drawer at the field
    page.set_viewport_size({"width": 360, "height": 640})
    page.locator("#menu-button").click()
    listed = page.locator("#bar-game .nav-button").all_inner_texts()
    for words in ("Ask to take back", "Send my last link again", "Paste a link", "Resign", "Leave the game", "Export"):
        assert words in listed, f"{words!r} is not in the app bar's menu: {listed}"
    page.locator("#bar-game .nav-button", has_text="Paste a link").click()
    page.wait_for_function("document.activeElement && document.activeElement.id === 'remote-paste'")
    assert page.locator("#remote-paste").is_visible()
    page.locator("#drawer-button").click()  # folded again, for the measures at rest
    page.set_viewport_size({"width": 1280, "height": 800})


def test_thot_by_links_whole_board_in_every_state(devices: Any, open_site: Any) -> None:
    anna, bruno = friends(devices, "Anna", "Bruno")
    # the invitation made, the answers awaited: `start`'s steps one by one, the inviter measured
    invitation = invite(anna, open_site, "thot", lambda p: (p.check("#thot-short"), p.evaluate(SHARE)))
    assert anna.status().startswith("Waiting for everyone to accept"), anna.status()
    before_the_board(anna, "thot", "invited")
    anna.page.evaluate(UNSHARE)
    said = anna.open(accept(bruno, invitation, anna.name, "Thot"))
    assert f"{bruno.name} accepted the invitation" in said and "The game starts" in said
    relay(anna, bruno)
    mover, other = (anna, bruno) if anna.your_turn() else (bruno, anna)
    tools_hold_the_remote_actions(mover)
    at_rest(mover, "thot", "your-turn")
    waiting = at_rest(other, "thot", "waiting")
    # a move: its link to send, in view beside the board
    page = mover.page
    before = mover.pending_link() or ""
    page.locator("#thot-board .mark-legal, #thot-board .mark-turn, #thot-board .mark-stop").first.click()
    page.wait_for_function("(old) => { const b = document.getElementById('remote-link');"
                           " return (b && b.value !== old) || document.getElementById('thot-drop'); }",
                           arg=before, timeout=90_000)
    if page.locator("#thot-drop").count():
        page.locator("#thot-drop button.chip").first.click()
        page.locator("#thot-board .mark-drop").first.click()
    link = mover.link(other_than=before)
    at_rest(mover, "thot", "link-to-send", link=True)
    # copied: the sheet folds away on a phone, its button in the strip shows it again
    page.set_viewport_size({"width": 360, "height": 640})
    page.evaluate("""() => Object.defineProperty(navigator, 'clipboard', {configurable: true,
        value: {writeText: async () => {}}})""")
    page.locator("#remote-copy").click()
    page.locator("#remote-sheet").wait_for(state="hidden")
    assert page.locator("#remote-show-link").is_visible()
    page.locator("#remote-show-link").click()
    assert page.locator("#remote-copy").is_visible()
    page.set_viewport_size({"width": 1280, "height": 800})
    said = other.open(link)
    assert said, "no notice"
    arrived = at_rest(other, "thot", "move-arrived")
    still(waiting, arrived, "thot by links: the move arrived")
    # a take-back asked by the mover: the other's answer pending
    mover.page.click("#remote-takeback")
    ask = mover.link(other_than=link)
    at_rest(mover, "thot", "takeback-asked", link=True)
    other.open(ask)
    other.page.wait_for_selector("#remote-takeback-accept")
    at_rest(other, "thot", "takeback-answer")
    other.page.click("#remote-takeback-decline")
    relay(other, mover)
    at_rest(mover, "thot", "takeback-declined", [(360, 640), (390, 844)])
    # the end: a resignation
    mover.quit("resign")
    relay(mover, other)
    for d, state in ((mover, "resigned"), (other, "over")):
        d.page.wait_for_function("document.getElementById('remote-status').textContent === 'The game is over.'")
        # nobody is to play once a player resigned, whatever the position says; no move is offered
        assert d.page.locator("#thot-status").inner_text() == "Game over"
        assert d.page.locator("#thot-board .mark-legal").count() == 0
        at_rest(d, "thot", state)


def test_scarabeo_by_links_whole_board_in_every_state(devices: Any, open_site: Any, lex: Any, gen: Any) -> None:
    """Scarabeo at all seven sizes: the deal under way (on the phones), the game dealt (your turn /
    waiting), a play and its link, the play arrived, the end after a resignation with the deal verified."""
    from tests.e2e.test_remote import lay_a_move

    sizes = [(360, 640), (390, 844), (820, 1180), (1180, 820), (1366, 768), (1440, 900), (1920, 1080)]
    anna, bruno = friends(devices, "Anna", "Bruno")
    # `start`'s steps, the deal's first link carried by hand: Bruno is dealing, his step to send
    invitation = invite(anna, open_site, "scarabeo")
    said = anna.open(accept(bruno, invitation, anna.name, "Scarabeo"))
    assert f"{bruno.name} accepted the invitation" in said and "The game starts" in said
    bruno.page.evaluate(SHARE)
    said = bruno.open(anna.link())
    assert "refused" not in said.lower(), said
    assert bruno.status() == "The tiles are being dealt: open the others' links and send yours.", bruno.status()
    before_the_board(bruno, "scarabeo", "dealing")
    bruno.page.evaluate(UNSHARE)
    relay(bruno, anna)
    mover, other = (anna, bruno) if anna.your_turn() else (bruno, anna)
    for d in (mover, other):
        d.page.wait_for_selector("#sc-rack")
    tools_hold_the_remote_actions(mover)
    at_rest(mover, "scarabeo", "your-turn", sizes)
    at_rest(other, "scarabeo", "waiting", sizes)
    link = lay_a_move(mover, lex, gen)
    at_rest(mover, "scarabeo", "link-to-send", sizes, link=True)
    other.open(link)
    at_rest(other, "scarabeo", "move-arrived", sizes)
    relay(other, mover)
    other.quit("resign")
    relay(other, mover)
    for d, state in ((mover, "verified"), (other, "resigned-verified")):
        d.page.wait_for_selector("#remote-verified", timeout=60_000)
        at_rest(d, "scarabeo", state, sizes)


def test_scarabeo_challenge_by_links_whole_board(devices: Any, open_site: Any, lex: Any, gen: Any) -> None:
    """Scarabeo in challenge mode: a play arrived, the next seat offered the challenge (its own
    challenge and Accept) on its device, the whole board in view at rest there."""
    from tests.e2e.test_remote import lay_a_move, mover

    # long names: the offered device's button names itself ("Massimiliano challenges"), and which
    # device is offered is the deal's draw; at 360 px "Bruno challenges" widened the page by 1 px
    anna, bruno = friends(devices, "Annamaria", "Massimiliano")
    start(anna, bruno, open_site, "scarabeo", "Scarabeo", lambda p: p.select_option("#sc-mode", "challenge"))
    player = mover([anna, bruno])
    assert player is not None
    other = bruno if player is anna else anna
    said = other.open(lay_a_move(player, lex, gen))
    assert said.startswith(player.name), said
    other.page.wait_for_selector("#sc-challenge")
    at_rest(other, "scarabeo", "challenge-offered", [(360, 640), (390, 844), (1366, 768)])


def test_thot_live_whole_board_in_every_state(context_factory: Any, guard: Any, open_site: Any,
                                              server: str) -> None:
    """Live Thot (0/100 squares in view at 360×640 after pairing, on both phones): paired, a move
    arrived over the channel, the channel lost (the guest reloads) on both phones."""
    from tests.e2e.test_live import LEFT, Phone, host, pair, thot_move, to_move

    anna = Phone(context_factory, guard, "Anna")
    bruno = Phone(context_factory, guard, "Bruno")
    host(anna, open_site, "thot")
    pair(anna, bruno, server, from_qr=False)
    phones = [anna, bruno]
    player = to_move(phones)
    assert player is not None
    other = bruno if player is anna else anna
    at_rest(player, "thot-live", "your-turn", game="thot")
    waiting = at_rest(other, "thot-live", "waiting", game="thot")
    thot_move(player)
    other.page.wait_for_function("() => document.getElementById('remote-status').textContent === 'Your turn.'",
                                 timeout=60_000)
    still(waiting, at_rest(other, "thot-live", "move-arrived", game="thot"), "live thot: the move arrived")
    at_rest(player, "thot-live", "sent", game="thot")
    bruno.page.reload(wait_until="commit")
    anna.page.wait_for_function(LEFT, arg=bruno.name, timeout=120_000)
    bruno.page.wait_for_selector("#live-offer-paste", timeout=120_000)
    at_rest(anna, "thot-live", "channel-lost", game="thot")
    at_rest(bruno, "thot-live", "channel-lost", game="thot")
    # pairing again (the code the host chose to show lies over the page, as a dialog would, until the
    # answer is taken), then both phones at rest again
    pair(anna, bruno, server, from_qr=False, again=True)
    at_rest(anna, "thot-live", "paired-again", game="thot")
    at_rest(bruno, "thot-live", "paired-again", game="thot")


def test_scarabya_by_links_whole_board_in_every_state(devices: Any, open_site: Any) -> None:
    """Scarabya: the game started, a placement and its link, the placement arrived, the end."""
    anna, bruno = friends(devices, "Anna", "Bruno")
    start(anna, bruno, open_site, "scarabya", "Scarabya", lambda p: p.check("#remote-hints"))
    mover, other = (anna, bruno) if anna.your_turn() else (bruno, anna)
    for d in (mover, other):
        d.page.wait_for_selector(".sy-game")
    tools_hold_the_remote_actions(mover)
    at_rest(mover, "scarabya", "your-turn")
    at_rest(other, "scarabya", "waiting")
    page = mover.page
    before = mover.pending_link() or ""
    page.locator("#sy-hint").click()
    page.locator("#sy-hint-box").wait_for()
    page.locator("#sy-board .sq.handle").click()
    link = mover.link(other_than=before)
    at_rest(mover, "scarabya", "link-to-send", link=True)
    other.open(link)
    at_rest(other, "scarabya", "move-arrived")
    other.quit("resign")
    relay(other, mover)
    for d, state in ((mover, "over"), (other, "resigned")):
        d.page.wait_for_function("document.getElementById('remote-status').textContent === 'The game is over.'")
        assert d.page.locator("#sy-turn").text_content() == "Game over"  # not whose turn the position gives
        assert d.page.locator(".sy-hand .sy-mission").count() == 0  # no card left to place
        at_rest(d, "scarabya", state)
