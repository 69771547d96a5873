"""A verifiable shuffle of masked cards: proof that a deck is another deck, permuted, with every card
multiplied by one secret scalar — the step of Scarabeo's deal (``game.remote.deal``).

The statement: a base B, a key K = x·B, a deck received X₀ … X_{N−1} and the deck sent on
Y₀ … Y_{N−1}, with Y_j = x·X_{σ(j)} for a permutation σ and the secret x that K proves. Without it a
seat could keep the deck's sum and put blinded copies of another seat's cards in its own rack
(the 2026 audit): the sum proof that came before this one shows only Σ Y = x·Σ X.

The proof is Terelius and Wikström's proof of a shuffle ("Proofs of restricted shuffles",
AFRICACRYPT 2010), as Wikström's Verificatum and the CHVote specification (Haenni et al.,
"CHVote Protocol Specification", algorithms GenShuffleProof / CheckShuffleProof) implement it,
with the ElGamal re-encryption relation replaced by the exponentiation relation of this deal:

1. A commitment to the permutation matrix, one Pedersen commitment per output card:
   u_j = r_j·G + h_{σ(j)}, with independent generators hᵢ (hashed to the group: nobody knows a
   relation between them and G).
2. Challenges e_j (128 bits), hashed from the statement and the commitments (Fiat–Shamir), and
   their permutation e′ᵢ = e_j where σ(j) = i.
3. A chain of commitments ĉᵢ = r̂ᵢ·G + e′ᵢ·ĉ_{i−1} from ĉ₀ = H, which commits to Π e′ᵢ.
4. One sigma protocol (Schnorr's, for linear relations) proving knowledge of r̄, r̂, r, s and
   every r̂ᵢ and e′ᵢ with
   - Σ u_j − Σ hᵢ = r̄·G                    (every row of the matrix sums to 1)
   - ĉ_N − (Π e_j)·H = r̂·G                 (Π e′ᵢ = Π e_j: with the row sums, a permutation
                                             matrix, by the Schwartz–Zippel lemma)
   - Σ e_j·u_j = r·G + Σ e′ᵢ·hᵢ             (e′ is the matrix times e)
   - s·Σ e_j·Y_j = Σ e′ᵢ·Xᵢ and s·K = B      (s = x⁻¹: Σ e_j·Y_j = x·Σ e_j·X_{σ(j)})
   - ĉᵢ = r̂ᵢ·G + e′ᵢ·ĉ_{i−1} for every i
   made non-interactive by Fiat–Shamir over everything above (one challenge c, every response).

Soundness: a prover who gets the e_j after fixing u and Y (they are hashed from them) and answers
for two challenges c reveals a permutation matrix under the commitments (or a discrete-log
relation between G, H and the hᵢ); then Σ e_j·(s·Y_j − X_{σ(j)}) = 0 for e_j it could not choose,
which with one wrong card holds with probability at most 2⁻¹²⁸. Zero knowledge: the responses are
uniform given the challenge, the commitments perfectly hiding; nothing about σ or x is revealed
beyond K. In the random-oracle model (SHA-512).

A proof is the commitments u and ĉ, the sigma protocol's first messages t₁ … t₅ and t̂₁ … t̂_N
(elements), and its responses (scalars): (5N + 9) × 32 bytes, 21,088 for the 130 tiles. Sending the
t's rather than only the challenge lets a verifier check every equation at once (``verify``).
Nonces and commitment randomness are *hedged* (:func:`game.remote.dleq.hedged`): derived from x,
the statement and fresh random bytes, so a broken random source alone cannot leak x.
"""

from __future__ import annotations

import functools
import hashlib
import secrets
from typing import Sequence

from . import dleq
from .ristretto import (
    BASE, IDENTITY, Element, EncodingError, L, RandomSource, base_mul, fixed_mul, multi_mul, scalar_decode, scalar_encode,
    scalar_from_wide, scalar_inverse,
)

_DOMAIN = b"scarab/remote/shuffle/v1"
_ELEMENT = 32
#: The most cards a shuffle holds (Scarabeo's 130 tiles).
MAX_CARDS = 130


