"""Hints in a game between devices, on phones (360x640), issue 42: the invitation says whether they
are allowed (no by default); where not, neither device offers a Hint; where they are, every device
sees how many each player used beside the scores (without pushing the board), as that player's
device reports it, and the end panel says them.

Two browser contexts are two devices; the links travel between them as in tests/e2e/test_remote.py."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.conftest import shot
from tests.e2e.test_remote import Device, accept, friends, invite, relay, turns

pytestmark = pytest.mark.e2e

PHONE = {"width": 360, "height": 640}


def phones(devices: Any, *names: str, size: dict[str, int] = PHONE) -> list[Device]:
    group = friends(devices, *names)
    for d in group:
        d.page.set_viewport_size(size)
    return group


def seat_of(device: Device) -> int:
    return int(device.stored("save")["state"]["meta"]["remote"]["seat"])


def badge(device: Device, seat: int) -> tuple[int, str]:
    """The count beside ``seat``'s score on ``device``, and its words (the title)."""
    node = device.page.locator(f"#sl-hints-{seat}")
    return int(node.get_attribute("data-hints") or "-1"), str(node.get_attribute("title"))


def board_top_without_badges(page: Any, board: str) -> tuple[float, float]:
    """The board's top with the counts shown, and with them hidden: equal when they push nothing."""
    return page.evaluate("""(board) => {
        const top = () => document.querySelector(board).getBoundingClientRect().top;
        const shown = top();
        const badges = [...document.querySelectorAll('.sl-hints')];
        badges.forEach(b => { b.style.display = 'none'; });
        const hidden = top();
        badges.forEach(b => { b.style.display = ''; });
        return [shown, hidden];
    }""", board)


def page_width(page: Any) -> int:
    return int(page.evaluate("document.documentElement.scrollWidth"))


def begin(anna: Device, bruno: Device, open_site: Any, game: str, game_name: str, options: Any) -> str:
    """Invite, accept (reading what the invitation page says of hints), relay the start; the words."""
    invitation = invite(anna, open_site, game, options)
    bruno.page.goto(invitation)
    bruno.page.wait_for_selector("#remote-invitation", timeout=120_000)
    said = str(bruno.page.locator("#remote-invitation-hints").inner_text())
    answer = accept(bruno, invitation, anna.name, game_name)
    assert "The game starts" in anna.open(answer)
    relay(anna, bruno)
    return said


def thot_move(player: Device) -> None:
    """A legal move by a tap on the board (the ankh's drop too, when it comes)."""
    page = player.page
    page.locator("#thot-board .mark-legal, #thot-board .mark-turn, #thot-board .mark-stop").first.click()
    page.wait_for_function("() => document.getElementById('remote-status').textContent !== 'Your turn.'"
                           " || document.getElementById('thot-drop')", timeout=30_000)
    if page.locator("#thot-drop").count():
        page.locator("#thot-drop button.chip").first.click()
        page.locator("#thot-board .mark-drop").first.click()


