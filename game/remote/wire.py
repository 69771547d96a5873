"""Remote-play messages on the wire: ``r1.`` + base64url (no padding) of zlib-deflated canonical JSON.

A message travels as a URL fragment (or pasted text), so it must be short, survive chat apps, and be
refused with a reason fit for a person when it was cut short or edited. zlib's own checksum (Adler-32)
catches most accidental damage before the JSON parser runs; the sender's signature (``sign``) and the
hash chain (``session``) catch the rest. Only ``game.core.safejson`` parses what comes in, after the
inflated size is bounded (a deflate bomb stops at ``MAX_JSON_BYTES``).

Canonical JSON (sorted keys, no spaces, ASCII) makes a message's hash independent of the zlib that
packed it: Pyodide's and CPython's deflate may produce different bytes, never different JSON.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import zlib
from typing import Any

from game.core import safejson

VERSION = 1
PREFIX = f"r{VERSION}."
#: A link's payload. Scarabeo's deal steps carry a shuffle proof (``game.remote.shuffle``): a setup
#: step is about 34,000 characters, a batch of a start and a setup step about 36,000. Browsers open
#: far longer addresses (Chromium 2 MB; Firefox and Safari well over 64 K) and chat apps carry such
#: messages (WhatsApp's limit is 65,536 characters); 60,000 leaves room for the page's address.
MAX_MESSAGE_CHARS = 60_000
MAX_JSON_BYTES = 200_000

_VERSIONED = re.compile(r"r(\d{1,4})\.")
_B64URL = re.compile(r"[A-Za-z0-9_-]*")


class WireError(ValueError):
    """A message refused before it reached the game; ``malformed``: not a message at all."""

    def __init__(self, message: str, malformed: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.malformed = malformed


def canonical(obj: Any) -> bytes:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode("ascii")


def digest(obj: Any) -> bytes:
    """SHA-256 of the canonical JSON: a message's identity in the hash chain."""
    return hashlib.sha256(canonical(obj)).digest()


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


def unb64(text: object, size: int | None = None) -> bytes:
    """Bytes from unpadded base64url; ``ValueError`` if it is not that (or not ``size`` bytes)."""
    if not isinstance(text, str) or not _B64URL.fullmatch(text) or len(text) % 4 == 1:
        raise ValueError("not base64url")
    raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    if size is not None and len(raw) != size:
        raise ValueError(f"{len(raw)} bytes, not {size}")
    if b64(raw) != text:
        raise ValueError("not canonical base64url")  # one value, one spelling: the hash depends on it
    return raw


def pack(obj: Any) -> str:
    text = PREFIX + b64(zlib.compress(canonical(obj), 9))
    if len(text) > MAX_MESSAGE_CHARS:
        raise WireError(f"the message is {len(text):,} characters, more than the {MAX_MESSAGE_CHARS:,} a link holds")
    return text


def payload_of(text: str) -> str:
    """The payload of a whole link (whatever precedes ``#`` and the fragment's own key) or of a payload."""
    if not isinstance(text, str):
        raise WireError("a message is text", malformed=True)
    text = "".join(text.split())  # chat apps wrap long lines
    if "#" in text:
        text = text.rsplit("#", 1)[1]
    for sep in ("=", "/", "?", "&"):
        if sep in text:
            text = text.rsplit(sep, 1)[1]
    return text


def unpack(text: str) -> Any:
    """The JSON value a message carries, or ``WireError`` saying what is wrong with it."""
    payload = payload_of(text)
    if not payload:
        raise WireError("there is no message in this text", malformed=True)
    if len(payload) > MAX_MESSAGE_CHARS:
        raise WireError(f"the message is {len(payload):,} characters, more than the {MAX_MESSAGE_CHARS:,} allowed",
                        malformed=True)
    found = _VERSIONED.match(payload)
    if found is None:
        raise WireError("this is not a Scarab remote-play link", malformed=True)
    if int(found.group(1)) != VERSION:
        newer = int(found.group(1)) > VERSION
        raise WireError(f"this link was made by a {'newer' if newer else 'different'} version of Scarab "
                        f"(format r{found.group(1)}); update the game to open it")
    body = payload[found.end():]
    if not _B64URL.fullmatch(body) or len(body) % 4 == 1:
        raise WireError("this link was altered or cut short (it is not base64url)")
    try:
        packed = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
        if b64(packed) != body:  # the last character's spare bits changed: not as Scarab wrote it
            raise ValueError("not canonical base64url")
        inflater = zlib.decompressobj()
        raw = inflater.decompress(packed, MAX_JSON_BYTES + 1)
    except (ValueError, zlib.error):
        raise WireError("this link was altered or cut short (it does not unpack)") from None
    if len(raw) > MAX_JSON_BYTES:
        raise WireError("this link unpacks to too much data")
    if not inflater.eof or inflater.unused_data:
        raise WireError("this link was altered or cut short (it does not unpack)")
    try:
        value = safejson.loads(raw, max_bytes=MAX_JSON_BYTES)
    except safejson.JSONRefused as err:
        raise WireError(f"this link's content is refused: {err}") from None
    if canonical(value) != raw:
        raise WireError("this link was altered (its content is not as Scarab writes it)")
    return value


def sha256(*parts: bytes) -> bytes:
    """SHA-256 of length-prefixed parts: no two different lists of parts hash alike."""
    h = hashlib.sha256()
    for part in parts:
        h.update(len(part).to_bytes(4, "big"))
        h.update(part)
    return h.digest()
