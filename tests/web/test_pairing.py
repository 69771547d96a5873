"""The pairing code (web/platform/pairing.py): a data channel's SDP to ~140 characters and back."""

from __future__ import annotations

import base64
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from web.platform import pairing
from web.platform.pairing import Candidate, Description, PairingRefused

#: Debian Chromium 156's offer and answer for one data channel, ``iceServers: []`` (two mDNS host
#: candidates each), captured on this machine; the codes are what ``compact`` made of them, and
#: Chromium opened the channel from the SDPs ``expand`` wrote back (tests/e2e/test_live.py does it again).
OFFER = ("v=0\r\no=- 838706250589946023 2 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\na=group:BUNDLE 0\r\n"
         "a=extmap-allow-mixed\r\na=msid-semantic: WMS\r\nm=application 9 UDP/DTLS/SCTP webrtc-datachannel\r\n"
         "c=IN IP4 0.0.0.0\r\n"
         "a=candidate:295648183 1 udp 2113937151 745ab740-04b8-4dbc-a97e-2da9535f3cda.local 51905 typ host "
         "generation 0 network-cost 999\r\n"
         "a=candidate:384653063 1 udp 2113942271 f86dab4b-ab09-4d81-a69b-ef560e00ba83.local 43021 typ host "
         "generation 0 network-cost 999\r\n"
         "a=ice-ufrag:G+jK\r\na=ice-pwd:/IbrYsKRA2+SV1KFmyp1ZJSi\r\na=ice-options:trickle\r\n"
         "a=fingerprint:sha-256 A7:9B:35:A1:11:9E:95:40:09:AF:BB:B5:14:44:48:24:B4:73:B7:AD:9D:29:07:27:F1:"
         "34:74:68:5C:77:90:2E\r\na=setup:actpass\r\na=mid:0\r\na=sctp-port:5000\r\na=max-message-size:262144\r\n")
ANSWER = ("v=0\r\no=- 2386634868364918776 2 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\na=group:BUNDLE 0\r\n"
          "a=msid-semantic: WMS\r\nm=application 9 UDP/DTLS/SCTP webrtc-datachannel\r\nc=IN IP4 0.0.0.0\r\n"
          "a=candidate:365980850 1 udp 2113937151 aed30f39-bc1a-48a2-9205-a5e4385cfc56.local 50245 typ host "
          "generation 0 network-cost 999\r\n"
          "a=candidate:3736513874 1 udp 2113942271 e6023873-7204-454f-ae03-75507c79724d.local 51407 typ host "
          "generation 0 network-cost 999\r\n"
          "a=ice-ufrag:i3NB\r\na=ice-pwd:L+TnwDZ9+05zyujuxBx62kIO\r\na=ice-options:trickle\r\n"
          "a=fingerprint:sha-256 87:AE:88:E6:64:68:F9:3A:B8:4A:1E:9B:12:91:32:A2:84:00:A8:B0:2F:D3:24:CF:08:DD:"
          "C3:06:65:5B:3B:43\r\na=setup:active\r\na=mid:0\r\na=sctp-port:5000\r\na=max-message-size:262144\r\n")
OFFER_CODE = ("AgAERytqSxgvSWJyWXNLUkEyK1NWMUtGbXlwMVpKU2mnmzWhEZ6VQAmvu7UUREgktHO3rZ0pByfxNHRoXHeQLgEwAgh0WrdABLhN"
              "vKl-LalTXzzaysEI-G2rS6sJTYGmm-9WDgC6g6gNuomBoQ")


def test_chromium_offer_is_about_a_hundred_bytes() -> None:
    code = pairing.compact(OFFER, answer=False)
    assert code == OFFER_CODE
    assert len(base64.urlsafe_b64decode(code + "==")) == 105 + pairing.CHECK_BYTES and len(code) == 146 < len(OFFER) / 4