def proof_bytes(n: int) -> int:
    """The size of a proof for ``n`` cards: u, ĉ and t̂ (n elements each), t₁ … t₅, and the
    responses (4 + 2n scalars)."""
    return (5 * n + 9) * _ELEMENT


@functools.lru_cache(maxsize=1)
def _generators() -> tuple[Element, tuple[Element, ...], tuple[Element, ...]]:
    """H (the chain's start), the hᵢ and their prefix sums Σ_{i<n} hᵢ: hashed to the group, so
    that nobody knows a discrete logarithm between any two of them or G."""
    def derive(label: str, i: int) -> Element:
        return Element.derive(hashlib.sha512(dleq.context(_DOMAIN + b"/generator", label, i)).digest())
    h = tuple(derive("h", i) for i in range(MAX_CARDS))
    sums = [IDENTITY]
    for g in h:
        sums.append(sums[-1] + g)
    return derive("H", 0), h, tuple(sums)


def _challenges(ctx: bytes, base: Element, key: Element, inputs: Sequence[Element], outputs: Sequence[Element],
                commitments: Sequence[Element]) -> tuple[bytes, list[int]]:
    """The statement's digest and the 128-bit challenges e_j (odd: never zero) drawn from it."""
    seed = hashlib.sha512(dleq.context(
        _DOMAIN + b"/e", ctx, len(inputs), base.encode(), key.encode(),
        b"".join(e.encode() for e in inputs), b"".join(e.encode() for e in outputs),
        b"".join(e.encode() for e in commitments))).digest()
    return seed, [int.from_bytes(hashlib.sha512(seed + j.to_bytes(4, "big")).digest()[:16], "little") | 1
                  for j in range(len(inputs))]


def _final_challenge(seed: bytes, chain: bytes, t: bytes) -> int:
    return scalar_from_wide(hashlib.sha512(dleq.context(_DOMAIN + b"/c", seed, chain, t)).digest())


def prove(x: int, permutation: Sequence[int], base: Element, key: Element, inputs: Sequence[Element],
          outputs: Sequence[Element], ctx: bytes, rng: RandomSource | None = None) -> bytes:
    """The proof that ``outputs[j] = x·inputs[permutation[j]]`` for every j and ``key = x·base``."""
    n = len(inputs)
    if not 1 <= n <= MAX_CARDS or len(outputs) != n or sorted(permutation) != list(range(n)):
        raise ValueError("a shuffle takes 1 to 130 cards out and as many in, and a permutation")
    chain_base, h, _ = _generators()
    nonces = dleq.hedged(x, _DOMAIN, ctx, b"".join(e.encode() for e in outputs), rng=rng)
    r = [nonces(1, j) for j in range(n)]
    commitments = [base_mul(r[j]) + h[permutation[j]] for j in range(n)]
    seed, e = _challenges(ctx, base, key, inputs, outputs, commitments)
    e_perm = [0] * n
    for j, i in enumerate(permutation):
        e_perm[i] = e[j]
    r_hat = [nonces(2, i) for i in range(n)]
    # ĉᵢ = r̂ᵢ·G + e′ᵢ·ĉ_{i−1} is, unrolled, aᵢ·G + pᵢ·H with pᵢ = Π_{l≤i} e′ₗ and aᵢ = r̂ᵢ + e′ᵢ·a_{i−1}:
    # the prover knows both, so every chain element (and every t̂ᵢ below) is a sum over the two
    # fixed bases, from their tables, instead of a multiplication of the previous element.
    logs: list[tuple[int, int]] = [(0, 1)]      # (aᵢ, pᵢ) of ĉ₀ = H, ĉ₁, …
    for i in range(n):
        a, p = logs[-1]
        logs.append(((r_hat[i] + e_perm[i] * a) % L, p * e_perm[i] % L))
    chain = [fixed_mul([(a, BASE), (p, chain_base)]) for a, p in logs[1:]]
    r_bar = sum(r) % L
    r_lin = sum(ej * rj for ej, rj in zip(e, r)) % L
    r_agg = 0
    for i in range(n):
        r_agg = (r_agg * e_perm[i] + r_hat[i]) % L
    s = scalar_inverse(x)
    w1, w2, w3, w4 = (nonces(3, k) for k in range(4))
    w_hat = [nonces(4, i) for i in range(n)]
    w_perm = [nonces(5, i) for i in range(n)]
    z_sum = multi_mul(e, list(outputs), bits=128)
    t = [
        base_mul(w1),
        base_mul(w2),
        base_mul(w3) + multi_mul(w_perm, list(h[:n])),
        z_sum * w4 - multi_mul(w_perm, list(inputs)),
        key * w4,
    ]
    t += [fixed_mul([((w_hat[i] + w_perm[i] * logs[i][0]) % L, BASE), (w_perm[i] * logs[i][1] % L, chain_base)])
          for i in range(n)]
    chain_bytes = b"".join(ch.encode() for ch in chain)
    t_bytes = b"".join(ti.encode() for ti in t)
    c = _final_challenge(seed, chain_bytes, t_bytes)
    responses = [(w1 + c * r_bar) % L, (w2 + c * r_agg) % L, (w3 + c * r_lin) % L, (w4 + c * s) % L]
    responses += [(w_hat[i] + c * r_hat[i]) % L for i in range(n)]
    responses += [(w_perm[i] + c * e_perm[i]) % L for i in range(n)]
    return (b"".join(u.encode() for u in commitments) + chain_bytes + t_bytes
            + b"".join(scalar_encode(z) for z in responses))


