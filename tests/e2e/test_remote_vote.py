"""Scarabeo's vote mode by links, in Chromium: three browser contexts are three devices; the next
seat contests a play, and each device then casts its own vote on its own ballot, only when its vote
is awaited (the others say whose link they wait for); voted down, the play is withdrawn on every
device alike."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.conftest import shot
from tests.e2e.test_layout_remote import at_rest
from tests.e2e.test_remote import accept, broadcast, friends, invite, lay_a_move, mover

pytestmark = pytest.mark.e2e


def _vote_mode_for_three(page: Any) -> None:
    page.select_option("#remote-players", "3")
    page.select_option("#sc-mode", "vote")


class TestScarabeoVote:
    def test_each_device_votes_on_its_own_ballot_in_turn_and_the_play_is_withdrawn(
            self, devices: Any, open_site: Any, lex: Any, gen: Any) -> None:
        anna, bruno, carla = friends(devices, "Anna", "Bruno", "Carla")
        group = [anna, bruno, carla]
        invitation = invite(anna, open_site, "scarabeo", _vote_mode_for_three)
        answers = [accept(d, invitation, "Anna", "Scarabeo") for d in (bruno, carla)]
        anna.open(answers[0])
        assert "The game starts" in anna.open(answers[1])
        for d in (bruno, carla):
            d.open(answers[0] if d is carla else answers[1])
        broadcast(group, anna, anna.link())
        player = mover(group)
        assert player is not None
        broadcast(group, player, lay_a_move(player, lex, gen))  # a word of the lexicon: it may be contested
        contester = mover(group)
        assert contester is not None and contester is not player
        contester.page.wait_for_selector("#sc-challenge[data-mode='contest']")
        phones = [(360, 640), (390, 844), (1366, 768)]
        at_rest(contester, "scarabeo", "contest-offered", phones)  # the screen standard (issue 37)
        before = contester.pending_link() or ""
        contester.page.locator("#sc-challenge .row button").first.click()
        broadcast(group, contester, contester.link(other_than=before))
        scores = anna.stored("save")["state"]["meta"]["summary"]["scores"]
        for k in range(3):  # with three players everyone votes, the player first
            voter = mover(group)
            assert voter is not None and (voter is player) == (k == 0)
            voter.page.wait_for_selector("#sc-vote-go")
            assert voter.page.locator("#sc-vote fieldset").count() == 1  # its own ballot only
            if k == 0:
                at_rest(voter, "scarabeo", "vote-pending", phones)
            for d in group:
                if d is not voter:  # no ballot while another's vote is awaited: whose link it waits for
                    assert d.page.locator("#sc-vote-go").count() == 0
                    assert d.status() == f"Waiting for {voter.name}'s link."
            before = voter.pending_link() or ""
            voter.page.locator("#sc-vote input[value='N']").check()
            voter.page.click("#sc-vote-go")
            link = voter.link(other_than=before)
            if k < 2:
                assert "voted" in voter.notice(), voter.notice()
            broadcast(group, voter, link)
        # voted down: the play is withdrawn everywhere and its player plays again
        assert mover(group) is player
        for d in group:
            assert d.page.locator("#sc-vote").count() == 0
        after = {str(d.stored("save")["state"]["meta"]["summary"]["scores"]) for d in group}
        assert len(after) == 1
        assert after.pop() != str(scores) or not any(scores)
        shot(player.page, "remote-scarabeo-vote")
