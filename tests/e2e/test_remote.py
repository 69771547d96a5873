"""Playing a friend on another device, in Chromium: two browser contexts are two devices, each with
its own storage, and everything between them travels as links (issue 27).

The test process only carries links from one page to the other, and picks moves the way a person
would: Thot's and Scarabya's from the marks the page shows, Scarabeo's with the engine's move
generator on the rack this device holds (read from its own state, as ``python -m game remote show``
would print it); the moves are laid through the interface.
"""

from __future__ import annotations

import json
import re
from typing import Any, Iterator

import pytest

from tests.e2e.conftest import shot

pytestmark = pytest.mark.e2e

GAME_PAGE = re.compile(r"#/(thot|scarabya|scarabeo)/remote/[A-Za-z0-9_-]+$")


class Device:
    """One browser context with its page: a friend's phone."""

    def __init__(self, page: Any, name: str) -> None:
        self.page = page
        self.name = name
        self.last_save = self.game_url = ""

    # --- links ------------------------------------------------------------------------
    def link(self, other_than: str | None = None) -> str:
        """The link this device shows to send (a new one, when ``other_than`` was shown before)."""
        box = self.page.locator("#remote-link")
        # attached: on a phone the link's sheet may be folded (on this device's turn, or copied)
        box.wait_for(state="attached", timeout=30_000)
        if other_than is not None:
            self.page.wait_for_function("(old) => { const b = document.getElementById('remote-link');"
                                        " return b && b.value !== old; }", arg=other_than, timeout=120_000)
        return str(box.input_value())

    def pending_link(self) -> str | None:
        return self.link() if self.page.locator("#remote-link").count() else None

    def open(self, link: str) -> str:
        """Open a link as a tap in a chat would; returns what the page says it did."""
        self.page.goto(link)
        self.page.wait_for_selector("body[data-ready='1']", timeout=60_000)
        if self.page.locator("#remote-refused").count():
            return str(self.page.locator("#remote-refused p").inner_text())
        self.page.wait_for_url(GAME_PAGE, timeout=60_000)
        self.page.wait_for_selector("#remote-panel", timeout=120_000)
        self.save_id()
        return self.notice()

    def notice(self) -> str:
        node = self.page.locator("#remote-notice")
        return str(node.inner_text()) if node.count() else ""

    def said(self, text: str) -> str:
        """The notice once it says ``text``: an action's own notice replaces the one before it (a
        move's, the start's) only when its work is done, so reading it at once may read the old one."""
        self.page.wait_for_function("(text) => { const n = document.getElementById('remote-notice');"
                                    " return n && n.innerText === text; }", arg=text, timeout=60_000)
        return self.notice()

    def status(self) -> str:
        return str(self.page.locator("#remote-status").inner_text())

    def quit(self, action: str = "resign") -> str:
        """Resign or leave, confirmed, and the link that says so once it is made (the work is
        asynchronous: the link shown at the click is still the one before)."""
        button = {"resign": "Resign", "leave": "Leave the game"}[action]
        self.page.click(f"#remote-{action}")
        self.page.get_by_role("dialog").get_by_role("button", name=button, exact=True).click()
        done = {"resign": "You resigned: send the link to the others.",
                "leave": "You left the game: send the link to the others."}[action]
        self.said(done)
        return self.link()

    def save_id(self) -> str:
        """This device's save of the game (the page may be showing a refused link meanwhile)."""
        if GAME_PAGE.search(self.page.url):
            self.last_save = str(self.page.url.rsplit("/", 1)[1])
            self.game_url = str(self.page.url)
        return self.last_save

    def back_to_game(self) -> None:
        """From a refused link's page to the game, as the Continue list would."""
        self.page.goto(self.game_url)
        self.page.wait_for_selector("#remote-panel", timeout=120_000)

    def stored(self, prefix: str) -> Any:
        return json.loads(self.page.evaluate(f"localStorage.getItem('scarab:{prefix}:{self.save_id()}')"))

    def your_turn(self) -> bool:
        return self.status() == "Your turn."


