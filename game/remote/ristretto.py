"""The ristretto255 prime-order group (RFC 9496) in pure Python, standard-library integers only.

Elements are kept in extended twisted Edwards coordinates (X:Y:Z:T) of edwards25519; the
ristretto encoding/decoding, equality and the one-way map follow RFC 9496 §4.3 word for word.
Scalars are plain ``int`` modulo :data:`L`. Arithmetic is *not* constant-time (CPython's big
integers never are); docs/remote.md says what that means for the deal.
"""

from __future__ import annotations

import secrets
from typing import Callable, Protocol, Sequence

#: The field prime 2^255 - 19 and the prime order of the group.
P = 2**255 - 19
L = 2**252 + 27742317777372353535851937790883648493

# RFC 9496 §4.1 constants (a = -1).
D = 37095705934669439343138083508754565189542113879843219016388785533085940283555
SQRT_M1 = 19681161376707505956807079304988542015446066515923890162744021073123829784752
SQRT_AD_MINUS_ONE = 25063068953384623474111414158702152701244531502492656460079210482610430750235
INVSQRT_A_MINUS_D = 54469307008909316920995813868745141605393597292927456921205312896311721017578
ONE_MINUS_D_SQ = 1159843021668779879193775521855586647937357759715417654439879720876111806838
D_MINUS_ONE_SQ = 40440834346308536858101042469323190826248399146238708352240133220865137265952
_D2 = 2 * D % P

_Point = tuple[int, int, int, int]


class EncodingError(ValueError):
    """Bytes that are not the canonical encoding of a group element or of a scalar."""


class RandomSource(Protocol):
    """What a deal needs from randomness (``secrets.SystemRandom`` satisfies it)."""

    def randrange(self, start: int, stop: int = ..., step: int = ...) -> int: ...


#: Called between pieces of work (each scalar multiplication, each row of a multi-multiplication,
#: each decoding): a page that must not freeze hands control back to the browser from here
#: (web/ui/pause.py); None on the command line and in the tests. It must not touch the group.
PAUSE: Callable[[], None] | None = None


def _pause() -> None:
    if PAUSE is not None:
        PAUSE()


def _is_negative(x: int) -> bool:
    return (x % P) & 1 == 1


def _abs(x: int) -> int:
    x %= P
    return P - x if x & 1 else x


