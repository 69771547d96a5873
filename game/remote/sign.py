"""Signed messages: every remote-play message is signed by its sender's device.

A signature is a Schnorr proof of knowledge of the device's secret key (``dleq.prove_key``: the
Fiat–Shamir transform with SHA-512 over ristretto255, RFC 9496), bound to the message by putting
the message's hash in the proof's context — the Schnorr signature scheme. 64 bytes; public keys 32
bytes; about 128-bit security. The secret key is a 32-byte seed, hashed to the secret scalar.

Why signatures and not only the hash chain: in a 3-4 player game every device reads every other's
messages, so without them one player could write a message in another's name; and a link edited on
its way (a chat app, a person) fails the check instead of being applied.
"""

from __future__ import annotations

import hashlib
import secrets

from game.remote import dleq
from game.remote.ristretto import Element, EncodingError, base_mul, scalar_from_wide

SECRET_BYTES = 32
PUBLIC_BYTES = 32
SIGNATURE_BYTES = dleq.PROOF_BYTES
_DOMAIN = b"scarab/remote/sign/v1"


def new_secret() -> bytes:
    return secrets.token_bytes(SECRET_BYTES)


def _scalar(secret: bytes) -> int:
    if len(secret) != SECRET_BYTES:
        raise ValueError(f"a signing secret is {SECRET_BYTES} bytes")
    # Zero has probability 2^-252; never a zero key all the same.
    return scalar_from_wide(hashlib.sha512(_DOMAIN + b"/key" + secret).digest()) or 1


def public(secret: bytes) -> bytes:
    return base_mul(_scalar(secret)).encode()


def _key(key: bytes) -> Element:
    element = Element.decode(key)
    if element.is_identity():
        raise EncodingError("the identity is not a public key")
    return element


def check_public(key: bytes) -> None:
    """``ValueError`` unless ``key`` is a valid public key (a canonical, non-identity element)."""
    _key(key)


def sign(secret: bytes, message: bytes) -> bytes:
    return dleq.prove_key(_scalar(secret), dleq.context(_DOMAIN, message))


#: How many successful checks :func:`verify` remembers (the oldest used goes first): a stored game
#: is checked again, message by message, each time it is opened; a whole game's chain is well
#: under this.
VERIFIED = 1024
_VERIFIED: dict[tuple[bytes, bytes, bytes], None] = {}


def verify(key: bytes, message: bytes, signature: bytes) -> bool:
    """Whether ``signature`` is the key's on ``message``; never raises on bad input.

    A triple that verified is remembered by its exact bytes, and found again without the group's
    work; a triple that failed is never remembered, so it is checked, and refused, every time.
    The check is a pure function of these bytes, so the memo answers as the check would."""
    triple = (bytes(key), bytes(message), bytes(signature))
    if triple in _VERIFIED:
        del _VERIFIED[triple]
        _VERIFIED[triple] = None  # the most recent last
        return True
    try:
        element = _key(triple[0])
    except EncodingError:
        return False
    if not dleq.verify_key(element, triple[2], dleq.context(_DOMAIN, triple[1])):
        return False
    _VERIFIED[triple] = None
    if len(_VERIFIED) > VERIFIED:
        del _VERIFIED[next(iter(_VERIFIED))]
    return True