def friends(devices: Any, *names: str) -> list[Device]:
    """A device each, booted before (``devices`` of tests/e2e/conftest.py): its storage empty, the
    app started afresh on the home page."""
    return [Device(page, name) for page, name in zip(devices(len(names)), names)]


def fill_invitation(page: Any, open_site: Any, game: str, entry: str, name: str, options: Any = None) -> None:
    """From the game's new-game form through ``entry`` (by links, or live) to the invitation made."""
    open_site(page, f"#/{game}/new")
    page.click(entry)
    page.wait_for_selector("#remote-invite", timeout=60_000)
    page.fill("#remote-name", name)
    if options is not None:
        options(page)
    page.click("#remote-invite")


def invite(anna: Device, open_site: Any, game: str, options: Any = None) -> str:
    fill_invitation(anna.page, open_site, game, "#remote-offer", anna.name, options)
    anna.page.wait_for_url(GAME_PAGE)
    return anna.link()


def accept(bruno: Device, invitation: str, inviter: str, game_name: str) -> str:
    bruno.page.goto(invitation)
    bruno.page.wait_for_selector("#remote-invitation", timeout=120_000)
    heading = bruno.page.locator("#remote-invitation h1").inner_text()
    assert heading.startswith(f"{inviter} invites you to ") and game_name in heading, heading
    bruno.page.fill("#remote-name", bruno.name)
    bruno.page.click("#remote-accept")
    bruno.page.wait_for_url(GAME_PAGE)
    bruno.page.wait_for_selector("#remote-notice", timeout=120_000)
    assert f"You accepted {inviter}'s invitation" in bruno.notice()
    return bruno.link()


def start(anna: Device, bruno: Device, open_site: Any, game: str, game_name: str, options: Any = None) -> None:
    """Invite, accept, and carry links until no device has one to send (Scarabeo: the deal)."""
    invitation = invite(anna, open_site, game, options)
    answer = accept(bruno, invitation, anna.name, game_name)
    said = anna.open(answer)
    assert f"{bruno.name} accepted the invitation" in said and "The game starts" in said
    relay(anna, bruno)


def relay(sender: Device, receiver: Device) -> None:
    """Carry the link the sender shows to the receiver, and the answers back, until none is left."""
    link = sender.pending_link()
    while link is not None:
        said = receiver.open(link)
        assert "refused" not in said.lower(), said
        sender, receiver = receiver, sender
        link = sender.pending_link()


def turns(devices: list[Device], limit: int) -> Iterator[tuple[Device, Device]]:
    """(the device whose turn it is, the other) until the game ends; fails after ``limit`` turns."""
    for _ in range(limit):
        player = mover(devices)
        if player is None:
            return
        yield player, next(d for d in devices if d is not player)
    pytest.fail("the game did not end")


def mover(devices: list[Device]) -> Device | None:
    for d in devices:
        d.page.wait_for_selector("#remote-status")
    ready = [d for d in devices if d.your_turn()]
    assert len(ready) <= 1
    return ready[0] if ready else None


