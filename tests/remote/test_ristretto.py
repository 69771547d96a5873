"""ristretto255 against RFC 9496 appendix A, and the group laws."""

from __future__ import annotations

import hashlib
import random

import pytest
from hypothesis import given, settings, strategies as st

from game.remote.ristretto import (
    BASE, IDENTITY, L, P, Element, EncodingError, base_mul, double_mul, multi_mul, random_scalar,
    scalar_decode, scalar_encode, scalar_from_wide, scalar_inverse,
)
from game.remote import ristretto

# RFC 9496 A.1: encodings of 0·B … 15·B.
MULTIPLES = [
    "0000000000000000000000000000000000000000000000000000000000000000",
    "e2f2ae0a6abc4e71a884a961c500515f58e30b6aa582dd8db6a65945e08d2d76",
    "6a493210f7499cd17fecb510ae0cea23a110e8d5b901f8acadd3095c73a3b919",
    "94741f5d5d52755ece4f23f044ee27d5d1ea1e2bd196b462166b16152a9d0259",
    "da80862773358b466ffadfe0b3293ab3d9fd53c5ea6c955358f568322daf6a57",
    "e882b131016b52c1d3337080187cf768423efccbb517bb495ab812c4160ff44e",
    "f64746d3c92b13050ed8d80236a7f0007c3b3f962f5ba793d19a601ebb1df403",
    "44f53520926ec81fbd5a387845beb7df85a96a24ece18738bdcfa6a7822a176d",
    "903293d8f2287ebe10e2374dc1a53e0bc887e592699f02d077d5263cdd55601c",
    "02622ace8f7303a31cafc63f8fc48fdc16e1c8c8d234b2f0d6685282a9076031",
    "20706fd788b2720a1ed2a5dad4952b01f413bcf0e7564de8cdc816689e2db95f",
    "bce83f8ba5dd2fa572864c24ba1810f9522bc6004afe95877ac73241cafdab42",
    "e4549ee16b9aa03099ca208c67adafcafa4c3f3e4e5303de6026e3ca8ff84460",
    "aa52e000df2e16f55fb1032fc33bc42742dad6bd5a8fc0be0167436c5948501f",
    "46376b80f409b29dc2b5f6f0c52591990896e5716f41477cd30085ab7f10301e",
    "e0c418f7c8d9c4cdd7395b93ea124f3ad99021bb681dfc3302a9d99a2e53e64e",
]

# RFC 9496 A.2: encodings decoding must refuse (non-canonical, negative, non-square, negative xy, s = -1).
INVALID = [
    "00ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
    "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
    "f3ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
    "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
    "0100000000000000000000000000000000000000000000000000000000000000",
    "01ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
    "ed57ffd8c914fb201471d1c3d245ce3c746fcbe63a3679d51b6a516ebebe0e20",
    "c34c4e1826e5d403b78e246e88aa051c36ccf0aafebffe137d148a2bf9104562",
    "c940e5a4404157cfb1628b108db051a8d439e1a421394ec4ebccb9ec92a8ac78",
    "47cfc5497c53dc8e61c91d17fd626ffb1c49e2bca94eed052281b510b1117a24",
    "f1c6165d33367351b0da8f6e4511010c68174a03b6581212c71c0e1d026c3c72",
    "87260f7a2f12495118360f02c26a470f450dadf34a413d21042b43b9d93e1309",
    "26948d35ca62e643e26a83177332e6b6afeb9d08e4268b650f1f5bbd8d81d371",
    "4eac077a713c57b4f4397629a4145982c661f48044dd3f96427d40b147d9742f",
    "de6a7b00deadc788eb6b6c8d20c0ae96c2f2019078fa604fee5b87d6e989ad7b",
    "bcab477be20861e01e4a0e295284146a510150d9817763caf1a6f4b422d67042",
    "2a292df7e32cababbd9de088d1d1abec9fc0440f637ed2fba145094dc14bea08",
    "f4a9e534fc0d216c44b218fa0c42d99635a0127ee2e53c712f70609649fdff22",
    "8268436f8c4126196cf64b3c7ddbda90746a378625f9813dd9b8457077256731",
    "2810e5cbc2cc4d4eece54f61c6f69758e289aa7ab440b3cbeaa21995c2f4232b",
    "3eb858e78f5a7254d8c9731174a94f76755fd3941c0ac93735c07ba14579630e",
    "a45fdc55c76448c049a1ab33f17023edfb2be3581e9c7aade8a6125215e04220",
    "d483fe813c6ba647ebbfd3ec41adca1c6130c2beeee9d9bf065c8d151c5f396e",
    "8a2e1d30050198c65a54483123960ccc38aef6848e1ec8f5f780e8523769ba32",
    "32888462f8b486c68ad7dd9610be5192bbeaf3b443951ac1a8118419d9fa097b",
    "227142501b9d4355ccba290404bde41575b037693cef1f438c47f8fbf35d1165",
    "5c37cc491da847cfeb9281d407efc41e15144c876e0170b499a96a22ed31e01e",
    "445425117cb8c90edcbc7c1cc0e74f747f2c1efa5630a967c64f287792a48a4b",
    "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
]

