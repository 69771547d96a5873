"""The end-of-game verification's failures as the remote page lists them (under "The verification
found problems:", web/pages/remote.py, from ``web.platform.remote.failure_texts``): built from the
protocol's failures as data (``show()``'s ``problems``), in the catalogue's words in both
languages — players by name, "you" for this device's own seat, counts in their plural form —
never the protocol's English line (which the command line keeps)."""

from __future__ import annotations

import base64
import random
from typing import Any

import pytest

from game.remote.deal import FAILURE_KEYS, Deal
from game.remote.ristretto import base_mul
from game.remote.wire import b64, unpack
from tests.remote.protocol_helpers import Table as Devices
from tests.remote.test_deal import _play_game
from web.platform.i18n import Messages, load_catalogue
from web.platform.remote import failure_texts

T = {lang: Messages(load_catalogue(), lang) for lang in ("it", "en")}
NAMES = ["Anna", "Bruno"]


def test_a_game_whose_revealed_key_was_tampered_with_says_so_in_each_language() -> None:
    table = Devices("scarabeo", 2)
    table.play(random.Random(9))
    quitter = table.mover()
    data = unpack(quitter.resign())
    m: dict[str, Any] = dict((data["b"] if "b" in data else [data])[0]["m"])
    m["x"] = dict(m["x"])
    keys = bytearray(base64.urlsafe_b64decode(m["x"]["k"] + "=="))
    keys[0] ^= 1  # the resigning seat's keys, one bit changed, signed again by its own device
    m["x"]["k"] = b64(bytes(keys))
    other = next(d for d in table.devices if d is not quitter)
    other.open(quitter._signed(m))
    shown = other.show()
    assert shown["over"] and shown["verified"] is False
    name = other.names()[quitter.seat]
    texts = {lang: failure_texts(t, shown["problems"], other.names(), other.seat) for lang, t in T.items()}
    assert texts["en"][0] == f"{name}'s revealed key does not match their public key."
    assert texts["it"][0] == f"La chiave rivelata da {name} non corrisponde alla sua chiave pubblica."
    for lines in texts.values():
        assert len(lines) == len(shown["failures"]) and not any("{" in line for line in lines)
        assert not set(lines) & set(shown["failures"])  # the catalogue's words, not the protocol's line


def test_wrong_shares_are_yours_on_your_device_and_named_on_the_others() -> None:
    table = _play_game(2, 6)
    deal = Deal.from_json(table.deals[0].to_json())
    cards = [c for c in deal.cards if c.owner == 1 and c.peels][:2]
    for card in cards:  # seat 0's stored shares for two of seat 1's cards, corrupted
        card.peels[0] = (0, card.peels[0][1] + base_mul(1))
    verdict = deal.verify(table.reveal())
    assert not verdict.verified
    ids = ", ".join(str(c.id) for c in sorted(cards, key=lambda c: c.id))
    assert failure_texts(T["en"], verdict.problems, NAMES, 0) == [f"Your shares for 2 cards are wrong ({ids})."]
    assert failure_texts(T["it"], verdict.problems, NAMES, 0) == [f"Le tue parti per 2 carte sono sbagliate ({ids})."]
    assert failure_texts(T["en"], verdict.problems, NAMES, 1) == [f"Anna's shares for 2 cards are wrong ({ids})."]
    assert failure_texts(T["it"], verdict.problems, NAMES, 1) == [f"Le parti di Anna per 2 carte sono sbagliate ({ids})."]