def _sqrt_ratio_m1(u: int, v: int) -> tuple[bool, int]:
    """RFC 9496 §4.2 SQRT_RATIO_M1: (was_square, the non-negative root of u/v or of i*u/v)."""
    v3 = v * v % P * v % P
    v7 = v3 * v3 % P * v % P
    r = u * v3 % P * pow(u * v7 % P, (P - 5) // 8, P) % P
    check = v * r % P * r % P
    u %= P
    correct = check == u
    flipped = check == (-u) % P
    flipped_i = check == (-u) * SQRT_M1 % P
    if flipped or flipped_i:
        r = r * SQRT_M1 % P
    _pause()  # an exponentiation: every decoding, encoding and hash to the group
    return correct or flipped, _abs(r)


def _add(p: _Point, q: _Point) -> _Point:
    x1, y1, z1, t1 = p
    x2, y2, z2, t2 = q
    a = (y1 - x1) * (y2 - x2) % P
    b = (y1 + x1) * (y2 + x2) % P
    c = t1 * _D2 % P * t2 % P
    d = 2 * z1 * z2 % P
    e, f, g, h = b - a, d - c, d + c, b + a
    return e * f % P, g * h % P, f * g % P, e * h % P


def _double(p: _Point) -> _Point:
    x1, y1, z1, _ = p
    a = x1 * x1 % P
    b = y1 * y1 % P
    c = 2 * z1 * z1 % P
    h = a + b
    e = h - (x1 + y1) * (x1 + y1) % P
    g = a - b
    f = c + g
    return e * f % P, g * h % P, f * g % P, e * h % P


_Cached = tuple[int, int, int, int]
#: The identity in the cached form below.
_ZERO: _Cached = (1, 1, 0, 2)


def _cached(p: _Point) -> _Cached:
    """(Y−X, Y+X, 2d·T, 2Z): what an addition reads of the point it adds (one product fewer)."""
    x, y, z, t = p
    return (y - x) % P, (y + x) % P, t * _D2 % P, 2 * z % P


def _neg_cached(c: _Cached) -> _Cached:
    return c[1], c[0], -c[2] % P, c[3]


def _multiples(p: _Point) -> list[_Point]:
    """p, 2p, …, 8p (four doublings and three additions)."""
    p2 = _double(p)
    p3 = _add(p2, p)
    p4 = _double(p2)
    p6 = _double(p3)
    return [p, p2, p3, p4, _add(p4, p), p6, _add(p6, p), _double(p4)]


def _table(p: _Point) -> list[_Cached]:
    """d·p for the signed digits d = −8 … 8, at index d + 8, in the cached form."""
    positive = [_cached(q) for q in _multiples(p)]
    return [_neg_cached(c) for c in reversed(positive)] + [_ZERO] + positive


def _signed_digits(k: int) -> list[int]:
    """k ≥ 0 in radix 16 with digits −8 … 7, most significant first (one more digit than k has
    hexadecimal digits, for the last carry): 1/16 of the digits are zero and the table holds
    only 1…8 times the point (negating a point is free)."""
    out: list[int] = []
    carry = 0
    while k or carry:
        d = (k & 15) + carry
        k >>= 4
        if d >= 8:
            out.append(d - 16)
            carry = 1
        else:
            out.append(d)
            carry = 0
    out.reverse()
    return out


def _mul(k: int, p: _Point) -> _Point:
    """k·p with a signed 4-bit window."""
    k %= L
    if k == 0:
        return (0, 1, 1, 0)
    return _multi_mul([_signed_digits(k)], [_table(p)])


def _multi_mul(digit_rows: list[list[int]], tables: list[list[_Cached]]) -> _Point:
    """Σ kᵢ·pᵢ (Straus: one run of doublings shared by every term), the signed digits most
    significant first and of equal length, ``tables`` as :func:`_table` makes them. The doubling
    and the addition are inlined because they are nearly all the time; T is computed only on
    the doubling before an addition."""
    p = P
    x1, y1, z1, t1 = 0, 1, 1, 0
    first = True
    for position in range(len(digit_rows[0])):
        if PAUSE is not None and len(digit_rows) > 8:
            PAUSE()  # a long sum (a batch check): a pause point every row
        if not first:
            for _ in range(4):
                a = x1 * x1 % p
                b = y1 * y1 % p
                s = x1 + y1
                h = a + b
                g = a - b
                f = 2 * z1 * z1 + g
                e = h - s * s
                x1, y1, z1 = e * f % p, g * h % p, f * g % p
            t1 = e * h % p
        for row, table in zip(digit_rows, tables):
            digit = row[position]
            if digit:
                first = False
                c0, c1, c2, c3 = table[digit + 8]
                a = (y1 - x1) * c0 % p
                b = (y1 + x1) * c1 % p
                c = t1 * c2 % p
                d = z1 * c3 % p
                e, f, g, h = b - a, d - c, d + c, b + a
                x1, y1, z1, t1 = e * f % p, g * h % p, f * g % p, e * h % p
    _pause()
    return x1, y1, z1, t1


#: From this many terms on, Σ kᵢ·pᵢ is Pippenger's (the bucket method) rather than Straus's.
PIPPENGER_FROM = 160


def _pippenger(ks: list[int], points: list[_Point], bits: int) -> _Point:
    """Σ kᵢ·pᵢ by the bucket method (Pippenger; Bernstein et al., "Faster batch forgery
    identification", 2012): signed digits of c bits, and per digit position each point added
    once to the bucket of its digit, the buckets summed with two additions each. For n terms
    about (bits/c)·(n + 2^c) additions instead of Straus's (bits/4)·n + 7n: a third fewer for
    the few hundred terms of a shuffle proof's check."""
    n = len(points)
    c = 5 if n < 250 else 6 if n < 1000 else 7
    half = 1 << (c - 1)
    mask = (1 << c) - 1
    windows = bits // c + 2
    cached = [_cached(q) for q in points]
    negated = [_neg_cached(q) for q in cached]
    rows: list[list[int]] = []
    for k in ks:
        row = []
        for _ in range(windows):
            d = k & mask
            k >>= c
            if d >= half:
                d -= 1 << c
                k += 1
            row.append(d)
        rows.append(row)
    p = P
    acc: _Point = (0, 1, 1, 0)
    for w in range(windows - 1, -1, -1):
        for _ in range(c):
            acc = _double(acc)
        buckets: list[_Point | None] = [None] * half
        for i in range(n):
            d = rows[i][w]
            if not d:
                continue
            c0, c1, c2, c3 = cached[i] if d > 0 else negated[i]
            j = d - 1 if d > 0 else -d - 1
            bucket = buckets[j]
            if bucket is None:
                # The cached form back to a point: X = (c1 − c0)/2, Y = (c1 + c0)/2, Z = c3/2, T = XY/Z.
                x1, y1, z1 = (c1 - c0) % p, (c1 + c0) % p, c3 % p
                buckets[j] = (x1 * z1 % p, y1 * z1 % p, z1 * z1 % p, x1 * y1 % p)
                continue
            x1, y1, z1, t1 = bucket
            a = (y1 - x1) * c0 % p
            b = (y1 + x1) * c1 % p
            cc = t1 * c2 % p
            dd = z1 * c3 % p
            e, f, g, h = b - a, dd - cc, dd + cc, b + a
            buckets[j] = (e * f % p, g * h % p, f * g % p, e * h % p)
        running: _Point = (0, 1, 1, 0)
        total: _Point = (0, 1, 1, 0)
        for bucket in reversed(buckets):
            if bucket is not None:
                running = _add(running, bucket)
            total = _add(total, running)
        acc = _add(acc, total)
        _pause()
    return acc


def multi_mul(scalars: list[int], points: list["Element"], bits: int = 253) -> "Element":
    """Σ scalars[i]·points[i]; ``bits`` bounds the scalars (128 for batch weights: half the work)."""
    if not points:
        return IDENTITY
    ks = [k % L if bits >= 253 or not 0 <= k < 1 << bits else k for k in scalars]
    if len(points) >= PIPPENGER_FROM:
        return Element(_pippenger(ks, [q._p for q in points], max(k.bit_length() for k in ks)))
    rows = [_signed_digits(k) for k in ks]
    count = max(len(row) for row in rows)
    if count == 0:
        return IDENTITY
    rows = [[0] * (count - len(row)) + row for row in rows]
    return Element(_multi_mul(rows, [_table(q._p) for q in points]))


# Points multiplied again and again (the generator, public keys): a table of d·16^i·p for
# i = 0 … 63 and d = 1 … 8 makes k·p 64 additions at most, no doubling.
_Rows = list[list[_Cached]]


def _fixed_rows(p: _Point) -> _Rows:
    """The table of a point (costs about 2.5 multiplications, pays from the third use on)."""
    rows: _Rows = []
    for i in range(64):
        multiples = _multiples(p)
        rows.append([_cached(q) for q in multiples])
        p = _double(multiples[7])
        if i % 16 == 15:
            _pause()
    return rows


def _fixed_sum(terms: list[tuple[int, _Rows]]) -> _Point:
    """Σ kᵢ·pᵢ from the points' tables (kᵢ reduced modulo L)."""
    p = P
    x1, y1, z1, t1 = 0, 1, 1, 0
    for k, rows in terms:
        k %= L
        carry = 0
        for row in rows:
            digit = (k & 15) + carry
            k >>= 4
            if digit >= 8:
                digit -= 16
                carry = 1
            else:
                carry = 0
            if digit > 0:
                c0, c1, c2, c3 = row[digit - 1]
            elif digit < 0:
                c1, c0, c2, c3 = row[-digit - 1]
                c2 = p - c2
            else:
                continue
            a = (y1 - x1) * c0 % p
            b = (y1 + x1) * c1 % p
            c = t1 * c2 % p
            d = z1 * c3 % p
            e, f, g, h = b - a, d - c, d + c, b + a
            x1, y1, z1, t1 = e * f % p, g * h % p, f * g % p, e * h % p
    _pause()
    return x1, y1, z1, t1


#: How many decoded elements :meth:`Element.decode` remembers (by encoding; the oldest used goes
#: first): a 4-player Scarabeo game has about 800 distinct ones on all its devices together.
DECODED = 2048
_DECODED: dict[bytes, "Element"] = {}


class Element:
    """An element of ristretto255. Immutable; equality is the group's, not the coordinates'."""

    __slots__ = ("_p", "_enc")

    def __init__(self, point: _Point) -> None:
        self._p = point
        self._enc: bytes | None = None

    @classmethod
    def decode(cls, data: bytes) -> Element:
        """RFC 9496 §4.3.1: the element a 32-byte string encodes; refuses any other string.

        The last ``DECODED`` elements decoded are remembered by their exact bytes (a stored game
        is opened again and again, and decodes the same few hundred elements each time): an
        element is immutable, so one object serves every caller. Only a string that decoded is
        remembered; any other is checked, and refused, every time."""
        if cls is Element:
            key = bytes(data)
            element = _DECODED.pop(key, None)
            if element is not None:
                _DECODED[key] = element  # the most recent last
                _pause()
                return element
            element = cls._decode(key)
            _DECODED[key] = element
            if len(_DECODED) > DECODED:
                del _DECODED[next(iter(_DECODED))]
            return element
        return cls._decode(bytes(data))

    @classmethod
    def _decode(cls, data: bytes) -> Element:
        if len(data) != 32:
            raise EncodingError(f"an element is 32 bytes, not {len(data)}")
        s = int.from_bytes(data, "little")
        if s >= P or s & 1:
            raise EncodingError("not a canonical element encoding")
        ss = s * s % P
        u1 = (1 - ss) % P
        u2 = (1 + ss) % P
        u2_sqr = u2 * u2 % P
        v = (-(D * u1 % P * u1) - u2_sqr) % P
        was_square, invsqrt = _sqrt_ratio_m1(1, v * u2_sqr % P)
        den_x = invsqrt * u2 % P
        den_y = invsqrt * den_x % P * v % P
        x = _abs(2 * s * den_x)
        y = u1 * den_y % P
        t = x * y % P
        if not was_square or _is_negative(t) or y == 0:
            raise EncodingError("not a canonical element encoding")
        element = cls((x, y, 1, t))
        element._enc = data
        return element

    def encode(self) -> bytes:
        """RFC 9496 §4.3.2: the canonical 32-byte encoding."""
        if self._enc is None:
            x0, y0, z0, t0 = self._p
            u1 = (z0 + y0) * (z0 - y0) % P
            u2 = x0 * y0 % P
            _, invsqrt = _sqrt_ratio_m1(1, u1 * u2 % P * u2 % P)
            den1 = invsqrt * u1 % P
            den2 = invsqrt * u2 % P
            z_inv = den1 * den2 % P * t0 % P
            if _is_negative(t0 * z_inv):
                x, y = y0 * SQRT_M1 % P, x0 * SQRT_M1 % P
                den_inv = den1 * INVSQRT_A_MINUS_D % P
            else:
                x, y, den_inv = x0, y0, den2
            if _is_negative(x * z_inv):
                y = -y
            self._enc = _abs(den_inv * (z0 - y)).to_bytes(32, "little")
        return self._enc

    @classmethod
    def derive(cls, uniform: bytes) -> Element:
        """RFC 9496 §4.3.4: the element derived from 64 uniformly random bytes (hash to group)."""
        if len(uniform) != 64:
            raise EncodingError(f"element derivation takes 64 bytes, not {len(uniform)}")
        mask = (1 << 255) - 1
        r0 = (int.from_bytes(uniform[:32], "little") & mask) % P
        r1 = (int.from_bytes(uniform[32:], "little") & mask) % P
        return cls(_add(_map(r0), _map(r1)))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Element):
            return NotImplemented
        x1, y1, _, _ = self._p
        x2, y2, _, _ = other._p
        return (x1 * y2 - y1 * x2) % P == 0 or (y1 * y2 - x1 * x2) % P == 0

    def __hash__(self) -> int:
        return hash(self.encode())

    def __add__(self, other: Element) -> Element:
        return Element(_add(self._p, other._p))

    def __neg__(self) -> Element:
        x, y, z, t = self._p
        return Element((-x % P, y, z, -t % P))

    def __sub__(self, other: Element) -> Element:
        return self + (-other)

    def __mul__(self, k: int) -> Element:
        return Element(_mul(k, self._p))

    __rmul__ = __mul__

    def is_identity(self) -> bool:
        return self == IDENTITY

    def __repr__(self) -> str:
        return f"Element({self.encode().hex()})"