# RFC 9496 A.3: element derivation from SHA-512 of these labels.
HASHED = [
    ("Ristretto is traditionally a short shot of espresso coffee",
     "3066f82a1a747d45120d1740f14358531a8f04bbffe6a819f86dfe50f44a0a46"),
    ("made with the normal amount of ground coffee but extracted with",
     "f26e5b6f7d362d2d2a94c5d0e7602cb4773c95a2e5c31a64f133189fa76ed61b"),
    ("about half the amount of water in the same amount of time",
     "006ccd2a9e6867e6a2c5cea83d3302cc9de128dd2a9a57dd8ee7b9d7ffe02826"),
    ("by using a finer grind.",
     "f8f0c87cf237953c5890aec3998169005dae3eca1fbb04548c635953c817f92a"),
    ("This produces a concentrated shot of coffee per volume.",
     "ae81e7dedf20a497e10c304a765c1767a42d6e06029758d2d7e8ef7cc4c41179"),
    ("Just pulling a normal shot short will produce a weaker shot",
     "e2705652ff9f5e44d3e841bf1c251cf7dddb77d140870d1ab2ed64f1a9ce8628"),
    ("and is not a Ristretto as some believe.",
     "80bd07262511cdde4863f8a7434cef696750681cb9510eea557088f76d9e5065"),
]

scalars = st.integers(min_value=0, max_value=L - 1)


class TestVectors:
    def test_constants(self) -> None:
        assert ristretto.SQRT_M1 ** 2 % P == P - 1
        assert ristretto.D == -121665 * pow(121666, -1, P) % P
        assert ristretto.SQRT_AD_MINUS_ONE ** 2 % P == (-ristretto.D - 1) % P
        assert ristretto.INVSQRT_A_MINUS_D ** 2 * (-1 - ristretto.D) % P == 1
        assert ristretto.ONE_MINUS_D_SQ == (1 - ristretto.D ** 2) % P
        assert ristretto.D_MINUS_ONE_SQ == (ristretto.D - 1) ** 2 % P

    def test_multiples_of_the_generator(self) -> None:
        acc = IDENTITY
        for k, hexed in enumerate(MULTIPLES):
            assert acc.encode().hex() == hexed
            assert (BASE * k).encode().hex() == hexed
            assert base_mul(k).encode().hex() == hexed
            assert Element.decode(bytes.fromhex(hexed)) == acc
            acc = acc + BASE

    @pytest.mark.parametrize("hexed", INVALID)
    def test_bad_encodings_are_refused(self, hexed: str) -> None:
        with pytest.raises(EncodingError):
            Element.decode(bytes.fromhex(hexed))

    @pytest.mark.parametrize("length", [0, 31, 33, 64])
    def test_wrong_lengths_are_refused(self, length: int) -> None:
        with pytest.raises(EncodingError):
            Element.decode(bytes(length))

    @pytest.mark.parametrize(("label", "hexed"), HASHED)
    def test_hash_to_group(self, label: str, hexed: str) -> None:
        assert Element.derive(hashlib.sha512(label.encode()).digest()).encode().hex() == hexed

    def test_derive_takes_64_bytes(self) -> None:
        with pytest.raises(EncodingError):
            Element.derive(bytes(32))


