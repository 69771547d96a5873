"""Chaum–Pedersen proofs: honest proofs verify; every tampered field, context or batch member fails."""

from __future__ import annotations

import random

import pytest

from game.remote import dleq
from game.remote.ristretto import BASE, L, Element, base_mul, random_scalar, scalar_encode

CTX = dleq.context(b"game-1", 2, "share")


def _point(label: int) -> Element:
    return Element.derive(bytes([label]) * 64)


@pytest.fixture(scope="module")
def honest() -> tuple[int, Element, Element, Element, bytes]:
    x = random_scalar()
    h = _point(1)
    a, b = base_mul(x), h * x
    return x, h, a, b, dleq.prove(x, h, CTX)


class TestSingle:
    def test_valid_proof_verifies(self, honest: tuple[int, Element, Element, Element, bytes]) -> None:
        _, h, a, b, proof = honest
        assert dleq.verify(a, h, b, proof, CTX)
        assert len(proof) == dleq.PROOF_BYTES

    def test_every_tampered_field_fails(self, honest: tuple[int, Element, Element, Element, bytes]) -> None:
        x, h, a, b, proof = honest
        other = _point(2)
        assert not dleq.verify(a + BASE, h, b, proof, CTX)
        assert not dleq.verify(a, other, b, proof, CTX)
        assert not dleq.verify(a, h, b + h, proof, CTX)
        assert not dleq.verify(a, h, b, proof, dleq.context(b"game-2", 2, "share"))
        assert not dleq.verify(a, h, b, proof, dleq.context(b"game-1", 1, "share"))
        assert not dleq.verify(a, h, b, proof, CTX, g=other)
        for i in range(0, 64, 7):
            flipped = bytearray(proof)
            flipped[i] ^= 1
            assert not dleq.verify(a, h, b, bytes(flipped), CTX)

    def test_malformed_proofs_fail_without_raising(self, honest: tuple[int, Element, Element, Element, bytes]) -> None:
        _, h, a, b, proof = honest
        assert not dleq.verify(a, h, b, proof[:63], CTX)
        assert not dleq.verify(a, h, b, proof + b"\0", CTX)
        assert not dleq.verify(a, h, b, proof[:32] + L.to_bytes(32, "little"), CTX)
        # The same response shifted by L is a non-canonical scalar: refused.
        s = int.from_bytes(proof[32:], "little")
        if s + L < 2**256:
            assert not dleq.verify(a, h, b, proof[:32] + (s + L).to_bytes(32, "little"), CTX)

    def test_a_false_statement_cannot_be_proven(self) -> None:
        x = random_scalar()
        h = _point(3)
        # b is not x·h: the honest prover's algorithm with these inputs gives a failing proof.
        bad = dleq.prove(x, h, CTX, b=h * (x + 1))
        assert not dleq.verify(base_mul(x), h, h * (x + 1), bad, CTX)

    def test_other_generator(self) -> None:
        g, h = _point(4), _point(5)
        r = random_scalar()
        proof = dleq.prove(r, h, CTX, g=g)
        assert dleq.verify(g * r, h, h * r, proof, CTX, g=g)
        assert not dleq.verify(g * r, h, h * r, proof, CTX)

    def test_reproducible_with_a_seeded_source(self) -> None:
        h = _point(6)
        assert dleq.prove(5, h, CTX, random.Random(1)) == dleq.prove(5, h, CTX, random.Random(1))


class TestBatch:
    def test_valid_batch_verifies_and_each_tampering_fails(self) -> None:
        x = random_scalar()
        bases = [_point(10 + i) for i in range(6)]
        points = [b * x for b in bases]
        a = base_mul(x)
        proof = dleq.prove_batch(x, bases, points, CTX)
        assert dleq.verify_batch(a, bases, points, proof, CTX)
        for i in range(len(points)):
            wrong = list(points)
            wrong[i] = wrong[i] + BASE
            assert not dleq.verify_batch(a, bases, wrong, proof, CTX)
        swapped = [points[1], points[0]] + points[2:]
        assert not dleq.verify_batch(a, bases, swapped, proof, CTX)
        assert not dleq.verify_batch(a, bases[:-1], points[:-1], proof, CTX)
        assert not dleq.verify_batch(base_mul(x + 1), bases, points, proof, CTX)
        assert not dleq.verify_batch(a, [], [], proof, CTX)

    def test_one_wrong_pair_cannot_be_proven(self) -> None:
        x = random_scalar()
        bases = [_point(20 + i) for i in range(3)]
        points = [b * x for b in bases]
        points[2] = bases[2] * (x + 1)
        proof = dleq.prove_batch(x, bases, points, CTX)
        assert not dleq.verify_batch(base_mul(x), bases, points, proof, CTX)


class TestKeys:
    def test_proof_of_knowledge(self) -> None:
        x = random_scalar()
        proof = dleq.prove_key(x, CTX)
        assert dleq.verify_key(base_mul(x), proof, CTX)
        assert not dleq.verify_key(base_mul(x + 1), proof, CTX)
        assert not dleq.verify_key(base_mul(x), proof, dleq.context(b"game-1", 3, "share"))
        assert not dleq.verify_key(base_mul(x), proof[:10], CTX)


class TestContext:
    def test_fields_are_unambiguous(self) -> None:
        assert dleq.context("ab", "c") != dleq.context("a", "bc")
        assert dleq.context(b"1") != dleq.context("1") != dleq.context(1)
        assert dleq.context(b"x", 1) == dleq.context(b"x", 1)
        assert scalar_encode(L + 1) == scalar_encode(1)
