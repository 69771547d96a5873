"""Pairing two devices for live play (issue 28): a WebRTC data channel's offer or answer as a short code.

A browser's session description (SDP) for one data channel is ~800 bytes, mostly lines every browser
writes the same way. What the other side needs to reach this one is small: the ICE user fragment and
password, the DTLS certificate's SHA-256 fingerprint, the DTLS role, the media id and the candidates
(address, port, kind). ``encode`` packs those into ~100 bytes, written in base64url (~140 characters:
a QR code of version 7–9 with the site's address in front); ``decode`` writes back an SDP that Chromium,
Firefox and Safari accept. The same idea as the published compact formats (e.g. "webrtc-sdp-compact"
codecs of serverless chat demos): keep what ICE and DTLS check, regenerate the rest.

A code is outside input (it arrives by a link, a QR code, a paste): ``decode`` bounds and checks every
field and refuses with a ``PairingRefused`` whose message is one line for a person. A code ends with a
check (4 bytes of SHA-256 over the rest, issue 42): a code with one character changed on its way used
to decode into another, wrong description, and the joining device waited twenty seconds for a
connection that could not come; now it is refused at once (``PairingRefused.key`` "damaged"),
except with probability 2⁻³².

Layout (version 2), bytes, then base64url without padding::

    version(1) flags(1)                  flags: bit 0 answer, bits 1-2 DTLS role (actpass, active, passive)
    ufrag: length(1) ASCII                ice-char = ALPHA / DIGIT / "+" / "/"
    pwd:   length(1) ASCII
    fingerprint: 32 bytes                 sha-256 only (every current browser)
    mid:   length(1) ASCII
    candidates: count(1), each: kind(1) address port(2)
        kind: bits 0-1 type (host, srflx, prflx, relay), bits 2-3 address (IPv4: 4 bytes, IPv6: 16 bytes,
        an mDNS "<uuid>.local" name: 16 bytes, another name: length(1) + ASCII)
    check: 4 bytes                        SHA-256("scarab/pairing/v2" + everything before)[:4]

TCP candidates are left out (a data channel between two devices on one network uses UDP; a relay
over TCP is the TURN server's business, given as a TURN URL in Settings).
"""

from __future__ import annotations

import base64
import hashlib
import ipaddress
import re
import uuid
from dataclasses import dataclass, field

VERSION = 2
CHECK_BYTES = 4
#: Longer than any real code (a handful of candidates); a QR code beyond this is no longer comfortable.
MAX_CODE_CHARS = 1_000
MAX_SDP_CHARS = 20_000
MAX_CANDIDATES = 12
SETUPS = ("actpass", "active", "passive")
TYPES = ("host", "srflx", "prflx", "relay")
#: RFC 8445 5.1.2.2's recommended type preferences, for the priorities the decoder writes.
TYPE_PREFERENCE = {"host": 126, "prflx": 110, "srflx": 100, "relay": 0}
_ADDR_V4, _ADDR_V6, _ADDR_MDNS, _ADDR_NAME = range(4)
_ICE_CHARS = re.compile(r"[A-Za-z0-9+/]+")
_MID = re.compile(r"[A-Za-z0-9_.-]{1,16}")
_NAME = re.compile(r"[A-Za-z0-9.-]{1,253}")
_CODE = re.compile(r"[A-Za-z0-9_-]+")
_MDNS = re.compile(r"([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.local")


class PairingRefused(ValueError):
    """A code or description that cannot be used; ``str()`` says why in one line; ``key``: "damaged"
    for a code changed or cut on its way (the page says it in its own words), "" otherwise."""

    def __init__(self, message: str, key: str = "") -> None:
        super().__init__(message)
        self.key = key


def _check(payload: bytes) -> bytes:
    return hashlib.sha256(b"scarab/pairing/v2" + payload).digest()[:CHECK_BYTES]


def seal(payload: bytes) -> str:
    """A code's characters: the payload and its check, in base64url without padding."""
    return base64.urlsafe_b64encode(payload + _check(payload)).rstrip(b"=").decode("ascii")


@dataclass(frozen=True)
class Candidate:
    address: str  # an IP address or a host name (an mDNS "<uuid>.local" one, mostly)
    port: int
    type: str = "host"

    def line(self, index: int) -> str:
        """The SDP attribute (its foundation and priority made up: only their order matters to ICE)."""
        local = 65535 - index
        priority = (TYPE_PREFERENCE[self.type] << 24) + (local << 8) + 255
        extra = " raddr 0.0.0.0 rport 0" if self.type != "host" else ""
        return (f"a=candidate:{index + 1} 1 udp {priority} {self.address} {self.port} typ {self.type}"
                f"{extra} generation 0")


@dataclass(frozen=True)
class Description:
    """What one side of a data channel must tell the other."""

    answer: bool
    ufrag: str
    pwd: str
    fingerprint: bytes
    setup: str
    mid: str = "0"
    candidates: tuple[Candidate, ...] = field(default_factory=tuple)

    @property
    def type(self) -> str:
        return "answer" if self.answer else "offer"