class TestThot:
    def test_a_short_game_by_links_with_refused_links(self, devices: Any, open_site: Any) -> None:
        anna, bruno = friends(devices, "Anna", "Bruno")
        start(anna, bruno, open_site, "thot", "Thot", lambda p: p.check("#thot-short"))
        group = [anna, bruno]
        links: list[tuple[Device, str]] = []
        for turn, (player, other) in enumerate(turns(group, 200)):
            assert other.status() == f"Waiting for {player.name}'s link."
            assert other.page.locator("#thot-board .mark-legal").count() == 0  # only the seat to move acts
            page = player.page
            before = player.pending_link() or ""
            page.locator("#thot-board .mark-legal, #thot-board .mark-turn, #thot-board .mark-stop").first.click()
            page.wait_for_function("(old) => { const b = document.getElementById('remote-link');"
                                   " return (b && b.value !== old) || document.getElementById('thot-drop'); }",
                                   arg=before, timeout=30_000)
            if page.locator("#thot-drop").count():  # the ankh taken: one of this player's scarabs goes back
                page.locator("#thot-drop button.chip").first.click()
                page.locator("#thot-board .mark-drop").first.click()
            link = player.link(other_than=before)
            said = other.open(link)
            assert said.startswith(f"{player.name} moved the priest to "), said
            links.append((other, link))
            if turn == 1:
                continue_list_says_whose_turn(waiting=player, to_move=other)
            if turn == 2:
                # the same link again, an old one, and an edited one: each explained, nothing lost
                moves = len(other.stored("save")["state"]["moves"])
                assert other.open(link) == "This link was already played."
                assert other.open(links[0][1] if links[0][0] is other else links[1][1]) == \
                    "This link was already played."
                body = link.split("m=", 1)[1]
                altered = link.split("m=", 1)[0] + "m=" + body[:30] + ("A" if body[30] != "A" else "B") + body[31:]
                assert other.open(altered).startswith("This link was altered")
                assert len(other.stored("save")["state"]["moves"]) == moves
                other.back_to_game()
                # "Send my last link again" gives the same link back (it carries all the other lacks)
                player.page.click("#remote-resend")
                again = "Your last link again, with everything the others may lack: send it to whoever is behind."
                assert player.said(again) == again
                assert player.link() == link
                share_and_copy(player, link)
        for d in group:
            assert d.status() == "The game is over."
            assert d.page.locator("#thot-result").count() == 1
        assert anna.stored("save")["state"]["meta"]["summary"]["scores"] == \
            bruno.stored("save")["state"]["meta"]["summary"]["scores"]
        shot(anna.page, "remote-thot-end")
        # the Continue list says it is over; the review opens the game like a local one
        anna.page.goto(anna.page.url.split("#")[0] + "#/")
        anna.page.wait_for_selector(".saves .save")
        assert "game over" in anna.page.locator(".saves .save").first.inner_text()


def continue_list_says_whose_turn(waiting: Device, to_move: Device) -> None:
    """On the home page each device's Continue list says whose turn the game is: "Your turn" on the
    device to move, "Waiting for <the mover's name>" on the other; then back to the game."""
    for d in (waiting, to_move):
        d.page.goto(d.page.url.split("#")[0] + "#/")
        d.page.wait_for_selector(".saves .save .save-progress")
    assert to_move.page.locator(".saves .save .save-progress").inner_text().endswith("Your turn")
    said = waiting.page.locator(".saves .save .save-progress").inner_text()
    assert said.endswith(f"Waiting for {to_move.name}") and "Your turn" not in said, said
    for d in (waiting, to_move):
        d.back_to_game()
    assert to_move.your_turn() and waiting.status() == f"Waiting for {to_move.name}'s link."


def share_and_copy(device: Device, link: str) -> None:
    """Share passes the link to the phone's share sheet and Copy to the clipboard (both stubbed in
    the page, as a headless browser has neither); with no Web Share API there is no Share button,
    and with no clipboard Copy leaves the link selected and says to copy it by hand."""
    page = device.page
    page.evaluate("""() => {
        window.__shared = []; window.__copied = [];
        Object.defineProperty(navigator, 'share', {configurable: true,
            value: async (data) => { window.__shared.push(data); }});
        Object.defineProperty(navigator, 'clipboard', {configurable: true,
            value: {writeText: async (text) => { window.__copied.push(text); }}});
    }""")
    page.click("#remote-resend")  # the panel drawn again, now where the browser can share
    page.locator("#remote-share").click()
    page.wait_for_function("window.__shared.length > 0")
    shared = page.evaluate("window.__shared")
    assert len(shared) == 1 and shared[0]["url"] == link and shared[0]["text"] == "My move in Scarab", shared
    page.locator("#remote-copy").click()
    page.wait_for_function("window.__copied.length > 0")
    assert page.evaluate("window.__copied") == [link]
    page.wait_for_function("document.getElementById('toast').textContent === 'Copied.'")
    page.evaluate("""() => {
        Object.defineProperty(navigator, 'share', {configurable: true, value: undefined});
        Object.defineProperty(navigator, 'clipboard', {configurable: true, value: undefined});
    }""")
    page.click("#remote-resend")
    page.wait_for_selector("#remote-copy")
    assert page.locator("#remote-share").count() == 0 and device.link() == link
    page.locator("#remote-copy").click()
    page.wait_for_function("document.getElementById('toast').textContent === "
                           "'The link is selected: copy it by hand.'")
    selected = page.evaluate("() => { const b = document.getElementById('remote-link');"
                             " return b.value.substring(b.selectionStart, b.selectionEnd); }")
    assert selected == link
    # the browser's own again (the page is reset in place for the next test, not reloaded)
    page.evaluate("() => { delete navigator.share; delete navigator.clipboard;"
                  " delete window.__shared; delete window.__copied; }")
    assert page.evaluate("'clipboard' in navigator && !Object.prototype.hasOwnProperty.call(navigator, 'clipboard')")