def _map(t: int) -> _Point:
    """RFC 9496 §4.3.4 MAP (Elligator 2 for ristretto255)."""
    r = SQRT_M1 * t % P * t % P
    u = (r + 1) * ONE_MINUS_D_SQ % P
    v = (-1 - r * D) * (r + D) % P
    was_square, s = _sqrt_ratio_m1(u, v)
    c = P - 1
    if not was_square:
        s = (-_abs(s * t)) % P
        c = r
    n = (c * (r - 1) % P * D_MINUS_ONE_SQ - v) % P
    w0 = 2 * s * v % P
    w1 = n * SQRT_AD_MINUS_ONE % P
    ss = s * s % P
    w2 = (1 - ss) % P
    w3 = (1 + ss) % P
    return w0 * w3 % P, w2 * w1 % P, w1 * w3 % P, w0 * w2 % P


IDENTITY = Element((0, 1, 1, 0))
#: The generator (RFC 9496 §4.4, the Ed25519 base point).
BASE = Element.decode(bytes.fromhex("e2f2ae0a6abc4e71a884a961c500515f58e30b6aa582dd8db6a65945e08d2d76"))

_BASE_ROWS: _Rows = []
#: The tables of the last points multiplied more than once (by encoding), and the points seen once.
_FIXED: dict[bytes, _Rows] = {}
_SEEN: dict[bytes, None] = {}
FIXED_POINTS = 16


