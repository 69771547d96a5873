"""Malformed, truncated or tampered lexicon files give a clear LexiconError, never a wrong answer."""

from __future__ import annotations

import struct
import zlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lexicon
from lexicon import Lexicon, LexiconError
from lexicon.automaton import CRC_OFFSET, HEADER_SIZE
from lexicon.dawg import build_dawg, serialise

WORDS = ["ABACO", "ABATE", "CANE", "CANI", "CASA", "CASE", "TA", "ZIO"]


@pytest.fixture(scope="module")
def good() -> bytes:
    return serialise(*build_dawg(WORDS), {"TA": "Taranto"})


def with_crc(data: bytes) -> bytes:
    """Re-seal a tampered file with a valid checksum (to test the structural checks)."""
    crc = zlib.crc32(data[CRC_OFFSET + 4:], zlib.crc32(data[:CRC_OFFSET]))
    return data[:CRC_OFFSET] + struct.pack("<I", crc) + data[CRC_OFFSET + 4:]


def test_good_file_loads(good: bytes) -> None:
    lex = Lexicon.from_bytes(good)
    assert list(lex.words()) == WORDS and lex.abbreviation("TA") == "Taranto"
    lex.verify()


@pytest.mark.parametrize("cut", [0, 1, 8, 40, HEADER_SIZE - 1, HEADER_SIZE, HEADER_SIZE + 3, -9, -1])
def test_truncated(good: bytes, cut: int) -> None:
    with pytest.raises(LexiconError, match="truncated"):
        Lexicon.from_bytes(good[:cut] if cut >= 0 else good[:len(good) + cut])


def test_trailing_bytes(good: bytes) -> None:
    with pytest.raises(LexiconError, match="trailing"):
        Lexicon.from_bytes(good + b"\0")


def test_wrong_magic(good: bytes) -> None:
    with pytest.raises(LexiconError, match="not a lexicon file"):
        Lexicon.from_bytes(b"GIF89a\0\0" + good[8:])


def test_other_version(good: bytes) -> None:
    bad = with_crc(good[:8] + struct.pack("<H", 99) + good[10:])
    with pytest.raises(LexiconError, match="version 99"):
        Lexicon.from_bytes(bad)


def test_other_alphabet(good: bytes) -> None:
    bad = with_crc(good[:37] + b"ABCDEFGHIJKLMNOPQRSTU" + good[58:])
    with pytest.raises(LexiconError, match="alphabet"):
        Lexicon.from_bytes(bad)


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_any_flipped_bit_is_caught(good: bytes, data: st.DataObject) -> None:
    position = data.draw(st.integers(0, len(good) - 1))
    bit = data.draw(st.integers(0, 7))
    bad = bytearray(good)
    bad[position] ^= 1 << bit
    with pytest.raises(LexiconError):
        Lexicon.from_bytes(bytes(bad))


def test_wrong_checksum_message(good: bytes) -> None:
    bad = bytearray(good)
    bad[HEADER_SIZE + 5] ^= 0x10
    with pytest.raises(LexiconError, match="checksum mismatch.*python -m lexicon build"):
        Lexicon.from_bytes(bytes(bad))


class TestStructuralChecksBehindAValidChecksum:
    def edge_offset(self, good: bytes, index: int) -> int:
        return HEADER_SIZE + 4 * index

    def test_child_past_the_end(self, good: bytes) -> None:
        off = self.edge_offset(good, 1)
        (e,) = struct.unpack_from("<I", good, off)
        bad = with_crc(good[:off] + struct.pack("<I", (e & 0x3F) | (10_000 << 7)) + good[off + 4:])
        with pytest.raises(LexiconError, match="past the end"):
            Lexicon.from_bytes(bad)

    def test_letter_outside_alphabet(self, good: bytes) -> None:
        off = self.edge_offset(good, 2)
        (e,) = struct.unpack_from("<I", good, off)
        bad = with_crc(good[:off] + struct.pack("<I", (e & ~0x1F) | 25) + good[off + 4:])
        with pytest.raises(LexiconError, match="outside the alphabet"):
            Lexicon.from_bytes(bad)

    def test_root_out_of_range(self, good: bytes) -> None:
        bad = with_crc(good[:24] + struct.pack("<I", 1 << 30) + good[28:])
        with pytest.raises(LexiconError, match="root"):
            Lexicon.from_bytes(bad)

    def test_bad_abbreviation_table(self, good: bytes) -> None:
        table_start = len(good) - len("TA\tTaranto\n")
        bad = with_crc(good[:table_start] + b"ta Taranto\n")
        with pytest.raises(LexiconError, match="abbreviation"):
            Lexicon.from_bytes(bad)

    def test_wrong_word_count_found_by_verify(self, good: bytes) -> None:
        bad = with_crc(good[:12] + struct.pack("<I", 99) + good[16:])
        with pytest.raises(LexiconError, match="header says 99"):
            Lexicon.from_bytes(bad).verify()


class TestLoad:
    def test_missing_file_says_how_to_build(self, tmp_path) -> None:
        with pytest.raises(LexiconError, match="not found.*python -m lexicon build"):
            lexicon.load(str(tmp_path / "nope.dawg"))

    def test_corrupt_file_on_disk(self, tmp_path, good: bytes) -> None:
        p = tmp_path / "it.dawg"
        p.write_bytes(good[:-3])
        with pytest.raises(LexiconError, match="python -m lexicon build"):
            lexicon.load(str(p))

    def test_load_from_path(self, tmp_path, good: bytes) -> None:
        p = tmp_path / "it.dawg"
        p.write_bytes(good)
        assert lexicon.load(str(p)).contains("casa")