#: A failure of every kind the protocol reports, with data as it reports them.
SAMPLES: dict[str, dict[str, Any]] = {
    "unset": {}, "keys_missing": {"seat": 1}, "keys_unreadable": {"seat": 1}, "key_mismatch": {"seat": 1, "epoch": 0},
    "setup_step": {"seat": 0, "n": 1, "total": 130}, "setup": {},
    "reshuffle": {"seat": 1, "round": 2, "n": 3, "total": 90}, "reshuffle_racks": {"seat": 1, "round": 1, "cards": [4]},
    "drawn_not_tile": {"seat": 1, "card": 17}, "shown_wrong": {"seat": 1, "card": 17, "shown": "A", "tile": "E"},
    "shares_wrong": {"seat": 1, "cards": [3]}, "bag_not_tile": {"card": 40}, "dealt_twice": {"tiles": "AE"},
    "missing": {"tiles": "Z"}, "exchange": {"seat": 1, "tiles": "AEIOUA"}, "cheated_card": {"card": 5},
    "cheated_tile": {"tile": "Q"}, "rack_end": {"seat": 1, "detail": "the rack holds 9 tiles"},
    "reason": {"detail": "the saved deal is damaged"},
    # found at once, as a part comes (deal.DealCheat: the game stops)
    "step_proof": {"seat": 1, "step": "setup"}, "step_key": {"seat": 1, "step": "reshuffle"},
    "share_proof": {"seat": 1}, "tile_proof": {"seat": 1}, "shares_owed": {"seat": 1, "missing": [3], "extra": []},
}


def test_every_kind_has_its_words_in_both_languages() -> None:
    assert set(SAMPLES) == set(FAILURE_KEYS)
    for key, params in SAMPLES.items():
        for here in (0, 1):
            said = {lang: failure_texts(t, [{"key": key, **params}], NAMES, here)[0] for lang, t in T.items()}
            assert said["it"] != said["en"], key
            for text in said.values():
                assert "{" not in text and "remote.failure" not in text, (key, text)
                if "seat" in params and here != params["seat"]:
                    assert NAMES[params["seat"]] in text, (key, text)


@pytest.mark.parametrize(("key", "params", "here", "en", "it"), [
    ("setup_step", {"seat": 0, "n": 1, "total": 130}, 1,
     "Anna's setup step: 1 card of 130 is not the deck they received, masked.",
     "Passo di preparazione di Anna: 1 carta su 130 non è il mazzo ricevuto, mascherato."),
    ("setup_step", {"seat": 0, "n": 2, "total": 130}, 0,
     "Your setup step: 2 cards of 130 are not the deck you received, masked.",
     "Il tuo passo di preparazione: 2 carte su 130 non sono il mazzo che hai ricevuto, mascherato."),
    ("exchange", {"seat": 1, "tiles": "AEB"}, 1,
     "You exchanged AEB: not all vowels or all consonants.", "Hai cambiato AEB: non tutte vocali o tutte consonanti."),
    ("keys_missing", {"seat": 1}, 0, "Bruno did not reveal their keys.", "Bruno non ha rivelato le sue chiavi."),
    ("dealt_twice", {"tiles": "AE"}, 0, "2 tiles were dealt twice: AE.", "2 tessere sono state distribuite due volte: AE."),
    ("missing", {"tiles": "Z"}, 0, "A tile is missing from the deal: Z.", "Manca una tessera dalla distribuzione: Z."),
    ("shares_wrong", {"seat": 1, "cards": [12]}, 0, "Bruno's share for card 12 is wrong.",
     "La parte di Bruno per la carta 12 è sbagliata."),
    ("a_new_kind", {"seat": 1}, 0, "Another check failed: {'key': 'a_new_kind', 'seat': 1}",
     "Altro controllo fallito: {'key': 'a_new_kind', 'seat': 1}"),
])
def test_person_and_number(key: str, params: dict[str, Any], here: int, en: str, it: str) -> None:
    found = [{"key": key, **params}]
    assert failure_texts(T["en"], found, NAMES, here) == [en]
    assert failure_texts(T["it"], found, NAMES, here) == [it]


def test_a_missing_message_is_said_with_the_way_to_get_it() -> None:
    """'Open Anna's previous link first' always says how to get it: Anna's "Send my last link
    again" (issue 42), with the index, in both languages; a reason without the index too."""
    from game.remote.session import Refused
    from web.platform.remote import refusal, refusal_of

    err = Refused("open Anna's previous link first (message 4 of this game is missing: …)", key="order",
                  name="Anna", n="4")
    for lang, t in T.items():
        button = t("remote.resend")
        for key, params in (refusal_of(err), refusal("open Anna's previous link first")):
            text = t(key, **params)
            assert "Anna" in text and button in text and "{" not in text, (lang, text)
        assert "4" in t(*refusal_of(err)[:1], **refusal_of(err)[1])
