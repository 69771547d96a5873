"""The memos that make opening a stored game again cheap (issue 25): decoded elements and successful
signature checks are remembered by their exact bytes; nothing refused is ever remembered."""

from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from game.remote import ristretto, sign
from game.remote.ristretto import BASE, Element, EncodingError, base_mul
from game.remote.session import Device, Refused
from game.remote.wire import b64, unb64
from tests.remote.protocol_helpers import play_one, repack, start


def _encodings(count: int) -> list[bytes]:
    return [base_mul(k).encode() for k in range(2, 2 + count)]


def test_a_remembered_element_is_the_element() -> None:
    good = base_mul(12345).encode()
    ristretto._DECODED.pop(good, None)
    first = Element.decode(good)
    again = Element.decode(bytearray(good))
    assert again is first  # one immutable object serves every caller
    assert first == base_mul(12345) and first.encode() == good
    assert first + BASE == base_mul(12346)
    ristretto._DECODED.clear()
    assert Element.decode(good) == first  # decoded afresh: the same element


@pytest.mark.parametrize("change", [
    lambda raw: raw[:31] + bytes([raw[31] | 0x80]),  # the same 31 bytes, then not canonical (s ≥ p)
    lambda raw: bytes([raw[0] ^ 1]) + raw[1:],  # odd: a negative s
    lambda raw: raw[:31] + bytes([raw[31] ^ 0x01]),  # most likely no element at all
])
def test_a_bad_encoding_is_refused_every_time(change: Any) -> None:
    good = base_mul(777).encode()
    bad = change(good)
    assert bad != good
    for _ in range(2):
        assert Element.decode(good).encode() == good
        try:
            Element.decode(bad)
        except EncodingError:
            pass
        else:  # the flipped last bit may happen to encode another element: then it is that one
            assert Element.decode(bad).encode() == bad and Element.decode(bad) != Element.decode(good)
            continue
        assert bad not in ristretto._DECODED
        with pytest.raises(EncodingError):
            Element.decode(bad)
    with pytest.raises(EncodingError):
        Element.decode(good[:31])
    with pytest.raises(EncodingError):
        Element.decode(good + b"\0")


def test_the_element_memo_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ristretto, "DECODED", 5)
    ristretto._DECODED.clear()
    encodings = _encodings(12)
    for enc in encodings:
        assert Element.decode(enc).encode() == enc
        assert len(ristretto._DECODED) <= 5
    assert list(ristretto._DECODED) == encodings[-5:]  # the oldest went first
    Element.decode(encodings[7])  # used again: now the most recent
    Element.decode(encodings[0])  # decoded afresh, pushing out the least recently used
    assert list(ristretto._DECODED) == [*encodings[9:], encodings[7], encodings[0]]
    assert all(Element.decode(enc) == base_mul(k) for k, enc in enumerate(encodings, start=2))


def test_the_pause_is_called_while_decoding(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[None] = []
    monkeypatch.setattr(ristretto, "PAUSE", lambda: calls.append(None))
    enc = base_mul(4242).encode()
    ristretto._DECODED.pop(enc, None)
    Element.decode(enc)
    Element.decode(enc)
    assert len(calls) >= 2  # a fresh decoding and a remembered one both hand control back


def test_a_signature_that_failed_fails_again() -> None:
    secret = sign.new_secret()
    key = sign.public(secret)
    sig = sign.sign(secret, b"message")
    other = sign.public(sign.new_secret())
    for _ in range(2):
        assert sign.verify(key, b"message", sig)
        assert not sign.verify(key, b"messagf", sig)
        assert not sign.verify(other, b"message", sig)
        assert not sign.verify(key, b"message", sig[:-1] + bytes([sig[-1] ^ 1]))
        assert not sign.verify(key, b"message", sig[:-1])
        assert not sign.verify(key[:-1] + bytes([key[-1] ^ 1]), b"message", sig)
    assert list(sign._VERIFIED).count((key, b"message", sig)) == 1
    assert all(k == key and m == b"message" and s == sig
               for k, m, s in sign._VERIFIED if k in (key, other) and m in (b"message", b"messagf"))


def test_the_signature_memo_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sign, "VERIFIED", 3)
    sign._VERIFIED.clear()
    secret = sign.new_secret()
    key = sign.public(secret)
    messages = [bytes([i]) * 8 for i in range(6)]
    sigs = [sign.sign(secret, m) for m in messages]
    for m, s in zip(messages, sigs):
        assert sign.verify(key, m, s)
        assert len(sign._VERIFIED) <= 3
    assert list(sign._VERIFIED) == [(key, m, s) for m, s in zip(messages[-3:], sigs[-3:])]
    assert all(sign.verify(key, m, s) for m, s in zip(messages, sigs))  # forgotten ones checked again
    assert not sign.verify(key, messages[0], sigs[1])


def _stored_game() -> tuple[dict[str, Any], Device]:
    devices = start("thot", 2, {"short": True})
    rng = random.Random(3)
    for _ in range(4):
        play_one(devices, rng)
    device = devices[1]
    return device.to_json(), device


def _with_message(stored: dict[str, Any], index: int, text: str) -> dict[str, Any]:
    chain = list(stored["chain"])
    chain[index] = text
    return {**stored, "chain": chain}


def test_a_tampered_stored_chain_is_refused_after_the_true_one_was_opened() -> None:
    stored, device = _stored_game()
    for _ in range(2):  # the second time every check of the true chain is remembered
        again = Device.from_json(stored)
        assert again.show() == device.show() and again.hashes == device.hashes
    index = len(stored["chain"]) - 2  # a move with a move after it
    move = stored["chain"][index]

    def other_move(data: dict[str, Any]) -> None:
        data["m"]["t"] = "A1" if data["m"]["t"] != "A1" else "B2"

    def other_signature(data: dict[str, Any]) -> None:
        raw = unb64(data["s"], sign.SIGNATURE_BYTES)
        data["s"] = b64(raw[:40] + bytes([raw[40] ^ 4]) + raw[41:])

    for change in (other_move, other_signature):
        tampered = _with_message(stored, index, repack(move, change))
        for _ in range(2):
            with pytest.raises(Refused) as caught:
                Device.from_json(tampered)
            assert "signature does not match" in caught.value.reason
        assert Device.from_json(stored).hashes == device.hashes


def test_the_reopening_bench_prints_its_figures() -> None:
    """``tools/bench_reopen.py`` at its smallest (a smoke test: no timing is asserted)."""
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "tools/bench_reopen.py", "--game", "thot", "--moves", "2", "--opens", "2"],
                          cwd=root, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("thot, 2 players, ") and "messages in the chain" in lines[0]
    assert re.fullmatch(r"  memos emptied before each open: [0-9.]+ [0-9.]+ CPU s per open of every device "
                        r"\(median [0-9.]+\)", lines[1]), lines[1]
    assert lines[2].startswith("  memos kept: ") and lines[3].startswith("  load average ")