class TestScarabya:
    def test_a_game_by_links_to_its_end(self, devices: Any, open_site: Any) -> None:
        anna, bruno = friends(devices, "Anna", "Bruno")
        # the moves are the hint's: hints allowed (issue 42: none by default)
        start(anna, bruno, open_site, "scarabya", "Scarabya", lambda p: p.check("#remote-hints"))
        group = [anna, bruno]
        for player, other in turns(group, 60):
            page = player.page
            page.wait_for_selector(".sy-game")
            before = player.pending_link() or ""
            if page.locator("#sy-discard").count():
                page.locator("#sy-discard").click()
            else:
                page.locator("#sy-hint").click()
                page.locator("#sy-hint-box").wait_for()
                page.locator("#sy-board .sq.handle").click()
            said = other.open(player.link(other_than=before))
            assert player.name in said, said
        for d in group:
            assert d.status() == "The game is over."
        assert anna.stored("save")["state"]["meta"]["summary"]["scores"] == \
            bruno.stored("save")["state"]["meta"]["summary"]["scores"]
        shot(bruno.page, "remote-scarabya-end")


class TestRuins:
    def test_the_ruins_variant_by_links_into_its_second_round(self, devices: Any, open_site: Any) -> None:
        anna, bruno = friends(devices, "Anna", "Bruno")
        start(anna, bruno, open_site, "scarabya", "Scarabya",
              lambda p: (p.locator("#variant-ruins").check(), p.check("#remote-hints")))
        group = [anna, bruno]
        for player, other in turns(group, 40):
            page = player.page
            page.wait_for_selector(".sy-game")
            assert page.locator(".sy-ruins li").count() == 4  # the round's tiles, drawn (the opener's too)
            before = player.pending_link() or ""
            page.locator("#sy-hint").click()
            page.locator("#sy-hint-box").wait_for()
            page.locator("#sy-board .sq.handle").click()
            said = other.open(player.link(other_than=before))
            assert player.name in said, said
            if all(d.page.locator(".sy-game").get_attribute("data-round") == "2" for d in group):
                # the round's opener draws it; the other device says its tiles come with that link
                opener = next(d for d in group if d.your_turn())
                waiting = next(d for d in group if d is not opener)
                assert opener.page.locator("#remote-round-pending").count() == 0
                assert waiting.page.locator("#remote-round-pending").inner_text() == \
                    f"This round's Ruins tiles come with {opener.name}'s next link: the ones shown now are not drawn yet."
                break
        else:
            pytest.fail("round 2 never began")
        assert anna.stored("save")["state"]["meta"]["summary"]["scores"] == \
            bruno.stored("save")["state"]["meta"]["summary"]["scores"]
        shot(anna.page, "remote-ruins-round-2")


