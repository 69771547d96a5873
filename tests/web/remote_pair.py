"""Two devices of a game by links, each with its own store, started: Anna's (the inviter) and Bruno's."""

from __future__ import annotations

from typing import Any

from game.remote.session import Device
from web.platform.remote import RemoteSession
from web.platform.storage import MemoryStore, SaveStore


def pair(game: str, options: dict[str, Any] | None = None) -> tuple[RemoteSession, RemoteSession]:
    """(Anna's session, Bruno's), the game started on both."""
    device, invitation = Device.invite(game, "Anna", 2, options or {})
    anna = RemoteSession.create(SaveStore(MemoryStore()), device, "with a friend")
    joined, answer = Device.join(invitation, "Bruno")
    bruno = RemoteSession.create(SaveStore(MemoryStore()), joined, "with Anna")
    start = anna.open_message(answer).send
    assert start is not None
    bruno.open_message(start)
    return anna, bruno
