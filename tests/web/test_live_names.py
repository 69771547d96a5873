"""Live play after a reload: a device greets the others with its own player's name, whatever seat the
start drew for it (issue 42: an inviter who drew the second seat said the first seat's name, and the
other phone read "Connected: Bruno" on Bruno's own page)."""

from __future__ import annotations

import importlib
from typing import Any, Iterator

import pytest

from game.remote.session import Device
from tests.web.standin import stand_in_pyscript


@pytest.fixture(scope="module")
def together() -> Iterator[Any]:
    with stand_in_pyscript(None):
        yield importlib.import_module("web.pages.together")


def started(first_seat: str) -> tuple[Device, Device]:
    """A Thot game by links between Anna (inviting) and Bruno, in which ``first_seat`` drew seat 0
    (the seat order comes from the players' random values: new games until it falls that way)."""
    for _ in range(200):
        anna, invitation = Device.invite("thot", "Anna", 2)
        bruno, answer = Device.join(invitation, "Bruno")
        start = anna.open(answer).send
        assert start is not None
        bruno.open(start)
        if anna.names()[0] == first_seat:
            return anna, bruno
    raise AssertionError("the seat order never fell that way")


@pytest.mark.parametrize("first_seat", ["Anna", "Bruno"])
def test_each_device_is_its_own_player_in_both_seat_orders(together: Any, first_seat: str) -> None:
    anna, bruno = started(first_seat)
    assert anna.names()[0] == bruno.names()[0] == first_seat
    assert together.own_name(anna) == "Anna" and together.own_name(bruno) == "Bruno"
    # the same after the page opens the stored device again (a reload)
    again = Device.from_json(anna.to_json())
    assert together.own_name(again) == "Anna"
    assert again.name_of_seat(again.seat) == "Anna"  # the seat's name, from the seat


def test_an_offer_for_a_game_under_way_names_the_game(together: Any) -> None:
    together.site = lambda: "https://scarab.example/"
    assert together.code_link("o", "CODE", "GAMEID") == "https://scarab.example/#/live?o=CODE&g=GAMEID"
    assert together.code_link("o", "CODE") == "https://scarab.example/#/live?o=CODE"
    assert together.code_of("https://scarab.example/#/live?o=CODE&g=GAMEID") == "CODE"
