"""The page's side of Scarabeo's vote mode by links (web/platform/remote.py, as the game view's
ballot uses it): each device's session awaits its own seat's vote only, in the voters' order; a
vote before the last adds no move (the page says who voted), the last one adds the engine's single
!vote with the decision, the same on every device."""

from __future__ import annotations

import random

from game.remote.scarabeo import ScarabeoRemote
from web.platform.remote import RemoteSession
from web.platform.storage import MemoryStore, SaveStore
from tests.remote.protocol_helpers import Table
from tests.remote.test_protocol_challenge import WORDS
from tests.remote.test_protocol_vote import VOTE, _play_with_votes


def _game(session: RemoteSession) -> ScarabeoRemote:
    game = session.device.game
    assert isinstance(game, ScarabeoRemote)
    return game


def test_each_device_casts_its_own_vote_when_it_is_awaited() -> None:
    table = Table("scarabeo", 3, VOTE, words=WORDS)
    _play_with_votes(table, random.Random(2), lambda _stood, _withdrawn: bool(_game_of(table).voters()))
    sessions = {d.seat: RemoteSession.create(SaveStore(MemoryStore()), d, "vote") for d in table.devices}
    for seat, session in sessions.items():
        assert [s.here for s in session.seats] == [s == seat for s in range(3)]  # type: ignore[attr-defined]
    voters = _game(sessions[0]).voters()
    pending = _game(sessions[0]).state.pending
    assert pending is not None and len(voters) == 3
    for k, seat in enumerate(voters):
        assert [s for s, session in sessions.items() if session.your_turn()] == [seat]
        # the game view offers the ballot on the voter's device only (the others' input is off)
        assert [s for s, session in sessions.items() if not session.computer_to_move()] == [seat]
        assert all(session.to_move() == seat for session in sessions.values())
        # the ballot's text: this seat's vote, "-" for the seats that vote on their own devices
        outcome = sessions[seat].play("!vote " + "".join("N" if s == seat else "-" for s in range(3)))
        assert outcome.send is not None
        others = [session.open_message(outcome.send) for s, session in sessions.items() if s != seat]
        if k < len(voters) - 1:
            assert outcome.moves == [] and all(o.moves == [] for o in others)
        else:
            decided = [outcome.moves, *(o.moves for o in others)]
            assert all(len(m) == 1 and m[0][1] == "!vote NNN" for m in decided)
            assert all("rejected" in m[0][2].note for m in decided)
    boards = {tuple(session.state.board) for session in sessions.values()}  # type: ignore[attr-defined]
    assert len(boards) == 1 and list(boards.pop()) == list(pending.before.board)


def _game_of(table: Table) -> ScarabeoRemote:
    game = table.mover().game
    assert isinstance(game, ScarabeoRemote)
    return game