def _check_ice(value: str, low: int, what: str) -> str:
    if not low <= len(value) <= 255 or _ICE_CHARS.fullmatch(value) is None:
        raise PairingRefused(f"the {what} is not a valid ICE {what} ({len(value)} characters)")
    return value


def parse_sdp(sdp: str, answer: bool) -> Description:
    """The fields ``encode`` keeps, read from a browser's SDP (refused: what is missing)."""
    if not isinstance(sdp, str) or len(sdp) > MAX_SDP_CHARS:
        raise PairingRefused("the session description is not text of a sensible length")
    attrs: dict[str, str] = {}
    candidates: list[Candidate] = []
    applications = 0
    for raw in sdp.splitlines():
        line = raw.strip()
        if line.startswith("m="):
            if not line.startswith("m=application ") or "webrtc-datachannel" not in line:
                raise PairingRefused("the session has audio or video: only a data channel can be paired")
            applications += 1
        elif line.startswith("a=candidate:"):
            candidate = _parse_candidate(line[len("a=candidate:"):])
            if candidate is not None and candidate not in candidates:
                candidates.append(candidate)
        elif line.startswith("a="):
            name, _, value = line[2:].partition(":")
            attrs.setdefault(name, value)
    if applications != 1:
        raise PairingRefused("the session description has no data channel")
    missing = [k for k in ("ice-ufrag", "ice-pwd", "fingerprint", "setup") if k not in attrs]
    if missing:
        raise PairingRefused(f"the session description lacks {', '.join(missing)}")
    algorithm, _, digest = attrs["fingerprint"].partition(" ")
    if algorithm.lower() != "sha-256":
        raise PairingRefused(f"the certificate fingerprint is {algorithm}, not sha-256")
    try:
        fingerprint = bytes.fromhex(digest.replace(":", ""))
    except ValueError:
        raise PairingRefused("the certificate fingerprint is not hexadecimal") from None
    if attrs["setup"] not in SETUPS:
        raise PairingRefused(f"the DTLS role {attrs['setup']!r} is not one of {', '.join(SETUPS)}")
    return _checked(Description(answer, attrs["ice-ufrag"], attrs["ice-pwd"], fingerprint, attrs["setup"],
                                attrs.get("mid", "0"), tuple(candidates[:MAX_CANDIDATES])))


def _parse_candidate(text: str) -> Candidate | None:
    """A UDP candidate (None: TCP, or a component other than 1, which a data channel does not use)."""
    parts = text.split()
    if len(parts) < 8 or parts[6] != "typ":
        raise PairingRefused("a candidate line is not readable")
    if parts[1] != "1" or parts[2].lower() != "udp":
        return None
    if parts[7] not in TYPES:
        raise PairingRefused(f"a candidate has an unknown type {parts[7][:20]!r}")
    try:
        port = int(parts[5])
    except ValueError:
        raise PairingRefused("a candidate's port is not a number") from None
    return Candidate(parts[4], port, parts[7])


def _checked(d: Description) -> Description:
    _check_ice(d.ufrag, 4, "user fragment")
    _check_ice(d.pwd, 22, "password")
    if len(d.fingerprint) != 32:
        raise PairingRefused("the certificate fingerprint is not a SHA-256 digest")
    if d.setup not in SETUPS:
        raise PairingRefused(f"the DTLS role {d.setup!r} is not one of {', '.join(SETUPS)}")
    if _MID.fullmatch(d.mid) is None:
        raise PairingRefused("the data channel's media id is not readable")
    if len(d.candidates) > MAX_CANDIDATES:
        raise PairingRefused(f"more than {MAX_CANDIDATES} candidates")
    for c in d.candidates:
        if not 1 <= c.port <= 65535:
            raise PairingRefused(f"a candidate's port {c.port} is out of range")
        if c.type not in TYPES:
            raise PairingRefused(f"a candidate has an unknown type {c.type[:20]!r}")
        _address_kind(c.address)
    return d


def _address_kind(address: str) -> int:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        if _MDNS.fullmatch(address.lower()):
            return _ADDR_MDNS
        if _NAME.fullmatch(address):
            return _ADDR_NAME
        raise PairingRefused(f"a candidate's address {address[:40]!r} is not readable") from None
    return _ADDR_V4 if ip.version == 4 else _ADDR_V6


def _ascii(value: str) -> bytes:
    data = value.encode("ascii")
    return bytes([len(data)]) + data


def encode(d: Description) -> str:
    """The description as a code of base64url characters."""
    _checked(d)
    out = bytearray([VERSION, int(d.answer) | SETUPS.index(d.setup) << 1])
    out += _ascii(d.ufrag) + _ascii(d.pwd) + d.fingerprint + _ascii(d.mid)
    out.append(len(d.candidates))
    for c in d.candidates:
        kind = _address_kind(c.address)
        out.append(TYPES.index(c.type) | kind << 2)
        if kind in (_ADDR_V4, _ADDR_V6):
            out += ipaddress.ip_address(c.address).packed
        elif kind == _ADDR_MDNS:
            out += uuid.UUID(c.address[:36]).bytes
        else:
            out += _ascii(c.address)
        out += c.port.to_bytes(2, "big")
    return seal(bytes(out))