@pytest.mark.parametrize("sdp, answer", [(OFFER, False), (ANSWER, True)])
def test_what_ice_and_dtls_check_survives(sdp: str, answer: bool) -> None:
    original = pairing.parse_sdp(sdp, answer)
    back = pairing.expand(pairing.compact(sdp, answer), answer)
    again = pairing.parse_sdp(back, answer)
    assert again == original
    for line in ("a=ice-ufrag:", "a=ice-pwd:", "a=fingerprint:sha-256 ", "a=setup:", "a=mid:0"):
        kept = next(x for x in sdp.split("\r\n") if x.startswith(line))
        assert kept in back.split("\r\n")
    assert "745ab740-04b8-4dbc-a97e-2da9535f3cda.local 51905 typ host" in pairing.expand(OFFER_CODE, False)
    assert back.endswith("\r\n") and "m=application 9 UDP/DTLS/SCTP webrtc-datachannel" in back


def test_candidates_of_every_kind_round_trip() -> None:
    d = Description(False, "abcd", "a" * 22, bytes(range(32)), "actpass", "0", (
        Candidate("192.168.1.20", 50000), Candidate("fe80::1", 1, "host"),
        Candidate("203.0.113.9", 61000, "srflx"), Candidate("198.51.100.4", 3478, "relay"),
        Candidate("2b4c0a1e-0000-4000-8000-000000000001.local", 9), Candidate("phone.lan", 65535, "prflx")))
    assert pairing.decode(pairing.encode(d)) == d
    sdp = pairing.to_sdp(d)
    assert "typ srflx raddr 0.0.0.0 rport 0" in sdp and pairing.parse_sdp(sdp, False) == d


def test_tcp_candidates_and_duplicates_are_left_out() -> None:
    tcp = "a=candidate:1 1 tcp 1518280447 192.168.1.2 9 typ host tcptype active generation 0\r\n"
    sdp = OFFER.replace("a=ice-ufrag", tcp + "a=ice-ufrag")
    assert pairing.compact(sdp, False) == OFFER_CODE


@settings(max_examples=60, deadline=None)
@given(ufrag=st.text("abcXYZ019+/", min_size=4, max_size=32), pwd=st.text("qrsQRS789+/", min_size=22, max_size=64),
       fingerprint=st.binary(min_size=32, max_size=32), setup=st.sampled_from(pairing.SETUPS),
       answer=st.booleans(),
       ports=st.lists(st.integers(1, 65535), max_size=pairing.MAX_CANDIDATES),
       ips=st.lists(st.ip_addresses(), max_size=4))
def test_round_trip(ufrag: str, pwd: str, fingerprint: bytes, setup: str, answer: bool, ports: list[int],
                    ips: list[object]) -> None:
    candidates = tuple(dict.fromkeys(Candidate(str(ips[i % len(ips)]) if ips else f"{i:08x}-0000-4000-8000-000000000000.local",
                                 port) for i, port in enumerate(ports)))  # the SDP lists each once
    d = Description(answer, ufrag, pwd, fingerprint, setup, "0", candidates)
    code = pairing.encode(d)
    assert pairing.decode(code) == d
    assert pairing.parse_sdp(pairing.to_sdp(d), answer) == d


def _payload(code: str) -> bytes:
    """A code's payload, its check cut off (to make codes whose check holds but whose fields do not)."""
    return base64.urlsafe_b64decode(code + "=" * (-len(code) % 4))[:-pairing.CHECK_BYTES]


@pytest.mark.parametrize("code, reason", [
    ("", "the code is empty"),
    ("x" * 1001, "longer than any pairing code"),
    (OFFER_CODE[:60], "changed or cut on its way"),
    (pairing.seal(_payload(OFFER_CODE) + b"\0\0"), "bytes after its last candidate"),
    (OFFER_CODE.replace("A", "=", 1), "characters a pairing code never has"),
    (pairing.seal(b"\x03" + _payload(OFFER_CODE)[1:]), "version 3"),
    ("AQAE" + OFFER_CODE[4:], "version 1, this site reads version 2"),
    (pairing.seal(b"\x02\x00\x02ab\x16" + b"a" * 22 + bytes(32) + b"\x010\x00"), "not a valid ICE user fragment"),
    (pairing.seal(b"\x02\x00\x04ab\xffd"), "not plain text"),
    (pairing.seal(_payload(OFFER_CODE)[:60]), "cut short"),
])
def test_malformed_codes_are_refused_with_a_reason(code: str, reason: str) -> None:
    with pytest.raises(PairingRefused, match=reason):
        pairing.decode(code)