class TestScarabeo:
    def test_a_whole_game_by_links_each_seeing_only_its_rack_then_verified(
            self, devices: Any, open_site: Any, lex: Any, gen: Any) -> None:
        from game.remote.session import Device as Protocol
        from game.scarabeo.tiles import HIDDEN

        anna, bruno = friends(devices, "Anna", "Bruno")
        start(anna, bruno, open_site, "scarabeo", "Scarabeo")
        group = [anna, bruno]
        seen_racks: dict[str, set[str]] = {"Anna": set(), "Bruno": set()}
        for turn, (player, other) in enumerate(turns(group, 120)):
            states: dict[str, Any] = {}
            for d in group:  # each device shows its own rack, and holds no other tile
                d.page.wait_for_selector("#sc-rack")
                held = states[d.name] = Protocol.from_json(d.stored("remote"), lex)
                engine = held.game.engine  # type: ignore[union-attr]
                # its own tiles: all readable on its turn; drawn ones wait for the other's next link
                mine = [tile for tile in engine.racks[held.seat] if tile != HIDDEN]
                assert len(mine) == len(engine.racks[held.seat]) or d is not player
                assert all(set(r) <= {HIDDEN} for s, r in enumerate(engine.racks) if s != held.seat)
                shown = sorted(d.page.evaluate("Array.from(document.querySelectorAll('#sc-rack [data-tile]'))"
                                               ".map(n => n.dataset.tile)"))
                assert shown == sorted(mine), (d.name, shown, mine)
                seen_racks[d.name].add("".join(sorted(mine)))
            link = lay_a_move(player, lex, gen, play=turn < 80, held=states[player.name], most_tiles=True)
            said = other.open(link)
            assert said.startswith(player.name), said
            relay(other, player)  # the end's keys, when the game is over
        for d in group:
            d.page.wait_for_selector("#remote-verified")
            assert d.page.locator("#remote-verified").inner_text() == "Verified: every secret of the game checked out, nobody cheated."
        shot(anna.page, "remote-scarabeo-end")
        assert len(seen_racks["Anna"]) > 1 and len(seen_racks["Bruno"]) > 1
        open_review(bruno)


def open_review(device: Device) -> None:
    """The finished game's move-by-move review, from its page: the full record rebuilt from the
    verified deal (every rack), kept in the save, replayed like a local game's."""
    record = device.stored("save")["state"]
    assert record["options"]["bags"] and record["format"] == "scarab-record"  # the full record, not the public one
    device.page.click("a#review")
    device.page.wait_for_selector(f"#review[data-total='{len(record['moves'])}']", timeout=60_000)
    assert device.page.locator("#review-refused").count() == 0


def lay_a_move(player: Device, lex: Any, gen: Any, play: bool = True, held: Any = None,
               most_tiles: bool = False) -> str:
    """The best play on this device's own rack (read from its own state, or ``held``: that state
    read already; with ``most_tiles`` the best of those laying the most tiles, which empties the bag
    sooner), laid through the page, or a pass; the link it makes."""
    from game.remote.session import Device as Protocol
    from tests.e2e.test_scarabeo import new_letters, type_play

    page = player.page
    page.wait_for_selector("#sc-rack")
    if held is None:
        held = Protocol.from_json(player.stored("remote"), lex)
    state = held.game.engine
    before = player.pending_link() or ""
    plays = [p for p in gen.plays(state.board, list(state.racks[held.seat]), state.first_play) if not p[4]] \
        if play else []
    plays.sort(key=lambda p: (-len(new_letters(state, p)) if most_tiles else 0, -p[0], p[1], p[2], p[3]))
    if plays:
        type_play(page, state, plays[0])
        page.click("#sc-play")
    else:
        page.click("#sc-pass")
        page.wait_for_function("(old) => { const b = document.getElementById('remote-link');"
                               " return (b && b.value !== old) || document.querySelector('dialog[open]'); }",
                               arg=before, timeout=30_000)
        if page.locator("dialog[open]").count():  # Pass asks once (issue 26)
            page.locator("dialog[open] button.primary").click()
    return player.link(other_than=before)


