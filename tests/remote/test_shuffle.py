"""The verifiable shuffle (``game.remote.shuffle``): honest shuffles verify, and every way of
dealing other cards than the deck received, permuted and masked by the step's key, is refused."""

from __future__ import annotations

import functools
import random

import pytest
from hypothesis import given, settings, strategies as st

from game.remote import dleq, shuffle
from game.remote.ristretto import BASE, IDENTITY, L, Element, base_mul, scalar_decode, scalar_encode, scalar_inverse

CTX = dleq.context(b"test", b"game", 1)


@functools.lru_cache(maxsize=None)
def deck(n: int, seed: int = 0) -> tuple[Element, ...]:
    rng = random.Random(seed)
    return tuple(base_mul(rng.randrange(1, L)) for _ in range(n))


def shuffled(n: int, seed: int, base: Element = BASE) -> tuple[int, list[int], Element, list[Element], list[Element]]:
    """A key, a permutation, the key's public element and an honest step on ``deck(n)``."""
    rng = random.Random(seed)
    x = rng.randrange(1, L)
    order = list(range(n))
    rng.shuffle(order)
    inputs = list(deck(n))
    return x, order, base * x, inputs, [inputs[i] * x for i in order]


@functools.lru_cache(maxsize=None)
def honest(n: int, seed: int = 1) -> tuple[Element, list[Element], list[Element], bytes, int, list[int]]:
    x, order, key, inputs, outputs = shuffled(n, seed)
    proof = shuffle.prove(x, order, BASE, key, inputs, outputs, CTX, random.Random(seed))
    return key, inputs, outputs, proof, x, order


class TestHonest:
    @pytest.mark.parametrize("n", [1, 2, 3, 8])
    def test_an_honest_step_verifies(self, n: int) -> None:
        key, inputs, outputs, proof, _, _ = honest(n)
        assert len(proof) == shuffle.proof_bytes(n)
        assert shuffle.verify(BASE, key, inputs, outputs, proof, CTX)

    def test_the_whole_deck_with_another_base(self) -> None:
        """A reshuffle: the base is the seat's key of the epoch before, the key its new one."""
        base = base_mul(12345)
        x, order, key, inputs, outputs = shuffled(130, 3, base)
        proof = shuffle.prove(x, order, base, key, inputs, outputs, CTX)
        assert len(proof) == shuffle.proof_bytes(130) == 21_088
        assert shuffle.verify(base, key, inputs, outputs, proof, CTX)
        assert not shuffle.verify(BASE, key, inputs, outputs, proof, CTX)
        assert not shuffle.verify(base, key + base, inputs, outputs, proof, CTX)

    def test_two_proofs_of_one_step_differ_and_both_verify(self) -> None:
        x, order, key, inputs, outputs = shuffled(5, 4)
        first = shuffle.prove(x, order, BASE, key, inputs, outputs, CTX)
        second = shuffle.prove(x, order, BASE, key, inputs, outputs, CTX)
        assert first != second  # fresh randomness in every proof (hedged, never only derived)
        assert shuffle.verify(BASE, key, inputs, outputs, first, CTX)
        assert shuffle.verify(BASE, key, inputs, outputs, second, CTX)

    @settings(max_examples=15, deadline=None)
    @given(st.integers(1, 12), st.integers(0, 2**32))
    def test_any_permutation_and_key(self, n: int, seed: int) -> None:
        x, order, key, inputs, outputs = shuffled(n, seed)
        assert shuffle.verify(BASE, key, inputs, outputs, shuffle.prove(x, order, BASE, key, inputs, outputs, CTX), CTX)