def test_a_code_with_one_character_changed_is_refused_at_once() -> None:
    """Issue 42: every one-character change of a real code is refused as damaged (the check), never
    decoded into another description that would make the other device wait for nothing."""
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    for at in range(len(OFFER_CODE)):
        for other in (alphabet[(alphabet.index(OFFER_CODE[at]) + step) % 64] for step in (1, 17, 40)):
            changed = OFFER_CODE[:at] + other + OFFER_CODE[at + 1:]
            with pytest.raises(PairingRefused) as caught:
                pairing.decode(changed)
            assert caught.value.key == "damaged" or "version" in str(caught.value), (at, str(caught.value))
    for cut in (1, 5, 40):
        with pytest.raises(PairingRefused) as caught:
            pairing.decode(OFFER_CODE[:-cut])
        assert caught.value.key == "damaged"


def test_each_side_is_checked() -> None:
    with pytest.raises(PairingRefused, match="an offer, not the answer"):
        pairing.expand(OFFER_CODE, answer=True)
    answer = pairing.compact(ANSWER, True)
    with pytest.raises(PairingRefused, match="answer, not an offer"):
        pairing.expand(answer, answer=False)


@pytest.mark.parametrize("edit, reason", [
    (("a=fingerprint:sha-256", "a=fingerprint:sha-1"), "sha-1, not sha-256"),
    (("a=setup:actpass", "a=setup:holdconn"), "DTLS role"),
    (("a=ice-pwd:/IbrYsKRA2+SV1KFmyp1ZJSi", "a=ice-pwd:short"), "not a valid ICE password"),
    (("m=application 9 UDP/DTLS/SCTP webrtc-datachannel", "m=audio 9 UDP/TLS/RTP/SAVPF 111"), "audio or video"),
    (("a=ice-ufrag:G+jK\r\n", ""), "lacks ice-ufrag"),
    (("typ host generation 0 network-cost 999\r\na=candidate:384653063", "typ tunnel\r\na=candidate:384653063"),
     "unknown type"),
])
def test_unusable_descriptions_are_refused(edit: tuple[str, str], reason: str) -> None:
    with pytest.raises(PairingRefused, match=reason):
        pairing.compact(OFFER.replace(*edit), False)


def test_the_qr_libraries_are_bundled_from_node_modules_for_the_browser(tmp_path: Any) -> None:
    """``tools/build.py`` puts npm jsqr's browser build and npm qrcode's CommonJS files, joined into
    one classic script, in vendor/qr/; run by Node as a browser would (``window`` global), the
    encoder makes a code the decoder reads back."""
    import shutil
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    sys.path.insert(0, str(root / "tools"))
    import build

    if shutil.which("node") is None or not (build.NODE / "qrcode").exists():
        pytest.skip("node or node_modules missing (npm ci)")
    build.write_qr(tmp_path)
    script = (
        "global.window = global; require(process.argv[1]); const m = require(process.argv[2]);"
        "const jsQR = window.jsQR || m.default || m;"  # its UMD wrapper exports to Node's module
        "const text = 'http://192.168.1.2:8000/#/live?o=' + process.argv[3];"
        "const q = window.QRCode.create(text, {errorCorrectionLevel: 'M'});"
        "const n = q.modules.size, scale = 4, quiet = 4, size = (n + 2 * quiet) * scale;"
        "const px = new Uint8ClampedArray(size * size * 4).fill(255);"
        "for (let y = 0; y < n; y++) for (let x = 0; x < n; x++) if (q.modules.get(y, x))"
        "  for (let dy = 0; dy < scale; dy++) for (let dx = 0; dx < scale; dx++) {"
        "    const i = (((y + quiet) * scale + dy) * size + (x + quiet) * scale + dx) * 4; px[i] = px[i+1] = px[i+2] = 0; }"
        "const read = jsQR(px, size, size);"
        "console.log(JSON.stringify({version: q.version, read: read && read.data, text}));")
    out = subprocess.run(["node", "-e", script, str(tmp_path / "vendor/qr/qrcode.js"),
                          str(tmp_path / "vendor/qr/jsQR.js"), OFFER_CODE],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr[-2000:]
    import json

    result = json.loads(out.stdout)
    assert result["read"] == result["text"] and result["version"] == 9