class TestHints:
    @pytest.mark.parametrize(("game", "name", "hint"), [("thot", "Thot", "#thot-hint"),
                                                        ("scarabya", "Scarabya", "#sy-hint"),
                                                        ("scarabeo", "Scarabeo", "#sc-hint")])
    def test_no_hints_by_default_no_device_offers_one(self, devices: Any, open_site: Any, game: str, name: str,
                                                      hint: str) -> None:
        anna, bruno = phones(devices, "Anna", "Bruno")

        def defaults(page: Any) -> None:
            # the invitation form says it, unticked
            assert page.get_by_label("Allow hints").is_visible() and not page.locator("#remote-hints").is_checked()

        assert begin(anna, bruno, open_site, game, name, defaults) == "No hints in this game."
        for d in (anna, bruno):
            d.page.wait_for_selector("#scoreline")
            assert d.page.locator(hint).count() == 0  # no Hint control at all
            assert d.page.locator(".sl-hints").count() == 0  # nobody counts what nobody may use
            assert page_width(d.page) <= PHONE["width"]
        shot(anna.page, f"remote-hints-none-{game}-360")

    @pytest.mark.parametrize("size", [PHONE, {"width": 390, "height": 844}], ids=["360x640", "390x844"])
    def test_hints_allowed_each_count_on_every_device_and_at_the_end(self, devices: Any, open_site: Any,
                                                                     size: dict[str, int]) -> None:
        anna, bruno = phones(devices, "Anna", "Bruno", size=size)
        said = begin(anna, bruno, open_site, "thot", "Thot", lambda p: (p.check("#thot-short"),
                                                                       p.check("#remote-hints")))
        assert said == "Hints allowed: every device sees how many each player used, as that player's device reports it."
        group = [anna, bruno]
        seats = {d.name: seat_of(d) for d in group}
        used = {d.name: 0 for d in group}
        checked_layout = False
        for turn, (player, other) in enumerate(turns(group, 200)):
            page = player.page
            before = player.pending_link() or ""
            # Anna asks for a hint at every turn, Bruno at every third of the game's turns
            if player is anna or turn % 3 == 1:
                page.locator("#thot-hint").click()
                page.locator("#thot-board .hinted").first.wait_for(timeout=60_000)
                used[player.name] += 1
                # counted at once on this device, in its own words
                count, words = badge(player, seats[player.name])
                assert count == used[player.name], (count, used)
                assert words == f"You used {count} hint" + ("" if count == 1 else "s"), words
            thot_move(player)
            said = other.open(player.link(other_than=before))
            assert player.name in said, said
            # the other device sees the count the mover's device reported with its move
            count, words = badge(other, seats[player.name])
            assert count == used[player.name], (player.name, count, used)
            plural = "" if count == 1 else "s"
            assert words == f"{player.name}: {count} hint{plural} used, as their device reports", words
            if not checked_layout and count and not other.page.locator(".thot-end").count():
                shown, hidden = board_top_without_badges(other.page, "#thot-board")
                assert shown == hidden, (shown, hidden)  # the counts push nothing
                assert page_width(other.page) <= size["width"]
                shot(other.page, f"remote-hints-counts-{size['width']}")
                checked_layout = True
        assert checked_layout
        by_seat = sorted(group, key=lambda d: seats[d.name])
        line = "Hints used, as each player's device reports them: " + \
            ", ".join(f"{d.name} {used[d.name]}" for d in by_seat) + "."
        for d in group:
            assert d.status() == "The game is over."
            assert d.page.locator(".thot-end #hints-end").inner_text() == line
            assert page_width(d.page) <= size["width"]
        assert used["Anna"] > used["Bruno"] > 0
        shot(bruno.page, f"remote-hints-end-{size['width']}")

    @pytest.mark.parametrize("game", ["thot", "scarabeo"])
    def test_beside_the_board_the_counts_stay_in_view(self, devices: Any, open_site: Any, game: str) -> None:
        """A landscape screen folds the score line away (the scores panel is beside the board): with
        hints counted the line stays, in the side column, and the board does not move; Scarabeo's rack
        and action row stay in view under it."""
        size = {"width": 1366, "height": 768}
        anna, bruno = phones(devices, "Anna", "Bruno", size=size)
        begin(anna, bruno, open_site, game, game.capitalize(), lambda p: p.check("#remote-hints"))
        player = anna if anna.your_turn() else bruno
        other = bruno if player is anna else anna
        board, count = "#thot-board", 0
        if game == "thot":
            before = player.pending_link() or ""
            player.page.locator("#thot-hint").click()
            player.page.locator("#thot-board .hinted").first.wait_for(timeout=60_000)
            thot_move(player)
            other.open(player.link(other_than=before))
            count = 1
        else:
            board = "#sc-board"
            for d in (anna, bruno):
                d.page.wait_for_selector("#sc-rack")
        seat = seat_of(player)
        for d in (player, other):
            assert d.page.locator(f"#sl-hints-{seat}").is_visible()
            assert badge(d, seat)[0] == count
            shown, hidden = board_top_without_badges(d.page, board)
            assert shown == hidden
            in_view = [board] + (["#sc-rack", "#sc-actions"] if game == "scarabeo" else [])
            for selector in in_view:  # the whole board in view, and Scarabeo's hand
                bottom = d.page.evaluate(f"document.querySelector('{selector}').getBoundingClientRect().bottom")
                assert bottom <= size["height"], (selector, bottom)
            assert page_width(d.page) <= size["width"]
        shot(other.page, f"remote-hints-counts-{game}-1366", full_page=False)