class TestForgeries:
    """A cheating step cannot make a proof of anything but a permutation of the deck it received,
    masked by the key it shows: whatever it sends with its forged deck is refused."""

    def test_the_audits_blinded_copies(self) -> None:
        """The 2026 audit's forgery: the last seat keeps the sum (the old proof's only check) and
        puts blinded copies ρ·k·C of the other seat's cards into its own rack slots. Neither the
        honest step's proof nor one made for the forged deck verifies."""
        n = 24
        key, inputs, outputs, proof, x, order = honest(n)
        rho = 7
        forged = list(outputs)
        for j in range(8):                          # the cheat's rack: copies of the victim's cards 0–7
            forged[8 + j] = outputs[j] * rho
        fix = sum((o for o in outputs), IDENTITY) - sum((o for o in forged[:-1]), IDENTITY)
        forged[-1] = fix                            # the sum restored by one card that is no tile
        assert sum(forged, IDENTITY) == sum(outputs, IDENTITY)
        assert not shuffle.verify(BASE, key, inputs, forged, proof, CTX)
        # Proving the forged deck as if it were a shuffle: the prover's equations do not hold.
        assert not shuffle.verify(BASE, key, inputs, forged, shuffle.prove(x, order, BASE, key, inputs, forged, CTX), CTX)

    def test_a_card_replaced_duplicated_or_moved(self) -> None:
        key, inputs, outputs, proof, _, _ = honest(8)
        replaced = [*outputs[:3], base_mul(99), *outputs[4:]]
        duplicated = [*outputs[:3], outputs[0], *outputs[4:]]
        moved = [outputs[1], outputs[0], *outputs[2:]]
        for cards in (replaced, duplicated, moved):
            assert not shuffle.verify(BASE, key, inputs, cards, proof, CTX)

    def test_another_key_deck_received_or_context(self) -> None:
        key, inputs, outputs, proof, _, _ = honest(8)
        assert not shuffle.verify(BASE, key + BASE, inputs, outputs, proof, CTX)
        assert not shuffle.verify(BASE, key, [inputs[1], inputs[0], *inputs[2:]], outputs, proof, CTX)
        assert not shuffle.verify(BASE, key, inputs, outputs, proof, dleq.context(b"test", b"game", 2))
        assert not shuffle.verify(BASE, key, inputs[:7], outputs[:7], proof, CTX)

    def test_a_step_with_two_keys(self) -> None:
        """Masking some cards with another scalar (so the cheat could unmask them alone) fails."""
        x, order, key, inputs, outputs = shuffled(8, 5)
        mixed = [*outputs[:4], *(inputs[i] * (x + 1) for i in order[4:])]
        assert not shuffle.verify(BASE, key, inputs, mixed, shuffle.prove(x, order, BASE, key, inputs, mixed, CTX), CTX)

    def test_every_byte_of_the_proof_matters_and_nothing_raises(self) -> None:
        key, inputs, outputs, proof, _, _ = honest(3)
        for at in range(0, len(proof), 7):
            changed = bytearray(proof)
            changed[at] ^= 1 << (at % 8)
            assert not shuffle.verify(BASE, key, inputs, outputs, bytes(changed), CTX)
        for bad in (b"", proof[:-1], proof + b"\0", b"\xff" * len(proof)):
            assert not shuffle.verify(BASE, key, inputs, outputs, bad, CTX)

    def test_responses_shifted_consistently_do_not_verify(self) -> None:
        """A response moved by a multiple of the group order is no canonical scalar: refused."""
        key, inputs, outputs, proof, _, _ = honest(2)
        at = len(proof) - 32
        value = scalar_decode(proof[at:])
        shifted = proof[:at] + (value + L).to_bytes(32, "little")
        assert not shuffle.verify(BASE, key, inputs, outputs, shifted, CTX)

    def test_no_proof_for_a_step_that_is_no_permutation(self) -> None:
        x, order, key, inputs, outputs = shuffled(4, 6)
        with pytest.raises(ValueError):
            shuffle.prove(x, [0, 0, 1, 2], BASE, key, inputs, outputs, CTX)
        with pytest.raises(ValueError):
            shuffle.prove(x, order, BASE, key, inputs, outputs[:3], CTX)


class TestHedgedNonces:
    """Nonces come from the secret, the statement and fresh bytes: a random source that repeats
    itself does not repeat a nonce across statements (which would give the key away)."""

    class Stuck:
        def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
            return start

    def test_a_stuck_random_source_does_not_leak_a_signing_key(self) -> None:
        x = 0x1234567 % L
        first = dleq.prove_key(x, b"message one", self.Stuck())
        second = dleq.prove_key(x, b"message two", self.Stuck())
        c1, s1 = scalar_decode(first[:32]), scalar_decode(first[32:])
        c2, s2 = scalar_decode(second[:32]), scalar_decode(second[32:])
        # With one nonce for both, x = (s1 − s2)/(c1 − c2): the classic leak. Not here.
        assert (s1 - s2) * scalar_inverse(c1 - c2) % L != x
        assert dleq.verify_key(base_mul(x), first, b"message one")

    def test_a_stuck_random_source_does_not_leak_a_mask(self) -> None:
        x = 987654321
        h1, h2 = base_mul(5), base_mul(6)
        first = dleq.prove(x, h1, b"ctx", self.Stuck())
        second = dleq.prove(x, h2, b"ctx", self.Stuck())
        c1, s1 = scalar_decode(first[:32]), scalar_decode(first[32:])
        c2, s2 = scalar_decode(second[:32]), scalar_decode(second[32:])
        assert (s1 - s2) * scalar_inverse(c1 - c2) % L != x
        assert dleq.verify(base_mul(x), h1, h1 * x, first, b"ctx")

    def test_nonces_differ_with_the_secret_statement_and_fresh_bytes(self) -> None:
        same = dleq.hedged(5, b"a", rng=self.Stuck())
        assert same(0, 0) == dleq.hedged(5, b"a", rng=self.Stuck())(0, 0)  # all inputs equal: equal
        assert same(0, 0) != dleq.hedged(6, b"a", rng=self.Stuck())(0, 0)
        assert same(0, 0) != dleq.hedged(5, b"b", rng=self.Stuck())(0, 0)
        assert dleq.hedged(5, b"a")(0, 0) != dleq.hedged(5, b"a")(0, 0)   # fresh bytes from secrets
        assert len({same(label, i) for label in range(3) for i in range(50)}) == 150
        assert scalar_encode(same(0, 0)) != bytes(32)
