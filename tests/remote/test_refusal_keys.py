"""Every refusal the protocol gives carries a stable key, and every key is in the page's catalogue
in both languages with the parameters it is given (the page says no engine English but the detail
of an illegal move or a broken protocol)."""

from __future__ import annotations

import json
import re
import string
from pathlib import Path

import pytest

from game.remote import session
from game.remote.session import Device, Refused
from tests.remote.protocol_helpers import WORDS, Table

ROOT = Path(__file__).resolve().parents[2]
CATALOGUE = json.loads((ROOT / "web/platform/messages/remote.json").read_text(encoding="utf-8"))


def _keys_in_source() -> set[str]:
    static = set()
    for path in ("game/remote/session.py", "game/remote/scarabeo.py"):  # a protocol breach's own key
        text = (ROOT / path).read_text(encoding="utf-8")
        static |= set(re.findall(r'key="([a-z_.]+)"', text))
    options = set()
    for path in ("game/remote/games.py", "game/remote/scarabeo.py"):
        source = (ROOT / path).read_text(encoding="utf-8")
        options |= set(re.findall(r'OptionsError\([^()]*(?:\([^()]*\)[^()]*)*,\s*"([a-z_]+)"\)', source))
    dynamic = {f"options.{k}" for k in options | {"invalid"}} | {f"review.{k}" for k in session._REVIEW_REFUSALS} \
        | {"resign_turn", "leave_turn", "protocol"}  # "protocol": ProtocolError's own key unless it names one
    return static | dynamic


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_every_refusal_key_is_in_the_catalogue_in_both_languages() -> None:
    keys = _keys_in_source()
    assert {"played", "altered", "order", "turn", "illegal", "protocol", "vote_seat", "options.deck",
            "options.vote"} <= keys
    for key in sorted(keys):
        entry = CATALOGUE.get(f"remote.refused.{key}")
        assert entry is not None, key
        assert set(entry) >= {"it", "en"} and _fields(entry["it"]) == _fields(entry["en"]), key


@pytest.mark.parametrize(("game", "players", "options", "key"), [
    ("scarabeo", 2, {"check_mode": "vote"}, "options.vote"),
    ("scarabeo", 2, {"hourglass": True}, "options.hourglass"),
    ("scarabya", 2, {"variant": "ruins", "zones": "1234123412341234"}, "options.deck"),
    ("thot", 2, {"teams": True}, "options.teams"),
    ("thot", 2, {"colour": 1}, "options.invalid"),
])
def test_an_invitation_refused_says_why_by_key(game: str, players: int, options: dict[str, object], key: str) -> None:
    with pytest.raises(Refused) as caught:
        Device.invite(game, "Anna", players, options, WORDS)
    assert caught.value.key == key and caught.value.params["detail"] == caught.value.reason
    entry = CATALOGUE[f"remote.refused.{key}"]
    entry["en"].format(**caught.value.params)


def test_refusals_of_links_carry_their_key_and_parameters() -> None:
    table = Table("thot", 2)
    first, second = table.devices
    mover = table.mover()
    other = second if mover is first else first
    link = mover.play(str(mover.show()["legal"][0]))
    other.open(link)
    with pytest.raises(Refused) as caught:
        other.open(link)
    assert caught.value.key == "played"
    with pytest.raises(Refused) as caught:
        mover.play("a1")  # refused before it is read: it is not this seat's turn
    assert caught.value.key == "not_your_turn" and caught.value.params == {"name": other.names()[other.seat or 0]}


def test_the_page_says_a_refusal_by_its_key_and_a_wire_error_by_its_reason() -> None:
    from web.platform.remote import refusal, refusal_of

    table = Table("thot", 2)
    mover = table.mover()
    with pytest.raises(Refused) as caught:
        next(d for d in table.devices if d is not mover).play("a1")
    key, params = refusal_of(caught.value)
    assert key == "remote.refused.not_your_turn" and CATALOGUE[key]["it"].format(**params)
    assert refusal("this is not a Scarab remote-play link") == ("remote.refused.not_link", {})
    assert refusal("something new") == ("remote.refused.reason", {"detail": "something new"})