class _Reader:
    def __init__(self, data: bytes) -> None:
        self.data, self.at = data, 0

    def take(self, n: int, what: str) -> bytes:
        if self.at + n > len(self.data):
            raise PairingRefused(f"the code is cut short (in the {what})")
        chunk = self.data[self.at:self.at + n]
        self.at += n
        return chunk

    def byte(self, what: str) -> int:
        return self.take(1, what)[0]

    def text(self, what: str) -> str:
        raw = self.take(self.byte(what), what)
        try:
            return raw.decode("ascii")
        except UnicodeDecodeError:
            raise PairingRefused(f"the code's {what} is not plain text") from None


def decode(code: str) -> Description:
    """A code back to its description (``PairingRefused``: why it cannot be used)."""
    if not isinstance(code, str):
        raise PairingRefused("the code is not text")
    code = code.strip()
    if not code:
        raise PairingRefused("the code is empty")
    if len(code) > MAX_CODE_CHARS:
        raise PairingRefused(f"the code is {len(code):,} characters, longer than any pairing code")
    if _CODE.fullmatch(code) is None:
        raise PairingRefused("the code has characters a pairing code never has (was it cut or edited?)")
    try:
        sealed = base64.urlsafe_b64decode(code + "=" * (-len(code) % 4))
    except ValueError:
        raise PairingRefused("the code is cut short", key="damaged") from None
    data, check = sealed[:-CHECK_BYTES], sealed[-CHECK_BYTES:]
    if len(sealed) <= CHECK_BYTES or _check(data) != check or seal(data) != code:  # stray bits: changed
        if sealed[:1] == b"\x01":
            raise PairingRefused(f"the code is of version 1, this site reads version {VERSION}: "
                                 "both devices need the site's latest version")
        raise PairingRefused("the code was changed or cut on its way: ask for it again", key="damaged")
    r = _Reader(data)
    version = r.byte("version")
    if version != VERSION:
        raise PairingRefused(f"the code is of version {version}, this site reads version {VERSION}")
    flags = r.byte("flags")
    if flags >> 1 >= len(SETUPS) or flags >> 3:
        raise PairingRefused("the code's flags are not readable")
    ufrag, pwd = r.text("user fragment"), r.text("password")
    fingerprint = r.take(32, "fingerprint")
    mid = r.text("media id")
    count = r.byte("candidates")
    if count > MAX_CANDIDATES:
        raise PairingRefused(f"the code lists {count} candidates, more than {MAX_CANDIDATES}")
    candidates = []
    for _ in range(count):
        kind = r.byte("candidate")
        type_, address_kind = kind & 3, kind >> 2
        if address_kind == _ADDR_V4:
            address = str(ipaddress.IPv4Address(r.take(4, "candidate")))
        elif address_kind == _ADDR_V6:
            address = str(ipaddress.IPv6Address(r.take(16, "candidate")))
        elif address_kind == _ADDR_MDNS:
            address = f"{uuid.UUID(bytes=r.take(16, 'candidate'))}.local"
        else:
            address = r.text("candidate")
        candidates.append(Candidate(address, int.from_bytes(r.take(2, "candidate"), "big"), TYPES[type_]))
    if r.at != len(data):
        raise PairingRefused("the code has bytes after its last candidate (was it edited?)")
    return _checked(Description(bool(flags & 1), ufrag, pwd, fingerprint, SETUPS[flags >> 1], mid,
                                tuple(candidates)))


def to_sdp(d: Description, session_id: int = 0) -> str:
    """An SDP the browsers accept for ``setRemoteDescription`` (of type ``d.type``)."""
    fingerprint = ":".join(f"{b:02X}" for b in d.fingerprint)
    lines = ["v=0", f"o=- {session_id or 1} 2 IN IP4 127.0.0.1", "s=-", "t=0 0", f"a=group:BUNDLE {d.mid}",
             "a=msid-semantic: WMS", "m=application 9 UDP/DTLS/SCTP webrtc-datachannel", "c=IN IP4 0.0.0.0"]
    lines += [c.line(i) for i, c in enumerate(d.candidates)]
    if d.candidates:
        lines.append("a=end-of-candidates")
    lines += [f"a=ice-ufrag:{d.ufrag}", f"a=ice-pwd:{d.pwd}", f"a=fingerprint:sha-256 {fingerprint}",
              f"a=setup:{d.setup}", f"a=mid:{d.mid}", "a=sctp-port:5000", "a=max-message-size:262144"]
    return "\r\n".join(lines) + "\r\n"


def compact(sdp: str, answer: bool) -> str:
    """A browser's SDP straight to its code."""
    return encode(parse_sdp(sdp, answer))


def expand(code: str, answer: bool) -> str:
    """A code straight to an SDP, refused when it is not the side expected (an offer where an answer
    was awaited: the two players scanned in the wrong order)."""
    d = decode(code)
    if d.answer != answer:
        raise PairingRefused("this is the other device's answer, not an offer" if d.answer else
                             "this is an offer, not the answer to this device's offer")
    return to_sdp(d)