def broadcast(devices: list[Device], sender: Device, link: str) -> None:
    """A group chat: every other device opens the link, and whatever one sends back on its own
    (a deal step, its keys) goes round too, in order."""
    queue = [(sender, link)]
    while queue:
        writer, text = queue.pop(0)
        for d in devices:
            if d is not writer:
                said = d.open(text)
                assert "refused" not in said.lower(), (d.name, said)
                sent = d.pending_link()
                if sent is not None:
                    queue.append((d, sent))


class TestScarabeoThreeAndFourPlayers:
    @pytest.mark.parametrize("players", [3, 4])
    def test_every_device_plays_then_one_resigns_verified_and_reviewed(
            self, devices: Any, open_site: Any, lex: Any, gen: Any, players: int) -> None:
        group = friends(devices, *["Anna", "Bruno", "Carla", "Dario"][:players])
        anna, others = group[0], group[1:]
        invitation = invite(anna, open_site, "scarabeo", lambda p: p.select_option("#remote-players", str(players)))
        answers = [accept(d, invitation, "Anna", "Scarabeo") for d in others]
        for d, answer in zip(others, answers):
            said = anna.open(answer)
            assert f"{d.name} accepted the invitation" in said, said
        assert "The game starts" in said
        for d in others:  # the group chat: each sees the others' answers
            for answer in answers:
                if answer != answers[others.index(d)]:
                    d.open(answer)
        broadcast(group, anna, anna.link())  # the start, then the deal's steps, each device's on its own
        for turn in range(players):  # a round: every seat plays (the last one passes)
            player = mover(group)
            assert player is not None, [d.status() for d in group]
            for d in group:  # each shows its own 8 tiles, read
                d.page.wait_for_selector("#sc-rack")
                assert d.page.locator("#sc-rack [data-tile]").count() == 8 or d is not player
            broadcast(group, player, lay_a_move(player, lex, gen, play=turn < players - 1))
        quitter = mover(group)
        assert quitter is not None
        broadcast(group, quitter, quitter.quit("resign"))  # then every other seat's keys, in turn
        for d in group:
            d.page.wait_for_selector("#remote-verified", timeout=60_000)
            assert d.status() == "The game is over."
            assert d.page.locator("#remote-verified").inner_text().startswith("Verified")
            assert d.page.locator("#remote-resign").is_disabled() and d.page.locator("#remote-leave").is_disabled()
        scores = {json.dumps(d.stored("save")["state"]["meta"]["summary"]["scores"]) for d in group}
        assert len(scores) == 1
        shot(group[-1].page, f"remote-scarabeo-{players}p-resigned")
        open_review(group[-1])


class TestScarabeoChallenge:
    def test_the_challenge_is_offered_by_links_to_the_next_seat_only(
            self, devices: Any, open_site: Any, lex: Any, gen: Any) -> None:
        anna, bruno = friends(devices, "Anna", "Bruno")
        start(anna, bruno, open_site, "scarabeo", "Scarabeo", lambda p: p.select_option("#sc-mode", "challenge"))
        group = [anna, bruno]
        player = mover(group)
        assert player is not None
        other = bruno if player is anna else anna
        said = other.open(lay_a_move(player, lex, gen))  # a word of the lexicon: the challenge fails
        assert said.startswith(player.name), said
        # The next seat decides, on its own device: its own challenge and Accept, nobody else's.
        other.page.wait_for_selector("#sc-challenge")
        assert player.page.locator("#sc-challenge").count() == 0
        buttons = other.page.locator("#sc-challenge button")
        assert buttons.count() == 2
        assert buttons.first.inner_text() == f"{other.name} challenges"
        before = other.pending_link() or ""
        buttons.first.click()
        link = other.link(other_than=before)
        said = player.open(link)
        assert other.name in said and "challenge" in said.lower(), said
        assert other.page.locator("#sc-challenge").count() == 0 and other.your_turn()
        assert anna.stored("save")["state"]["meta"]["summary"]["scores"] == \
            bruno.stored("save")["state"]["meta"]["summary"]["scores"]
        shot(other.page, "remote-scarabeo-challenge")