def verify(base: Element, key: Element, inputs: Sequence[Element], outputs: Sequence[Element], proof: bytes,
           ctx: bytes) -> bool:
    """Whether ``proof`` shows that ``outputs`` is ``inputs`` permuted, each card multiplied by the
    x of ``key = x·base``, in this context. Never raises on bad input.

    The proof carries its sigma protocol's first messages (the t's), so the n + 5 equations are
    checked as one: their sum with random 128-bit weights of this device's own (Bellare, Garay and
    Rabin's small-exponent batch test) — one multi-scalar multiplication instead of n + 5; a false
    equation passes with probability at most 2⁻¹²⁷."""
    n = len(inputs)
    if not 1 <= n <= MAX_CARDS or len(outputs) != n or len(proof) != proof_bytes(n):
        return False
    cut = (3 * n + 5) * _ELEMENT
    try:
        elements = [Element.decode(proof[i:i + _ELEMENT]) for i in range(0, cut, _ELEMENT)]
        scalars = [scalar_decode(proof[i:i + _ELEMENT]) for i in range(cut, len(proof), _ELEMENT)]
    except EncodingError:
        return False
    commitments, chain, t = elements[:n], elements[n:2 * n], elements[2 * n:]
    z1, z2, z3, z4 = scalars[:4]
    z_hat, z_perm = scalars[4:4 + n], scalars[4 + n:]
    chain_base, h, sums = _generators()
    seed, e = _challenges(ctx, base, key, inputs, outputs, commitments)
    c = _final_challenge(seed, proof[n * _ELEMENT:2 * n * _ELEMENT], proof[2 * n * _ELEMENT:cut])
    product = 1
    for ej in e:
        product = product * ej % L
    g1, g2, g3, g4, g5 = (secrets.randbits(128) | 1 for _ in range(5))
    d = [secrets.randbits(128) | 1 for _ in range(n)]
    # Σ weight·(left − right) of every equation, gathered by point.
    on_g = g1 * z1 + g2 * z2 + g3 * z3 + sum(di * zi for di, zi in zip(d, z_hat))
    on_h = [g1 * c + g3 * zp for zp in z_perm]
    on_u = [-(g1 * c + g3 * c * ej) for ej in e]
    on_chain_base = g2 * c * product + d[0] * z_perm[0]
    on_chain = [-d[i] * c + d[i + 1] * z_perm[i + 1] for i in range(n - 1)] + [-(g2 + d[n - 1]) * c]
    on_x = [-g4 * zp for zp in z_perm]
    on_y = [g4 * z4 * ej for ej in e]
    total = multi_mul([on_g, on_chain_base, g5 * z4, -g5 * c, *on_h, *on_u, *on_chain, *on_x, *on_y],
                      [BASE, chain_base, key, base, *h[:n], *commitments, *chain, *inputs, *outputs])
    return total == multi_mul([g1, g2, g3, g4, g5, *d], t, bits=128)


__all__ = ["MAX_CARDS", "proof_bytes", "prove", "verify"]
