"""A game by links that can never get stuck (issue 42), in the page: Scarabeo's deal ends with a
link from the device whose turn it is; its player passes before sending it; the other device
opens only the newest link, which carries the deal's last step too, and the game goes on."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.test_remote import Device, accept, friends, invite

pytestmark = pytest.mark.e2e


def pass_turn(player: Device, before: str) -> str:
    """Pass through the page (Pass asks once); the link it makes."""
    page = player.page
    page.wait_for_selector("#sc-rack")
    page.click("#sc-pass")
    page.wait_for_function("(old) => { const b = document.getElementById('remote-link');"
                           " return (b && b.value !== old) || document.querySelector('dialog[open]'); }",
                           arg=before, timeout=30_000)
    if page.locator("dialog[open]").count():
        page.locator("dialog[open] button.primary").click()
    return player.link(other_than=before)


def test_scarabeo_a_pass_before_the_deals_last_link_is_carried_by_the_newest(devices: Any, open_site: Any) -> None:
    anna, bruno = friends(devices, "Anna", "Bruno")
    for _attempt in range(6):  # who starts is drawn: the case needs the seat that deals last to start
        invitation = invite(anna, open_site, "scarabeo")
        answer = accept(bruno, invitation, anna.name, "Scarabeo")
        anna.open(answer)
        sender, receiver, link = anna, bruno, anna.link()
        while True:  # the deal's links, each opened as it comes, until the device writing has the turn
            before = receiver.pending_link()
            said = receiver.open(link)
            assert "refused" not in said.lower(), said
            new = receiver.pending_link()
            if new is None or new == before:
                break
            sender, receiver, link = receiver, sender, new
            if sender.your_turn():
                break
        if sender.your_turn() and sender.pending_link() == link:
            break
    else:
        pytest.skip("the seat that deals last never started in six games")
    holder, other = sender, receiver
    deal = link
    assert not other.your_turn()  # still dealing, as far as it knows
    # The deal's last link is not sent: its player passes first, and the new link replaces it.
    newest = pass_turn(holder, deal)
    # "Send my last link again" gives the very same link: it already carries everything.
    holder.page.click("#remote-resend")
    again = "Your last link again, with everything the others may lack: send it to whoever is behind."
    assert holder.said(again) == again and holder.link() == newest
    # The other device opens only the newest link: the deal's last step and the pass, in order.
    said = other.open(newest)
    assert "refused" not in said.lower() and "previous link first" not in said, said
    assert f"{holder.name} passed" in said, said
    assert other.your_turn() and not holder.your_turn()
    # The old link, late, changes nothing.
    assert other.open(deal) == "This link was already played."
    other.back_to_game()
    # And the game goes on: the other passes back, the holder opens it.
    reply = pass_turn(other, other.pending_link() or "")
    assert f"{other.name} passed" in holder.open(reply)
    assert holder.your_turn()