def _rows(point: Element) -> _Rows | None:
    """The table of ``point`` from its second multiplication on (None the first time)."""
    if point is BASE:
        if not _BASE_ROWS:
            _BASE_ROWS.extend(_fixed_rows(BASE._p))
        return _BASE_ROWS
    key = point.encode()
    rows = _FIXED.pop(key, None)
    if rows is None:
        if key not in _SEEN:
            _SEEN[key] = None
            if len(_SEEN) > 4 * FIXED_POINTS:
                del _SEEN[next(iter(_SEEN))]
            return None
        rows = _fixed_rows(point._p)
    _FIXED[key] = rows  # the most recent last
    if len(_FIXED) > FIXED_POINTS:
        del _FIXED[next(iter(_FIXED))]
    return rows


def fixed_mul(terms: Sequence[tuple[int, Element]]) -> Element:
    """Σ kᵢ·pᵢ for points that are multiplied again and again (the generator, public keys): from
    a point's second use on, its table of multiples (kept for the last ``FIXED_POINTS`` points)
    makes its term 64 additions at most instead of 252 doublings and 64 additions."""
    tabled: list[tuple[int, _Rows]] = []
    scalars: list[int] = []
    points: list[Element] = []
    for k, point in terms:
        rows = _rows(point)
        if rows is None:
            scalars.append(k)
            points.append(point)
        else:
            tabled.append((k, rows))
    acc = _fixed_sum(tabled) if tabled else (0, 1, 1, 0)
    if points:
        acc = _add(acc, multi_mul(scalars, points)._p)
    return Element(acc)