class TestLeave:
    def test_leaving_ends_the_game_for_both(self, devices: Any, open_site: Any) -> None:
        anna, bruno = friends(devices, "Anna", "Bruno")
        start(anna, bruno, open_site, "thot", "Thot", lambda p: p.check("#thot-short"))
        waiting = next(d for d in (anna, bruno) if not d.your_turn())
        link = waiting.quit("leave")  # once the page says "You left the game: send the link to the others."
        other = anna if waiting is bruno else bruno
        assert other.open(link).startswith(f"{waiting.name} left the game.")
        for d in (anna, bruno):
            assert d.status() == "The game is over."
            assert d.page.locator("#remote-leave").is_disabled()


class TestThreePlayers:
    def test_a_group_chat_game_and_a_link_opened_out_of_order(self, devices: Any, open_site: Any) -> None:
        anna, bruno, carla = friends(devices, "Anna", "Bruno", "Carla")
        invitation = invite(anna, open_site, "thot", lambda p: p.select_option("#remote-players", "3"))
        answers = [accept(d, invitation, "Anna", "Thot") for d in (bruno, carla)]
        assert "Bruno accepted the invitation" in anna.open(answers[0])
        assert anna.status().startswith("Waiting for everyone")
        said = anna.open(answers[1])
        assert "Carla accepted the invitation" in said and "The game starts" in said
        start_link = anna.link()
        for d in (bruno, carla):
            d.open(answers[0] if d is carla else answers[1])  # the group chat: each sees the other's answer
            assert "The game starts" in d.open(start_link)
        group = [anna, bruno, carla]
        first = mover(group)
        assert first is not None
        seats = {d.name: d.stored("save")["state"]["meta"]["remote"]["seat"] for d in group}
        assert sorted(seats.values()) == [0, 1, 2]
        second = next(d for d in group if seats[d.name] == (seats[first.name] + 1) % 3)
        third = next(d for d in group if d is not first and d is not second)
        legal = "#thot-board .mark-legal, #thot-board .mark-turn, #thot-board .mark-stop"
        before = first.pending_link() or ""
        first.page.locator(legal).first.click()
        one = first.link(other_than=before)
        assert second.open(one).startswith(f"{first.name} moved the priest to ") and second.your_turn()
        before = second.pending_link() or ""
        second.page.locator(legal).first.click()
        two = second.link(other_than=before)
        # the third player missed the first move: the second's link carries it too (issue 42)
        said = third.open(two)
        assert said.startswith(f"{first.name} moved the priest to ") and f"{second.name} moved the priest to " in said, said
        assert third.open(one) == "This link was already played."
        third.back_to_game()
        assert first.open(two).startswith(f"{second.name} moved the priest to ")
        assert third.your_turn() and not first.your_turn() and not second.your_turn()


class TestLateAnswer:
    def test_a_third_answer_to_an_invitation_for_two_is_told_the_table_is_full(self, devices: Any,
                                                                                open_site: Any) -> None:
        """Issue 42: Carla accepts after Bruno; her page shows no game actions while she is not in a
        game; Anna's page refuses her answer and offers a link that tells her so; opened on Carla's
        device, it says the game already has its 2 players, and offers nothing to do in it."""
        anna, bruno, carla = friends(devices, "Anna", "Bruno", "Carla")
        invitation = invite(anna, open_site, "thot", lambda p: p.check("#thot-short"))
        answer = accept(bruno, invitation, anna.name, "Thot")
        late = accept(carla, invitation, anna.name, "Thot")
        for action in ("#remote-takeback", "#remote-resign", "#remote-leave"):
            assert carla.page.locator(action).count() == 0, action  # not in a game yet: no game actions
        assert "The game starts" in anna.open(answer)
        said = anna.open(late)
        assert "This game already has its 2 players. Send this link to whoever answered late" in said, said
        notice = anna.link()
        assert carla.open(notice).startswith("Anna's game already has its 2 players: this device is not in it.")
        assert carla.status() == "Anna's game already has its 2 players: this device is not in it."
        for action in ("#remote-takeback", "#remote-resign", "#remote-leave", "#remote-resend"):
            assert carla.page.locator(action).count() == 0, action