class TestGroup:
    def test_order(self) -> None:
        assert (BASE * L).is_identity()
        assert base_mul(L) == IDENTITY
        assert BASE * (L + 5) == BASE * 5

    def test_torsion_is_quotiented_out(self) -> None:
        # Adding the edwards25519 point of order 2 (0, -1) gives the same ristretto element.
        twisted = BASE * 7 + Element((0, P - 1, 1, 0))
        assert twisted == BASE * 7
        assert twisted.encode() == (BASE * 7).encode()

    @settings(max_examples=15, deadline=None)
    @given(scalars, scalars)
    def test_laws(self, a: int, b: int) -> None:
        pa, pb = base_mul(a), BASE * b
        assert pa + pb == base_mul(a + b)
        assert pa - pb == base_mul(a - b)
        assert -pa + pa == IDENTITY
        assert pa * b == pb * a
        assert double_mul(a, BASE, b, pa) == base_mul(a + a * b)
        assert multi_mul([a, b, 3], [BASE, pb, pa]) == base_mul(a + b * b + 3 * a)
        assert Element.decode(pa.encode()) == pa
        assert (pa == pb) == (a == b)

    def test_multi_mul_with_short_weights(self) -> None:
        points = [base_mul(k) for k in (11, 22, 33)]
        weights = [2**127 + 1, 5, 2**128 - 1]
        assert multi_mul(weights, points, bits=128) == base_mul(sum(w * k for w, k in zip(weights, (11, 22, 33))))
        assert multi_mul([], []) == IDENTITY

    @pytest.mark.parametrize("n", [160, 300])
    def test_long_sums_by_the_bucket_method(self, n: int) -> None:
        """From ``PIPPENGER_FROM`` terms on the sum is Pippenger's: the same result as the logs'
        sum, with zero, negative, full-size and short scalars, a point repeated, the identity."""
        rng = random.Random(n)
        logs = [rng.randrange(0, L) for _ in range(n)]
        points = [base_mul(k) for k in logs]
        points[7], logs[7] = points[3], logs[3]
        points[9], logs[9] = IDENTITY, 0
        scalars = [rng.randrange(0, L) for _ in range(n)]
        scalars[:5] = [0, 1, L - 1, -5, 2 * L + 3]
        assert n >= ristretto.PIPPENGER_FROM
        assert multi_mul(scalars, points) == base_mul(sum(s * k for s, k in zip(scalars, logs)))
        short = [rng.getrandbits(128) for _ in range(n)]
        assert multi_mul(short, points, bits=128) == base_mul(sum(s * k for s, k in zip(short, logs)))


class TestScalars:
    def test_round_trip_and_canonical(self) -> None:
        k = random_scalar()
        assert 0 < k < L
        assert scalar_decode(scalar_encode(k)) == k
        with pytest.raises(EncodingError):
            scalar_decode(L.to_bytes(32, "little"))
        with pytest.raises(EncodingError):
            scalar_decode(bytes(31))

    def test_inverse_and_wide(self) -> None:
        k = random_scalar()
        assert k * scalar_inverse(k) % L == 1
        assert (BASE * k) * scalar_inverse(k) == BASE
        with pytest.raises(ZeroDivisionError):
            scalar_inverse(L)
        assert scalar_from_wide(bytes(64)) == 0
        assert scalar_from_wide(b"\xff" * 64) < L