def base_mul(k: int) -> Element:
    """k·BASE from the generator's table (64 additions at most, no doubling): keys and proofs use it."""
    return fixed_mul([(k, BASE)])


def double_mul(a: int, p: Element, b: int, q: Element) -> Element:
    """a·p + b·q, faster than two multiplications."""
    return multi_mul([a, b], [p, q])


# Scalars: integers modulo L.

def scalar_encode(k: int) -> bytes:
    return (k % L).to_bytes(32, "little")


def scalar_decode(data: bytes) -> int:
    """A canonical 32-byte little-endian scalar (< L); anything else is refused."""
    if len(data) != 32:
        raise EncodingError(f"a scalar is 32 bytes, not {len(data)}")
    k = int.from_bytes(data, "little")
    if k >= L:
        raise EncodingError("not a canonical scalar encoding")
    return k


def scalar_from_wide(data: bytes) -> int:
    """A uniform scalar from 64 bytes (a SHA-512 digest), as RFC 9496 and Ed25519 reduce them."""
    return int.from_bytes(data, "little") % L


def scalar_inverse(k: int) -> int:
    if k % L == 0:
        raise ZeroDivisionError("zero has no inverse modulo L")
    return pow(k, -1, L)


def random_scalar(rng: RandomSource | None = None) -> int:
    """A uniform non-zero scalar from ``secrets`` (or the given source, for reproducible tests)."""
    if rng is None:
        return 1 + secrets.randbelow(L - 1)
    return rng.randrange(1, L)


__all__ = [
    "BASE", "D", "IDENTITY", "L", "P", "Element", "EncodingError", "RandomSource", "base_mul",
    "double_mul", "fixed_mul", "multi_mul", "random_scalar", "scalar_decode", "scalar_encode", "scalar_from_wide",
    "scalar_inverse",
]
