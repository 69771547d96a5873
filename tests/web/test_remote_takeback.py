"""The page's side of a take-back request (web/platform/remote.py): a device asks, the other
answers, both saves follow; a device reopened from its storage mid-request resumes it; every
refusal key of a request has its words in both languages."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from game.remote.session import TAKEBACK_REFUSALS, Refused
from web.platform.remote import RemoteSession, last_request, refusal_of

from tests.web.remote_pair import pair

ROOT = Path(__file__).resolve().parents[2]
CATALOGUE = json.loads((ROOT / "web/platform/messages/remote.json").read_text(encoding="utf-8"))


def _pair(game: str) -> dict[int, RemoteSession]:
    """Anna's and Bruno's devices, started; by seat."""
    return {s.seat_here: s for s in pair(game)}  # type: ignore[misc]


def _moves(session: RemoteSession) -> list[Any]:
    return list(session.store.load(session.save.id).state["moves"])


@pytest.mark.parametrize("accept", [True, False])
def test_a_request_and_its_answer_on_two_devices(accept: bool) -> None:
    seats = _pair("thot")
    first, second = seats[0], seats[1]
    start = first.state.position()
    assert not first.can_take_back() and first.take_back_count() == 0
    state = first.state
    played = first.play(str(state.move_text(state.legal_moves()[0])))
    assert played.send is not None
    second.open_message(played.send)
    assert first.can_take_back() and not second.can_take_back()
    asked = first.ask_take_back()
    assert asked.event.kind == "takeback" and asked.send is not None
    assert not first.can_take_back()
    opened = second.open_message(asked.send)
    assert opened.event.kind == "takeback"
    request = second.take_back_request()
    assert request is not None and request["name"] == first.device.names()[0]
    assert request["your_answer"] is True and first.take_back_request()["your_answer"] is False  # type: ignore[index]
    # Bruno's device, reopened from its storage, holds the same request.
    again = RemoteSession.open(second.store, second.save.id)
    assert again.take_back_request() == request
    answered = again.answer_take_back(accept)
    assert answered.event.kind == ("takeback_accepted" if accept else "takeback_declined")
    assert answered.send is not None
    first.open_message(answered.send)
    assert first.take_back_request() is None and again.take_back_request() is None
    assert last_request(first.device) == (0, request["move"])
    if accept:
        assert first.state.position() == again.state.position() == start
        assert _moves(first) == _moves(again) == []
        assert first.your_turn()
    else:
        assert first.state.position() == again.state.position() != start
        assert len(_moves(first)) == len(_moves(again)) == 1
        assert again.your_turn() and not first.can_take_back()


def test_a_move_during_a_request_is_refused_by_key() -> None:
    seats = _pair("scarabya")
    first, second = seats[0], seats[1]
    state = first.state
    second.open_message(first.play(str(state.move_text(state.legal_moves()[0]))).send or "")
    second.open_message(first.ask_take_back().send or "")
    state = second.state
    with pytest.raises(Refused) as caught:
        second.play(str(state.move_text(state.legal_moves()[0])))
    key, params = refusal_of(caught.value)
    assert key == "remote.refused.takeback_waits"
    assert "Anna" in CATALOGUE[key]["en"].format(**params) or "Bruno" in CATALOGUE[key]["en"].format(**params)


def test_every_take_back_refusal_has_its_words() -> None:
    keys = {f"takeback_{k}" for k in TAKEBACK_REFUSALS} | {"takeback_waits", "takeback_none"}
    for key in sorted(keys):
        entry = CATALOGUE.get(f"remote.refused.{key}")
        assert entry is not None and set(entry) >= {"it", "en"}, key
        entry["en"].format(name="Anna", due="Bruno", detail="")
        entry["it"].format(name="Anna", due="Bruno", detail="")
