"""Chaum–Pedersen proofs of equal discrete logarithms in ristretto255, made non-interactive by
Fiat–Shamir with SHA-512, and Schnorr proofs of knowledge of a key.

A DLEQ proof shows log_G(A) = log_H(B) without revealing the logarithm. Every challenge hashes a
*context* (built with :func:`context` from the game id, the seat and the purpose) so that a proof
made for one game, seat, card or step proves nothing anywhere else.

A proof is 64 bytes: the challenge c and the response s, two canonical scalars. The prover
picks r, sends c = H(ctx, G, H, A, B, r·G, r·H) and s = r + c·x; the verifier recomputes
r·G = s·G − c·A and r·H = s·H − c·B and the hash.

Batches (:func:`prove_batch`, :func:`verify_batch`) prove that one secret x maps each base Hᵢ to
Bᵢ = x·Hᵢ, as one proof about the random linear combinations Σzᵢ·Hᵢ and Σzᵢ·Bᵢ with 128-bit
weights zᵢ hashed from everything proven (the "composites" of RFC 9497 §2.2.1): a batch that
contains a single wrong pair passes with probability at most 2^-128 per try.
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Callable, Sequence

from .ristretto import (
    BASE, Element, EncodingError, RandomSource, base_mul, double_mul, fixed_mul, multi_mul,
    scalar_decode, scalar_encode, scalar_from_wide,
)

PROOF_BYTES = 64
_DOMAIN = b"scarab/remote/dleq/v1"


class ProofError(ValueError):
    """A proof that does not parse or does not verify."""


def context(*fields: bytes | str | int) -> bytes:
    """An unambiguous byte string of the fields (each typed and length-prefixed)."""
    out = bytearray()
    for field in fields:
        if isinstance(field, int):
            data, tag = field.to_bytes(8, "big", signed=True), b"i"
        elif isinstance(field, str):
            data, tag = field.encode("utf-8"), b"s"
        else:
            data, tag = bytes(field), b"b"
        out += tag + len(data).to_bytes(4, "big") + data
    return bytes(out)


def hedged(secret: int, *statement: bytes | str | int,
           rng: RandomSource | None = None) -> Callable[[int, int], int]:
    """The nonces of a proof by ``secret`` of ``statement``: ``nonce(label, i)``, each a scalar
    hashed from the secret, the statement and 32 fresh random bytes (``secrets``, or ``rng`` in
    reproducible tests). Hedged, as RFC 8032 and RFC 6979 derive theirs and as the hedged
    signatures of draft-irtf-cfrg-det-sigs-with-noise mix in noise: a repeated or predictable
    random source alone cannot repeat a nonce for another statement (which would reveal the
    secret), and a fault in the hash alone cannot either, since the fresh bytes differ."""
    fresh = secrets.token_bytes(32) if rng is None else bytes(rng.randrange(0, 256) for _ in range(32))
    seed = hashlib.sha512(context(_DOMAIN + b"/nonce", scalar_encode(secret), fresh, *statement)).digest()

    def nonce(label: int, i: int) -> int:
        digest = hashlib.sha512(seed + label.to_bytes(2, "big") + i.to_bytes(4, "big")).digest()
        return scalar_from_wide(digest) or 1

    return nonce


def _challenge(ctx: bytes, *elements: Element) -> int:
    h = hashlib.sha512()
    h.update(context(_DOMAIN, ctx))
    for element in elements:
        h.update(element.encode())
    return scalar_from_wide(h.digest())


def _pack(c: int, s: int) -> bytes:
    return scalar_encode(c) + scalar_encode(s)


def _unpack(proof: bytes) -> tuple[int, int]:
    if len(proof) != PROOF_BYTES:
        raise ProofError(f"a proof is {PROOF_BYTES} bytes, not {len(proof)}")
    try:
        return scalar_decode(proof[:32]), scalar_decode(proof[32:])
    except EncodingError as err:
        raise ProofError(f"proof: {err}") from None


def prove(x: int, h: Element, ctx: bytes, rng: RandomSource | None = None,
          a: Element | None = None, b: Element | None = None, g: Element = BASE) -> bytes:
    """A proof that log_g(x·g) = log_h(x·h) (g the generator unless given); pass ``a`` = x·g and
    ``b`` = x·h when already computed."""
    fixed = g is BASE
    a = (base_mul(x) if fixed else g * x) if a is None else a
    b = h * x if b is None else b
    r = hedged(x, ctx, g.encode(), h.encode(), a.encode(), b.encode(), rng=rng)(0, 0)
    c = _challenge(ctx, g, h, a, b, base_mul(r) if fixed else g * r, h * r)
    return _pack(c, r + c * x)


def verify(a: Element, h: Element, b: Element, proof: bytes, ctx: bytes, g: Element = BASE) -> bool:
    """Whether ``proof`` shows log_g(a) = log_h(b) in this context. Never raises on bad input."""
    try:
        c, s = _unpack(proof)
    except ProofError:
        return False
    r_g = fixed_mul([(s, g), (-c, a)])  # g and a are keys: used again and again
    r_h = double_mul(s, h, -c, b)
    return _challenge(ctx, g, h, a, b, r_g, r_h) == c


def _weights(ctx: bytes, a: Element, bases: Sequence[Element], points: Sequence[Element]) -> list[int]:
    seed = hashlib.sha512(context(_DOMAIN + b"/batch", ctx, a.encode(),
                                  b"".join(e.encode() for e in bases),
                                  b"".join(e.encode() for e in points))).digest()
    weights = []
    for i in range(len(bases)):
        digest = hashlib.sha512(seed + i.to_bytes(4, "big")).digest()
        weights.append(int.from_bytes(digest[:16], "little") | 1)
    return weights


def prove_batch(x: int, bases: Sequence[Element], points: Sequence[Element], ctx: bytes,
                rng: RandomSource | None = None, g: Element = BASE) -> bytes:
    """One proof that points[i] = x·bases[i] for every i and that x is the key of x·g (g the
    generator unless given)."""
    if len(bases) != len(points) or not bases:
        raise ValueError("a batch proof needs as many points as bases, at least one")
    a = base_mul(x) if g is BASE else g * x
    z = _weights(ctx, a, bases, points)
    # The prover knows x, so the composite of the points is x times that of the bases.
    h = multi_mul(z, list(bases), bits=128)
    return prove(x, h, ctx, rng, a=a, b=h * x, g=g)


def verify_batch(a: Element, bases: Sequence[Element], points: Sequence[Element], proof: bytes,
                 ctx: bytes, g: Element = BASE) -> bool:
    """Whether ``proof`` shows points[i] = x·bases[i] for all i, with a = x·g."""
    if len(bases) != len(points) or not bases:
        return False
    z = _weights(ctx, a, bases, points)
    h = multi_mul(z, list(bases), bits=128)
    b = multi_mul(z, list(points), bits=128)
    return verify(a, h, b, proof, ctx, g=g)


def prove_key(x: int, ctx: bytes, rng: RandomSource | None = None) -> bytes:
    """A Schnorr proof of knowledge of x for the key x·G, bound to the context."""
    a = base_mul(x)
    r = hedged(x, ctx, a.encode(), rng=rng)(0, 0)
    c = _challenge(ctx, BASE, a, base_mul(r))
    return _pack(c, r + c * x)


def verify_key(a: Element, proof: bytes, ctx: bytes) -> bool:
    try:
        c, s = _unpack(proof)
    except ProofError:
        return False
    return _challenge(ctx, BASE, a, fixed_mul([(s, BASE), (-c, a)])) == c


__all__ = ["PROOF_BYTES", "ProofError", "context", "hedged", "prove", "prove_batch", "prove_key", "verify",
           "verify_batch", "verify_key"]
